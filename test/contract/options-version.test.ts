// Site settings are read again only when the options may have changed: a content write (a
// create, say) leaves them in place, a write to the Option table in this process or any write by
// another process makes the next read go to the database. Runs on both databases.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestSite, provider, type TestSite } from '../helpers/app.js';
import { openDb, touchesOptions, type Db } from '../../src/db/client.js';
import { setOption, siteSettings } from '../../src/site/options.js';

let site: TestSite;
let other: Db;
const sql = (s: string) => s.replaceAll('"', provider === 'sqlite' ? '`' : '"');

beforeAll(async () => {
  site = await createTestSite();
  other = await openDb(site.app.config.databaseUrl);
});

afterAll(async () => {
  await other?.close();
  await site?.close();
});

/** Waits (up to two seconds) until `db`'s options version has moved from `at`. */
async function movedFrom(db: Db, at: number): Promise<number> {
  const deadline = Date.now() + 2000;
  while (db.optionsVersion() === at && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 10));
  return db.optionsVersion();
}

describe('the options version', () => {
  it('stays put across a content create, which still moves the version', async () => {
    const settings = await siteSettings(site.db);
    const at = site.db.optionsVersion();
    const version = site.db.version();
    const res = await site.req('POST', '/core/v2/posts', { as: 'administrator', json: { title: 'Options stay', status: 'publish' } });
    expect(res.status).toBe(201);
    expect(site.db.version()).not.toBe(version);
    expect(site.db.optionsVersion()).toBe(at);
    const before = site.db.statements;
    expect(await siteSettings(site.db)).toBe(settings);
    expect(site.db.statements).toBe(before);
  });

  it('moves with a write to the Option table, in or out of a transaction, and the new value shows', async () => {
    let at = site.db.optionsVersion();
    await setOption(site.db.prisma, 'blogdescription', 'First tagline');
    expect(site.db.optionsVersion()).not.toBe(at);
    expect((await siteSettings(site.db)).description).toBe('First tagline');

    at = site.db.optionsVersion();
    await site.db.prisma.$transaction(async (tx) => {
      await tx.content.updateMany({ where: { id: -1 }, data: { title: 'nothing' } });
      await setOption(tx, 'blogdescription', 'Second tagline');
    });
    expect(site.db.optionsVersion()).not.toBe(at);
    expect((await siteSettings(site.db)).description).toBe('Second tagline');

    at = site.db.optionsVersion();
    const p = provider === 'postgres' ? ['$1', '$2'] : ['?', '?'];
    await site.db.prisma.$executeRawUnsafe(sql(`UPDATE "Option" SET "value" = ${p[0]} WHERE "name" = ${p[1]}`), '"Third tagline"', 'blogdescription');
    expect(site.db.optionsVersion()).not.toBe(at);
    expect((await siteSettings(site.db)).description).toBe('Third tagline');
  });

  it('a sticky post made through REST shows in the next read of the settings', async () => {
    const res = await site.req('POST', '/core/v2/posts', { as: 'administrator', json: { title: 'Sticky now', status: 'publish', sticky: true } });
    expect(res.status).toBe(201);
    expect(res.body.sticky).toBe(true);
    expect((await siteSettings(site.db)).stickyPosts).toContain(res.body.id);
  });

  it('moves when another process changes an option, and the new value shows', async () => {
    await siteSettings(site.db);
    const at = site.db.optionsVersion();
    await setOption(other.prisma, 'blogdescription', 'Set elsewhere');
    expect(await movedFrom(site.db, at)).not.toBe(at);
    expect((await siteSettings(site.db)).description).toBe('Set elsewhere');
  });

  it('a process that has only read (Prisma’s connection not open on SQLite) sees another process change an option', async () => {
    const reader = await openDb(site.app.config.databaseUrl);
    try {
      expect((await siteSettings(reader)).description).toBe('Set elsewhere');
      const at = reader.optionsVersion();
      await setOption(other.prisma, 'blogdescription', 'Seen by a reader');
      expect(await movedFrom(reader, at)).not.toBe(at);
      expect((await siteSettings(reader)).description).toBe('Seen by a reader');
    } finally {
      await reader.close();
    }
  });

  it('an option changed elsewhere just before this process’s first write is not lost when its connection opens', async () => {
    const reader = await openDb(site.app.config.databaseUrl);
    try {
      expect((await siteSettings(reader)).description).toBe('Seen by a reader');
      await setOption(other.prisma, 'blogdescription', 'Just before the first write');
      const at = reader.optionsVersion();
      // The first write opens Prisma's connection (SQLite): what committed before it is looked for
      // once then. PostgreSQL hears of the change by notice.
      await reader.prisma.content.updateMany({ where: { id: -1 }, data: { title: 'nothing' } });
      if (provider === 'postgres') await movedFrom(reader, at);
      expect((await siteSettings(reader)).description).toBe('Just before the first write');
    } finally {
      await reader.close();
    }
  });

  it('recognises Option-table SQL (a false yes only costs a re-read)', () => {
    expect(touchesOptions('UPDATE `main`.`Option` SET `value` = ? WHERE `name` = ?')).toBe(true);
    expect(touchesOptions('INSERT INTO "public"."Option" ("name","value") VALUES ($1,$2) ON CONFLICT ("name") DO UPDATE SET "value" = $3')).toBe(true);
    expect(touchesOptions('update option set value = 1')).toBe(true);
    expect(touchesOptions('INSERT INTO `main`.`Content` (`type`) VALUES (?)')).toBe(false);
    expect(touchesOptions('UPDATE "public"."Term" SET "count" = ("public"."Term"."count" + $1)')).toBe(false);
  });
});
