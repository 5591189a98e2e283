// A fresh site per test file, on SQLite (default) or PostgreSQL (TEST_PROVIDER=postgres), with one
// user per role and an application password each: a copy of the template built once per run
// (test/helpers/template.ts). Requests go through app.fetch: no ports.
import { inject } from 'vitest';
import { loadConfig, type Config } from '../../src/config.js';
import { openDb, type Db } from '../../src/db/client.js';
import { createApp, type App } from '../../gateway/app.js';
import type { Role } from '../../src/auth/capabilities.js';
import { readTemplate, SITE, testDatabase, type SeededUser, type TemplateInfo } from './template.js';

export const provider = process.env.TEST_PROVIDER === 'postgres' ? 'postgres' : 'sqlite';
export { SITE };
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

let template: TemplateInfo | null | undefined;
/** The run's template (global setup), or null when there is none: then each site is built from scratch. */
function siteTemplate(): TemplateInfo | null {
  if (template === undefined) {
    let json: string | undefined;
    try { json = inject('siteTemplate'); } catch { /* not inside a vitest run */ }
    template = readTemplate(json);
  }
  return template;
}

export async function createTestSite(overrides: Partial<Config> = {}): Promise<TestSite> {
  const started = performance.now();
  const { url, users: seeded, drop } = await testDatabase(provider, siteTemplate());
  const config: Config = { ...loadConfig({}), siteUrl: SITE, databaseUrl: url, ...overrides };
  const db = await openDb(url);
  const users = {} as Record<Role, TestUser>;
  for (const [role, u] of Object.entries(seeded) as [Role, SeededUser][]) {
    users[role] = { id: u.id, login: u.login, role, password: u.password, auth: 'Basic ' + Buffer.from(`${u.login}:${u.password}`).toString('base64') };
  }
  if (process.env.TEST_TIMINGS === '1') console.log(`createTestSite (${provider}, ${template?.provider === provider ? 'template' : 'scratch'}): ${Math.round(performance.now() - started)} ms`);
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
