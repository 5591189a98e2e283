import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestSite, SITE, type TestSite } from '../helpers/app.js';

let site: TestSite;
beforeAll(async () => { site = await createTestSite(); });
afterAll(async () => { await site?.close(); });

async function gql(query: string, variables: Record<string, unknown> = {}, as?: 'administrator' | 'subscriber') {
  const headers: Record<string, string> = { 'content-type': 'application/json' };
  if (as) headers.authorization = site.users[as].auth;
  const res = await site.app.fetch(new Request(`${SITE}/graphql`, { method: 'POST', headers, body: JSON.stringify({ query, variables }) }));
  return { status: res.status, body: (await res.json()) as { data?: any; errors?: { message: string; extensions?: { code?: string; status?: number } }[] } };
}

describe('GraphQL over the same rules', () => {
  it('creates and reads a post with the same rendering as REST', async () => {
    const created = await gql('mutation($i: PostInput!) { createPost(input: $i) { id status slug title { raw rendered } } }', { i: { title: "It's here", status: 'PUBLISH' } }, 'administrator');
    expect(created.body.errors).toBeUndefined();
    const post = created.body.data.createPost;
    expect(post.title).toEqual({ raw: "It's here", rendered: 'It&#8217;s here' });
    expect(post.slug).toBe('its-here');
    const list = await gql('{ posts(perPage: 5) { total totalPages nodes { id title { rendered raw } } } }');
    expect(list.body.data.posts.total).toBe(1);
    expect(list.body.data.posts.nodes[0]).toEqual({ id: post.id, title: { rendered: 'It&#8217;s here', raw: null } });
    const rest = await site.req('GET', `/core/v2/posts/${post.id}`);
    expect(rest.body.title.rendered).toBe(list.body.data.posts.nodes[0].title.rendered);
  });

  it('carries WordPress codes and statuses in error extensions', async () => {
    const anon = await gql('mutation { createPost(input: { title: "x" }) { id } }');
    expect(anon.body.errors?.[0].extensions).toMatchObject({ code: 'rest_cannot_create', status: 401 });
    const sub = await gql('mutation { createPost(input: { title: "x" }) { id } }', {}, 'subscriber');
    expect(sub.body.errors?.[0].extensions).toMatchObject({ code: 'rest_cannot_create', status: 403 });
    const missing = await gql('{ post(id: 99999) { id } }');
    expect(missing.body.errors?.[0].extensions).toMatchObject({ code: 'rest_post_invalid_id', status: 404 });
  });

  it('refuses bad application passwords', async () => {
    const res = await site.app.fetch(new Request(`${SITE}/graphql`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: 'Basic ' + Buffer.from('admin:wrong wrong wrong').toString('base64') },
      body: JSON.stringify({ query: '{ site { name } }' }),
    }));
    const body = (await res.json()) as { errors: { extensions: { code: string } }[] };
    expect(body.errors[0].extensions.code).toBe('incorrect_password');
  });
});
