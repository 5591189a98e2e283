// Term counts under concurrent writes: creates (which add one to each term) and updates (which
// recount) of posts in the same terms at once must all succeed and leave every count equal to the
// published posts linked to the term. On PostgreSQL the writes run on several connections at once
// (read committed): without the term rows locked in id order, a recount misses a link another
// transaction has not committed yet, and opposite lock orders deadlock (500). The content tallies
// the same writes keep (folded in at commit in one order on PostgreSQL) must not deadlock either.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestSite, type TestSite } from '../helpers/app.js';

let site: TestSite;
beforeAll(async () => { site = await createTestSite(); });
afterAll(async () => { await site?.close(); });

describe('term counts under concurrent writes', () => {
  it('are right after many creates and updates of posts in the same terms at once', async () => {
    const cats = await Promise.all(['one', 'two', 'three'].map((name) => site.createTerm('categories', { name: `concurrent ${name}` })));
    const tags = await Promise.all(['one', 'two'].map((name) => site.createTerm('tags', { name: `concurrent ${name}` })));
    const ids = (list: { id: number }[], pick: number[]) => pick.map((i) => list[i].id);
    const existing = await Promise.all(Array.from({ length: 6 }, (_, i) => site.createPost({ title: `existing ${i}`, status: 'publish', categories: ids(cats, [i % 3]), tags: ids(tags, [i % 2]) })));

    const writes = [
      // Creates in ascending and descending term order, updates moving posts between terms.
      ...Array.from({ length: 12 }, (_, i) => site.req('POST', '/core/v2/posts', { as: 'administrator', json: { title: `new ${i}`, status: 'publish', categories: ids(cats, i % 2 ? [0, 1, 2] : [2, 1, 0]), tags: ids(tags, i % 2 ? [0, 1] : [1, 0]) } })),
      ...existing.map((post, i) => site.req('POST', `/core/v2/posts/${post.id}`, { as: 'administrator', json: { categories: ids(cats, i % 2 ? [2, 0] : [1]), tags: ids(tags, i % 2 ? [1] : [0, 1]) } })),
      ...existing.slice(0, 2).map((post) => site.req('POST', `/core/v2/posts/${post.id}`, { as: 'administrator', json: { status: 'draft' } })),
    ];
    const answers = await Promise.all(writes);
    for (const res of answers) expect([200, 201], res.text.slice(0, 300)).toContain(res.status);

    for (const term of [...cats, ...tags]) {
      const route = term.taxonomy === 'category' ? 'categories' : 'tags';
      const read = await site.req('GET', `/core/v2/${route}/${term.id}`);
      const posts = await site.req('GET', `/core/v2/posts?${route}=${term.id}&per_page=100&_fields=id`);
      expect(read.status).toBe(200);
      expect(posts.status).toBe(200);
      expect(read.body.count, `${route} ${term.id}`).toBe(posts.body.length);
      // The list's total (from the content tallies, which the same writes kept) says the same.
      expect(Number(posts.headers.get('x-wp-total')), `${route} ${term.id} total`).toBe(posts.body.length);
    }
  });
});
