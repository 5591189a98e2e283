// seo/v1 import: a WordPress export (test/fixtures/export.wxr) read into posts, pages, terms and
// users, in chunks over several calls, and a second run that adds nothing.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { XMLParser } from 'fast-xml-parser';
import { createTestSite, API, type TestSite } from '../helpers/app.js';

const WXR = readFileSync(fileURLToPath(new URL('../fixtures/export.wxr', import.meta.url)), 'utf8');
const ROUTE = '/seo/v1/import/wxr/content';

// What the fixture holds, read independently of the importer (plain parse, own counting).
const channel = new XMLParser({ isArray: (n) => ['item', 'wp:author', 'wp:category', 'wp:tag'].includes(n) }).parse(WXR).rss.channel;
const items = channel.item as Record<string, unknown>[];
const authors = (channel['wp:author'] as Record<string, unknown>[]).map((a) => String(a['wp:author_login']));
const categories = channel['wp:category'] as Record<string, unknown>[];
const tags = channel['wp:tag'] as Record<string, unknown>[];
const importable = items.filter((i) => ['post', 'page'].includes(String(i['wp:post_type'])));
const TOTAL = authors.length + categories.length + tags.length + items.length;
const IMPORTABLE = authors.length + categories.length + tags.length + importable.length;

function multipart(xml: string): { body: string; headers: Record<string, string> } {
  const boundary = 'seoimportboundary';
  const body = (`--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="export.xml"\r\nContent-Type: text/xml\r\n\r\n${xml}\r\n--${boundary}--\r\n`);
  return { body, headers: { 'content-type': `multipart/form-data; boundary=${boundary}` } };
}

let site: TestSite;
beforeAll(async () => { site = await createTestSite({ deployment: 'B', seoImportChunkSize: 4 }); });
afterAll(async () => { await site?.close(); });

describe('POST /seo/v1/import/{plugin}/{type}', () => {
  it('refuses callers without manage_options before reading the file', async () => {
    for (const [as, status] of [[undefined, 401], ['editor', 403], ['author', 403]] as const) {
      const res = await site.req('POST', ROUTE, { as, ...multipart(WXR) });
      expect([res.status, res.body.code]).toEqual([status, 'rest_forbidden']);
    }
  });

  it('names unknown importers, missing files and broken files', async () => {
    let res = await site.req('POST', '/seo/v1/import/other/content', { as: 'administrator', ...multipart(WXR) });
    expect([res.status, res.body.code]).toEqual([400, 'seo_import_unknown_plugin']);
    res = await site.req('POST', '/seo/v1/import/wxr/comments', { as: 'administrator', ...multipart(WXR) });
    expect([res.status, res.body.code]).toEqual([400, 'seo_import_unknown_type']);
    res = await site.req('POST', ROUTE, { as: 'administrator' });
    expect([res.status, res.body.code]).toEqual([400, 'seo_import_no_file']);
    res = await site.req('POST', ROUTE, { as: 'administrator', body: '<rss><channel><item></channel></rss>', headers: { 'content-type': 'text/xml' } });
    expect([res.status, res.body.code]).toEqual([400, 'seo_import_invalid_file']);
    res = await site.req('POST', ROUTE, { as: 'administrator', body: '<rss><channel><title>x</title></channel></rss>', headers: { 'content-type': 'text/xml' } });
    expect([res.status, res.body.code]).toEqual([400, 'seo_import_invalid_file']);
  });

  it('imports the export over several calls, then a re-run imports nothing', async () => {
    const calls: any[] = [];
    let res = await site.req('POST', ROUTE, { as: 'administrator', ...multipart(WXR) });
    calls.push(res.body);
    while (res.body.next_url) {
      expect(res.body.next_url).toBe(`${API}${ROUTE}`);
      res = await site.req('POST', res.body.next_url, { as: 'administrator' });
      expect(res.status).toBe(200);
      calls.push(res.body);
    }
    expect(calls.length).toBe(Math.ceil(TOTAL / 4));
    expect(calls.map((c) => c.next_url === false)).toEqual(calls.map((_, i) => i === calls.length - 1));
    const last = calls.at(-1);
    expect(last).toMatchObject({ success: true, status: 200, total: TOTAL, imported: IMPORTABLE, skipped: TOTAL - IMPORTABLE, errors: [] });

    // Authors: created as authors, matched by login.
    const users = (await site.req('GET', '/core/v2/users?context=edit&per_page=100', { as: 'administrator' })).body as any[];
    for (const login of authors) expect(users.find((u) => u.username === login)?.roles).toEqual(['author']);

    // Terms with their parent.
    const cats = (await site.req('GET', '/core/v2/categories?per_page=100')).body as any[];
    const bySlug = (slug: string) => cats.find((c) => c.slug === slug);
    for (const c of categories) {
      const parentSlug = String(c['wp:category_parent'] ?? '');
      expect(bySlug(String(c['wp:category_nicename'])).parent).toBe(parentSlug ? bySlug(parentSlug).id : 0);
    }
    const tagList = (await site.req('GET', '/core/v2/tags?per_page=100')).body as any[];
    expect(tagList.map((t) => t.slug).sort()).toEqual(tags.map((t) => String(t['wp:tag_slug'])).sort());

    // Posts: slug, date, status, author, terms, content and excerpt.
    for (const item of importable) {
      const type = String(item['wp:post_type']);
      const slug = String(item['wp:post_name']);
      const found = (await site.req('GET', `/core/v2/${type}s?slug=${slug}&status=publish,draft&context=edit`, { as: 'administrator' })).body as any[];
      expect(found.length, slug).toBe(1);
      const rec = found[0];
      expect(rec.status).toBe(String(item['wp:status']));
      expect(rec.date).toBe(String(item['wp:post_date']).replace(' ', 'T'));
      expect(rec.content.raw).toBe(String(item['content:encoded']));
      expect(rec.author).toBe(users.find((u) => u.username === String(item['dc:creator'])).id);
      if (type === 'post') {
        expect(rec.excerpt.raw).toBe(String(item['excerpt:encoded'] ?? ''));
        const cat = [item.category].flat().filter(Boolean);
        expect(rec.tags.length + rec.categories.length).toBe(cat.length);
      }
      if (type === 'page') {
        const parentSource = String(item['wp:post_parent']);
        if (parentSource === '0') expect(rec.parent).toBe(0);
        else {
          const parentItem = items.find((i) => String(i['wp:post_id']) === parentSource)!;
          const parent = (await site.req('GET', `/core/v2/pages?slug=${parentItem['wp:post_name']}`)).body[0];
          expect(rec.parent).toBe(parent.id);
          expect(rec.link).toBe(`${parent.link}${slug}/`);
          expect(rec.menu_order).toBe(Number(item['wp:menu_order']));
        }
      }
    }

    // A second run: everything is there already.
    const before = (await site.req('GET', '/core/v2/posts?status=publish,draft&per_page=100', { as: 'administrator' })).body.length;
    res = await site.req('POST', ROUTE, { as: 'administrator', body: WXR, headers: { 'content-type': 'text/xml' } });
    while (res.body.next_url) res = await site.req('POST', ROUTE, { as: 'administrator' });
    expect(res.body).toMatchObject({ total: TOTAL, imported: 0, skipped: TOTAL, errors: [] });
    expect((await site.req('GET', '/core/v2/posts?status=publish,draft&per_page=100', { as: 'administrator' })).body.length).toBe(before);
  });
});
