// Application passwords over /graphql: the rules of core/v2/users/…/application-passwords. The
// secret is in the answer that issues it only; a user manages their own, an administrator anyone's.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestSite, type TestSite, type TestUser } from '../helpers/app.js';
import { expectGqlError, expectRejected } from '../helpers/gql.js';

let site: TestSite;
beforeAll(async () => { site = await createTestSite(); });
afterAll(async () => { await site?.close(); });

const APP_ID = '0e8b8d1e-7f1c-4a3b-9d1e-1234567890ab';
const FIELDS = 'uuid appId name password userId created lastUsed lastIp';
const basic = (login: string, password: string) => 'Basic ' + Buffer.from(`${login}:${password}`).toString('base64');
const byName = (list: { name: string }[]) => list.map((p) => p.name);

describe('application passwords: own passwords', () => {
  it('issues one with its secret once; reading and listing show it without, as REST does', async () => {
    const made = await site.gql('mutation($i: ApplicationPasswordInput!) { createApplicationPassword(input: $i) { ' + FIELDS + ' } }', { i: { name: 'Phone', appId: APP_ID } }, { as: 'author' });
    expect(made.errors).toBeUndefined();
    const app = made.data.createApplicationPassword;
    expect(app).toMatchObject({ appId: APP_ID, name: 'Phone', userId: site.users.author.id, lastUsed: null, lastIp: null });
    expect(app.uuid).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    expect(app.password).toMatch(/^([A-Za-z0-9]{4} ){5}[A-Za-z0-9]{4}$/);
    expect(app.created).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d$/);

    const one = await site.gql('query($u: String!) { applicationPassword(uuid: $u) { ' + FIELDS + ' } }', { u: app.uuid }, { as: 'author' });
    expect(one.data.applicationPassword).toEqual({ ...app, password: null });
    const rest = await site.req('GET', `/core/v2/users/me/application-passwords/${app.uuid}`, { as: 'author' });
    expect(rest.body).toMatchObject({ uuid: app.uuid, app_id: APP_ID, name: 'Phone', created: app.created, last_used: null });
    expect(rest.body).not.toHaveProperty('password');

    const list = await site.gql('{ applicationPasswords { name password } }', {}, { as: 'author' });
    expect(list.data.applicationPasswords).toEqual([{ name: 'tests', password: null }, { name: 'Phone', password: null }]);
    const restList = await site.req('GET', '/core/v2/users/me/application-passwords', { as: 'author' });
    expect(byName(restList.body)).toEqual(['tests', 'Phone']);
  });

  it('signs in with the issued secret, which introspection then names; revoking it ends that', async () => {
    const made = await site.gql('mutation { createApplicationPassword(input: { name: "Laptop" }) { uuid password } }', {}, { as: 'editor' });
    const { uuid, password } = made.data.createApplicationPassword;
    const headers = { authorization: basic(site.users.editor.login, password) };
    const signedIn = await site.gql('{ user { databaseId } currentApplicationPassword { uuid name } }', {}, { headers });
    expect(signedIn.data).toEqual({ user: { databaseId: site.users.editor.id }, currentApplicationPassword: { uuid, name: 'Laptop' } });
    // The fixture's own password introspects as itself.
    expect((await site.gql('{ currentApplicationPassword { name userId } }', {}, { as: 'editor' })).data.currentApplicationPassword).toEqual({ name: 'tests', userId: site.users.editor.id });
    const used = await site.gql('query($u: String!) { applicationPassword(uuid: $u) { lastUsed } }', { u: uuid }, { as: 'editor' });
    expect(used.data.applicationPassword.lastUsed).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d$/);

    const revoked = await site.gql('mutation($u: String!) { deleteApplicationPassword(uuid: $u) { deleted previous { uuid name } } }', { u: uuid }, { as: 'editor' });
    expect(revoked.data.deleteApplicationPassword).toEqual({ deleted: true, previous: { uuid, name: 'Laptop' } });
    const refused = await site.gql('{ user { databaseId } }', {}, { headers });
    expect(refused.errors?.[0].extensions).toMatchObject({ code: 'incorrect_password', status: 401 });
    expect(refused.data ?? null).toBeNull();
    expectGqlError(await site.gql('query($u: String!) { applicationPassword(uuid: $u) { name } }', { u: uuid }, { as: 'editor' }), 404, 'rest_application_password_not_found');
  });

  it('renames one, refuses a duplicate or empty name', async () => {
    const { uuid } = (await site.gql('mutation { createApplicationPassword(input: { name: "Old name" }) { uuid } }', {}, { as: 'contributor' })).data.createApplicationPassword;
    const renamed = await site.gql('mutation($u: String!) { updateApplicationPassword(uuid: $u, input: { name: "New name" }) { uuid name password } }', { u: uuid }, { as: 'contributor' });
    expect(renamed.data.updateApplicationPassword).toEqual({ uuid, name: 'New name', password: null });
    expect((await site.req('GET', `/core/v2/users/me/application-passwords/${uuid}`, { as: 'contributor' })).body.name).toBe('New name');
    expectGqlError(await site.gql('mutation { createApplicationPassword(input: { name: "New name" }) { uuid } }', {}, { as: 'contributor' }), 409, 'application_password_duplicate_name');
    expectGqlError(await site.gql('mutation { createApplicationPassword(input: {}) { uuid } }', {}, { as: 'contributor' }), 400, 'application_password_empty_name');
    expect(byName((await site.gql('{ applicationPasswords { name } }', {}, { as: 'contributor' })).data.applicationPasswords)).toEqual(['tests', 'New name']);
  });

  it('refuses anonymous callers with 401 rest_not_logged_in', async () => {
    expectGqlError(await site.gql('{ applicationPasswords { name } }'), 401, 'rest_not_logged_in');
    expectGqlError(await site.gql('mutation { createApplicationPassword(input: { name: "x" }) { uuid } }'), 401, 'rest_not_logged_in');
    expectGqlError(await site.gql('mutation { deleteApplicationPasswords { count } }'), 401, 'rest_not_logged_in');
    expectGqlError(await site.gql('{ currentApplicationPassword { name } }'), 401, 'rest_not_logged_in');
  });

  it('rejects ill-typed requests before anything runs', async () => {
    expectRejected(await site.gql('mutation { createApplicationPassword(input: { name: "x", bogus: 1 }) { uuid } }', {}, { as: 'author' }), /"bogus" is not defined by type "ApplicationPasswordInput"/);
    expectRejected(await site.gql('{ applicationPassword { name } }', {}, { as: 'author' }), /argument "uuid" of type "String!" is required/);
    expectRejected(await site.gql('query($u: Int) { applicationPasswords(userId: $u) { name } }', { u: 'me' }, { as: 'author' }), /"\$u" got invalid value "me"/);
    expect(byName((await site.gql('{ applicationPasswords { name } }', {}, { as: 'author' })).data.applicationPasswords)).not.toContain('x');
  });
});

describe("application passwords: another user's", () => {
  let member: TestUser;
  let memberApp: string;

  beforeAll(async () => {
    const user = await site.createUser({ username: 'member', roles: ['subscriber'] });
    const made = await site.gql('mutation($u: Int) { createApplicationPassword(userId: $u, input: { name: "Issued by admin" }) { uuid password userId } }', { u: user.id }, { as: 'administrator' });
    expect(made.data.createApplicationPassword.userId).toBe(user.id);
    memberApp = made.data.createApplicationPassword.uuid;
    member = { id: user.id, login: 'member', role: 'subscriber', password: made.data.createApplicationPassword.password, auth: basic('member', made.data.createApplicationPassword.password) };
  });

  it('lets an administrator list, read, rename and revoke them', async () => {
    const list = await site.gql('query($u: Int) { applicationPasswords(userId: $u) { uuid name userId } }', { u: member.id }, { as: 'administrator' });
    expect(list.data.applicationPasswords).toEqual([{ uuid: memberApp, name: 'Issued by admin', userId: member.id }]);
    const second = await site.gql('mutation($u: Int) { createApplicationPassword(userId: $u, input: { name: "Second" }) { uuid } }', { u: member.id }, { as: 'administrator' });
    const renamed = await site.gql('mutation($u: Int, $id: String!) { updateApplicationPassword(userId: $u, uuid: $id, input: { name: "Renamed by admin" }) { name } }', { u: member.id, id: second.data.createApplicationPassword.uuid }, { as: 'administrator' });
    expect(renamed.data.updateApplicationPassword.name).toBe('Renamed by admin');
    // The member, signed in with the first one, sees both and introspects the first.
    expect(byName((await site.gql('{ applicationPasswords { name } }', {}, { as: member })).data.applicationPasswords)).toEqual(['Issued by admin', 'Renamed by admin']);
    expect((await site.gql('{ currentApplicationPassword { uuid } }', {}, { as: member })).data.currentApplicationPassword.uuid).toBe(memberApp);
    const restList = await site.req('GET', `/core/v2/users/${member.id}/application-passwords`, { as: 'administrator' });
    expect(byName(restList.body)).toEqual(['Issued by admin', 'Renamed by admin']);
  });

  it('refuses other users with the WordPress codes and 401 or 403', async () => {
    const u = site.users.contributor.id;
    expectGqlError(await site.gql('query($u: Int) { applicationPasswords(userId: $u) { name } }', { u }, { as: 'editor' }), 403, 'rest_cannot_list_application_passwords');
    expectGqlError(await site.gql('query($u: Int) { applicationPasswords(userId: $u) { name } }', { u }), 401, 'rest_cannot_list_application_passwords');
    expectGqlError(await site.gql('mutation($u: Int) { createApplicationPassword(userId: $u, input: { name: "x" }) { uuid } }', { u }, { as: 'editor' }), 403, 'rest_cannot_create_application_passwords');
    expectGqlError(await site.gql('mutation($u: Int) { deleteApplicationPasswords(userId: $u) { count } }', { u }, { as: 'author' }), 403, 'rest_cannot_delete_application_passwords');
    const one = { u: member.id, id: memberApp };
    expectGqlError(await site.gql('query($u: Int, $id: String!) { applicationPassword(userId: $u, uuid: $id) { name } }', one, { as: 'subscriber' }), 403, 'rest_cannot_read_application_password');
    expectGqlError(await site.gql('mutation($u: Int, $id: String!) { updateApplicationPassword(userId: $u, uuid: $id, input: { name: "y" }) { name } }', one, { as: 'subscriber' }), 403, 'rest_cannot_edit_application_password');
    expectGqlError(await site.gql('mutation($u: Int, $id: String!) { deleteApplicationPassword(userId: $u, uuid: $id) { deleted } }', one, { as: 'editor' }), 403, 'rest_cannot_delete_application_password');
    expectGqlError(await site.gql('query($u: Int) { currentApplicationPassword(userId: $u) { name } }', { u: member.id }, { as: 'author' }), 403, 'rest_cannot_introspect_app_password_for_non_authenticated_user');
    expectGqlError(await site.gql('{ applicationPasswords(userId: 99999) { name } }', {}, { as: 'administrator' }), 404, 'rest_user_invalid_id');
    expectGqlError(await site.gql('query($u: Int) { applicationPassword(userId: $u, uuid: "00000000-0000-0000-0000-000000000000") { name } }', { u: member.id }, { as: 'administrator' }), 404, 'rest_application_password_not_found');
    // The member's password is untouched.
    expect((await site.gql('query($u: String!) { applicationPassword(uuid: $u) { name } }', { u: memberApp }, { as: member })).data.applicationPassword.name).toBe('Issued by admin');
  });

  it('revokes all of a user\'s passwords, which then no longer sign in', async () => {
    const all = await site.gql('mutation($u: Int) { deleteApplicationPasswords(userId: $u) { deleted count } }', { u: member.id }, { as: 'administrator' });
    expect(all.data.deleteApplicationPasswords).toEqual({ deleted: true, count: 2 });
    expect((await site.gql('query($u: Int) { applicationPasswords(userId: $u) { name } }', { u: member.id }, { as: 'administrator' })).data.applicationPasswords).toEqual([]);
    const refused = await site.gql('{ user { databaseId } }', {}, { as: member });
    expect(refused.errors?.[0].extensions).toMatchObject({ code: 'incorrect_password', status: 401 });
  });
});

describe('the same format rule as REST', () => {
  it('refuses an appId that is not a UUID, over GraphQL and REST, and stores nothing', async () => {
    const gql = await site.gql('mutation { createApplicationPassword(input: { name: "Bad id", appId: "nope" }) { uuid } }', {}, { as: 'author' });
    expectGqlError(gql, 400, 'rest_invalid_param');
    expect(gql.errors?.[0].extensions?.data).toMatchObject({ params: { appId: 'appId is not a valid UUID.' }, details: { appId: { code: 'rest_invalid_uuid' } } });
    const rest = await site.req('POST', '/core/v2/users/me/application-passwords', { as: 'author', json: { name: 'Bad id', app_id: 'nope' } });
    expect(rest).toBeWpError(400, 'rest_invalid_param');
    const list = await site.req('GET', '/core/v2/users/me/application-passwords', { as: 'author' });
    expect(list.body.map((a: { name: string }) => a.name)).not.toContain('Bad id');
  });
});
