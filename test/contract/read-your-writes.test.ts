// Read-your-writes across processes and instances: every answer to a request that may write
// carries `X-Content-Version`; a read that sends it back is not answered from a cache that has not
// heard of those writes yet. On PostgreSQL a second app over the same database stands for another
// instance: its cache learns of the first one's writes by a notice that may still be on its way.
// Also: losing the notices' connection turns the cache off until it is back, and the bound on how
// long an answer made under one version is served.
import type { AddressInfo } from 'node:net';
import type { Server } from 'node:http';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { createTestSite, provider, service, SITE, type TestSite } from '../helpers/app.js';
import type { App } from '../../gateway/app.js';
import { NOTICE_CONNECTION, type Db } from '../../src/db/client.js';

let site: TestSite;
let other: { db: Db; app: App; server: Server; origin: string };

beforeAll(async () => {
  site = await createTestSite({ cacheEntries: 100 });
  // A second app over the same database, with its own server: another process or instance.
  const db = await service.openDb(site.app.config.databaseUrl);
  const app = service.createApp(site.app.config, db);
  const server = service.createHttpServer(app);
  await new Promise<void>((ready) => server.listen(0, '127.0.0.1', () => ready()));
  other = { db, app, server, origin: `http://127.0.0.1:${(server.address() as AddressInfo).port}` };
});

afterAll(async () => {
  other.server.closeAllConnections();
  await new Promise((done) => other.server.close(done));
  await other.app.close?.();
  await other.db.close();
  await site.close();
});

/** An anonymous read through the other instance, with the token when given. */
async function readOther(path: string, token?: string): Promise<{ status: number; cache: string | null; body: any }> {
  const res = await fetch(`${other.origin}/wp-json${path}`, { headers: token ? { 'x-content-version': token } : {} });
  return { status: res.status, cache: res.headers.get('x-cache'), body: await res.json() };
}

/** Changes a post's title behind every process's back: no notice goes out. */
async function rawTitle(id: number, title: string): Promise<void> {
  if (provider === 'postgres') {
    const c = new pg.Client({ connectionString: site.app.config.databaseUrl });
    await c.connect();
    try { await c.query('UPDATE "Content" SET "title" = $1 WHERE "id" = $2', [title, id]); } finally { await c.end(); }
  } else {
    const { default: Sqlite } = await import('better-sqlite3');
    const c = new Sqlite(site.app.config.databaseUrl.replace(/^file:/, ''));
    try { c.prepare('UPDATE "Content" SET "title" = ? WHERE "id" = ?').run(title, id); } finally { c.close(); }
  }
}

/** Reads until the cache keeps the answer (the doorkeeper keeps it the second time), then once more: a hit. */
async function warm(path: string): Promise<void> {
  for (let i = 0; i < 3; i++) await readOther(path);
  expect((await readOther(path)).cache).toBe('HIT');
}

describe('the write token', () => {
  it('comes with every answer to a request that may write, REST, batch and GraphQL, and never with a read', async () => {
    const created = await site.req('POST', '/core/v2/posts', { as: 'editor', json: { title: 'Token', status: 'publish' } });
    const token = created.headers.get('x-content-version');
    expect([created.status, typeof token]).toEqual([201, 'string']);
    expect(site.db.caughtUp(token!)).toBe(true);
    const updated = await site.req('POST', `/core/v2/posts/${created.body.id}`, { as: 'editor', json: { title: 'Token 2' } });
    // The count grows with the process's writes.
    const count = (t: string) => Number(t.slice(t.lastIndexOf('/') + 1));
    expect(count(updated.headers.get('x-content-version')!)).toBeGreaterThan(count(token!));
    const failed = await site.req('POST', '/core/v2/posts', { as: 'subscriber', json: { title: 'No' } });
    expect([failed.status, failed.body.code, failed.headers.has('x-content-version')]).toEqual([403, 'rest_cannot_create', true]);
    const batch = await site.req('POST', '/batch/v1', { as: 'editor', json: { requests: [{ method: 'POST', path: '/core/v2/tags', body: { name: 'token-tag' } }] } });
    expect([batch.status, batch.headers.has('x-content-version')]).toEqual([207, true]);
    const mutation = await site.req('POST', `${SITE}/graphql`, { as: 'editor', json: { query: 'mutation { createTag(input: { name: "token-gql" }) { databaseId } }' } });
    expect([mutation.status, mutation.headers.has('x-content-version')]).toEqual([200, true]);
    // The in-process entry (app.fetch) tells it as the HTTP server does.
    const inProcess = await site.req('POST', `/core/v2/posts/${created.body.id}`, { as: 'editor', json: { title: 'Token in process' }, inProcess: true });
    expect([inProcess.status, count(inProcess.headers.get('x-content-version') ?? '/-1') >= count(updated.headers.get('x-content-version')!)]).toEqual([200, true]);
    const read = await site.req('GET', `/core/v2/posts/${created.body.id}`);
    expect([read.status, read.headers.has('x-content-version')]).toEqual([200, false]);
    // Browsers may read it and send it back.
    const cors = await site.req('POST', `/core/v2/posts/${created.body.id}`, { as: 'editor', json: { title: 'Token 3' }, headers: { origin: 'https://front.example' } });
    expect(cors.headers.get('access-control-expose-headers')).toContain('X-Content-Version');
    expect(cors.headers.get('access-control-allow-headers')).toContain('X-Content-Version');
  });

  it('is not understood when malformed or unknown, and then only keeps the read off the cache', async () => {
    if (provider === 'sqlite') {
      // One machine: every process looks at the database's version before it answers.
      expect([other.db.caughtUp('nonsense'), other.db.caughtUp('1/1')]).toEqual([true, true]);
      return;
    }
    expect([other.db.caughtUp('nonsense'), other.db.caughtUp('/3'), other.db.caughtUp('1.ab/x'), other.db.caughtUp('99.unheard/0')]).toEqual([false, false, false, false]);
    expect(other.db.caughtUp(other.db.writeToken())).toBe(true);
    const post = await site.createPost({ title: 'Plain', status: 'publish' });
    await warm(`/core/v2/posts/${post.id}`);
    const res = await readOther(`/core/v2/posts/${post.id}`, 'nonsense');
    expect([res.status, res.cache, res.body.title.rendered]).toEqual([200, 'MISS', 'Plain']);
  });
});

describe('a read with the token, through another instance', () => {
  it('is answered from the database while that instance has not heard of the write, and from its cache once it has', async () => {
    const post = await site.createPost({ title: 'Before', status: 'publish' });
    const path = `/core/v2/posts/${post.id}`;
    await warm(path);
    // A change nobody announced: without a token the other instance answers what it holds ...
    await rawTitle(post.id, 'Behind its back');
    const stale = await readOther(path);
    if (provider === 'sqlite') {
      // ... except on SQLite, where every process sees every commit before it answers.
      expect([stale.cache, stale.body.title.rendered]).toEqual(['MISS', 'Behind its back']);
      return;
    }
    expect([stale.cache, stale.body.title.rendered]).toEqual(['HIT', 'Before']);
    // A token naming a write of the first instance the other has not heard of: the database answers.
    const token = site.db.writeToken();
    const ahead = `${token.slice(0, token.lastIndexOf('/'))}/${Number(token.slice(token.lastIndexOf('/') + 1)) + 1000}`;
    const fresh = await readOther(path, ahead);
    expect([fresh.status, fresh.cache, fresh.body.title.rendered]).toEqual([200, 'MISS', 'Behind its back']);
    // A real write: its token's read is fresh at once, whether or not the notice has arrived.
    const write = await site.req('POST', path, { as: 'editor', json: { title: 'After' } });
    const mine = await readOther(path, write.headers.get('x-content-version')!);
    expect([mine.status, mine.body.title.rendered]).toEqual([200, 'After']);
    // Once the notice has arrived, the token is caught up and the cache answers again.
    await vi.waitFor(() => expect(other.db.caughtUp(write.headers.get('x-content-version')!)).toBe(true), { timeout: 10_000, interval: 20 });
    await readOther(path, write.headers.get('x-content-version')!);
    await readOther(path, write.headers.get('x-content-version')!);
    const hit = await readOther(path, write.headers.get('x-content-version')!);
    expect([hit.cache, hit.body.title.rendered]).toEqual(['HIT', 'After']);
  });

  it('over GraphQL too', async () => {
    const post = await site.createPost({ title: 'Gql before', status: 'publish' });
    const query = `/graphql?query=${encodeURIComponent(`{ post(id: ${post.id}) { title { rendered } } }`)}`;
    const read = async (token?: string) => {
      const res = await fetch(`${other.origin}${query}`, { headers: token ? { 'x-content-version': token } : {} });
      const body = (await res.json()) as any;
      if (!body.data?.post) throw new Error(JSON.stringify(body));
      return { cache: res.headers.get('x-cache'), title: body.data.post.title.rendered as string };
    };
    for (let i = 0; i < 3; i++) await read();
    expect((await read()).cache).toBe('HIT');
    await rawTitle(post.id, 'Gql behind');
    if (provider === 'sqlite') { expect((await read()).title).toBe('Gql behind'); return; }
    expect(await read()).toEqual({ cache: 'HIT', title: 'Gql before' });
    const token = site.db.writeToken();
    const ahead = `${token.slice(0, token.lastIndexOf('/'))}/${Number(token.slice(token.lastIndexOf('/') + 1)) + 1000}`;
    expect((await read(ahead)).title).toBe('Gql behind');
  });
});

describe.runIf(provider === 'postgres')('the notices of other instances (PostgreSQL)', () => {
  it('when their connection is lost, the cache is not used until it is back, and then hears again', async () => {
    const post = await site.createPost({ title: 'Listen', status: 'publish' });
    const path = `/core/v2/posts/${post.id}`;
    await warm(path);
    // Every notice connection of this database goes (both instances').
    const c = new pg.Client({ connectionString: site.app.config.databaseUrl });
    await c.connect();
    try {
      await c.query(`SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = current_database() AND application_name = $1`, [NOTICE_CONNECTION]);
      await c.query('UPDATE "Content" SET "title" = $1 WHERE "id" = $2', ['While deaf', post.id]);
    } finally { await c.end(); }
    // Whether the connection is already back or not, nothing kept from before is served.
    const res = await readOther(path);
    expect([res.cache, res.body.title.rendered]).toEqual(['MISS', 'While deaf']);
    // Back: a write through the first instance reaches the other's cache again.
    await vi.waitFor(async () => { await readOther(path); expect((await readOther(path)).cache).toBe('HIT'); }, { timeout: 15_000, interval: 50 });
    await site.req('POST', path, { as: 'editor', json: { title: 'Heard again' } });
    await vi.waitFor(async () => expect((await readOther(path)).body.title.rendered).toBe('Heard again'), { timeout: 15_000, interval: 20 });
  });

  it('an answer made under one version is served no longer than the stale bound', async () => {
    let clock = 1_000;
    const db = await service.openDb(site.app.config.databaseUrl, { staleBoundMs: 5_000, now: () => clock });
    try {
      const v = db.version();
      clock += 4_999;
      expect(db.version()).toBe(v);
      clock += 1;
      expect(db.version()).not.toBe(v);
      const w = db.version();
      expect(db.version()).toBe(w);
    } finally { await db.close(); }
  });
});

