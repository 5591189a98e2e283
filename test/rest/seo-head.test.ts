// seo/v1 get_head and the head fields: every value is worked out from the fixtures made here
// (titles, the site's name and tagline, the templates set below), then compared field by field.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestSite, SITE, type TestSite } from '../helpers/app.js';
import { setOption } from '../../src/site/options.js';
import { replaceVars } from '../../src/seo/head/templates.js';

let site: TestSite;
const NAME = 'Head Site';
const TAGLINE = 'Fresh words daily';
const SEP = '|';
const ROBOTS = { index: 'index', follow: 'follow', 'max-snippet': 'max-snippet:-1', 'max-image-preview': 'max-image-preview:large', 'max-video-preview': 'max-video-preview:-1' };
const WORDS = 450;
const PNG = Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAQAAAACCAIAAADwyuo0AAAACXBIWXMAAAPoAAAD6AG1e1JrAAAAEklEQVQImWP4z8AARwjWfwYGAG+qB/l/O6VpAAAAAElFTkSuQmCC', 'base64');

let post: any, page: any, cat: any, media: any, author: any, draft: any;
const head = (url: string) => site.req('GET', `/seo/v1/get_head?url=${encodeURIComponent(url)}`);
const iso = (gmt: string) => `${gmt}+00:00`;
const graphTypes = (json: any) => json.schema['@graph'].map((n: any) => n['@type']).flat();
const node = (json: any, type: string) => json.schema['@graph'].find((n: any) => [n['@type']].flat().includes(type));

beforeAll(async () => {
  site = await createTestSite({ deployment: 'B' });
  const p = site.db.prisma;
  await setOption(p, 'blogname', NAME);
  await setOption(p, 'blogdescription', TAGLINE);
  await setOption(p, 'seo_titles', { separator: SEP, 'metadesc-post': '%%excerpt%%' });
  await setOption(p, 'seo_site_representation', { company_or_person: 'company', company_name: 'Acme Press', company_logo: 'https://cdn.example/logo.png' });
  const up = await site.req('POST', '/core/v2/media', { as: 'administrator', body: PNG, headers: { 'content-type': 'image/png', 'content-disposition': 'attachment; filename="head.png"' } });
  expect(up.status, up.text).toBe(201);
  media = up.body;
  cat = await site.createTerm('categories', { name: 'Field Notes', description: 'Notes from the field' });
  const words = Array.from({ length: WORDS }, (_, i) => `word${i}`).join(' ');
  post = await site.createPost({ title: 'Hello Head', status: 'publish', content: `<p>${words}</p>`, excerpt: 'A short summary', categories: [cat.id], featured_media: media.id });
  page = await site.createPage({ title: 'About Us', status: 'publish', content: '<p>About text</p>' });
  draft = await site.createPost({ title: 'Not yet', status: 'draft' });
  author = (await site.req('GET', `/core/v2/users/${post.author}`)).body;
});
afterAll(async () => { await site?.close(); });

describe('GET /seo/v1/get_head', () => {
  it('a post: title from the template, excerpt description, article data, image, reading time, JSON-LD', async () => {
    const res = await head(post.link);
    expect(res.status, res.text).toBe(200);
    expect(res.body.status).toBe(200);
    const j = res.body.json;
    const title = `Hello Head ${SEP} ${NAME}`;
    expect(j.title).toBe(title);
    expect(j.description).toBe('A short summary');
    expect(j.robots).toEqual(ROBOTS);
    expect(j.canonical).toBe(post.link);
    expect([j.og_locale, j.og_type, j.og_title, j.og_description, j.og_url, j.og_site_name]).toEqual(['en_US', 'article', title, 'A short summary', post.link, NAME]);
    expect(j.article_published_time).toBe(iso(post.date_gmt));
    expect(j.article_modified_time).toBe(iso(post.modified_gmt));
    expect(j.og_image).toEqual([{ width: 4, height: 2, url: media.source_url, type: 'image/png' }]);
    expect(j.author).toBe(author.name);
    expect(j.twitter_card).toBe('summary_large_image');
    const minutes = Math.ceil(WORDS / 200);
    expect(j.twitter_misc).toEqual({ 'Written by': author.name, 'Est. reading time': `${minutes} minutes` });
    expect(graphTypes(j)).toEqual(expect.arrayContaining(['Article', 'WebPage', 'ImageObject', 'BreadcrumbList', 'WebSite', 'Organization', 'Person']));
    const article = node(j, 'Article');
    expect([article.headline, article.wordCount, article.articleSection, article.datePublished]).toEqual(['Hello Head', WORDS, ['Field Notes'], iso(post.date_gmt)]);
    expect(article.publisher).toEqual({ '@id': `${SITE}/#organization` });
    const website = node(j, 'WebSite');
    expect([website.url, website.name, website.description]).toEqual([`${SITE}/`, NAME, TAGLINE]);
    expect(website.potentialAction[0]['@type']).toBe('SearchAction');
    expect(website.potentialAction[0].target.urlTemplate).toBe(`${SITE}/?s={search_term_string}`);
    const org = node(j, 'Organization');
    expect([org.name, org.logo.url]).toEqual(['Acme Press', 'https://cdn.example/logo.png']);
    const crumbs = node(j, 'BreadcrumbList').itemListElement;
    expect(crumbs.map((c: any) => [c.position, c.name, c.item])).toEqual([[1, 'Home', `${SITE}/`], [2, 'Hello Head', undefined]]);
    expect(node(j, 'WebPage').url).toBe(post.link);
    expect(node(j, 'Person')).toMatchObject({ name: author.name, url: `${SITE}/author/${author.slug}/` });
    // The HTML carries the same values.
    const html: string = res.body.html;
    expect(html).toContain(`<title>Hello Head ${SEP} ${NAME}</title>`);
    expect(html).toContain(`<link rel="canonical" href="${post.link}" />`);
    expect(html).toContain('<meta property="og:type" content="article" />');
    expect(html).toContain('<meta property="og:image:width" content="4" />');
    expect(html).toContain('<meta name="twitter:label1" content="Written by" />');
    const ld = /<script type="application\/ld\+json"[^>]*>(.*?)<\/script>/s.exec(html);
    expect(JSON.parse(ld![1])).toEqual(j.schema);
  });

  it('a page: website type, no article times or reading time', async () => {
    const res = await head(page.link);
    expect(res.status).toBe(200);
    const j = res.body.json;
    expect([j.title, j.og_type, j.canonical, j.og_url]).toEqual([`About Us ${SEP} ${NAME}`, 'website', page.link, page.link]);
    expect(j.description).toBeUndefined();
    expect(j.article_published_time).toBeUndefined();
    expect(j.twitter_misc).toBeUndefined();
    expect(graphTypes(j)).not.toContain('Article');
  });

  it('a category archive and the home page', async () => {
    const term = await head(cat.link);
    expect(term.status).toBe(200);
    expect([term.body.json.title, term.body.json.canonical]).toEqual([`Field Notes Archives ${SEP} ${NAME}`, cat.link]);
    expect(graphTypes(term.body.json)).toContain('CollectionPage');
    const home = await head(`${SITE}/`);
    expect(home.status).toBe(200);
    expect([home.body.json.title, home.body.json.canonical, home.body.json.og_type]).toEqual([`${NAME} ${SEP} ${TAGLINE}`, `${SITE}/`, 'website']);
    // A static front page: the home URL's head is the page's, even once the home page is indexed.
    await site.req('POST', '/seo/v1/indexing/general', { as: 'editor' });
    await setOption(site.db.prisma, 'show_on_front', 'page');
    await setOption(site.db.prisma, 'page_on_front', page.id);
    try {
      const front = await head(`${SITE}/`);
      expect([front.status, front.body.json.title, front.body.json.canonical]).toEqual([200, `About Us ${SEP} ${NAME}`, page.link]);
    } finally {
      await setOption(site.db.prisma, 'show_on_front', 'posts');
      await setOption(site.db.prisma, 'page_on_front', 0);
    }
  });

  it('an author archive and a tag archive', async () => {
    const res = await head(`${SITE}/author/${author.slug}/`);
    expect(res.status).toBe(200);
    const j = res.body.json;
    expect([j.title, j.og_type, j.canonical]).toEqual([`${author.name}, Author at ${NAME}`, 'profile', `${SITE}/author/${author.slug}/`]);
    expect(graphTypes(j)).toContain('ProfilePage');
    const tag = await site.createTerm('tags', { name: 'Tagged Thing' });
    const t = await head(tag.link);
    expect([t.status, t.body.json.title]).toEqual([200, `Tagged Thing Archives ${SEP} ${NAME}`]);
    const none = await head(`${SITE}/tag/no-such-tag/`);
    expect(none.status).toBe(404);
  });

  it('an unknown URL, a draft, another host: the 404 head with HTTP 404', async () => {
    for (const url of [`${SITE}/no-such-thing/`, draft.link, 'https://elsewhere.example/hello-head/']) {
      const res = await head(url);
      expect([res.status, res.body.status], url).toEqual([404, 404]);
      expect(res.body.json.title).toBe(`Page not found ${SEP} ${NAME}`);
      expect(res.body.json.robots.index).toBe('noindex');
      expect(res.body.json.canonical).toBeUndefined();
    }
  });

  it('item settings change the head: title and description overrides, canonical, noindex', async () => {
    const set = await site.req('POST', `/seo/v1/item_settings/${post.id}`, { as: 'editor', json: { title: '%%title%% custom %%sep%% %%sitename%%', meta_description: 'Own words', canonical: 'https://canon.example/hello/' } });
    expect(set.status, set.text).toBe(200);
    let j = (await head(post.link)).body.json;
    expect([j.title, j.description, j.canonical, j.og_url]).toEqual([`Hello Head custom ${SEP} ${NAME}`, 'Own words', 'https://canon.example/hello/', 'https://canon.example/hello/']);
    await site.req('POST', `/seo/v1/item_settings/${post.id}`, { as: 'editor', json: { noindex: true } });
    j = (await head(post.link)).body.json;
    expect(j.robots).toEqual({ index: 'noindex', follow: 'follow' });
    expect(j.canonical).toBeUndefined();
    await site.req('POST', `/seo/v1/item_settings/${post.id}`, { as: 'editor', json: { noindex: null, title: '', meta_description: '', canonical: '' } });
    j = (await head(post.link)).body.json;
    expect([j.title, j.description, j.canonical]).toEqual([`Hello Head ${SEP} ${NAME}`, 'A short summary', post.link]);
  });

  it('a non-URL is 400 rest_invalid_param; none is 400 rest_missing_callback_param', async () => {
    const bad = await head('not a url');
    expect([bad.status, bad.body.code]).toEqual([400, 'rest_invalid_param']);
    const ftp = await head('ftp://site.test/x');
    expect([ftp.status, ftp.body.code]).toEqual([400, 'rest_invalid_param']);
    const none = await site.req('GET', '/seo/v1/get_head');
    expect([none.status, none.body.code]).toEqual([400, 'rest_missing_callback_param']);
  });
});

describe('seo_head fields and the public pages', () => {
  it('a post record carries seo_head and seo_head_json equal to get_head; a draft carries null', async () => {
    const rec = await site.req('GET', `/core/v2/posts/${post.id}`);
    const h = await head(post.link);
    expect(rec.body.seo_head).toBe(h.body.html);
    expect(rec.body.seo_head_json).toEqual(h.body.json);
    const pageRec = await site.req('GET', `/core/v2/pages/${page.id}`);
    expect(pageRec.body.seo_head_json.title).toBe(`About Us ${SEP} ${NAME}`);
    const d = await site.req('GET', `/core/v2/posts/${draft.id}?context=edit`, { as: 'administrator' });
    expect([d.body.seo_head, d.body.seo_head_json]).toEqual([null, null]);
    const catRec = await site.req('GET', `/core/v2/categories/${cat.id}`);
    expect(catRec.body.seo_head_json).toEqual((await head(cat.link)).body.json);
    const userRec = await site.req('GET', `/core/v2/users/${author.id}`);
    expect(userRec.body.seo_head_json).toEqual((await head(`${SITE}/author/${author.slug}/`)).body.json);
    // A user without a published post has no archive, so no head.
    const sub = await site.req('GET', `/core/v2/users/${site.users.subscriber.id}`, { as: 'administrator' });
    expect([sub.status, sub.body.seo_head, sub.body.seo_head_json]).toEqual([200, null, null]);
    const gql = await site.gql(`query($id: Int!) { post(id: $id) { seoHead seoHeadJson } }`, { id: post.id });
    expect(gql.data?.post).toEqual({ seoHead: h.body.html, seoHeadJson: h.body.json });
  });

  it('lists carry the same heads as single reads, at a fixed statement count', async () => {
    for (let i = 0; i < 6; i++) await site.createPost({ title: `Listed ${i}`, status: 'publish' });
    const list = await site.req('GET', '/core/v2/posts?per_page=3');
    expect(list.status).toBe(200);
    for (const item of list.body) {
      const single = await site.req('GET', `/core/v2/posts/${item.id}`);
      expect(item.seo_head_json).toEqual(single.body.seo_head_json);
      expect(item.seo_head).toBe(single.body.seo_head);
      expect(item.seo_head_json.og_url).toBe(item.link);
    }
    const cost = async (perPage: number) => {
      const before = site.db.statements;
      const res = await site.req('GET', `/core/v2/posts?per_page=${perPage}&order=asc`, { as: 'editor' });
      expect(res.body.filter((p: { seo_head: string | null }) => p.seo_head).length).toBe(perPage);
      return site.db.statements - before;
    };
    // One list first: what is read once per database version (settings, term slugs) is then read.
    await cost(6);
    expect(await cost(6)).toBe(await cost(2));
  });

  it('builds no head when _fields leaves both out: the same statements as deployment A', async () => {
    // Each site answers one list first, so both measure with their settings already read.
    await site.req('GET', '/core/v2/posts?per_page=4&_fields=id');
    const before = site.db.statements;
    const list = await site.req('GET', '/core/v2/posts?per_page=5&_fields=id');
    const used = site.db.statements - before;
    expect(list.status).toBe(200);
    expect(list.body[0].seo_head).toBeUndefined();
    const a = await createTestSite();
    try {
      for (let i = 0; i < 5; i++) await a.createPost({ title: `A ${i}`, status: 'publish' });
      await a.req('GET', '/core/v2/posts?per_page=4&_fields=id');
      const b0 = a.db.statements;
      await a.req('GET', '/core/v2/posts?per_page=5&_fields=id');
      expect(used).toBe(a.db.statements - b0);
    } finally { await a.close(); }
  });

  it('the public pages print the SEO head in deployment B', async () => {
    const res = await site.app.fetch(new Request(post.link));
    expect(res.status).toBe(200);
    const html = await res.text();
    const h = (await head(post.link)).body.html as string;
    expect(html).toContain(h);
    expect(html.match(/<title>/g)?.length).toBe(1);
    const missing = await site.app.fetch(new Request(`${SITE}/nothing-here/`));
    expect(missing.status).toBe(404);
    expect(await missing.text()).toContain(`<title>Page not found ${SEP} ${NAME}</title>`);
  });
});

describe('templates', () => {
  it('replaces variables, drops empty ones and tidies separators', () => {
    expect(replaceVars('%%title%% %%page%% %%sep%% %%sitename%%', { title: 'T', sitename: 'S' })).toBe('T - S');
    expect(replaceVars('%%title%% %%page%% %%sep%% %%sitename%%', { title: 'T', sitename: 'S', page: { number: 2, of: 3 }, sep: '|' })).toBe('T Page 2 of 3 | S');
    expect(replaceVars('%%title%% %%sep%% %%sitedesc%%', { title: 'T', sitedesc: '' })).toBe('T');
    expect(replaceVars('%%sep%% %%title%% %%sep%% %%sep%% %%sitename%%', { title: 'T', sitename: 'S' })).toBe('T - S');
    expect(replaceVars('%%term_title%% Archives %%unknown%%', { term_title: 'News' })).toBe('News Archives');
    expect(replaceVars('%%category%%, %%primary_category%% by %%name%%', { category: 'A, B', primary_category: 'A', name: 'N' })).toBe('A, B, A by N');
  });
});
