// A fresh site per test file, on SQLite (default) or PostgreSQL (TEST_PROVIDER=postgres), with one
// user per role and an application password each: a copy of the template built once per run
// (test/helpers/template.ts). `req` and `gql` go over a loopback socket through the production
// node:http server (gateway/server.ts), as `npm start` serves them: request ids, the in-flight
// limit, the body limits and the cache's hit lane are on the path every test takes.
// `inProcess` hands a request to app.fetch instead (same routing, gateway/router.ts), for what
// the HTTP door refuses before the app sees it.
//
// The bundle lane (TEST_BUNDLE=1) runs the same files against the built bundle
// (dist/gateway/embed.js, which shares its chunks with dist/gateway/main.js; `npm run build`
// first) instead of the sources. Fixtures written with src/ modules on `site.db` meet the
// bundle's copy of the service only through the database.
import { inject } from 'vitest';
import type { AddressInfo } from 'node:net';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import type { Server } from 'node:http';
import * as sources from '../../gateway/embed.js';
import type { Config } from '../../src/config.js';
import type { Db } from '../../src/db/client.js';
import type { App } from '../../gateway/app.js';
import type { Role } from '../../src/auth/capabilities.js';
import { contractByProxy, contractFor, reportViolations } from './contract.js';
import { createContractProxy, violationsOf } from '../../scripts/contract/proxy.js';
import { readTemplate, SITE, testDatabase, type SeededUser, type TemplateInfo } from './template.js';

export const provider = process.env.TEST_PROVIDER === 'postgres' ? 'postgres' : 'sqlite';
export { SITE };
export const API = `${SITE}/wp-json`;

export interface TestUser { id: number; login: string; role: Role; password: string; auth: string }

/** Who sends a request: a role (that role's fixture user) or a user. */
export type As = Role | TestUser;
export interface TestResponse { status: number; headers: Headers; body: any; text: string }
export interface GqlError { message: string; path?: (string | number)[]; extensions?: { code?: string; status?: number; [key: string]: unknown } }
export interface GqlResult { status: number; data?: any; errors?: GqlError[] }
type Json = Record<string, unknown>;

export interface TestSite {
  app: App;
  db: Db;
  users: Record<Role, TestUser>;
  /** The loopback origin of the site's production server (the validating proxy's, when one is in front, is not it). */
  origin: string;
  /**
   * Sends a request; `as` names a role (or a TestUser); `json` becomes a JSON body. `inProcess`
   * hands it to app.fetch in the bundle lane too: for what the HTTP door refuses before the app
   * sees it (a request line past node's 16 KB header limit answers 431 there).
   */
  req(method: string, path: string, o?: { as?: As; json?: unknown; body?: BodyInit; headers?: Record<string, string>; inProcess?: boolean }): Promise<TestResponse>;
  /** Posts a GraphQL operation to /graphql. */
  gql(query: string, variables?: Json, o?: { as?: As; headers?: Record<string, string> }): Promise<GqlResult>;
  /**
   * Fixtures through the REST API (so with every rule of the route), as the administrator unless
   * `as` says otherwise. Each returns the created record (its `edit` view) and throws unless 201.
   */
  createPost(json: Json, as?: As): Promise<any>;
  createPage(json: Json, as?: As): Promise<any>;
  createTerm(taxonomy: 'categories' | 'tags', json: Json, as?: As): Promise<any>;
  /** `email` and `password` default to `<username>@example.test` and `<username>-password`. */
  createUser(json: Json & { username: string }, as?: As): Promise<any>;
  close(): Promise<void>;
}

/** The response body for a failure message, cut to a few kilobytes. */
function excerpt(res: TestResponse): string {
  return res.text.length > 4000 ? `${res.text.slice(0, 4000)}… (${res.text.length - 4000} more characters)` : res.text;
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

/** Whether this run tests the built bundle over HTTP (the bundle lane) instead of the sources in process. */
export const bundleLane = process.env.TEST_BUNDLE === '1';
type Service = typeof sources;
let bundle: Promise<Service> | undefined;
/**
 * The entry points of the service under test (gateway/embed.ts: createApp, createHttpServer,
 * openDb, loadConfig, the logger): the built bundle's in the bundle lane, the sources' otherwise.
 * Set by the first createTestSite, so a test that makes a server of its own makes the lane's.
 */
export let service: Service = sources;
async function loadService(): Promise<Service> {
  if (!bundleLane) return sources;
  const file = join(import.meta.dirname, '../../dist/gateway/embed.js');
  if (!existsSync(file)) throw new Error(`TEST_BUNDLE=1 tests ${file}: run \`npm run build\` first`);
  return (service = await (bundle ??= import(pathToFileURL(file).href) as Promise<Service>));
}

/** The production server for `app` on a loopback port, and its origin. */
async function listen(svc: Service, app: App): Promise<{ server: Server; origin: string }> {
  const server = svc.createHttpServer(app);
  // As `npm start` sets it (gateway/start.ts): a test that holds the event loop for seconds (validating
  // the whole OpenAPI document) must not find its kept-alive connection closed under its next request.
  server.keepAliveTimeout = 65_000;
  await new Promise<void>((ready, fail) => { server.once('error', fail); server.listen(0, '127.0.0.1', () => ready()); });
  return { server, origin: `http://127.0.0.1:${(server.address() as AddressInfo).port}` };
}

export async function createTestSite(overrides: Partial<Config> = {}): Promise<TestSite> {
  const started = performance.now();
  const svc = await loadService();
  const { url, users: seeded, drop } = await testDatabase(provider, siteTemplate());
  const config: Config = { ...svc.loadConfig({}), siteUrl: SITE, databaseUrl: url, ...overrides };
  const db = await svc.openDb(url);
  const users = {} as Record<Role, TestUser>;
  for (const [role, u] of Object.entries(seeded) as [Role, SeededUser][]) {
    users[role] = { id: u.id, login: u.login, role, password: u.password, auth: 'Basic ' + Buffer.from(`${u.login}:${u.password}`).toString('base64') };
  }
  if (process.env.TEST_TIMINGS === '1') console.log(`createTestSite (${provider}, ${template?.provider === provider ? 'template' : 'scratch'}): ${Math.round(performance.now() - started)} ms`);
  const app = svc.createApp(config, db);
  const http = await listen(svc, app);
  // CONTRACT_PROXY=1: requests go through the validating proxy, which checks what the server answers.
  const proxy = contractByProxy ? createContractProxy({ target: http.origin, restPrefix: config.restPrefix }) : null;
  const origin = proxy ? await proxy.listen() : http.origin;
  /** Sends a request to the production server over a socket, or (inProcess) to app.fetch. */
  const send = (request: Request, inProcess = false): Promise<Response> => {
    if (inProcess) return app.fetch(request);
    const u = new URL(request.url);
    return fetch(`${origin}${u.pathname}${u.search}`, {
      method: request.method, headers: request.headers, body: request.body, redirect: 'manual', duplex: 'half',
    } as RequestInit);
  };
  const contract = contractFor(async () => {
    const res = await send(new Request(`${SITE}${config.restPrefix}/openapi.json`), true);
    return res.ok ? res.json() : null;
  }, config.restPrefix);
  const site: TestSite = {
    app, db, users, origin: http.origin,
    async req(method, path, o = {}) {
      const headers = new Headers(o.headers);
      const who = typeof o.as === 'string' ? users[o.as] : o.as;
      if (who) headers.set('authorization', who.auth);
      let body = o.body ?? null;
      if (o.json !== undefined) { body = JSON.stringify(o.json); if (!headers.has('content-type')) headers.set('content-type', 'application/json'); }
      const url = path.startsWith('http') ? path : `${API}${path}`;
      const res = await send(new Request(url, { method, headers, body }), o.inProcess);
      const text = await res.text();
      let parsed: unknown = text;
      try { parsed = text ? JSON.parse(text) : null; } catch { /* not JSON */ }
      const answer = { status: res.status, headers: res.headers, body: parsed, text };
      if (proxy && !o.inProcess) reportViolations(violationsOf(res.headers));
      else await contract(method, url, headers, answer);
      return answer;
    },
    async gql(query, variables = {}, o = {}) {
      const res = await site.req('POST', `${SITE}/graphql`, { as: o.as, headers: o.headers, json: { query, variables } });
      if (typeof res.body !== 'object' || res.body === null) throw new Error(`/graphql answered ${res.status} without a JSON body:\n${excerpt(res)}`);
      return { status: res.status, data: res.body.data, errors: res.body.errors };
    },
    createPost: (json, as = 'administrator') => create(`/core/v2/posts`, json, as),
    createPage: (json, as = 'administrator') => create(`/core/v2/pages`, json, as),
    createTerm: (taxonomy, json, as = 'administrator') => create(`/core/v2/${taxonomy}`, json, as),
    createUser: (json, as = 'administrator') =>
      create('/core/v2/users', { email: `${json.username}@example.test`, password: `${json.username}-password`, ...json }, as),
    async close() {
      await proxy?.close();
      http.server.closeAllConnections();
      await new Promise((done) => http.server.close(done));
      await app.close?.();
      await db.close();
      await drop();
    },
  };
  async function create(path: string, json: Json, as: As): Promise<any> {
    const res = await site.req('POST', path, { as, json });
    if (res.status !== 201) {
      const who = typeof as === 'string' ? as : as.login;
      throw new Error(`POST ${path} as ${who}: expected 201, got ${res.status}\nsent: ${JSON.stringify(json)}\nbody: ${excerpt(res)}`);
    }
    return res.body;
  }
  return site;
}
