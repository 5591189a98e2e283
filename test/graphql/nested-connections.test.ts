// The nested lists (a term's, a user's and a page's items) as connections paged with keyset
// cursors: `first`/`after`, edges with cursors and pageInfo, stable while items are written.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestSite, type GqlResult, type TestSite } from '../helpers/app.js';
import { expectGqlError } from '../helpers/gql.js';

let site: TestSite;
let cat: { id: number };
let other: { id: number };
const posts: number[] = [];

beforeAll(async () => {
  site = await createTestSite();
  cat = await site.createTerm('categories', { name: 'Walked', slug: 'walked' });
  other = await site.createTerm('categories', { name: 'Elsewhere', slug: 'elsewhere' });
  // Oldest first, a minute apart, so the newest-first order is known.
  for (let i = 0; i < 11; i++) {
    const date = new Date(Date.UTC(2025, 0, 1, 10, i)).toISOString().slice(0, 19);
    posts.push((await site.createPost({ title: `Walked ${i}`, status: 'publish', categories: [cat.id], date }, 'editor')).id);
  }
  await site.createPost({ title: 'Not in it', status: 'publish', categories: [other.id] });
});
afterAll(async () => { await site?.close(); });

const show = (res: GqlResult) => JSON.stringify(res, null, 2);
const PAGE = `query($id: Int!, $after: String) { category(id: $id) { posts(first: 4, after: $after) {
  edges { cursor node { databaseId } } pageInfo { hasNextPage hasPreviousPage endCursor } } } }`;

type Page = { edges: { cursor: string; node: { databaseId: number } }[]; pageInfo: { hasNextPage: boolean; hasPreviousPage: boolean; endCursor: string | null } };

async function page(after: string | null): Promise<Page> {
  const res = await site.gql(PAGE, { id: cat.id, after });
  expect(res.errors, show(res)).toBeUndefined();
  return res.data.category.posts;
}

describe('a term\'s posts as a connection', () => {
  it('walks every post once, newest first, while a newer post is published and a shown one deleted', async () => {
    const seen: number[] = [];
    let after: string | null = null;
    let first = true;
    for (;;) {
      const p = await page(after);
      expect(p.pageInfo.hasPreviousPage).toBe(!first);
      seen.push(...p.edges.map((e) => e.node.databaseId));
      expect(p.pageInfo.endCursor).toBe(p.edges.at(-1)?.cursor ?? null);
      if (first) {
        // Between pages: a post newer than all of them, and the deletion of one already shown.
        await site.createPost({ title: 'Walked, late', status: 'publish', categories: [cat.id] }, 'editor');
        const del = await site.req('DELETE', `/core/v2/posts/${seen[0]}?force=true`, { as: 'administrator' });
        expect(del.status).toBe(200);
        first = false;
      }
      if (!p.pageInfo.hasNextPage) break;
      after = p.pageInfo.endCursor;
    }
    expect(seen).toEqual([...posts].reverse());
  });

  it('refuses a cursor that is not one, and one of another list, with rest_invalid_param (400)', async () => {
    expectGqlError(await site.gql(PAGE, { id: cat.id, after: 'bm90IGEgY3Vyc29y' }), 400, 'rest_invalid_param');
    const menu = await site.gql('{ postsConnection(first: 1, orderby: TITLE) { edges { cursor } } }');
    const foreign = menu.data.postsConnection.edges[0].cursor;
    expectGqlError(await site.gql(PAGE, { id: cat.id, after: foreign }), 400, 'rest_invalid_param');
  });

  it('gives a user\'s posts the same paging: nodes after the cursor of the last one shown', async () => {
    const q = `query($id: Int!, $after: String) { user(id: $id) { posts(first: 2, after: $after) { nodes { databaseId } pageInfo { hasNextPage endCursor } } } }`;
    const a = await site.gql(q, { id: site.users.editor.id }, { as: 'administrator' });
    expect(a.errors, show(a)).toBeUndefined();
    const first = a.data.user.posts;
    expect(first.nodes).toHaveLength(2);
    expect(first.pageInfo.hasNextPage).toBe(true);
    const b = await site.gql(q, { id: site.users.editor.id, after: first.pageInfo.endCursor }, { as: 'administrator' });
    const ids = (b.data.user.posts.nodes as { databaseId: number }[]).map((n) => n.databaseId);
    expect(ids).toHaveLength(2);
    for (const id of ids) expect(first.nodes.map((n: { databaseId: number }) => n.databaseId)).not.toContain(id);
    const rest = await site.req('GET', `/core/v2/posts?author=${site.users.editor.id}&per_page=4`);
    expect([...first.nodes.map((n: { databaseId: number }) => n.databaseId), ...ids]).toEqual((rest.body as { id: number }[]).map((p) => p.id));
  });
});

describe('terms by slug in where (GraphQL only: REST takes ids)', () => {
  const total = async (where: string) => {
    const res = await site.gql(`{ postsConnection(first: 100, where: ${where}) { totalCount nodes { databaseId } } }`);
    expect(res.errors, show(res)).toBeUndefined();
    return res.data.postsConnection as { totalCount: number; nodes: { databaseId: number }[] };
  };

  it('lists a category\'s posts by its slug as REST lists them by id, and excludes by slug too', async () => {
    const rest = await site.req('GET', `/core/v2/posts?categories=${cat.id}&per_page=100`);
    const restIds = (rest.body as { id: number }[]).map((p) => p.id);
    expect(restIds.length).toBeGreaterThan(5);
    const bySlug = await total('{ categories: { slugs: ["walked"] } }');
    expect(bySlug.nodes.map((n) => n.databaseId)).toEqual(restIds);
    expect(bySlug.totalCount).toBe(Number(rest.headers.get('x-wp-total')));
    const excluded = await total('{ categoriesExclude: { slugs: ["walked"] } }');
    for (const id of restIds) expect(excluded.nodes.map((n) => n.databaseId)).not.toContain(id);
    expect(excluded.totalCount).toBeGreaterThan(0);
  });

  it('matches nothing for a slug that names no term, and nothing for "all of" one known and one unknown slug', async () => {
    expect((await total('{ categories: { slugs: ["no-such-slug"] } }')).totalCount).toBe(0);
    expect((await total('{ categories: { slugs: ["walked", "no-such-slug"], operator: AND } }')).totalCount).toBe(0);
    expect((await total('{ categories: { slugs: ["walked", "no-such-slug"] } }')).totalCount).toBeGreaterThan(5);
  });

  it('filters a nested list by slug', async () => {
    const res = await site.gql(`query($id: Int!) { user(id: $id) { posts(first: 50, where: { categories: { slugs: ["elsewhere"] } }) { nodes { databaseId } } } }`,
      { id: site.users.administrator.id }, { as: 'administrator' });
    expect(res.errors, show(res)).toBeUndefined();
    const rest = await site.req('GET', `/core/v2/posts?categories=${other.id}&author=${site.users.administrator.id}`);
    expect(res.data.user.posts.nodes.map((n: { databaseId: number }) => n.databaseId)).toEqual((rest.body as { id: number }[]).map((p) => p.id));
    expect(res.data.user.posts.nodes).toHaveLength(1);
  });
});

describe('the order of a nested list', () => {
  it('pages a category\'s posts by slug ascending, as REST orders them, with cursors of that order', async () => {
    const q = `query($id: Int!, $after: String) { category(id: $id) { posts(first: 4, after: $after, orderby: SLUG, order: ASC) {
      nodes { databaseId } pageInfo { hasNextPage endCursor } } } }`;
    const seen: number[] = [];
    let after: string | null = null;
    for (;;) {
      const res = await site.gql(q, { id: cat.id, after });
      expect(res.errors, show(res)).toBeUndefined();
      const p = res.data.category.posts;
      seen.push(...p.nodes.map((n: { databaseId: number }) => n.databaseId));
      if (!p.pageInfo.hasNextPage) break;
      after = p.pageInfo.endCursor;
    }
    const rest = await site.req('GET', `/core/v2/posts?categories=${cat.id}&orderby=slug&order=asc&per_page=100`);
    expect(seen).toEqual((rest.body as { id: number }[]).map((p) => p.id));
    // A cursor of the date order is not one of the slug order.
    const byDate = await site.gql('query($id: Int!) { category(id: $id) { posts(first: 1) { pageInfo { endCursor } } } }', { id: cat.id });
    expectGqlError(await site.gql(q, { id: cat.id, after: byDate.data.category.posts.pageInfo.endCursor }), 400, 'rest_invalid_param');
  });
});
