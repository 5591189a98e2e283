// CPU per request over HTTP: a server started with one worker, loaded by autocannon with one cold
// scenario, and the CPU time its processes spent (from /proc, user + system) divided by the
// answers. Unlike req/s this does not move much with what else the machine runs, and unlike
// bench/profile-reads.ts it includes node's HTTP, the headers, the log line and the socket writes.
// With `--profile=<dir>` the worker runs under `--cpu-prof` and its profile is written there when it
// stops (summarise with `npx tsx bench/cpuprofile-summary.ts <file>`).
//
//   npx tsx bench/profile-http.ts <databaseUrl> [--server=service|floor] [--scenario=item-cold|list-cold|item-warm]
//        [--seconds=10] [--connections=16] [--workers=1] [--profile=<dir>]
//
// Serves the compiled service (run `npm run build` first) or bench/floor-server.ts.
import autocannon from 'autocannon';
import { readdirSync, readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { openDb } from '../src/db/client.js';
import { processTree } from './processes.js';
import { HOST, startContender } from './contender.js';

const args = process.argv.slice(2);
const url = args.find((a) => !a.startsWith('--'));
if (!url) throw new Error('usage: profile-http.ts <databaseUrl> [--server=service|floor] [--scenario=item-cold|list-cold|item-warm] [--seconds=10] [--connections=16] [--workers=1] [--profile=<dir>]');
const opt = (name: string, fallback: string) => args.find((a) => a.startsWith(`--${name}=`))?.slice(name.length + 3) ?? fallback;
const server = opt('server', 'service');
const scenario = opt('scenario', 'item-cold');
const seconds = Number(opt('seconds', '10'));
const connections = Number(opt('connections', '16'));
const profileDir = args.find((a) => a.startsWith('--profile='))?.slice(10);
const workers = opt('workers', '1');

const db = await openDb(url);
const ids = (await db.prisma.content.findMany({ where: { type: 'post', status: 'publish', password: '' }, select: { id: true } })).map((r) => r.id);
await db.close();
const pick = () => ids[Math.floor(Math.random() * ids.length)];
let serial = 0;
const LIST = '/wp-json/core/v2/posts';
const scenarios: Record<string, () => string> = {
  'list-cold': () => `${LIST}?per_page=10&exclude=${pick()}&_=${++serial}`,
  'item-cold': () => `${LIST}/${pick()}?_=${++serial}`,
  'item-warm': () => `${LIST}/${ids[0]}`,
};
const next = scenarios[scenario];
if (!next) throw new Error(`--scenario: one of ${Object.keys(scenarios).join(', ')}`);

const { child, port, stop } = await startContender(server === 'floor' ? 'floor' : 'service', url, workers, ids[0], {
  ...(server === 'floor' ? {} : { LOG_LEVEL: process.env.LOG_LEVEL ?? 'info' }),
  ...(profileDir ? { NODE_OPTIONS: `--cpu-prof --cpu-prof-dir=${resolve(profileDir)}` } : {}),
});

/** CPU seconds (user + system) of each process under the server, by pid. */
const cpuOf = (): Map<number, number> => {
  const out = new Map<number, number>();
  for (const pid of processTree(child.pid!)) {
    try {
      const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ');
      out.set(pid, (Number(fields[11]) + Number(fields[12])) / 100);
    } catch { /* gone */ }
  }
  return out;
};
/** CPU seconds of the server's threads other than each process's main one (V8's GC helpers, libuv's pool). */
const byThread = new Map<string, number>();
const helpersOf = (root: number, sign = 1): number => {
  let ticks = 0;
  for (const pid of processTree(root)) {
    let tasks: string[] = [];
    try { tasks = readdirSync(`/proc/${pid}/task`); } catch { continue; }
    for (const task of tasks) {
      if (Number(task) === pid) continue;
      try {
        const fields = readFileSync(`/proc/${pid}/task/${task}/stat`, 'utf8').split(') ')[1].split(' ');
        ticks += Number(fields[11]) + Number(fields[12]);
        const name = readFileSync(`/proc/${pid}/task/${task}/comm`, 'utf8').trim();
        byThread.set(name, (byThread.get(name) ?? 0) + sign * (Number(fields[11]) + Number(fields[12])) / 100);
      } catch { /* gone */ }
    }
  }
  return ticks / 100;
};

const load = async (duration: number): Promise<autocannon.Result> => await autocannon({
  url: `http://${HOST}:${port}`, connections, duration,
  requests: [{ method: 'GET', path: next(), setupRequest: (req) => ({ ...req, path: next() }) }],
});

await load(3); // warm-up: the worker compiles its paths
const c0 = cpuOf();
const h0 = helpersOf(child.pid!, -1);
const result = await load(seconds);
const c1 = cpuOf();
const helpers = helpersOf(child.pid!) - h0;
const answers = result.requests.total;
const perAnswer = (s: number) => `${(s * 1e6 / answers).toFixed(0)} µs`;
const each = [...c1].map(([pid, s]) => ({ pid, s: s - (c0.get(pid) ?? 0) }));
const cpu = each.reduce((a, e) => a + e.s, 0);
console.log(`${server} ${scenario}: ${answers} answers (${result.non2xx} non-2xx) in ${seconds} s, ${Math.round(answers / seconds)} req/s, `
  + `${perAnswer(cpu)} of server CPU per answer (${each.map((e) => `${e.pid === child.pid ? 'primary' : 'worker'} ${perAnswer(e.s)}`).join(', ')}; of which ${perAnswer(helpers)} on threads other than the main ones: ${[...byThread].filter(([, v]) => v > 0).map(([k, v]) => `${k} ${perAnswer(v)}`).join(', ')})`);
await stop();
