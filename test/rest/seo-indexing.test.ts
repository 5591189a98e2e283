// seo/v1 indexing: the loop over a large site, link indexing, writes keeping rows current, the
// routes' permissions, and deployment A without them.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestSite, SITE, type TestSite } from '../helpers/app.js';
import { hashPermalink } from '../../src/seo/indexables/build.js';
import { expectGqlError } from '../helpers/gql.js';

const REST = `${SITE}/wp-json`;
let site: TestSite;

beforeAll(async () => { site = await createTestSite({ deployment: 'B' }); });
afterAll(async () => { await site?.close(); });

/** Calls a route until next_url is false; returns the calls made and every object answered. */
async function loop(path: string): Promise<{ calls: number; objects: any[] }> {
  let next: string | false = `${REST}/seo/v1/${path}`;
  let calls = 0;
  const objects: any[] = [];
  while (next) {
    const res = await site.req('POST', next.slice(REST.length), { as: 'editor' });
    expect(res.status, res.text).toBe(200);
    calls++;
    objects.push(...res.body.objects);
    if (res.body.next_url !== false) expect(res.body.next_url).toBe(`${REST}/seo/v1/${path}`);
    next = res.body.next_url;
    expect(calls).toBeLessThan(100);
  }
  return { calls, objects };
}

describe('indexing', () => {
  it('indexes 1,000 posts in batches of 25, then terms, archives and general pages', async () => {
    const admin = site.users.administrator.id;
    const now = new Date('2026-01-02T03:04:05Z');
    const N = 1000;
    const before = await site.db.prisma.content.count({ where: { type: { in: ['post', 'page'] }, status: { not: 'trash' } } });
    await site.db.prisma.content.createMany({
      data: Array.from({ length: N }, (_, i) => ({
        type: 'post', status: 'publish', authorId: admin, title: `Bulk ${i}`, slug: `bulk-${i}`, content: `<p>word ${i}</p>`,
        date: now, dateGmt: now, modified: now, modifiedGmt: now,
      })),
    });
    const prepared = await site.req('POST', '/seo/v1/indexing/prepare', { as: 'editor' });
    expect(prepared.status).toBe(200);
    expect(prepared.body).toEqual({ objects: [], next_url: false });

    const total = before + N;
    const t0 = performance.now();
    const posts = await loop('indexing/posts');
    console.log(`seo indexing: ${total} posts and pages in ${posts.calls} calls, ${Math.round(performance.now() - t0)} ms`);
    // Full batches each ask for another call; the call after the last full one finds nothing.
    expect(posts.calls).toBe(Math.floor(total / 25) + 1);
    expect(posts.objects.length).toBe(total);
    const missing = await site.db.prisma.$queryRawUnsafe<{ n: number }[]>(
      `SELECT COUNT(*) AS n FROM "Content" c WHERE c."type" IN ('post','page') AND c."status" <> 'trash' AND NOT EXISTS (SELECT 1 FROM "Indexable" i WHERE i."objectType" = 'post' AND i."objectId" = c."id")`,
    );
    expect(Number(missing[0].n)).toBe(0);
    const one = await site.db.prisma.content.findFirstOrThrow({ where: { slug: 'bulk-7' } });
    const row = await site.db.prisma.indexable.findUniqueOrThrow({ where: { objectType_objectId: { objectType: 'post', objectId: one.id } } });
    expect(row.permalink).toBe(`${SITE}/bulk-7/`);
    expect(row.permalinkHash).toBe(hashPermalink(`${SITE}/bulk-7/`));
    expect([row.objectSubType, row.postStatus, row.isPublic, row.authorId, row.primaryFocusKeywordScore]).toEqual(['post', 'publish', true, admin, null]);
    // Readability is scored on indexing (the SEO score needs a keyphrase, which new rows lack).
    const { analyzeReadability } = await import('../../src/seo/analysis/index.js');
    const readability = analyzeReadability({ html: one.content, locale: 'en_US' });
    expect(row.readabilityScore).toBe(readability.rating === 'na' ? null : readability.score);

    const again = await site.req('POST', '/seo/v1/indexing/posts', { as: 'editor' });
    expect(again.body).toEqual({ objects: [], next_url: false });

    const terms = await loop('indexing/terms');
    expect(terms.objects.length).toBe(await site.db.prisma.term.count({ where: { taxonomy: { in: ['category', 'post_tag'] } } }));
    const archives = await loop('indexing/post-type-archives');
    expect(archives.objects.map((o) => [o.object_type, o.object_sub_type])).toEqual([['post-type-archive', 'post']]);
    const general = await loop('indexing/general');
    const kinds = general.objects.map((o) => `${o.object_type}:${o.object_sub_type ?? ''}`);
    expect(kinds).toEqual(expect.arrayContaining(['home-page:', 'system-page:404', 'system-page:search', 'user:']));
    expect(general.objects.find((o) => o.object_type === 'user').object_id).toBe(admin);
    for (const step of ['indexables-complete', 'complete']) {
      const res = await site.req('POST', `/seo/v1/indexing/${step}`, { as: 'editor' });
      expect([res.status, res.body]).toEqual([200, { objects: [], next_url: false }]);
    }
  }, 120_000);

  it('reads links into SeoLink and counts outgoing and incoming links', async () => {
    const target = await site.createPost({ title: 'Link target', status: 'publish' });
    const source = await site.createPost({ title: 'Link source', status: 'publish', content: `<p><a href="${target.link}">in</a> <a href="https://elsewhere.example/x">out</a> <a href="#top">anchor</a></p>` });
    const res = await loop('link-indexing/posts');
    expect(res.objects.map((o) => o.object_id)).toEqual(expect.arrayContaining([source.id, target.id]));
    const src = await site.db.prisma.indexable.findUniqueOrThrow({ where: { objectType_objectId: { objectType: 'post', objectId: source.id } }, include: { links: true } });
    const tgt = await site.db.prisma.indexable.findUniqueOrThrow({ where: { objectType_objectId: { objectType: 'post', objectId: target.id } } });
    expect(src.linkCount).toBe(2);
    expect(src.links.map((l) => [l.type, l.url, l.targetIndexableId]).sort()).toEqual([['external', 'https://elsewhere.example/x', null], ['internal', target.link, tgt.id]]);
    expect(tgt.incomingLinkCount).toBe(1);
    const terms = await loop('link-indexing/terms');
    expect(terms.calls).toBeGreaterThanOrEqual(1);
    // It reads every post the test above made (1,000): as long as that one on a busy machine.
  }, 120_000);

  it('keeps rows current on create, update, trash and delete, and follows terms and users', async () => {
    const post = await site.createPost({ title: 'Fresh', status: 'publish' });
    const find = () => site.db.prisma.indexable.findUnique({ where: { objectType_objectId: { objectType: 'post', objectId: post.id } } });
    expect((await find())?.permalink).toBe(post.link);
    const upd = await site.req('POST', `/core/v2/posts/${post.id}`, { as: 'administrator', json: { slug: 'renamed-fresh' } });
    expect(upd.status).toBe(200);
    expect((await find())?.permalink).toBe(`${SITE}/renamed-fresh/`);
    const trash = await site.req('DELETE', `/core/v2/posts/${post.id}`, { as: 'administrator' });
    expect(trash.status).toBe(200);
    expect([(await find())?.postStatus, (await find())?.isPublic]).toEqual(['trash', false]);
    const del = await site.req('DELETE', `/core/v2/posts/${post.id}?force=true`, { as: 'administrator' });
    expect(del.status).toBe(200);
    expect(await find()).toBeNull();

    const page = await site.createPage({ title: 'A page', status: 'draft' });
    const prow = await site.db.prisma.indexable.findUniqueOrThrow({ where: { objectType_objectId: { objectType: 'post', objectId: page.id } } });
    expect([prow.objectSubType, prow.isPublic, prow.postStatus]).toEqual(['page', false, 'draft']);

    const cat = await site.createTerm('categories', { name: 'Seo Cat' });
    const crow = () => site.db.prisma.indexable.findUnique({ where: { objectType_objectId: { objectType: 'term', objectId: cat.id } } });
    expect((await crow())?.permalink).toBe(`${SITE}/category/seo-cat/`);
    await site.req('POST', `/core/v2/categories/${cat.id}`, { as: 'administrator', json: { slug: 'seo-cat-2' } });
    expect((await crow())?.permalink).toBe(`${SITE}/category/seo-cat-2/`);
    await site.req('DELETE', `/core/v2/categories/${cat.id}?force=true`, { as: 'administrator' });
    expect(await crow()).toBeNull();

    // Users: a first published post makes the author's row; a rename refreshes it; a delete removes it.
    const writer = await site.createUser({ username: 'seo-writer', role: 'author', name: 'Seo Writer' }, 'administrator');
    const urow = () => site.db.prisma.indexable.findUnique({ where: { objectType_objectId: { objectType: 'user', objectId: writer.id } } });
    expect(await urow()).toBeNull();
    const own = await site.req('POST', '/core/v2/posts', { as: 'administrator', json: { title: 'By the writer', status: 'publish', author: writer.id } });
    expect(own.status).toBe(201);
    expect((await urow())?.permalink).toBe(`${SITE}/author/${writer.slug}/`);
    await site.req('POST', `/core/v2/users/${writer.id}`, { as: 'administrator', json: { name: 'Renamed Writer' } });
    expect((await urow())?.breadcrumbTitle).toBe('Renamed Writer');
    const gone = await site.req('DELETE', `/core/v2/users/${writer.id}?force=true&reassign=${site.users.administrator.id}`, { as: 'administrator' });
    expect(gone.status).toBe(200);
    expect(await urow()).toBeNull();
    const moved = await site.db.prisma.indexable.findUniqueOrThrow({ where: { objectType_objectId: { objectType: 'post', objectId: own.body.id } } });
    expect(moved.authorId).toBe(site.users.administrator.id);
  });

  it('refuses callers without edit_posts: 401 anonymous, 403 subscriber', async () => {
    for (const path of ['indexing/posts', 'indexing/prepare', 'link-indexing/terms']) {
      const anon = await site.req('POST', `/seo/v1/${path}`);
      expect([anon.status, anon.body.code]).toEqual([401, 'rest_forbidden']);
      const sub = await site.req('POST', `/seo/v1/${path}`, { as: 'subscriber' });
      expect([sub.status, sub.body.code]).toEqual([403, 'rest_forbidden']);
      const get = await site.req('GET', `/seo/v1/${path}`, { as: 'editor' });
      expect([get.status, get.body.code]).toEqual([404, 'rest_no_route']);
    }
  });

  it('item settings: editors set keyphrase, overrides, noindex and cornerstone; bad input and rights refused', async () => {
    const post = await site.createPost({ title: 'Settings', status: 'publish', content: '<p>The kp is here. Short sentences read well. This text has a few of them, and kp twice.</p>' });
    const res = await site.req('POST', `/seo/v1/item_settings/${post.id}`, { as: 'editor', json: { focus_keyphrase: 'kp', title: '%%title%% custom', meta_description: 'Desc', noindex: true, cornerstone: true, canonical: 'https://canon.example/x' } });
    expect(res.status, res.text).toBe(200);
    expect(res.body).toMatchObject({ id: post.id, focus_keyphrase: 'kp', title: '%%title%% custom', meta_description: 'Desc', noindex: true, cornerstone: true, canonical: 'https://canon.example/x' });
    // The content analysis scores the item once it has a keyphrase (and its readability always).
    const { analyzeSeo, analyzeReadability } = await import('../../src/seo/analysis/index.js');
    const expectedSeo = analyzeSeo({ keyphrase: 'kp', title: 'Settings custom', metaDescription: 'Desc', slug: post.slug, html: post.content.raw, siteUrl: SITE });
    expect(res.body.seo_score).toBe(expectedSeo.rating === 'na' ? null : expectedSeo.score);
    const expectedReadability = analyzeReadability({ html: post.content.raw, locale: 'en_US' });
    expect(res.body.readability_score).toBe(expectedReadability.rating === 'na' ? null : expectedReadability.score);
    const read = await site.req('GET', `/seo/v1/item_settings/${post.id}`, { as: 'editor' });
    expect(read.body).toEqual(res.body);
    const bad = await site.req('POST', `/seo/v1/item_settings/${post.id}`, { as: 'editor', json: { canonical: 'not a url' } });
    expect([bad.status, bad.body.code]).toEqual([400, 'rest_invalid_param']);
    const badType = await site.req('POST', `/seo/v1/item_settings/${post.id}`, { as: 'editor', json: { cornerstone: 'maybe' } });
    expect([badType.status, badType.body.code]).toEqual([400, 'rest_invalid_param']);
    const contributor = await site.req('POST', `/seo/v1/item_settings/${post.id}`, { as: 'contributor', json: { title: 'x' } });
    expect([contributor.status, contributor.body.code]).toEqual([403, 'rest_cannot_edit']);
    const none = await site.req('GET', '/seo/v1/item_settings/999999', { as: 'editor' });
    expect([none.status, none.body.code]).toEqual([404, 'rest_post_invalid_id']);
    // The same through GraphQL.
    const m = await site.gql('mutation($id: Int!) { updateSeoItemSettings(id: $id, input: { focusKeyphrase: "other", noindex: null }) { focusKeyphrase noindex cornerstone } }', { id: post.id }, { as: 'editor' });
    expect(m.data?.updateSeoItemSettings).toEqual({ focusKeyphrase: 'other', noindex: null, cornerstone: true });
    const denied = await site.gql('query($id: Int!) { seoItemSettings(id: $id) { databaseId } }', { id: post.id }, { as: 'author' });
    expectGqlError(denied, 403, 'rest_cannot_edit');
  });
});

describe('indexing failures', () => {
  it('answer 500 wpseo_error_indexing naming the object that failed', async () => {
    const b = await createTestSite({ deployment: 'B' });
    try {
      const post = await b.createPost({ title: 'Breaks', status: 'publish', content: '<p><a href="https://x.example/">x</a></p>' });
      // The links table is gone: reading this post's links fails.
      await b.db.prisma.$executeRawUnsafe('DROP TABLE "SeoLink"');
      const res = await b.req('POST', '/seo/v1/link-indexing/posts', { as: 'editor' });
      expect([res.status, res.body.code]).toEqual([500, 'wpseo_error_indexing']);
      expect(res.body.data).toMatchObject({ status: 500, object_type: 'post', object_id: post.id });
      expect(typeof res.body.data.stackTrace).toBe('string');
    } finally { await b.close(); }
  });
});

describe('deployment A', () => {
  it('has no seo/v1 routes', async () => {
    const a = await createTestSite();
    try {
      for (const [method, path] of [['POST', '/seo/v1/indexing/posts'], ['GET', `/seo/v1/get_head?url=${encodeURIComponent(`${SITE}/`)}`], ['GET', '/seo/v1/item_settings/1']]) {
        const res = await a.req(method, path, { as: 'administrator' });
        expect([res.status, res.body.code]).toEqual([404, 'rest_no_route']);
      }
      const post = await a.createPost({ title: 'A post', status: 'publish' });
      expect(await a.db.prisma.indexable.count()).toBe(0);
      const rec = await a.req('GET', `/core/v2/posts/${post.id}`);
      expect('seo_head' in rec.body).toBe(false);
      const gql = await a.gql('query($id: Int!) { post(id: $id) { seoHead seoHeadJson } }', { id: post.id }, { as: 'administrator' });
      expect(gql.data?.post).toEqual({ seoHead: null, seoHeadJson: null });
      const settings = await a.gql('query($id: Int!) { seoItemSettings(id: $id) { databaseId } }', { id: post.id }, { as: 'administrator' });
      expectGqlError(settings, 404, 'rest_no_route');
    } finally { await a.close(); }
  });
});
