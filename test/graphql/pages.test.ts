// Pages over /graphql: the same rules as core/v2/pages, with edit_pages (which authors lack) as
// the right to write and to see raw values; enum values in, enum names out.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestSite, type TestSite } from '../helpers/app.js';
import { expectGqlError, expectRejected } from '../helpers/gql.js';

let site: TestSite;
beforeAll(async () => { site = await createTestSite(); });
afterAll(async () => { await site?.close(); });

const PAGE = 'databaseId authorDatabaseId parentDatabaseId menuOrder status commentStatus pingStatus link title { raw rendered } content { raw rendered }';

describe('pages: writes with typed inputs and enum values', () => {
  it('creates a page with enum inputs, answers GraphQL names, and REST gives WordPress values for the same record', async () => {
    const created = await site.gql(`mutation($i: PageInput!) { createPage(input: $i) { ${PAGE} } }`, {
      i: { title: 'About', content: 'About us', status: 'PRIVATE', commentStatus: 'OPEN', pingStatus: 'CLOSED', menuOrder: 4 },
    }, { as: 'editor' });
    expect(created.errors).toBeUndefined();
    const page = created.data.createPage;
    expect(page).toMatchObject({
      authorDatabaseId: site.users.editor.id, parentDatabaseId: 0, menuOrder: 4, status: 'PRIVATE', commentStatus: 'OPEN', pingStatus: 'CLOSED',
      title: { raw: 'About', rendered: 'About' }, content: { raw: 'About us', rendered: '<p>About us</p>\n' },
    });
    const rest = await site.req('GET', `/core/v2/pages/${page.databaseId}?context=edit`, { as: 'editor' });
    expect(rest.status).toBe(200);
    expect(rest.body).toMatchObject({ id: page.databaseId, status: 'private', comment_status: 'open', ping_status: 'closed', menu_order: 4 });
  });

  it('gives pages closed discussion by default, as enum names', async () => {
    const res = await site.gql('mutation { createPage(input: { title: "Quiet" }) { databaseId status commentStatus pingStatus } }', {}, { as: 'editor' });
    expect(res.data.createPage).toMatchObject({ status: 'DRAFT', commentStatus: 'CLOSED', pingStatus: 'CLOSED' });
    const rest = await site.req('GET', `/core/v2/pages/${res.data.createPage.databaseId}?context=edit`, { as: 'editor' });
    expect([rest.body.status, rest.body.comment_status, rest.body.ping_status]).toEqual(['draft', 'closed', 'closed']);
  });

  it('updates with enum values and a parent, trashes, then deletes for good', async () => {
    const parent = await site.createPage({ title: 'Company', status: 'publish' }, 'editor');
    const { id } = await site.createPage({ title: 'Team', status: 'draft' }, 'editor');
    const updated = await site.gql('mutation($id: Int!, $p: Int) { updatePage(id: $id, input: { status: PUBLISH, parent: $p, commentStatus: OPEN, menuOrder: 2 }) { databaseId status parentDatabaseId menuOrder commentStatus link } }', { id, p: parent.id }, { as: 'editor' });
    expect(updated.errors).toBeUndefined();
    expect(updated.data.updatePage).toEqual({ databaseId: id, status: 'PUBLISH', parentDatabaseId: parent.id, menuOrder: 2, commentStatus: 'OPEN', link: 'http://site.test/company/team/' });
    const rest = await site.req('GET', `/core/v2/pages/${id}`);
    expect([rest.body.status, rest.body.parent, rest.body.comment_status, rest.body.link]).toEqual(['publish', parent.id, 'open', 'http://site.test/company/team/']);

    const trashed = await site.gql('mutation($id: Int!) { trashPage(id: $id) { databaseId status } }', { id }, { as: 'editor' });
    expect(trashed.data.trashPage).toEqual({ databaseId: id, status: 'TRASH' });
    expect((await site.req('GET', `/core/v2/pages/${id}?context=edit`, { as: 'editor' })).body.status).toBe('trash');
    expectGqlError(await site.gql('mutation($id: Int!) { trashPage(id: $id) { databaseId } }', { id }, { as: 'editor' }), 410, 'rest_already_trashed');

    const deleted = await site.gql('mutation($id: Int!) { deletePage(id: $id) { deleted previous { databaseId status title { raw } } } }', { id }, { as: 'editor' });
    expect(deleted.data.deletePage).toEqual({ deleted: true, previous: { databaseId: id, status: 'TRASH', title: { raw: 'Team' } } });
    expectGqlError(await site.gql('query($id: Int!) { page(id: $id) { databaseId } }', { id }, { as: 'administrator' }), 404, 'rest_post_invalid_id');
  });

  it('refuses writes with the WordPress code and 401 or 403 (authors lack edit_pages)', async () => {
    const { id } = await site.createPage({ title: 'Editorial', status: 'publish' }, 'editor');
    expectGqlError(await site.gql('mutation { createPage(input: { title: "x" }) { databaseId } }'), 401, 'rest_cannot_create');
    expectGqlError(await site.gql('mutation { createPage(input: { title: "x" }) { databaseId } }', {}, { as: 'author' }), 403, 'rest_cannot_create');
    const update = 'mutation($id: Int!) { updatePage(id: $id, input: { title: "Mine" }) { databaseId } }';
    expectGqlError(await site.gql(update, { id }), 401, 'rest_cannot_edit');
    expectGqlError(await site.gql(update, { id }, { as: 'author' }), 403, 'rest_cannot_edit');
    expectGqlError(await site.gql('mutation($id: Int!) { trashPage(id: $id) { databaseId } }', { id }, { as: 'author' }), 403, 'rest_cannot_delete');
    expectGqlError(await site.gql('mutation($id: Int!) { deletePage(id: $id) { deleted } }', { id }), 401, 'rest_cannot_delete');
    expectGqlError(await site.gql('mutation($id: Int!) { deletePage(id: $id) { deleted } }', { id }, { as: 'contributor' }), 403, 'rest_cannot_delete');
    expectGqlError(await site.gql('mutation { updatePage(id: 99999, input: { title: "x" }) { databaseId } }', {}, { as: 'editor' }), 404, 'rest_post_invalid_id');
    expectGqlError(await site.gql('{ page(id: 99999) { databaseId } }'), 404, 'rest_post_invalid_id');
    expect((await site.req('GET', `/core/v2/pages/${id}`)).body.title.rendered).toBe('Editorial');
  });

  it('rejects values outside the enums before anything runs', async () => {
    expectRejected(await site.gql('mutation { createPage(input: { title: "x", status: publish }) { databaseId } }', {}, { as: 'editor' }), /ContentWriteStatus/);
    expectRejected(await site.gql('{ pages(orderby: menu_order) { total } }'), /menu_order.*PageOrderBy/);
    expectRejected(await site.gql('query($s: [ContentStatusFilter!]) { pages(filter: { status: $s }) { total } }', { s: ['draft'] }, { as: 'editor' }), /"draft".*ContentStatusFilter/);
    expectRejected(await site.gql('mutation($i: PageInput!) { createPage(input: $i) { databaseId } }', { i: { title: 'x', pingStatus: 'OPENED' } }, { as: 'editor' }), /"OPENED".*DiscussionStatus/);
  });
});

describe('pages: lists with filters, enum ordering and paging', () => {
  const titles = (res: { data?: any }) => res.data.pages.nodes.map((n: { title: { rendered: string } }) => n.title.rendered);
  let parent: number;
  let children: number[];
  let draft: number;

  beforeAll(async () => {
    parent = (await site.createPage({ title: 'Handbook', status: 'publish', menu_order: 50 }, 'editor')).id;
    children = [];
    // Menu order runs against the title order, so the two orders differ.
    for (const [i, title] of ['Chapter A', 'Chapter B', 'Chapter C', 'Chapter D'].entries()) {
      children.push((await site.createPage({ title, status: 'publish', parent, menu_order: 40 - i * 10, content: `${title} text` }, 'editor')).id);
    }
    draft = (await site.createPage({ title: 'Chapter E draft', status: 'draft', parent, content: 'Unpublished chapter' }, 'editor')).id;
  });

  it('orders by MENU_ORDER, pages with total and totalPages as REST does', async () => {
    const q = 'query($p: [Int!], $page: Int) { pages(filter: { parent: $p }, orderby: MENU_ORDER, order: ASC, perPage: 3, page: $page) { total totalPages nodes { databaseId menuOrder title { rendered } } } }';
    const page1 = await site.gql(q, { p: [parent], page: 1 });
    expect(page1.errors).toBeUndefined();
    expect(page1.data.pages.total).toBe(4);
    expect(page1.data.pages.totalPages).toBe(2);
    expect(titles(page1)).toEqual(['Chapter D', 'Chapter C', 'Chapter B']);
    expect(titles(await site.gql(q, { p: [parent], page: 2 }))).toEqual(['Chapter A']);
    const rest = await site.req('GET', `/core/v2/pages?parent=${parent}&orderby=menu_order&order=asc&per_page=3`);
    expect(rest.body.map((p: { id: number }) => p.id)).toEqual(page1.data.pages.nodes.map((n: { databaseId: number }) => n.databaseId));
    expect([rest.headers.get('x-wp-total'), rest.headers.get('x-wp-totalpages')]).toEqual(['4', '2']);
  });

  it('orders by TITLE descending with an offset, and by date by default', async () => {
    const byTitle = await site.gql('query($p: [Int!]) { pages(filter: { parent: $p }, orderby: TITLE, order: DESC, offset: 1, perPage: 2) { total nodes { title { rendered } } } }', { p: [parent] });
    expect(titles(byTitle)).toEqual(['Chapter C', 'Chapter B']);
    expect(byTitle.data.pages.total).toBe(4);
    const byDate = await site.gql('query($p: [Int!]) { pages(filter: { parent: $p }) { nodes { databaseId } } }', { p: [parent] });
    expect(byDate.data.pages.nodes.map((n: { databaseId: number }) => n.databaseId)).toEqual([...children].reverse());
  });

  it('filters by parentExclude, menuOrder, search, slug and status', async () => {
    const top = await site.gql('query($p: [Int!]) { pages(filter: { parentExclude: $p }, perPage: 100) { nodes { databaseId parentDatabaseId } } }', { p: [parent] });
    expect(top.data.pages.nodes.map((n: { parentDatabaseId: number }) => n.parentDatabaseId)).not.toContain(parent);
    expect(top.data.pages.nodes.map((n: { databaseId: number }) => n.databaseId)).toContain(parent);
    expect(titles(await site.gql('{ pages(filter: { menuOrder: 20 }) { nodes { title { rendered } } } }'))).toEqual(['Chapter C']);
    expect(titles(await site.gql('{ pages(filter: { search: "handbook" }) { nodes { title { rendered } } } }'))).toEqual(['Handbook']);
    expect(titles(await site.gql('{ pages(filter: { slug: ["chapter-b"] }) { nodes { title { rendered } } } }'))).toEqual(['Chapter B']);
    const drafts = await site.gql('query($p: [Int!]) { pages(filter: { parent: $p, status: [DRAFT] }) { total nodes { databaseId status } } }', { p: [parent] }, { as: 'editor' });
    expect(drafts.data.pages).toEqual({ total: 1, nodes: [{ databaseId: draft, status: 'DRAFT' }] });
    const any = await site.gql('query($p: [Int!]) { pages(filter: { parent: $p, status: [ANY] }) { total } }', { p: [parent] }, { as: 'editor' });
    expect(any.data.pages.total).toBe(5);
  });

  it('refuses a DRAFT filter without edit_pages: rest_invalid_param with rest_forbidden_status inside', async () => {
    for (const [as, status] of [['author', 403], ['subscriber', 403], [undefined, 401]] as const) {
      const res = await site.gql('{ pages(filter: { status: [DRAFT] }) { total } }', {}, { as });
      expectGqlError(res, 400, 'rest_invalid_param');
      expect(res.errors?.[0].extensions?.data, String(as)).toMatchObject({ details: { status: { code: 'rest_forbidden_status', data: { status } } } });
    }
  });

  it('leaves raw values null for callers without edit_pages, even an author, and gives them to an editor', async () => {
    const q = 'query($id: Int!) { page(id: $id) { password title { raw rendered } content { raw rendered } } }';
    for (const as of [undefined, 'subscriber', 'author'] as const) {
      const res = await site.gql(q, { id: children[0] }, { as });
      expect(res.data.page, String(as)).toEqual({ password: null, title: { raw: null, rendered: 'Chapter A' }, content: { raw: null, rendered: '<p>Chapter A text</p>\n' } });
    }
    const editor = await site.gql(q, { id: children[0] }, { as: 'editor' });
    expect(editor.data.page).toEqual({ password: '', title: { raw: 'Chapter A', rendered: 'Chapter A' }, content: { raw: 'Chapter A text', rendered: '<p>Chapter A text</p>\n' } });
  });

  it('refuses a draft page to those who may not read it, with 401 or 403 rest_forbidden', async () => {
    const q = 'query($id: Int!) { page(id: $id) { databaseId } }';
    expectGqlError(await site.gql(q, { id: draft }), 401, 'rest_forbidden');
    expectGqlError(await site.gql(q, { id: draft }, { as: 'author' }), 403, 'rest_forbidden');
    expect((await site.gql('query($id: Int!) { page(id: $id) { status content { raw } } }', { id: draft }, { as: 'editor' })).data.page).toEqual({ status: 'DRAFT', content: { raw: 'Unpublished chapter' } });
  });
});
