// The cold reads measured from outside: wrk (a load generator in C, from Debian's `wrk` package;
// not node, not autocannon) against the built service and the floor (bench/floor-server.ts), side
// by side in one run, alternated (floor, service, floor, service) so the machine's drift falls on
// both. The requests are the bench's cold ones: the list with a random `exclude` and one post by a
// random id with an ignored `_` that never repeats.
//
//   npx tsx bench/outside.ts [--db=<database URL>] [--seconds=10] [--connections=32] [--workers=2] [--rounds=2]
//
// The database defaults to the SQLite bench database of 10,000 posts (`npm run bench` seeds it);
// a SQLite file is copied first, so the run reads what the bench seeded whatever the bench wrote
// since. Serves dist/ (run `npm run build` first, or `npm start` once).
import { spawnSync } from 'node:child_process';
import { copyFileSync, existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { openDb } from '../src/db/client.js';
import { HOST, startContender, type Contender } from './contender.js';

const args = process.argv.slice(2);
const opt = (name: string, fallback: string) => args.find((a) => a.startsWith(`--${name}=`))?.slice(name.length + 3) ?? fallback;
const seconds = Number(opt('seconds', '10'));
const connections = Number(opt('connections', '32'));
const workers = opt('workers', '2');
const rounds = Number(opt('rounds', '2'));

if (spawnSync('wrk', ['--version']).error) {
  console.error('wrk is not installed: apt-get install -y wrk');
  process.exit(1);
}

const tmp = mkdtempSync(join(tmpdir(), 'outside-'));
process.on('exit', () => rmSync(tmp, { recursive: true, force: true }));
let url = opt('db', `file:${resolve('data/bench-sqlite-10000.db')}`);
if (url.startsWith('file:')) {
  const source = url.slice('file:'.length);
  if (!existsSync(source)) throw new Error(`${source} does not exist: run \`npm run bench\` once to seed it`);
  for (const suffix of ['', '-wal']) if (existsSync(source + suffix)) copyFileSync(source + suffix, join(tmp, `site.db${suffix}`));
  url = `file:${join(tmp, 'site.db')}`;
}

const db = await openDb(url);
const ids = (await db.prisma.content.findMany({ where: { type: 'post', status: 'publish', password: '' }, select: { id: true } })).map((r) => r.id);
await db.close();

// wrk's script: a random published id per request, and a count that never repeats.
const script = join(tmp, 'cold.lua');
writeFileSync(script, `
local ids = {${ids.join(',')}}
local n = 0
local mode = os.getenv("OUTSIDE_MODE")
math.randomseed(os.time())
request = function()
  n = n + 1
  local id = ids[math.random(#ids)]
  if mode == "list" then
    return wrk.format("GET", "/wp-json/core/v2/posts?per_page=10&exclude=" .. id .. "&_=" .. n)
  end
  return wrk.format("GET", "/wp-json/core/v2/posts/" .. id .. "?_=" .. n)
end
`);

/** A server started, then a few seconds of the same requests: a fresh process compiles its paths. */
async function start(kind: 'service' | 'floor'): Promise<Contender> {
  const s = await startContender(kind, url, workers, ids[0]);
  wrk(s.port, 'list', 2);
  wrk(s.port, 'item', 2);
  return s;
}

/** One wrk run: requests per second, the 99th percentile in ms, and non-2xx answers. */
function wrk(port: number, mode: 'list' | 'item', duration = seconds): { rps: number; p99: number; bad: number } {
  const out = spawnSync('wrk', ['-t1', `-c${connections}`, `-d${duration}s`, '--latency', '-s', script, `http://${HOST}:${port}`], { env: { ...process.env, OUTSIDE_MODE: mode }, encoding: 'utf8' }).stdout;
  const rps = Number(/Requests\/sec:\s+([\d.]+)/.exec(out)?.[1] ?? NaN);
  const p = /99%\s+([\d.]+)(us|ms|s)/.exec(out);
  const p99 = p ? Number(p[1]) * (p[2] === 'us' ? 0.001 : p[2] === 's' ? 1000 : 1) : NaN;
  const bad = Number(/Non-2xx or 3xx responses:\s+(\d+)/.exec(out)?.[1] ?? 0);
  return { rps, p99, bad };
}

const results: Record<string, { rps: number[]; p99: number[]; bad: number }> = {};
const record = (name: string, r: { rps: number; p99: number; bad: number }) => {
  const e = (results[name] ??= { rps: [], p99: [], bad: 0 });
  e.rps.push(r.rps); e.p99.push(r.p99); e.bad += r.bad;
  console.log(`${name.padEnd(16)} ${Math.round(r.rps).toLocaleString('en-US').padStart(7)} req/s  p99 ${r.p99.toFixed(1)} ms${r.bad ? `  non-2xx ${r.bad}` : ''}`);
};

console.log(`wrk, ${connections} connections, ${seconds} s a run, ${workers} workers each, ${ids.length.toLocaleString('en-US')} published posts, ${rounds} rounds`);
for (let round = 0; round < rounds; round++) {
  for (const kind of ['floor', 'service'] as const) {
    const s = await start(kind);
    for (const mode of ['list', 'item'] as const) record(`${kind} ${mode}`, wrk(s.port, mode));
    await s.stop();
  }
}
const mean = (xs: number[]) => xs.reduce((a, b) => a + b, 0) / xs.length;
console.log('\nservice ÷ floor (means of the rounds):');
for (const mode of ['list', 'item'] as const) {
  const svc = results[`service ${mode}`];
  const floor = results[`floor ${mode}`];
  console.log(`  cold ${mode}: ${(mean(svc.rps) / mean(floor.rps)).toFixed(2)}× (service ${Math.round(mean(svc.rps))} req/s, p99 ${Math.max(...svc.p99).toFixed(1)} ms; floor ${Math.round(mean(floor.rps))} req/s, p99 ${Math.max(...floor.p99).toFixed(1)} ms)`);
}
