// Integers beyond GraphQL's 32-bit Int that the REST validator accepts: answered as WordPress
// answers ids that do not exist, never 500.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestSite, type TestSite } from '../helpers/app.js';

let site: TestSite;
let postId: number;
beforeAll(async () => {
  site = await createTestSite();
  const res = await site.req('POST', '/core/v2/posts', { as: 'administrator', json: { title: 'Only one', status: 'publish' } });
  postId = res.body.id;
});
afterAll(async () => { await site?.close(); });

const HUGE = '9999999999999999999999999999999999999999';
const ids = (res: { body: any }) => (res.body as { id: number }[]).map((p) => p.id);

describe('posts collection with integers beyond 32 bits', () => {
  it.each([
    ['include', `include=${HUGE}`],
    ['include (negative)', `include=-${HUGE}`],
    ['categories', `categories=${HUGE}`],
    ['categories terms', `categories[terms][]=${HUGE}&categories[operator]=AND`],
    ['tags', `tags=${HUGE}`],
    ['author', `author=${HUGE}`],
    ['offset', `offset=${HUGE}`],
    ['include with _embed', `include=${HUGE}&_embed=1`],
  ])('%s finds nothing', async (_label, query) => {
    const res = await site.req('GET', `/core/v2/posts?${query}`);
    expect(res.status).toBe(200);
    expect(res.body).toEqual([]);
  });

  it('exclude of an impossible id excludes nothing', async () => {
    const res = await site.req('GET', `/core/v2/posts?exclude=${HUGE}`);
    expect(res.status).toBe(200);
    expect(ids(res)).toEqual([postId]);
  });

  it('a page beyond the last is 400 rest_post_invalid_page_number', async () => {
    const res = await site.req('GET', `/core/v2/posts?page=${HUGE}`);
    expect(res).toBeWpError(400, 'rest_post_invalid_page_number');
  });
});

describe('items with ids beyond 32 bits are 404', () => {
  it.each([
    ['posts', 'rest_post_invalid_id'],
    ['pages', 'rest_post_invalid_id'],
    ['categories', 'rest_term_invalid'],
    ['tags', 'rest_term_invalid'],
    ['users', 'rest_user_invalid_id'],
  ])('GET %s/99999999999 is 404 %s', async (base, code) => {
    const res = await site.req('GET', `/core/v2/${base}/99999999999`, { as: 'administrator' });
    expect(res).toBeWpError(404, code);
  });

  it('updating and deleting a post with such an id is 404 rest_post_invalid_id', async () => {
    const update = await site.req('PATCH', '/core/v2/posts/99999999999', { as: 'administrator', json: { title: 'x' } });
    expect(update).toBeWpError(404, 'rest_post_invalid_id');
    const remove = await site.req('DELETE', '/core/v2/posts/99999999999?force=true', { as: 'administrator' });
    expect(remove).toBeWpError(404, 'rest_post_invalid_id');
  });
});

describe('ids beyond the database range in the users routes', () => {
  let site: TestSite;
  beforeAll(async () => { site = await createTestSite(); });
  afterAll(async () => { await site?.close(); });

  it('answers 404 for application passwords of an impossible user', async () => {
    const res = await site.req('GET', '/core/v2/users/99999999999/application-passwords', { as: 'administrator' });
    expect(res).toBeWpError(404, 'rest_user_invalid_id');
  });

  it('refuses to reassign content to an impossible user', async () => {
    const res = await site.req('DELETE', `/core/v2/users/${site.users.author.id}?force=true&reassign=99999999999`, { as: 'administrator' });
    expect(res).toBeWpError(400, 'rest_user_invalid_reassign');
    expect((await site.req('GET', `/core/v2/users/${site.users.author.id}`, { as: 'administrator' })).status).toBe(200);
  });
});
