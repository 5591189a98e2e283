// Relations over /graphql: records where REST gives ids (authorNode, categoryNodes, parentNode …),
// nested lists with the collections' filters and read rules, global ids (node) and permalinks
// (nodeByUri), and the SQL cost of nesting, which must not grow with the page size.
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { createTestSite, type TestSite } from '../helpers/app.js';

let site: TestSite;
beforeAll(async () => { site = await createTestSite(); });
afterAll(async () => { await site?.close(); });

const ids = (list: { id: number }[]) => list.map((x) => x.id);

describe('relations of a post', () => {
  it('gives the author, categories and tags as records, matching the ids REST shows', async () => {
    const parent = await site.createTerm('categories', { name: 'Rel parent' });
    const child = await site.createTerm('categories', { name: 'Rel child', parent: parent.id });
    const tag = await site.createTerm('tags', { name: 'Rel tag' });
    const post = await site.createPost({ title: 'Related', status: 'publish', categories: [child.id, parent.id], tags: [tag.id] }, 'editor');
    const res = await site.gql(`query($id: Int!) { post(id: $id) {
      author authorNode { id slug }
      categories categoryNodes { id name parent parentNode { id name } }
      tags tagNodes { id name }
    } }`, { id: post.id });
    expect(res.errors).toBeUndefined();
    const p = res.data.post;
    const rest = (await site.req('GET', `/core/v2/posts/${post.id}`)).body;
    expect(p.authorNode.id).toBe(rest.author);
    expect(p.authorNode.id).toBe(site.users.editor.id);
    expect(ids(p.categoryNodes)).toEqual(rest.categories);
    expect(p.categoryNodes.map((c: { name: string }) => c.name)).toEqual(['Rel child', 'Rel parent']);
    expect(p.categoryNodes[0].parentNode).toEqual({ id: parent.id, name: 'Rel parent' });
    expect(p.categoryNodes[1].parentNode).toBeNull();
    expect(ids(p.tagNodes)).toEqual([tag.id]);

    const cat = await site.gql('query($id: Int!) { category(id: $id) { children { id } posts { id } } }', { id: parent.id });
    expect(ids(cat.data.category.children)).toEqual([child.id]);
    expect(ids(cat.data.category.posts)).toEqual([post.id]);
  });

  it('gives null for a post without a featured image, and the unused-selection check stays quiet', async () => {
    const post = await site.createPost({ title: 'Imageless', status: 'publish' }, 'editor');
    const warn = vi.spyOn(console, 'warn');
    try {
      const res = await site.gql('query($id: Int!) { post(id: $id) { featuredMedia featuredMediaNode { id sourceUrl } } }', { id: post.id });
      expect(res.errors).toBeUndefined();
      expect(res.data.post).toEqual({ featuredMedia: 0, featuredMediaNode: null });
      expect(warn.mock.calls.map((c) => String(c[0])).filter((m) => m.includes('featuredMediaNode'))).toEqual([]);
    } finally {
      warn.mockRestore();
    }
  });

  it("pages: parent, ancestors and children, each as readable as REST makes it", async () => {
    const top = await site.createPage({ title: 'Top', status: 'publish' });
    const mid = await site.createPage({ title: 'Mid', status: 'publish', parent: top.id });
    const leaf = await site.createPage({ title: 'Leaf', status: 'publish', parent: mid.id });
    const hidden = await site.createPage({ title: 'Hidden child', status: 'draft', parent: top.id });
    const q = `query($id: Int!) { page(id: $id) { parentNode { id } ancestors { id } children { id } } }`;
    const leafRes = await site.gql(q, { id: leaf.id });
    expect(leafRes.data.page).toEqual({ parentNode: { id: mid.id }, ancestors: [{ id: mid.id }, { id: top.id }], children: [] });
    const topAnon = await site.gql(q, { id: top.id });
    expect(ids(topAnon.data.page.children)).toEqual([mid.id]);
    // As the pages collection: a draft child shows to an editor who asks for drafts, never to anonymous.
    const drafts = await site.gql('query($id: Int!) { page(id: $id) { children(filter: { status: [DRAFT] }) { id } } }', { id: top.id }, { as: 'editor' });
    expect(ids(drafts.data.page.children)).toEqual([hidden.id]);
    const anonDrafts = await site.gql('query($id: Int!) { page(id: $id) { children(filter: { status: [DRAFT] }) { id } } }', { id: top.id });
    const restAnon = await site.req('GET', `/core/v2/pages?parent=${top.id}&status=draft`);
    expect(anonDrafts.errors?.[0]?.extensions).toMatchObject({ code: restAnon.body.code, status: restAnon.status });
    expect(restAnon.status).toBe(400);
  });
});

describe('read rules of nested lists', () => {
  it("a user's posts: published only for anonymous, drafts for an editor who asks, private ones hidden from others", async () => {
    const writer = await site.createUser({ username: 'relwriter', roles: ['author'] });
    const pub = await site.createPost({ title: 'Writer public', status: 'publish', author: writer.id });
    const draft = await site.createPost({ title: 'Writer draft', status: 'draft', author: writer.id });
    const priv = await site.createPost({ title: 'Writer private', status: 'private', author: writer.id }, 'administrator');
    const q = 'query($id: Int!, $f: PostListFilter) { post(id: $id) { authorNode { posts(filter: $f) { id } } } }';

    const anon = await site.gql(q, { id: pub.id });
    expect(ids(anon.data.post.authorNode.posts)).toEqual([pub.id]);
    const restAnon = await site.req('GET', `/core/v2/posts?author=${writer.id}`);
    expect(ids(anon.data.post.authorNode.posts)).toEqual(ids(restAnon.body));

    const anonDraft = await site.gql(q, { id: pub.id, f: { status: ['DRAFT'] } });
    const restAnonDraft = await site.req('GET', `/core/v2/posts?author=${writer.id}&status=draft`);
    expect(anonDraft.errors?.[0]?.extensions).toMatchObject({ code: restAnonDraft.body.code, status: restAnonDraft.status });

    const editor = await site.gql(q, { id: pub.id, f: { status: ['DRAFT', 'PRIVATE'] } }, { as: 'editor' });
    expect(ids(editor.data.post.authorNode.posts).sort()).toEqual([draft.id, priv.id].sort());
    // A subscriber may ask for private posts (read_private_posts is not theirs): REST refuses, and so does the relation.
    const sub = await site.gql(q, { id: pub.id, f: { status: ['PRIVATE'] } }, { as: 'subscriber' });
    const restSub = await site.req('GET', `/core/v2/posts?author=${writer.id}&status=private`, { as: 'subscriber' });
    expect(sub.errors?.[0]?.extensions).toMatchObject({ code: restSub.body.code, status: restSub.status });
  });
});

describe('node and nodeByUri', () => {
  it('finds a record by its global id, and nothing the caller may not read', async () => {
    const post = await site.createPost({ title: 'Noded', status: 'publish' });
    const draft = await site.createPost({ title: 'Noded draft', status: 'draft' });
    const cat = await site.createTerm('categories', { name: 'Noded cat' });
    const get = async (q: string, v: Record<string, unknown>, as?: 'editor') => (await site.gql(q, v, as ? { as } : {})).data;
    const gid = (await get('query($id: Int!) { post(id: $id) { globalId } }', { id: post.id })).post.globalId;
    const draftGid = (await get('query($id: Int!) { post(id: $id) { globalId } }', { id: draft.id }, 'editor')).post.globalId;
    const catGid = (await get('query($id: Int!) { category(id: $id) { globalId } }', { id: cat.id })).category.globalId;
    const node = 'query($id: ID!) { node(id: $id) { __typename ... on Post { id title { rendered } } ... on Category { id name } } }';
    expect((await get(node, { id: gid })).node).toEqual({ __typename: 'Post', id: post.id, title: { rendered: 'Noded' } });
    expect((await get(node, { id: catGid })).node).toEqual({ __typename: 'Category', id: cat.id, name: 'Noded cat' });
    expect((await get(node, { id: draftGid })).node).toBeNull();
    expect((await get(node, { id: draftGid }, 'editor')).node).toMatchObject({ __typename: 'Post', id: draft.id });
    expect((await get(node, { id: 'bm90IGFuIGlk' })).node).toBeNull();
    expect(new Set([gid, draftGid, catGid]).size).toBe(3);
  });

  it('resolves permalinks (absolute, path, plain) to their post or page', async () => {
    const post = await site.createPost({ title: 'By uri', slug: 'by-uri', status: 'publish' });
    const parent = await site.createPage({ title: 'Uri parent', slug: 'uri-parent', status: 'publish' });
    const page = await site.createPage({ title: 'Uri child', slug: 'uri-child', status: 'publish', parent: parent.id });
    const draft = await site.createPost({ title: 'Uri draft', slug: 'uri-draft', status: 'draft' });
    const q = 'query($u: String!) { nodeByUri(uri: $u) { __typename ... on Post { id } ... on Page { id } } }';
    const at = async (u: string, as?: 'editor') => (await site.gql(q, { u }, as ? { as } : {})).data.nodeByUri;
    expect(await at(post.link)).toEqual({ __typename: 'Post', id: post.id });
    expect(await at(page.link)).toEqual({ __typename: 'Page', id: page.id });
    expect(await at(new URL(page.link).pathname)).toEqual({ __typename: 'Page', id: page.id });
    expect(await at(`/?p=${post.id}`)).toEqual({ __typename: 'Post', id: post.id });
    expect(await at('/uri-child/')).toBeNull();
    expect(await at('https://elsewhere.example/by-uri/')).toBeNull();
    expect(await at(`/?p=${draft.id}`)).toBeNull();
    expect(await at(`/?p=${draft.id}`, 'editor')).toEqual({ __typename: 'Post', id: draft.id });
  });
});

describe('no N+1', () => {
  it('costs the same SQL statements at 10 and at 100 posts for posts → author → posts and posts → categories → children', async () => {
    const prisma = site.db.prisma;
    const parent = await site.createTerm('categories', { name: 'Bulk parent' });
    const kids = [await site.createTerm('categories', { name: 'Bulk kid 1', parent: parent.id }), await site.createTerm('categories', { name: 'Bulk kid 2', parent: parent.id })];
    const authors = [site.users.administrator.id, site.users.editor.id, site.users.author.id];
    const base = Date.UTC(2020, 0, 1);
    await prisma.content.createMany({
      data: Array.from({ length: 120 }, (_, i) => {
        const d = new Date(base + i * 60_000);
        return { type: 'post', status: 'publish', authorId: authors[i % 3], title: `Bulk ${i}`, slug: `bulk-${i}`, date: d, dateGmt: d, modified: d, modifiedGmt: d };
      }),
    });
    const made = await prisma.content.findMany({ where: { slug: { startsWith: 'bulk-' } }, select: { id: true } });
    await prisma.termRelationship.createMany({ data: made.flatMap((p, i) => [{ contentId: p.id, termId: parent.id, taxonomy: 'category' }, { contentId: p.id, termId: kids[i % 2].id, taxonomy: 'category' }]) });
    const q = `query($n: Int!) { postsConnection(first: $n, filter: { categories: { terms: [${parent.id}] } }) {
      edges { cursor node { id title { rendered } authorNode { id name posts(first: 5) { id title { rendered } categoryNodes { id } } }
        categoryNodes { id name children { id name posts(first: 3) { id } } } } }
    } }`;
    const cost = async (n: number) => {
      const before = site.db.statements;
      const res = await site.gql(q, { n });
      expect(res.errors).toBeUndefined();
      expect(res.data.postsConnection.edges).toHaveLength(n);
      return site.db.statements - before;
    };
    await cost(10); // warms what is cached across requests (site settings)
    const ten = await cost(10);
    const hundred = await cost(100);
    expect(ten).toBe(hundred);
    if (process.env.TEST_TIMINGS === '1') console.log(`nested query: ${ten} statements at 10 and at 100 posts`);
    expect(ten).toBeLessThanOrEqual(16);
    // The nested data is right, not only cheap: the third level agrees with the REST collection.
    const res = await site.gql(q, { n: 10 });
    const first = res.data.postsConnection.edges[0].node;
    const rest = await site.req('GET', `/core/v2/posts?author=${first.authorNode.id}&per_page=5`);
    expect(ids(first.authorNode.posts)).toEqual(ids(rest.body));
    const parentNode = first.categoryNodes.find((c: { id: number }) => c.id === parent.id);
    expect(ids(parentNode.children)).toEqual(ids(kids));
  });
});
