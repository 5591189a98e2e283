// Two instances of the service (two `gateway/main.ts` processes, as two machines would run them)
// over one PostgreSQL database: a write through one is read through the other, over REST and
// GraphQL, and the anonymous response cache of both lets go of what it held. Runs in the
// PostgreSQL pass only (SQLite is one machine's database); skipped in the SQLite pass.
import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { pgBase } from '../helpers/template.js';

const onPostgres = process.env.TEST_PROVIDER === 'postgres';
const root = join(import.meta.dirname, '../..');

interface Instance { name: string; port: number; child: ChildProcess; output: string }

const name = `scale_out_${randomBytes(6).toString('hex')}`;
const dbUrl = () => { const u = new URL(pgBase()); u.pathname = `/${name}`; return u.toString(); };
let dir = '';
const instances: Instance[] = [];
let auth = '';

async function admin(sql: string): Promise<void> {
  const c = new pg.Client({ connectionString: pgBase() });
  await c.connect();
  try { await c.query(sql); } finally { await c.end(); }
}

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const s = createServer();
    s.once('error', reject);
    s.listen(0, '127.0.0.1', () => { const { port } = s.address() as { port: number }; s.close(() => resolve(port)); });
  });
}

/** Starts one instance (one process: WORKERS=1) and resolves once it says it listens. */
async function start(label: string): Promise<Instance> {
  const port = await freePort();
  const env: NodeJS.ProcessEnv = {
    ...process.env, DATABASE_URL: dbUrl(), PORT: String(port), HOST: '127.0.0.1', SITE_URL: 'http://site.test', WORKERS: '1',
    ADMIN_USER: 'admin', ADMIN_PASSWORD: 'scale-out-admin-password', UPLOADS_DIR: join(dir, 'uploads'), CACHE_ENTRIES: '1000',
  };
  for (const v of ['TEST_PROVIDER', 'VITEST', 'VITEST_POOL_ID', 'VITEST_WORKER_ID', 'NODE_ENV']) delete env[v];
  const child = spawn(process.execPath, ['--import', 'tsx', 'gateway/main.ts'], { cwd: root, env, stdio: ['ignore', 'pipe', 'pipe'], detached: true });
  const instance: Instance = { name: label, port, child, output: '' };
  instances.push(instance);
  await new Promise<void>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`${label} did not start:\n${instance.output}`)), 90_000);
    const onData = (chunk: Buffer) => {
      instance.output += chunk;
      if (/^listening on /m.test(instance.output)) { clearTimeout(timer); resolve(); }
    };
    child.stdout!.on('data', onData);
    child.stderr!.on('data', onData);
    child.once('exit', (code) => { clearTimeout(timer); reject(new Error(`${label} exited (${code}):\n${instance.output}`)); });
  });
  return instance;
}

async function stop(instance: Instance): Promise<void> {
  if (instance.child.exitCode !== null || instance.child.signalCode !== null) return;
  const exited = new Promise((resolve) => instance.child.once('exit', resolve));
  try { process.kill(-instance.child.pid!, 'SIGTERM'); } catch { return; }
  const timer = setTimeout(() => { try { process.kill(-instance.child.pid!, 'SIGKILL'); } catch { /* gone */ } }, 5000);
  await exited;
  clearTimeout(timer);
}

interface Answer { status: number; headers: Headers; body: any }

async function call(instance: Instance, method: string, path: string, o: { json?: unknown; auth?: boolean } = {}): Promise<Answer> {
  const headers: Record<string, string> = {};
  if (o.json !== undefined) headers['content-type'] = 'application/json';
  if (o.auth) headers.authorization = auth;
  const res = await fetch(`http://127.0.0.1:${instance.port}${path}`, {
    method, headers, body: o.json === undefined ? undefined : JSON.stringify(o.json), signal: AbortSignal.timeout(20_000),
  });
  const text = await res.text();
  return { status: res.status, headers: res.headers, body: text ? JSON.parse(text) : null };
}

/** The anonymous REST list: rendered titles, X-WP-Total, and whether the response cache answered. */
async function list(instance: Instance): Promise<{ titles: string[]; total: number }> {
  const res = await call(instance, 'GET', '/wp-json/core/v2/posts?per_page=100');
  expect(res.status).toBe(200);
  return { titles: res.body.map((p: any) => p.title.rendered), total: Number(res.headers.get('x-wp-total')) };
}

async function restTitle(instance: Instance, id: number): Promise<string> {
  const res = await call(instance, 'GET', `/wp-json/core/v2/posts/${id}`);
  expect(res.status).toBe(200);
  return res.body.title.rendered;
}

async function graphqlTitles(instance: Instance): Promise<string[]> {
  const res = await call(instance, 'POST', '/graphql', { json: { query: '{ posts(perPage: 100) { nodes { title { rendered } } } }' } });
  expect(res.status).toBe(200);
  expect(res.body.errors).toBeUndefined();
  return res.body.data.posts.nodes.map((n: any) => n.title.rendered);
}

/**
 * Another instance learns of a write through PostgreSQL's LISTEN/NOTIFY, normally within a few
 * milliseconds of the commit, so a cached read may need a moment: read at once, then again every
 * 20 ms for up to five seconds, and give back the last answer (compared by the caller).
 */
async function settled<T>(read: () => Promise<T>, done: (value: T) => boolean): Promise<T> {
  const deadline = Date.now() + 5000;
  let value = await read();
  while (!done(value) && Date.now() < deadline) {
    await new Promise((resolve) => setTimeout(resolve, 20));
    value = await read();
  }
  return value;
}

describe.skipIf(!onPostgres)('two instances over one PostgreSQL database', () => {
  let a: Instance;
  let b: Instance;
  let postId: number;

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'site-scale-out-'));
    await admin(`CREATE DATABASE "${name}"`);
    // A creates the site (migrations, administrator) and prints the application password; B finds it made.
    a = await start('A');
    const password = /application password:\s+(\S+(?: \S+){5})/.exec(a.output)?.[1];
    expect(password, a.output).toBeTruthy();
    auth = 'Basic ' + Buffer.from(`admin:${password}`).toString('base64');
    b = await start('B');
    expect(b.output).not.toMatch(/Site created/);
  }, 200_000);

  afterAll(async () => {
    await Promise.all(instances.map(stop));
    if (onPostgres) await admin(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`);
    if (dir) rmSync(dir, { recursive: true, force: true });
  }, 60_000);

  it('a post created through A is listed by B, over REST and GraphQL', async () => {
    const created = await call(a, 'POST', '/wp-json/core/v2/posts', { auth: true, json: { title: 'Made on A', status: 'publish' } });
    expect(created.status).toBe(201);
    postId = created.body.id;
    // B's first read of these: nothing cached there yet.
    expect((await list(b)).titles).toContain('Made on A');
    expect(await graphqlTitles(b)).toContain('Made on A');
    expect(await restTitle(b, postId)).toBe('Made on A');
  });

  it('warm caches on both let go after a write through A: B and A both answer with the change', async () => {
    // Warm: the same anonymous reads twice on each instance (the second answer is kept by its response cache).
    for (const inst of [a, b]) {
      for (let i = 0; i < 2; i++) {
        expect((await list(inst)).titles).toContain('Made on A');
        expect(await restTitle(inst, postId)).toBe('Made on A');
      }
    }
    const before = await list(b);

    const updated = await call(a, 'POST', `/wp-json/core/v2/posts/${postId}`, { auth: true, json: { title: 'Changed on A' } });
    expect(updated.status).toBe(200);
    expect(updated.body.title.raw).toBe('Changed on A');

    // GraphQL and authenticated REST reads are never cached: B shows the change at once.
    expect(await graphqlTitles(b)).toContain('Changed on A');
    const authed = await call(b, 'GET', `/wp-json/core/v2/posts/${postId}?context=edit`, { auth: true });
    expect(authed.status).toBe(200);
    expect(authed.body.title.raw).toBe('Changed on A');

    // The cached anonymous reads: B's (told by A's notice) and A's own.
    expect(await settled(() => restTitle(b, postId), (t) => t === 'Changed on A')).toBe('Changed on A');
    const listB = await settled(() => list(b), (l) => l.titles.includes('Changed on A'));
    expect(listB.titles).toContain('Changed on A');
    expect(listB.titles).not.toContain('Made on A');
    expect(listB.total).toBe(before.total);
    expect(await restTitle(a, postId)).toBe('Changed on A');
    expect((await list(a)).titles).toContain('Changed on A');
    expect(await graphqlTitles(a)).toContain('Changed on A');
  });

  it('and the other way: a post trashed through B leaves the cached lists of A and B', async () => {
    for (const inst of [a, b]) { await list(inst); await list(inst); }
    const totalA = (await list(a)).total;
    const trashed = await call(b, 'DELETE', `/wp-json/core/v2/posts/${postId}`, { auth: true });
    expect(trashed.status).toBe(200);
    expect(trashed.body.status).toBe('trash');

    const listA = await settled(() => list(a), (l) => !l.titles.includes('Changed on A'));
    expect(listA.titles).not.toContain('Changed on A');
    expect(listA.total).toBe(totalA - 1);
    expect((await list(b)).titles).not.toContain('Changed on A');
    expect(await graphqlTitles(a)).not.toContain('Changed on A');
    const gone = await call(a, 'GET', `/wp-json/core/v2/posts/${postId}`);
    expect(gone.status).toBe(401);
    expect(gone.body.code).toBe('rest_forbidden');
  });
});
