// block-editor/v1: url-details against pages served here on 127.0.0.1 (allow-listed for the main
// site; the second site has no allow list), the content export in both formats (read back with
// fast-xml-parser, as the importer reads it), a round trip through the seo/v1 importer into a
// fresh deployment-B site, the streamed response, and the generated fallback navigation.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import sharp from 'sharp';
import { XMLParser } from 'fast-xml-parser';
import { createTestSite, API, type TestSite, service } from '../helpers/app.js';
import { EXPORT_PAGE } from '../../src/export/content.js';

let site: TestSite;
/** Deployment B, no allow list: the import target, and a site that refuses loopback. */
let siteB: TestSite;
let server: Server;
let base = '';
let uploads = '';
const hits = new Map<string, number>();
const hit = (path: string) => hits.get(path) ?? 0;

const ARTICLE = '<!doctype html><html><head><meta charset="utf-8">'
  + '<script>document.write(\'<meta name="description" content="decoy"><title>decoy</title>\');</script>'
  + '<title>\n  Fish &amp; Chips   in\tLondon </title>'
  + '<link rel="stylesheet" href="/style.css">'
  + '<link rel="shortcut icon" href="/favicon.ico">'
  + '<link rel="icon" href="/second-icon.png">'
  + '<meta property="og:description" content="The Open Graph description">'
  + '<meta name="description" content="Where to eat &quot;proper&quot; fish">'
  + '<meta property="og:image" content="img/cover.png">'
  + '</head><body><title>Body title</title><meta name="description" content="in the body"></body></html>';

beforeAll(async () => {
  server = createServer((req, res) => {
    const url = new URL(req.url ?? '/', base);
    hits.set(url.pathname, hit(url.pathname) + 1);
    const html = (body: string, type = 'text/html; charset=utf-8') => { res.writeHead(200, { 'content-type': type }); res.end(body); };
    switch (url.pathname) {
      case '/blog/article': return html(ARTICLE);
      case '/og-only':
        return html('<html><head><title>Only OG</title><link rel="apple-touch-icon" href="https://cdn.example/touch.png">'
          + '<meta property="og:description" content="From Open Graph"><meta property="og:image:url" content="//cdn.example/og.jpg"></head><body></body></html>');
      case '/no-head': return html('<html><body><title>Body title</title><p>Text</p></body></html>');
      case '/moved': res.writeHead(301, { location: '/blog/article' }); return res.end();
      case '/redirect-to-private': res.writeHead(302, { location: 'http://10.0.0.1/secret' }); return res.end();
      case '/big': return html(`<html><head><title>Big</title></head><body>${'x'.repeat(2 * 1024 * 1024)}</body></html>`);
      case '/empty': return html('');
      case '/data.json': return html('{"title":"not html"}', 'application/json');
      case '/gone': res.writeHead(410, { 'content-type': 'text/html' }); return res.end('<title>Gone</title>');
      default: res.writeHead(404); return res.end();
    }
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  uploads = mkdtempSync(join(tmpdir(), 'block-editor-uploads-'));
  site = await createTestSite({ urlDetailsAllowHosts: ['127.0.0.1'], uploadsDir: uploads });
  siteB = await createTestSite({ deployment: 'B', seoImportChunkSize: 500 });
});

afterAll(async () => {
  await site?.close();
  await siteB?.close();
  if (server) {
    server.closeAllConnections();
    await new Promise((r) => server.close(r));
  }
  if (uploads) rmSync(uploads, { recursive: true, force: true });
});

const details = (url: string) => `/block-editor/v1/url-details?${new URLSearchParams({ url })}`;

describe('GET /block-editor/v1/url-details', () => {
  it('reads title, icon, description and image from the head, relative URLs made absolute', async () => {
    const res = await site.req('GET', details(`${base}/blog/article`), { as: 'contributor' });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      title: 'Fish & Chips in London',
      icon: `${base}/favicon.ico`,
      description: 'Where to eat "proper" fish',
      image: `${base}/blog/img/cover.png`,
    });
  });

  it('falls back to the Open Graph description; reads og:image:url and apple-touch-icon', async () => {
    const res = await site.req('GET', details(`${base}/og-only`), { as: 'author' });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ title: 'Only OG', icon: 'https://cdn.example/touch.png', description: 'From Open Graph', image: 'http://cdn.example/og.jpg' });
  });

  it('looks in the head only, and answers empty details for a page that is not HTML', async () => {
    const none = { title: '', icon: '', description: '', image: '' };
    const noHead = await site.req('GET', details(`${base}/no-head`), { as: 'editor' });
    expect([noHead.status, noHead.body]).toEqual([200, none]);
    const json = await site.req('GET', details(`${base}/data.json`), { as: 'editor' });
    expect([json.status, json.body]).toEqual([200, none]);
  });

  it('follows a redirect and resolves relative URLs against the page it landed on', async () => {
    const res = await site.req('GET', details(`${base}/moved`), { as: 'editor' });
    expect(res.status).toBe(200);
    expect(res.body.image).toBe(`${base}/blog/img/cover.png`);
  });

  it('answers again from its cache: the page is fetched once', async () => {
    const url = `${base}/og-only?cache=1`;
    const first = await site.req('GET', details(url), { as: 'editor' });
    expect(first.status).toBe(200);
    const fetched = hit('/og-only');
    const again = await site.req('GET', details(url), { as: 'administrator' });
    expect(again.status).toBe(200);
    expect(again.body).toEqual(first.body);
    expect(hit('/og-only')).toBe(fetched);
  });

  it('answers 404 no_response for a non-2xx page, refused addresses, redirects into private ranges and oversize pages', async () => {
    for (const path of ['/gone', '/missing', '/redirect-to-private', '/big']) {
      const res = await site.req('GET', details(`${base}${path}`), { as: 'contributor' });
      expect(res, path).toBeWpError(404, 'no_response');
      expect(res.body.message).toBe('URL not found. Response returned a non-200 status code for this URL.');
    }
    // Loopback on a site that allows nothing, and by name on the allow-listed site (the list names 127.0.0.1).
    const before = hit('/blog/article');
    expect(await siteB.req('GET', details(`${base}/blog/article`), { as: 'contributor' })).toBeWpError(404, 'no_response');
    expect(await site.req('GET', details(`${base.replace('127.0.0.1', 'localhost')}/blog/article`), { as: 'contributor' })).toBeWpError(404, 'no_response');
    expect(await site.req('GET', details('http://169.254.169.254/latest/meta-data/'), { as: 'contributor' })).toBeWpError(404, 'no_response');
    expect(hit('/blog/article')).toBe(before);
  });

  it('answers 404 no_content for an empty page', async () => {
    expect(await site.req('GET', details(`${base}/empty`), { as: 'contributor' })).toBeWpError(404, 'no_content');
  });

  it('refuses a missing or invalid url with 400, before the permission check (as WordPress validates first)', async () => {
    expect(await site.req('GET', '/block-editor/v1/url-details', { as: 'contributor' })).toBeWpError(400, 'rest_missing_callback_param');
    for (const url of ['not a url', 'ftp://example.com/file', 'http://user:pw@example.com/', '']) {
      const res = await site.req('GET', details(url), { as: 'contributor' });
      expect(res, url).toBeWpError(400, 'rest_invalid_param');
      expect(res.body.data.params).toHaveProperty('url');
    }
    expect(await site.req('GET', details('javascript:alert(1)'))).toBeWpError(400, 'rest_invalid_param');
  });

  it('needs edit_posts: 401 anonymous, 403 subscriber', async () => {
    expect(await site.req('GET', details(`${base}/blog/article`))).toBeWpError(401, 'rest_cannot_view_url_details');
    expect(await site.req('GET', details(`${base}/blog/article`), { as: 'subscriber' })).toBeWpError(403, 'rest_cannot_view_url_details');
  });
});

// ---------------------------------------------------------------------------------------------
// Content: made once, exported, imported into siteB, and navigated.

interface Made { posts: any[]; pages: any[]; media: any; categories: Record<string, any>; tags: Record<string, any>; author: any }
let made: Made;

const xmlParser = new XMLParser({
  ignoreAttributes: false, attributeNamePrefix: '@', parseTagValue: false, trimValues: false,
  isArray: (n) => ['item', 'wp:author', 'wp:category', 'wp:tag', 'category'].includes(n),
});
const str = (v: unknown): string => (v === undefined || v === null ? '' : typeof v === 'object' ? str((v as Record<string, unknown>)['#text']) : String(v));

async function exportOf(s: TestSite, format: 'wxr' | 'json') {
  const res = await s.req('GET', `/block-editor/v1/export?format=${format}`, { as: 'administrator' });
  expect(res.status).toBe(200);
  return res;
}

describe('content export, import and navigation', () => {
  beforeAll(async () => {
    const author = await site.createUser({ username: 'wxr_writer', name: 'Wxr Writer', first_name: 'Wxr', last_name: 'Writer', roles: ['author'] });
    const news = await site.createTerm('categories', { name: 'News & Views', slug: 'news', description: 'All the <b>news</b>' });
    const local = await site.createTerm('categories', { name: 'Local', slug: 'local', parent: news.id });
    const fish = await site.createTerm('tags', { name: 'Fish', slug: 'fish' });
    const chips = await site.createTerm('tags', { name: 'Chips', slug: 'chips' });
    const posts = [
      await site.createPost({ title: 'Tricky <em>markup</em> & CDATA', content: '<p>Ends a section ]]> here, and <![CDATA[ opens one]]></p>', excerpt: 'An excerpt ]]>', status: 'publish', categories: [local.id], tags: [fish.id, chips.id], date: '2026-03-04T05:06:07', sticky: true }),
      await site.createPost({ title: 'By the author', content: 'Plain text', status: 'publish', categories: [news.id], author: author.id, date: '2026-02-01T10:00:00' }),
      await site.createPost({ title: 'Still a draft', content: 'Draft body', status: 'draft' }),
    ];
    const about = await site.createPage({ title: 'About', content: 'About us', status: 'publish', menu_order: 1 });
    const team = await site.createPage({ title: 'Team', status: 'publish', parent: about.id, menu_order: 3 });
    const history = await site.createPage({ title: 'History', status: 'publish', parent: about.id, menu_order: 2 });
    const qa = await site.createPage({ title: 'Q & A', status: 'publish', menu_order: 2 });
    const secret = await site.createPage({ title: 'Secret', status: 'draft', menu_order: 0 });
    const orphan = await site.createPage({ title: 'Orphan', status: 'publish', parent: secret.id, menu_order: 5 });
    const png = await sharp({ create: { width: 4, height: 4, channels: 3, background: '#336699' } }).png().toBuffer();
    const upload = await site.req('POST', '/core/v2/media', { as: 'administrator', body: new Uint8Array(png), headers: { 'content-type': 'image/png', 'content-disposition': 'attachment; filename="swatch.png"' } });
    expect(upload.status).toBe(201);
    made = { posts, pages: [about, team, history, qa, secret, orphan], media: upload.body, categories: { news, local }, tags: { fish, chips }, author };
  });

  it('exports WXR: channel, authors, categories with parents, tags, and one item per post, page and attachment', async () => {
    const res = await exportOf(site, 'wxr');
    expect(res.headers.get('content-type')).toBe('application/rss+xml; charset=UTF-8');
    const name = (await site.req('GET', '/')).body.name as string;
    const today = new Date().toISOString().slice(0, 10);
    expect(res.headers.get('content-disposition')).toBe(`attachment; filename="${name.toLowerCase().replace(/[^a-z0-9_-]/g, '') || 'site'}.${today}.xml"`);
    expect(res.headers.get('content-length')).toBeNull();

    const channel = xmlParser.parse(res.text).rss.channel;
    expect(str(channel.title)).toBe(name);
    expect(str(channel['wp:wxr_version'])).toBe('1.2');
    const logins = channel['wp:author'].map((a: any) => str(a['wp:author_login']));
    expect(logins).toEqual(expect.arrayContaining([site.users.administrator.login, 'wxr_writer']));
    const writer = channel['wp:author'].find((a: any) => str(a['wp:author_login']) === 'wxr_writer');
    expect([str(writer['wp:author_first_name']), str(writer['wp:author_last_name']), str(writer['wp:author_display_name'])]).toEqual(['Wxr', 'Writer', 'Wxr Writer']);
    // Every author listed has content.
    expect(logins).not.toContain(site.users.subscriber.login);

    const cat = (slug: string) => channel['wp:category'].find((c: any) => str(c['wp:category_nicename']) === slug);
    expect([str(cat('news')['wp:cat_name']), str(cat('news')['wp:category_parent']), str(cat('news')['wp:category_description'])]).toEqual(['News & Views', '', 'All the <b>news</b>']);
    expect(str(cat('local')['wp:category_parent'])).toBe('news');
    expect(channel['wp:tag'].map((t: any) => str(t['wp:tag_slug'])).sort()).toEqual(['chips', 'fish']);

    const items = channel.item as any[];
    const byId = (id: number) => items.find((i) => str(i['wp:post_id']) === String(id));
    expect(items.map((i) => Number(str(i['wp:post_id']))).sort((a, b) => a - b))
      .toEqual([...made.posts, ...made.pages, made.media].map((r) => r.id).sort((a, b) => a - b));

    const [tricky, byAuthor, draft] = made.posts;
    const t = byId(tricky.id);
    expect(str(t.title)).toBe(tricky.title.raw);
    expect(str(t['content:encoded'])).toBe(tricky.content.raw);
    expect(str(t['excerpt:encoded'])).toBe('An excerpt ]]>');
    expect([str(t['wp:post_type']), str(t['wp:status']), str(t['wp:post_name']), str(t['wp:post_date']), str(t['wp:is_sticky'])])
      .toEqual(['post', 'publish', tricky.slug, '2026-03-04 05:06:07', '1']);
    expect(str(t['wp:post_date_gmt'])).toBe(tricky.date_gmt.replace('T', ' '));
    expect(str(t.link)).toBe(tricky.link);
    expect(t.category.map((c: any) => [c['@domain'], c['@nicename'], str(c)]).sort())
      .toEqual([['category', 'local', 'Local'], ['post_tag', 'chips', 'Chips'], ['post_tag', 'fish', 'Fish']]);
    expect(str(byId(byAuthor.id)['dc:creator'])).toBe('wxr_writer');
    expect(str(byId(draft.id)['wp:status'])).toBe('draft');

    const [about, team] = made.pages;
    expect([str(byId(team.id)['wp:post_type']), str(byId(team.id)['wp:post_parent']), str(byId(team.id)['wp:menu_order'])]).toEqual(['page', String(about.id), '3']);
    expect(str(byId(team.id).link)).toBe(team.link);
    const media = byId(made.media.id);
    expect(str(media['wp:post_type'])).toBe('attachment');
    expect(str(media['wp:attachment_url'])).toBe(made.media.source_url);
  });

  it('exports JSON: one array of the items with their author and terms', async () => {
    const res = await exportOf(site, 'json');
    expect(res.headers.get('content-type')).toBe('application/json; charset=UTF-8');
    expect(res.headers.get('content-disposition')).toMatch(/^attachment; filename="[\w-]+\.\d{4}-\d{2}-\d{2}\.json"$/);
    expect(res.headers.get('content-length')).toBeNull();
    const items = res.body as any[];
    expect(items.map((i) => i.id)).toEqual([...made.posts, ...made.pages, made.media].map((r) => r.id).sort((a, b) => a - b));
    const [tricky, byAuthor] = made.posts;
    const t = items.find((i) => i.id === tricky.id);
    expect(t).toMatchObject({
      type: 'post', status: 'publish', slug: tricky.slug, link: tricky.link, title: tricky.title.raw, content: tricky.content.raw,
      excerpt: 'An excerpt ]]>', date: '2026-03-04T05:06:07', date_gmt: tricky.date_gmt, sticky: true, parent: 0,
      author: { id: site.users.administrator.id, login: site.users.administrator.login },
      categories: [{ slug: 'local', name: 'Local' }],
    });
    expect(t.tags.map((x: any) => x.slug).sort()).toEqual(['chips', 'fish']);
    expect(items.find((i) => i.id === byAuthor.id).author.login).toBe('wxr_writer');
    expect(items.find((i) => i.id === made.pages[1].id)).toMatchObject({ type: 'page', parent: made.pages[0].id, menu_order: 3 });
    expect(items.find((i) => i.id === made.media.id)).toMatchObject({ type: 'attachment', mime_type: 'image/png', source_url: made.media.source_url });
  });

  it('round-trips through the seo/v1 importer into a fresh site: posts, pages, terms and authors', async () => {
    const xml = (await exportOf(site, 'wxr')).text;
    let res = await siteB.req('POST', '/seo/v1/import/wxr/content', { as: 'administrator', body: xml, headers: { 'content-type': 'text/xml' } });
    expect(res.status).toBe(200);
    while (res.body.next_url) {
      expect(res.body.next_url).toBe(`${API}/seo/v1/import/wxr/content`);
      res = await siteB.req('POST', '/seo/v1/import/wxr/content', { as: 'administrator' });
      expect(res.status).toBe(200);
    }
    expect(res.body.errors).toEqual([]);

    // Authors by login.
    const users = (await siteB.req('GET', '/core/v2/users?context=edit&per_page=100', { as: 'administrator' })).body as any[];
    const loginOf = new Map(users.map((u) => [u.id, u.username]));
    expect(users.find((u) => u.username === 'wxr_writer')).toMatchObject({ first_name: 'Wxr', last_name: 'Writer', name: 'Wxr Writer' });

    // Terms: names, descriptions and parents by slug.
    const terms = async (s: TestSite, tax: string) => {
      const list = (await s.req('GET', `/core/v2/${tax}?per_page=100&context=edit`, { as: 'administrator' })).body as any[];
      const slugOf = new Map(list.map((t) => [t.id, t.slug]));
      return list.map((t) => ({ slug: t.slug, name: t.name, description: t.description, parent: t.parent ? slugOf.get(t.parent) : '' }))
        .sort((a, b) => a.slug.localeCompare(b.slug));
    };
    expect(await terms(siteB, 'categories')).toEqual(await terms(site, 'categories'));
    expect(await terms(siteB, 'tags')).toEqual(await terms(site, 'tags'));

    // Posts and pages, compared field by field (ids differ: terms, parents and authors by slug and login).
    const records = async (s: TestSite, type: 'posts' | 'pages', logins: Map<number, string>) => {
      const list = (await s.req('GET', `/core/v2/${type}?status=publish,draft&per_page=100&context=edit`, { as: 'administrator' })).body as any[];
      const cats = new Map(((await s.req('GET', '/core/v2/categories?per_page=100')).body as any[]).map((t) => [t.id, t.slug]));
      const tags = new Map(((await s.req('GET', '/core/v2/tags?per_page=100')).body as any[]).map((t) => [t.id, t.slug]));
      const slugOf = new Map(list.map((r) => [r.id, r.slug]));
      return list.map((r) => ({
        slug: r.slug, status: r.status, title: r.title.raw, content: r.content.raw, excerpt: r.excerpt?.raw, date: r.date,
        author: logins.get(r.author), parent: r.parent ? slugOf.get(r.parent) : '', menu_order: r.menu_order, sticky: r.sticky,
        categories: (r.categories ?? []).map((id: number) => cats.get(id)).sort(), tags: (r.tags ?? []).map((id: number) => tags.get(id)).sort(),
      })).sort((a, b) => a.slug.localeCompare(b.slug));
    };
    const usersA = (await site.req('GET', '/core/v2/users?context=edit&per_page=100', { as: 'administrator' })).body as any[];
    const loginA = new Map(usersA.map((u) => [u.id, u.username]));
    const postsA = await records(site, 'posts', loginA);
    expect(postsA.length).toBe(made.posts.length);
    expect(await records(siteB, 'posts', loginOf)).toEqual(postsA);
    const pagesA = await records(site, 'pages', loginA);
    expect(pagesA.length).toBe(made.pages.length);
    expect(await records(siteB, 'pages', loginOf)).toEqual(pagesA);
  });

  it('answers a fallback navigation of the published pages, children under their parent', async () => {
    const res = await site.req('GET', '/block-editor/v1/navigation-fallback', { as: 'administrator' });
    expect(res.status).toBe(200);
    const [about, team, history, qa, , orphan] = made.pages;
    const node = (p: any, children: unknown[] = []) => ({ id: p.id, title: p.title.raw, link: p.link, menu_order: p.menu_order, children });
    expect(res.body).toMatchObject({ id: 0, type: 'wp_navigation', status: 'publish', title: { rendered: 'Navigation' } });
    // Menu order, then title; the draft is left out, its published child stands at the top.
    expect(res.body.items).toEqual([node(about, [node(history), node(team)]), node(qa), node(orphan)]);
    expect(res.body.content.raw).toContain(`<!-- wp:navigation-submenu {"label":"About","type":"page","id":${about.id},`);
    expect(res.body.content.raw).toContain('"label":"Q \\u0026 A"');
    expect(res.body.content.rendered).toContain(`<a class="wp-block-navigation-item__content" href="${qa.link}"><span class="wp-block-navigation-item__label">Q &amp; A</span></a>`);
    expect(res.body.content.rendered).not.toContain('Secret');
  });

  it('refuses the export and the navigation to everyone but administrators, and a bad format', async () => {
    expect(await site.req('GET', '/block-editor/v1/export')).toBeWpError(401, 'rest_cannot_export');
    expect(await site.req('GET', '/block-editor/v1/export', { as: 'editor' })).toBeWpError(403, 'rest_cannot_export');
    expect(await site.req('GET', '/block-editor/v1/export?format=csv', { as: 'administrator' })).toBeWpError(400, 'rest_invalid_param');
    expect(await site.req('GET', '/block-editor/v1/navigation-fallback')).toBeWpError(401, 'rest_cannot_create');
    expect(await site.req('GET', '/block-editor/v1/navigation-fallback', { as: 'editor' })).toBeWpError(403, 'rest_cannot_create');
  });

  it('reads in pages: more items than one page holds are all exported, once each, in id order', async () => {
    const now = new Date();
    const extra = EXPORT_PAGE + 7;
    await site.db.prisma.content.createMany({
      data: Array.from({ length: extra }, (_, i) => ({
        type: 'post', status: 'publish', authorId: site.users.author.id, title: `Bulk ${i}`, slug: `bulk-${i}`, content: `Bulk body ${i}`,
        date: now, dateGmt: now, modified: now, modifiedGmt: now,
      })),
    });
    const json = (await exportOf(site, 'json')).body as any[];
    const ids = json.map((i) => i.id);
    expect(ids.length).toBe(made.posts.length + made.pages.length + 1 + extra);
    expect(new Set(ids).size).toBe(ids.length);
    expect(ids).toEqual([...ids].sort((a, b) => a - b));
    const items = xmlParser.parse((await exportOf(site, 'wxr')).text).rss.channel.item as any[];
    expect(items.map((i) => Number(str(i['wp:post_id'])))).toEqual(ids);
  });

  it('is streamed: a listening server answers it chunked, without Content-Length; HEAD sends no body', async () => {
    const http = service.createHttpServer(site.app);
    await new Promise<void>((resolve) => http.listen(0, '127.0.0.1', resolve));
    try {
      const url = `http://127.0.0.1:${(http.address() as AddressInfo).port}/wp-json/block-editor/v1/export`;
      const res = await fetch(url, { headers: { authorization: site.users.administrator.auth } });
      expect(res.status).toBe(200);
      expect(res.headers.get('transfer-encoding')).toBe('chunked');
      expect(res.headers.get('content-length')).toBeNull();
      const text = await res.text();
      expect(text.startsWith('<?xml')).toBe(true);
      expect(text.trimEnd().endsWith('</rss>')).toBe(true);
      const head = await fetch(url, { method: 'HEAD', headers: { authorization: site.users.administrator.auth } });
      expect(head.status).toBe(200);
      expect(await head.text()).toBe('');
    } finally {
      http.closeAllConnections();
      await new Promise((r) => http.close(r));
    }
  });
});
