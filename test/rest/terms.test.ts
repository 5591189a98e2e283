// core/v2/categories and core/v2/tags: list parameters, read, create, update, delete, rights,
// record fields per context, counts of published posts, the default category.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestSite, API, SITE, type As, type TestResponse as Res, type TestSite } from '../helpers/app.js';

let site: TestSite;
let uncategorized: number;
beforeAll(async () => {
  site = await createTestSite();
  const res = await site.req('GET', '/core/v2/categories?slug=uncategorized');
  uncategorized = res.body[0].id;
});
afterAll(async () => { await site?.close(); });

type Base = 'categories' | 'tags';

const create = (base: Base, json: Record<string, unknown>, as: As = 'editor') => site.req('POST', `/core/v2/${base}`, { as, json });
const term = (base: Base, json: Record<string, unknown>) => site.createTerm(base, json, 'editor');
const get = (path: string, as?: As) => site.req('GET', `/core/v2/${path}`, { as });
const names = (res: Res): string[] => {
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return (res.body as { name: string }[]).map((t) => t.name);
};
const idsOf = (res: Res): number[] => {
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return (res.body as { id: number }[]).map((t) => t.id);
};

describe('category list', () => {
  const c: Record<string, any> = {};
  let withPost: any;
  beforeAll(async () => {
    c.gamma = await term('categories', { name: 'Gamma', description: 'third' });
    c.alpha = await term('categories', { name: 'Alpha', slug: 'first-letter' });
    c.beta = await term('categories', { name: 'Beta' });
    c.betaChild = await term('categories', { name: 'Beta child', parent: c.beta.id });
    withPost = await site.createPost({ title: 'In two categories', status: 'publish', categories: [c.gamma.id, c.beta.id] });
    await site.createPost({ title: 'In gamma too', status: 'publish', categories: [c.gamma.id] });
  });

  it('lists by name ascending by default, the default category included', async () => {
    const res = await get('categories');
    expect(names(res)).toEqual(['Alpha', 'Beta', 'Beta child', 'Gamma', 'Uncategorized']);
    expect(res.headers.get('x-wp-total')).toBe('5');
    expect(res.headers.get('x-wp-totalpages')).toBe('1');
    expect(names(await get('categories?order=desc'))).toEqual(['Uncategorized', 'Gamma', 'Beta child', 'Beta', 'Alpha']);
  });

  it('pages with page and per_page', async () => {
    const res = await get('categories?per_page=2&page=2');
    expect(names(res)).toEqual(['Beta child', 'Gamma']);
    expect(res.headers.get('x-wp-total')).toBe('5');
    expect(res.headers.get('x-wp-totalpages')).toBe('3');
    expect(res.headers.get('link')).toContain('rel="next"');
    expect(await get('categories?per_page=101')).toBeWpError(400, 'rest_invalid_param');
    expect(await get('categories?page=0')).toBeWpError(400, 'rest_invalid_param');
  });

  it('searches names (and slugs) by substring', async () => {
    expect(names(await get('categories?search=eta'))).toEqual(['Beta', 'Beta child']);
    expect(names(await get('categories?search=first-let'))).toEqual(['Alpha']);
    expect(names(await get('categories?search=nothing-like-it'))).toEqual([]);
  });

  it('searches without regard to case (as MySQL LIKE does)', async () => {
    expect(names(await get('categories?search=GAM'))).toEqual(['Gamma']);
    expect(names(await get('categories?search=beta'))).toEqual(['Beta', 'Beta child']);
  });

  it('filters by include, exclude and slug', async () => {
    expect(names(await get(`categories?include=${c.gamma.id},${c.alpha.id}`))).toEqual(['Alpha', 'Gamma']);
    expect(names(await get(`categories?exclude=${c.gamma.id},${uncategorized}`))).toEqual(['Alpha', 'Beta', 'Beta child']);
    expect(names(await get('categories?slug=beta'))).toEqual(['Beta']);
    expect(names(await get('categories?slug=beta,first-letter'))).toEqual(['Alpha', 'Beta']);
    expect(names(await get('categories?slug=alpha'))).toEqual([]);
  });

  it('orders by id, slug, count, include and include_slugs', async () => {
    expect(idsOf(await get('categories?orderby=id&order=asc'))).toEqual([uncategorized, c.gamma.id, c.alpha.id, c.beta.id, c.betaChild.id]);
    expect(names(await get('categories?orderby=slug'))).toEqual(['Beta', 'Beta child', 'Alpha', 'Gamma', 'Uncategorized']);
    const byCount = await get('categories?orderby=count&order=desc');
    expect(names(byCount).slice(0, 2)).toEqual(['Gamma', 'Beta']);
    expect(byCount.body.map((t: { count: number }) => t.count).slice(0, 2)).toEqual([2, 1]);
    expect(idsOf(await get(`categories?include=${c.beta.id},${c.gamma.id},${c.alpha.id}&orderby=include`))).toEqual([c.beta.id, c.gamma.id, c.alpha.id]);
    expect(names(await get('categories?slug=gamma,first-letter,beta&orderby=include_slugs'))).toEqual(['Gamma', 'Alpha', 'Beta']);
    const bad = await get('categories?orderby=date');
    expect(bad).toBeWpError(400, 'rest_invalid_param');
    expect(bad.body.data.details.orderby.code).toBe('rest_not_in_enum');
  });

  it('hides empty terms with hide_empty', async () => {
    expect(names(await get('categories?hide_empty=true'))).toEqual(['Beta', 'Gamma']);
    expect(names(await get('categories?hide_empty=false'))).toHaveLength(5);
  });

  it('filters by parent (0 = top level)', async () => {
    expect(names(await get('categories?parent=0'))).toEqual(['Alpha', 'Beta', 'Gamma', 'Uncategorized']);
    expect(names(await get(`categories?parent=${c.beta.id}`))).toEqual(['Beta child']);
    expect(names(await get(`categories?parent=${c.alpha.id}`))).toEqual([]);
  });

  it('lists the terms of one post with post=', async () => {
    expect(names(await get(`categories?post=${withPost.id}`))).toEqual(['Beta', 'Gamma']);
    const tagless = await get(`tags?post=${withPost.id}`);
    expect(tagless.status).toBe(200);
    expect(tagless.body).toEqual([]);
  });

  it('refuses post= naming no post with rest_post_invalid_id 400', async () => {
    expect(await get('categories?post=987654')).toBeWpError(400, 'rest_post_invalid_id');
    expect(await get('tags?post=987654')).toBeWpError(400, 'rest_post_invalid_id');
  });

  it('refuses post= of a post the caller may not read with rest_forbidden_context 401/403', async () => {
    const draft = await site.createPost({ title: 'Unpublished', categories: [c.alpha.id] });
    expect(await get(`categories?post=${draft.id}`)).toBeWpError(401, 'rest_forbidden_context');
    expect(await get(`categories?post=${draft.id}`, 'subscriber')).toBeWpError(403, 'rest_forbidden_context');
    expect(names(await get(`categories?post=${draft.id}`, 'editor'))).toEqual(['Alpha']);
  });

  it('refuses edit context to those who cannot manage terms', async () => {
    expect(await get('categories?context=edit')).toBeWpError(401, 'rest_forbidden_context');
    expect(await get('categories?context=edit', 'author')).toBeWpError(403, 'rest_forbidden_context');
    expect((await get('categories?context=edit', 'editor')).status).toBe(200);
  });
});

describe('tag list', () => {
  beforeAll(async () => {
    for (const name of ['Zebra', 'Apple', 'Mango']) await term('tags', { name });
  });

  it('lists tags by name ascending, with paging headers', async () => {
    const res = await get('tags');
    expect(names(res)).toEqual(['Apple', 'Mango', 'Zebra']);
    expect(res.headers.get('x-wp-total')).toBe('3');
    const paged = await get('tags?per_page=1&page=3&orderby=name&order=asc');
    expect(names(paged)).toEqual(['Zebra']);
    expect(paged.headers.get('x-wp-totalpages')).toBe('3');
    expect(names(await get('tags?search=ang'))).toEqual(['Mango']);
    expect(names(await get('tags?slug=zebra'))).toEqual(['Zebra']);
    expect(names(await get('tags?orderby=id&order=desc'))).toEqual(['Mango', 'Apple', 'Zebra']);
  });
});

describe('term records', () => {
  let parent: any, child: any, tag: any;
  beforeAll(async () => {
    parent = await term('categories', { name: 'Records parent', description: 'A <b>bold</b> one' });
    child = await term('categories', { name: 'Records child', parent: parent.id });
    tag = await term('tags', { name: 'Records tag' });
  });

  it('creates with 201, Location and the edit record', async () => {
    const res = await create('categories', { name: 'Hello World!' });
    expect(res.status).toBe(201);
    expect(res.headers.get('location')).toBe(`${API}/core/v2/categories/${res.body.id}`);
    expect(res.body).toMatchObject({ name: 'Hello World!', slug: 'hello-world', taxonomy: 'category', parent: 0, count: 0, description: '' });
    expect(child.parent).toBe(parent.id);
  });

  it('serves categories with their view, edit and embed field sets', async () => {
    const view = await get(`categories/${parent.id}`);
    expect(view.status).toBe(200);
    expect(Object.keys(view.body).sort()).toEqual(['_links', 'count', 'description', 'id', 'link', 'meta', 'name', 'parent', 'slug', 'taxonomy']);
    expect(view.body).toMatchObject({ id: parent.id, count: 0, description: 'A <b>bold</b> one', link: `${SITE}/category/records-parent/`, name: 'Records parent', slug: 'records-parent', taxonomy: 'category', parent: 0, meta: [] });
    const edit = await get(`categories/${parent.id}?context=edit`, 'editor');
    expect(Object.keys(edit.body).sort()).toEqual(Object.keys(view.body).sort());
    const embed = await get(`categories/${parent.id}?context=embed`);
    expect(Object.keys(embed.body).sort()).toEqual(['_links', 'id', 'link', 'name', 'slug', 'taxonomy']);
  });

  it('refuses a single term in edit context to those who cannot edit it (401/403 rest_forbidden_context)', async () => {
    expect(await get(`categories/${parent.id}?context=edit`)).toBeWpError(401, 'rest_forbidden_context');
    expect(await get(`tags/${tag.id}?context=edit`, 'author')).toBeWpError(403, 'rest_forbidden_context');
  });

  it('serves tags without parent', async () => {
    const view = await get(`tags/${tag.id}`);
    expect(Object.keys(view.body).sort()).toEqual(['_links', 'count', 'description', 'id', 'link', 'meta', 'name', 'slug', 'taxonomy']);
    expect(view.body).toMatchObject({ taxonomy: 'post_tag', slug: 'records-tag', link: `${SITE}/tag/records-tag/` });
    const embed = await get(`tags/${tag.id}?context=embed`);
    expect(Object.keys(embed.body).sort()).toEqual(['_links', 'id', 'link', 'name', 'slug', 'taxonomy']);
  });

  it('links terms: self, collection, about, up for children, wp:post_type, curies', async () => {
    const res = await get(`categories/${child.id}`);
    expect(res.body.link).toBe(`${SITE}/category/records-parent/records-child/`);
    const l = res.body._links;
    expect(l.self).toEqual([{ href: `${API}/core/v2/categories/${child.id}` }]);
    expect(l.collection).toEqual([{ href: `${API}/core/v2/categories` }]);
    expect(l.about).toEqual([{ href: `${API}/core/v2/taxonomies/category` }]);
    expect(l.up).toEqual([{ embeddable: true, href: `${API}/core/v2/categories/${parent.id}` }]);
    expect(l['wp:post_type']).toEqual([{ href: `${API}/core/v2/posts?categories=${child.id}` }]);
    expect(l.curies).toEqual([{ name: 'wp', href: 'https://api.w.org/{rel}', templated: true }]);
    expect((await get(`categories/${parent.id}`)).body._links.up).toBeUndefined();
    expect((await get(`tags/${tag.id}`)).body._links.about).toEqual([{ href: `${API}/core/v2/taxonomies/post_tag` }]);
  });

  it('answers unknown term ids with rest_term_invalid 404', async () => {
    expect(await get('categories/987654')).toBeWpError(404, 'rest_term_invalid');
    expect(await get(`tags/${parent.id}`)).toBeWpError(404, 'rest_term_invalid');
    expect(await get(`categories/${tag.id}`)).toBeWpError(404, 'rest_term_invalid');
  });
});

describe('create errors and rights', () => {
  it('requires a name', async () => {
    const res = await create('categories', { description: 'no name' });
    expect(res).toBeWpError(400, 'rest_missing_callback_param');
    expect(res.body.data.params).toEqual(['name']);
    expect(await create('tags', {})).toBeWpError(400, 'rest_missing_callback_param');
  });

  it('refuses a duplicate name under the same parent with term_exists', async () => {
    const first = await term('categories', { name: 'Duplicate me' });
    const dup = await create('categories', { name: 'Duplicate me' });
    expect(dup).toBeWpError(400, 'term_exists');
    expect(dup.body.data.term_id).toBe(first.id);
    const tag = await term('tags', { name: 'Twice' });
    const dupTag = await create('tags', { name: 'Twice' });
    expect(dupTag).toBeWpError(400, 'term_exists');
    expect(dupTag.body.data.term_id).toBe(tag.id);
    // The same name under another parent is a different category.
    const other = await create('categories', { name: 'Duplicate me', parent: first.id });
    expect(other.status).toBe(201);
    expect(other.body.parent).toBe(first.id);
  });

  it('refuses an unknown parent with rest_term_invalid 400', async () => {
    const before = await site.db.prisma.term.count();
    expect(await create('categories', { name: 'Lost child', parent: 987654 })).toBeWpError(400, 'rest_term_invalid');
    expect(await site.db.prisma.term.count()).toBe(before);
  });

  it('lets editors and administrators create terms, not anonymous callers, authors or contributors', async () => {
    for (const base of ['categories', 'tags'] as const) {
      expect(await site.req('POST', `/core/v2/${base}`, { json: { name: `Anon ${base}` } }), base).toBeWpError(401, 'rest_cannot_create');
      expect(await create(base, { name: `Author ${base}` }, 'author'), base).toBeWpError(403, 'rest_cannot_create');
      expect(await create(base, { name: `Contributor ${base}` }, 'contributor'), base).toBeWpError(403, 'rest_cannot_create');
      expect(await create(base, { name: `Subscriber ${base}` }, 'subscriber'), base).toBeWpError(403, 'rest_cannot_create');
      expect((await create(base, { name: `Admin ${base}` }, 'administrator')).status, base).toBe(201);
    }
    expect(names(await get('categories?search=Author'))).toEqual([]);
  });
});

describe('update', () => {
  it('updates name, description, slug and parent partially', async () => {
    const t = await term('categories', { name: 'Before', description: 'old' });
    const p = await term('categories', { name: 'New parent' });
    const res = await site.req('POST', `/core/v2/categories/${t.id}`, { as: 'editor', json: { name: 'After' } });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ id: t.id, name: 'After', slug: 'before', description: 'old' });
    const res2 = await site.req('PATCH', `/core/v2/categories/${t.id}`, { as: 'editor', json: { slug: 'after', parent: p.id, description: 'new' } });
    expect(res2.body).toMatchObject({ name: 'After', slug: 'after', parent: p.id, description: 'new', link: `${SITE}/category/new-parent/after/` });
    expect((await get(`categories/${t.id}`)).body.name).toBe('After');
    const tag = await term('tags', { name: 'Old tag' });
    const tagRes = await site.req('PUT', `/core/v2/tags/${tag.id}`, { as: 'administrator', json: { name: 'New tag' } });
    expect(tagRes.status).toBe(200);
    expect(tagRes.body.name).toBe('New tag');
  });

  it('answers bad updates with WordPress codes', async () => {
    const t = await term('categories', { name: 'Guarded term' });
    expect(await site.req('PATCH', '/core/v2/categories/987654', { as: 'editor', json: { name: 'x' } })).toBeWpError(404, 'rest_term_invalid');
    expect(await site.req('PATCH', `/core/v2/categories/${t.id}`, { as: 'editor', json: { parent: 987654 } })).toBeWpError(400, 'rest_term_invalid');
    expect(await site.req('PATCH', `/core/v2/categories/${t.id}`, { json: { name: 'x' } })).toBeWpError(401, 'rest_cannot_update');
    expect(await site.req('PATCH', `/core/v2/categories/${t.id}`, { as: 'author', json: { name: 'x' } })).toBeWpError(403, 'rest_cannot_update');
    expect((await get(`categories/${t.id}`)).body).toMatchObject({ name: 'Guarded term', parent: 0 });
  });
});

describe('delete', () => {
  it('needs force=true (501 rest_trash_not_supported), then answers deleted + previous', async () => {
    const t = await term('categories', { name: 'Doomed' });
    expect(await site.req('DELETE', `/core/v2/categories/${t.id}`, { as: 'editor' })).toBeWpError(501, 'rest_trash_not_supported');
    expect(await site.req('DELETE', `/core/v2/categories/${t.id}?force=false`, { as: 'editor' })).toBeWpError(501, 'rest_trash_not_supported');
    expect((await get(`categories/${t.id}`)).status).toBe(200);
    const res = await site.req('DELETE', `/core/v2/categories/${t.id}?force=true`, { as: 'editor' });
    expect(res.status).toBe(200);
    expect(res.body.deleted).toBe(true);
    expect(res.body.previous).toMatchObject({ id: t.id, name: 'Doomed', slug: 'doomed', taxonomy: 'category' });
    expect(await get(`categories/${t.id}`)).toBeWpError(404, 'rest_term_invalid');
    expect(await site.req('DELETE', `/core/v2/categories/${t.id}?force=true`, { as: 'editor' })).toBeWpError(404, 'rest_term_invalid');
    // A post left without a category goes to the default one, which is recounted.
    const only = await term('categories', { name: 'Only home' });
    const defaultCount = async () => (await get('categories/1')).body.count;
    const before = await defaultCount();
    const post = await site.req('POST', '/core/v2/posts', { as: 'editor', json: { title: 'Homeless soon', status: 'publish', categories: [only.id] } });
    expect(post.status).toBe(201);
    expect(await defaultCount()).toBe(before);
    expect((await site.req('DELETE', `/core/v2/categories/${only.id}?force=true`, { as: 'editor' })).status).toBe(200);
    expect(await defaultCount()).toBe(before + 1);
    expect((await site.req('GET', `/core/v2/posts/${post.body.id}`)).body.categories).toEqual([1]);
    const tag = await term('tags', { name: 'Doomed tag' });
    expect(await site.req('DELETE', `/core/v2/tags/${tag.id}`, { as: 'editor' })).toBeWpError(501, 'rest_trash_not_supported');
    expect((await site.req('DELETE', `/core/v2/tags/${tag.id}?force=true`, { as: 'editor' })).body.deleted).toBe(true);
  });

  it('refuses deletes without the right, and the default category even to an administrator', async () => {
    const t = await term('categories', { name: 'Kept' });
    expect(await site.req('DELETE', `/core/v2/categories/${t.id}?force=true`)).toBeWpError(401, 'rest_cannot_delete');
    expect(await site.req('DELETE', `/core/v2/categories/${t.id}?force=true`, { as: 'author' })).toBeWpError(403, 'rest_cannot_delete');
    expect(await site.req('DELETE', `/core/v2/categories/${uncategorized}?force=true`, { as: 'administrator' })).toBeWpError(403, 'rest_cannot_delete');
    expect((await get(`categories/${uncategorized}`)).body.name).toBe('Uncategorized');
    expect((await get(`categories/${t.id}`)).status).toBe(200);
  });

  it('moves posts left without a category to the default category, and children up to the parent', async () => {
    const top = await term('categories', { name: 'Top level' });
    const doomed = await term('categories', { name: 'Going away', parent: top.id });
    const grandchild = await term('categories', { name: 'Grandchild', parent: doomed.id });
    const keep = await term('categories', { name: 'Staying' });
    const only = await site.createPost({ title: 'Only in the doomed one', status: 'publish', categories: [doomed.id] });
    const both = await site.createPost({ title: 'In two', status: 'publish', categories: [doomed.id, keep.id] });
    expect((await site.req('DELETE', `/core/v2/categories/${doomed.id}?force=true`, { as: 'editor' })).status).toBe(200);
    expect((await get(`posts/${only.id}`)).body.categories).toEqual([uncategorized]);
    expect((await get(`posts/${both.id}`)).body.categories).toEqual([keep.id]);
    expect((await get(`categories/${grandchild.id}`)).body.parent).toBe(top.id);
  });
});

describe('terms on posts', () => {
  it('gives a post created without categories the default category', async () => {
    const p = await site.createPost({ title: 'No category given', status: 'publish' });
    expect(p.categories).toEqual([uncategorized]);
    const c = await term('categories', { name: 'Chosen' });
    const q = await site.createPost({ title: 'Category given', status: 'publish', categories: [c.id] });
    expect(q.categories).toEqual([c.id]);
    expect(q.tags).toEqual([]);
  });

  it('refuses unknown term ids with rest_invalid_param and stores nothing', async () => {
    const before = await site.db.prisma.content.count();
    expect(await site.req('POST', '/core/v2/posts', { as: 'editor', json: { title: 'Bad terms', categories: [987654] } })).toBeWpError(400, 'rest_invalid_param');
    expect(await site.req('POST', '/core/v2/posts', { as: 'editor', json: { title: 'Bad tags', tags: [987654] } })).toBeWpError(400, 'rest_invalid_param');
    expect(await site.db.prisma.content.count()).toBe(before);
    const tag = await term('tags', { name: 'Good tag' });
    const p = await site.createPost({ title: 'Tagged', status: 'publish', tags: [tag.id] });
    const bad = await site.req('PATCH', `/core/v2/posts/${p.id}`, { as: 'editor', json: { title: 'Renamed', tags: [tag.id, 987654] } });
    expect(bad).toBeWpError(400, 'rest_invalid_param');
    const after = (await get(`posts/${p.id}`)).body;
    expect(after.tags).toEqual([tag.id]);
    expect(after.title.rendered).toBe('Tagged');
    // A category id is not a tag id.
    const cat = await term('categories', { name: 'Not a tag' });
    expect(await site.req('PATCH', `/core/v2/posts/${p.id}`, { as: 'editor', json: { tags: [cat.id] } })).toBeWpError(400, 'rest_invalid_param');
  });

  it('counts published posts only', async () => {
    const c = await term('categories', { name: 'Counted' });
    const t = await term('tags', { name: 'Counted tag' });
    const count = async () => [(await get(`categories/${c.id}`)).body.count, (await get(`tags/${t.id}`)).body.count];
    const draft = await site.createPost({ title: 'Draft counted?', categories: [c.id], tags: [t.id] });
    await site.createPost({ title: 'Private counted?', status: 'private', categories: [c.id], tags: [t.id] });
    expect(await count()).toEqual([0, 0]);
    await site.req('PATCH', `/core/v2/posts/${draft.id}`, { as: 'administrator', json: { status: 'publish' } });
    expect(await count()).toEqual([1, 1]);
    const second = await site.createPost({ title: 'Second counted', status: 'publish', categories: [c.id], tags: [t.id] });
    expect(await count()).toEqual([2, 2]);
    // Published with a date ahead: scheduled, so not counted; the same term twice counts once.
    await site.createPost({ title: 'Scheduled counted?', status: 'publish', date: '2099-01-01T00:00:00', categories: [c.id, c.id], tags: [t.id] });
    expect(await count()).toEqual([2, 2]);
    const batch = await site.req('POST', '/batch/v1', { as: 'administrator', json: { requests: [1, 2].map((n) => ({ path: '/core/v2/posts', body: { title: `Batch counted ${n}`, status: 'publish', categories: [c.id, c.id] } })) } });
    expect(batch.body.responses.map((r: { status: number }) => r.status)).toEqual([201, 201]);
    expect(await count()).toEqual([4, 2]);
    for (const r of batch.body.responses) await site.req('DELETE', `/core/v2/posts/${r.body.id}?force=true`, { as: 'administrator' });
    expect(await count()).toEqual([2, 2]);
    expect((await get(`categories?include=${c.id}`)).body[0].count).toBe(2);
    await site.req('DELETE', `/core/v2/posts/${second.id}`, { as: 'administrator' });
    expect(await count()).toEqual([1, 1]);
    await site.req('PATCH', `/core/v2/posts/${draft.id}`, { as: 'administrator', json: { tags: [] } });
    expect(await count()).toEqual([1, 0]);
    await site.req('DELETE', `/core/v2/posts/${draft.id}?force=true`, { as: 'administrator' });
    expect(await count()).toEqual([0, 0]);
  });
});
