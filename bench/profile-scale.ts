// The large-site list scenarios of bench/scale.ts, in process (the dispatcher, no HTTP, no
// response cache): time and SQL statements per request of page 1, page 1,000, one category, and
// search for a common and a rare word, each with a different `exclude` per request (X-WP-Total
// then comes from its per-version cache). `…-count` scenarios announce a write before each
// request, so the total is counted anew each time (the first request after any write).
//
//   npx tsx bench/profile-scale.ts <databaseUrl> [iterations=40] [scenario,...]
import { loadConfig } from '../src/config.js';
import { openDb } from '../src/db/client.js';
import { createApp } from '../gateway/app.js';
import { COMMON_WORD, RARE_WORD } from './scale.js';

const url = process.argv[2];
if (!url) throw new Error('usage: profile-scale.ts <databaseUrl> [iterations] [scenarios]');
const n = Number(process.argv[3] ?? 40);
const only = process.argv[4]?.split(',');

const db = await openDb(url);
const app = createApp({ ...loadConfig({}), databaseUrl: url, siteUrl: 'http://127.0.0.1:9800', cacheEntries: 0 }, db);
const ids = (await db.prisma.content.findMany({ where: { type: 'post', status: 'publish' }, select: { id: true }, orderBy: { id: 'desc' }, take: 20_000 })).map((r) => r.id);
const category = (await db.prisma.term.findFirst({ where: { taxonomy: 'category', slug: 'uncategorized' } }))?.id ?? 1;
const pick = () => ids[Math.floor(Math.random() * ids.length)];
const LIST = '/wp-json/core/v2/posts?per_page=10';

const queries: Record<string, string> = {
  page1: '',
  page1000: '&page=1000',
  category: `&categories=${category}`,
  'category-page1000': `&categories=${category}&page=1000`,
  'search-common': `&search=${COMMON_WORD}`,
  'search-rare': `&search=${RARE_WORD}`,
  'search-common-page100': `&search=${COMMON_WORD}&page=100`,
};
const scenarios: [string, string, boolean][] = [];
for (const [name, q] of Object.entries(queries)) scenarios.push([name, q, false], [`${name}-count`, q, true]);

for (const [name, query, cold] of scenarios) {
  if (only && !only.some((o) => o === name || (o.endsWith('*') && name.startsWith(o.slice(0, -1))))) continue;
  const get = async () => {
    if (cold) db.changed();
    const r = await app.handle({ method: 'GET', url: `${LIST}${query}&exclude=${pick()}`, headers: new Headers(), body: null });
    if (r.status !== 200) throw new Error(`${name}: HTTP ${r.status} ${String(r.body).slice(0, 200)}`);
    return r;
  };
  const first = await get();
  const times: number[] = [];
  const s0 = db.statements;
  const c0 = process.cpuUsage();
  for (let i = 0; i < n; i++) {
    const t0 = performance.now();
    await get();
    times.push(performance.now() - t0);
  }
  const cpu = process.cpuUsage(c0);
  times.sort((a, b) => a - b);
  const p50 = times[Math.floor(times.length / 2)];
  console.log(`${name.padEnd(28)} ${String(n).padStart(4)} × total ${String(first.headers['X-WP-Total']).padStart(8)}: p50 ${p50.toFixed(2)} ms, mean ${(times.reduce((a, b) => a + b, 0) / n).toFixed(2)} ms, ${((cpu.user + cpu.system) / 1000 / n).toFixed(2)} ms CPU, ${((db.statements - s0) / n).toFixed(2)} statements/request`);
}
await db.close();
