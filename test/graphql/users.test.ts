// Users and application passwords over /graphql follow the REST rules: private fields stay null
// for callers who may not see them, the same codes come back, and the secret is shown once.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestSite, type TestSite } from '../helpers/app.js';
import { expectGqlError, expectRejected } from '../helpers/gql.js';

let site: TestSite;
beforeAll(async () => {
  site = await createTestSite();
  await site.createPost({ title: 'Public', status: 'publish' }, 'author');
});
afterAll(async () => { await site?.close(); });

describe('users over GraphQL', () => {
  it('hides private fields from callers who may not see them', async () => {
    const anon = await site.gql('{ users { total nodes { databaseId name email username roles capabilities } } }');
    expect(anon.errors).toBeUndefined();
    expect(anon.data.users.total).toBe(1);
    expect(anon.data.users.nodes[0]).toEqual({ databaseId: site.users.author.id, name: 'author1', email: null, username: null, roles: null, capabilities: null });
    const admin = await site.gql('{ users(perPage: 100) { total nodes { email } } }', {}, { as: 'administrator' });
    expect(admin.data.users.total).toBe(5);
    expect(admin.data.users.nodes.every((n: { email: string | null }) => n.email)).toBe(true);
    const self = await site.gql('{ user { databaseId email roles } }', {}, { as: 'subscriber' });
    expect(self.data.user).toEqual({ databaseId: site.users.subscriber.id, email: 'subscriber1@example.test', roles: ['subscriber'] });
  });

  it('carries the REST codes', async () => {
    const anon = await site.gql('{ user { databaseId } }');
    expect(anon.errors?.[0].extensions).toMatchObject({ code: 'rest_not_logged_in', status: 401 });
    const hidden = await site.gql('query($id: Int) { user(id: $id) { databaseId } }', { id: site.users.editor.id }, { as: 'subscriber' });
    expect(hidden.errors?.[0].extensions).toMatchObject({ code: 'rest_user_cannot_view', status: 403 });
  });

  it('issues an application password once and lists it without the secret', async () => {
    const made = await site.gql('mutation { createApplicationPassword(input: { name: "GraphQL app" }) { uuid name password } }', {}, { as: 'contributor' });
    expect(made.errors).toBeUndefined();
    expect(made.data.createApplicationPassword.password).toMatch(/^([A-Za-z0-9]{4} ){5}[A-Za-z0-9]{4}$/);
    const list = await site.gql('{ applicationPasswords { name password } }', {}, { as: 'contributor' });
    expect(list.data.applicationPasswords).toEqual([{ name: 'tests', password: null }, { name: 'GraphQL app', password: null }]);
    const other = await site.gql('query($u: Int) { applicationPasswords(userId: $u) { name } }', { u: site.users.contributor.id }, { as: 'editor' });
    expect(other.errors?.[0].extensions).toMatchObject({ code: 'rest_cannot_list_application_passwords', status: 403 });
  });
});

// Users carry no enum fields; their list takes Order, UserOrderBy and UserWho values.
const PRIVATE = 'email username roles capabilities firstName lastName nickname locale registeredDate';

describe('users: writes with typed inputs', () => {
  it('creates a user, and REST shows the same record', async () => {
    const created = await site.gql('mutation($i: UserInput!) { createUser(input: $i) { databaseId name slug url description email username roles firstName lastName nickname locale } }', {
      i: { username: 'newbie', email: 'newbie@example.test', password: 'newbie-password', name: 'New Bie', firstName: 'New', lastName: 'Bie', roles: ['editor'], url: 'https://newbie.example', description: 'Hello' },
    }, { as: 'administrator' });
    expect(created.errors).toBeUndefined();
    const user = created.data.createUser;
    expect(user).toMatchObject({
      name: 'New Bie', slug: 'newbie', url: 'https://newbie.example', description: 'Hello', email: 'newbie@example.test', username: 'newbie',
      roles: ['editor'], firstName: 'New', lastName: 'Bie', nickname: 'newbie', locale: 'en_US',
    });
    const rest = await site.req('GET', `/core/v2/users/${user.databaseId}?context=edit`, { as: 'administrator' });
    expect(rest.body).toMatchObject({ id: user.databaseId, username: 'newbie', email: 'newbie@example.test', roles: ['editor'], first_name: 'New', last_name: 'Bie', name: 'New Bie' });
    expect(rest.body.capabilities.edit_others_posts).toBe(true);
  });

  it('updates another user as an administrator and oneself as a subscriber', async () => {
    const { id } = await site.createUser({ username: 'changing', roles: ['contributor'] });
    const updated = await site.gql('mutation($id: Int) { updateUser(id: $id, input: { name: "Changed", roles: ["author"], description: "Now an author" }) { databaseId name roles description } }', { id }, { as: 'administrator' });
    expect(updated.data.updateUser).toEqual({ databaseId: id, name: 'Changed', roles: ['author'], description: 'Now an author' });
    expect((await site.req('GET', `/core/v2/users/${id}?context=edit`, { as: 'administrator' })).body).toMatchObject({ name: 'Changed', roles: ['author'] });
    const self = await site.gql('mutation { updateUser(input: { firstName: "Sub", lastName: "Scriber" }) { databaseId firstName lastName } }', {}, { as: 'subscriber' });
    expect(self.data.updateUser).toEqual({ databaseId: site.users.subscriber.id, firstName: 'Sub', lastName: 'Scriber' });
    expect((await site.req('GET', '/core/v2/users/me?context=edit', { as: 'subscriber' })).body).toMatchObject({ first_name: 'Sub', last_name: 'Scriber' });
    expectGqlError(await site.gql('mutation { updateUser(input: { roles: ["administrator"] }) { databaseId } }', {}, { as: 'subscriber' }), 403, 'rest_cannot_edit_roles');
    expect((await site.gql('{ user { roles } }', {}, { as: 'subscriber' })).data.user.roles).toEqual(['subscriber']);
  });

  it('deletes a user for good, their content going to reassign', async () => {
    const leaver = await site.createUser({ username: 'leaver', roles: ['author'] });
    const post = await site.createPost({ title: 'Left behind', status: 'publish', author: leaver.id });
    expectGqlError(await site.gql('mutation($id: Int) { deleteUser(id: $id, reassign: 1) { deleted } }', { id: leaver.id }, { as: 'administrator' }), 501, 'rest_trash_not_supported');
    const deleted = await site.gql('mutation($id: Int, $to: Int) { deleteUser(id: $id, force: true, reassign: $to) { deleted previous { databaseId username } } }', { id: leaver.id, to: site.users.editor.id }, { as: 'administrator' });
    expect(deleted.data.deleteUser).toEqual({ deleted: true, previous: { databaseId: leaver.id, username: 'leaver' } });
    expectGqlError(await site.gql('query($id: Int) { user(id: $id) { databaseId } }', { id: leaver.id }, { as: 'administrator' }), 404, 'rest_user_invalid_id');
    expect((await site.req('GET', `/core/v2/posts/${post.id}`)).body.author).toBe(site.users.editor.id);
  });

  it('refuses writes with the WordPress code and 401 or 403', async () => {
    const create = 'mutation { createUser(input: { username: "intruder", email: "intruder@example.test", password: "p" }) { databaseId } }';
    expectGqlError(await site.gql(create), 401, 'rest_cannot_create_user');
    expectGqlError(await site.gql(create, {}, { as: 'editor' }), 403, 'rest_cannot_create_user');
    const update = 'mutation($id: Int) { updateUser(id: $id, input: { name: "Renamed" }) { databaseId } }';
    expectGqlError(await site.gql(update, { id: site.users.author.id }), 401, 'rest_cannot_edit');
    expectGqlError(await site.gql(update, { id: site.users.author.id }, { as: 'editor' }), 403, 'rest_cannot_edit');
    const remove = 'mutation($id: Int) { deleteUser(id: $id, force: true, reassign: 1) { deleted } }';
    expectGqlError(await site.gql(remove, { id: site.users.author.id }), 401, 'rest_user_cannot_delete');
    expectGqlError(await site.gql(remove, { id: site.users.author.id }, { as: 'editor' }), 403, 'rest_user_cannot_delete');
    expectGqlError(await site.gql(update, { id: 99999 }, { as: 'administrator' }), 404, 'rest_user_invalid_id');
    expectGqlError(await site.gql(remove, { id: 99999 }, { as: 'administrator' }), 404, 'rest_user_invalid_id');
    expectGqlError(await site.gql('{ user(id: 99999) { databaseId } }', {}, { as: 'administrator' }), 404, 'rest_user_invalid_id');
    // Nothing changed.
    expect((await site.req('GET', `/core/v2/users/${site.users.author.id}`)).body.name).toBe('author1');
    expect((await site.req('GET', '/core/v2/users?search=intruder', { as: 'administrator' })).body).toEqual([]);
  });
});

describe('users: lists with filters, enum ordering and paging', () => {
  const roleIds = () => [site.users.administrator.id, site.users.editor.id, site.users.author.id, site.users.contributor.id, site.users.subscriber.id];

  it('orders by ID and pages with total and totalPages as REST does', async () => {
    const q = 'query($i: [Int!], $page: Int) { users(filter: { include: $i }, orderby: ID, order: DESC, perPage: 2, page: $page) { total totalPages nodes { databaseId } } }';
    const page2 = await site.gql(q, { i: roleIds(), page: 2 }, { as: 'administrator' });
    expect(page2.errors).toBeUndefined();
    expect(page2.data.users.total).toBe(5);
    expect(page2.data.users.totalPages).toBe(3);
    const descending = [...roleIds()].sort((a, b) => b - a);
    expect(page2.data.users.nodes.map((n: { databaseId: number }) => n.databaseId)).toEqual(descending.slice(2, 4));
    const rest = await site.req('GET', `/core/v2/users?include=${roleIds().join(',')}&orderby=id&order=desc&per_page=2&page=2`, { as: 'administrator' });
    expect(rest.body.map((u: { id: number }) => u.id)).toEqual(descending.slice(2, 4));
    expect([rest.headers.get('x-wp-total'), rest.headers.get('x-wp-totalpages')]).toEqual(['5', '3']);
  });

  it('orders by EMAIL for an administrator and filters by roles, capabilities, search, slug and who', async () => {
    const byEmail = await site.gql('query($i: [Int!]) { users(filter: { include: $i }, orderby: EMAIL, order: DESC, offset: 1, perPage: 2) { total nodes { email } } }', { i: roleIds() }, { as: 'administrator' });
    expect(byEmail.data.users).toEqual({ total: 5, nodes: [{ email: 'editor1@example.test' }, { email: 'contributor1@example.test' }] });
    const roles = await site.gql('query($i: [Int!]) { users(filter: { include: $i, roles: ["editor", "contributor"] }, orderby: SLUG) { nodes { slug } } }', { i: roleIds() }, { as: 'administrator' });
    expect(roles.data.users.nodes).toEqual([{ slug: 'contributor1' }, { slug: 'editor1' }]);
    const caps = await site.gql('query($i: [Int!]) { users(filter: { include: $i, capabilities: ["edit_others_posts"] }) { nodes { databaseId } } }', { i: roleIds() }, { as: 'administrator' });
    expect(caps.data.users.nodes.map((n: { databaseId: number }) => n.databaseId).sort()).toEqual([site.users.administrator.id, site.users.editor.id].sort());
    const search = await site.gql('{ users(filter: { search: "contributor" }) { nodes { databaseId } } }', {}, { as: 'administrator' });
    expect(search.data.users.nodes).toEqual([{ databaseId: site.users.contributor.id }]);
    const slug = await site.gql('{ users(filter: { slug: ["subscriber1", "author1"] }, orderby: INCLUDE_SLUGS) { nodes { databaseId } } }', {}, { as: 'administrator' });
    expect(slug.data.users.nodes).toEqual([{ databaseId: site.users.subscriber.id }, { databaseId: site.users.author.id }]);
    const authors = await site.gql('query($i: [Int!]) { users(filter: { include: $i, who: AUTHORS }, orderby: ID) { nodes { databaseId } } }', { i: roleIds() }, { as: 'author' });
    expect(authors.data.users.nodes.map((n: { databaseId: number }) => n.databaseId)).toEqual(roleIds().filter((id) => id !== site.users.subscriber.id).sort((a, b) => a - b));
  });

  it('shows private fields of another user to an administrator only (null for anonymous, subscriber and editor)', async () => {
    const q = `query($id: Int) { user(id: $id) { databaseId name slug ${PRIVATE} } }`;
    const hidden = { databaseId: site.users.author.id, name: 'author1', slug: 'author1', email: null, username: null, roles: null, capabilities: null, firstName: null, lastName: null, nickname: null, locale: null, registeredDate: null };
    for (const as of [undefined, 'subscriber', 'editor'] as const) {
      const res = await site.gql(q, { id: site.users.author.id }, { as });
      expect(res.errors, String(as)).toBeUndefined();
      expect(res.data.user, String(as)).toEqual(hidden);
    }
    const admin = await site.gql(q, { id: site.users.author.id }, { as: 'administrator' });
    expect(admin.data.user).toMatchObject({ email: 'author1@example.test', username: 'author1', roles: ['author'], nickname: 'author1', locale: 'en_US' });
    expect(admin.data.user.capabilities).toMatchObject({ author: true, publish_posts: true });
    expect(admin.data.user.registeredDate).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\+00:00$/);
    const list = await site.gql('query($i: [Int!]) { users(filter: { include: $i }) { nodes { databaseId email username } } }', { i: [site.users.author.id] }, { as: 'subscriber' });
    expect(list.data.users.nodes).toEqual([{ databaseId: site.users.author.id, email: null, username: null }]);
  });

  it('refuses filters and orders that need list_users or edit rights, with 401 or 403', async () => {
    expectGqlError(await site.gql('{ users(filter: { roles: ["author"] }) { total } }'), 401, 'rest_user_cannot_view');
    expectGqlError(await site.gql('{ users(filter: { roles: ["author"] }) { total } }', {}, { as: 'author' }), 403, 'rest_user_cannot_view');
    expectGqlError(await site.gql('{ users(filter: { capabilities: ["read"] }) { total } }', {}, { as: 'editor' }), 403, 'rest_user_cannot_view');
    expectGqlError(await site.gql('{ users(orderby: EMAIL) { total } }', {}, { as: 'editor' }), 403, 'rest_forbidden_orderby');
    expectGqlError(await site.gql('{ users(orderby: REGISTERED_DATE) { total } }', {}, { as: 'author' }), 403, 'rest_forbidden_orderby');
    expectGqlError(await site.gql('{ users(filter: { who: AUTHORS }) { total } }'), 401, 'rest_forbidden_who');
    expectGqlError(await site.gql('{ users(filter: { who: AUTHORS }) { total } }', {}, { as: 'subscriber' }), 403, 'rest_forbidden_who');
  });

  it('rejects values outside the enums before anything runs', async () => {
    expectRejected(await site.gql('{ users(orderby: email) { total } }', {}, { as: 'administrator' }), /email.*UserOrderBy/);
    expectRejected(await site.gql('{ users(filter: { who: authors }) { total } }', {}, { as: 'administrator' }), /authors.*UserWho/);
    expectRejected(await site.gql('query($o: UserOrderBy) { users(orderby: $o) { total } }', { o: 'registered_date' }, { as: 'administrator' }), /"registered_date".*UserOrderBy/);
  });
});
