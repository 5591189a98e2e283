import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestSite, API, SITE, type TestSite } from '../helpers/app.js';

let site: TestSite;
let postByAuthor: number;
beforeAll(async () => {
  site = await createTestSite();
  const res = await site.req('POST', '/core/v2/posts', { as: 'author', json: { title: 'By the author', status: 'publish' } });
  postByAuthor = res.body.id;
});
afterAll(async () => { await site?.close(); });

const VIEW_KEYS = ['id', 'name', 'url', 'description', 'link', 'slug', 'avatar_urls', 'meta', '_links'];
const EDIT_KEYS = ['id', 'username', 'name', 'first_name', 'last_name', 'email', 'url', 'description', 'link', 'locale', 'nickname', 'slug', 'roles', 'registered_date', 'capabilities', 'extra_capabilities', 'avatar_urls', 'meta', '_links'];

describe('UsersList', () => {
  it('shows anonymous callers only authors of published content, with view fields', async () => {
    const res = await site.req('GET', '/core/v2/users');
    expect(res.status).toBe(200);
    expect(res.body.map((u: any) => u.id)).toEqual([site.users.author.id]);
    const u = res.body[0];
    expect(Object.keys(u)).toEqual(VIEW_KEYS);
    expect(u.link).toBe(`${SITE}/author/author1/`);
    expect(Object.keys(u.avatar_urls)).toEqual(['24', '48', '96']);
    expect(u.avatar_urls['96']).toMatch(/^https:\/\/secure\.gravatar\.com\/avatar\/[0-9a-f]{64}\?s=96&d=mm&r=g$/);
    expect(u.meta).toEqual([]);
    expect(u._links.self[0].href).toBe(`${API}/core/v2/users/${site.users.author.id}`);
    expect(res.headers.get('x-wp-total')).toBe('1');
  });

  it('lists everyone to administrators, by name, with paging headers', async () => {
    const res = await site.req('GET', '/core/v2/users?per_page=2', { as: 'administrator' });
    expect(res.status).toBe(200);
    expect(res.headers.get('x-wp-total')).toBe('5');
    expect(res.headers.get('x-wp-totalpages')).toBe('3');
    expect(res.body.map((u: any) => u.name)).toEqual(['admin', 'author1']);
    expect(res.headers.get('link')).toContain('rel="next"');
  });

  it('narrows logged-in non-administrators to published authors too', async () => {
    const res = await site.req('GET', '/core/v2/users', { as: 'editor' });
    expect(res.body.map((u: any) => u.id)).toEqual([site.users.author.id]);
  });

  it('filters by roles, capabilities, who, include, slug, search, orderby include', async () => {
    const ids = async (q: string) => (await site.req('GET', `/core/v2/users?${q}`, { as: 'administrator' })).body.map((u: any) => u.id);
    expect(await ids('roles=editor,author')).toEqual([site.users.author.id, site.users.editor.id]);
    expect(await ids('capabilities=publish_posts&orderby=id')).toEqual([site.users.administrator.id, site.users.editor.id, site.users.author.id]);
    expect(await ids('who=authors&orderby=id')).toHaveLength(4);
    expect(await ids(`include=${site.users.subscriber.id},${site.users.editor.id}&orderby=include`)).toEqual([site.users.subscriber.id, site.users.editor.id]);
    expect(await ids('slug=contributor1')).toEqual([site.users.contributor.id]);
    expect(await ids('search=scrib')).toEqual([site.users.subscriber.id]);
    expect(await ids('has_published_posts=true')).toEqual([site.users.author.id]);
  });

  it('applies WordPress permission rules to list parameters (401 anonymous, 403 logged in)', async () => {
    expect(await site.req('GET', '/core/v2/users?roles=editor')).toBeWpError(401, 'rest_user_cannot_view');
    expect(await site.req('GET', '/core/v2/users?roles=editor', { as: 'editor' })).toBeWpError(403, 'rest_user_cannot_view');
    expect(await site.req('GET', '/core/v2/users?capabilities=read', { as: 'author' })).toBeWpError(403, 'rest_user_cannot_view');
    expect(await site.req('GET', '/core/v2/users?context=edit')).toBeWpError(401, 'rest_forbidden_context');
    expect(await site.req('GET', '/core/v2/users?context=edit', { as: 'editor' })).toBeWpError(403, 'rest_forbidden_context');
    expect(await site.req('GET', '/core/v2/users?orderby=email', { as: 'editor' })).toBeWpError(403, 'rest_forbidden_orderby');
    expect(await site.req('GET', '/core/v2/users?who=authors', { as: 'subscriber' })).toBeWpError(403, 'rest_forbidden_who');
    const authors = await site.req('GET', '/core/v2/users?who=authors', { as: 'contributor' });
    expect(authors.status).toBe(200);
    // who=authors is not narrowed to published authors (WordPress: has_published_posts only otherwise).
    expect(authors.body).toHaveLength(4);
    const edit = await site.req('GET', '/core/v2/users?context=edit', { as: 'administrator' });
    expect(edit.status).toBe(200);
    expect(Object.keys(edit.body[0])).toEqual(EDIT_KEYS);
  });
});

describe('UserGet and users/me', () => {
  it('reads a published author anonymously, refuses others with rest_user_cannot_view', async () => {
    expect((await site.req('GET', `/core/v2/users/${site.users.author.id}`)).status).toBe(200);
    expect(await site.req('GET', `/core/v2/users/${site.users.editor.id}`)).toBeWpError(401, 'rest_user_cannot_view');
    expect(await site.req('GET', `/core/v2/users/${site.users.editor.id}`, { as: 'subscriber' })).toBeWpError(403, 'rest_user_cannot_view');
    expect(await site.req('GET', '/core/v2/users/99999')).toBeWpError(404, 'rest_user_invalid_id');
    expect(await site.req('GET', `/core/v2/users/${site.users.author.id}?context=edit`, { as: 'editor' })).toBeWpError(403, 'rest_user_cannot_view');
  });

  it('shows the caller themself in edit context, capabilities and roles included', async () => {
    const res = await site.req('GET', '/core/v2/users/me?context=edit', { as: 'subscriber' });
    expect(res.status).toBe(200);
    expect(Object.keys(res.body)).toEqual(EDIT_KEYS);
    expect(res.body).toMatchObject({ id: site.users.subscriber.id, username: 'subscriber1', email: 'subscriber1@example.test', roles: ['subscriber'], locale: 'en_US', extra_capabilities: { subscriber: true } });
    expect(res.body.capabilities).toMatchObject({ read: true, level_0: true, subscriber: true });
    expect(res.body.registered_date).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\+00:00$/);
    expect(await site.req('GET', '/core/v2/users/me')).toBeWpError(401, 'rest_not_logged_in');
  });

  it('embed context has the embed fields only', async () => {
    const res = await site.req('GET', `/core/v2/users/${site.users.author.id}?context=embed`);
    expect(Object.keys(res.body)).toEqual(['id', 'name', 'url', 'description', 'link', 'slug', 'avatar_urls', '_links']);
  });

  it('advertises allow_batch on the users routes', async () => {
    const index = await site.req('GET', '/core/v2');
    expect(index.body.routes['/core/v2/users'].endpoints[0].allow_batch).toEqual({ v1: true });
    expect(index.body.routes['/core/v2/users/(?P<id>[\\d]+)'].endpoints.every((e: any) => e.allow_batch?.v1)).toBe(true);
    expect(index.body.routes['/core/v2/users/(?P<id>[\\d]+)'].endpoints[2].args.reassign.required).toBe(true);
  });
});

describe('UserCreate, UserUpdate', () => {
  it('creates a user (201, Location, edit context) and refuses duplicates', async () => {
    const res = await site.req('POST', '/core/v2/users', { as: 'administrator', json: { username: 'newbie', email: 'newbie@example.test', password: 'pw-123456', roles: ['author'], name: 'New Bie' } });
    expect(res.status).toBe(201);
    expect(res.headers.get('location')).toBe(`${API}/core/v2/users/${res.body.id}`);
    expect(res.body).toMatchObject({ username: 'newbie', name: 'New Bie', roles: ['author'], slug: 'newbie' });
    expect(res.body.password).toBeUndefined();
    expect(await site.req('POST', '/core/v2/users', { as: 'administrator', json: { username: 'newbie', email: 'x@example.test', password: 'p' } })).toBeWpError(400, 'existing_user_login');
    expect(await site.req('POST', '/core/v2/users', { as: 'administrator', json: { username: 'other', email: 'newbie@example.test', password: 'p' } })).toBeWpError(400, 'existing_user_email');
    expect(await site.req('POST', '/core/v2/users', { as: 'administrator', json: { username: 'x', email: 'x@example.test' } })).toBeWpError(400, 'rest_missing_callback_param');
    expect(await site.req('POST', '/core/v2/users', { as: 'administrator', json: { username: 'x', email: 'x@example.test', password: 'p', roles: ['king'] } })).toBeWpError(400, 'rest_user_invalid_role');
    const badName = await site.req('POST', '/core/v2/users', { as: 'administrator', json: { username: 'bad<name>', email: 'y@example.test', password: 'p' } });
    expect(badName).toBeWpError(400, 'rest_invalid_param');
    expect(badName.body.data.details.username.code).toBe('rest_user_invalid_username');
  });

  it('refuses a malformed e-mail outside REST validation too (command line, GraphQL)', async () => {
    const { createUser } = await import('../../src/site/operator.js');
    await expect(createUser(site.db, { login: 'bademail', email: 'not-an-email' })).rejects.toMatchObject({ extensions: { code: 'rest_invalid_param', status: 400 } });
    expect(await site.db.prisma.user.findUnique({ where: { login: 'bademail' } })).toBeNull();
  });

  it('stores first name, last name and nickname', async () => {
    const created = await site.req('POST', '/core/v2/users', { as: 'administrator', json: { username: 'named1', email: 'named1@example.test', password: 'pw-named-1', first_name: 'Ada', last_name: 'Lovelace' } });
    expect(created.status).toBe(201);
    expect([created.body.first_name, created.body.last_name, created.body.nickname]).toEqual(['Ada', 'Lovelace', 'named1']);
    const updated = await site.req('POST', `/core/v2/users/${created.body.id}`, { as: 'administrator', json: { nickname: 'Countess', last_name: 'King' } });
    expect([updated.body.first_name, updated.body.last_name, updated.body.nickname]).toEqual(['Ada', 'King', 'Countess']);
  });

  it('needs create_users (401/403 rest_cannot_create_user)', async () => {
    const json = { username: 'nope', email: 'nope@example.test', password: 'p' };
    expect(await site.req('POST', '/core/v2/users', { json })).toBeWpError(401, 'rest_cannot_create_user');
    expect(await site.req('POST', '/core/v2/users', { as: 'editor', json })).toBeWpError(403, 'rest_cannot_create_user');
  });

  it('lets users edit themselves but not others, and not their own role', async () => {
    const self = await site.req('POST', '/core/v2/users/me', { as: 'contributor', json: { name: 'Contrib', description: 'Hi' } });
    expect(self.status).toBe(200);
    expect(self.body).toMatchObject({ name: 'Contrib', description: 'Hi' });
    expect(await site.req('PATCH', `/core/v2/users/${site.users.author.id}`, { as: 'editor', json: { name: 'x' } })).toBeWpError(403, 'rest_cannot_edit');
    expect(await site.req('PATCH', `/core/v2/users/${site.users.author.id}`, { json: { name: 'x' } })).toBeWpError(401, 'rest_cannot_edit');
    expect(await site.req('POST', '/core/v2/users/me', { as: 'contributor', json: { roles: ['administrator'] } })).toBeWpError(403, 'rest_cannot_edit_roles');
    expect(await site.req('POST', '/core/v2/users/me', { as: 'administrator', json: { roles: ['editor'] } })).toBeWpError(403, 'rest_user_invalid_role');
    expect(await site.req('POST', '/core/v2/users/me', { as: 'contributor', json: { username: 'renamed' } })).toBeWpError(400, 'rest_user_invalid_argument');
    expect(await site.req('POST', '/core/v2/users/me', { as: 'contributor', json: { email: 'editor1@example.test' } })).toBeWpError(400, 'rest_user_invalid_email');
    const promoted = await site.req('PUT', `/core/v2/users/${site.users.subscriber.id}`, { as: 'administrator', json: { roles: ['subscriber'] } });
    expect(promoted.status).toBe(200);
  });
});

describe('UserDelete', () => {
  const newUser = async (login: string) =>
    (await site.req('POST', '/core/v2/users', { as: 'administrator', json: { username: login, email: `${login}@example.test`, password: 'pw', roles: ['author'] } })).body.id as number;

  it('requires force and a valid reassign, in WordPress order', async () => {
    const id = await newUser('leaver1');
    expect(await site.req('DELETE', `/core/v2/users/${id}`, { as: 'administrator' })).toBeWpError(400, 'rest_missing_callback_param');
    expect(await site.req('DELETE', `/core/v2/users/${id}?reassign=${site.users.editor.id}`, { as: 'administrator' })).toBeWpError(501, 'rest_trash_not_supported');
    expect(await site.req('DELETE', `/core/v2/users/${id}?force=true&reassign=${id}`, { as: 'administrator' })).toBeWpError(400, 'rest_user_invalid_reassign');
    expect(await site.req('DELETE', `/core/v2/users/${id}?force=true&reassign=99999`, { as: 'administrator' })).toBeWpError(400, 'rest_user_invalid_reassign');
    expect(await site.req('DELETE', `/core/v2/users/${id}?force=true&reassign=1`, { as: 'editor' })).toBeWpError(403, 'rest_user_cannot_delete');
    expect(await site.req('DELETE', `/core/v2/users/${id}?force=true&reassign=1`)).toBeWpError(401, 'rest_user_cannot_delete');
    expect(await site.req('DELETE', '/core/v2/users/99999?force=true&reassign=1', { as: 'administrator' })).toBeWpError(404, 'rest_user_invalid_id');
  });

  it('moves the content to the reassigned user in one go', async () => {
    const id = await newUser('leaver2');
    const leaver = { ...site.users.author, id, auth: '' };
    const { password } = await (await import('../../src/site/operator.js')).createApplicationPassword(site.db, id, 'x');
    leaver.auth = 'Basic ' + Buffer.from(`leaver2:${password}`).toString('base64');
    const post = await site.req('POST', '/core/v2/posts', { as: leaver, json: { title: 'Mine', status: 'publish' } });
    expect(post.status).toBe(201);
    const res = await site.req('DELETE', `/core/v2/users/${id}?force=true&reassign=${site.users.editor.id}`, { as: 'administrator' });
    expect(res.status).toBe(200);
    expect(res.body.deleted).toBe(true);
    expect(res.body.previous).toMatchObject({ id, username: 'leaver2' });
    const moved = await site.req('GET', `/core/v2/posts/${post.body.id}`);
    expect(moved.body.author).toBe(site.users.editor.id);
    expect(await site.req('GET', `/core/v2/users/${id}`, { as: 'administrator' })).toBeWpError(404, 'rest_user_invalid_id');
    expect(await site.db.prisma.appPassword.count({ where: { userId: id } })).toBe(0);
    // The deleted user's application password no longer signs in.
    expect(await site.req('GET', '/core/v2/posts', { as: leaver })).toBeWpError(401, 'invalid_username');
  });

  it('deletes the content with reassign=false', async () => {
    const id = await newUser('leaver3');
    const { password } = await (await import('../../src/site/operator.js')).createApplicationPassword(site.db, id, 'x');
    const leaver = { ...site.users.author, id, auth: 'Basic ' + Buffer.from(`leaver3:${password}`).toString('base64') };
    const tag = await site.req('POST', '/core/v2/tags', { as: 'administrator', json: { name: 'Leaver tag' } });
    const post = await site.req('POST', '/core/v2/posts', { as: leaver, json: { title: 'Gone soon', status: 'publish', tags: [tag.body.id] } });
    await site.req('POST', `/core/v2/posts/${post.body.id}`, { as: leaver, json: { title: 'Gone soon, edited' } });
    const tagCount = async () => (await site.req('GET', `/core/v2/tags/${tag.body.id}`)).body.count;
    expect(await tagCount()).toBe(1);
    const others = await site.db.prisma.content.count({ where: { authorId: site.users.author.id } });
    const res = await site.req('DELETE', `/core/v2/users/${id}?force=true&reassign=false`, { as: 'administrator' });
    expect(res.status).toBe(200);
    expect(await site.req('GET', `/core/v2/posts/${post.body.id}`, { as: 'administrator' })).toBeWpError(404, 'rest_post_invalid_id');
    expect(await site.db.prisma.content.count({ where: { parentId: post.body.id } })).toBe(0);
    expect(await site.db.prisma.content.count({ where: { authorId: site.users.author.id } })).toBe(others);
    expect(postByAuthor).toBeGreaterThan(0);
    // The deleted posts' terms are recounted.
    expect(await tagCount()).toBe(0);
  });
});
