// Users and application passwords over /graphql follow the REST rules: private fields stay null
// for callers who may not see them, the same codes come back, and the secret is shown once.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestSite, type TestSite } from '../helpers/app.js';

let site: TestSite;
beforeAll(async () => {
  site = await createTestSite();
  await site.createPost({ title: 'Public', status: 'publish' }, 'author');
});
afterAll(async () => { await site?.close(); });

describe('users over GraphQL', () => {
  it('hides private fields from callers who may not see them', async () => {
    const anon = await site.gql('{ users { total nodes { id name email username roles capabilities } } }');
    expect(anon.errors).toBeUndefined();
    expect(anon.data.users.total).toBe(1);
    expect(anon.data.users.nodes[0]).toEqual({ id: site.users.author.id, name: 'author1', email: null, username: null, roles: null, capabilities: null });
    const admin = await site.gql('{ users(perPage: 100) { total nodes { email } } }', {}, { as: 'administrator' });
    expect(admin.data.users.total).toBe(5);
    expect(admin.data.users.nodes.every((n: { email: string | null }) => n.email)).toBe(true);
    const self = await site.gql('{ user { id email roles } }', {}, { as: 'subscriber' });
    expect(self.data.user).toEqual({ id: site.users.subscriber.id, email: 'subscriber1@example.test', roles: ['subscriber'] });
  });

  it('carries the REST codes', async () => {
    const anon = await site.gql('{ user { id } }');
    expect(anon.errors?.[0].extensions).toMatchObject({ code: 'rest_not_logged_in', status: 401 });
    const hidden = await site.gql('query($id: Int) { user(id: $id) { id } }', { id: site.users.editor.id }, { as: 'subscriber' });
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
