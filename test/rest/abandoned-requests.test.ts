// A read whose client leaves stops its work (src/db/abort.ts): the statements it would still send
// are not sent, its handler ends with the quiet 499 and nothing is logged as a fault; on PostgreSQL
// the statement running when the client left is cancelled on the server.
import { once } from 'node:events';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bundleLane, createTestSite, provider, type TestSite } from '../helpers/app.js';
import { currentAbortSignal } from '../../src/db/abort.js';

type Read = TestSite['db']['read'];
type Handle = TestSite['app']['handle'];

// Not in the bundle lane: it reads the request's signal from the sources' module (the bundle has its own copy).
describe.skipIf(bundleLane)('abandoned requests', () => {
  let site: TestSite;
  beforeAll(async () => {
    site = await createTestSite();
    for (let i = 0; i < 3; i++) await site.createPost({ title: `Left behind ${i}`, status: 'publish' });
  });
  afterAll(() => site?.close());

  /**
   * The first read carrying `marker` among its values is handed to `step` instead of sent (step
   * gets the original read); what the request's handling resolved to is kept.
   */
  function intercept(marker: string, step: (run: Read, sql: string, args: readonly unknown[]) => Promise<Record<string, unknown>[]>) {
    const db = site.db;
    const read = db.read;
    const app = site.app;
    const handle = app.handle;
    let arrived!: (v: { done: Promise<unknown>; signal: AbortSignal | undefined }) => void;
    const arrival = new Promise<{ done: Promise<unknown>; signal: AbortSignal | undefined }>((resolve) => { arrived = resolve; });
    const handled: Promise<Awaited<ReturnType<Handle>>>[] = [];
    let taken = false;
    db.read = (sql, args) => {
      if (taken || !args.some((a) => a === marker)) return read.call(db, sql, args);
      taken = true;
      const signal = currentAbortSignal();
      const done = step(read.bind(db), sql, args);
      arrived({ done, signal });
      return done;
    };
    app.handle = (core) => { const p = handle.call(app, core); handled.push(p); return p; };
    return {
      arrival, handled,
      restore() { db.read = read; app.handle = handle; },
    };
  }

  it('sends no statement once the client of a read has left, and answers nobody', async () => {
    let open!: () => void;
    const gate = new Promise<void>((resolve) => { open = resolve; });
    const seen = intercept('left-behind-marker', async (run, sql, args) => { await gate; return run(sql, args); });
    try {
      const client = new AbortController();
      const asked = fetch(`${site.origin}/wp-json/core/v2/posts?slug=left-behind-marker`, { signal: client.signal }).catch((err: Error) => err);
      const { done, signal } = await seen.arrival;
      expect(signal?.aborted).toBe(false);
      client.abort();
      expect(await asked).toBeInstanceOf(Error);
      // Once the server has heard the connection close, the held read is let go on.
      if (!signal!.aborted) await once(signal!, 'abort');
      const statementsBefore = site.db.statements;
      open();
      await expect(done).rejects.toMatchObject({ name: 'RequestAborted' });
      const out = await seen.handled[0];
      expect(out.status).toBe(499);
      expect(site.db.statements).toBe(statementsBefore);
    } finally {
      seen.restore();
    }
    // The same read, its client waiting: answered as usual.
    const res = await site.req('GET', '/core/v2/posts?slug=left-behind-marker');
    expect(res.status).toBe(200);
    expect(res.body).toEqual([]);
  });

  it.runIf(provider === 'postgres')('cancels the PostgreSQL statement a read was running when its client left', async () => {
    const marker = 'cancel-me-marker';
    const seen = intercept(marker, (run) => run(`SELECT pg_sleep(120)::text AS "n" /* ${marker} */`, []));
    const running = `SELECT count(*)::int AS "n" FROM pg_stat_activity WHERE state = 'active' AND query LIKE '%pg_sleep(120)%${marker}%' AND pid <> pg_backend_pid()`;
    try {
      const client = new AbortController();
      const asked = fetch(`${site.origin}/wp-json/core/v2/posts?slug=${marker}`, { signal: client.signal }).catch((err: Error) => err);
      const { done } = await seen.arrival;
      // Until the server runs it: each look is a query of its own, awaited.
      while (Number((await site.db.prisma.$queryRawUnsafe<{ n: number }[]>(running))[0].n) === 0) { /* look again */ }
      client.abort();
      expect(await asked).toBeInstanceOf(Error);
      // Two minutes of sleep would outlast the test's time: it ends because the server cancelled it.
      await expect(done).rejects.toMatchObject({ name: 'RequestAborted' });
      expect(Number((await site.db.prisma.$queryRawUnsafe<{ n: number }[]>(running))[0].n)).toBe(0);
      expect((await seen.handled[0]).status).toBe(499);
    } finally {
      seen.restore();
    }
  });

  it.runIf(provider === 'postgres')('cancels reads holding every pooled connection, and answers the next request', async () => {
    // A site whose pool has two connections, both taken by reads whose clients then leave. Their
    // cancels must not wait for a pooled connection: each read keeps its own until its cancel is
    // answered, so such a cancel never got one, and from then on no request of the process was
    // answered (seen in the PostgreSQL bench, after a few timed-out requests).
    const before = process.env.PG_POOL;
    process.env.PG_POOL = '2';
    let small: TestSite;
    try { small = await createTestSite(); } finally { if (before === undefined) delete process.env.PG_POOL; else process.env.PG_POOL = before; }
    const kept = await small.createPost({ title: 'Still answered', status: 'publish' });
    const marker = 'pool-held-marker';
    const read = small.db.read;
    const reads: Promise<unknown>[] = [];
    let both!: () => void;
    const taken = new Promise<void>((resolve) => { both = resolve; });
    small.db.read = (sql, args) => {
      if (!args.some((a) => a === marker)) return read.call(small.db, sql, args);
      const p = read.call(small.db, `SELECT pg_sleep(120)::text AS "n" /* ${marker} */`, []);
      reads.push(p);
      if (reads.length === 2) both();
      return p;
    };
    const running = `SELECT count(*)::int AS "n" FROM pg_stat_activity WHERE state = 'active' AND query LIKE '%pg_sleep(120)%${marker}%' AND pid <> pg_backend_pid()`;
    // On a connection of the test's own: the site's pool is the one held.
    const watcher = new pg.Client({ connectionString: small.app.config.databaseUrl });
    await watcher.connect();
    const look = async () => Number((await watcher.query<{ n: number }>(running)).rows[0].n);
    try {
      const clients = [new AbortController(), new AbortController()];
      const asked = clients.map((c, i) => fetch(`${small.origin}/wp-json/core/v2/posts?slug=${marker}&i=${i}`, { signal: c.signal }).catch((err: Error) => err));
      await taken;
      // Until the server runs both (each look is a query of its own).
      while (await look() < 2) { /* look again */ }
      for (const c of clients) c.abort();
      for (const a of asked) expect(await a).toBeInstanceOf(Error);
      for (const r of reads) await expect(r).rejects.toMatchObject({ name: 'RequestAborted' });
      expect(await look()).toBe(0);
      small.db.read = read;
      const next = await small.req('GET', '/core/v2/posts');
      expect(next.status).toBe(200);
      expect(next.body.map((p: { id: number }) => p.id)).toEqual([kept.id]);
    } finally {
      small.db.read = read;
      await watcher.end();
      await small.close();
    }
  });
});
