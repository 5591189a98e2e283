// Times creates in process (no HTTP), for profiling the write path:
//   npx tsx bench/profile-writes.mts <dbUrl> [single|batch|atomic] [n]
// Prints wall and CPU milliseconds per created post and SQL statements per created post.
// Run against a copy of a bench database (it adds posts). PROFILE=<file.cpuprofile> writes a CPU
// profile of the timed part only (start-up and warm-up left out; bench/cpuprofile-summary.ts reads it).
import { loadConfig } from '../src/config.js';
import { openDb } from '../src/db/client.js';
import { createApp } from '../gateway/app.js';
import { createApplicationPassword } from '../src/site/operator.js';
import { startCpuProfile } from './cpu-profile.js';

const url = process.argv[2];
const mode = process.argv[3] ?? 'single';
const n = Number(process.argv[4] ?? 200);
const db = await openDb(url);
const admin = await db.prisma.user.findFirstOrThrow({ where: { role: 'administrator' }, orderBy: { id: 'asc' } });
const { password } = await createApplicationPassword(db, admin.id, `profile ${Date.now()}`);
const auth = 'Basic ' + Buffer.from(`${admin.login}:${password}`).toString('base64');
const app = createApp({ ...loadConfig({}), databaseUrl: url, siteUrl: 'http://x' }, db);
let serial = 0;
// A title (so a slug) of its own per run: runs over one database would otherwise check ever more taken slugs.
const run = Date.now().toString(36);
const post = () => ({ title: `Profiled ${run} ${++serial}`, content: 'Made in process.', status: 'publish' });

async function once(): Promise<number> {
  const headers = new Headers({ authorization: auth, 'content-type': 'application/json' });
  if (mode === 'single') {
    const res = await app.handle({ method: 'POST', url: '/wp-json/core/v2/posts', headers, body: Buffer.from(JSON.stringify(post())) } as never);
    if (res.status !== 201) throw new Error(`create answered ${res.status}`);
    return 1;
  }
  const requests = Array.from({ length: 25 }, () => ({ method: 'POST', path: '/core/v2/posts', body: post() }));
  const res = await app.handle({ method: 'POST', url: '/wp-json/batch/v1', headers, body: Buffer.from(JSON.stringify({ requests, ...(mode === 'atomic' ? { atomic: true } : {}) })) } as never);
  if (res.status !== 207) throw new Error(`batch answered ${res.status}`);
  return 25;
}

for (let i = 0; i < 10; i++) await once();
const stopProfile = process.env.PROFILE ? await startCpuProfile() : null;
const t0 = performance.now();
const c0 = process.cpuUsage();
const s0 = db.statements;
let posts = 0;
while (posts < n) posts += await once();
const ms = (performance.now() - t0) / posts;
const cpu = process.cpuUsage(c0);
if (stopProfile) await stopProfile(process.env.PROFILE!);
console.log(`${mode}: ${posts} posts, ${ms.toFixed(2)} ms/post wall, ${((cpu.user + cpu.system) / 1000 / posts).toFixed(2)} ms CPU, ${((db.statements - s0) / posts).toFixed(1)} statements/post`);
await db.close();
