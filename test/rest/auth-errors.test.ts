// The 401/403 rule and WordPress's permission codes across content writes, and Basic-auth failures.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestSite, isWpError, type TestSite } from '../helpers/app.js';

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
    expect(isWpError(await site.req('GET', '/core/v2/posts', { headers: basic('nobody', 'abcd efgh ijkl mnop qrst uvwx') }), 401, 'invalid_username')).toBe(true);
    expect(isWpError(await site.req('GET', '/', { headers: basic('nobody@example.test', 'x') }), 401, 'invalid_email')).toBe(true);
    expect(isWpError(await site.req('GET', '/core/v2/posts', { headers: basic('admin', 'wrong wrong wrong wrong wrong wron') }), 401, 'incorrect_password')).toBe(true);
    // The login password is not an application password.
    expect(isWpError(await site.req('GET', '/core/v2/users/me', { headers: basic('admin', 'admin-password') }), 401, 'incorrect_password')).toBe(true);
    // Another user's application password with this login is wrong too.
    expect(isWpError(await site.req('GET', '/core/v2/users/me', { headers: basic('admin', site.users.editor.password) }), 401, 'incorrect_password')).toBe(true);
    // Other schemes are ignored.
    expect((await site.req('GET', '/core/v2/posts', { headers: { authorization: 'Bearer abc' } })).status).toBe(200);
  });
});

describe('401 anonymous, 403 signed in', () => {
  it('rest_cannot_create / rest_cannot_edit / rest_cannot_delete / rest_forbidden_context', async () => {
    expect(isWpError(await site.req('POST', '/core/v2/posts', { json: { title: 'x' } }), 401, 'rest_cannot_create')).toBe(true);
    expect(isWpError(await site.req('POST', '/core/v2/posts', { as: 'subscriber', json: { title: 'x' } }), 403, 'rest_cannot_create')).toBe(true);
    expect(isWpError(await site.req('POST', `/core/v2/posts/${adminPost}`, { json: { title: 'x' } }), 401, 'rest_cannot_edit')).toBe(true);
    expect(isWpError(await site.req('POST', `/core/v2/posts/${adminPost}`, { as: 'author', json: { title: 'x' } }), 403, 'rest_cannot_edit')).toBe(true);
    expect(isWpError(await site.req('DELETE', `/core/v2/posts/${adminPost}`), 401, 'rest_cannot_delete')).toBe(true);
    expect(isWpError(await site.req('DELETE', `/core/v2/posts/${adminPost}`, { as: 'contributor' }), 403, 'rest_cannot_delete')).toBe(true);
    expect(isWpError(await site.req('GET', `/core/v2/posts/${adminPost}?context=edit`), 401, 'rest_forbidden_context')).toBe(true);
    expect(isWpError(await site.req('GET', `/core/v2/posts/${adminPost}?context=edit`, { as: 'author' }), 403, 'rest_forbidden_context')).toBe(true);
    expect(isWpError(await site.req('GET', '/core/v2/posts?context=edit', { as: 'subscriber' }), 403, 'rest_forbidden_context')).toBe(true);
  });

  it('rest_cannot_publish, rest_cannot_edit_others, rest_cannot_assign_term', async () => {
    expect(isWpError(await site.req('POST', '/core/v2/posts', { as: 'contributor', json: { title: 'x', status: 'publish' } }), 403, 'rest_cannot_publish')).toBe(true);
    expect(isWpError(await site.req('POST', '/core/v2/posts', { as: 'author', json: { title: 'x', author: site.users.editor.id } }), 403, 'rest_cannot_edit_others')).toBe(true);
    const res = await site.req('POST', '/core/v2/posts', { as: 'contributor', json: { title: 'x', categories: [category] } });
    // Contributors hold edit_posts, which assign_categories maps to: allowed, as WordPress.
    expect(res.status).toBe(201);
    expect(isWpError(await site.req('POST', '/core/v2/pages', { as: 'author', json: { title: 'x' } }), 403, 'rest_cannot_create')).toBe(true);
  });
});
