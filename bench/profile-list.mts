// Times cold list requests in process (no HTTP), for profiling: npx tsx bench/profile-list.mts <dbUrl> [n]
import { loadConfig } from '../src/config.js';
import { openDb } from '../src/db/client.js';
import { createApp } from '../gateway/app.js';
const url = process.argv[2];
const n = Number(process.argv[3] ?? 300);
const db = await openDb(url);
const app = createApp({ ...loadConfig({}), databaseUrl: url, siteUrl: 'http://x', cacheEntries: 0 }, db);
const path = process.argv[4] ?? '/wp-json/core/v2/posts?per_page=10';
for (let i = 0; i < 30; i++) await app.handle({ method: 'GET', url: `${path}&exclude=${i + 1}`, headers: new Headers(), body: null });
const t0 = performance.now();
const c0 = process.cpuUsage();
const s0 = db.statements;
for (let i = 0; i < n; i++) await app.handle({ method: 'GET', url: `${path}&exclude=${1000 + i}`, headers: new Headers(), body: null });
const ms = (performance.now() - t0) / n;
const cpu = process.cpuUsage(c0);
const cpuMs = (cpu.user + cpu.system) / 1000 / n;
console.log(`${path}: ${ms.toFixed(2)} ms/request wall, ${cpuMs.toFixed(2)} ms CPU, ${((db.statements - s0) / n).toFixed(1)} statements/request`);
await db.close();
