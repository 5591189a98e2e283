// PostgreSQL: a process tells the others of its writes with NOTIFY on one connection of its own.
// Writes that commit together are told one notice at a time on that connection (pg refuses, from
// its next major version, a query sent while another runs on the same client), the last notice
// naming the options if any of those writes touched them. PostgreSQL only (SQLite processes read
// data_version instead).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestSite, provider, type TestSite } from '../helpers/app.js';
import { openDb, type Db } from '../../src/db/client.js';

let site: TestSite;
let other: Db;

async function until(done: () => boolean): Promise<boolean> {
  const deadline = Date.now() + 3000;
  while (!done() && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 5));
  return done();
}

describe.skipIf(provider !== 'postgres')('change notices between processes', () => {
  beforeAll(async () => {
    site = await createTestSite({ cacheEntries: 0 });
    other = await openDb(site.app.config.databaseUrl);
  });
  afterAll(async () => {
    await other?.close();
    await site?.close();
  });

  it('a burst of writes is told one notice at a time, and the others hear of it', async () => {
    const warnings: string[] = [];
    const onWarning = (w: Error) => { warnings.push(w.message); };
    process.on('warning', onWarning);
    try {
      const version = other.version();
      const options = other.optionsVersion();
      // Fifty content writes at once, none touching the options.
      await Promise.all(Array.from({ length: 50 }, (_, i) =>
        site.db.prisma.term.create({ data: { taxonomy: 'post_tag', name: `Burst ${i}`, slug: `burst-${i}` } })));
      expect(await until(() => other.version() !== version)).toBe(true);
      // Content writes only: the options stay where they were.
      await new Promise((resolve) => setTimeout(resolve, 50));
      expect(other.optionsVersion()).toBe(options);
      // Content writes and one option write in the same burst: the options move too.
      await Promise.all([
        ...Array.from({ length: 20 }, (_, i) => site.db.prisma.term.update({ where: { taxonomy_slug: { taxonomy: 'post_tag', slug: `burst-${i}` } }, data: { name: `Burst ${i}!` } })),
        site.db.prisma.option.upsert({ where: { name: 'notice_test' }, create: { name: 'notice_test', value: '1' }, update: { value: '2' } }),
      ]);
      expect(await until(() => other.optionsVersion() !== options)).toBe(true);
      await new Promise((resolve) => setTimeout(resolve, 50));
      expect(warnings.filter((w) => /already executing a query/.test(w))).toEqual([]);
    } finally {
      process.off('warning', onWarning);
    }
  });
});
