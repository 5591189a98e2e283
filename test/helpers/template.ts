// The migrated, bootstrapped site every test file starts from: built once per `vitest run`
// (test/setup/global.ts) and copied per file, so no file migrates or hashes passwords itself.
// SQLite: a database file, copied. PostgreSQL: a template database, cloned with
// CREATE DATABASE … TEMPLATE. A JSON next to it records the users' ids and plain application
// passwords. Without a template (global setup skipped), each site is built from scratch.
//
// Every database and directory made here is named for the process that outlives its users (the
// run's main process, which builds the template; without a template, the worker that made it) and
// for this machine: a run that is killed never tears down, so the next run's global setup removes
// what is named for a process of this machine that no longer exists (sweepLeftovers).
import { copyFileSync, existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { hostname, tmpdir } from 'node:os';
import { join } from 'node:path';
import { createHash, randomBytes } from 'node:crypto';
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
  /** The process whose end leaves the run's databases unused (the one that built the template). */
  owner: number;
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

/**
 * This machine, in the names: a process id only means something where it was given, and a
 * PostgreSQL server (and even a temporary directory) may serve several machines or containers.
 */
export const HOST_TAG = createHash('sha256').update(hostname()).digest('hex').slice(0, 8);

export type LeftoverKind = 'test' | 'template';

/** A database name (PostgreSQL) for a site of a run whose databases `owner`'s end leaves unused. */
export const databaseName = (kind: LeftoverKind, owner: number) => `site_${kind}_${owner}_${HOST_TAG}_${randomBytes(6).toString('hex')}`;
/** The start of a directory name (mkdtemp adds six characters). */
export const directoryPrefix = (kind: LeftoverKind, owner: number) => join(tmpdir(), `site-${kind}-${owner}-${HOST_TAG}-`);

// Exactly what the two functions above make, and nothing else (no older names, no look-alikes).
const DATABASE_NAME = /^site_(?:test|template)_([1-9]\d{0,9})_([0-9a-f]{8})_[0-9a-f]{12}$/;
const DIRECTORY_NAME = /^site-(?:test|template)-([1-9]\d{0,9})-([0-9a-f]{8})-[A-Za-z0-9]{6}$/;

/** The process a database or directory name was made for, when it was made here on this machine. */
export function ownerOf(name: string): number | null {
  const m = DATABASE_NAME.exec(name) ?? DIRECTORY_NAME.exec(name);
  return m && m[2] === HOST_TAG ? Number(m[1]) : null;
}

/** Whether a process of that id exists (one of another user counts: it cannot be told apart). */
export function processAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code !== 'ESRCH';
  }
}

const leftover = (name: string) => {
  const owner = ownerOf(name);
  return owner !== null && !processAlive(owner);
};

/** Removes the directories under `root` named for an ended process of this machine; returns their names. */
export function sweepDirectories(root = tmpdir()): string[] {
  const removed: string[] = [];
  for (const entry of readdirSync(root, { withFileTypes: true })) {
    // Not a link, even one named like ours: only what mkdtemp made.
    if (!entry.isDirectory() || !leftover(entry.name)) continue;
    rmSync(join(root, entry.name), { recursive: true, force: true });
    removed.push(entry.name);
  }
  return removed;
}

/** Drops the PostgreSQL databases named for an ended process of this machine; returns their names. */
export async function sweepDatabases(): Promise<string[]> {
  return pgAdmin(async (c) => {
    const { rows } = await c.query<{ datname: string }>(String.raw`SELECT datname FROM pg_database WHERE datname LIKE 'site\_%'`);
    const removed: string[] = [];
    for (const { datname } of rows) {
      if (!leftover(datname)) continue;
      await c.query(`DROP DATABASE IF EXISTS "${datname}" WITH (FORCE)`);
      removed.push(datname);
    }
    return removed;
  });
}

/** What killed runs left: their directories, and on PostgreSQL their databases. */
export async function sweepLeftovers(provider: Provider): Promise<string[]> {
  const removed = sweepDirectories();
  if (provider === 'postgres') removed.push(...(await sweepDatabases()));
  return removed;
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
async function emptyDatabase(provider: Provider, kind: LeftoverKind, owner: number): Promise<{ url: string; dir?: string; name?: string }> {
  if (provider === 'sqlite') {
    const dir = mkdtempSync(directoryPrefix(kind, owner));
    return { url: `file:${join(dir, 'site.db')}`, dir };
  }
  const name = databaseName(kind, owner);
  await pgAdmin((c) => c.query(`CREATE DATABASE "${name}"`));
  return { url: pgUrl(name), name };
}

async function dropDatabase(provider: Provider, where: { dir?: string; name?: string }): Promise<void> {
  if (provider === 'sqlite') { if (where.dir) rmSync(where.dir, { recursive: true, force: true }); return; }
  if (where.name) await pgAdmin((c) => c.query(`DROP DATABASE IF EXISTS "${where.name}" WITH (FORCE)`));
}

/** Builds the template; returns the path of its JSON. */
export async function buildTemplate(provider: Provider): Promise<string> {
  const owner = process.pid;
  const target = await emptyDatabase(provider, 'template', owner);
  try {
    await migrate(target.url);
    const db = await openDb(target.url);
    let users: SeededUsers;
    try { users = await seedSite(db); } finally { await db.close(); }
    const dir = target.dir ?? mkdtempSync(directoryPrefix('template', owner));
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
    const info: TemplateInfo = { provider, url: target.url, users, owner };
    writeFileSync(json, JSON.stringify(info, null, 2));
    return json;
  } catch (err) {
    await dropDatabase(provider, target).catch(() => {});
    throw err;
  }
}

// PostgreSQL's DROP DATABASE forces an immediate checkpoint and waits for it (the checkpointer
// must have let go of the database's files). With test files writing beside it, every drop
// flushed the server's dirty buffers, and after each one the first change to every page logs the
// whole page again: a run that dropped a database per file spent much of its time writing. So a
// clone of the template is not dropped when its file is done: its worker keeps the names and drops
// them DROP_BATCH at a time, in a row (only the first drop of a batch finds much to flush), and
// the run's end (removeTemplate, in the process that owns them) drops whatever is left.
const DROP_BATCH = 16;
const spent: string[] = [];
async function retire(name: string): Promise<void> {
  spent.push(name);
  if (spent.length < DROP_BATCH) return;
  const batch = spent.splice(0);
  await pgAdmin(async (c) => { for (const n of batch) await c.query(`DROP DATABASE IF EXISTS "${n}" WITH (FORCE)`); });
}

/** Drops the test databases of the run `owner` made (the clones its workers have not dropped yet); returns their names. */
export async function dropRunDatabases(owner: number): Promise<string[]> {
  return pgAdmin(async (c) => {
    const { rows } = await c.query<{ datname: string }>(String.raw`SELECT datname FROM pg_database WHERE datname LIKE 'site\_test\_%'`);
    const names = rows.map((r) => r.datname).filter((n) => n.startsWith('site_test_') && ownerOf(n) === owner);
    for (const n of names) await c.query(`DROP DATABASE IF EXISTS "${n}" WITH (FORCE)`);
    return names;
  });
}

export async function removeTemplate(json: string): Promise<void> {
  const info = readTemplate(json);
  if (info?.provider === 'postgres') {
    await dropRunDatabases(info.owner);
    await dropDatabase('postgres', { name: new URL(info.url).pathname.slice(1) });
  }
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
  // Workers come and go during a run; the process that built the template lasts it.
  const owner = template?.owner ?? process.pid;
  if (template?.provider === provider) {
    const copy = provider === 'sqlite' ? copySqlite(template, owner) : await clonePostgres(template, owner);
    if (copy) return { ...copy, users: template.users };
  }
  const target = await emptyDatabase(provider, 'test', owner);
  await migrate(target.url);
  const db = await openDb(target.url);
  try {
    return { url: target.url, users: await seedSite(db), drop: () => dropDatabase(provider, target) };
  } finally {
    await db.close();
  }
}

function copySqlite(template: TemplateInfo, owner: number): Omit<TestDatabase, 'users'> | null {
  const from = sqlitePath(template.url);
  if (!existsSync(from)) return null;
  const dir = mkdtempSync(directoryPrefix('test', owner));
  const file = join(dir, 'site.db');
  copyFileSync(from, file);
  // Checkpointed and closed at build time, so there is no log; a copy without it would lose data.
  if (existsSync(`${from}-wal`)) copyFileSync(`${from}-wal`, `${file}-wal`);
  return { url: `file:${file}`, drop: () => dropDatabase('sqlite', { dir }) };
}

async function clonePostgres(template: TemplateInfo, owner: number): Promise<Omit<TestDatabase, 'users'> | null> {
  const source = new URL(template.url).pathname.slice(1);
  const name = databaseName('test', owner);
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
  return made ? { url: pgUrl(name), drop: () => retire(name) } : null;
}
