// The response cache is retired by the database layer itself: a write path that announces
// nothing (a model query, raw SQL, in or out of a transaction, through this handle or another
// process's) still never leaves a stale anonymous read behind. Runs on both databases.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestSite, provider, type TestSite } from '../helpers/app.js';
import { openDb, type Db } from '../../src/db/client.js';

let site: TestSite;
let other: Db;
let postId: number;
let n = 0;

/** The anonymous REST answer for the post: its rendered title. */
async function title(): Promise<string> {
  const res = await site.req('GET', `/core/v2/posts/${postId}`);
  expect(res.status).toBe(200);
  return res.body.title.rendered;
}

/**
 * Reads the post three times and checks the third answer came from the cache (no SQL at all):
 * the cache keeps an answer the second time it is asked for under a version.
 */
async function cachedTitle(): Promise<string> {
  const first = await title();
  expect(await title()).toBe(first);
  const before = site.db.statements;
  const second = await title();
  expect(site.db.statements).toBe(before);
  expect(second).toBe(first);
  return first;
}

const fresh = () => `Title ${++n} ${provider}`;
const sql = (s: string) => s.replaceAll('"', provider === 'sqlite' ? '`' : '"');

/** Polls the anonymous read until it shows `want` or about two seconds have passed. */
async function eventually(want: string): Promise<string> {
  const deadline = Date.now() + 2000;
  let seen = await title();
  while (seen !== want && Date.now() < deadline) {
    await new Promise((resolve) => setTimeout(resolve, 10));
    seen = await title();
  }
  return seen;
}

beforeAll(async () => {
  site = await createTestSite();
  expect(site.app.cache).toBeTruthy();
  const created = await site.req('POST', '/core/v2/posts', { as: 'administrator', json: { title: 'Original', status: 'publish' } });
  expect(created.status).toBe(201);
  postId = created.body.id;
  // Another process on the same database.
  other = await openDb(site.app.config.databaseUrl);
});

afterAll(async () => {
  await other?.close();
  await site?.close();
});

describe('writes that announce nothing still retire the response cache', () => {
  it('a model update outside a transaction', async () => {
    expect(await cachedTitle()).toBe('Original');
    const t = fresh();
    const at = site.db.localVersion;
    await site.db.prisma.content.update({ where: { id: postId }, data: { title: t } });
    expect(site.db.localVersion).toBe(at + 1);
    expect(await cachedTitle()).toBe(t);
  });

  it('model writes inside an interactive transaction, announced once, at commit', async () => {
    await cachedTitle();
    const t = fresh();
    const at = site.db.localVersion;
    await site.db.prisma.$transaction(async (tx) => {
      await tx.content.update({ where: { id: postId }, data: { title: 'in between' } });
      await tx.content.update({ where: { id: postId }, data: { title: t } });
      // Not yet committed: nothing announced.
      expect(site.db.localVersion).toBe(at);
    });
    expect(site.db.localVersion).toBe(at + 1);
    expect(await cachedTitle()).toBe(t);
  });

  it('a batch transaction', async () => {
    await cachedTitle();
    const t = fresh();
    await site.db.prisma.$transaction([
      site.db.prisma.content.update({ where: { id: postId }, data: { title: 'first' } }),
      site.db.prisma.content.update({ where: { id: postId }, data: { title: t } }),
    ]);
    expect(await cachedTitle()).toBe(t);
  });

  it('raw SQL: $executeRawUnsafe and an UPDATE … RETURNING through $queryRawUnsafe', async () => {
    await cachedTitle();
    let t = fresh();
    const p = provider === 'postgres' ? ['$1', '$2'] : ['?', '?'];
    expect(await site.db.prisma.$executeRawUnsafe(sql(`UPDATE "Content" SET "title" = ${p[0]} WHERE "id" = ${p[1]}`), t, postId)).toBe(1);
    expect(await cachedTitle()).toBe(t);

    t = fresh();
    const rows = await site.db.prisma.$queryRawUnsafe<{ id: number }[]>(
      sql(`\n  /* a comment first */ UPDATE "Content" SET "title" = ${p[0]} WHERE "id" = ${p[1]} RETURNING "id"`), t, postId);
    expect(rows.map((r) => Number(r.id))).toEqual([postId]);
    expect(await cachedTitle()).toBe(t);
  });

  it('raw SQL inside a transaction', async () => {
    await cachedTitle();
    const t = fresh();
    const at = site.db.localVersion;
    await site.db.prisma.$transaction(async (tx) => {
      await tx.$executeRawUnsafe(sql(`UPDATE "Content" SET "title" = '${t}' WHERE "id" = ${postId}`));
    });
    expect(site.db.localVersion).toBe(at + 1);
    expect(await cachedTitle()).toBe(t);
  });

  it('a rolled-back transaction announces nothing and the cached answer stays right', async () => {
    const kept = await cachedTitle();
    const at = site.db.localVersion;
    await expect(site.db.prisma.$transaction(async (tx) => {
      await tx.content.update({ where: { id: postId }, data: { title: 'never committed' } });
      throw new Error('abandon');
    })).rejects.toThrow('abandon');
    expect(site.db.localVersion).toBe(at);
    const before = site.db.statements;
    expect(await title()).toBe(kept); // still the cached answer, and still the true one
    expect(site.db.statements).toBe(before);
    expect((await site.db.prisma.content.findUniqueOrThrow({ where: { id: postId } })).title).toBe(kept);
  });

  it('reads, in or out of a transaction, announce nothing', async () => {
    await cachedTitle();
    const at = site.db.localVersion;
    await site.db.prisma.content.findMany({ take: 3 });
    await site.db.prisma.$queryRawUnsafe(sql('SELECT COUNT(*) AS n FROM "Content"'));
    await site.db.prisma.$queryRawUnsafe(sql('WITH t AS (SELECT "id" FROM "Content") SELECT COUNT(*) AS n FROM t'));
    await site.db.prisma.$transaction(async (tx) => { await tx.content.count(); });
    expect(site.db.localVersion).toBe(at);
    const before = site.db.statements;
    await title();
    expect(site.db.statements).toBe(before);
  });

  it('a read that straddles an unannounced write is not stored', async () => {
    const cache = site.app.cache!;
    // Answered once before: the next answer for each key would be kept (see the doorkeeper).
    for (const key of ['straddling', 'after']) cache.set(key, { status: 200, headers: {}, body: 'first' }, cache.begin());
    const started = cache.begin();
    await site.db.prisma.content.update({ where: { id: postId }, data: { title: fresh() } });
    cache.set('straddling', { status: 200, headers: {}, body: 'what the read saw' }, started);
    expect(cache.get('straddling')).toBeUndefined();
    const now = cache.begin();
    cache.set('after', { status: 200, headers: {}, body: 'first' }, now);
    cache.set('after', { status: 200, headers: {}, body: 'fresh' }, now);
    expect(cache.get('after')?.body).toBe('fresh');
  });

  it('the REST write path still gives read-your-writes', async () => {
    await cachedTitle();
    const t = fresh();
    const res = await site.req('POST', `/core/v2/posts/${postId}`, { as: 'administrator', json: { title: t } });
    expect(res.status).toBe(200);
    expect(await cachedTitle()).toBe(t);
  });
});

describe('writes by another process retire this process\'s cache', () => {
  it('a model update through a second handle', async () => {
    await cachedTitle();
    const t = fresh();
    await other.prisma.content.update({ where: { id: postId }, data: { title: t } });
    expect(await eventually(t)).toBe(t);
    expect(await cachedTitle()).toBe(t);
  });

  it('a transaction with raw SQL through a second handle', async () => {
    await cachedTitle();
    const t = fresh();
    await other.prisma.$transaction(async (tx) => {
      await tx.$executeRawUnsafe(sql(`UPDATE "Content" SET "title" = '${t}' WHERE "id" = ${postId}`));
    });
    expect(await eventually(t)).toBe(t);
    expect(await cachedTitle()).toBe(t);
  });

  it('the second handle hears the first one\'s writes too', async () => {
    const at = other.version();
    await site.db.prisma.content.update({ where: { id: postId }, data: { title: fresh() } });
    const deadline = Date.now() + 2000;
    while (other.version() === at && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 10));
    expect(other.version()).not.toBe(at);
  });
});
