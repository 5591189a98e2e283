// Totals that take long to count (src/db/version-cache.ts `slowMs`): after a write the first
// reader gets the total from before it while it is counted again, and the response cache does not
// keep that answer. Here every count counts as slow (slowCounts.ms = 0).
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { createTestSite, type TestSite } from '../helpers/app.js';
import { slowCounts } from '../../src/db/version-cache.js';

let site: TestSite;
const threshold = slowCounts.ms;
beforeAll(async () => { site = await createTestSite(); });
afterAll(async () => { await site?.close(); });
afterEach(() => { slowCounts.ms = threshold; });

const total = (res: { headers: Headers }) => Number(res.headers.get('x-wp-total'));

describe('slow totals', () => {
  it.each([
    ['a search', '/core/v2/posts?search=quokka'],
    ['a list', '/core/v2/posts?categories=CAT'],
  ])('%s: the total from before a write while it is counted again, never kept by the response cache', async (_name, pathTemplate) => {
    const cat = await site.createTerm('categories', { name: `Slow ${Math.random()}` });
    const path = pathTemplate.replace('CAT', String(cat.id));
    for (let i = 0; i < 3; i++) await site.createPost({ title: `Quokka ${i} ${cat.id}`, status: 'publish', categories: [cat.id] });
    slowCounts.ms = 0;
    const first = await site.req('GET', path);
    expect(first.status).toBe(200);
    const before = total(first);
    expect(before).toBeGreaterThanOrEqual(3);
    const created = await site.createPost({ title: `Quokka new ${cat.id}`, status: 'publish', categories: [cat.id] });

    // The page is read anew (the new post is on it); its total is the one from before the write.
    const stale = await site.req('GET', path);
    expect(stale.status).toBe(200);
    expect(stale.body.map((p: { id: number }) => p.id)).toContain(created.id);
    expect(total(stale)).toBe(before);
    expect(stale.headers.get('x-wp-totalpages')).toBe(String(Math.ceil(before / 10)));

    // The recount has settled by now: the next answers carry it, and the stale one was not cached.
    for (let i = 0; i < 3; i++) {
      const res = await site.req('GET', path);
      expect(total(res)).toBe(before + 1);
    }
  });

  it('an answer given with an old total is not cached, even when asked for twice during the recount', async () => {
    const path = '/core/v2/posts?search=bilby';
    await site.createPost({ title: 'Bilby one', status: 'publish' });
    slowCounts.ms = 0;
    expect(total(await site.req('GET', path))).toBe(1);
    await site.createPost({ title: 'Bilby two', status: 'publish' });
    // The recount takes 200 ms: both reads below come while it runs (the cache would keep the
    // second ask of a version's answer).
    const read = site.db.read.bind(site.db);
    site.db.read = async (sql, args) => {
      if (/COUNT\(\*\)/.test(sql) && sql.includes('bilby') === false && args.some((a) => String(a).includes('bilby'))) await new Promise((r) => setTimeout(r, 200));
      return read(sql, args);
    };
    try {
      expect(total(await site.req('GET', path))).toBe(1);
      const second = await site.req('GET', path);
      expect(total(second)).toBe(1);
      await new Promise((r) => setTimeout(r, 300));
      const settled = await site.req('GET', path);
      expect(settled.headers.get('x-cache')).toBe('MISS');
      expect(total(settled)).toBe(2);
    } finally {
      site.db.read = read;
    }
  });

  it('a count that is fast is waited for after a write, as before', async () => {
    const path = '/core/v2/posts?search=wombat';
    await site.createPost({ title: 'Wombat one', status: 'publish' });
    expect(total(await site.req('GET', path))).toBe(1);
    await site.createPost({ title: 'Wombat two', status: 'publish' });
    expect(total(await site.req('GET', path))).toBe(2);
  });
});
