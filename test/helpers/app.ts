// A fresh site per test file, on SQLite (default) or PostgreSQL (TEST_PROVIDER=postgres), with one
// user per role and an application password each. Requests go through app.fetch: no ports.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { loadConfig, type Config } from '../../src/config.js';
import { migrate } from '../../src/db/migrate.js';
import { openDb, type Db } from '../../src/db/client.js';
import { bootstrapSite } from '../../src/site/bootstrap.js';
import { createApplicationPassword, createUser } from '../../src/site/operator.js';
import { createApp, type App } from '../../gateway/app.js';
import { ROLES, type Role } from '../../src/auth/capabilities.js';

export const provider = process.env.TEST_PROVIDER === 'postgres' ? 'postgres' : 'sqlite';
export const SITE = 'http://site.test';
export const API = `${SITE}/wp-json`;

export interface TestUser { id: number; login: string; role: Role; password: string; auth: string }

export interface TestSite {
  app: App;
  db: Db;
  users: Record<Role, TestUser>;
  /** Sends a request; `as` names a role (or a TestUser); `json` becomes a JSON body. */
  req(method: string, path: string, o?: { as?: Role | TestUser; json?: unknown; body?: BodyInit; headers?: Record<string, string> }): Promise<{ status: number; headers: Headers; body: any; text: string }>;
  close(): Promise<void>;
}

const pgBase = () => process.env.TEST_DATABASE_URL ?? 'postgresql://postgres@127.0.0.1:5432/postgres';

async function freshDatabaseUrl(): Promise<{ url: string; drop: () => Promise<void> }> {
  if (provider === 'sqlite') {
    const dir = mkdtempSync(join(tmpdir(), 'site-test-'));
    return { url: `file:${join(dir, 'site.db')}`, drop: async () => rmSync(dir, { recursive: true, force: true }) };
  }
  const name = `site_test_${randomBytes(6).toString('hex')}`;
  const admin = new pg.Client({ connectionString: pgBase() });
  await admin.connect();
  await admin.query(`CREATE DATABASE "${name}"`);
  await admin.end();
  const url = new URL(pgBase());
  url.pathname = `/${name}`;
  return {
    url: url.toString(),
    drop: async () => {
      const c = new pg.Client({ connectionString: pgBase() });
      await c.connect();
      await c.query(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`);
      await c.end();
    },
  };
}

export async function createTestSite(overrides: Partial<Config> = {}): Promise<TestSite> {
  const { url, drop } = await freshDatabaseUrl();
  const config: Config = { ...loadConfig({}), siteUrl: SITE, databaseUrl: url, ...overrides };
  await migrate(url);
  const db = await openDb(url);
  await bootstrapSite(db, { siteUrl: SITE, adminUser: 'admin', adminPassword: 'admin-password' });
  const users = {} as Record<Role, TestUser>;
  for (const role of ROLES) {
    const login = role === 'administrator' ? 'admin' : `${role}1`;
    const user = role === 'administrator'
      ? (await db.prisma.user.findUniqueOrThrow({ where: { login: 'admin' } }))
      : await createUser(db, { login, email: `${login}@example.test`, role, password: `${login}-password` });
    const { password } = await createApplicationPassword(db, user.id, 'tests');
    users[role] = { id: user.id, login, role, password, auth: 'Basic ' + Buffer.from(`${login}:${password}`).toString('base64') };
  }
  const app = createApp(config, db);
  return {
    app, db, users,
    async req(method, path, o = {}) {
      const headers = new Headers(o.headers);
      const who = typeof o.as === 'string' ? users[o.as] : o.as;
      if (who) headers.set('authorization', who.auth);
      let body = o.body ?? null;
      if (o.json !== undefined) { body = JSON.stringify(o.json); if (!headers.has('content-type')) headers.set('content-type', 'application/json'); }
      const res = await app.fetch(new Request(path.startsWith('http') ? path : `${API}${path}`, { method, headers, body }));
      const text = await res.text();
      let parsed: unknown = text;
      try { parsed = text ? JSON.parse(text) : null; } catch { /* not JSON */ }
      return { status: res.status, headers: res.headers, body: parsed, text };
    },
    async close() { await db.close(); await drop(); },
  };
}
