// Relations over /graphql: records where REST gives ids, as edges (`author { node }`, `parent {
// node }`, `featuredImage { node }`) and connections (`categories { nodes edges { node } }`,
// `children`, `ancestors`, `posts`), nested lists with the collections' filters and read rules,
// global ids (`id`, `node`), `viewer`, addresses (`uri`, `nodeByUri`), and the SQL cost of
// nesting, which must not grow with the page size.
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { createTestSite, SITE, type TestSite } from '../helpers/app.js';

let site: TestSite;
let uploadsDir: string;
beforeAll(async () => {
  uploadsDir = await mkdtemp(join(tmpdir(), 'relations-graphql-'));
  // The N+1 check below asks for 100 posts three relations deep; in connection shapes (a `nodes`
  // or `node` field per relation) that costs 25,802, over the default limit of 25,000.
  site = await createTestSite({ uploadsDir, graphqlMaxCost: 30_000 });
});
afterAll(async () => {
  await site?.close();
  if (uploadsDir) await rm(uploadsDir, { recursive: true, force: true });
});

const ids = (list: { databaseId: number }[]) => list.map((x) => x.databaseId);
/** The global id of a record: its GraphQL type and database id, base64url. */
const globalId = (typeName: string, id: number) => Buffer.from(`${typeName}:${id}`).toString('base64url');

/** A 4×2 PNG. */
const PNG = Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAQAAAACCAIAAADwyuo0AAAACXBIWXMAAAPoAAAD6AG1e1JrAAAAEklEQVQImWP4z8AARwjWfwYGAG+qB/l/O6VpAAAAAElFTkSuQmCC', 'base64');
async function upload(name: string, query = ''): Promise<any> {
  const res = await site.req('POST', `/core/v2/media${query ? `?${query}` : ''}`, {
    as: 'administrator', body: new Uint8Array(PNG), headers: { 'content-type': 'image/png', 'content-disposition': `attachment; filename="${name}"` },
  });
  expect(res.status, res.text).toBe(201);
  return res.body;
}

describe('relations of a post', () => {
  it('gives the author, categories and tags as records, matching the ids REST shows', async () => {
    const parent = await site.createTerm('categories', { name: 'Rel parent' });
    const child = await site.createTerm('categories', { name: 'Rel child', parent: parent.id });
    const tag = await site.createTerm('tags', { name: 'Rel tag' });
    const post = await site.createPost({ title: 'Related', status: 'publish', categories: [child.id, parent.id], tags: [tag.id] }, 'editor');
    const res = await site.gql(`query($id: Int!) { post(id: $id) {
      authorDatabaseId author { node { databaseId slug } }
      categoryDatabaseIds categories { nodes { databaseId name parentDatabaseId parent { node { databaseId name } } } }
      tagDatabaseIds tags { nodes { databaseId name } }
    } }`, { id: post.id });
    expect(res.errors).toBeUndefined();
    const p = res.data.post;
    const rest = (await site.req('GET', `/core/v2/posts/${post.id}`)).body;
    expect(p.author.node.databaseId).toBe(rest.author);
    expect(p.author.node.databaseId).toBe(site.users.editor.id);
    expect(p.authorDatabaseId).toBe(rest.author);
    expect(ids(p.categories.nodes)).toEqual(rest.categories);
    expect(p.categoryDatabaseIds).toEqual(rest.categories);
    expect(p.categories.nodes.map((c: { name: string }) => c.name)).toEqual(['Rel child', 'Rel parent']);
    expect(p.categories.nodes[0].parentDatabaseId).toBe(parent.id);
    expect(p.categories.nodes[0].parent).toEqual({ node: { databaseId: parent.id, name: 'Rel parent' } });
    expect(p.categories.nodes[1].parent).toBeNull();
    expect(ids(p.tags.nodes)).toEqual([tag.id]);
    expect(p.tagDatabaseIds).toEqual(rest.tags);

    const cat = await site.gql('query($id: Int!) { category(id: $id) { children { nodes { databaseId } } posts { nodes { databaseId } } } }', { id: parent.id });
    expect(cat.errors).toBeUndefined();
    expect(ids(cat.data.category.children.nodes)).toEqual([child.id]);
    expect(ids(cat.data.category.posts.nodes)).toEqual([post.id]);
  });

  it('gives null for a post without a featured image, and the unused-selection check stays quiet', async () => {
    const post = await site.createPost({ title: 'Imageless', status: 'publish' }, 'editor');
    const warn = vi.spyOn(console, 'warn');
    try {
      const res = await site.gql('query($id: Int!) { post(id: $id) { featuredImageDatabaseId featuredImage { node { databaseId sourceUrl } } } }', { id: post.id });
      expect(res.errors).toBeUndefined();
      expect(res.data.post).toEqual({ featuredImageDatabaseId: 0, featuredImage: null });
      expect(warn.mock.calls.map((c) => String(c[0])).filter((m) => m.includes('featuredImage'))).toEqual([]);
    } finally {
      warn.mockRestore();
    }
  });

  it("pages: parent, ancestors and children, each as readable as REST makes it", async () => {
    const top = await site.createPage({ title: 'Top', status: 'publish' });
    const mid = await site.createPage({ title: 'Mid', status: 'publish', parent: top.id });
    const leaf = await site.createPage({ title: 'Leaf', status: 'publish', parent: mid.id });
    const hidden = await site.createPage({ title: 'Hidden child', status: 'draft', parent: top.id });
    const q = `query($id: Int!) { page(id: $id) { parentDatabaseId parent { node { databaseId } } ancestors { nodes { databaseId } } children { nodes { databaseId } } } }`;
    const leafRes = await site.gql(q, { id: leaf.id });
    expect(leafRes.data.page).toEqual({
      parentDatabaseId: mid.id, parent: { node: { databaseId: mid.id } }, ancestors: { nodes: [{ databaseId: mid.id }, { databaseId: top.id }] }, children: { nodes: [] },
    });
    const topAnon = await site.gql(q, { id: top.id });
    expect(topAnon.data.page.parent).toBeNull();
    expect(ids(topAnon.data.page.children.nodes)).toEqual([mid.id]);
    // As the pages collection: a draft child shows to an editor who asks for drafts, never to anonymous.
    const drafts = await site.gql('query($id: Int!) { page(id: $id) { children(where: { status: [DRAFT] }) { nodes { databaseId } } } }', { id: top.id }, { as: 'editor' });
    expect(ids(drafts.data.page.children.nodes)).toEqual([hidden.id]);
    const anonDrafts = await site.gql('query($id: Int!) { page(id: $id) { children(where: { status: [DRAFT] }) { nodes { databaseId } } } }', { id: top.id });
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
    const q = 'query($id: Int!, $f: PostListFilter) { post(id: $id) { author { node { posts(where: $f) { nodes { databaseId } } } } } }';
    const posts = (res: { data?: any }) => ids(res.data.post.author.node.posts.nodes);

    const anon = await site.gql(q, { id: pub.id });
    expect(posts(anon)).toEqual([pub.id]);
    const restAnon = await site.req('GET', `/core/v2/posts?author=${writer.id}`);
    expect(posts(anon)).toEqual(restAnon.body.map((x: { id: number }) => x.id));

    const anonDraft = await site.gql(q, { id: pub.id, f: { status: ['DRAFT'] } });
    const restAnonDraft = await site.req('GET', `/core/v2/posts?author=${writer.id}&status=draft`);
    expect(anonDraft.errors?.[0]?.extensions).toMatchObject({ code: restAnonDraft.body.code, status: restAnonDraft.status });

    const editor = await site.gql(q, { id: pub.id, f: { status: ['DRAFT', 'PRIVATE'] } }, { as: 'editor' });
    expect(posts(editor).sort()).toEqual([draft.id, priv.id].sort());
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
    const gid = (await get('query($id: Int!) { post(id: $id) { id } }', { id: post.id })).post.id;
    const draftGid = (await get('query($id: Int!) { post(id: $id) { id } }', { id: draft.id }, 'editor')).post.id;
    const catGid = (await get('query($id: Int!) { category(id: $id) { id } }', { id: cat.id })).category.id;
    const node = 'query($id: ID!) { node(id: $id) { __typename ... on Post { databaseId title { rendered } } ... on Category { databaseId name } } }';
    expect((await get(node, { id: gid })).node).toEqual({ __typename: 'Post', databaseId: post.id, title: { rendered: 'Noded' } });
    expect((await get(node, { id: catGid })).node).toEqual({ __typename: 'Category', databaseId: cat.id, name: 'Noded cat' });
    expect((await get(node, { id: draftGid })).node).toBeNull();
    expect((await get(node, { id: draftGid }, 'editor')).node).toMatchObject({ __typename: 'Post', databaseId: draft.id });
    expect((await get(node, { id: 'bm90IGFuIGlk' })).node).toBeNull();
    expect(new Set([gid, draftGid, catGid]).size).toBe(3);
  });

  it('resolves permalinks (absolute, path, plain) to their post or page', async () => {
    const post = await site.createPost({ title: 'By uri', slug: 'by-uri', status: 'publish' });
    const parent = await site.createPage({ title: 'Uri parent', slug: 'uri-parent', status: 'publish' });
    const page = await site.createPage({ title: 'Uri child', slug: 'uri-child', status: 'publish', parent: parent.id });
    const draft = await site.createPost({ title: 'Uri draft', slug: 'uri-draft', status: 'draft' });
    const q = 'query($u: String!) { nodeByUri(uri: $u) { __typename ... on Post { databaseId } ... on Page { databaseId } } }';
    const at = async (u: string, as?: 'editor') => (await site.gql(q, { u }, as ? { as } : {})).data.nodeByUri;
    expect(await at(post.link)).toEqual({ __typename: 'Post', databaseId: post.id });
    expect(await at(page.link)).toEqual({ __typename: 'Page', databaseId: page.id });
    expect(await at(new URL(page.link).pathname)).toEqual({ __typename: 'Page', databaseId: page.id });
    expect(await at(`/?p=${post.id}`)).toEqual({ __typename: 'Post', databaseId: post.id });
    expect(await at('/uri-child/')).toBeNull();
    expect(await at('https://elsewhere.example/by-uri/')).toBeNull();
    expect(await at(`/?p=${draft.id}`)).toBeNull();
    expect(await at(`/?p=${draft.id}`, 'editor')).toEqual({ __typename: 'Post', databaseId: draft.id });
  });
});

describe('global ids', () => {
  const NODE = `query($id: ID!) { node(id: $id) { __typename id
    ... on Post { databaseId } ... on Page { databaseId } ... on MediaItem { databaseId } ... on Category { databaseId } ... on Tag { databaseId } ... on User { databaseId } } }`;

  it('node(id:) reads a Post, a Page, a MediaItem, a Category, a Tag and a User by the id each answers, with the databaseId REST uses', async () => {
    const post = await site.createPost({ title: 'Kind post', status: 'publish' }, 'editor');
    const page = await site.createPage({ title: 'Kind page', status: 'publish' });
    const media = await upload('kind-media.png');
    const cat = await site.createTerm('categories', { name: 'Kind cat' });
    const tag = await site.createTerm('tags', { name: 'Kind tag' });
    // The editor has a published post: anyone may read them, as REST shows them to anyone.
    const user = site.users.editor;
    expect((await site.req('GET', `/core/v2/users/${user.id}`)).status).toBe(200);
    const own = await site.gql(`query($p: Int!, $g: Int!, $m: Int!, $c: Int!, $t: Int!, $u: Int) {
      post(id: $p) { id databaseId } page(id: $g) { id databaseId } mediaItem(id: $m) { id databaseId }
      category(id: $c) { id databaseId } tag(id: $t) { id databaseId } user(id: $u) { id databaseId } }`,
    { p: post.id, g: page.id, m: media.id, c: cat.id, t: tag.id, u: user.id });
    expect(own.errors).toBeUndefined();
    const cases = [['Post', 'post', post.id], ['Page', 'page', page.id], ['MediaItem', 'mediaItem', media.id], ['Category', 'category', cat.id], ['Tag', 'tag', tag.id], ['User', 'user', user.id]] as const;
    for (const [typeName, field, databaseId] of cases) {
      const { id } = own.data[field];
      expect(own.data[field], typeName).toEqual({ id: globalId(typeName, databaseId), databaseId });
      const res = await site.gql(NODE, { id });
      expect(res.errors, typeName).toBeUndefined();
      expect(res.data.node, typeName).toEqual({ __typename: typeName, id, databaseId });
    }
    expect(new Set(cases.map(([, field]) => own.data[field].id)).size).toBe(cases.length);
  });

  it('node(id:) reads a PostRevision for a caller who may edit the post, and null for anyone else (no error, as for any record they may not read)', async () => {
    const post = await site.createPost({ title: 'Revised', content: 'One', status: 'publish' });
    expect((await site.req('POST', `/core/v2/posts/${post.id}`, { as: 'administrator', json: { content: 'Two' } })).status).toBe(200);
    const listed = await site.gql('query($p: Int!) { postRevisions(parent: $p) { nodes { id databaseId } } }', { p: post.id }, { as: 'editor' });
    expect(listed.errors).toBeUndefined();
    const restIds = (await site.req('GET', `/core/v2/posts/${post.id}/revisions`, { as: 'editor' })).body.map((r: { id: number }) => r.id);
    expect(ids(listed.data.postRevisions.nodes)).toEqual(restIds);
    const [rev] = listed.data.postRevisions.nodes;
    expect(rev.id).toBe(globalId('PostRevision', rev.databaseId));

    const q = 'query($id: ID!) { node(id: $id) { __typename id ... on PostRevision { databaseId parent content { raw } } } }';
    for (const as of ['editor', 'administrator'] as const) {
      const res = await site.gql(q, { id: rev.id }, { as });
      expect(res.errors, as).toBeUndefined();
      expect(res.data.node, as).toEqual({ __typename: 'PostRevision', id: rev.id, databaseId: rev.databaseId, parent: post.id, content: { raw: 'Two' } });
    }
    for (const [as, status] of [[undefined, 401], ['author', 403], ['subscriber', 403]] as const) {
      const rest = await site.req('GET', `/core/v2/posts/${post.id}/revisions/${rev.databaseId}`, { as });
      expect([rest.status, rest.body.code], String(as)).toEqual([status, 'rest_cannot_read']);
      const res = await site.gql(q, { id: rev.id }, { as });
      expect(res.errors, String(as)).toBeUndefined();
      expect(res.data.node, String(as)).toBeNull();
    }
    // The revision's number under another type's name names nothing: a revision is not a post.
    expect((await site.gql(q, { id: globalId('Post', rev.databaseId) }, { as: 'editor' })).data.node).toBeNull();
  });

  it('gives a Post and a Category with the same databaseId different ids, each read back as its own type', async () => {
    // Content and terms number their rows apart: make posts or categories until two share a number.
    let post = await site.createPost({ title: 'Same number', status: 'publish' });
    let cat = await site.createTerm('categories', { name: 'Same number 0' });
    for (let i = 1; post.id !== cat.id && i < 300; i++) {
      if (post.id < cat.id) post = await site.createPost({ title: `Same number ${i}`, status: 'publish' });
      else cat = await site.createTerm('categories', { name: `Same number ${i}` });
    }
    expect(post.id).toBe(cat.id);
    const res = await site.gql('query($id: Int!) { post(id: $id) { id databaseId } category(id: $id) { id databaseId } }', { id: post.id });
    expect(res.errors).toBeUndefined();
    expect(res.data.post.databaseId).toBe(post.id);
    expect(res.data.category.databaseId).toBe(post.id);
    expect(res.data.post.id).not.toBe(res.data.category.id);
    expect((await site.gql(NODE, { id: res.data.post.id })).data.node).toEqual({ __typename: 'Post', id: res.data.post.id, databaseId: post.id });
    expect((await site.gql(NODE, { id: res.data.category.id })).data.node).toEqual({ __typename: 'Category', id: res.data.category.id, databaseId: cat.id });
  });
});

describe('viewer', () => {
  it('is null for an anonymous caller, with no error entry, and the fields beside it answer', async () => {
    const res = await site.gql('{ viewer { databaseId name } site { name } }');
    expect(res.status).toBe(200);
    expect(res.errors).toBeUndefined();
    expect(res.data.viewer).toBeNull();
    expect(res.data.site.name).toEqual(expect.any(String));
  });

  it('is the signed-in user otherwise, as `user` without an id gives them', async () => {
    for (const as of ['subscriber', 'author', 'editor', 'administrator'] as const) {
      const res = await site.gql('{ viewer { id databaseId slug email roles } user { id databaseId slug email roles } }', {}, { as });
      expect(res.errors, as).toBeUndefined();
      expect(res.data.viewer.databaseId, as).toBe(site.users[as].id);
      expect(res.data.viewer.id, as).toBe(globalId('User', site.users[as].id));
      expect(res.data.viewer.roles, as).toEqual([as]);
      expect(res.data.viewer, as).toEqual(res.data.user);
    }
  });
});

describe('uri', () => {
  it('is the path of `link` for a post, a page, a category and a user, and nodeByUri takes it back', async () => {
    const post = await site.createPost({ title: 'Uri post', slug: 'uri-post', status: 'publish' }, 'author');
    const top = await site.createPage({ title: 'Uri top', slug: 'uri-top', status: 'publish' });
    const page = await site.createPage({ title: 'Uri kid', slug: 'uri-kid', status: 'publish', parent: top.id });
    const cat = await site.createTerm('categories', { name: 'Uri cat', slug: 'uri-cat' });
    const res = await site.gql(`query($p: Int!, $g: Int!, $c: Int!, $u: Int) {
      post(id: $p) { link uri } page(id: $g) { link uri } category(id: $c) { link uri } user(id: $u) { link uri } }`,
    { p: post.id, g: page.id, c: cat.id, u: site.users.author.id });
    expect(res.errors).toBeUndefined();
    const rest = {
      post: post.link, page: page.link, category: cat.link,
      user: (await site.req('GET', `/core/v2/users/${site.users.author.id}`)).body.link,
    };
    expect(page.link).toBe(`${SITE}/uri-top/uri-kid/`);
    expect(cat.link).toBe(`${SITE}/category/uri-cat/`);
    const back = `query($u: String!) { nodeByUri(uri: $u) { __typename
      ... on Post { databaseId } ... on Page { databaseId } ... on Category { databaseId } ... on User { databaseId } } }`;
    const expected = { post: ['Post', post.id], page: ['Page', page.id], category: ['Category', cat.id], user: ['User', site.users.author.id] } as const;
    for (const field of ['post', 'page', 'category', 'user'] as const) {
      const { link, uri } = res.data[field];
      expect(link, field).toBe(rest[field]);
      const url = new URL(link);
      expect(url.origin, field).toBe(SITE);
      expect(uri, field).toBe(url.pathname + url.search);
      expect(uri, field).toMatch(/^\/[^?]+\/$/);
      const found = await site.gql(back, { u: uri });
      expect(found.errors, field).toBeUndefined();
      expect(found.data.nodeByUri, field).toEqual({ __typename: expected[field][0], databaseId: expected[field][1] });
    }
  });
});

describe('edges and connections', () => {
  it('author { node }, featuredImage { node } and categories { edges { node } } give the records whose ids REST shows', async () => {
    const image = await upload('shape-image.png');
    const a = await site.createTerm('categories', { name: 'Shape A' });
    const b = await site.createTerm('categories', { name: 'Shape B' });
    const post = await site.createPost({ title: 'Shaped', status: 'publish', featured_media: image.id, categories: [b.id, a.id] }, 'author');
    const res = await site.gql(`query($id: Int!) { post(id: $id) {
      author { __typename node { __typename id databaseId name } }
      featuredImage { __typename node { __typename id databaseId sourceUrl } }
      categories { __typename edges { __typename node { __typename id databaseId name } } nodes { databaseId } }
    } }`, { id: post.id });
    expect(res.errors).toBeUndefined();
    const p = res.data.post;
    const rest = (await site.req('GET', `/core/v2/posts/${post.id}`)).body;
    expect([rest.author, rest.featured_media, rest.categories]).toEqual([site.users.author.id, image.id, [b.id, a.id]]);
    expect(p.author).toEqual({ __typename: 'AuthorEdge', node: { __typename: 'User', id: globalId('User', rest.author), databaseId: rest.author, name: 'author1' } });
    expect(p.featuredImage).toEqual({
      __typename: 'FeaturedImageEdge', node: { __typename: 'MediaItem', id: globalId('MediaItem', image.id), databaseId: rest.featured_media, sourceUrl: image.source_url },
    });
    expect(p.categories.__typename).toBe('PostToCategoryConnection');
    const names: Record<number, string> = { [a.id]: 'Shape A', [b.id]: 'Shape B' };
    expect(p.categories.edges).toEqual(rest.categories.map((id: number) => ({
      __typename: 'PostToCategoryConnectionEdge', node: { __typename: 'Category', id: globalId('Category', id), databaseId: id, name: names[id] },
    })));
    expect(ids(p.categories.nodes)).toEqual(rest.categories);
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
    const q = `query($n: Int!) { postsConnection(first: $n, where: { categories: { terms: [${parent.id}] } }) {
      edges { cursor node { databaseId title { rendered } author { node { databaseId name posts(first: 5) { nodes { databaseId title { rendered } categories { nodes { databaseId } } } } } }
        categories { nodes { databaseId name children { nodes { databaseId name posts(first: 3) { nodes { databaseId } } } } } } } }
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
    const rest = await site.req('GET', `/core/v2/posts?author=${first.author.node.databaseId}&per_page=5`);
    expect(ids(first.author.node.posts.nodes)).toEqual(rest.body.map((x: { id: number }) => x.id));
    const parentNode = first.categories.nodes.find((c: { databaseId: number }) => c.databaseId === parent.id);
    expect(ids(parentNode.children.nodes)).toEqual(kids.map((k) => k.id));
  });
});
