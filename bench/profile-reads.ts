// CPU per request of the read paths, in process (the dispatcher, no HTTP), with many iterations:
// steadier than req/s on a shared machine. For a flame graph, run it under `node --cpu-prof`.
//
//   npx tsx bench/profile-reads.ts <databaseUrl> [iterations=2000] [scenario,...]
//   PROFILE_DIR=prof npx tsx bench/profile-reads.ts <databaseUrl> 3000 list-cold
//     (writes prof/<scenario>.cpuprofile of the measured loop only; summarise it with
//     `npx tsx bench/cpuprofile-summary.ts prof/list-cold.cpuprofile`)
//
// AB=<NAME> alternates batches with the environment variable NAME set and unset and prints both
// sides' CPU per request (a temporary switch in the code under test, for a fair before/after).
//
// CACHE_ENTRIES=0 runs them with the response cache off.
//
// Scenarios: list-cold (random exclude), item-cold (random id), list-warm, item-warm (same URL,
// answered by the response cache), item-304 (If-None-Match of the cached ETag).
import { loadConfig } from '../src/config.js';
import { openDb } from '../src/db/client.js';
import { createApp } from '../gateway/app.js';
import { startCpuProfile } from './cpu-profile.js';
import { join } from 'node:path';

const url = process.argv[2];
if (!url) throw new Error('usage: profile-reads.ts <databaseUrl> [iterations] [scenarios]');
const n = Number(process.argv[3] ?? 2000);
const only = process.argv[4]?.split(',');

const db = await openDb(url);
const app = createApp({ ...loadConfig({ CACHE_ENTRIES: process.env.CACHE_ENTRIES }), databaseUrl: url, siteUrl: 'http://127.0.0.1:9400' }, db);
const ids = (await db.prisma.content.findMany({ where: { type: 'post', status: 'publish', password: '' }, select: { id: true } })).map((r) => r.id);
const pick = () => ids[Math.floor(Math.random() * ids.length)];
let serial = 0;
const LIST = '/wp-json/core/v2/posts';

const scenarios: Record<string, () => { url: string; headers?: Headers }> = {
  'list-cold': () => ({ url: `${LIST}?exclude=${pick()}&_=${++serial}` }),
  'item-cold': () => ({ url: `${LIST}/${pick()}?_=${++serial}` }),
  'list-warm': () => ({ url: LIST }),
  'item-warm': () => ({ url: `${LIST}/${ids[0]}` }),
  'item-304': () => ({ url: `${LIST}/${ids[0]}`, headers: new Headers({ 'if-none-match': etag }) }),
};
let etag = '';

for (const [name, next] of Object.entries(scenarios)) {
  if (only && !only.includes(name)) continue;
  if (name === 'item-304') {
    const r = await app.handle({ method: 'GET', url: `${LIST}/${ids[0]}`, headers: new Headers(), body: null });
    etag = r.headers.ETag ?? '';
    if (!etag) { console.log(`${name}: no ETag on the answer, skipped`); continue; }
  }
  const iterations = name.endsWith('cold') ? n : n * 10;
  const warm = Math.min(200, iterations / 10);
  let status = 0;
  for (let i = 0; i < warm; i++) {
    const t = next();
    status = (await app.handle({ method: 'GET', url: t.url, headers: t.headers ?? new Headers(), body: null })).status;
  }
  const stopProfile = process.env.PROFILE_DIR ? await startCpuProfile() : null;
  const s0 = db.statements;
  const c0 = process.cpuUsage();
  const t0 = performance.now();
  // AB=<NAME>: batches of 50 alternate with the environment variable NAME set and unset (for a
  // temporary switch in the code under test), so both sides see the same machine load.
  const ab = process.env.AB;
  const side = [0, 0];
  for (let i = 0; i < iterations; i++) {
    const b = ab ? Math.floor(i / 50) % 2 : 0;
    if (ab && i % 50 === 0) { if (b) process.env[ab] = '1'; else delete process.env[ab]; }
    const c = ab ? process.cpuUsage() : null;
    const t = next();
    await app.handle({ method: 'GET', url: t.url, headers: t.headers ?? new Headers(), body: null });
    if (c) { const u = process.cpuUsage(c); side[b] += u.user + u.system; }
  }
  if (ab) {
    delete process.env[ab];
    console.log(`${name.padEnd(10)} A/B: ${ab} unset ${(side[0] / 1000 / Math.ceil(iterations / 2)).toFixed(3)} ms CPU, set ${(side[1] / 1000 / Math.floor(iterations / 2)).toFixed(3)} ms CPU`);
  }
  const wall = (performance.now() - t0) / iterations;
  const cpu = process.cpuUsage(c0);
  const cpuMs = (cpu.user + cpu.system) / 1000 / iterations;
  if (stopProfile) await stopProfile(join(process.env.PROFILE_DIR!, `${name}.cpuprofile`));
  console.log(`${name.padEnd(10)} ${String(iterations).padStart(6)} × status ${status}: ${cpuMs.toFixed(3)} ms CPU, ${wall.toFixed(3)} ms wall, ${((db.statements - s0) / iterations).toFixed(2)} statements/request`);
}
await db.close();
