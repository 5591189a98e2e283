// _embed and _links (reference §1.5, §1.6, §2.2): embedded terms aligned with their links, the
// parent of a child page, _fields with _links/_embedded, a constant query count for embedded
// terms, and the relation names and attributes that clients match byte for byte.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestSite, API, SITE, type TestSite } from '../helpers/app.js';

let site: TestSite;
let apples: any, berries: any, red: any, uncategorized: number;
let post: any; // published, by the editor, two categories and one tag
let bare: any; // published, no tags
let parentPage: any, childPage: any;

type As = NonNullable<Parameters<TestSite['req']>[2]>['as'];
async function create(path: string, json: Record<string, unknown>, as: As = 'administrator'): Promise<any> {
  const res = await site.req('POST', `/core/v2/${path}`, { as, json });
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return res.body;
}
const get = (path: string, as?: As) => site.req('GET', `/core/v2/${path}`, { as });
const termKeys = (t: Record<string, unknown>) => Object.keys(t).filter((k) => k !== '_links').sort();
const CURIES = [{ name: 'wp', href: 'https://api.w.org/{rel}', templated: true }];

beforeAll(async () => {
  site = await createTestSite();
  // Names chosen so that name order (the terms route default) is creation order.
  apples = await create('categories', { name: 'Apples' }, 'editor');
  berries = await create('categories', { name: 'Berries' }, 'editor');
  red = await create('tags', { name: 'Red' }, 'editor');
  uncategorized = (await get('categories?slug=uncategorized')).body[0].id;
  post = await create('posts', { title: 'Embedded', content: 'Body', status: 'publish', categories: [berries.id, apples.id], tags: [red.id] }, 'editor');
  bare = await create('posts', { title: 'Bare', content: 'Body', status: 'publish' }, 'editor');
  parentPage = await create('pages', { title: 'Parent page', status: 'publish' }, 'editor');
  childPage = await create('pages', { title: 'Child page', status: 'publish', parent: parentPage.id }, 'editor');
});
afterAll(async () => { await site?.close(); });

describe('_embed', () => {
  it('embeds wp:term as one array of terms per taxonomy, aligned with _links', async () => {
    const res = await get(`posts/${post.id}?_embed=wp:term`);
    expect(res.status).toBe(200);
    const links = res.body._links['wp:term'];
    const embedded = res.body._embedded['wp:term'];
    expect(Array.isArray(embedded)).toBe(true);
    expect(embedded).toHaveLength(links.length);
    expect(links.map((l: { taxonomy: string }) => l.taxonomy)).toEqual(['category', 'post_tag']);
    const [cats, tags] = embedded;
    expect(cats.map((t: { id: number }) => t.id)).toEqual([apples.id, berries.id]);
    expect(tags.map((t: { id: number }) => t.id)).toEqual([red.id]);
    for (const t of [...cats, ...tags]) expect(termKeys(t)).toEqual(['id', 'link', 'name', 'slug', 'taxonomy']);
    expect(cats[0]).toMatchObject({ id: apples.id, link: `${SITE}/category/apples/`, name: 'Apples', slug: 'apples', taxonomy: 'category' });
    expect(tags[0]).toMatchObject({ id: red.id, link: `${SITE}/tag/red/`, name: 'Red', slug: 'red', taxonomy: 'post_tag' });
    // Only the asked relation is embedded.
    expect(Object.keys(res.body._embedded)).toEqual(['wp:term']);
  });

  it('keeps an empty slot for a taxonomy without terms', async () => {
    const res = await get(`posts/${bare.id}?_embed=wp:term`);
    expect(res.body._embedded['wp:term']).toHaveLength(2);
    expect(res.body._embedded['wp:term'][0].map((t: { id: number }) => t.id)).toEqual([uncategorized]);
    expect(res.body._embedded['wp:term'][1]).toEqual([]);
  });

  it('embeds every embeddable link with bare _embed, _embed=1 and _embed=true', async () => {
    for (const q of ['_embed', '_embed=1', '_embed=true']) {
      const res = await get(`posts/${post.id}?${q}`);
      expect(res.status, q).toBe(200);
      expect(Object.keys(res.body._embedded).sort(), q).toEqual(['author', 'wp:term']);
      expect(res.body._embedded.author).toHaveLength(1);
      expect(res.body._embedded.author[0]).toMatchObject({ id: site.users.editor.id, slug: 'editor1', link: `${SITE}/author/editor1/` });
      expect(Object.keys(res.body._embedded.author[0].avatar_urls).sort()).toEqual(['24', '48', '96']);
      expect(res.body._embedded['wp:term'][0].map((t: { id: number }) => t.id)).toEqual([apples.id, berries.id]);
    }
  });

  it('embeds a list of relations with _embed=author,wp:term, and nothing without _embed', async () => {
    const both = await get(`posts/${post.id}?_embed=author,wp:term`);
    expect(Object.keys(both.body._embedded).sort()).toEqual(['author', 'wp:term']);
    const authorOnly = await get(`posts/${post.id}?_embed[]=author`);
    expect(Object.keys(authorOnly.body._embedded)).toEqual(['author']);
    expect((await get(`posts/${post.id}`)).body._embedded).toBeUndefined();
    // A relation the item does not have embeds nothing.
    expect((await get(`posts/${post.id}?_embed=up`)).body._embedded).toBeUndefined();
  });

  it('embeds in collections, per item', async () => {
    const res = await get(`posts?include=${post.id},${bare.id}&orderby=include&_embed=wp:term`);
    expect(res.status).toBe(200);
    expect(res.body.map((p: any) => p._embedded['wp:term'][1].length)).toEqual([1, 0]);
    expect(res.body[0]._embedded['wp:term'][0].map((t: { id: number }) => t.id)).toEqual([apples.id, berries.id]);
  });

  it('embeds the parent of a child page as up, in embed context', async () => {
    const res = await get(`pages/${childPage.id}?_embed`);
    expect(res.status).toBe(200);
    expect(res.body._embedded.up).toHaveLength(1);
    const up = res.body._embedded.up[0];
    expect(up.id).toBe(parentPage.id);
    expect(up.title.rendered).toBe('Parent page');
    expect(up.link).toBe(`${SITE}/parent-page/`);
    expect(up.content).toBeUndefined(); // content is not in the embed context
    expect(up.status).toBeUndefined();
    expect(res.body._embedded.author[0].id).toBe(site.users.editor.id);
    expect((await get(`pages/${parentPage.id}?_embed`)).body._embedded.up).toBeUndefined();
  });

  it('keeps _links and _embedded with _fields only when listed', async () => {
    const kept = await get(`posts/${post.id}?_embed=wp:term&_fields=id,_links,_embedded`);
    expect(Object.keys(kept.body).sort()).toEqual(['_embedded', '_links', 'id']);
    expect(kept.body._embedded['wp:term'][0]).toHaveLength(2);
    expect(kept.body._links.self[0].href).toBe(`${API}/core/v2/posts/${post.id}`);
    const dropped = await get(`posts/${post.id}?_embed&_fields=id,title`);
    expect(Object.keys(dropped.body).sort()).toEqual(['id', 'title']);
    const linksOnly = await get(`posts/${post.id}?_embed&_fields=id,_links`);
    expect(Object.keys(linksOnly.body).sort()).toEqual(['_links', 'id']);
  });

  it('costs the same number of SQL statements for 1 and 20 posts with embedded terms', async () => {
    const tags: number[] = [];
    for (let i = 0; i < 3; i++) tags.push((await create('tags', { name: `Load tag ${i}` }, 'editor')).id);
    for (let i = 0; i < 22; i++) {
      await create('posts', { title: `Load ${i}`, status: 'publish', categories: [i % 2 ? apples.id : berries.id], tags: [tags[i % 3], tags[(i + 1) % 3]] });
    }
    const cost = async (perPage: number) => {
      // A write retires the response cache, so the request reaches the database.
      await create('posts', { title: 'cache buster', status: 'draft' });
      const before = site.db.statements;
      const res = await get(`posts?_embed=wp:term&per_page=${perPage}`);
      const used = site.db.statements - before;
      expect(res.status).toBe(200);
      expect(res.body).toHaveLength(perPage);
      expect(res.body.every((p: any) => p._embedded['wp:term'].length === 2)).toBe(true);
      return used;
    };
    const one = await cost(1);
    const twenty = await cost(20);
    expect(one).toBeGreaterThan(0);
    expect(twenty).toBe(one);
  });
});

describe('_links', () => {
  it('gives a post self (with targetHints.allow), collection, about, author, version-history, wp:attachment, wp:term, curies', async () => {
    const l = (await get(`posts/${post.id}`)).body._links;
    expect(l.self).toEqual([{ href: `${API}/core/v2/posts/${post.id}`, targetHints: { allow: ['GET'] } }]);
    expect(l.collection).toEqual([{ href: `${API}/core/v2/posts` }]);
    expect(l.about).toEqual([{ href: `${API}/core/v2/types/post` }]);
    expect(l.author).toEqual([{ embeddable: true, href: `${API}/core/v2/users/${site.users.editor.id}` }]);
    expect(l['version-history']).toEqual([{ count: 0, href: `${API}/core/v2/posts/${post.id}/revisions` }]);
    expect(l['predecessor-version']).toBeUndefined();
    expect(l['wp:featuredmedia']).toBeUndefined();
    expect(l['wp:attachment']).toEqual([{ href: `${API}/core/v2/media?parent=${post.id}` }]);
    expect(l['wp:term']).toEqual([
      { taxonomy: 'category', embeddable: true, href: `${API}/core/v2/categories?post=${post.id}` },
      { taxonomy: 'post_tag', embeddable: true, href: `${API}/core/v2/tags?post=${post.id}` },
    ]);
    expect(l.curies).toEqual(CURIES);
    expect(Object.keys(l).filter((k) => k.startsWith('wp:action-'))).toEqual([]);
  });

  it('lists in targetHints.allow the methods the caller may use', async () => {
    const hints = async (as?: As) => (await get(`posts/${post.id}`, as)).body._links.self[0].targetHints.allow;
    expect(await hints('administrator')).toEqual(['GET', 'POST', 'PUT', 'PATCH', 'DELETE']);
    expect(await hints('editor')).toEqual(['GET', 'POST', 'PUT', 'PATCH', 'DELETE']);
    expect(await hints('author')).toEqual(['GET']);
    expect(await hints('subscriber')).toEqual(['GET']);
  });

  it('counts revisions in version-history and points predecessor-version at the latest', async () => {
    const p = await create('posts', { title: 'Revised', content: 'v0', status: 'publish' });
    const first = await site.req('PATCH', `/core/v2/posts/${p.id}`, { as: 'administrator', json: { content: 'v1' } });
    const l1 = first.body._links;
    expect(l1['version-history']).toEqual([{ count: 1, href: `${API}/core/v2/posts/${p.id}/revisions` }]);
    expect(l1['predecessor-version']).toHaveLength(1);
    const rev1 = l1['predecessor-version'][0].id;
    expect(typeof rev1).toBe('number');
    expect(l1['predecessor-version'][0]).toEqual({ id: rev1, href: `${API}/core/v2/posts/${p.id}/revisions/${rev1}` });
    const second = await site.req('PATCH', `/core/v2/posts/${p.id}`, { as: 'administrator', json: { content: 'v2' } });
    const l2 = second.body._links;
    expect(l2['version-history'][0].count).toBe(2);
    expect(l2['predecessor-version'][0].id).toBeGreaterThan(rev1);
    // The same links on a plain GET.
    const again = (await get(`posts/${p.id}`)).body._links;
    expect(again['version-history'][0].count).toBe(2);
    expect(again['predecessor-version'][0].id).toBe(l2['predecessor-version'][0].id);
  });

  it('gives pages about/collection of their type, up for children, and no wp:term', async () => {
    const l = (await get(`pages/${childPage.id}`)).body._links;
    expect(l.self[0].href).toBe(`${API}/core/v2/pages/${childPage.id}`);
    expect(l.collection).toEqual([{ href: `${API}/core/v2/pages` }]);
    expect(l.about).toEqual([{ href: `${API}/core/v2/types/page` }]);
    expect(l.up).toEqual([{ embeddable: true, href: `${API}/core/v2/pages/${parentPage.id}` }]);
    expect(l['wp:term']).toBeUndefined();
    expect(l['wp:attachment']).toEqual([{ href: `${API}/core/v2/media?parent=${childPage.id}` }]);
    expect(l.curies).toEqual(CURIES);
  });

  it('adds wp:action-* links in edit context for an editor', async () => {
    const res = await get(`posts/${post.id}?context=edit`, 'editor');
    expect(res.status).toBe(200);
    const l = res.body._links;
    const self = [{ href: `${API}/core/v2/posts/${post.id}` }];
    for (const rel of ['publish', 'unfiltered-html', 'sticky', 'assign-author', 'create-categories', 'assign-categories', 'create-tags', 'assign-tags']) {
      expect(l[`wp:action-${rel}`], rel).toEqual(self);
    }
    expect(l.curies).toEqual(CURIES);
    // Not in view context, even for the editor.
    const view = (await get(`posts/${post.id}`, 'editor')).body._links;
    expect(Object.keys(view).filter((k) => k.startsWith('wp:action-'))).toEqual([]);
  });

  it('leaves out the actions a contributor may not do', async () => {
    const draft = await create('posts', { title: 'Contributor draft' }, 'contributor');
    const res = await get(`posts/${draft.id}?context=edit`, 'contributor');
    expect(res.status).toBe(200);
    const l = res.body._links;
    for (const rel of ['publish', 'unfiltered-html', 'sticky', 'assign-author', 'create-categories']) {
      expect(l[`wp:action-${rel}`], rel).toBeUndefined();
    }
    expect(l['wp:action-assign-categories']).toEqual([{ href: `${API}/core/v2/posts/${draft.id}` }]);
    expect(l['wp:action-assign-tags']).toEqual([{ href: `${API}/core/v2/posts/${draft.id}` }]);
    expect(l.self[0].targetHints.allow).toEqual(['GET', 'POST', 'PUT', 'PATCH', 'DELETE']);
    // Creating a post returns the same edit-context links.
    expect(draft._links['wp:action-publish']).toBeUndefined();
  });

  it('gives an author publish but not the editor-only actions', async () => {
    const mine = await create('posts', { title: 'Author post', status: 'publish' }, 'author');
    const l = (await get(`posts/${mine.id}?context=edit`, 'author')).body._links;
    expect(l['wp:action-publish']).toBeDefined();
    expect(l['wp:action-unfiltered-html']).toBeUndefined();
    expect(l['wp:action-assign-author']).toBeUndefined();
    expect(l['wp:action-create-categories']).toBeUndefined();
    expect(l['wp:action-assign-categories']).toBeDefined();
  });

  it('prunes nested paths with _fields=title.rendered,meta.footnotes', async () => {
    const res = await get(`posts/${post.id}?_fields=title.rendered,meta.footnotes`);
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ title: { rendered: 'Embedded' }, meta: { footnotes: '' } });
    const list = await get(`posts?include=${post.id}&_fields=id,title.rendered,_links.self`);
    expect(list.body[0].id).toBe(post.id);
    expect(list.body[0].title).toEqual({ rendered: 'Embedded' });
    const edit = await get(`posts/${post.id}?context=edit&_fields=title.raw,content.protected`, 'editor');
    expect(edit.body).toEqual({ title: { raw: 'Embedded' }, content: { protected: false } });
  });

  it('answers an embed of an unreadable item with the error, not a leak', async () => {
    // The terms of a readable post are always embeddable; an unknown item is still a 404.
    expect(await get('posts/987654?_embed')).toBeWpError(404, 'rest_post_invalid_id');
  });
});
