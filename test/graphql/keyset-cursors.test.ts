// Keyset cursors of the GraphQL connections: a cursor names its item (sort values and id) and the
// order it belongs to, so a walk over a list that is written to between pages neither repeats nor
// skips items; orders without a key (a full-text search's) keep positions, as documented.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestSite, type TestSite } from '../helpers/app.js';

let site: TestSite;
let cat: number;
/** The 50 posts of the walks, newest first (REST's order). */
let originals: number[];

const day = (n: number, hour = 12) => new Date(Date.UTC(2022, 0, 1 + n, hour)).toISOString().slice(0, 19);

beforeAll(async () => {
  site = await createTestSite();
  cat = (await site.createTerm('categories', { name: 'Keyset walk' })).id;
  // Two posts a day: every date is shared, so the id breaks ties inside and across pages.
  for (let i = 0; i < 50; i++) {
    await site.createPost({ title: `Walk ${String(i).padStart(2, '0')}`, status: 'publish', date: day(Math.floor(i / 2)), categories: [cat] });
  }
  originals = (await site.req('GET', `/core/v2/posts?categories=${cat}&per_page=100`)).body.map((p: { id: number }) => p.id);
});
afterAll(async () => { await site?.close(); });

type Conn = { totalCount: number; pageInfo: { hasNextPage: boolean; hasPreviousPage: boolean; startCursor: string | null; endCursor: string | null }; edges: { cursor: string; node: { databaseId: number } }[] };
const CONN = 'totalCount pageInfo { hasNextPage hasPreviousPage startCursor endCursor } edges { cursor node { databaseId } }';
const ids = (c: Conn) => c.edges.map((e) => e.node.databaseId);
const restIds = async (path: string, as?: 'administrator') => {
  const res = await site.req('GET', path, as ? { as } : {});
  expect(res.status).toBe(200);
  return res.body.map((x: { id: number }) => x.id) as number[];
};

async function conn(field: string, args: Record<string, unknown>, types: string, as?: 'administrator'): Promise<Conn> {
  const res = await site.gql(`query($first: Int, $after: String, $last: Int, $before: String, ${types}) {
    c: ${field}(first: $first, after: $after, last: $last, before: $before, ${types.split(', ').map((t) => t.split(':')[0].slice(1)).map((n) => `${n === 'filter' ? 'where' : n}: $${n}`).join(', ')}) { ${CONN} } }`, args, as ? { as } : {});
  expect(res.errors).toBeUndefined();
  return res.data.c;
}
const posts = (args: Record<string, unknown>) => conn('postsConnection', { filter: { categories: { terms: [cat] } }, ...args }, '$filter: PostListFilter, $orderby: PostOrderBy, $order: Order');

const publish = async (title: string, date?: string) => (await site.createPost({ title, status: 'publish', categories: [cat], ...(date ? { date } : {}) })).id as number;
async function remove(id: number) {
  const res = await site.req('DELETE', `/core/v2/posts/${id}?force=true`, { as: 'administrator' });
  expect(res.status).toBe(200);
}

/** Walks a connection to its end (forward, or backward with `last`), calling `between` after each page. */
async function walk(page: (cursor: string | null) => Promise<Conn>, backward: boolean, between: (step: number, shown: number[], c: Conn) => Promise<void>): Promise<number[]> {
  const shown: number[] = [];
  let cursor: string | null = null;
  for (let step = 0; step < 30; step++) {
    const c = await page(cursor);
    if (backward) shown.unshift(...ids(c)); else shown.push(...ids(c));
    // A window past the first has something before it in the walk's direction.
    if (cursor !== null) expect(backward ? c.pageInfo.hasNextPage : c.pageInfo.hasPreviousPage).toBe(true);
    if (!(backward ? c.pageInfo.hasPreviousPage : c.pageInfo.hasNextPage)) return shown;
    cursor = backward ? c.pageInfo.startCursor : c.pageInfo.endCursor;
    await between(step, shown, c);
  }
  throw new Error('the walk did not end');
}

describe('a walk while the list is written to', () => {
  it('forward (first/after): every remaining post once, in order, with inserts and deletions on both sides of the cursor', async () => {
    const before = await restIds(`/core/v2/posts?categories=${cat}&per_page=100`);
    expect(before).toEqual(originals);
    const made: Record<string, number> = {};
    const gone: number[] = [];
    let goneShown = 0;
    const shownWalk = await walk((after) => posts({ first: 7, after }), false, async (step, shown, c) => {
      if (step === 0) {
        made.head = await publish('Walk new at the head'); // dated now: before the cursor
        made.walked = await publish('Walk new among shown', day(23, 18)); // between shown posts
        made.ahead = await publish('Walk new ahead', day(10, 18)); // among the posts still to come
        const unshown = originals.find((id) => !shown.includes(id) && id !== originals[30])!;
        goneShown = shown[2];
        gone.push(unshown);
        await remove(unshown);
        await remove(goneShown);
      }
      if (step === 2) {
        // The cursor's own post goes: the next window starts after where it was.
        const cursorPost = c.edges[c.edges.length - 1].node.databaseId;
        expect(cursorPost).toBe(shown[shown.length - 1]);
        const { date } = (await site.req('GET', `/core/v2/posts/${cursorPost}`)).body;
        gone.push(cursorPost);
        await remove(cursorPost);
        // A post of the cursor's date, whose higher id sorts it before the cursor: already walked.
        made.tie = await publish('Walk tie behind the cursor', date);
      }
    });
    // Each item at most once.
    expect(new Set(shownWalk).size).toBe(shownWalk.length);
    // The originals, in their order, but the one deleted before it was shown.
    expect(shownWalk.filter((id) => originals.includes(id))).toEqual(originals.filter((id) => id !== gone[0]));
    expect(shownWalk).toContain(goneShown);
    // New posts: only the one ahead of the cursor, where its date puts it.
    expect(shownWalk).not.toContain(made.head);
    expect(shownWalk).not.toContain(made.walked);
    expect(shownWalk).not.toContain(made.tie);
    const at = shownWalk.indexOf(made.ahead);
    expect(at).toBeGreaterThan(0);
    const now = await restIds(`/core/v2/posts?categories=${cat}&per_page=100`);
    expect(now[now.indexOf(made.ahead) - 1]).toBe(shownWalk[at - 1]);
    expect(now[now.indexOf(made.ahead) + 1]).toBe(shownWalk[at + 1]);
    // Clean up for the other walks.
    for (const id of [made.head, made.walked, made.ahead, made.tie]) await remove(id);
    originals = originals.filter((id) => !gone.includes(id) && id !== goneShown);
  });

  it('backward (last/before): the same, from the oldest end, the new head post arriving last', async () => {
    const made: Record<string, number> = {};
    let goneUnshown = 0, goneShown = 0;
    const shownWalk = await walk((before) => posts({ last: 7, before }), true, async (step, shown) => {
      if (step !== 0) return;
      made.head = await publish('Walk back new at the head'); // still to come
      made.walked = await publish('Walk back new among shown', day(1, 6)); // among the oldest, shown
      made.ahead = await publish('Walk back new ahead', day(15, 18));
      goneUnshown = originals.find((id) => !shown.includes(id) && id !== originals[10])!;
      goneShown = shown[3];
      await remove(goneUnshown);
      await remove(goneShown);
    });
    expect(new Set(shownWalk).size).toBe(shownWalk.length);
    expect(shownWalk.filter((id) => originals.includes(id))).toEqual(originals.filter((id) => id !== goneUnshown));
    expect(shownWalk[0]).toBe(made.head);
    expect(shownWalk).toContain(made.ahead);
    expect(shownWalk).not.toContain(made.walked);
    const now = await restIds(`/core/v2/posts?categories=${cat}&per_page=100`);
    const at = shownWalk.indexOf(made.ahead);
    expect(now[now.indexOf(made.ahead) - 1]).toBe(shownWalk[at - 1]);
    for (const id of [made.head, made.walked, made.ahead]) await remove(id);
    originals = originals.filter((id) => id !== goneUnshown && id !== goneShown);
  });

  it('last without before counts from the end; first and last together keep the tail of the head', async () => {
    const tail = await posts({ last: 4 });
    expect(ids(tail)).toEqual(originals.slice(-4));
    expect(tail.pageInfo).toMatchObject({ hasNextPage: false, hasPreviousPage: true });
    const both = await posts({ first: 6, last: 2 });
    expect(ids(both)).toEqual(originals.slice(4, 6));
    expect(both.pageInfo).toMatchObject({ hasNextPage: true, hasPreviousPage: true });
    const head = await posts({ first: 3 });
    expect(head.pageInfo).toMatchObject({ hasNextPage: true, hasPreviousPage: false });
    // A window between two cursors; then one that reaches the end of the list.
    const between = await posts({ after: head.edges[0].cursor, before: head.edges[2].cursor });
    expect(ids(between)).toEqual([originals[1]]);
    expect(between.pageInfo).toMatchObject({ hasNextPage: true, hasPreviousPage: true });
    const rest = await posts({ first: 100, after: tail.edges[0].cursor });
    expect(ids(rest)).toEqual(originals.slice(-3));
    expect(rest.pageInfo).toMatchObject({ hasNextPage: false, hasPreviousPage: true });
  });
});

describe('a cursor belongs to its order and list', () => {
  it('refuses a cursor of another order, direction or list with rest_invalid_param (400), naming the argument', async () => {
    const byDate = await posts({ first: 2 });
    const q = 'query($a: String, $b: String, $o: PostOrderBy, $d: Order) { postsConnection(first: 2, after: $a, before: $b, orderby: $o, order: $d) { totalCount } }';
    for (const vars of [{ a: byDate.pageInfo.endCursor, o: 'TITLE' }, { a: byDate.pageInfo.endCursor, o: 'MODIFIED' }, { b: byDate.pageInfo.endCursor, o: 'SLUG' }, { a: byDate.pageInfo.endCursor, d: 'ASC' }]) {
      const res = await site.gql(q, vars);
      expect(res.data?.postsConnection ?? null).toBeNull();
      expect(res.errors?.[0]?.extensions).toMatchObject({ code: 'rest_invalid_param', status: 400 });
      expect(res.errors?.[0]?.message).toBe(`Invalid parameter(s): ${vars.b ? 'before' : 'after'}`);
    }
    const pages = await site.gql('query($a: String) { pagesConnection(first: 2, after: $a) { totalCount } }', { a: byDate.pageInfo.endCursor });
    expect(pages.errors?.[0]?.extensions).toMatchObject({ code: 'rest_invalid_param', status: 400 });
    const cats = await site.gql('query($a: String) { categoriesConnection(first: 2, after: $a) { totalCount } }', { a: byDate.pageInfo.endCursor });
    expect(cats.errors?.[0]?.extensions).toMatchObject({ code: 'rest_invalid_param', status: 400 });
    // Same order, a cursor whose values are not the order's (a forged one): refused too.
    const forged = Buffer.from(JSON.stringify(['k', 'post:date:desc', ['yesterday', 1]])).toString('base64url');
    const bad = await site.gql(q, { a: forged });
    expect(bad.errors?.[0]?.extensions).toMatchObject({ code: 'rest_invalid_param', status: 400 });
    // The same order takes it.
    const ok = await site.gql(q, { a: byDate.pageInfo.endCursor, o: 'DATE', d: 'DESC' });
    expect(ok.errors).toBeUndefined();
  });
});

describe('orders with ties keep their order across windows', () => {
  let pageIds: number[];
  beforeAll(async () => {
    // Titles that differ only in case, shared menu orders, shared modified times, parents and none.
    const parent = (await site.createPage({ title: 'Keyset parent', status: 'publish' })).id;
    pageIds = [parent];
    for (let i = 0; i < 13; i++) {
      const title = ['banana', 'Apple', 'apple', 'Cherry', 'BANANA'][i % 5];
      const page = await site.createPage({ title, status: 'publish', menu_order: i % 3, parent: i % 4 === 0 ? 0 : parent, slug: `keyset-page-${String(i * 7 % 13).padStart(2, '0')}` });
      pageIds.push(page.id);
    }
    const stamp = new Date(Date.UTC(2023, 5, 1));
    await site.db.prisma.content.updateMany({ where: { id: { in: pageIds.slice(0, 8) } }, data: { modified: stamp, modifiedGmt: stamp } });
  });

  const pagesWalk = async (orderby: string, order: string, backward = false) =>
    walk((cursor) => conn('pagesConnection', { orderby, order, ...(backward ? { last: 3, before: cursor } : { first: 3, after: cursor }) }, '$orderby: PageOrderBy, $order: Order'), backward, async () => {});

  for (const [orderby, rest] of [['TITLE', 'title'], ['SLUG', 'slug'], ['MODIFIED', 'modified'], ['MENU_ORDER', 'menu_order'], ['PARENT', 'parent'], ['ID', 'id'], ['DATE', 'date']]) {
    for (const order of ['ASC', 'DESC']) {
      it(`${orderby} ${order}: forward and backward walks give REST's list`, async () => {
        const expected = await restIds(`/core/v2/pages?per_page=100&orderby=${rest}&order=${order.toLowerCase()}`);
        expect(expected.length).toBeGreaterThan(13);
        expect(await pagesWalk(orderby, order)).toEqual(expected);
        expect(await pagesWalk(orderby, order, true)).toEqual(expected);
      });
    }
  }

  it('a title walk ignores case, as REST orders titles, and takes a title inserted ahead of its cursor', async () => {
    let added = 0;
    const shown = await walk((after) => conn('pagesConnection', { first: 4, after, orderby: 'TITLE', order: 'ASC' }, '$orderby: PageOrderBy, $order: Order'), false, async (step) => {
      if (step === 0) added = (await site.createPage({ title: 'bZZ late', status: 'publish' })).id;
    });
    const expected = await restIds('/core/v2/pages?per_page=100&orderby=title&order=asc');
    expect(shown).toEqual(expected);
    expect(shown).toContain(added);
    const titles = (await site.req('GET', '/core/v2/pages?per_page=100&orderby=title&order=asc')).body.map((p: { title: { rendered: string } }) => p.title.rendered.toLowerCase());
    expect(titles).toEqual([...titles].sort());
  });
});

describe('terms and users', () => {
  it('categories by name: a walk takes a category added ahead of its cursor and leaves out one deleted', async () => {
    for (const n of ['Kw 01', 'Kw 03', 'Kw 05', 'Kw 07', 'Kw 09', 'Kw 11', 'Kw 13']) await site.createTerm('categories', { name: n });
    const expected0 = await restIds('/core/v2/categories?per_page=100&search=Kw&orderby=name');
    let added = 0, removed = 0, behind = 0;
    const shown = await walk((after) => conn('categoriesConnection', { first: 2, after, filter: { search: 'Kw' }, orderby: 'NAME' }, '$filter: CategoryListFilter, $orderby: TermOrderBy'), false, async (step) => {
      if (step !== 0) return;
      added = (await site.createTerm('categories', { name: 'Kw 08' })).id;
      behind = (await site.createTerm('categories', { name: 'Kw 00' })).id;
      removed = expected0[5];
      const res = await site.req('DELETE', `/core/v2/categories/${removed}?force=true`, { as: 'administrator' });
      expect(res.status).toBe(200);
    });
    const now = await restIds('/core/v2/categories?per_page=100&search=Kw&orderby=name');
    expect(shown).toEqual(now.filter((id) => id !== behind));
    expect(shown).toContain(added);
    expect(shown).not.toContain(removed);
  });

  it('users by name: a walk takes a user added ahead of its cursor, as an administrator', async () => {
    for (const n of ['Walker B', 'Walker D', 'Walker F', 'Walker H', 'Walker J']) {
      await site.createUser({ username: n.replace(' ', '').toLowerCase(), name: n });
    }
    let added = 0, behind = 0;
    const shown = await walk((after) => conn('usersConnection', { first: 2, after, filter: { search: 'walker' }, orderby: 'NAME' }, '$filter: UserListFilter, $orderby: UserOrderBy', 'administrator'), false, async (step) => {
      if (step !== 0) return;
      added = (await site.createUser({ username: 'walkerg', name: 'Walker G' })).id;
      behind = (await site.createUser({ username: 'walkera', name: 'Walker A' })).id;
    });
    const now = await restIds('/core/v2/users?per_page=100&search=walker&orderby=name', 'administrator');
    expect(now).toHaveLength(7);
    expect(shown).toEqual(now.filter((id) => id !== behind));
    expect(shown).toContain(added);
  });
});

describe('orders without a key keep positions (docs/graphql.md)', () => {
  it('a full-text search list: the cursor is a position, so a matching post published between two windows repeats one', async () => {
    for (let i = 0; i < 4; i++) await publish(`Zebrafish ${i}`, day(40 + i));
    const search = (first: number, after: string | null) => posts({ first, after, filter: { categories: { terms: [cat] }, search: 'Zebrafish' }, orderby: 'DATE' });
    const one = await search(2, null);
    await publish('Zebrafish newest');
    const two = await search(2, one.pageInfo.endCursor);
    // The newest post took the head: the second window starts one item later than it would have.
    expect(ids(two)[0]).toBe(ids(one)[1]);
    // Its cursors are refused by the same order without a search (a keyset list).
    const res = await site.gql('query($a: String) { postsConnection(first: 2, after: $a) { totalCount } }', { a: one.pageInfo.endCursor });
    expect(res.errors?.[0]?.extensions).toMatchObject({ code: 'rest_invalid_param', status: 400 });
  });
});

describe('statements', () => {
  it('a keyset window costs the same statements at 5 and at 50 items, after a cursor or not', async () => {
    const q = `query($n: Int, $a: String) { postsConnection(first: $n, after: $a, where: { categories: { terms: [${cat}] } }) {
      totalCount pageInfo { hasNextPage hasPreviousPage endCursor } edges { cursor node { databaseId title { rendered } } } } }`;
    const cost = async (n: number, a: string | null) => {
      const before = site.db.statements;
      const res = await site.gql(q, { n, a });
      expect(res.errors).toBeUndefined();
      expect(res.data.postsConnection.edges.length).toBe(n);
      return site.db.statements - before;
    };
    const head = await posts({ first: 1 });
    await cost(5, null);
    const five = await cost(5, head.pageInfo.endCursor);
    expect(await cost(40, head.pageInfo.endCursor)).toBe(five);
    expect(five).toBeLessThanOrEqual(4);
    // pageInfo shares the edges' statement whichever of the two the document asks first.
    const first = q.replace('totalCount pageInfo { hasNextPage hasPreviousPage endCursor } edges', 'edges').replace('} } } } }', '} } } pageInfo { hasNextPage hasPreviousPage endCursor } totalCount } }');
    expect(first).not.toBe(q);
    const before = site.db.statements;
    const res = await site.gql(first, { n: 5, a: head.pageInfo.endCursor });
    expect(res.data.postsConnection.pageInfo).toMatchObject({ hasNextPage: true, hasPreviousPage: true });
    expect(site.db.statements - before).toBe(five);
  });
});
