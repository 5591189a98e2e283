// The 401/403 rule and WordPress's permission codes across content writes, and Basic-auth failures.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestSite, type TestSite } from '../helpers/app.js';

let site: TestSite;
let adminPost: number;
let category: number;
beforeAll(async () => {
  site = await createTestSite();
  adminPost = (await site.req('POST', '/core/v2/posts', { as: 'administrator', json: { title: 'Admin post', status: 'publish' } })).body.id;
  category = (await site.req('POST', '/core/v2/categories', { as: 'administrator', json: { name: 'Guarded' } })).body.id;
});
afterAll(async () => { await site?.close(); });

const basic = (login: string, password: string) => ({ authorization: 'Basic ' + Buffer.from(`${login}:${password}`).toString('base64') });

describe('Basic credentials', () => {
  it('are refused with WordPress codes on every route, public reads included', async () => {
    expect(await site.req('GET', '/core/v2/posts', { headers: basic('nobody', 'abcd efgh ijkl mnop qrst uvwx') })).toBeWpError(401, 'invalid_username');
    expect(await site.req('GET', '/', { headers: basic('nobody@example.test', 'x') })).toBeWpError(401, 'invalid_email');
    expect(await site.req('GET', '/core/v2/posts', { headers: basic('admin', 'wrong wrong wrong wrong wrong wron') })).toBeWpError(401, 'incorrect_password');
    // The login password is not an application password.
    expect(await site.req('GET', '/core/v2/users/me', { headers: basic('admin', 'admin-password') })).toBeWpError(401, 'incorrect_password');
    // Another user's application password with this login is wrong too.
    expect(await site.req('GET', '/core/v2/users/me', { headers: basic('admin', site.users.editor.password) })).toBeWpError(401, 'incorrect_password');
    // Other schemes are ignored.
    expect((await site.req('GET', '/core/v2/posts', { headers: { authorization: 'Bearer abc' } })).status).toBe(200);
  });
});

describe('401 anonymous, 403 signed in', () => {
  it('rest_cannot_create / rest_cannot_edit / rest_cannot_delete / rest_forbidden_context', async () => {
    expect(await site.req('POST', '/core/v2/posts', { json: { title: 'x' } })).toBeWpError(401, 'rest_cannot_create');
    expect(await site.req('POST', '/core/v2/posts', { as: 'subscriber', json: { title: 'x' } })).toBeWpError(403, 'rest_cannot_create');
    expect(await site.req('POST', `/core/v2/posts/${adminPost}`, { json: { title: 'x' } })).toBeWpError(401, 'rest_cannot_edit');
    expect(await site.req('POST', `/core/v2/posts/${adminPost}`, { as: 'author', json: { title: 'x' } })).toBeWpError(403, 'rest_cannot_edit');
    expect(await site.req('DELETE', `/core/v2/posts/${adminPost}`)).toBeWpError(401, 'rest_cannot_delete');
    expect(await site.req('DELETE', `/core/v2/posts/${adminPost}`, { as: 'contributor' })).toBeWpError(403, 'rest_cannot_delete');
    expect(await site.req('GET', `/core/v2/posts/${adminPost}?context=edit`)).toBeWpError(401, 'rest_forbidden_context');
    expect(await site.req('GET', `/core/v2/posts/${adminPost}?context=edit`, { as: 'author' })).toBeWpError(403, 'rest_forbidden_context');
    expect(await site.req('GET', '/core/v2/posts?context=edit', { as: 'subscriber' })).toBeWpError(403, 'rest_forbidden_context');
  });

  it('rest_cannot_publish, rest_cannot_edit_others, rest_cannot_assign_term', async () => {
    expect(await site.req('POST', '/core/v2/posts', { as: 'contributor', json: { title: 'x', status: 'publish' } })).toBeWpError(403, 'rest_cannot_publish');
    expect(await site.req('POST', '/core/v2/posts', { as: 'author', json: { title: 'x', author: site.users.editor.id } })).toBeWpError(403, 'rest_cannot_edit_others');
    const res = await site.req('POST', '/core/v2/posts', { as: 'contributor', json: { title: 'x', categories: [category] } });
    // Contributors hold edit_posts, which assign_categories maps to: allowed, as WordPress.
    expect(res.status).toBe(201);
    expect(await site.req('POST', '/core/v2/pages', { as: 'author', json: { title: 'x' } })).toBeWpError(403, 'rest_cannot_create');
  });
});
