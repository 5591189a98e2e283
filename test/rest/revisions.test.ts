// Revisions and autosaves of posts and pages: the trail each text-changing update leaves, the
// routes that list, read, delete and restore its entries, and the autosaves an editor keeps
// beside a post (or, for the author of a draft, in the draft itself).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestSite, API, SITE, type As, type TestSite, type TestResponse } from '../helpers/app.js';

let site: TestSite;
beforeAll(async () => { site = await createTestSite(); });
afterAll(async () => { await site?.close(); });

type Base = 'posts' | 'pages';
type Json = Record<string, unknown>;

const VIEW_KEYS = ['author', 'date', 'date_gmt', 'id', 'modified', 'modified_gmt', 'parent', 'slug', 'guid', 'title', 'content', 'excerpt', 'meta', '_links'];
const EMBED_KEYS = ['author', 'date', 'id', 'parent', 'slug', 'title', 'excerpt', '_links'];
const AUTOSAVE_EDIT_KEYS = [...VIEW_KEYS.filter((k) => k !== '_links'), 'preview_link'].sort();
const NONCE = '[0-9a-f]{10}';

const revs = (base: Base, parent: number, rest = '') => `/core/v2/${base}/${parent}/revisions${rest}`;
const autos = (base: Base, id: number, rest = '') => `/core/v2/${base}/${id}/autosaves${rest}`;
const ids = (res: TestResponse): number[] => {
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return (res.body as { id: number }[]).map((r) => r.id);
};
const escapeRe = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
const rendered = (text: string) => (text ? `<p>${text}</p>\n` : '');

/** Creates an item (201 or throws) as `as`. */
const make = (base: Base, json: Json, as: As = 'administrator') => (base === 'posts' ? site.createPost(json, as) : site.createPage(json, as));

/** Updates an item and expects 200. */
async function update(base: Base, id: number, json: Json, as: As = 'administrator'): Promise<any> {
  const res = await site.req('POST', `/core/v2/${base}/${id}`, { as, json });
  expect(res.status, `update ${base}/${id} as ${String(as)}: ${JSON.stringify(res.body)}`).toBe(200);
  return res.body;
}

/** The item as the administrator sees it (edit context). */
async function item(base: Base, id: number): Promise<any> {
  const res = await site.req('GET', `/core/v2/${base}/${id}?context=edit`, { as: 'administrator' });
  expect(res.status).toBe(200);
  return res.body;
}
const historyCount = async (base: Base, id: number): Promise<number> => (await item(base, id))._links['version-history'][0].count;

/** An item with `n` revisions, newest first (each update changes the content). */
async function withRevisions(base: Base, n: number, json: Json = {}, as: As = 'administrator'): Promise<{ id: number; revisions: number[] }> {
  const { id } = await make(base, { title: `With ${n} revisions`, content: 'Start', status: 'publish', ...json }, as);
  for (let i = 1; i <= n; i++) await update(base, id, { content: `Step ${i}` }, as);
  const list = await site.req('GET', revs(base, id), { as: 'administrator' });
  const revisions = ids(list);
  expect(revisions).toHaveLength(n);
  return { id, revisions };
}

/** Waits until the wall clock enters a new second (dates are stored to the second). */
async function nextSecond(): Promise<void> {
  const now = Math.floor(Date.now() / 1000);
  while (Math.floor(Date.now() / 1000) === now) await new Promise((r) => setTimeout(r, 25));
}

/** The Link header as rel → URL. */
function links(res: TestResponse): Record<string, URL> {
  const out: Record<string, URL> = {};
  for (const m of (res.headers.get('link') ?? '').matchAll(/<([^>]+)>;\s*rel="([^"]+)"/g)) out[m[2]] = new URL(m[1]);
  return out;
}

describe('the revision trail of a post', () => {
  let id: number;
  let createdLinks: any;
  /** Version-history count after each update. */
  const counts: number[] = [];
  /** The state each stored revision snapshots, oldest first. */
  const states: { modified: string; modifiedGmt: string; author: number; title: string; content: string; excerpt: string }[] = [];
  /** Revision ids, newest first. */
  let trail: number[];

  beforeAll(async () => {
    const created = await site.createPost({ title: 'Trail start', content: 'Body', excerpt: '', status: 'publish' });
    id = created.id;
    createdLinks = created._links;
    const steps: [Json, 'administrator' | 'editor', boolean][] = [
      [{ title: 'Trail second', content: 'Body two' }, 'administrator', true],
      [{ excerpt: 'Short summary' }, 'editor', true],
      [{ comment_status: 'closed' }, 'administrator', false],
      [{ content: 'Body three with mango' }, 'administrator', true],
      [{ title: 'Trail fifth', content: 'Body four' }, 'administrator', true],
      [{ content: 'Closing words', excerpt: '' }, 'editor', true],
    ];
    for (const [json, as, stores] of steps) {
      await nextSecond();
      const b = await update('posts', id, json, as);
      counts.push(b._links['version-history'][0].count);
      if (stores) {
        states.push({ modified: b.modified, modifiedGmt: b.modified_gmt, author: site.users[as].id, title: b.title.raw, content: b.content.raw, excerpt: b.excerpt.raw });
      }
    }
    trail = ids(await site.req('GET', revs('posts', id), { as: 'administrator' }));
  }, 60_000);

  it('stores one revision per text-changing update, none on create or on a discussion-only change', () => {
    expect(createdLinks['version-history']).toEqual([{ count: 0, href: `${API}/core/v2/posts/${id}/revisions` }]);
    expect(createdLinks['predecessor-version']).toBeUndefined();
    expect(counts).toEqual([1, 2, 2, 3, 4, 5]);
    expect(trail).toHaveLength(5);
  });

  it('lists the snapshots newest first in view context, dated at the parent\'s modified time and by the updating user', async () => {
    const res = await site.req('GET', revs('posts', id), { as: 'administrator' });
    expect(res.status).toBe(200);
    const newestFirst = [...states].reverse();
    expect(res.body).toHaveLength(5);
    expect([...trail].sort((a, b) => b - a)).toEqual(trail);
    res.body.forEach((r: any, i: number) => {
      const s = newestFirst[i];
      expect(Object.keys(r), `revision ${i}`).toEqual(VIEW_KEYS);
      expect(r).toMatchObject({ author: s.author, date: s.modified, date_gmt: s.modifiedGmt, parent: id, slug: `${id}-revision-v1` });
      expect(r.id).toBeGreaterThan(id);
      expect(r.guid).toEqual({ rendered: expect.any(String) });
      expect(r.title).toEqual({ rendered: s.title });
      expect(r.content).toEqual({ rendered: rendered(s.content) });
      expect(r.excerpt).toEqual({ rendered: rendered(s.excerpt) });
      expect(r.meta).toEqual({ footnotes: '' });
      expect(r._links).toEqual({ parent: [{ href: `${API}/core/v2/posts/${id}` }] });
    });
    expect(res.body.map((r: any) => r.author)).toEqual([site.users.editor.id, site.users.administrator.id, site.users.administrator.id, site.users.editor.id, site.users.administrator.id]);
  });

  it('builds excerpt.rendered from the revision\'s own excerpt only, never from its content', async () => {
    const list = (await site.req('GET', revs('posts', id), { as: 'administrator' })).body;
    // Newest: content "Closing words", excerpt emptied; oldest: content "Body two", no excerpt yet.
    expect(list[0].excerpt).toEqual({ rendered: '' });
    expect(list[4].excerpt).toEqual({ rendered: '' });
    expect(list[1].excerpt).toEqual({ rendered: '<p>Short summary</p>\n' });
    expect(list[0].content).toEqual({ rendered: '<p>Closing words</p>\n' });
  });

  it('gives raw and rendered text in edit context, with no protected or block_version keys', async () => {
    const res = await site.req('GET', `${revs('posts', id)}?context=edit`, { as: 'editor' });
    expect(res.status).toBe(200);
    const newestFirst = [...states].reverse();
    res.body.forEach((r: any, i: number) => {
      const s = newestFirst[i];
      expect(Object.keys(r)).toEqual(VIEW_KEYS);
      expect(Object.keys(r.guid).sort()).toEqual(['raw', 'rendered']);
      expect(r.title).toEqual({ raw: s.title, rendered: s.title });
      expect(r.content).toEqual({ raw: s.content, rendered: rendered(s.content) });
      expect(r.excerpt).toEqual({ raw: s.excerpt, rendered: rendered(s.excerpt) });
      expect(r.meta).toEqual({ footnotes: '' });
    });
  });

  it('keeps only the embed fields in embed context', async () => {
    const res = await site.req('GET', `${revs('posts', id)}?context=embed`, { as: 'administrator' });
    expect(res.status).toBe(200);
    expect(res.body).toHaveLength(5);
    for (const r of res.body) {
      expect(Object.keys(r)).toEqual(EMBED_KEYS);
      expect(Object.keys(r.title)).toEqual(['rendered']);
      expect(Object.keys(r.excerpt)).toEqual(['rendered']);
      expect(r.slug).toBe(`${id}-revision-v1`);
      expect(r.parent).toBe(id);
    }
  });

  it('serves each revision alone, as the list shows it, in every context', async () => {
    for (const context of ['view', 'edit', 'embed']) {
      const list = (await site.req('GET', `${revs('posts', id)}?context=${context}`, { as: 'administrator' })).body;
      for (const r of list) {
        const one = await site.req('GET', `${revs('posts', id, `/${r.id}`)}?context=${context}`, { as: 'administrator' });
        expect(one.status).toBe(200);
        expect(one.body, `${context} ${r.id}`).toEqual(r);
      }
    }
    // Default context is view.
    const plain = await site.req('GET', revs('posts', id, `/${trail[2]}`), { as: 'administrator' });
    expect(plain.body.title).toEqual({ rendered: states[2].title });
  });

  it('agrees with the parent\'s version-history and predecessor-version links', async () => {
    const post = await site.req('GET', `/core/v2/posts/${id}`);
    expect(post.body._links['version-history']).toEqual([{ count: 5, href: `${API}/core/v2/posts/${id}/revisions` }]);
    expect(post.body._links['predecessor-version']).toEqual([{ id: trail[0], href: `${API}/core/v2/posts/${id}/revisions/${trail[0]}` }]);
  });

  describe('paging', () => {
    it('returns every revision when per_page is absent, with one page', async () => {
      const res = await site.req('GET', revs('posts', id), { as: 'administrator' });
      expect(ids(res)).toEqual(trail);
      expect(res.headers.get('x-wp-total')).toBe('5');
      expect(res.headers.get('x-wp-totalpages')).toBe('1');
      expect(links(res).next).toBeUndefined();
      expect(links(res).prev).toBeUndefined();
    });

    it('pages by per_page with prev and next links only where they lead somewhere', async () => {
      const pages = [];
      for (const page of [1, 2, 3]) {
        const res = await site.req('GET', `${revs('posts', id)}?per_page=2&page=${page}`, { as: 'administrator' });
        expect(res.headers.get('x-wp-total')).toBe('5');
        expect(res.headers.get('x-wp-totalpages')).toBe('3');
        pages.push(ids(res));
        const l = links(res);
        if (page > 1) {
          expect(l.prev?.searchParams.get('page'), `prev on page ${page}`).toBe(String(page - 1));
          expect(l.prev?.pathname).toBe(new URL(`${API}${revs('posts', id)}`).pathname);
        } else expect(l.prev, 'prev on page 1').toBeUndefined();
        if (page < 3) {
          expect(l.next?.searchParams.get('page'), `next on page ${page}`).toBe(String(page + 1));
          expect(l.next?.searchParams.get('per_page')).toBe('2');
        } else expect(l.next, 'next on the last page').toBeUndefined();
      }
      expect(pages).toEqual([trail.slice(0, 2), trail.slice(2, 4), trail.slice(4)]);
    });

    it('skips with offset', async () => {
      expect(ids(await site.req('GET', `${revs('posts', id)}?per_page=2&offset=1`, { as: 'administrator' }))).toEqual(trail.slice(1, 3));
    });

    it('refuses a page past the end, an offset past the end and out-of-range per_page', async () => {
      expect(await site.req('GET', `${revs('posts', id)}?per_page=2&page=4`, { as: 'administrator' })).toBeWpError(400, 'rest_revision_invalid_page_number');
      expect(await site.req('GET', `${revs('posts', id)}?page=2`, { as: 'administrator' })).toBeWpError(400, 'rest_revision_invalid_page_number');
      expect(await site.req('GET', `${revs('posts', id)}?offset=5`, { as: 'administrator' })).toBeWpError(400, 'rest_revision_invalid_offset_number');
      expect(await site.req('GET', `${revs('posts', id)}?per_page=2&offset=9`, { as: 'administrator' })).toBeWpError(400, 'rest_revision_invalid_offset_number');
      for (const q of ['per_page=0', 'per_page=101']) {
        expect(await site.req('GET', `${revs('posts', id)}?${q}`, { as: 'administrator' }), q).toBeWpError(400, 'rest_invalid_param');
      }
    });

    it('answers an empty list with zero totals, whatever the page', async () => {
      const { id: bare } = await site.createPost({ title: 'Never revised', status: 'publish' });
      for (const q of ['', '?page=2', '?per_page=5']) {
        const res = await site.req('GET', `${revs('posts', bare)}${q}`, { as: 'administrator' });
        expect(res.status, q).toBe(200);
        expect(res.body).toEqual([]);
        expect(res.headers.get('x-wp-total')).toBe('0');
        expect(res.headers.get('x-wp-totalpages')).toBe('0');
      }
    });
  });

  describe('filters and ordering', () => {
    const get = (q: string) => site.req('GET', `${revs('posts', id)}?${q}`, { as: 'administrator' });

    it('searches words in title, content and excerpt', async () => {
      expect(ids(await get('search=mango'))).toEqual([trail[2]]);
      expect(ids(await get('search=summary'))).toEqual([trail[1], trail[2], trail[3]]);
      expect(ids(await get('search=fifth'))).toEqual([trail[0], trail[1]]);
      expect(ids(await get('search=nowhere'))).toEqual([]);
      expect(ids(await get('search=mango&orderby=relevance'))).toEqual([trail[2]]);
    });

    it('includes and excludes ids', async () => {
      expect(ids(await get(`include=${trail[4]},${trail[2]}`))).toEqual([trail[2], trail[4]]);
      expect(ids(await get(`include[]=${trail[0]}&include[]=${trail[3]}`))).toEqual([trail[0], trail[3]]);
      expect(ids(await get(`exclude=${trail[0]}`))).toEqual(trail.slice(1));
      const res = await get(`exclude=${trail[0]},${trail[1]}`);
      expect(ids(res)).toEqual(trail.slice(2));
      expect(res.headers.get('x-wp-total')).toBe('3');
    });

    it('orders by date either way, by id, by include and by title', async () => {
      expect(ids(await get('order=asc'))).toEqual([...trail].reverse());
      expect(ids(await get('order=desc'))).toEqual(trail);
      expect(ids(await get('orderby=id&order=asc'))).toEqual([...trail].sort((a, b) => a - b));
      expect(ids(await get(`orderby=include&include=${trail[3]},${trail[0]},${trail[4]}`))).toEqual([trail[3], trail[0], trail[4]]);
      const byTitle = await get('orderby=title&order=asc');
      expect(byTitle.body.map((r: any) => r.title.rendered)).toEqual(['Trail fifth', 'Trail fifth', 'Trail second', 'Trail second', 'Trail second']);
    });

    it('refuses orderby misuse and values outside the enums', async () => {
      expect(await get('orderby=relevance')).toBeWpError(400, 'rest_no_search_term_defined');
      expect(await get('orderby=include')).toBeWpError(400, 'rest_orderby_include_missing_include');
      expect(await get('orderby=bogus')).toBeWpError(400, 'rest_invalid_param');
      expect(await get('order=sideways')).toBeWpError(400, 'rest_invalid_param');
      expect(await get('context=bogus')).toBeWpError(400, 'rest_invalid_param');
    });
  });
});

describe('when a revision is stored', () => {
  it('stores one on the first update even when the text is unchanged', async () => {
    const { id } = await site.createPost({ title: 'First update', content: 'Same', status: 'publish' });
    const b = await update('posts', id, { comment_status: 'closed' });
    expect(b._links['version-history'][0].count).toBe(1);
    const [r] = (await site.req('GET', `${revs('posts', id)}?context=edit`, { as: 'administrator' })).body;
    expect(r.title.raw).toBe('First update');
    expect(r.content.raw).toBe('Same');
  });

  it('stores none when the text equals the newest revision, whatever else changes, and none on create', async () => {
    const created = await site.createPost({ title: 'Steady', content: 'Steady text', status: 'publish' });
    expect(created._links['version-history'][0].count).toBe(0);
    const id = created.id;
    await update('posts', id, { title: 'Steady two' });
    expect(await historyCount('posts', id)).toBe(1);
    for (const json of [{ status: 'private' }, { comment_status: 'closed' }, { sticky: true }, { title: 'Steady two', content: 'Steady text' }]) {
      await update('posts', id, json);
      expect(await historyCount('posts', id), JSON.stringify(json)).toBe(1);
    }
    await site.req('PATCH', `/core/v2/posts/${id}`, { as: 'administrator', json: { excerpt: 'Now an excerpt' } });
    expect(await historyCount('posts', id)).toBe(2);
    await site.req('PUT', `/core/v2/posts/${id}`, { as: 'administrator', json: { content: 'Changed by PUT' } });
    expect(await historyCount('posts', id)).toBe(3);
  });

  it('stores one when only the footnotes change, and restore brings the footnotes back', async () => {
    const noteOne = JSON.stringify([{ id: 'n1', content: 'Note one' }]);
    const noteTwo = JSON.stringify([{ id: 'n1', content: 'Note two' }]);
    const { id } = await site.createPost({ title: 'Footnoted', content: 'Text', status: 'publish' });
    await update('posts', id, { meta: { footnotes: noteOne } });
    await update('posts', id, { meta: { footnotes: noteTwo } });
    expect(await historyCount('posts', id)).toBe(2);
    await update('posts', id, { comment_status: 'closed' });
    expect(await historyCount('posts', id)).toBe(2);
    const [second, first] = (await site.req('GET', `${revs('posts', id)}?context=edit`, { as: 'administrator' })).body;
    expect(first.meta).toEqual({ footnotes: noteOne });
    expect(second.meta).toEqual({ footnotes: noteTwo });
    const restored = await site.req('POST', revs('posts', id, `/${first.id}/restore`), { as: 'administrator' });
    expect(restored.status).toBe(200);
    expect(restored.body.meta).toEqual({ footnotes: noteOne });
    expect((await item('posts', id)).meta).toEqual({ footnotes: noteOne });
    expect(await historyCount('posts', id)).toBe(3);
  });

  it('records the user who made the update, not the post\'s author', async () => {
    const { id } = await site.createPost({ title: 'Authored', status: 'publish' }, 'author');
    await update('posts', id, { title: 'Edited by the editor' }, 'editor');
    await update('posts', id, { title: 'Edited by the author' }, 'author');
    const list = (await site.req('GET', revs('posts', id), { as: 'administrator' })).body;
    expect(list.map((r: any) => [r.author, r.title.rendered])).toEqual([
      [site.users.author.id, 'Edited by the author'],
      [site.users.editor.id, 'Edited by the editor'],
    ]);
  });
});

describe('reading revisions: errors in order', () => {
  let post: { id: number; revisions: number[] };
  let other: { id: number; revisions: number[] };
  let pageId: number;
  beforeAll(async () => {
    post = await withRevisions('posts', 2);
    other = await withRevisions('posts', 1);
    pageId = (await withRevisions('pages', 1)).id;
  });

  it('answers an unknown parent or one of another type with rest_post_invalid_parent, before any right check', async () => {
    for (const as of ['administrator', undefined, 'subscriber'] as const) {
      expect(await site.req('GET', revs('posts', 987654), { as }), String(as)).toBeWpError(404, 'rest_post_invalid_parent');
      expect(await site.req('GET', revs('posts', pageId), { as }), String(as)).toBeWpError(404, 'rest_post_invalid_parent');
      expect(await site.req('GET', revs('posts', 987654, `/${post.revisions[0]}`), { as }), String(as)).toBeWpError(404, 'rest_post_invalid_parent');
      expect(await site.req('GET', revs('posts', pageId, `/${post.revisions[0]}`), { as }), String(as)).toBeWpError(404, 'rest_post_invalid_parent');
    }
  });

  it('refuses callers who may not edit the parent with rest_cannot_read, even for a published post in view context', async () => {
    for (const context of ['view', 'embed', 'edit']) {
      const q = `?context=${context}`;
      expect(await site.req('GET', `${revs('posts', post.id)}${q}`), context).toBeWpError(401, 'rest_cannot_read');
      expect(await site.req('GET', `${revs('posts', post.id, `/${post.revisions[0]}`)}${q}`), context).toBeWpError(401, 'rest_cannot_read');
      for (const as of ['subscriber', 'contributor', 'author'] as const) {
        expect(await site.req('GET', `${revs('posts', post.id)}${q}`, { as }), `${as} ${context}`).toBeWpError(403, 'rest_cannot_read');
        expect(await site.req('GET', `${revs('posts', post.id, `/${post.revisions[0]}`)}${q}`, { as }), `${as} ${context}`).toBeWpError(403, 'rest_cannot_read');
      }
      expect((await site.req('GET', `${revs('posts', post.id)}${q}`, { as: 'editor' })).status).toBe(200);
    }
  });

  it('checks the right before the revision id', async () => {
    expect(await site.req('GET', revs('posts', post.id, '/987654'))).toBeWpError(401, 'rest_cannot_read');
    expect(await site.req('GET', revs('posts', post.id, `/${other.revisions[0]}`), { as: 'author' })).toBeWpError(403, 'rest_cannot_read');
  });

  it('answers an id that is no revision with rest_post_invalid_id, and another parent\'s revision with rest_revision_parent_id_mismatch', async () => {
    expect(await site.req('GET', revs('posts', post.id, '/987654'), { as: 'administrator' })).toBeWpError(404, 'rest_post_invalid_id');
    expect(await site.req('GET', revs('posts', post.id, `/${post.id}`), { as: 'administrator' })).toBeWpError(404, 'rest_post_invalid_id');
    expect(await site.req('GET', revs('posts', post.id, `/${other.id}`), { as: 'administrator' })).toBeWpError(404, 'rest_post_invalid_id');
    expect(await site.req('GET', revs('posts', post.id, `/${other.revisions[0]}`), { as: 'administrator' })).toBeWpError(404, 'rest_revision_parent_id_mismatch');
    expect(await site.req('GET', revs('posts', other.id, `/${post.revisions[1]}`), { as: 'editor' })).toBeWpError(404, 'rest_revision_parent_id_mismatch');
  });

  it('lets the author of a post and a contributor on their own draft read its revisions', async () => {
    const mine = await withRevisions('posts', 1, {}, 'author');
    expect(ids(await site.req('GET', revs('posts', mine.id), { as: 'author' }))).toEqual(mine.revisions);
    const draft = await withRevisions('posts', 1, { status: 'draft' }, 'contributor');
    expect(ids(await site.req('GET', revs('posts', draft.id), { as: 'contributor' }))).toEqual(draft.revisions);
    expect((await site.req('GET', revs('posts', draft.id, `/${draft.revisions[0]}`), { as: 'contributor' })).status).toBe(200);
    expect(await site.req('GET', revs('posts', draft.id), { as: 'author' })).toBeWpError(403, 'rest_cannot_read');
  });
});

describe('deleting a revision', () => {
  it('checks the parent, the right, the revision, then force, in that order', async () => {
    const post = await withRevisions('posts', 2);
    const other = await withRevisions('posts', 1);
    const del = (path: string, as?: As) => site.req('DELETE', path, { as });
    const one = revs('posts', post.id, `/${post.revisions[0]}`);
    expect(await del(`${revs('posts', 987654, `/${post.revisions[0]}`)}?force=true`, 'administrator')).toBeWpError(404, 'rest_post_invalid_parent');
    expect(await del(`${revs('posts', 987654, `/${post.revisions[0]}`)}?force=true`)).toBeWpError(404, 'rest_post_invalid_parent');
    expect(await del(one)).toBeWpError(401, 'rest_cannot_delete');
    expect(await del(`${one}?force=true`)).toBeWpError(401, 'rest_cannot_delete');
    expect(await del(`${one}?force=true`, 'subscriber')).toBeWpError(403, 'rest_cannot_delete');
    expect(await del(`${revs('posts', post.id, '/987654')}?force=true`)).toBeWpError(401, 'rest_cannot_delete');
    expect(await del(`${revs('posts', post.id, '/987654')}?force=true`, 'administrator')).toBeWpError(404, 'rest_post_invalid_id');
    expect(await del(`${revs('posts', post.id, `/${other.revisions[0]}`)}?force=true`, 'administrator')).toBeWpError(404, 'rest_post_invalid_id');
    expect(await del(revs('posts', post.id, '/987654'), 'administrator')).toBeWpError(404, 'rest_post_invalid_id');
    expect(await del(one, 'administrator')).toBeWpError(501, 'rest_trash_not_supported');
    expect(await del(`${one}?force=false`, 'administrator')).toBeWpError(501, 'rest_trash_not_supported');
    // Nothing was deleted by any of these.
    expect(ids(await site.req('GET', revs('posts', post.id), { as: 'administrator' }))).toEqual(post.revisions);
    expect(ids(await site.req('GET', revs('posts', other.id), { as: 'administrator' }))).toEqual(other.revisions);
  });

  it('deletes for good with force, answering the revision as it was; the parent is unchanged and counts one fewer', async () => {
    const post = await withRevisions('posts', 3);
    const [newest, middle] = post.revisions;
    const before = await site.req('GET', revs('posts', post.id, `/${newest}`), { as: 'administrator' });
    const parentBefore = await item('posts', post.id);
    expect(parentBefore._links['version-history'][0].count).toBe(3);

    const res = await site.req('DELETE', `${revs('posts', post.id, `/${newest}`)}?force=true`, { as: 'administrator' });
    expect(res.status).toBe(200);
    expect(Object.keys(res.body).sort()).toEqual(['deleted', 'previous']);
    expect(res.body.deleted).toBe(true);
    expect(Object.keys(res.body.previous)).toEqual(VIEW_KEYS);
    expect(res.body.previous).toEqual(before.body);

    expect(await site.req('GET', revs('posts', post.id, `/${newest}`), { as: 'administrator' })).toBeWpError(404, 'rest_post_invalid_id');
    expect(await site.req('DELETE', `${revs('posts', post.id, `/${newest}`)}?force=true`, { as: 'administrator' })).toBeWpError(404, 'rest_post_invalid_id');
    const parentAfter = await item('posts', post.id);
    for (const k of ['title', 'content', 'excerpt', 'modified', 'modified_gmt', 'status', 'slug']) expect(parentAfter[k], k).toEqual(parentBefore[k]);
    expect(parentAfter._links['version-history'][0].count).toBe(2);
    expect(parentAfter._links['predecessor-version'][0].id).toBe(middle);
    expect(ids(await site.req('GET', revs('posts', post.id), { as: 'administrator' }))).toEqual(post.revisions.slice(1));
  });

  it('lets editors delete revisions of an administrator\'s published post, and no one below', async () => {
    const post = await withRevisions('posts', 3);
    const path = (r: number) => `${revs('posts', post.id, `/${r}`)}?force=true`;
    expect((await site.req('DELETE', path(post.revisions[0]), { as: 'administrator' })).status).toBe(200);
    expect((await site.req('DELETE', path(post.revisions[1]), { as: 'editor' })).status).toBe(200);
    expect(await site.req('DELETE', path(post.revisions[2]), { as: 'author' })).toBeWpError(403, 'rest_cannot_delete');
    expect(await site.req('DELETE', path(post.revisions[2]), { as: 'contributor' })).toBeWpError(403, 'rest_cannot_delete');
    expect(await site.req('DELETE', path(post.revisions[2]), { as: 'subscriber' })).toBeWpError(403, 'rest_cannot_delete');
    expect(await site.req('DELETE', path(post.revisions[2]))).toBeWpError(401, 'rest_cannot_delete');
    expect(ids(await site.req('GET', revs('posts', post.id), { as: 'administrator' }))).toEqual([post.revisions[2]]);
  });

  it('lets an author delete revisions of their own published post, and a contributor those of their own draft', async () => {
    const published = await withRevisions('posts', 2, {}, 'author');
    expect((await site.req('DELETE', `${revs('posts', published.id, `/${published.revisions[1]}`)}?force=true`, { as: 'author' })).status).toBe(200);
    expect(ids(await site.req('GET', revs('posts', published.id), { as: 'author' }))).toEqual([published.revisions[0]]);
    expect(await site.req('DELETE', `${revs('posts', published.id, `/${published.revisions[0]}`)}?force=true`, { as: 'contributor' })).toBeWpError(403, 'rest_cannot_delete');

    const draft = await withRevisions('posts', 2, { status: 'draft' }, 'contributor');
    expect((await site.req('DELETE', `${revs('posts', draft.id, `/${draft.revisions[0]}`)}?force=true`, { as: 'contributor' })).status).toBe(200);
    expect(await historyCount('posts', draft.id)).toBe(1);
    expect(await site.req('DELETE', `${revs('posts', draft.id, `/${draft.revisions[1]}`)}?force=true`, { as: 'author' })).toBeWpError(403, 'rest_cannot_delete');
  });
});

describe('restoring a revision', () => {
  it('copies the revision\'s text back onto the post, answers it like an update, and stores a new revision', async () => {
    const { id } = await site.createPost({ title: 'Version A', content: 'Alpha', excerpt: 'First', status: 'publish' });
    await update('posts', id, { title: 'Version B', content: 'Beta', excerpt: 'Second' });
    const updated = await update('posts', id, { title: 'Version C', content: 'Gamma', excerpt: '' });
    const [, versionB] = ids(await site.req('GET', revs('posts', id), { as: 'administrator' }));

    const res = await site.req('POST', revs('posts', id, `/${versionB}/restore`), { as: 'editor' });
    expect(res.status).toBe(200);
    expect(Object.keys(res.body)).toEqual(Object.keys(updated));
    expect(res.body.id).toBe(id);
    expect(res.body.title).toEqual({ raw: 'Version B', rendered: 'Version B' });
    expect(res.body.content).toEqual({ raw: 'Beta', rendered: '<p>Beta</p>\n', protected: false, block_version: 0 });
    expect(res.body.excerpt.raw).toBe('Second');
    expect(res.body.status).toBe('publish');
    expect(res.body._links['version-history'][0].count).toBe(3);

    const post = (await site.req('GET', `/core/v2/posts/${id}`)).body;
    expect([post.title.rendered, post.content.rendered, post.excerpt.rendered]).toEqual(['Version B', '<p>Beta</p>\n', '<p>Second</p>\n']);
    const list = (await site.req('GET', `${revs('posts', id)}?context=edit`, { as: 'administrator' })).body;
    expect(list).toHaveLength(3);
    expect(list[0]).toMatchObject({ author: site.users.editor.id, title: { raw: 'Version B' }, content: { raw: 'Beta' }, excerpt: { raw: 'Second' } });
    expect(list[0].id).not.toBe(versionB);
    expect(post._links['predecessor-version'][0].id).toBe(list[0].id);

    // Restoring what the post already says changes nothing and stores nothing.
    const again = await site.req('POST', revs('posts', id, `/${list[0].id}/restore`), { as: 'administrator' });
    expect(again.status).toBe(200);
    expect(again.body.title.raw).toBe('Version B');
    expect(await historyCount('posts', id)).toBe(3);
  });

  it('refuses an unknown parent, callers without the edit right, unknown revisions and another parent\'s revision, in that order', async () => {
    const post = await withRevisions('posts', 2);
    const other = await withRevisions('posts', 1);
    const restore = (parent: number, rev: number, as?: As) => site.req('POST', revs('posts', parent, `/${rev}/restore`), { as });
    expect(await restore(987654, post.revisions[1], 'administrator')).toBeWpError(404, 'rest_post_invalid_parent');
    expect(await restore(987654, post.revisions[1])).toBeWpError(404, 'rest_post_invalid_parent');
    expect(await restore(post.id, post.revisions[1])).toBeWpError(401, 'rest_cannot_edit');
    expect(await restore(post.id, 987654)).toBeWpError(401, 'rest_cannot_edit');
    for (const as of ['subscriber', 'contributor', 'author'] as const) expect(await restore(post.id, post.revisions[1], as), as).toBeWpError(403, 'rest_cannot_edit');
    expect(await restore(post.id, 987654, 'administrator')).toBeWpError(404, 'rest_post_invalid_id');
    expect(await restore(post.id, other.revisions[0], 'administrator')).toBeWpError(404, 'rest_revision_parent_id_mismatch');
    // The post still says what its newest revision says.
    expect((await item('posts', post.id)).content.raw).toBe('Step 2');
    expect(await historyCount('posts', post.id)).toBe(2);
  });
});

describe('SQL cost of the revisions list', () => {
  it('costs the same number of SQL statements for per_page=2, per_page=20 and no per_page', async () => {
    const { id } = await site.createPost({ title: 'Busy', content: 'v0', status: 'publish' });
    for (let i = 1; i <= 25; i++) await update('posts', id, { content: `v${i}` });
    const cost = async (query: string, length: number) => {
      const path = `${revs('posts', id)}${query}`;
      const warm = await site.req('GET', path, { as: 'administrator' });
      expect(warm.status).toBe(200);
      const before = site.db.statements;
      const res = await site.req('GET', path, { as: 'administrator' });
      const spent = site.db.statements - before;
      expect(res.status).toBe(200);
      expect(res.body).toHaveLength(length);
      return spent;
    };
    const two = await cost('?per_page=2', 2);
    const twenty = await cost('?per_page=20', 20);
    const all = await cost('', 25);
    expect(twenty).toBe(two);
    expect(all).toBe(two);
    const edit = await cost('?per_page=20&context=edit', 20);
    expect(edit).toBe(await cost('?per_page=2&context=edit', 2));
  }, 60_000);
});

describe('autosaves of posts', () => {
  it('saves the draft itself when its author autosaves it: no revision, no autosave row', async () => {
    const draft = await site.createPost({ title: 'Draft title', content: 'Draft body', excerpt: '' }, 'author');
    const id = draft.id;
    const res = await site.req('POST', autos('posts', id), { as: 'author', json: { title: 'Autosaved title', content: 'Autosaved body' } });
    expect(res.status).toBe(200);
    const b = res.body;
    expect(Object.keys(b).filter((k) => k !== '_links').sort()).toEqual(AUTOSAVE_EDIT_KEYS);
    expect(b).toMatchObject({ id, parent: 0, slug: '', author: site.users.author.id });
    expect(b.title).toEqual({ raw: 'Autosaved title', rendered: 'Autosaved title' });
    expect(b.content).toEqual({ raw: 'Autosaved body', rendered: '<p>Autosaved body</p>\n' });
    expect(b.preview_link).toBe(`${SITE}/?p=${id}&preview=true`);

    const after = (await site.req('GET', `/core/v2/posts/${id}?context=edit`, { as: 'author' })).body;
    expect(after.title.raw).toBe('Autosaved title');
    expect(after.content.raw).toBe('Autosaved body');
    expect(after.status).toBe('draft');
    expect(after._links['version-history'][0].count).toBe(0);
    const list = await site.req('GET', autos('posts', id), { as: 'author' });
    expect(list.status).toBe(200);
    expect(list.body).toEqual([]);
    expect(await site.req('GET', autos('posts', id, '/1'), { as: 'author' })).toBeWpError(404, 'rest_post_no_autosave');
  });

  it('gives another editor of a draft their own autosave and leaves the draft alone', async () => {
    const draft = await site.createPost({ title: 'Someone\'s draft', content: 'Original words' }, 'author');
    const id = draft.id;
    const res = await site.req('POST', autos('posts', id), { as: 'editor', json: { content: 'Editor words' } });
    expect(res.status).toBe(200);
    const a = res.body;
    expect(a.id).not.toBe(id);
    expect(a).toMatchObject({ parent: id, slug: `${id}-autosave-v1`, author: site.users.editor.id });
    expect(a.title.raw).toBe('Someone\'s draft');
    expect(a.content.raw).toBe('Editor words');
    expect(a.preview_link).toMatch(new RegExp(`^${escapeRe(`${SITE}/?p=${id}&preview_id=${id}&preview_nonce=`)}${NONCE}&preview=true$`));
    expect(a._links).toEqual({ parent: [{ href: `${API}/core/v2/posts/${id}` }] });

    const after = await item('posts', id);
    expect(after.content.raw).toBe('Original words');
    expect(after.modified).toBe(draft.modified);
    expect(after._links['version-history'][0].count).toBe(1);
    expect(ids(await site.req('GET', autos('posts', id), { as: 'editor' }))).toEqual([a.id]);
  });

  describe('of a published post', () => {
    let post: any;
    let first: any;
    beforeAll(async () => {
      post = await site.createPost({ title: 'Public title', content: 'Public body', excerpt: 'Public excerpt', status: 'publish' }, 'author');
    });

    it('stores an autosave even for the post\'s author, leaving the post unchanged', async () => {
      const res = await site.req('POST', autos('posts', post.id), { as: 'author', json: { title: 'Public title', content: 'Edited body', excerpt: 'Public excerpt' } });
      expect(res.status).toBe(200);
      first = res.body;
      expect(Object.keys(first).filter((k) => k !== '_links').sort()).toEqual(AUTOSAVE_EDIT_KEYS);
      expect(first.id).not.toBe(post.id);
      expect(first).toMatchObject({ parent: post.id, slug: `${post.id}-autosave-v1`, author: site.users.author.id });
      expect(first.content).toEqual({ raw: 'Edited body', rendered: '<p>Edited body</p>\n' });
      expect(first.excerpt).toEqual({ raw: 'Public excerpt', rendered: '<p>Public excerpt</p>\n' });
      expect(first.meta).toEqual({ footnotes: '' });
      expect(post.link).toBe(`${SITE}/public-title/`);
      expect(first.preview_link).toMatch(new RegExp(`^${escapeRe(`${SITE}/public-title/?preview_id=${post.id}&preview_nonce=`)}${NONCE}&preview=true$`));
      const now = await item('posts', post.id);
      expect(now.content.raw).toBe('Public body');
      expect(now.modified).toBe(post.modified);
    });

    it('replaces the same user\'s autosave on the next save', async () => {
      const res = await site.req('POST', autos('posts', post.id), { as: 'author', json: { content: 'Edited again' } });
      expect(res.status).toBe(200);
      expect(res.body.id).toBe(first.id);
      expect(res.body.content.raw).toBe('Edited again');
      const list = await site.req('GET', `${autos('posts', post.id)}?context=edit`, { as: 'author' });
      expect(list.body.map((a: any) => [a.id, a.content.raw])).toEqual([[first.id, 'Edited again']]);
    });

    it('returns the existing autosave unchanged when the autosaved text equals the post', async () => {
      const res = await site.req('POST', autos('posts', post.id), { as: 'author', json: { title: 'Public title', content: 'Public body', excerpt: 'Public excerpt' } });
      expect(res.status).toBe(200);
      expect(res.body.id).toBe(first.id);
      expect(res.body.content.raw).toBe('Edited again');
      const list = await site.req('GET', `${autos('posts', post.id)}?context=edit`, { as: 'administrator' });
      expect(list.body.map((a: any) => [a.id, a.content.raw])).toEqual([[first.id, 'Edited again']]);
    });

    it('gives a second user their own autosave; omitted fields keep the post\'s values', async () => {
      await nextSecond();
      const res = await site.req('POST', autos('posts', post.id), { as: 'editor', json: { content: 'Editor version' } });
      expect(res.status).toBe(200);
      const second = res.body;
      expect(second.id).not.toBe(first.id);
      expect(second).toMatchObject({ parent: post.id, author: site.users.editor.id, slug: `${post.id}-autosave-v1` });
      expect(second.title.raw).toBe('Public title');
      expect(second.excerpt.raw).toBe('Public excerpt');
      expect(second.content.raw).toBe('Editor version');

      // Everyone's autosaves, newest first, as a plain array without totals.
      const list = await site.req('GET', autos('posts', post.id), { as: 'author' });
      expect(ids(list)).toEqual([second.id, first.id]);
      expect(list.headers.get('x-wp-total')).toBeNull();
      expect(list.headers.get('x-wp-totalpages')).toBeNull();
      // View context by default: rendered text only, no preview link.
      expect(Object.keys(list.body[0])).toEqual(VIEW_KEYS);
      expect(list.body[0].title).toEqual({ rendered: 'Public title' });
      expect(list.body[0]).not.toHaveProperty('preview_link');
      const edit = await site.req('GET', `${autos('posts', post.id)}?context=edit`, { as: 'editor' });
      expect(edit.body[1].preview_link).toMatch(new RegExp(`preview_id=${post.id}&preview_nonce=${NONCE}&preview=true$`));
    });

    it('answers the latest autosave of any user for autosaves/{id}, whatever the id', async () => {
      const list = ids(await site.req('GET', autos('posts', post.id), { as: 'administrator' }));
      for (const any of [list[0], list[1], 1, 987654]) {
        const res = await site.req('GET', autos('posts', post.id, `/${any}`), { as: 'author' });
        expect(res.status, String(any)).toBe(200);
        expect(res.body.id).toBe(list[0]);
        expect(res.body.author).toBe(site.users.editor.id);
        expect(res.body.slug).toBe(`${post.id}-autosave-v1`);
      }
      const edit = await site.req('GET', `${autos('posts', post.id, '/1')}?context=edit`, { as: 'administrator' });
      expect(edit.body.content.raw).toBe('Editor version');
    });

    it('counts the autosaves among the revisions and in the version history', async () => {
      const autosaves = ids(await site.req('GET', autos('posts', post.id), { as: 'administrator' }));
      const list = await site.req('GET', revs('posts', post.id), { as: 'administrator' });
      expect(ids(list).sort()).toEqual([...autosaves].sort());
      expect(list.headers.get('x-wp-total')).toBe('2');
      const links = (await site.req('GET', `/core/v2/posts/${post.id}`)).body._links;
      expect(links['version-history'][0].count).toBe(2);
      expect(links['predecessor-version'][0].id).toBe(ids(list)[0]);
      // A revision-route read of an autosave answers it too.
      const one = await site.req('GET', revs('posts', post.id, `/${autosaves[0]}`), { as: 'administrator' });
      expect(one.status).toBe(200);
      expect(one.body.id).toBe(autosaves[0]);
      expect(one.body.slug).toBe(`${post.id}-autosave-v1`);
      expect(Object.keys(one.body)).toEqual(VIEW_KEYS);
    });

    it('puts an autosave newer than the newest revision first in the list and in predecessor-version', async () => {
      const { id } = await site.createPost({ title: 'Revised then autosaved', content: 'One', status: 'publish' });
      await update('posts', id, { content: 'Two' });
      const [revision] = ids(await site.req('GET', revs('posts', id), { as: 'administrator' }));
      await nextSecond();
      const autosave = (await site.req('POST', autos('posts', id), { as: 'editor', json: { content: 'Three' } })).body;
      expect(ids(await site.req('GET', revs('posts', id), { as: 'administrator' }))).toEqual([autosave.id, revision]);
      const links = (await item('posts', id))._links;
      expect(links['version-history'][0].count).toBe(2);
      expect(links['predecessor-version']).toEqual([{ id: autosave.id, href: `${API}/core/v2/posts/${id}/revisions/${autosave.id}` }]);
    });
  });

  it('filters an author\'s markup in the autosave as an update would', async () => {
    const markup = '<script>alert(1)</script><p>ok</p>';
    const { id } = await site.createPost({ title: 'Filtered', content: 'Clean', status: 'publish' }, 'author');
    const res = await site.req('POST', autos('posts', id), { as: 'author', json: { content: markup } });
    expect(res.status).toBe(200);
    expect(res.body.content.raw).not.toContain('<script');
    expect(res.body.content.raw).toContain('<p>ok</p>');
    const stored = (await site.req('GET', `${autos('posts', id, '/0')}?context=edit`, { as: 'author' })).body;
    expect(stored.content.raw).toBe(res.body.content.raw);
    const other = await site.createPost({ title: 'Updated normally', content: 'Clean', status: 'publish' }, 'author');
    const updated = await update('posts', other.id, { content: markup }, 'author');
    expect(stored.content.raw).toBe(updated.content.raw);
  });

  it('refuses autosaves of unknown or other-typed items, callers without the edit right and invalid values', async () => {
    const { id } = await site.createPost({ title: 'Guarded', status: 'publish' });
    const { id: pageId } = await site.createPage({ title: 'A page', status: 'publish' });
    const save = (target: number, as?: As, json: Json = { content: 'x' }) => site.req('POST', autos('posts', target), { as, json });
    expect(await save(987654, 'administrator')).toBeWpError(404, 'rest_post_invalid_id');
    expect(await save(987654)).toBeWpError(404, 'rest_post_invalid_id');
    expect(await save(pageId, 'administrator')).toBeWpError(404, 'rest_post_invalid_id');
    expect(await save(id)).toBeWpError(401, 'rest_cannot_edit');
    for (const as of ['subscriber', 'contributor', 'author'] as const) expect(await save(id, as), as).toBeWpError(403, 'rest_cannot_edit');
    expect(await save(id, 'administrator', { status: 'bogus' })).toBeWpError(400, 'rest_invalid_param');
    expect(await historyCount('posts', id)).toBe(0);
  });

  it('refuses autosave reads on an unknown parent and to callers without the edit right, and answers none found', async () => {
    const { id } = await site.createPost({ title: 'Nothing autosaved', status: 'publish' });
    expect(await site.req('GET', autos('posts', 987654), { as: 'administrator' })).toBeWpError(404, 'rest_post_invalid_parent');
    expect(await site.req('GET', autos('posts', 987654))).toBeWpError(404, 'rest_post_invalid_parent');
    expect(await site.req('GET', autos('posts', 987654, '/1'), { as: 'administrator' })).toBeWpError(404, 'rest_post_invalid_parent');
    expect(await site.req('GET', autos('posts', id))).toBeWpError(401, 'rest_cannot_read');
    expect(await site.req('GET', autos('posts', id, '/1'))).toBeWpError(401, 'rest_cannot_read');
    for (const as of ['subscriber', 'contributor', 'author'] as const) {
      expect(await site.req('GET', autos('posts', id), { as }), as).toBeWpError(403, 'rest_cannot_read');
      expect(await site.req('GET', autos('posts', id, '/1'), { as }), as).toBeWpError(403, 'rest_cannot_read');
    }
    expect(await site.req('GET', autos('posts', id, '/1'), { as: 'editor' })).toBeWpError(404, 'rest_post_no_autosave');
    const empty = await site.req('GET', autos('posts', id), { as: 'editor' });
    expect(empty.status).toBe(200);
    expect(empty.body).toEqual([]);
  });
});

describe('deleting the parent for good', () => {
  it('deletes its revisions and autosaves with it', async () => {
    const post = await withRevisions('posts', 2);
    const autosave = (await site.req('POST', autos('posts', post.id), { as: 'editor', json: { content: 'Unsaved' } })).body;
    expect(await historyCount('posts', post.id)).toBe(3);
    const survivor = await withRevisions('posts', 1);

    const res = await site.req('DELETE', `/core/v2/posts/${post.id}?force=true`, { as: 'administrator' });
    expect(res.status).toBe(200);
    expect(await site.db.prisma.content.count({ where: { parentId: post.id } })).toBe(0);
    for (const gone of [...post.revisions, autosave.id]) {
      expect(await site.req('GET', revs('posts', survivor.id, `/${gone}`), { as: 'administrator' }), String(gone)).toBeWpError(404, 'rest_post_invalid_id');
    }
    expect(await site.req('GET', revs('posts', post.id), { as: 'administrator' })).toBeWpError(404, 'rest_post_invalid_parent');
    expect(ids(await site.req('GET', revs('posts', survivor.id), { as: 'administrator' }))).toEqual(survivor.revisions);
  });
});

describe('pages', () => {
  let page: any;
  let trail: number[];
  beforeAll(async () => {
    page = await site.createPage({ title: 'Page one', content: 'Page body', status: 'publish' });
    await update('pages', page.id, { title: 'Page two' });
    await update('pages', page.id, { content: 'Page body two' }, 'editor');
    trail = ids(await site.req('GET', revs('pages', page.id), { as: 'administrator' }));
  });

  it('keeps a trail of page revisions with page links', async () => {
    const res = await site.req('GET', revs('pages', page.id), { as: 'editor' });
    expect(res.body).toHaveLength(2);
    expect(res.headers.get('x-wp-total')).toBe('2');
    for (const r of res.body) {
      expect(Object.keys(r)).toEqual(VIEW_KEYS);
      expect(r.parent).toBe(page.id);
      expect(r.slug).toBe(`${page.id}-revision-v1`);
      expect(r._links).toEqual({ parent: [{ href: `${API}/core/v2/pages/${page.id}` }] });
    }
    expect(res.body.map((r: any) => [r.author, r.title.rendered, r.content.rendered])).toEqual([
      [site.users.editor.id, 'Page two', '<p>Page body two</p>\n'],
      [site.users.administrator.id, 'Page two', '<p>Page body</p>\n'],
    ]);
    const one = await site.req('GET', `${revs('pages', page.id, `/${trail[1]}`)}?context=edit`, { as: 'administrator' });
    expect(one.body.content).toEqual({ raw: 'Page body', rendered: '<p>Page body</p>\n' });
    const links = (await site.req('GET', `/core/v2/pages/${page.id}`)).body._links;
    expect(links['version-history']).toEqual([{ count: 2, href: `${API}/core/v2/pages/${page.id}/revisions` }]);
    expect(links['predecessor-version']).toEqual([{ id: trail[0], href: `${API}/core/v2/pages/${page.id}/revisions/${trail[0]}` }]);
  });

  it('keeps posts and pages apart and applies page rights', async () => {
    const post = await withRevisions('posts', 1);
    expect(await site.req('GET', revs('pages', post.id), { as: 'administrator' })).toBeWpError(404, 'rest_post_invalid_parent');
    expect(await site.req('GET', revs('pages', 987654), { as: 'administrator' })).toBeWpError(404, 'rest_post_invalid_parent');
    expect(await site.req('GET', revs('pages', page.id, `/${post.revisions[0]}`), { as: 'administrator' })).toBeWpError(404, 'rest_revision_parent_id_mismatch');
    expect(await site.req('GET', revs('pages', page.id, `/${page.id}`), { as: 'administrator' })).toBeWpError(404, 'rest_post_invalid_id');
    expect(await site.req('GET', revs('pages', page.id))).toBeWpError(401, 'rest_cannot_read');
    expect(await site.req('GET', revs('pages', page.id), { as: 'author' })).toBeWpError(403, 'rest_cannot_read');
    expect(await site.req('GET', revs('pages', page.id, `/${trail[0]}`), { as: 'author' })).toBeWpError(403, 'rest_cannot_read');
    expect(await site.req('DELETE', `${revs('pages', page.id, `/${trail[0]}`)}?force=true`, { as: 'author' })).toBeWpError(403, 'rest_cannot_delete');
    expect(await site.req('DELETE', `${revs('pages', 987654, `/${trail[0]}`)}?force=true`, { as: 'editor' })).toBeWpError(404, 'rest_post_invalid_parent');
    expect(await site.req('DELETE', revs('pages', page.id, `/${trail[0]}`), { as: 'editor' })).toBeWpError(501, 'rest_trash_not_supported');
    expect(await site.req('POST', revs('pages', page.id, `/${trail[1]}/restore`), { as: 'author' })).toBeWpError(403, 'rest_cannot_edit');
    expect(await site.req('POST', revs('pages', page.id, `/${trail[1]}/restore`))).toBeWpError(401, 'rest_cannot_edit');
    expect(await site.req('POST', revs('pages', page.id, `/${post.revisions[0]}/restore`), { as: 'editor' })).toBeWpError(404, 'rest_revision_parent_id_mismatch');
    expect(await site.req('POST', revs('pages', post.id, `/${post.revisions[0]}/restore`), { as: 'editor' })).toBeWpError(404, 'rest_post_invalid_parent');
    expect(await site.req('GET', autos('pages', page.id), { as: 'author' })).toBeWpError(403, 'rest_cannot_read');
    expect(await site.req('GET', autos('pages', post.id), { as: 'administrator' })).toBeWpError(404, 'rest_post_invalid_parent');
    expect(await site.req('POST', autos('pages', post.id), { as: 'administrator', json: { title: 'x' } })).toBeWpError(404, 'rest_post_invalid_id');
    expect(await site.req('POST', autos('pages', page.id), { as: 'author', json: { title: 'x' } })).toBeWpError(403, 'rest_cannot_edit');
  });

  it('restores and deletes page revisions for editors', async () => {
    const p = await site.createPage({ title: 'Restorable', content: 'First text', status: 'publish' });
    await update('pages', p.id, { content: 'Second text' });
    await update('pages', p.id, { content: 'Third text' });
    const [third, second] = ids(await site.req('GET', revs('pages', p.id), { as: 'administrator' }));
    const restored = await site.req('POST', revs('pages', p.id, `/${second}/restore`), { as: 'editor' });
    expect(restored.status).toBe(200);
    expect(restored.body.type).toBe('page');
    expect(restored.body.content.raw).toBe('Second text');
    expect(await historyCount('pages', p.id)).toBe(3);
    const del = await site.req('DELETE', `${revs('pages', p.id, `/${third}`)}?force=true`, { as: 'editor' });
    expect(del.status).toBe(200);
    expect(del.body.deleted).toBe(true);
    expect(del.body.previous.id).toBe(third);
    expect(del.body.previous._links).toEqual({ parent: [{ href: `${API}/core/v2/pages/${p.id}` }] });
    expect(await historyCount('pages', p.id)).toBe(2);
  });

  it('autosaves a published page beside it, and a draft page of its author into itself', async () => {
    const res = await site.req('POST', autos('pages', page.id), { as: 'editor', json: { title: 'Page three' } });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ parent: page.id, slug: `${page.id}-autosave-v1`, author: site.users.editor.id });
    expect(res.body.content.raw).toBe('Page body two');
    expect(page.link).toBe(`${SITE}/page-one/`);
    expect(res.body.preview_link).toMatch(new RegExp(`^${escapeRe(`${SITE}/page-one/?preview_id=${page.id}&preview_nonce=`)}${NONCE}&preview=true$`));
    expect(res.body._links).toEqual({ parent: [{ href: `${API}/core/v2/pages/${page.id}` }] });
    expect((await item('pages', page.id)).title.raw).toBe('Page two');
    expect(ids(await site.req('GET', autos('pages', page.id), { as: 'administrator' }))).toEqual([res.body.id]);
    expect((await site.req('GET', autos('pages', page.id, '/5'), { as: 'administrator' })).body.id).toBe(res.body.id);

    const top = await site.createPage({ title: 'Top draft' }, 'editor');
    const child = await site.createPage({ title: 'Child draft', parent: page.id }, 'editor');
    const own = await site.req('POST', autos('pages', child.id), { as: 'editor', json: { content: 'Child autosaved' } });
    expect(own.status).toBe(200);
    expect(own.body).toMatchObject({ id: child.id, parent: page.id, slug: '', author: site.users.editor.id });
    expect(own.body.preview_link).toBe(`${SITE}/?page_id=${child.id}&preview=true`);
    expect((await item('pages', child.id)).content.raw).toBe('Child autosaved');
    expect(await historyCount('pages', child.id)).toBe(0);
    const topSave = await site.req('POST', autos('pages', top.id), { as: 'editor', json: { title: 'Top autosaved' } });
    expect(topSave.body).toMatchObject({ id: top.id, parent: 0 });
    expect(topSave.body.preview_link).toBe(`${SITE}/?page_id=${top.id}&preview=true`);
  });
});

describe('discovery', () => {
  const PARENT = '(?P<parent>[\\d]+)';
  const ID = '(?P<id>[\\d]+)';
  const routes = (base: Base): [string, string[]][] => [
    [`/core/v2/${base}/${PARENT}/revisions`, ['GET']],
    [`/core/v2/${base}/${PARENT}/revisions/${ID}`, ['GET', 'DELETE']],
    [`/core/v2/${base}/${PARENT}/revisions/${ID}/restore`, ['POST']],
    [`/core/v2/${base}/${ID}/autosaves`, ['GET', 'POST']],
    [`/core/v2/${base}/${PARENT}/autosaves/${ID}`, ['GET']],
  ];

  it('lists the seven routes for posts and pages in the index with their arguments', async () => {
    const index = (await site.req('GET', '/')).body.routes;
    for (const base of ['posts', 'pages'] as const) {
      for (const [pattern, methods] of routes(base)) {
        expect(index[pattern], pattern).toBeDefined();
        expect(index[pattern].methods, pattern).toEqual(methods);
        expect(index[pattern].namespace).toBe('core/v2');
      }
      const list = index[`/core/v2/${base}/${PARENT}/revisions`].endpoints[0].args;
      expect(list.per_page).toMatchObject({ type: 'integer', minimum: 1, maximum: 100 });
      expect(list.per_page).not.toHaveProperty('default');
      expect(list.page).toMatchObject({ type: 'integer', default: 1 });
      expect(list.context).toMatchObject({ default: 'view', enum: ['view', 'embed', 'edit'] });
      expect(list.order).toMatchObject({ default: 'desc', enum: ['asc', 'desc'] });
      expect(list.orderby).toMatchObject({ default: 'date', enum: ['date', 'id', 'include', 'relevance', 'slug', 'include_slugs', 'title'] });
      for (const k of ['search', 'exclude', 'include', 'offset']) expect(list, k).toHaveProperty(k);
      const one = index[`/core/v2/${base}/${PARENT}/revisions/${ID}`].endpoints;
      const del = one.find((e: { methods: string[] }) => e.methods.includes('DELETE'));
      expect(del.args.force).toMatchObject({ type: 'boolean', default: false });
      const autosaves = index[`/core/v2/${base}/${ID}/autosaves`].endpoints[0].args;
      expect(autosaves).toHaveProperty('parent');
      expect(autosaves).toHaveProperty('context');
    }
  });

  it('answers OPTIONS with the revision and autosave schemas', async () => {
    const post = await withRevisions('posts', 1);
    const page = await withRevisions('pages', 1);
    for (const [base, target, title] of [['posts', post, 'post-revision'], ['pages', page, 'page-revision']] as const) {
      const list = await site.req('OPTIONS', revs(base, target.id), { as: 'administrator' });
      expect(list.status).toBe(200);
      expect(list.body.schema.title).toBe(title);
      expect(Object.keys(list.body.schema.properties)).toEqual(expect.arrayContaining(['author', 'date', 'date_gmt', 'id', 'modified', 'modified_gmt', 'parent', 'slug', 'guid', 'title', 'content', 'excerpt']));
      expect(list.body.schema.properties).not.toHaveProperty('preview_link');
      const one = await site.req('OPTIONS', revs(base, target.id, `/${target.revisions[0]}`), { as: 'administrator' });
      expect(one.body.schema.title).toBe(title);
      const restore = await site.req('OPTIONS', revs(base, target.id, `/${target.revisions[0]}/restore`), { as: 'administrator' });
      expect(restore.status).toBe(200);
      expect(restore.body.schema).toBeDefined();
      for (const path of [autos(base, target.id), autos(base, target.id, '/1')]) {
        const res = await site.req('OPTIONS', path, { as: 'administrator' });
        expect(res.status, path).toBe(200);
        expect(res.body.schema.title, path).toBe(title);
        expect(res.body.schema.properties, path).toHaveProperty('preview_link');
      }
    }
  });
});
