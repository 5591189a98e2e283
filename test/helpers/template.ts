// The migrated, bootstrapped site every test file starts from: built once per `vitest run`
// (test/setup/global.ts) and copied per file, so no file migrates or hashes passwords itself.
// SQLite: a database file, copied. PostgreSQL: a template database, cloned with
// CREATE DATABASE … TEMPLATE. A JSON next to it records the users' ids and plain application
// passwords. Without a template (global setup skipped), each site is built from scratch.
import { copyFileSync, existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { randomBytes } from 'node:crypto';
import Database from 'better-sqlite3';
import pg from 'pg';
import { migrate, sqlitePath } from '../../src/db/migrate.js';
import { openDb, type Db } from '../../src/db/client.js';
import { bootstrapSite } from '../../src/site/bootstrap.js';
import { createApplicationPassword, createUser } from '../../src/site/operator.js';
import { ROLES, type Role } from '../../src/auth/capabilities.js';

export type Provider = 'sqlite' | 'postgres';
export const SITE = 'http://site.test';

export interface SeededUser { id: number; login: string; role: Role; password: string }
export type SeededUsers = Record<Role, SeededUser>;

/** What the JSON next to the template holds. */
export interface TemplateInfo {
  provider: Provider;
  /** SQLite: the template file's URL. PostgreSQL: the server's URL with the template's name. */
  url: string;
  users: SeededUsers;
}

export const pgBase = () => process.env.TEST_DATABASE_URL ?? 'postgresql://postgres@127.0.0.1:5432/postgres';

function pgUrl(name: string): string {
  const url = new URL(pgBase());
  url.pathname = `/${name}`;
  return url.toString();
}

async function pgAdmin<T>(run: (c: pg.Client) => Promise<T>): Promise<T> {
  const c = new pg.Client({ connectionString: pgBase() });
  await c.connect();
  try { return await run(c); } finally { await c.end(); }
}

/** The site options, the administrator, one user per other role, and an application password each. */
export async function seedSite(db: Db): Promise<SeededUsers> {
  await bootstrapSite(db, { siteUrl: SITE, adminUser: 'admin', adminPassword: 'admin-password' });
  const users = {} as SeededUsers;
  for (const role of ROLES) {
    const login = role === 'administrator' ? 'admin' : `${role}1`;
    const user = role === 'administrator'
      ? (await db.prisma.user.findUniqueOrThrow({ where: { login: 'admin' } }))
      : await createUser(db, { login, email: `${login}@example.test`, role, password: `${login}-password` });
    const { password } = await createApplicationPassword(db, user.id, 'tests');
    users[role] = { id: user.id, login, role, password };
  }
  return users;
}

/** An empty database of the provider: a file in a directory of its own, or a database on the server. */
async function emptyDatabase(provider: Provider, prefix: string): Promise<{ url: string; dir?: string; name?: string }> {
  if (provider === 'sqlite') {
    const dir = mkdtempSync(join(tmpdir(), `${prefix}-`));
    return { url: `file:${join(dir, 'site.db')}`, dir };
  }
  const name = `${prefix.replaceAll('-', '_')}_${randomBytes(6).toString('hex')}`;
  await pgAdmin((c) => c.query(`CREATE DATABASE "${name}"`));
  return { url: pgUrl(name), name };
}

async function dropDatabase(provider: Provider, where: { dir?: string; name?: string }): Promise<void> {
  if (provider === 'sqlite') { if (where.dir) rmSync(where.dir, { recursive: true, force: true }); return; }
  if (where.name) await pgAdmin((c) => c.query(`DROP DATABASE IF EXISTS "${where.name}" WITH (FORCE)`));
}

/** Builds the template; returns the path of its JSON. */
export async function buildTemplate(provider: Provider): Promise<string> {
  const target = await emptyDatabase(provider, 'site-template');
  try {
    await migrate(target.url);
    const db = await openDb(target.url);
    let users: SeededUsers;
    try { users = await seedSite(db); } finally { await db.close(); }
    const dir = target.dir ?? mkdtempSync(join(tmpdir(), 'site-template-'));
    if (provider === 'sqlite') {
      // Everything into the main file, so copying that one file copies the site.
      const file = sqlitePath(target.url);
      const raw = new Database(file);
      raw.pragma('wal_checkpoint(TRUNCATE)');
      raw.close();
      if (existsSync(`${file}-wal`)) throw new Error(`template ${file} still has a write-ahead log after closing`);
    } else {
      // A clone needs the template free of connections: refuse new ones, wait for ours to end.
      await pgAdmin(async (c) => {
        await c.query(`ALTER DATABASE "${target.name}" WITH ALLOW_CONNECTIONS false`);
        for (let i = 0; ; i++) {
          const { rows } = await c.query('SELECT count(*)::int AS n FROM pg_stat_activity WHERE datname = $1', [target.name]);
          if (rows[0].n === 0) break;
          if (i === 100) throw new Error(`template database ${target.name} still has ${rows[0].n} connections`);
          await new Promise((resolve) => setTimeout(resolve, 20));
        }
      });
    }
    const json = join(dir, 'template.json');
    const info: TemplateInfo = { provider, url: target.url, users };
    writeFileSync(json, JSON.stringify(info, null, 2));
    return json;
  } catch (err) {
    await dropDatabase(provider, target).catch(() => {});
    throw err;
  }
}

export async function removeTemplate(json: string): Promise<void> {
  const info = readTemplate(json);
  if (info?.provider === 'postgres') await dropDatabase('postgres', { name: new URL(info.url).pathname.slice(1) });
  rmSync(join(json, '..'), { recursive: true, force: true });
}

export function readTemplate(json: string | undefined): TemplateInfo | null {
  if (!json || !existsSync(json)) return null;
  return JSON.parse(readFileSync(json, 'utf8')) as TemplateInfo;
}

export interface TestDatabase { url: string; users: SeededUsers; drop(): Promise<void> }

/**
 * A database of its own for one site: a copy of the template when there is one for this
 * provider, else one migrated and seeded from scratch.
 */
export async function testDatabase(provider: Provider, template: TemplateInfo | null): Promise<TestDatabase> {
  if (template?.provider === provider) {
    const copy = provider === 'sqlite' ? copySqlite(template) : await clonePostgres(template);
    if (copy) return { ...copy, users: template.users };
  }
  const target = await emptyDatabase(provider, 'site-test');
  await migrate(target.url);
  const db = await openDb(target.url);
  try {
    return { url: target.url, users: await seedSite(db), drop: () => dropDatabase(provider, target) };
  } finally {
    await db.close();
  }
}

function copySqlite(template: TemplateInfo): Omit<TestDatabase, 'users'> | null {
  const from = sqlitePath(template.url);
  if (!existsSync(from)) return null;
  const dir = mkdtempSync(join(tmpdir(), 'site-test-'));
  const file = join(dir, 'site.db');
  copyFileSync(from, file);
  // Checkpointed and closed at build time, so there is no log; a copy without it would lose data.
  if (existsSync(`${from}-wal`)) copyFileSync(`${from}-wal`, `${file}-wal`);
  return { url: `file:${file}`, drop: () => dropDatabase('sqlite', { dir }) };
}

async function clonePostgres(template: TemplateInfo): Promise<Omit<TestDatabase, 'users'> | null> {
  const source = new URL(template.url).pathname.slice(1);
  const name = `site_test_${randomBytes(6).toString('hex')}`;
  const made = await pgAdmin(async (c) => {
    for (let attempt = 0; ; attempt++) {
      const { rowCount } = await c.query('SELECT 1 FROM pg_database WHERE datname = $1', [source]);
      if (!rowCount) return false;
      try {
        await c.query(`CREATE DATABASE "${name}" TEMPLATE "${source}"`);
        return true;
      } catch (err) {
        // 55006: the template is in use (a connection to it has not ended yet); try again shortly.
        if ((err as { code?: string }).code !== '55006' || attempt === 50) throw err;
        await new Promise((resolve) => setTimeout(resolve, 20));
      }
    }
  });
  return made ? { url: pgUrl(name), drop: () => dropDatabase('postgres', { name }) } : null;
}
