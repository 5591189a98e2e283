// `npx tsx bench/import-wordpress.ts [--posts=5000] [--comments=2]`: how fast the WordPress
// import goes. Generates an export (bench/wxr.ts: posts with categories, tags, a custom field and
// threaded comments), imports it into a new site (a temporary SQLite file, or the database in
// BENCH_DATABASE_URL, which must be empty) and prints items per minute for the whole run and per
// phase, then runs it again (everything already imported) and prints that too.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { migrate } from '../src/db/migrate.js';
import { openDb } from '../src/db/client.js';
import { bootstrapSite } from '../src/site/bootstrap.js';
import { createContext } from '../src/context.js';
import { servicesOf } from '../src/services.js';
import { importWordPress, type Phase } from '../src/import/wordpress/service.js';
import { generateWxr } from './wxr.js';

const arg = (name: string, fallback: number) => {
  const m = process.argv.find((a) => a.startsWith(`--${name}=`));
  return m ? Number(m.slice(name.length + 3)) : fallback;
};
const posts = arg('posts', 5000);
const comments = arg('comments', 2);

const dir = mkdtempSync(join(tmpdir(), 'import-bench-'));
const url = process.env.BENCH_DATABASE_URL ?? `file:${join(dir, 'site.db')}`;
try {
  await migrate(url);
  const db = await openDb(url);
  await bootstrapSite(db, { siteUrl: 'http://bench.example', adminUser: 'admin', adminPassword: 'bench-admin-password' });
  servicesOf(db);
  const admin = await db.prisma.user.findFirstOrThrow({ where: { role: 'administrator' }, select: { id: true, login: true } });
  const ctx = createContext(db, { id: admin.id, login: admin.login, role: 'administrator' });
  const xml = generateWxr({ posts, comments });
  console.log(`export: ${posts} posts, ${posts * comments} comments, ${(xml.length / 1024 / 1024).toFixed(1)} MB (${db.provider})`);

  for (const run of ['first run', 'second run']) {
    const phases = new Map<Phase, { start: number; end: number; total: number }>();
    const started = performance.now();
    const summary = await importWordPress(ctx, xml, {
      skipMedia: true,
      progress: ({ phase, done, total }) => {
        const now = performance.now();
        const p = phases.get(phase) ?? { start: now, end: now, total };
        p.end = now;
        phases.set(phase, p);
        void done;
      },
    });
    const seconds = (performance.now() - started) / 1000;
    const items = Object.values(summary.counts).reduce((n, c) => n + c.imported + c.matched + c.already, 0);
    console.log(`${run}: ${items} items in ${seconds.toFixed(1)} s = ${Math.round((items / seconds) * 60)} items/minute`);
    for (const [phase, p] of phases) {
      const s = (p.end - p.start) / 1000;
      console.log(`  ${phase.padEnd(12)} ${String(p.total).padStart(6)} in ${s.toFixed(1).padStart(6)} s${s > 0 ? ` = ${Math.round((p.total / s) * 60)}/minute` : ''}`);
    }
  }
  await db.close();
} finally {
  rmSync(dir, { recursive: true, force: true });
}
