// Validators on anonymous REST reads: an ETag of the final bytes, If-None-Match → 304 with no
// body, a new ETag once the content changed, HEAD, and none of it for signed-in (uncached) callers.
// Also the X-Cache header the bench reads to prove its cold runs reached the database.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestSite, type TestSite } from '../helpers/app.js';

let site: TestSite;
let uncached: TestSite;
let id: number;

beforeAll(async () => {
  site = await createTestSite();
  uncached = await createTestSite({ cacheEntries: 0 });
  id = (await site.createPost({ title: 'Validated', content: 'First words.', status: 'publish' })).id;
  await uncached.createPost({ title: 'Validated', content: 'First words.', status: 'publish' });
});
afterAll(async () => { await site?.close(); await uncached?.close(); });

describe('ETag on anonymous reads', () => {
  it('a 200 carries a strong ETag of its bytes, the same on a cache hit', async () => {
    const first = await site.req('GET', `/core/v2/posts/${id}`);
    expect(first.status).toBe(200);
    const etag = first.headers.get('etag');
    expect(etag).toMatch(/^"[A-Za-z0-9_-]{27}"$/);
    const second = await site.req('GET', `/core/v2/posts/${id}`);
    expect(second.status).toBe(200);
    expect(second.headers.get('etag')).toBe(etag);
    expect(second.text).toBe(first.text);
    // The list has one too, and a different one (other bytes).
    const list = await site.req('GET', '/core/v2/posts');
    expect(list.status).toBe(200);
    expect(list.headers.get('etag')).toMatch(/^"/);
    expect(list.headers.get('etag')).not.toBe(etag);
  });

  it('If-None-Match with the ETag answers 304 with no body and the same validators', async () => {
    const etag = (await site.req('GET', `/core/v2/posts/${id}`)).headers.get('etag')!;
    for (const condition of [etag, `W/${etag}`, `"other", ${etag}`, '*']) {
      const res = await site.req('GET', `/core/v2/posts/${id}`, { headers: { 'if-none-match': condition } });
      expect(res.status).toBe(304);
      expect(res.text).toBe('');
      expect(res.headers.get('etag')).toBe(etag);
    }
  });

  it('a different ETag in If-None-Match gets the full answer', async () => {
    const res = await site.req('GET', `/core/v2/posts/${id}`, { headers: { 'if-none-match': '"not-this-one"' } });
    expect(res.status).toBe(200);
    expect(res.body.id).toBe(id);
  });

  it('changed content gets a new ETag, and the old one no longer answers 304', async () => {
    const old = (await site.req('GET', `/core/v2/posts/${id}`)).headers.get('etag')!;
    const updated = await site.req('POST', `/core/v2/posts/${id}`, { as: 'administrator', json: { content: 'Other words.' } });
    expect(updated.status).toBe(200);
    const res = await site.req('GET', `/core/v2/posts/${id}`, { headers: { 'if-none-match': old } });
    expect(res.status).toBe(200);
    expect(res.body.content.rendered).toContain('Other words.');
    expect(res.headers.get('etag')).toMatch(/^"/);
    expect(res.headers.get('etag')).not.toBe(old);
  });

  it('HEAD carries the same ETag with no body, and answers 304 to it', async () => {
    const get = await site.req('GET', `/core/v2/posts/${id}`);
    const head = await site.req('HEAD', `/core/v2/posts/${id}`);
    expect(head.status).toBe(200);
    expect(head.text).toBe('');
    expect(head.headers.get('etag')).toBe(get.headers.get('etag'));
    const conditional = await site.req('HEAD', `/core/v2/posts/${id}`, { headers: { 'if-none-match': get.headers.get('etag')! } });
    expect(conditional.status).toBe(304);
  });

  it('signed-in answers are not cached and carry no ETag; If-None-Match does not apply to them', async () => {
    const anonymous = await site.req('GET', `/core/v2/posts/${id}`);
    const res = await site.req('GET', `/core/v2/posts/${id}`, { as: 'administrator', headers: { 'if-none-match': '*' } });
    expect(res.status).toBe(200);
    expect(res.body.id).toBe(id);
    expect(res.headers.get('etag')).toBeNull();
    expect(res.headers.get('x-cache')).toBeNull();
    expect(res.headers.get('cache-control')).toContain('no-store');
    const again = await site.req('GET', `/core/v2/posts/${id}`, { as: 'administrator', headers: { 'if-none-match': anonymous.headers.get('etag')! } });
    expect(again.status).toBe(200);
  });

  it('errors carry no ETag and are never answered 304', async () => {
    const res = await site.req('GET', '/core/v2/posts/999999', { headers: { 'if-none-match': '*' } });
    expect(res.status).toBe(404);
    expect(res.body.code).toBe('rest_post_invalid_id');
    expect(res.headers.get('etag')).toBeNull();
  });

  it('without the response cache, anonymous reads still carry the ETag and answer 304', async () => {
    const first = await uncached.req('GET', '/core/v2/posts');
    expect(first.status).toBe(200);
    const etag = first.headers.get('etag')!;
    expect(etag).toMatch(/^"/);
    expect(first.headers.get('x-cache')).toBeNull();
    const res = await uncached.req('GET', '/core/v2/posts', { headers: { 'if-none-match': etag } });
    expect(res.status).toBe(304);
    expect(res.text).toBe('');
  });
});

describe('X-Cache', () => {
  it('MISS when the read ran, HIT when the cache answered (from the third read: the second answer is kept); a write makes the next reads MISS', async () => {
    const url = '/core/v2/posts?per_page=3&orderby=id';
    const cacheOf = async (u: string) => (await site.req('GET', u)).headers.get('x-cache');
    expect([await cacheOf(url), await cacheOf(url), await cacheOf(url)]).toEqual(['MISS', 'MISS', 'HIT']);
    // Another query string is another entry.
    expect(await cacheOf(`${url}&_=1`)).toBe('MISS');
    await site.createPost({ title: 'Moves the version', status: 'publish' });
    expect([await cacheOf(url), await cacheOf(url), await cacheOf(url)]).toEqual(['MISS', 'MISS', 'HIT']);
  });
});
