// Revisions and autosaves over /graphql: the same trail, rights and error codes as the REST
// routes under core/v2/posts/{parent}/revisions and …/autosaves, for posts and pages.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestSite, SITE, type As, type TestSite } from '../helpers/app.js';
import { expectGqlError } from '../helpers/gql.js';

let site: TestSite;
beforeAll(async () => { site = await createTestSite(); });
afterAll(async () => { await site?.close(); });

type Base = 'posts' | 'pages';
const REVISION = 'databaseId author date dateGmt modified modifiedGmt parent slug guid { raw rendered } title { raw rendered } content { raw rendered } excerpt { raw rendered } meta { footnotes }';
const NONCE = '[0-9a-f]{10}';
const escapeRe = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

async function update(base: Base, id: number, json: Record<string, unknown>, as: As = 'administrator'): Promise<any> {
  const res = await site.req('POST', `/core/v2/${base}/${id}`, { as, json });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body;
}

/** Revision ids through REST, newest first. */
async function restIds(base: Base, id: number): Promise<number[]> {
  const res = await site.req('GET', `/core/v2/${base}/${id}/revisions`, { as: 'administrator' });
  expect(res.status).toBe(200);
  return res.body.map((r: { id: number }) => r.id);
}

/** A published item of the administrator with `n` revisions, newest first. */
async function withRevisions(base: Base, n: number): Promise<{ id: number; revisions: number[] }> {
  const create = base === 'posts' ? site.createPost : site.createPage;
  const { id } = await create({ title: `GraphQL ${base} with ${n}`, content: 'Start', status: 'publish' });
  for (let i = 1; i <= n; i++) await update(base, id, { content: `Step ${i}` });
  const revisions = await restIds(base, id);
  expect(revisions).toHaveLength(n);
  return { id, revisions };
}

async function nextSecond(): Promise<void> {
  const now = Math.floor(Date.now() / 1000);
  while (Math.floor(Date.now() / 1000) === now) await new Promise((r) => setTimeout(r, 25));
}

describe('post revisions: queries', () => {
  let id: number;
  let trail: number[];
  beforeAll(async () => {
    ({ id } = await site.createPost({ title: 'G start', content: 'g zero', status: 'publish' }));
    await update('posts', id, { title: 'G one' });
    await update('posts', id, { content: 'g two with kiwi' }, 'editor');
    await update('posts', id, { excerpt: 'g excerpt' });
    trail = await restIds('posts', id);
  });

  it('lists the revisions as REST does in edit context, field for field', async () => {
    const res = await site.gql(`query($p: Int!) { postRevisions(parent: $p) { total totalPages nodes { ${REVISION} } } }`, { p: id }, { as: 'administrator' });
    expect(res.errors).toBeUndefined();
    const list = res.data.postRevisions;
    expect(list.total).toBe(3);
    expect(list.totalPages).toBe(1);
    const rest = (await site.req('GET', `/core/v2/posts/${id}/revisions?context=edit`, { as: 'administrator' })).body;
    expect(list.nodes.map((n: { databaseId: number }) => n.databaseId)).toEqual(trail);
    list.nodes.forEach((n: any, i: number) => {
      const r = rest[i];
      expect(n).toEqual({
        databaseId: r.id, author: r.author, date: r.date, dateGmt: r.date_gmt, modified: r.modified, modifiedGmt: r.modified_gmt,
        parent: id, slug: `${id}-revision-v1`, guid: r.guid, title: r.title, content: r.content, excerpt: r.excerpt, meta: { footnotes: '' },
      });
    });
    expect(list.nodes[0]).toMatchObject({ title: { raw: 'G one' }, content: { raw: 'g two with kiwi', rendered: '<p>g two with kiwi</p>\n' }, excerpt: { raw: 'g excerpt', rendered: '<p>g excerpt</p>\n' } });
    expect(list.nodes[1].author).toBe(site.users.editor.id);
    expect(list.nodes[2].excerpt).toEqual({ raw: '', rendered: '' });
  });

  it('pages, filters and orders with enum values', async () => {
    const q = `query($p: Int!, $page: Int, $perPage: Int, $offset: Int, $order: Order, $orderby: RevisionOrderBy, $f: RevisionListFilter) {
      postRevisions(parent: $p, page: $page, perPage: $perPage, offset: $offset, order: $order, orderby: $orderby, filter: $f) { total totalPages nodes { databaseId } } }`;
    const run = async (vars: Record<string, unknown>) => {
      const res = await site.gql(q, { p: id, ...vars }, { as: 'editor' });
      expect(res.errors, JSON.stringify(vars)).toBeUndefined();
      return res.data.postRevisions as { total: number; totalPages: number; nodes: { databaseId: number }[] };
    };
    const idsOf = (l: { nodes: { databaseId: number }[] }) => l.nodes.map((n) => n.databaseId);
    const page2 = await run({ perPage: 2, page: 2 });
    expect([page2.total, page2.totalPages, idsOf(page2)]).toEqual([3, 2, [trail[2]]]);
    expect(idsOf(await run({ perPage: 1, offset: 1 }))).toEqual([trail[1]]);
    expect(idsOf(await run({ order: 'ASC' }))).toEqual([...trail].reverse());
    expect(idsOf(await run({ orderby: 'ID', order: 'ASC' }))).toEqual([...trail].sort((a, b) => a - b));
    expect(idsOf(await run({ orderby: 'INCLUDE', f: { include: [trail[2], trail[0]] } }))).toEqual([trail[2], trail[0]]);
    expect(idsOf(await run({ f: { exclude: [trail[0]] } }))).toEqual(trail.slice(1));
    const searched = await run({ f: { search: 'kiwi' } });
    expect([searched.total, idsOf(searched)]).toEqual([2, [trail[0], trail[1]]]);

    const beyond = await site.gql(q, { p: id, perPage: 2, page: 3 }, { as: 'editor' });
    expectGqlError(beyond, 400, 'rest_revision_invalid_page_number');
    expectGqlError(await site.gql(q, { p: id, offset: 3 }, { as: 'editor' }), 400, 'rest_revision_invalid_offset_number');
    expectGqlError(await site.gql(q, { p: id, orderby: 'RELEVANCE' }, { as: 'editor' }), 400, 'rest_no_search_term_defined');
    expectGqlError(await site.gql(q, { p: id, orderby: 'INCLUDE' }, { as: 'editor' }), 400, 'rest_orderby_include_missing_include');
  });

  it('reads one revision, and refuses with the REST codes and statuses', async () => {
    const other = await withRevisions('posts', 1);
    const one = 'query($p: Int!, $id: Int!) { postRevision(parent: $p, id: $id) { databaseId parent slug title { raw } } }';
    const res = await site.gql(one, { p: id, id: trail[1] }, { as: 'editor' });
    expect(res.errors).toBeUndefined();
    expect(res.data.postRevision).toEqual({ databaseId: trail[1], parent: id, slug: `${id}-revision-v1`, title: { raw: 'G one' } });

    expectGqlError(await site.gql(one, { p: 987654, id: trail[1] }, { as: 'administrator' }), 404, 'rest_post_invalid_parent');
    expectGqlError(await site.gql(one, { p: 987654, id: trail[1] }), 404, 'rest_post_invalid_parent');
    expectGqlError(await site.gql(one, { p: id, id: trail[1] }), 401, 'rest_cannot_read');
    expectGqlError(await site.gql(one, { p: id, id: trail[1] }, { as: 'author' }), 403, 'rest_cannot_read');
    expectGqlError(await site.gql(one, { p: id, id: 987654 }, { as: 'administrator' }), 404, 'rest_post_invalid_id');
    expectGqlError(await site.gql(one, { p: id, id }, { as: 'administrator' }), 404, 'rest_post_invalid_id');
    expectGqlError(await site.gql(one, { p: id, id: other.revisions[0] }, { as: 'administrator' }), 404, 'rest_revision_parent_id_mismatch');

    const list = 'query($p: Int!) { postRevisions(parent: $p) { total } }';
    expectGqlError(await site.gql(list, { p: 987654 }, { as: 'administrator' }), 404, 'rest_post_invalid_parent');
    expectGqlError(await site.gql(list, { p: id }), 401, 'rest_cannot_read');
    expectGqlError(await site.gql(list, { p: id }, { as: 'subscriber' }), 403, 'rest_cannot_read');
  });

  it('nests revisions and the caller\'s autosave under a post and under a posts list', async () => {
    const q = 'query($id: Int!) { post(id: $id) { databaseId revisions { total nodes { databaseId title { raw } } } autosave { databaseId } } }';
    const res = await site.gql(q, { id }, { as: 'administrator' });
    expect(res.errors).toBeUndefined();
    expect(res.data.post.revisions.total).toBe(3);
    expect(res.data.post.revisions.nodes.map((n: { databaseId: number }) => n.databaseId)).toEqual(trail);
    expect(res.data.post.revisions.nodes[0].title.raw).toBe('G one');
    expect(res.data.post.autosave).toBeNull();

    const list = await site.gql('query($i: [Int!]) { posts(filter: { include: $i }) { nodes { databaseId revisionCount revisions(perPage: 1) { total totalPages nodes { databaseId } } } } }', { i: [id] }, { as: 'editor' });
    expect(list.errors).toBeUndefined();
    expect(list.data.posts.nodes).toEqual([{ databaseId: id, revisionCount: 3, revisions: { total: 3, totalPages: 3, nodes: [{ databaseId: trail[0] }] } }]);
  });

  it('leaves revisions null with rest_cannot_read for a caller who may not edit the post, and the post itself readable', async () => {
    const q = 'query($id: Int!) { post(id: $id) { databaseId revisions { total } } }';
    for (const [as, status] of [['subscriber', 403], ['author', 403], [undefined, 401]] as const) {
      const res = await site.gql(q, { id }, { as });
      expect(res.data?.post, String(as)).toEqual({ databaseId: id, revisions: null });
      expect(res.errors?.[0].extensions, String(as)).toMatchObject({ code: 'rest_cannot_read', status });
      expect(res.errors?.[0].path).toEqual(['post', 'revisions']);
    }
  });
});

describe('post autosaves', () => {
  const AUTOSAVE = 'databaseId parent slug author previewLink title { raw } content { raw } excerpt { raw }';
  const autosave = (id: number, input: Record<string, unknown>, as?: As) =>
    site.gql(`mutation($id: Int!, $i: PostInput!) { autosavePost(id: $id, input: $i) { ${AUTOSAVE} } }`, { id, i: input }, { as });

  it('stores an editor\'s autosave beside a published post and shows it to them through post.autosave', async () => {
    const post = await site.createPost({ title: 'Autosaved over GraphQL', content: 'Published words', status: 'publish' });
    const res = await autosave(post.id, { content: 'Unsaved words' }, 'editor');
    expect(res.errors).toBeUndefined();
    const a = res.data.autosavePost;
    expect(a.databaseId).not.toBe(post.id);
    expect(a).toMatchObject({ parent: post.id, slug: `${post.id}-autosave-v1`, author: site.users.editor.id, title: { raw: 'Autosaved over GraphQL' }, content: { raw: 'Unsaved words' } });
    expect(a.previewLink).toMatch(new RegExp(`^${escapeRe(`${post.link}?preview_id=${post.id}&preview_nonce=`)}${NONCE}&preview=true$`));

    // The post is unchanged; REST sees the same autosave.
    expect((await site.req('GET', `/core/v2/posts/${post.id}`)).body.content.rendered).toBe('<p>Published words</p>\n');
    const rest = await site.req('GET', `/core/v2/posts/${post.id}/autosaves`, { as: 'administrator' });
    expect(rest.body.map((r: { id: number }) => r.id)).toEqual([a.databaseId]);

    // Saving again replaces it.
    const again = await autosave(post.id, { content: 'Unsaved words, again' }, 'editor');
    expect(again.data.autosavePost.databaseId).toBe(a.databaseId);
    expect(again.data.autosavePost.content.raw).toBe('Unsaved words, again');

    const own = 'query($id: Int!) { post(id: $id) { autosave { databaseId content { raw } } } }';
    expect((await site.gql(own, { id: post.id }, { as: 'editor' })).data.post.autosave).toEqual({ databaseId: a.databaseId, content: { raw: 'Unsaved words, again' } });
    expect((await site.gql(own, { id: post.id }, { as: 'administrator' })).data.post.autosave).toBeNull();

    await nextSecond();
    const mine = await autosave(post.id, { title: 'Administrator\'s idea' }, 'administrator');
    expect(mine.data.autosavePost.databaseId).not.toBe(a.databaseId);
    const all = await site.gql(`query($p: Int!) { postAutosaves(parent: $p) { ${AUTOSAVE} } }`, { p: post.id }, { as: 'editor' });
    expect(all.errors).toBeUndefined();
    expect(all.data.postAutosaves.map((x: { databaseId: number }) => x.databaseId)).toEqual([mine.data.autosavePost.databaseId, a.databaseId]);
    const latest = await site.gql(`query($p: Int!) { postAutosave(parent: $p) { databaseId author title { raw } } }`, { p: post.id }, { as: 'editor' });
    expect(latest.data.postAutosave).toEqual({ databaseId: mine.data.autosavePost.databaseId, author: site.users.administrator.id, title: { raw: 'Administrator\'s idea' } });
    const count = await site.gql('query($id: Int!) { post(id: $id) { revisionCount revisions { total } } }', { id: post.id }, { as: 'administrator' });
    expect(count.data.post).toEqual({ revisionCount: 2, revisions: { total: 2 } });
  });

  it('updates the draft itself when its author autosaves it', async () => {
    const draft = await site.createPost({ title: 'My draft', content: 'First thoughts' }, 'author');
    const res = await autosave(draft.id, { title: 'My better draft', content: 'Second thoughts' }, 'author');
    expect(res.errors).toBeUndefined();
    expect(res.data.autosavePost).toEqual({
      databaseId: draft.id, parent: 0, slug: '', author: site.users.author.id, previewLink: `${SITE}/?p=${draft.id}&preview=true`,
      title: { raw: 'My better draft' }, content: { raw: 'Second thoughts' }, excerpt: { raw: '' },
    });
    const rest = (await site.req('GET', `/core/v2/posts/${draft.id}?context=edit`, { as: 'author' })).body;
    expect([rest.title.raw, rest.content.raw, rest._links['version-history'][0].count]).toEqual(['My better draft', 'Second thoughts', 0]);
    expect((await site.gql('query($p: Int!) { postAutosaves(parent: $p) { databaseId } }', { p: draft.id }, { as: 'author' })).data.postAutosaves).toEqual([]);
  });

  it('refuses autosaves and autosave reads with the REST codes', async () => {
    const post = await site.createPost({ title: 'Not for everyone', status: 'publish' });
    expectGqlError(await autosave(post.id, { content: 'x' }), 401, 'rest_cannot_edit');
    expectGqlError(await autosave(post.id, { content: 'x' }, 'author'), 403, 'rest_cannot_edit');
    expectGqlError(await autosave(987654, { content: 'x' }, 'administrator'), 404, 'rest_post_invalid_id');
    const page = await site.createPage({ title: 'A page', status: 'publish' });
    expectGqlError(await autosave(page.id, { content: 'x' }, 'administrator'), 404, 'rest_post_invalid_id');
    expectGqlError(await site.gql('query($p: Int!) { postAutosave(parent: $p) { databaseId } }', { p: post.id }, { as: 'administrator' }), 404, 'rest_post_no_autosave');
    expectGqlError(await site.gql('query($p: Int!) { postAutosave(parent: $p) { databaseId } }', { p: 987654 }, { as: 'administrator' }), 404, 'rest_post_invalid_parent');
    expectGqlError(await site.gql('query($p: Int!) { postAutosaves(parent: $p) { databaseId } }', { p: post.id }, { as: 'subscriber' }), 403, 'rest_cannot_read');
    expectGqlError(await site.gql('query($p: Int!) { postAutosaves(parent: $p) { databaseId } }', { p: post.id }), 401, 'rest_cannot_read');
    expect((await site.req('GET', `/core/v2/posts/${post.id}/autosaves`, { as: 'administrator' })).body).toEqual([]);
  });
});

describe('post revisions: restore and delete', () => {
  it('restores a revision through a mutation that answers the post', async () => {
    const { id } = await site.createPost({ title: 'Restore A', content: 'Alpha', status: 'publish' });
    await update('posts', id, { title: 'Restore B', content: 'Beta', excerpt: 'Bee' });
    await update('posts', id, { title: 'Restore C', content: 'Gamma', excerpt: '' });
    const [, b] = await restIds('posts', id);
    const res = await site.gql('mutation($p: Int!, $id: Int!) { restorePostRevision(parent: $p, id: $id) { databaseId status title { raw } content { raw } excerpt { raw } revisionCount } }', { p: id, id: b }, { as: 'editor' });
    expect(res.errors).toBeUndefined();
    expect(res.data.restorePostRevision).toEqual({ databaseId: id, status: 'PUBLISH', title: { raw: 'Restore B' }, content: { raw: 'Beta' }, excerpt: { raw: 'Bee' }, revisionCount: 3 });
    const rest = (await site.req('GET', `/core/v2/posts/${id}/revisions?context=edit`, { as: 'administrator' })).body;
    expect(rest[0]).toMatchObject({ author: site.users.editor.id, title: { raw: 'Restore B' }, content: { raw: 'Beta' } });
    expect((await site.req('GET', `/core/v2/posts/${id}`)).body.title.rendered).toBe('Restore B');
  });

  it('refuses restores with the REST codes', async () => {
    const post = await withRevisions('posts', 2);
    const other = await withRevisions('posts', 1);
    const restore = 'mutation($p: Int!, $id: Int!) { restorePostRevision(parent: $p, id: $id) { databaseId } }';
    expectGqlError(await site.gql(restore, { p: 987654, id: post.revisions[1] }, { as: 'administrator' }), 404, 'rest_post_invalid_parent');
    expectGqlError(await site.gql(restore, { p: post.id, id: post.revisions[1] }), 401, 'rest_cannot_edit');
    expectGqlError(await site.gql(restore, { p: post.id, id: post.revisions[1] }, { as: 'contributor' }), 403, 'rest_cannot_edit');
    expectGqlError(await site.gql(restore, { p: post.id, id: 987654 }, { as: 'administrator' }), 404, 'rest_post_invalid_id');
    expectGqlError(await site.gql(restore, { p: post.id, id: other.revisions[0] }, { as: 'administrator' }), 404, 'rest_revision_parent_id_mismatch');
    expect((await site.req('GET', `/core/v2/posts/${post.id}?context=edit`, { as: 'administrator' })).body.content.raw).toBe('Step 2');
  });

  it('deletes a revision for good, answering it as it was', async () => {
    const post = await withRevisions('posts', 2);
    const del = 'mutation($p: Int!, $id: Int!) { deletePostRevision(parent: $p, id: $id) { deleted previous { databaseId parent slug content { rendered } } } }';
    expectGqlError(await site.gql(del, { p: post.id, id: post.revisions[0] }), 401, 'rest_cannot_delete');
    expectGqlError(await site.gql(del, { p: post.id, id: post.revisions[0] }, { as: 'author' }), 403, 'rest_cannot_delete');
    expectGqlError(await site.gql(del, { p: 987654, id: post.revisions[0] }, { as: 'administrator' }), 404, 'rest_post_invalid_parent');
    expectGqlError(await site.gql(del, { p: post.id, id: 987654 }, { as: 'administrator' }), 404, 'rest_post_invalid_id');

    const res = await site.gql(del, { p: post.id, id: post.revisions[0] }, { as: 'editor' });
    expect(res.errors).toBeUndefined();
    expect(res.data.deletePostRevision).toEqual({ deleted: true, previous: { databaseId: post.revisions[0], parent: post.id, slug: `${post.id}-revision-v1`, content: { rendered: '<p>Step 2</p>\n' } } });
    expectGqlError(await site.gql('query($p: Int!, $id: Int!) { postRevision(parent: $p, id: $id) { databaseId } }', { p: post.id, id: post.revisions[0] }, { as: 'administrator' }), 404, 'rest_post_invalid_id');
    expect(await restIds('posts', post.id)).toEqual([post.revisions[1]]);
    // The post keeps its text.
    expect((await site.req('GET', `/core/v2/posts/${post.id}?context=edit`, { as: 'administrator' })).body.content.raw).toBe('Step 2');
  });
});

describe('pages', () => {
  it('lists, reads, nests, restores and deletes page revisions', async () => {
    const page = await withRevisions('pages', 3);
    const list = await site.gql('query($p: Int!) { pageRevisions(parent: $p, perPage: 2) { total totalPages nodes { databaseId parent slug content { raw } } } }', { p: page.id }, { as: 'editor' });
    expect(list.errors).toBeUndefined();
    expect(list.data.pageRevisions.total).toBe(3);
    expect(list.data.pageRevisions.totalPages).toBe(2);
    expect(list.data.pageRevisions.nodes).toEqual([
      { databaseId: page.revisions[0], parent: page.id, slug: `${page.id}-revision-v1`, content: { raw: 'Step 3' } },
      { databaseId: page.revisions[1], parent: page.id, slug: `${page.id}-revision-v1`, content: { raw: 'Step 2' } },
    ]);
    const one = await site.gql('query($p: Int!, $id: Int!) { pageRevision(parent: $p, id: $id) { databaseId content { rendered } } }', { p: page.id, id: page.revisions[2] }, { as: 'editor' });
    expect(one.data.pageRevision).toEqual({ databaseId: page.revisions[2], content: { rendered: '<p>Step 1</p>\n' } });
    const nested = await site.gql('query($id: Int!) { page(id: $id) { revisions { total } autosave { databaseId } } }', { id: page.id }, { as: 'administrator' });
    expect(nested.data.page).toEqual({ revisions: { total: 3 }, autosave: null });

    const restored = await site.gql('mutation($p: Int!, $id: Int!) { restorePageRevision(parent: $p, id: $id) { databaseId content { raw } } }', { p: page.id, id: page.revisions[2] }, { as: 'editor' });
    expect(restored.errors).toBeUndefined();
    expect(restored.data.restorePageRevision).toEqual({ databaseId: page.id, content: { raw: 'Step 1' } });
    expect(await restIds('pages', page.id)).toHaveLength(4);

    const deleted = await site.gql('mutation($p: Int!, $id: Int!) { deletePageRevision(parent: $p, id: $id) { deleted previous { databaseId } } }', { p: page.id, id: page.revisions[1] }, { as: 'editor' });
    expect(deleted.data.deletePageRevision).toEqual({ deleted: true, previous: { databaseId: page.revisions[1] } });
    expect(await restIds('pages', page.id)).not.toContain(page.revisions[1]);
  });

  it('autosaves pages and refuses authors, who may not edit pages', async () => {
    const page = await withRevisions('pages', 1);
    const save = 'mutation($id: Int!, $i: PageInput!) { autosavePage(id: $id, input: $i) { databaseId parent slug author previewLink title { raw } } }';
    const res = await site.gql(save, { id: page.id, i: { title: 'Page autosave' } }, { as: 'editor' });
    expect(res.errors).toBeUndefined();
    const a = res.data.autosavePage;
    expect(a).toMatchObject({ parent: page.id, slug: `${page.id}-autosave-v1`, author: site.users.editor.id, title: { raw: 'Page autosave' } });
    expect(a.previewLink).toMatch(new RegExp(`preview_id=${page.id}&preview_nonce=${NONCE}&preview=true$`));
    expect((await site.gql('query($p: Int!) { pageAutosaves(parent: $p) { databaseId } }', { p: page.id }, { as: 'administrator' })).data.pageAutosaves).toEqual([{ databaseId: a.databaseId }]);
    expect((await site.gql('query($p: Int!) { pageAutosave(parent: $p) { databaseId } }', { p: page.id }, { as: 'administrator' })).data.pageAutosave).toEqual({ databaseId: a.databaseId });
    expect((await site.gql('query($id: Int!) { page(id: $id) { autosave { databaseId } } }', { id: page.id }, { as: 'editor' })).data.page.autosave).toEqual({ databaseId: a.databaseId });

    const draft = await site.createPage({ title: 'Page draft' }, 'editor');
    const own = await site.gql(save, { id: draft.id, i: { title: 'Page draft, autosaved' } }, { as: 'editor' });
    expect(own.data.autosavePage).toEqual({ databaseId: draft.id, parent: 0, slug: '', author: site.users.editor.id, previewLink: `${SITE}/?page_id=${draft.id}&preview=true`, title: { raw: 'Page draft, autosaved' } });

    expectGqlError(await site.gql(save, { id: page.id, i: { title: 'x' } }, { as: 'author' }), 403, 'rest_cannot_edit');
    expectGqlError(await site.gql('query($p: Int!) { pageRevisions(parent: $p) { total } }', { p: page.id }, { as: 'author' }), 403, 'rest_cannot_read');
    const post = await withRevisions('posts', 1);
    expectGqlError(await site.gql('query($p: Int!) { pageRevisions(parent: $p) { total } }', { p: post.id }, { as: 'administrator' }), 404, 'rest_post_invalid_parent');
    const nested = await site.gql('query($id: Int!) { page(id: $id) { databaseId revisions { total } } }', { id: page.id }, { as: 'author' });
    expect(nested.data.page).toEqual({ databaseId: page.id, revisions: null });
    expect(nested.errors?.[0].extensions).toMatchObject({ code: 'rest_cannot_read', status: 403 });
  });
});
