// A restart with nothing to write: the primary reads the site's options and whether an upload
// intent is recorded through the plain driver (src/db/start-probe.ts), and opens the ORM only when
// the site is new, its address moves, or there is something of a killed run to look up.
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync, existsSync } from 'node:fs';
import { hostname, tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { provider, SITE } from '../helpers/app.js';
import { readTemplate, testDatabase, type TestDatabase } from '../helpers/template.js';
import { openDb, type Db } from '../../src/db/client.js';
import { probeStart } from '../../src/db/start-probe.js';
import { bootstrapSite, siteNeedsBootstrap, SITE_START_OPTIONS, type BootstrapOptions } from '../../src/site/bootstrap.js';
import { recoverUploads } from '../../src/media/recovery.js';
import { createStorage } from '../../src/media/storage.js';

let database: TestDatabase;
let db: Db;
const uploadsDir = mkdtempSync(join(tmpdir(), 'site-start-probe-'));

beforeAll(async () => {
  let json: string | undefined;
  try { json = inject('siteTemplate'); } catch { /* outside a vitest run */ }
  database = await testDatabase(provider, readTemplate(json));
  db = await openDb(database.url);
});
afterAll(async () => {
  await db?.close();
  await database?.drop();
  rmSync(uploadsDir, { recursive: true, force: true });
});

const stored = (entries: Record<string, string>) => new Map(Object.entries(entries).map(([k, v]) => [k, JSON.stringify(v)]));
const admin = { adminUser: 'admin' };

describe('what a start reads before it opens the ORM', () => {
  it('the options it decides on, and whether an upload intent is recorded', async () => {
    const probe = await probeStart(database.url, SITE_START_OPTIONS);
    expect([...probe.options.keys()].sort()).toEqual(['home', 'site_key', 'siteurl']);
    expect(JSON.parse(probe.options.get('siteurl')!)).toBe(SITE);
    expect(probe.uploadIntents).toBe(false);

    const now = new Date();
    const row = await db.prisma.uploadIntent.create({ data: { owner: `${hostname()}:1:abcd`, writeId: 'w', key: '2026/01/a.jpg', created: now, seen: now } });
    try {
      expect((await probeStart(database.url, SITE_START_OPTIONS)).uploadIntents).toBe(true);
    } finally {
      await db.prisma.uploadIntent.delete({ where: { id: row.id } });
    }
  });

  it('needs the bootstrap only for a new site or an address that moves', () => {
    const site = { site_key: 'k', siteurl: 'http://127.0.0.1:8080', home: 'http://127.0.0.1:8080' };
    const cases: [Record<string, string>, BootstrapOptions, boolean][] = [
      [{}, { ...admin, siteUrl: 'http://127.0.0.1:8080' }, true],
      [site, { ...admin, siteUrl: 'https://elsewhere.example' }, false],
      [site, { ...admin, siteUrl: 'http://127.0.0.1:8080', followSiteUrl: true }, false],
      [site, { ...admin, siteUrl: 'https://moved.example', followSiteUrl: true }, true],
      [{ ...site, home: 'https://other.example' }, { ...admin, siteUrl: 'http://127.0.0.1:8080', followSiteUrl: true }, true],
      [site, { ...admin, siteUrl: 'http://127.0.0.1:9000', followSiteUrl: 'loopback' }, true],
      [site, { ...admin, siteUrl: 'http://127.0.0.1:8080', followSiteUrl: 'loopback' }, false],
      [{ ...site, siteurl: 'https://public.example' }, { ...admin, siteUrl: 'http://127.0.0.1:9000', followSiteUrl: 'loopback' }, false],
    ];
    expect(cases.map(([s, o]) => siteNeedsBootstrap(stored(s), o))).toEqual(cases.map(([, , needed]) => needed));
  });

  it('after the bootstrap a start with the same settings has nothing more to write', async () => {
    for (const o of [
      { ...admin, siteUrl: 'http://127.0.0.1:9100', followSiteUrl: true },
      { ...admin, siteUrl: 'http://127.0.0.1:9200', followSiteUrl: 'loopback' as const },
      { ...admin, siteUrl: 'https://live.example', followSiteUrl: true },
    ]) {
      expect(siteNeedsBootstrap((await probeStart(database.url, SITE_START_OPTIONS)).options, o)).toBe(true);
      await bootstrapSite(db, o);
      const after = await probeStart(database.url, SITE_START_OPTIONS);
      expect(JSON.parse(after.options.get('siteurl')!)).toBe(o.siteUrl);
      expect(JSON.parse(after.options.get('home')!)).toBe(o.siteUrl);
      expect(siteNeedsBootstrap(after.options, o)).toBe(false);
    }
  });
});

describe('the start-up recovery of uploads', () => {
  const deadPid = () => spawnSync(process.execPath, ['-e', '']).pid!;
  const storage = createStorage({ siteUrl: 'https://example.test', uploadsDir });

  it('opens no database when no intent is recorded and no old note is left, and still removes temporary files', async () => {
    mkdirSync(join(uploadsDir, '.tmp'), { recursive: true });
    const temporary = join(uploadsDir, '.tmp', `${deadPid()}-aaaa`);
    writeFileSync(temporary, 'x');
    let opened = 0;
    const open = async () => { opened++; return db.prisma; };
    expect(await recoverUploads(open, uploadsDir, { storage, uploadIntents: false })).toEqual({ temporary: 1, orphans: 0 });
    expect(existsSync(temporary)).toBe(false);
    expect(opened).toBe(0);
  });

  it('opens it for the intents when the probe saw one, and for the keys of an old note', async () => {
    let opened = 0;
    const open = async () => { opened++; return db.prisma; };
    expect(await recoverUploads(open, uploadsDir, { storage, uploadIntents: true })).toEqual({ temporary: 0, orphans: 0 });
    expect(opened).toBe(1);
    mkdirSync(join(uploadsDir, '.pending'), { recursive: true });
    mkdirSync(join(uploadsDir, '2026/02'), { recursive: true });
    writeFileSync(join(uploadsDir, '2026/02/cut.jpg'), 'x');
    writeFileSync(join(uploadsDir, '.pending', `${deadPid()}-bbbb`), '2026/02/cut.jpg\n');
    expect(await recoverUploads(open, uploadsDir, { storage, uploadIntents: false })).toEqual({ temporary: 0, orphans: 1 });
    expect(opened).toBe(2);
    expect(existsSync(join(uploadsDir, '2026/02/cut.jpg'))).toBe(false);
  });
});
