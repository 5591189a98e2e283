// The response cache of anonymous /graphql reads (gateway/graphql-cache.ts): a repeated query is
// answered without SQL; any committed write (REST, GraphQL, another process on the database)
// retires it; authenticated callers neither read nor fill it. Runs on both databases.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestSite, provider, SITE, type As, type TestResponse, type TestSite } from '../helpers/app.js';
import { openDb, type Db } from '../../src/db/client.js';

let site: TestSite;
let other: Db;
let postId: number;
let n = 0;
const fresh = () => `Cached ${++n} ${provider}`;

const QUERY = 'query Cached($n: Int) { posts(perPage: $n) { nodes { databaseId title { rendered } } } }';

function ask(o: { as?: As; get?: boolean; query?: string } = {}): Promise<TestResponse> {
  const query = o.query ?? QUERY;
  const variables = { n: 5 };
  if (o.get) return site.req('GET', `${SITE}/graphql?query=${encodeURIComponent(query)}&variables=${encodeURIComponent(JSON.stringify(variables))}`, { as: o.as, headers: { accept: 'application/json' } });
  return site.req('POST', `${SITE}/graphql`, { as: o.as, json: { query, variables }, headers: { accept: 'application/json' } });
}

/** The title of the test post in an anonymous answer. */
const titleIn = (res: TestResponse): string => {
  expect(res.status).toBe(200);
  return res.body.data.posts.nodes.find((p: { databaseId: number }) => p.databaseId === postId)?.title.rendered;
};

/**
 * Asks three times and checks the third answer came from the cache: no SQL, `X-Cache: HIT`, the
 * same bytes (an answer is kept the second time it is asked for under a database version).
 */
async function cachedTitle(o: { get?: boolean } = {}): Promise<string> {
  const first = await ask(o);
  expect(titleIn(await ask(o))).toBe(titleIn(first));
  const before = site.db.statements;
  const third = await ask(o);
  expect(site.db.statements).toBe(before);
  expect(third.headers.get('x-cache')).toBe('HIT');
  expect(third.text).toBe(first.text);
  return titleIn(third);
}

/** Polls the anonymous read until it shows `want` or about two seconds have passed (another process's write reaches this one by a notice). */
async function eventually(want: string): Promise<string> {
  const deadline = Date.now() + 2000;
  let seen = titleIn(await ask());
  while (seen !== want && Date.now() < deadline) {
    await new Promise((resolve) => setTimeout(resolve, 10));
    seen = titleIn(await ask());
  }
  return seen;
}

beforeAll(async () => {
  site = await createTestSite();
  expect(site.app.graphqlCache).toBeTruthy();
  postId = (await site.createPost({ title: 'Original', status: 'publish' })).id;
  other = await openDb(site.app.config.databaseUrl);
});

afterAll(async () => {
  await other?.close();
  await site?.close();
});

describe('the anonymous GraphQL response cache', () => {
  it('answers a repeated query without SQL, over POST and GET, and a miss says so', async () => {
    const first = await ask({ query: '{ posts(perPage: 1) { nodes { databaseId } } }' });
    expect(first.headers.get('x-cache')).toBe('MISS');
    expect(await cachedTitle()).toBe('Original');
    expect(await cachedTitle({ get: true })).toBe('Original');
  });

  it('a write through REST retires it', async () => {
    await cachedTitle();
    const t = fresh();
    const res = await site.req('POST', `/core/v2/posts/${postId}`, { as: 'administrator', json: { title: t } });
    expect(res.status).toBe(200);
    const next = await ask();
    expect(next.headers.get('x-cache')).toBe('MISS');
    expect(titleIn(next)).toBe(t);
    expect(await cachedTitle()).toBe(t);
  });

  it('a write through GraphQL retires it', async () => {
    await cachedTitle({ get: true });
    const t = fresh();
    const res = await site.gql('mutation($id: Int!, $t: String) { updatePost(id: $id, input: { title: $t }) { databaseId } }', { id: postId, t }, { as: 'administrator' });
    expect(res.errors).toBeUndefined();
    expect(titleIn(await ask({ get: true }))).toBe(t);
    expect(await cachedTitle({ get: true })).toBe(t);
  });

  it('a write by another process on the database retires it', async () => {
    await cachedTitle();
    const t = fresh();
    await other.prisma.content.update({ where: { id: postId }, data: { title: t } });
    expect(await eventually(t)).toBe(t);
    expect(await cachedTitle()).toBe(t);
  });

  it('an authenticated caller is never served the anonymous answer', async () => {
    await cachedTitle();
    const before = site.db.statements;
    const admin = await ask({ as: 'administrator' });
    expect(admin.status).toBe(200);
    expect(admin.headers.get('x-cache')).toBeNull();
    expect(site.db.statements).toBeGreaterThan(before);
    const byGet = await ask({ as: 'administrator', get: true });
    expect(byGet.headers.get('x-cache')).toBeNull();
    expect(byGet.headers.get('cache-control')).toBe('private, no-store');
  });

  it('an authenticated caller never fills it', async () => {
    const query = `{ posts(perPage: 3) { nodes { databaseId slug } } }`;
    for (let i = 0; i < 3; i++) expect((await ask({ as: 'administrator', query })).status).toBe(200);
    // Had those answers been kept, the first anonymous one would be a hit (or the second, by the doorkeeper).
    const before = site.db.statements;
    const first = await ask({ query });
    expect(first.headers.get('x-cache')).toBe('MISS');
    expect(site.db.statements).toBeGreaterThan(before);
    expect((await ask({ query })).headers.get('x-cache')).toBe('MISS');
    expect((await ask({ query })).headers.get('x-cache')).toBe('HIT');
  });

  it('a mutation\'s answer is never kept', async () => {
    const mutation = 'mutation { createPost(input: { title: "Never cached" }) { status } }';
    for (let i = 0; i < 3; i++) {
      const res = await site.req('POST', `${SITE}/graphql`, { json: { query: mutation }, headers: { accept: 'application/json' } });
      expect(res.body.errors[0].extensions.code).toBe('rest_cannot_create');
      expect(res.headers.get('x-cache')).toBeNull();
    }
  });
});
