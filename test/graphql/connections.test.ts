// Cursor connections over /graphql (postsConnection, pagesConnection, categoriesConnection,
// usersConnection …): forward and backward paging, totalCount, and filters and orders that give
// the same items as the REST collection given the same parameters.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestSite, type TestSite } from '../helpers/app.js';

let site: TestSite;
let cats: { id: number }[];
beforeAll(async () => {
  site = await createTestSite();
  cats = [await site.createTerm('categories', { name: 'Conn A' }), await site.createTerm('categories', { name: 'Conn B' })];
  const authors = ['administrator', 'editor', 'author'] as const;
  for (let i = 0; i < 23; i++) {
    await site.createPost({
      title: `${i % 4 === 0 ? 'Alpha' : 'Beta'} connection ${String(i).padStart(2, '0')}`,
      status: i % 5 === 4 ? 'draft' : 'publish',
      date: new Date(Date.UTC(2021, 0, 1 + i)).toISOString().slice(0, 19),
      categories: [cats[i % 2].id],
      author: site.users[authors[i % 3]].id,
    });
  }
});
afterAll(async () => { await site?.close(); });

const ids = (list: { id: number }[]) => list.map((x) => x.id);
const edgeIds = (c: { edges: { node: { databaseId: number } }[] }) => c.edges.map((e) => e.node.databaseId);
const dbIds = (list: { databaseId: number }[]) => list.map((x) => x.databaseId);
const CONN = 'totalCount pageInfo { hasNextPage hasPreviousPage startCursor endCursor } edges { cursor node { databaseId } }';

async function postsConn(args: Record<string, unknown>, as?: 'administrator') {
  const res = await site.gql(`query($first: Int, $after: String, $last: Int, $before: String, $filter: PostListFilter, $orderby: PostOrderBy, $order: Order) {
    postsConnection(first: $first, after: $after, last: $last, before: $before, where: $filter, orderby: $orderby, order: $order) { ${CONN} } }`, args, as ? { as } : {});
  expect(res.errors).toBeUndefined();
  return res.data.postsConnection;
}

describe('paging', () => {
  it('walks forward with first/after through the same items, in the same order, as REST', async () => {
    const rest = await site.req('GET', '/core/v2/posts?per_page=100');
    const all: number[] = [];
    let after: string | null = null;
    let pages = 0;
    for (;;) {
      const c = await postsConn({ first: 7, after });
      all.push(...edgeIds(c));
      expect(c.totalCount).toBe(Number(rest.headers.get('x-wp-total')));
      expect(c.pageInfo.hasPreviousPage).toBe(after !== null);
      pages++;
      if (!c.pageInfo.hasNextPage) break;
      after = c.pageInfo.endCursor;
    }
    expect(all).toEqual(ids(rest.body));
    expect(pages).toBe(Math.ceil(rest.body.length / 7));
  });

  it('walks backward with last/before', async () => {
    const rest = ids((await site.req('GET', '/core/v2/posts?per_page=100')).body);
    const tail = await postsConn({ last: 5 });
    expect(edgeIds(tail)).toEqual(rest.slice(-5));
    expect(tail.pageInfo).toMatchObject({ hasNextPage: false, hasPreviousPage: true });
    const before = await postsConn({ last: 5, before: tail.pageInfo.startCursor });
    expect(edgeIds(before)).toEqual(rest.slice(-10, -5));
    // Every edge's cursor pages from its item: the edge after an `after` cursor is the next item.
    const head = await postsConn({ first: 3 });
    const next = await postsConn({ first: 2, after: head.edges[1].cursor });
    expect(edgeIds(next)).toEqual(rest.slice(2, 4));
    const between = await postsConn({ after: head.edges[0].cursor, before: head.edges[2].cursor });
    expect(edgeIds(between)).toEqual([rest[1]]);
  });

  it('refuses a window over 100 and a cursor it did not make, as REST refuses per_page', async () => {
    const q = 'query($n: Int, $a: String) { postsConnection(first: $n, after: $a) { totalCount } }';
    const big = await site.gql(q, { n: 101 });
    expect(big.errors?.[0]?.extensions).toMatchObject({ code: 'rest_invalid_param', status: 400 });
    const bad = await site.gql(q, { n: 1, a: 'garbage' });
    expect(bad.errors?.[0]?.extensions).toMatchObject({ code: 'rest_invalid_param', status: 400 });
    const empty = await postsConn({ first: 0 });
    expect(empty.edges).toEqual([]);
    expect(empty.pageInfo).toMatchObject({ startCursor: null, endCursor: null, hasNextPage: true });
  });
});

describe('filters and orders are the collection\'s', () => {
  const cases: [string, () => Record<string, unknown>, () => string][] = [
    ['author', () => ({ filter: { author: [site.users.editor.id] } }), () => `author=${site.users.editor.id}`],
    ['categories', () => ({ filter: { categories: { terms: [cats[1].id] } } }), () => `categories=${cats[1].id}`],
    ['search', () => ({ filter: { search: 'Alpha' } }), () => 'search=Alpha'],
    ['title order', () => ({ orderby: 'TITLE', order: 'ASC' }), () => 'orderby=title&order=asc'],
    ['exclude + before', () => ({ filter: { before: '2021-01-15T00:00:00', exclude: [] } }), () => 'before=2021-01-15T00:00:00'],
  ];
  for (const [name, gqlArgs, restQuery] of cases) {
    it(`gives REST's items for ${name}`, async () => {
      const rest = await site.req('GET', `/core/v2/posts?per_page=100&${restQuery()}`);
      expect(rest.status).toBe(200);
      const c = await postsConn({ first: 100, ...gqlArgs() });
      expect(edgeIds(c)).toEqual(ids(rest.body));
      expect(c.totalCount).toBe(Number(rest.headers.get('x-wp-total')));
      expect(rest.body.length).toBeGreaterThan(0);
    });
  }

  it('drafts for an administrator who asks, and a refusal like REST\'s for anonymous', async () => {
    const rest = await site.req('GET', '/core/v2/posts?per_page=100&status=draft', { as: 'administrator' });
    const c = await postsConn({ first: 100, filter: { status: ['DRAFT'] } }, 'administrator');
    expect(edgeIds(c)).toEqual(ids(rest.body));
    expect(rest.body.length).toBe(4);
    const anon = await site.gql('{ postsConnection(where: { status: [DRAFT] }) { totalCount } }');
    const restAnon = await site.req('GET', '/core/v2/posts?status=draft');
    expect(anon.errors?.[0]?.extensions).toMatchObject({ code: restAnon.body.code, status: restAnon.status });
  });

  it('terms and users as well', async () => {
    const restCats = await site.req('GET', '/core/v2/categories?per_page=100&orderby=id');
    const cq = await site.gql('{ categoriesConnection(first: 100, orderby: ID) { totalCount nodes { databaseId } } }');
    expect(dbIds(cq.data.categoriesConnection.nodes)).toEqual(ids(restCats.body));
    expect(cq.data.categoriesConnection.totalCount).toBe(Number(restCats.headers.get('x-wp-total')));
    const restUsers = await site.req('GET', '/core/v2/users?per_page=100', { as: 'administrator' });
    const uq = await site.gql('{ usersConnection(last: 2) { totalCount nodes { databaseId } } }', {}, { as: 'administrator' });
    expect(dbIds(uq.data.usersConnection.nodes)).toEqual(ids(restUsers.body).slice(-2));
    const pq = await site.gql('{ pagesConnection { totalCount } mediaItemsConnection { totalCount } tagsConnection { totalCount } }');
    expect(pq.errors).toBeUndefined();
    expect(pq.data.pagesConnection.totalCount).toBe(Number((await site.req('GET', '/core/v2/pages')).headers.get('x-wp-total')));
  });
});
