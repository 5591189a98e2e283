// Users and application passwords over /graphql follow the REST rules: private fields stay null
// for callers who may not see them, the same codes come back, and the secret is shown once.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestSite, SITE, type TestSite } from '../helpers/app.js';
import type { Role } from '../../src/auth/capabilities.js';

let site: TestSite;
beforeAll(async () => {
  site = await createTestSite();
  await site.req('POST', '/core/v2/posts', { as: 'author', json: { title: 'Public', status: 'publish' } });
});
afterAll(async () => { await site?.close(); });

async function gql(query: string, variables: Record<string, unknown> = {}, as?: Role) {
  const headers: Record<string, string> = { 'content-type': 'application/json' };
  if (as) headers.authorization = site.users[as].auth;
  const res = await site.app.fetch(new Request(`${SITE}/graphql`, { method: 'POST', headers, body: JSON.stringify({ query, variables }) }));
  return (await res.json()) as { data?: any; errors?: { message: string; extensions?: { code?: string; status?: number } }[] };
}

describe('users over GraphQL', () => {
  it('hides private fields from callers who may not see them', async () => {
    const anon = await gql('{ users { total nodes { id name email username roles capabilities } } }');
    expect(anon.errors).toBeUndefined();
    expect(anon.data.users.total).toBe(1);
    expect(anon.data.users.nodes[0]).toEqual({ id: site.users.author.id, name: 'author1', email: null, username: null, roles: null, capabilities: null });
    const admin = await gql('{ users(perPage: 100) { total nodes { email } } }', {}, 'administrator');
    expect(admin.data.users.total).toBe(5);
    expect(admin.data.users.nodes.every((n: { email: string | null }) => n.email)).toBe(true);
    const self = await gql('{ user { id email roles } }', {}, 'subscriber');
    expect(self.data.user).toEqual({ id: site.users.subscriber.id, email: 'subscriber1@example.test', roles: ['subscriber'] });
  });

  it('carries the REST codes', async () => {
    const anon = await gql('{ user { id } }');
    expect(anon.errors?.[0].extensions).toMatchObject({ code: 'rest_not_logged_in', status: 401 });
    const hidden = await gql('query($id: Int) { user(id: $id) { id } }', { id: site.users.editor.id }, 'subscriber');
    expect(hidden.errors?.[0].extensions).toMatchObject({ code: 'rest_user_cannot_view', status: 403 });
  });

  it('issues an application password once and lists it without the secret', async () => {
    const made = await gql('mutation { createApplicationPassword(input: { name: "GraphQL app" }) { uuid name password } }', {}, 'contributor');
    expect(made.errors).toBeUndefined();
    expect(made.data.createApplicationPassword.password).toMatch(/^([A-Za-z0-9]{4} ){5}[A-Za-z0-9]{4}$/);
    const list = await gql('{ applicationPasswords { name password } }', {}, 'contributor');
    expect(list.data.applicationPasswords).toEqual([{ name: 'tests', password: null }, { name: 'GraphQL app', password: null }]);
    const other = await gql('query($u: Int) { applicationPasswords(userId: $u) { name } }', { u: site.users.contributor.id }, 'editor');
    expect(other.errors?.[0].extensions).toMatchObject({ code: 'rest_cannot_list_application_passwords', status: 403 });
  });
});
