// What killed test runs leave (test/helpers/template.ts): databases and directories named for a
// process of this machine that has ended are removed by the next run's global setup; those of a
// live process, of another machine, or of any other name are left alone.
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, dirname, join } from 'node:path';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { sqlitePath } from '../../src/db/migrate.js';
import {
  databaseName, directoryPrefix, HOST_TAG, ownerOf, pgBase, processAlive, readTemplate,
  sweepDatabases, sweepDirectories, testDatabase,
} from '../helpers/template.js';

const provider = process.env.TEST_PROVIDER === 'postgres' ? 'postgres' : 'sqlite';
const OTHER_HOST = HOST_TAG === '00000000' ? '11111111' : '00000000';

/** The id of a process that has ended: one started here and waited for. */
async function endedPid(): Promise<number> {
  const child = spawn(process.execPath, ['-e', '']);
  await once(child, 'exit');
  expect(processAlive(child.pid!)).toBe(false);
  return child.pid!;
}

let dead: number;
beforeAll(async () => { dead = await endedPid(); });

describe('names', () => {
  it('carry the owner for this machine only', () => {
    expect(ownerOf(databaseName('test', 4321))).toBe(4321);
    expect(ownerOf(databaseName('template', 4321))).toBe(4321);
    expect(ownerOf(`${basename(directoryPrefix('test', 4321))}AbC123`)).toBe(4321);
    expect(ownerOf(`site_test_4321_${OTHER_HOST}_0123456789ab`)).toBeNull();
    for (const name of [
      'site_test_0123456789ab', // the names of before: no owner in them
      `site_test_4321_${HOST_TAG}_0123456789ab_x`,
      `site_test_4321_${HOST_TAG}_0123456789AB`,
      `site_other_4321_${HOST_TAG}_0123456789ab`,
      `site-test-4321-${HOST_TAG}-AbC1234`,
      `site-test-0-${HOST_TAG}-AbC123`,
    ]) expect(ownerOf(name), name).toBeNull();
  });

  it('of a test site are those the sweep reads, owned by the process that built the template', async () => {
    const template = readTemplate(inject('siteTemplate'));
    const db = await testDatabase(provider, template);
    try {
      const name = provider === 'sqlite' ? basename(dirname(sqlitePath(db.url))) : new URL(db.url).pathname.slice(1);
      const owner = ownerOf(name);
      expect(owner).toBe(template?.owner ?? process.pid);
      expect(processAlive(owner!)).toBe(true);
    } finally {
      await db.drop();
    }
  });
});

describe('directories', () => {
  const root = mkdtempSync(join(tmpdir(), 'leftovers-'));
  afterAll(() => rmSync(root, { recursive: true, force: true }));

  it('of an ended process are removed; those of a live one, another machine or another name stay', () => {
    const made = (name: string) => { mkdirSync(join(root, name)); writeFileSync(join(root, name, 'site.db'), ''); return name; };
    const ended = made(`site-test-${dead}-${HOST_TAG}-AbC123`);
    const endedTemplate = made(`site-template-${dead}-${HOST_TAG}-xYz789`);
    const live = made(`site-test-${process.pid}-${HOST_TAG}-AbC123`);
    const elsewhere = made(`site-test-${dead}-${OTHER_HOST}-AbC123`);
    const unlike = made(`site-test-${dead}-${HOST_TAG}-AbC123-copy`);
    const file = `site-test-${dead}-${HOST_TAG}-QrS456`;
    writeFileSync(join(root, file), '');

    expect(sweepDirectories(root).sort()).toEqual([ended, endedTemplate].sort());
    expect(existsSync(join(root, ended))).toBe(false);
    expect(existsSync(join(root, endedTemplate))).toBe(false);
    for (const kept of [live, elsewhere, unlike, file]) expect(existsSync(join(root, kept)), kept).toBe(true);
  });
});

describe.runIf(provider === 'postgres')('PostgreSQL databases', () => {
  const names: string[] = [];
  const admin = async <T>(run: (c: pg.Client) => Promise<T>): Promise<T> => {
    const c = new pg.Client({ connectionString: pgBase() });
    await c.connect();
    try { return await run(c); } finally { await c.end(); }
  };
  const exists = (name: string) => admin(async (c) => (await c.query('SELECT 1 FROM pg_database WHERE datname = $1', [name])).rowCount === 1);
  afterAll(() => admin(async (c) => { for (const name of names) await c.query(`DROP DATABASE IF EXISTS "${name}"`); }));

  it('of an ended process are dropped; those of a live one, another machine or another name stay', async () => {
    const ended = databaseName('test', dead);
    const live = databaseName('test', process.pid);
    const elsewhere = databaseName('test', dead).replace(`_${HOST_TAG}_`, `_${OTHER_HOST}_`);
    const unlike = `${databaseName('template', dead)}_copy`;
    names.push(ended, live, elsewhere, unlike);
    await admin(async (c) => { for (const name of names) await c.query(`CREATE DATABASE "${name}"`); });
    // Held open, as a killed run's worker may leave it.
    const open = new pg.Client({ connectionString: Object.assign(new URL(pgBase()), { pathname: `/${ended}` }).toString() });
    await open.connect();
    open.on('error', () => {});

    // Another run starting now may sweep `ended` first: what counts is that it is gone.
    const removed = await sweepDatabases();
    for (const kept of [live, elsewhere, unlike]) expect(removed, kept).not.toContain(kept);
    expect(await exists(ended)).toBe(false);
    for (const kept of [live, elsewhere, unlike]) expect(await exists(kept), kept).toBe(true);
    await open.end().catch(() => {});
  });
});
