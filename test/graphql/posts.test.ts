import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestSite, type TestSite } from '../helpers/app.js';
import { expectGqlError, expectRejected } from '../helpers/gql.js';

let site: TestSite;
beforeAll(async () => { site = await createTestSite(); });
afterAll(async () => { await site?.close(); });

describe('GraphQL over the same rules', () => {
  it('creates and reads a post with the same rendering as REST', async () => {
    const created = await site.gql('mutation($i: PostInput!) { createPost(input: $i) { databaseId status slug title { raw rendered } } }', { i: { title: "It's here", status: 'PUBLISH' } }, { as: 'administrator' });
    expect(created.errors).toBeUndefined();
    const post = created.data.createPost;
    expect(post.title).toEqual({ raw: "It's here", rendered: 'It&#8217;s here' });
    expect(post.slug).toBe('its-here');
    const list = await site.gql('{ posts(perPage: 5) { total totalPages nodes { databaseId title { rendered raw } } } }');
    expect(list.data.posts.total).toBe(1);
    expect(list.data.posts.nodes[0]).toEqual({ databaseId: post.databaseId, title: { rendered: 'It&#8217;s here', raw: null } });
    const rest = await site.req('GET', `/core/v2/posts/${post.databaseId}`);
    expect(rest.body.title.rendered).toBe(list.data.posts.nodes[0].title.rendered);
  });

  it('carries WordPress codes and statuses in error extensions', async () => {
    const anon = await site.gql('mutation { createPost(input: { title: "x" }) { databaseId } }');
    expect(anon.errors?.[0].extensions).toMatchObject({ code: 'rest_cannot_create', status: 401 });
    const sub = await site.gql('mutation { createPost(input: { title: "x" }) { databaseId } }', {}, { as: 'subscriber' });
    expect(sub.errors?.[0].extensions).toMatchObject({ code: 'rest_cannot_create', status: 403 });
    const missing = await site.gql('{ post(id: 99999) { databaseId } }');
    expect(missing.errors?.[0].extensions).toMatchObject({ code: 'rest_post_invalid_id', status: 404 });
  });

  it('refuses bad application passwords', async () => {
    const res = await site.gql('{ site { name } }', {}, { headers: { authorization: 'Basic ' + Buffer.from('admin:wrong wrong wrong').toString('base64') } });
    expect(res.errors?.[0].extensions?.code).toBe('incorrect_password');
  });
});

const POST = 'databaseId authorDatabaseId status commentStatus pingStatus format sticky title { raw rendered } content { raw rendered protected }';

describe('posts: writes with typed inputs and enum values', () => {
  it('creates a post with enum inputs, answers GraphQL names, and REST gives WordPress values for the same record', async () => {
    const created = await site.gql(`mutation($i: PostInput!) { createPost(input: $i) { ${POST} } }`, {
      i: { title: 'Typed', content: 'Typed body', status: 'DRAFT', commentStatus: 'CLOSED', pingStatus: 'CLOSED', format: 'ASIDE' },
    }, { as: 'author' });
    expect(created.errors).toBeUndefined();
    const post = created.data.createPost;
    expect(post).toMatchObject({
      authorDatabaseId: site.users.author.id, status: 'DRAFT', commentStatus: 'CLOSED', pingStatus: 'CLOSED', format: 'ASIDE', sticky: false,
      title: { raw: 'Typed', rendered: 'Typed' }, content: { raw: 'Typed body', rendered: '<p>Typed body</p>\n', protected: false },
    });
    const rest = await site.req('GET', `/core/v2/posts/${post.databaseId}?context=edit`, { as: 'author' });
    expect(rest.status).toBe(200);
    expect(rest.body).toMatchObject({ id: post.databaseId, status: 'draft', comment_status: 'closed', ping_status: 'closed', format: 'aside' });
  });

  it('fills WordPress defaults, shown as enum names', async () => {
    const res = await site.gql('mutation { createPost(input: { title: "Defaults" }) { databaseId status commentStatus pingStatus format } }', {}, { as: 'author' });
    expect(res.data.createPost).toMatchObject({ status: 'DRAFT', commentStatus: 'OPEN', pingStatus: 'OPEN', format: 'STANDARD' });
    const rest = await site.req('GET', `/core/v2/posts/${res.data.createPost.databaseId}?context=edit`, { as: 'author' });
    expect([rest.body.status, rest.body.comment_status, rest.body.ping_status, rest.body.format]).toEqual(['draft', 'open', 'open', 'standard']);
  });

  it('updates with enum values, trashes, then deletes for good', async () => {
    const { id } = await site.createPost({ title: 'Lifecycle', status: 'draft', comment_status: 'closed' }, 'author');
    const updated = await site.gql('mutation($id: Int!) { updatePost(id: $id, input: { title: "Lived", status: PUBLISH, commentStatus: OPEN, format: QUOTE }) { databaseId status commentStatus format title { raw } } }', { id }, { as: 'author' });
    expect(updated.errors).toBeUndefined();
    expect(updated.data.updatePost).toEqual({ databaseId: id, status: 'PUBLISH', commentStatus: 'OPEN', format: 'QUOTE', title: { raw: 'Lived' } });
    const rest = await site.req('GET', `/core/v2/posts/${id}`);
    expect([rest.body.status, rest.body.comment_status, rest.body.format, rest.body.title.rendered]).toEqual(['publish', 'open', 'quote', 'Lived']);

    const trashed = await site.gql('mutation($id: Int!) { trashPost(id: $id) { databaseId status } }', { id }, { as: 'author' });
    expect(trashed.data.trashPost).toEqual({ databaseId: id, status: 'TRASH' });
    expect((await site.req('GET', `/core/v2/posts/${id}?context=edit`, { as: 'author' })).body.status).toBe('trash');
    expectGqlError(await site.gql('mutation($id: Int!) { trashPost(id: $id) { databaseId } }', { id }, { as: 'author' }), 410, 'rest_already_trashed');

    const deleted = await site.gql('mutation($id: Int!) { deletePost(id: $id) { deleted previous { databaseId status title { raw } } } }', { id }, { as: 'author' });
    expect(deleted.data.deletePost).toEqual({ deleted: true, previous: { databaseId: id, status: 'TRASH', title: { raw: 'Lived' } } });
    expectGqlError(await site.gql('query($id: Int!) { post(id: $id) { databaseId } }', { id }, { as: 'administrator' }), 404, 'rest_post_invalid_id');
    expect(await site.req('GET', `/core/v2/posts/${id}`, { as: 'administrator' })).toBeWpError(404, 'rest_post_invalid_id');
  });

  it('refuses writes with the WordPress code and 401 or 403', async () => {
    const { id } = await site.createPost({ title: 'Not yours', status: 'publish' }, 'editor');
    const update = 'mutation($id: Int!) { updatePost(id: $id, input: { title: "Mine" }) { databaseId } }';
    expectGqlError(await site.gql(update, { id }), 401, 'rest_cannot_edit');
    expectGqlError(await site.gql(update, { id }, { as: 'contributor' }), 403, 'rest_cannot_edit');
    expectGqlError(await site.gql(update, { id }, { as: 'author' }), 403, 'rest_cannot_edit');
    expectGqlError(await site.gql('mutation($id: Int!) { trashPost(id: $id) { databaseId } }', { id }, { as: 'author' }), 403, 'rest_cannot_delete');
    expectGqlError(await site.gql('mutation($id: Int!) { deletePost(id: $id) { deleted } }', { id }), 401, 'rest_cannot_delete');
    expectGqlError(await site.gql('mutation($id: Int!) { deletePost(id: $id) { deleted } }', { id }, { as: 'contributor' }), 403, 'rest_cannot_delete');
    expectGqlError(await site.gql('mutation { createPost(input: { title: "x", status: PUBLISH }) { databaseId } }', {}, { as: 'contributor' }), 403, 'rest_cannot_publish');
    expectGqlError(await site.gql('mutation { updatePost(id: 99999, input: { title: "x" }) { databaseId } }', {}, { as: 'editor' }), 404, 'rest_post_invalid_id');
    expectGqlError(await site.gql('mutation { deletePost(id: 99999) { deleted } }', {}, { as: 'editor' }), 404, 'rest_post_invalid_id');
    // Nothing changed.
    expect((await site.req('GET', `/core/v2/posts/${id}`)).body.title.rendered).toBe('Not yours');
  });

  it('rejects values outside the enums before anything runs', async () => {
    expectRejected(await site.gql('mutation { createPost(input: { title: "x", status: draft }) { databaseId } }', {}, { as: 'editor' }), /ContentWriteStatus/);
    // TRASH is a status a post can have, not one it can be given.
    expectRejected(await site.gql('mutation { createPost(input: { title: "x", status: TRASH }) { databaseId } }', {}, { as: 'editor' }), /ContentWriteStatus/);
    expectRejected(await site.gql('mutation($i: PostInput!) { createPost(input: $i) { databaseId } }', { i: { title: 'x', commentStatus: 'open' } }, { as: 'editor' }), /"open".*DiscussionStatus/);
    expectRejected(await site.gql('{ posts(orderby: MENU_ORDER) { total } }'), /MENU_ORDER.*PostOrderBy/);
    expectRejected(await site.gql('query($o: Order) { posts(order: $o) { total } }', { o: 'asc' }), /"asc".*Order/);
    // None was created.
    expect((await site.gql('{ posts(filter: { search: "x", status: [ANY] }) { total } }', {}, { as: 'editor' })).data.posts.total).toBe(0);
  });
});

describe('posts: lists with filters, enum ordering and paging', () => {
  const titles = (res: { data?: any }) => res.data.posts.nodes.map((n: { title: { rendered: string } }) => n.title.rendered);
  let category: number;
  let listed: number[];
  let draft: number;
  let aside: number;

  beforeAll(async () => {
    category = (await site.createTerm('categories', { name: 'Listed' })).id;
    listed = [];
    for (const [i, title] of ['Echo', 'Alpha', 'Delta', 'Bravo', 'Charlie'].entries()) {
      listed.push((await site.createPost({ title, status: 'publish', categories: [category], date: `2024-03-0${i + 1}T10:00:00` }, 'author')).id);
    }
    draft = (await site.createPost({ title: 'Foxtrot draft', status: 'draft', categories: [category], content: 'Secret draft' }, 'editor')).id;
    aside = (await site.createPost({ title: 'Aside note', status: 'publish', format: 'aside' }, 'editor')).id;
  });

  it('orders by an enum, pages with total and totalPages as REST does', async () => {
    const q = 'query($c: Int!, $page: Int) { posts(filter: { categories: { terms: [$c] } }, orderby: TITLE, order: ASC, perPage: 2, page: $page) { total totalPages nodes { databaseId title { rendered } } } }';
    const page2 = await site.gql(q, { c: category, page: 2 });
    expect(page2.errors).toBeUndefined();
    expect(page2.data.posts.total).toBe(5);
    expect(page2.data.posts.totalPages).toBe(3);
    expect(titles(page2)).toEqual(['Charlie', 'Delta']);
    const page3 = await site.gql(q, { c: category, page: 3 });
    expect(titles(page3)).toEqual(['Echo']);
    const rest = await site.req('GET', `/core/v2/posts?categories=${category}&orderby=title&order=asc&per_page=2&page=2`);
    expect(rest.body.map((p: { id: number }) => p.id)).toEqual(page2.data.posts.nodes.map((n: { databaseId: number }) => n.databaseId));
    expect([rest.headers.get('x-wp-total'), rest.headers.get('x-wp-totalpages')]).toEqual(['5', '3']);
  });

  it('orders by date descending by default and by id ascending on request, with an offset', async () => {
    const byDate = await site.gql('query($c: Int!) { posts(filter: { categories: { terms: [$c] } }) { nodes { databaseId } } }', { c: category });
    expect(byDate.data.posts.nodes.map((n: { databaseId: number }) => n.databaseId)).toEqual([...listed].reverse());
    const byId = await site.gql('query($c: Int!) { posts(filter: { categories: { terms: [$c] } }, orderby: ID, order: ASC, offset: 3, perPage: 5) { total nodes { databaseId } } }', { c: category });
    expect(byId.data.posts.nodes.map((n: { databaseId: number }) => n.databaseId)).toEqual(listed.slice(3));
    expect(byId.data.posts.total).toBe(5);
  });

  it('filters by search, author, include, format and several statuses', async () => {
    expect(titles(await site.gql('{ posts(filter: { search: "charlie" }) { nodes { title { rendered } } } }'))).toEqual(['Charlie']);
    const byAuthor = await site.gql('query($a: [Int!]) { posts(filter: { author: $a }, perPage: 100) { total } }', { a: [site.users.author.id] });
    expect(byAuthor.data.posts.total).toBe(5);
    const included = await site.gql('query($i: [Int!]) { posts(filter: { include: $i }, orderby: INCLUDE) { nodes { databaseId } } }', { i: [listed[3], listed[0]] });
    expect(included.data.posts.nodes.map((n: { databaseId: number }) => n.databaseId)).toEqual([listed[3], listed[0]]);
    const asides = await site.gql('{ posts(filter: { format: [ASIDE] }) { nodes { databaseId format } } }');
    expect(asides.data.posts.nodes).toEqual([{ databaseId: aside, format: 'ASIDE' }]);
    const drafts = await site.gql('query($c: Int!) { posts(filter: { status: [DRAFT], categories: { terms: [$c] } }) { total nodes { databaseId status } } }', { c: category }, { as: 'editor' });
    expect(drafts.data.posts).toEqual({ total: 1, nodes: [{ databaseId: draft, status: 'DRAFT' }] });
    const any = await site.gql('query($c: Int!) { posts(filter: { status: [ANY], categories: { terms: [$c] } }, perPage: 100) { total } }', { c: category }, { as: 'editor' });
    expect(any.data.posts.total).toBe(6);
    const both = await site.gql('query($c: Int!) { posts(filter: { status: [DRAFT, PUBLISH], categories: { terms: [$c] } }, perPage: 100) { total } }', { c: category }, { as: 'editor' });
    expect(both.data.posts.total).toBe(6);
  });

  it('refuses a DRAFT filter to a subscriber and an anonymous caller: rest_invalid_param with rest_forbidden_status inside', async () => {
    const q = '{ posts(filter: { status: [DRAFT] }) { total } }';
    const sub = await site.gql(q, {}, { as: 'subscriber' });
    expectGqlError(sub, 400, 'rest_invalid_param');
    expect(sub.errors?.[0].extensions?.data).toMatchObject({ details: { status: { code: 'rest_forbidden_status', data: { status: 403 } } } });
    const anon = await site.gql('{ posts(filter: { status: [ANY] }) { total } }');
    expectGqlError(anon, 400, 'rest_invalid_param');
    expect(anon.errors?.[0].extensions?.data).toMatchObject({ details: { status: { code: 'rest_forbidden_status', data: { status: 401 } } } });
  });

  it('leaves raw text and the password null for callers who may not edit, and gives them to an editor', async () => {
    const { id } = await site.createPost({ title: 'Guarded', status: 'publish', content: 'Guarded body', password: 'pw' }, 'editor');
    const q = 'query($id: Int!) { post(id: $id) { password title { raw rendered } content { raw rendered protected } } }';
    for (const as of [undefined, 'subscriber'] as const) {
      const res = await site.gql(q, { id }, { as });
      expect(res.errors, as).toBeUndefined();
      expect(res.data.post, as).toEqual({ password: null, title: { raw: null, rendered: 'Guarded' }, content: { raw: null, rendered: '', protected: true } });
    }
    const withPassword = await site.gql('query($id: Int!) { post(id: $id, password: "pw") { content { raw rendered } } }', { id });
    expect(withPassword.data.post.content).toEqual({ raw: null, rendered: '<p>Guarded body</p>\n' });
    const editor = await site.gql(q, { id }, { as: 'editor' });
    expect(editor.data.post).toEqual({ password: 'pw', title: { raw: 'Guarded', rendered: 'Guarded' }, content: { raw: 'Guarded body', rendered: '<p>Guarded body</p>\n', protected: true } });
    const list = await site.gql('query($i: [Int!]) { posts(filter: { include: $i }) { nodes { title { raw } } } }', { i: [id] }, { as: 'subscriber' });
    expect(list.data.posts.nodes).toEqual([{ title: { raw: null } }]);
  });

  it('refuses a draft to those who may not read it, with 401 or 403 rest_forbidden', async () => {
    const q = 'query($id: Int!) { post(id: $id) { databaseId } }';
    expectGqlError(await site.gql(q, { id: draft }), 401, 'rest_forbidden');
    expectGqlError(await site.gql(q, { id: draft }, { as: 'subscriber' }), 403, 'rest_forbidden');
    expectGqlError(await site.gql(q, { id: draft }, { as: 'author' }), 403, 'rest_forbidden');
    expect((await site.gql('query($id: Int!) { post(id: $id) { databaseId status content { raw } } }', { id: draft }, { as: 'editor' })).data.post).toEqual({ databaseId: draft, status: 'DRAFT', content: { raw: 'Secret draft' } });
  });
});

describe('password-protected text', () => {
  it('keeps the raw text of another author\'s protected post from a contributor, over GraphQL and REST', async () => {
    const made = await site.req('POST', '/core/v2/posts', { as: 'editor', json: { title: 'Locked', content: 'secret body', excerpt: 'secret summary', password: 'pw', status: 'publish' } });
    expect(made.status).toBe(201);
    const query = 'query($id: Int!, $pw: String) { post(id: $id, password: $pw) { title { raw } content { raw rendered protected } excerpt { raw rendered } } }';
    const locked = await site.gql(query, { id: made.body.id }, { as: 'contributor' });
    expect(locked.errors).toBeUndefined();
    expect(locked.data.post).toEqual({ title: { raw: 'Locked' }, content: { raw: null, rendered: '', protected: true }, excerpt: { raw: null, rendered: '' } });
    const opened = await site.gql(query, { id: made.body.id, pw: 'pw' }, { as: 'contributor' });
    expect(opened.data.post.content.raw).toBe('secret body');
    const editor = await site.gql(query, { id: made.body.id }, { as: 'editor' });
    expect(editor.data.post.content.raw).toBe('secret body');
    const list = await site.req('GET', `/core/v2/posts?context=edit&include=${made.body.id}`, { as: 'contributor' });
    expect(list.status).toBe(200);
    expect(list.body[0].content.raw).toBeNull();
    expect(list.body[0].excerpt.raw).toBeNull();
  });
});
