// The cold read path's statement budget, and that what it keeps between requests (term slugs,
// rendered text) follows writes.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestSite, type TestSite } from '../helpers/app.js';

let site: TestSite;
let category: { id: number; slug: string };
let ids: number[];

beforeAll(async () => {
  site = await createTestSite({ cacheEntries: 0 });
  category = await site.createTerm('categories', { name: 'Gardens' });
  ids = [];
  for (let i = 0; i < 3; i++) ids.push((await site.createPost({ title: `Read ${i}`, content: 'Short.', status: 'publish', categories: [category.id] })).id);
});
afterAll(async () => { await site?.close(); });

const statementsOf = async (path: string) => {
  const before = site.db.statements;
  const res = await site.req('GET', path);
  expect(res.status).toBe(200);
  return { res, statements: site.db.statements - before };
};

describe('cold reads', () => {
  it('one post: the row with its meta and terms and its revision stats; term slugs once per database version', async () => {
    // A write that renders no post moves the database version: what is kept per version goes.
    expect((await site.req('POST', '/core/v2/tags', { as: 'administrator', json: { name: `moves the version ${Date.now()}` } })).status).toBe(201);
    const first = await statementsOf(`/core/v2/posts/${ids[0]}`);
    expect(first.res.body.class_list).toContain('category-gardens');
    const second = await statementsOf(`/core/v2/posts/${ids[1]}`);
    expect(second.res.body.class_list).toContain('category-gardens');
    // The row is read once (the rights check's read is the answer), with its meta, terms and
    // revision stats in the same statement; the term slugs only on the first read of a version.
    const row = 1;
    expect(second.statements).toBe(row);
    expect(first.statements).toBe(row + 1);
  });

  it('class_list follows a renamed category at once', async () => {
    await statementsOf(`/core/v2/posts/${ids[2]}`);
    const renamed = await site.req('POST', `/core/v2/categories/${category.id}`, { as: 'administrator', json: { slug: 'orchards' } });
    expect(renamed.status).toBe(200);
    const res = await site.req('GET', `/core/v2/posts/${ids[2]}`);
    expect(res.body.class_list).toContain('category-orchards');
    expect(res.body.class_list).not.toContain('category-gardens');
    const list = await site.req('GET', '/core/v2/posts');
    expect(list.body.find((p: { id: number }) => p.id === ids[2]).class_list).toContain('category-orchards');
  });

  it('a changed title is rendered anew (rendered text is kept by its raw text)', async () => {
    expect((await site.req('GET', `/core/v2/posts/${ids[0]}`)).body.title.rendered).toBe('Read 0');
    const updated = await site.req('POST', `/core/v2/posts/${ids[0]}`, { as: 'administrator', json: { title: 'Read "again"' } });
    expect(updated.status).toBe(200);
    expect((await site.req('GET', `/core/v2/posts/${ids[0]}`)).body.title.rendered).toBe('Read &#8220;again&#8221;');
  });
});
