import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestSite, API, type TestSite, type TestUser } from '../helpers/app.js';

let site: TestSite;
beforeAll(async () => { site = await createTestSite(); });
afterAll(async () => { await site?.close(); });

const base = (user: number | 'me') => `/core/v2/users/${user}/application-passwords`;
const basic = (login: string, password: string) => 'Basic ' + Buffer.from(`${login}:${password}`).toString('base64');

describe('ApplicationPasswordCreate', () => {
  it('issues a password shown once, which then signs in', async () => {
    const res = await site.req('POST', base('me'), { as: 'author', json: { name: 'My phone', app_id: '7c9e6679-7425-40de-944b-e07fc1f90ae7' } });
    expect(res.status).toBe(201);
    expect(Object.keys(res.body)).toEqual(['uuid', 'app_id', 'name', 'created', 'last_used', 'last_ip', 'password', '_links']);
    expect(res.body).toMatchObject({ app_id: '7c9e6679-7425-40de-944b-e07fc1f90ae7', name: 'My phone', last_used: null, last_ip: null });
    expect(res.body.password).toMatch(/^([A-Za-z0-9]{4} ){5}[A-Za-z0-9]{4}$/);
    expect(res.body.created).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d$/);
    const self = `${API}/core/v2/users/${site.users.author.id}/application-passwords/${res.body.uuid}`;
    expect(res.headers.get('location')).toBe(self);
    expect(res.body._links.self[0].href).toBe(self);

    const me = await site.req('GET', '/core/v2/users/me', { headers: { authorization: basic('author1', res.body.password) } });
    expect(me.status).toBe(200);
    expect(me.body.id).toBe(site.users.author.id);

    const again = await site.req('GET', `${base('me')}/${res.body.uuid}`, { as: 'author' });
    expect(again.status).toBe(200);
    expect(again.body.password).toBeUndefined();
  });

  it('refuses empty and duplicate names and a bad app_id', async () => {
    expect(await site.req('POST', base('me'), { as: 'editor', json: {} })).toBeWpError(400, 'rest_missing_callback_param');
    const blank = await site.req('POST', base('me'), { as: 'editor', json: { name: '   ' } });
    expect(blank).toBeWpError(400, 'rest_invalid_param');
    expect(await site.req('POST', base('me'), { as: 'editor', json: { name: '<b></b>' } })).toBeWpError(400, 'application_password_empty_name');
    expect((await site.req('POST', base('me'), { as: 'editor', json: { name: 'Twice' } })).status).toBe(201);
    expect(await site.req('POST', base('me'), { as: 'editor', json: { name: 'Twice' } })).toBeWpError(409, 'application_password_duplicate_name');
    const badId = await site.req('POST', base('me'), { as: 'editor', json: { name: 'x', app_id: 'not-a-uuid' } });
    expect(badId).toBeWpError(400, 'rest_invalid_param');
    expect(badId.body.data.details.app_id.code).toBe('rest_invalid_uuid');
  });
});

describe('who may manage application passwords', () => {
  it('only the user themself or an administrator (edit_user), with WordPress codes', async () => {
    const other = base(site.users.contributor.id);
    expect((await site.req('GET', other, { as: 'administrator' })).status).toBe(200);
    expect((await site.req('GET', other, { as: 'contributor' })).status).toBe(200);
    expect(await site.req('GET', other, { as: 'editor' })).toBeWpError(403, 'rest_cannot_list_application_passwords');
    expect(await site.req('GET', other)).toBeWpError(401, 'rest_cannot_list_application_passwords');
    expect(await site.req('POST', other, { as: 'editor', json: { name: 'x' } })).toBeWpError(403, 'rest_cannot_create_application_passwords');
    expect(await site.req('DELETE', other, { as: 'author' })).toBeWpError(403, 'rest_cannot_delete_application_passwords');
    expect(await site.req('GET', base(99999), { as: 'administrator' })).toBeWpError(404, 'rest_user_invalid_id');
    expect(await site.req('GET', base('me'))).toBeWpError(401, 'rest_not_logged_in');

    const made = await site.req('POST', other, { as: 'administrator', json: { name: 'Made by admin' } });
    expect(made.status).toBe(201);
    const item = `${other}/${made.body.uuid}`;
    expect(await site.req('GET', item, { as: 'subscriber' })).toBeWpError(403, 'rest_cannot_read_application_password');
    expect(await site.req('POST', item, { as: 'subscriber', json: { name: 'y' } })).toBeWpError(403, 'rest_cannot_edit_application_password');
    expect(await site.req('DELETE', item, { as: 'subscriber' })).toBeWpError(403, 'rest_cannot_delete_application_password');
    expect(await site.req('GET', `${other}/00000000-0000-0000-0000-000000000000`, { as: 'administrator' })).toBeWpError(404, 'rest_application_password_not_found');
  });
});

describe('ApplicationPasswordUpdate, Delete', () => {
  it('renames, deletes one, deletes all', async () => {
    const made = await site.req('POST', base('me'), { as: 'subscriber', json: { name: 'Old name' } });
    const item = `${base('me')}/${made.body.uuid}`;
    const renamed = await site.req('PATCH', item, { as: 'subscriber', json: { name: 'New name' } });
    expect(renamed.status).toBe(200);
    expect(renamed.body.name).toBe('New name');
    const list = await site.req('GET', base('me'), { as: 'subscriber' });
    expect(list.body.map((p: any) => p.name)).toEqual(['tests', 'New name']);
    const gone = await site.req('DELETE', item, { as: 'subscriber' });
    expect(gone.status).toBe(200);
    expect(gone.body).toMatchObject({ deleted: true, previous: { uuid: made.body.uuid, name: 'New name' } });
    expect(await site.req('GET', item, { as: 'subscriber' })).toBeWpError(404, 'rest_application_password_not_found');

    await site.req('POST', base('me'), { as: 'subscriber', json: { name: 'Another' } });
    const all = await site.req('DELETE', base(site.users.subscriber.id), { as: 'administrator' });
    expect(all.status).toBe(200);
    expect(all.body).toEqual({ deleted: true, count: 2 });
    // The subscriber's own application password went too.
    expect(await site.req('GET', '/core/v2/users/me', { as: 'subscriber' })).toBeWpError(401, 'incorrect_password');
  });
});

describe('ApplicationPasswordIntrospect and usage recording', () => {
  it('returns the password of the request, records last_used/last_ip at most once a day', async () => {
    const user: TestUser = site.users.editor;
    const res = await site.req('GET', `${base('me')}/introspect`, { as: user });
    expect(res.status).toBe(200);
    expect(res.body.name).toBe('tests');
    expect(res.body.last_used).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d$/);

    // Over node:http the client address is known; in process it is not, so set a stale use and
    // send one through app.handle with an address.
    const row = await site.db.prisma.appPassword.findFirstOrThrow({ where: { userId: user.id, name: 'tests' } });
    const stale = new Date(Date.now() - 25 * 3600_000);
    await site.db.prisma.appPassword.update({ where: { id: row.id }, data: { lastUsed: stale, lastIp: null } });
    const call = () => site.app.handle({ method: 'GET', url: '/wp-json/core/v2/users/me', headers: new Headers({ authorization: user.auth }), body: null, ip: '::ffff:192.0.2.7' });
    expect((await call()).status).toBe(200);
    const after = await site.db.prisma.appPassword.findUniqueOrThrow({ where: { id: row.id } });
    expect(after.lastIp).toBe('192.0.2.7');
    expect(after.lastUsed!.getTime()).toBeGreaterThan(stale.getTime());
    // Within the day: no write.
    const statements = site.db.statements;
    await site.db.prisma.appPassword.update({ where: { id: row.id }, data: { lastIp: 'unchanged' } });
    expect((await call()).status).toBe(200);
    expect((await site.db.prisma.appPassword.findUniqueOrThrow({ where: { id: row.id } })).lastIp).toBe('unchanged');
    expect(site.db.statements).toBeGreaterThan(statements);

    expect(await site.req('GET', `${base(site.users.author.id)}/introspect`, { as: user })).toBeWpError(403, 'rest_cannot_introspect_app_password_for_non_authenticated_user');
    expect(await site.req('GET', `${base(site.users.author.id)}/introspect`)).toBeWpError(401, 'rest_cannot_introspect_app_password_for_non_authenticated_user');
  });

  it('is routed before the uuid route', async () => {
    const index = await site.req('GET', '/core/v2');
    const patterns = Object.keys(index.body.routes);
    const introspect = patterns.indexOf('/core/v2/users/(?P<user_id>(?:[\\d]+|me))/application-passwords/introspect');
    const uuid = patterns.indexOf('/core/v2/users/(?P<user_id>(?:[\\d]+|me))/application-passwords/(?P<uuid>[\\w\\-]+)');
    expect(introspect).toBeGreaterThan(0);
    expect(uuid).toBeGreaterThan(introspect);
  });
});
