import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestSite, type TestSite } from '../helpers/app.js';

let site: TestSite;
beforeAll(async () => { site = await createTestSite(); });
afterAll(async () => { await site?.close(); });

describe('GraphQL over the same rules', () => {
  it('creates and reads a post with the same rendering as REST', async () => {
    const created = await site.gql('mutation($i: PostInput!) { createPost(input: $i) { id status slug title { raw rendered } } }', { i: { title: "It's here", status: 'PUBLISH' } }, { as: 'administrator' });
    expect(created.errors).toBeUndefined();
    const post = created.data.createPost;
    expect(post.title).toEqual({ raw: "It's here", rendered: 'It&#8217;s here' });
    expect(post.slug).toBe('its-here');
    const list = await site.gql('{ posts(perPage: 5) { total totalPages nodes { id title { rendered raw } } } }');
    expect(list.data.posts.total).toBe(1);
    expect(list.data.posts.nodes[0]).toEqual({ id: post.id, title: { rendered: 'It&#8217;s here', raw: null } });
    const rest = await site.req('GET', `/core/v2/posts/${post.id}`);
    expect(rest.body.title.rendered).toBe(list.data.posts.nodes[0].title.rendered);
  });

  it('carries WordPress codes and statuses in error extensions', async () => {
    const anon = await site.gql('mutation { createPost(input: { title: "x" }) { id } }');
    expect(anon.errors?.[0].extensions).toMatchObject({ code: 'rest_cannot_create', status: 401 });
    const sub = await site.gql('mutation { createPost(input: { title: "x" }) { id } }', {}, { as: 'subscriber' });
    expect(sub.errors?.[0].extensions).toMatchObject({ code: 'rest_cannot_create', status: 403 });
    const missing = await site.gql('{ post(id: 99999) { id } }');
    expect(missing.errors?.[0].extensions).toMatchObject({ code: 'rest_post_invalid_id', status: 404 });
  });

  it('refuses bad application passwords', async () => {
    const res = await site.gql('{ site { name } }', {}, { headers: { authorization: 'Basic ' + Buffer.from('admin:wrong wrong wrong').toString('base64') } });
    expect(res.errors?.[0].extensions?.code).toBe('incorrect_password');
  });
});
