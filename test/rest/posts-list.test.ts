import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestSite, API, type TestSite } from '../helpers/app.js';

let site: TestSite;
const ids: number[] = [];

beforeAll(async () => {
  site = await createTestSite();
  // 12 published posts an hour apart, by two authors, plus a draft and a private post.
  for (let i = 0; i < 12; i++) {
    const as = i % 2 ? 'author' : 'editor';
    const res = await site.req('POST', '/core/v2/posts', {
      as, json: { title: `Post ${i} ${i % 3 === 0 ? 'apple' : 'pear'}`, content: `Body ${i}`, status: 'publish', date: `2024-01-01T${String(i).padStart(2, '0')}:00:00` },
    });
    ids.push(res.body.id);
  }
  await site.req('POST', '/core/v2/posts', { as: 'author', json: { title: 'A draft apple', status: 'draft' } });
  await site.req('POST', '/core/v2/posts', { as: 'editor', json: { title: 'Private apple', status: 'private' } });
});
afterAll(async () => { await site?.close(); });

const list = (query = '', as?: 'administrator' | 'editor' | 'author' | 'contributor' | 'subscriber') => site.req('GET', `/core/v2/posts${query}`, { as });

describe('PostsList', () => {
  it('lists published posts newest first with paging headers', async () => {
    const res = await list();
    expect(res.status).toBe(200);
    expect(res.body).toHaveLength(10);
    expect(res.body.map((p: { id: number }) => p.id)).toEqual(ids.slice(2).reverse());
    expect(res.headers.get('x-wp-total')).toBe('12');
    expect(res.headers.get('x-wp-totalpages')).toBe('2');
    expect(res.headers.get('link')).toBe(`<${API}/core/v2/posts?page=2>; rel="next"`);
  });

  it('links prev and next in the middle, keeping the query', async () => {
    const res = await list('?per_page=4&page=2&order=asc');
    expect(res.body.map((p: { id: number }) => p.id)).toEqual(ids.slice(4, 8));
    expect(res.headers.get('link')).toBe(
      `<${API}/core/v2/posts?per_page=4&page=1&order=asc>; rel="prev", <${API}/core/v2/posts?per_page=4&page=3&order=asc>; rel="next"`,
    );
  });

  it('rejects a page beyond the end and out-of-bounds paging', async () => {
    expect(await list('?page=5')).toBeWpError(400, 'rest_post_invalid_page_number');
    for (const q of ['?per_page=0', '?per_page=101', '?per_page=-1', '?page=0']) {
      const res = await list(q);
      expect(res, q).toBeWpError(400, 'rest_invalid_param');
      expect(Object.values(res.body.data.details as Record<string, { code: string }>)[0].code).toBe('rest_out_of_bounds');
    }
    expect(await list('?per_page=abc')).toBeWpError(400, 'rest_invalid_param');
  });

  it('filters by search, include, exclude, author, slug, dates and offset', async () => {
    const titles = (res: { body: { title: { rendered: string } }[] }) => res.body.map((p) => p.title.rendered);
    expect(titles(await list('?search=apple'))).toEqual(['Post 9 apple', 'Post 6 apple', 'Post 3 apple', 'Post 0 apple']);
    expect(titles(await list('?search=apple%20-Post%209'))).not.toContain('Post 9 apple');
    expect((await list(`?include=${ids[1]},${ids[2]}`)).body.map((p: { id: number }) => p.id).sort()).toEqual([ids[1], ids[2]].sort());
    expect((await list(`?include[]=${ids[1]}&include[]=${ids[3]}`)).body).toHaveLength(2);
    expect((await list(`?exclude=${ids[11]}`)).body[0].id).toBe(ids[10]);
    expect((await list(`?author=${site.users.author.id}&per_page=100`)).body).toHaveLength(6);
    expect((await list(`?author_exclude=${site.users.author.id}&per_page=100`)).body).toHaveLength(6);
    expect((await list('?slug=post-4-pear')).body.map((p: { id: number }) => p.id)).toEqual([ids[4]]);
    expect((await list('?after=2024-01-01T09:00:00')).body.map((p: { id: number }) => p.id)).toEqual([ids[11], ids[10]]);
    expect((await list('?before=2024-01-01T02:00:00')).body.map((p: { id: number }) => p.id)).toEqual([ids[1], ids[0]]);
    expect((await list('?offset=10')).body.map((p: { id: number }) => p.id)).toEqual([ids[1], ids[0]]);
    expect((await list('?orderby=title&order=asc&per_page=3')).body.map((p: { title: { rendered: string } }) => p.title.rendered)).toEqual(['Post 0 apple', 'Post 1 pear', 'Post 10 pear']);
  });

  it('keeps non-public statuses to those who may see them', async () => {
    const anon = await list('?status=draft');
    expect(anon).toBeWpError(400, 'rest_invalid_param');
    expect(anon.body.data.details.status).toEqual({ code: 'rest_forbidden_status', message: 'Status is forbidden.', data: { status: 401 } });
    const sub = await list('?status=draft', 'subscriber');
    expect(sub.body.data.details.status.data.status).toBe(403);
    const editor = await list('?status=draft,private', 'editor');
    expect(editor.body.map((p: { title: { rendered: string } }) => p.title.rendered).sort()).toEqual(['A draft apple', 'Private apple']);
    // A contributor may ask for any status but sees only what it may read.
    const contributor = await list('?status=any&per_page=100', 'contributor');
    expect(contributor.status).toBe(200);
    expect(contributor.body.map((p: { status: string }) => p.status)).not.toContain('draft');
    expect(Number(contributor.headers.get('x-wp-total'))).toBe(14);
  });

  it('checks orderby misuse and edit context', async () => {
    expect(await list('?orderby=relevance')).toBeWpError(400, 'rest_no_search_term_defined');
    expect(await list('?orderby=include')).toBeWpError(400, 'rest_orderby_include_missing_include');
    expect(await list('?orderby=bogus')).toBeWpError(400, 'rest_invalid_param');
    expect(await list('?context=edit')).toBeWpError(401, 'rest_forbidden_context');
    expect(await list('?context=edit', 'subscriber')).toBeWpError(403, 'rest_forbidden_context');
    expect((await list('?context=edit', 'contributor')).body[0].title.raw).toBeDefined();
  });

  it('costs the same number of SQL statements whatever per_page is', async () => {
    const cost = async (query: string) => {
      site.app.cache && (await site.req('POST', '/core/v2/posts', { as: 'administrator', json: { title: 'bust cache', status: 'draft' } }));
      const before = site.db.statements;
      const res = await list(query);
      expect(res.status).toBe(200);
      return site.db.statements - before;
    };
    const one = await cost('?per_page=1&page=2');
    const hundred = await cost('?per_page=100&page=1');
    expect(one).toBe(hundred);
    // The rows with their terms, their footnotes meta and their revision stats as columns, and the count.
    expect(one).toBe(2);
    // A search adds exactly the full-text lookup, and on PostgreSQL the count of the list without
    // the word (its plan choice; both counts are kept until the next write).
    expect(await cost('?per_page=1&search=Post')).toBe(await cost('?per_page=100&search=Post'));
    expect(await cost('?per_page=100&search=Post')).toBe(hundred + (site.db.provider === 'postgres' ? 2 : 1));
  });
});
