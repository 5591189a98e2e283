import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestSite, SITE, type TestSite } from '../helpers/app.js';
import { analyzeReadability, analyzeSeo } from '../../src/seo/analysis/index.js';

// Known texts: scores are computed with the analysis library and stored in the SEO index, as the
// indexing does; the expected buckets follow the documented ranges, applied here independently.
const FILLER = [
  'Soil needs steady care and water during the dry months.',
  'Plants grow best when their roots reach deep into earth.',
  'However, every bed benefits from compost mixed in early in spring.',
  'Weeds compete with flowers for light, food and fresh moisture.',
  'Therefore mulch keeps the ground cool on long and sunny afternoons.',
];
const filler = (n: number) => Array.from({ length: n }, (_, i) => FILLER[i % FILLER.length]).join(' ');
const GOOD_HTML = `<p>Choosing garden tools is easier with a plan. ${filler(2)}</p><h2>How to store garden tools</h2><p>${filler(10)} `
  + `<a href="/care">Care</a> <a href="https://other.example/guide">Guide</a></p><h2>Cleaning garden tools</h2><img src="t.jpg" alt="Garden tools">`
  + `<p>${filler(10)}</p><h2>Seasonal advice</h2><p>${filler(8)} Sharp garden tools last longer.</p>`;
const GOOD_META = 'Garden tools last for years when you choose them well. This guide explains what to buy, how to clean each tool and where to keep it dry.';
/** n sentences of 22 long words, in the passive, all starting alike, in one paragraph. */
const hard = (n: number) => `<p>${Array(n).fill('Institutional accountability necessitates comprehensive organizational transparency regarding administrative responsibilities, and the procedural documentation requirements were established nationwide by independent regulatory authorities.').join(' ')}</p>`;

const bucket = (score: number | null) => (score === null || score <= 0 ? 'notAnalyzed' : score >= 71 ? 'good' : score >= 41 ? 'ok' : 'bad');

let site: TestSite;
let siteA: TestSite;
const expected: Record<'seo' | 'readability', Record<string, number[]>> = { seo: {}, readability: {} };
const items: { id: number; type: 'post' | 'page'; seo: string; readability: string; category: boolean; noindex?: boolean }[] = [];
let categoryId = 0;
let tagId = 0;
let bareId = 0;

async function index(id: number, o: { keyphrase: string; title: string; meta: string; slug: string; html: string } | null, noindex = false) {
  const seo = o && o.keyphrase ? analyzeSeo({ keyphrase: o.keyphrase, title: o.title, metaDescription: o.meta, slug: o.slug, html: o.html, siteUrl: SITE }) : null;
  const readability = o ? analyzeReadability({ html: o.html, locale: 'en_US' }) : null;
  const data = {
    primaryFocusKeyword: o?.keyphrase || null,
    primaryFocusKeywordScore: seo && seo.rating !== 'na' ? seo.score : null,
    readabilityScore: readability && readability.rating !== 'na' ? readability.score : null,
    isRobotsNoindex: noindex ? true : null,
    postStatus: 'publish',
  };
  await site.db.prisma.indexable.upsert({
    where: { objectType_objectId: { objectType: 'post', objectId: id } },
    create: { objectType: 'post', objectSubType: 'post', objectId: id, ...data },
    update: data,
  });
  return { seo: bucket(data.primaryFocusKeywordScore), readability: bucket(data.readabilityScore) };
}

beforeAll(async () => {
  site = await createTestSite({ deployment: 'B' });
  siteA = await createTestSite({ deployment: 'A' });
  categoryId = (await site.createTerm('categories', { name: 'Gardening' })).id;
  tagId = (await site.createTerm('tags', { name: 'Tools' })).id;
  const posts = [
    { title: 'Garden tools: a practical guide for every season', keyphrase: 'garden tools', meta: GOOD_META, slug: 'garden-tools-guide', html: GOOD_HTML, category: true },
    { title: 'Notes', keyphrase: 'best cheap garden tools for complete beginners in the spring season', meta: '', slug: 'notes', html: hard(6), category: true },
    { title: 'Dense', keyphrase: '', meta: '', slug: 'dense', html: hard(15), category: false },
    { title: 'No keyphrase here', keyphrase: '', meta: '', slug: 'plain', html: GOOD_HTML, category: false },
    { title: 'Garden tools, briefly', keyphrase: 'garden tools', meta: 'Garden tools in short.', slug: 'garden-tools', html: `<p>Garden tools matter. ${filler(25)}</p>`, category: false },
  ];
  for (const p of posts) {
    const created = await site.createPost({ title: p.title, content: p.html, slug: p.slug, status: 'publish', categories: p.category ? [categoryId] : [] });
    const b = await index(created.id, p);
    items.push({ id: created.id, type: 'post', ...b, category: p.category });
  }
  // Published but never indexed: not analysed.
  const bare = await site.createPost({ title: 'Unindexed', content: '<p>Text.</p>', status: 'publish', tags: [tagId] });
  bareId = bare.id;
  await site.db.prisma.indexable.deleteMany({ where: { objectType: 'post', objectId: bare.id } });
  items.push({ id: bare.id, type: 'post', seo: 'notAnalyzed', readability: 'notAnalyzed', category: false });
  // A noindex page with a good text, and a draft that never counts.
  const page = await site.createPage({ title: 'Garden tools: a practical guide for every season', content: GOOD_HTML, slug: 'garden-tools-page', status: 'publish' });
  items.push({ id: page.id, type: 'page', ...(await index(page.id, { keyphrase: 'garden tools', title: page.title.raw, meta: GOOD_META, slug: 'garden-tools', html: GOOD_HTML }, true)), category: false, noindex: true });
  const draft = await site.createPost({ title: 'Draft', content: GOOD_HTML, status: 'draft' });
  await index(draft.id, { keyphrase: 'garden tools', title: 'Draft', meta: '', slug: 'draft', html: GOOD_HTML });
});
afterAll(async () => { await site?.close(); await siteA?.close(); });

const get = (path: string, as: Parameters<TestSite['req']>[2] extends infer O ? O extends { as?: infer A } ? A : never : never = 'editor') => site.req('GET', path, { as });
type Bucket = { name: string; amount: number; links: { view: string | null }; ids: number[] };
const byName = (body: { scores: Bucket[] }) => Object.fromEntries(body.scores.map((s) => [s.name, s]));

describe('SeoScores and ReadabilityScores', () => {
  it('the known texts land in distinct buckets (the fixture covers good, bad and not analysed)', () => {
    const posts = items.filter((i) => i.type === 'post');
    expect(new Set(posts.map((p) => p.seo))).toEqual(new Set(['good', 'bad', 'notAnalyzed', 'ok']));
    expect(new Set(posts.map((p) => p.readability))).toContain('good');
    expect(new Set(posts.map((p) => p.readability))).toContain('bad');
  });

  for (const kind of ['seo', 'readability'] as const) {
    it(`${kind}: counts published posts per bucket, with ids and admin list links`, async () => {
      const res = await get(`/seo/v1/${kind}_scores?contentType=post`);
      expect(res.status).toBe(200);
      expect(res.body.cache_used).toBe(false);
      expect(res.body.scores.map((s: Bucket) => s.name)).toEqual(['good', 'ok', 'bad', 'notAnalyzed']);
      const got = byName(res.body);
      for (const name of ['good', 'ok', 'bad', 'notAnalyzed']) {
        const ids = items.filter((i) => i.type === 'post' && i[kind] === name).map((i) => i.id).sort((a, b) => a - b);
        expect([name, got[name].ids]).toEqual([name, ids]);
        expect(got[name].amount).toBe(ids.length);
        const filter = name === 'notAnalyzed' ? 'na' : name;
        expect(got[name].links.view).toBe(ids.length ? `${SITE}/wp-admin/edit.php?post_status=publish&post_type=post&${kind}_filter=${filter}` : null);
      }
    });
  }

  it('pages are counted apart from posts', async () => {
    const res = await get('/seo/v1/seo_scores?contentType=page');
    const page = items.find((i) => i.type === 'page')!;
    expect(byName(res.body)[page.seo].ids).toEqual([page.id]);
    expect(res.body.scores.reduce((n: number, s: Bucket) => n + s.amount, 0)).toBe(1);
  });

  it('taxonomy and term keep only the items in that term', async () => {
    const res = await get(`/seo/v1/seo_scores?contentType=post&taxonomy=category&term=${categoryId}`);
    expect(res.status).toBe(200);
    const inTerm = items.filter((i) => i.category);
    const all = res.body.scores.flatMap((s: Bucket) => s.ids).sort((a: number, b: number) => a - b);
    expect(all).toEqual(inTerm.map((i) => i.id).sort((a, b) => a - b));
    for (const i of inTerm) expect(byName(res.body)[i.seo].ids).toContain(i.id);
    const good = byName(res.body).good;
    expect(good.links.view).toBe(`${SITE}/wp-admin/edit.php?post_status=publish&post_type=post&seo_filter=good&category_name=gardening`);
    const tagged = await get(`/seo/v1/readability_scores?contentType=post&taxonomy=post_tag&term=${tagId}`);
    // only the unindexed post carries the tag
    expect(byName(tagged.body).notAnalyzed.ids).toEqual([bareId]);
    expect(tagged.body.scores.reduce((n: number, s: Bucket) => n + s.amount, 0)).toBe(1);
  });

  it('accepts troubleshooting and an empty taxonomy', async () => {
    const res = await get('/seo/v1/seo_scores?contentType=post&taxonomy=&troubleshooting=true');
    expect(res.status).toBe(200);
    expect(res.body.scores.reduce((n: number, s: Bucket) => n + s.amount, 0)).toBe(items.filter((i) => i.type === 'post').length);
  });

  it('rejects bad input with WordPress error codes', async () => {
    for (const kind of ['seo', 'readability']) {
      const base = `/seo/v1/${kind}_scores`;
      expect(await get(base)).toBeWpError(400, 'rest_missing_callback_param');
      expect(await get(`${base}?contentType=product`)).toBeWpError(400, 'rest_invalid_param');
      expect(await get(`${base}?contentType=page&taxonomy=category&term=${categoryId}`)).toBeWpError(400, 'rest_invalid_param');
      expect(await get(`${base}?contentType=post&taxonomy=genre&term=1`)).toBeWpError(400, 'rest_invalid_param');
      expect(await get(`${base}?contentType=post&taxonomy=category`)).toBeWpError(400, 'rest_invalid_param');
      expect(await get(`${base}?contentType=post&taxonomy=category&term=${tagId}`)).toBeWpError(400, 'rest_invalid_param');
      expect(await get(`${base}?contentType=post&taxonomy=category&term=999999`)).toBeWpError(400, 'rest_invalid_param');
      expect(await get(`${base}?contentType=post&term=abc`)).toBeWpError(400, 'rest_invalid_param');
      expect(await get(`${base}?contentType=post&troubleshooting=maybe`)).toBeWpError(400, 'rest_invalid_param');
    }
  });

  it('needs edit_posts: 401 anonymous, 403 subscriber, contributors may', async () => {
    for (const kind of ['seo', 'readability']) {
      expect(await site.req('GET', `/seo/v1/${kind}_scores?contentType=post`)).toBeWpError(401, 'rest_forbidden');
      expect(await get(`/seo/v1/${kind}_scores?contentType=post`, 'subscriber')).toBeWpError(403, 'rest_forbidden');
      expect((await get(`/seo/v1/${kind}_scores?contentType=post`, 'contributor')).status).toBe(200);
    }
  });

  it('costs the same number of SQL statements however many posts there are', async () => {
    // The first request after a write re-reads the cached site settings; measure the second.
    const cost = async (path: string) => {
      await get(path);
      const before = site.db.statements;
      expect((await get(path)).status).toBe(200);
      return site.db.statements - before;
    };
    const path = `/seo/v1/seo_scores?contentType=post&taxonomy=category&term=${categoryId}`;
    const few = await cost(path);
    const few2 = await cost('/seo/v1/readability_scores?contentType=post');
    for (let i = 0; i < 4; i++) {
      const p = await site.createPost({ title: `More ${i}`, content: `<p>${filler(3)}</p>`, status: 'publish', categories: [categoryId] });
      const b = await index(p.id, { keyphrase: 'soil', title: `More ${i}`, meta: '', slug: `more-${i}`, html: `<p>${filler(3)}</p>` });
      items.push({ id: p.id, type: 'post', ...b, category: true });
    }
    expect(await cost(path)).toBe(few);
    expect(await cost('/seo/v1/readability_scores?contentType=post')).toBe(few2);
    // sign-in, the term, the items, their index rows
    expect(few).toBeLessThanOrEqual(5);
  });

  it('is not served in deployment A', async () => {
    for (const path of ['/seo/v1/seo_scores?contentType=post', '/seo/v1/readability_scores?contentType=post', '/seo/v1/statistics'])
      expect(await siteA.req('GET', path, { as: 'administrator' })).toBeWpError(404, 'rest_no_route');
  });
});

describe('SeoStatistics', () => {
  it('counts published posts and pages per SEO rank, noindex apart', async () => {
    const res = await get('/seo/v1/statistics', 'subscriber');
    expect(res.status).toBe(200);
    expect(res.body.seo_scores.map((s: { seo_rank: string }) => s.seo_rank)).toEqual(['noindex', 'bad', 'ok', 'good', 'na']);
    const rankOf = (i: (typeof items)[number]) => (i.noindex ? 'noindex' : i.seo === 'notAnalyzed' ? 'na' : i.seo);
    for (const s of res.body.seo_scores as { seo_rank: string; count: number; counts: { post: number; page: number }; link: string | null }[]) {
      const post = items.filter((i) => i.type === 'post' && rankOf(i) === s.seo_rank).length;
      const page = items.filter((i) => i.type === 'page' && rankOf(i) === s.seo_rank).length;
      expect([s.seo_rank, s.counts]).toEqual([s.seo_rank, { post, page }]);
      expect(s.count).toBe(post + page);
      expect(s.link).toBe(post + page ? `${SITE}/wp-admin/edit.php?post_status=publish&seo_filter=${s.seo_rank}` : null);
    }
  });

  it('needs read: 401 anonymous', async () => {
    expect(await site.req('GET', '/seo/v1/statistics')).toBeWpError(401, 'rest_forbidden');
  });

  it('costs a fixed number of SQL statements', async () => {
    await get('/seo/v1/statistics');
    const before = site.db.statements;
    await get('/seo/v1/statistics');
    expect(site.db.statements - before).toBeLessThanOrEqual(4);
  });
});
