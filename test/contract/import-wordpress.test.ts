// `npm run cli -- import wordpress`: the real export in test/fixtures/wordpress-export (WordPress
// 6.1's exporter; its README counts everything in it) imported into a test site, its uploads
// served by a loopback server this file starts, then every count checked through REST (and a few
// through GraphQL), the files served, the text rewritten; a second run changes nothing, a dry run
// writes nothing, a host not allowed is skipped with its reason, a stopped run resumes.
import { execFile } from 'node:child_process';
import { createServer, type Server } from 'node:http';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { extname, join, normalize } from 'node:path';
import { Writable } from 'node:stream';
import { promisify } from 'node:util';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestSite, provider, SITE, type TestSite } from '../helpers/app.js';
import { importCommand } from '../../scripts/import-wordpress.js';
import { generateWxr } from '../../bench/wxr.js';
import { parseWxrDocument } from '../../src/import/wxr/parse.js';
import { importWordPress } from '../../src/import/wordpress/service.js';
import { createContext } from '../../src/context.js';

const root = join(import.meta.dirname, '../..');
const FIXTURE = join(root, 'test/fixtures/wordpress-export');
const EXPORT = join(FIXTURE, 'site.wxr.xml');
const OLD = 'http://127.0.0.1:8088';
const fixture = parseWxrDocument(readFileSync(EXPORT, 'utf8'));
const tmp = mkdtempSync(join(tmpdir(), 'wxr-import-'));

const TYPES: Record<string, string> = { '.jpg': 'image/jpeg', '.png': 'image/png', '.gif': 'image/gif', '.pdf': 'application/pdf' };

/** The fixture's uploads at /wp-content/uploads/ on a loopback port; every path asked for is noted. */
async function uploadsServer(): Promise<{ origin: string; requests: string[]; server: Server }> {
  const requests: string[] = [];
  const server = createServer((req, res) => {
    const path = decodeURIComponent(new URL(req.url ?? '/', 'http://x').pathname);
    requests.push(path);
    const rel = normalize(path.replace(/^\/wp-content\/uploads\//, ''));
    if (!path.startsWith('/wp-content/uploads/') || rel.startsWith('..')) { res.writeHead(404).end(); return; }
    try {
      const body = readFileSync(join(FIXTURE, 'uploads', rel));
      res.writeHead(200, { 'content-type': TYPES[extname(rel).toLowerCase()] ?? 'application/octet-stream', 'content-length': body.length }).end(body);
    } catch {
      res.writeHead(404).end();
    }
  });
  await new Promise<void>((ready) => server.listen(0, '127.0.0.1', ready));
  return { origin: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, requests, server };
}

class Sink extends Writable {
  text = '';
  override _write(chunk: Buffer, _enc: string, done: () => void) { this.text += chunk.toString(); done(); }
}

/** Runs the command in process against the test site (its database and its media storage). */
async function runImport(site: TestSite, file: string, flags: Record<string, string | true>) {
  const out = new Sink();
  const err = new Sink();
  const code = await importCommand({ db: site.db, config: site.app.config, file, flags, media: site.app.media, out, err });
  return { code, out: out.text, err: err.text };
}

/** `kind: imported N, matched existing N, skipped: already imported N, skipped N` lines of the summary. */
function counts(out: string): Record<string, { imported: number; matched: number; already: number; skipped: number }> {
  const found: Record<string, { imported: number; matched: number; already: number; skipped: number }> = {};
  for (const m of out.matchAll(/^ {2}(\w+): (?:imported|would import) (\d+), matched existing (\d+), skipped: already imported (\d+), skipped (\d+)$/gm)) {
    found[m[1]] = { imported: +m[2], matched: +m[3], already: +m[4], skipped: +m[5] };
  }
  return found;
}

/** How many rows each table holds, the newest event and the newest modification: equal snapshots mean nothing was written. */
async function snapshot(site: TestSite) {
  const p = site.db.prisma;
  const [content, meta, terms, rels, users, comments, records, events, modified] = await Promise.all([
    p.content.count(), p.postMeta.count(), p.term.count(), p.termRelationship.count(), p.user.count(), p.comment.count(), p.importRecord.count(),
    p.contentEvent.aggregate({ _max: { id: true } }), p.content.aggregate({ _max: { modified: true } }),
  ]);
  return { content, meta, terms, rels, users, comments, records, lastEvent: events._max.id, modified: modified._max.modified?.toISOString() };
}

const total = (res: { headers: Headers }) => Number(res.headers.get('x-wp-total'));

afterAll(() => rmSync(tmp, { recursive: true, force: true }));

describe('import wordpress: the fixture export', () => {
  let site: TestSite;
  let uploads: Awaited<ReturnType<typeof uploadsServer>>;
  let flags: Record<string, string>;
  let first: Awaited<ReturnType<typeof runImport>>;
  const before: Record<string, number> = {};
  /** Ids made by the import, by kind, from its records. */
  const made: Record<string, number[]> = {};
  const bySlug = new Map<string, any>();
  let lastEvent = 0;

  beforeAll(async () => {
    site = await createTestSite({ uploadsDir: join(tmp, 'uploads-fixture') });
    uploads = await uploadsServer();
    for (const status of ['publish', 'future', 'draft', 'pending', 'private', 'trash']) {
      before[status] = total(await site.req('GET', `/core/v2/posts?status=${status}&per_page=1`, { as: 'administrator' }));
    }
    flags = { 'allow-host': new URL(uploads.origin).host, 'base-url-map': `${OLD}=${uploads.origin}` };
    lastEvent = (await site.db.prisma.contentEvent.aggregate({ _max: { id: true } }))._max.id ?? 0;
    first = await runImport(site, EXPORT, flags);
    for (const r of await site.db.prisma.importRecord.findMany({ where: { source: OLD } })) (made[r.kind] ??= []).push(r.targetId);
    const res = await site.req('GET', `/core/v2/pages?status=publish,draft&per_page=100&context=edit`, { as: 'administrator' });
    for (const p of res.body) bySlug.set(`page:${p.slug}`, p);
  }, 120_000);
  afterAll(async () => {
    await site?.close();
    uploads?.server.close();
  });

  it('succeeds, and its summary has every count of the export', () => {
    expect(first.code, first.err).toBe(0);
    const c = counts(first.out);
    expect(c.post).toEqual({ imported: 63, matched: 0, already: 0, skipped: 0 });
    expect(c.page).toEqual({ imported: 10, matched: 0, already: 0, skipped: 0 });
    expect(c.attachment).toEqual({ imported: 15, matched: 0, already: 0, skipped: 0 });
    expect(c.nav_menu_item).toEqual({ imported: 21, matched: 0, already: 0, skipped: 0 });
    expect(c.comment).toEqual({ imported: 42, matched: 0, already: 0, skipped: 0 });
    // The test site's users have the export's authors' logins and addresses: used, not duplicated.
    expect(c.author).toEqual({ imported: 0, matched: 3, already: 0, skipped: 0 });
    expect(c.category.imported + c.category.matched).toBe(9);
    expect(c.post_tag.imported + c.post_tag.matched).toBe(12);
    expect(c.nav_menu.imported).toBe(2);
    expect(c.post_format).toEqual({ imported: 0, matched: 0, already: 0, skipped: 7 });
    expect(first.out).toMatch(/^ {2}post_format 23 post_format post-format-aside: a post format is kept as the item's format/m);
    expect(made.post).toHaveLength(73);
  });

  it('brings posts in every status, sticky and password-protected ones included', async () => {
    const now = Date.now();
    const future = fixture.items.filter((i) => i.type === 'post' && i.status === 'future' && Date.parse(`${i.dateGmt.replace(' ', 'T')}Z`) > now).length;
    const expected: Record<string, number> = { publish: 52 + (2 - future), future, draft: 3, pending: 3, private: 2, trash: 1 };
    for (const [status, n] of Object.entries(expected)) {
      const res = await site.req('GET', `/core/v2/posts?status=${status}&per_page=1`, { as: 'administrator' });
      expect(total(res) - before[status], status).toBe(n);
    }
    const sticky = await site.req('GET', `/core/v2/posts?sticky=true&per_page=100&include=${made.post.join(',')}`, { as: 'administrator' });
    expect(sticky.body).toHaveLength(1);
    const all = await site.req('GET', `/core/v2/posts?status=publish&per_page=100&include=${made.post.join(',')}`);
    expect(all.body.filter((p: any) => p.content.protected)).toHaveLength(1);
    const trashed = await site.req('GET', `/core/v2/posts?status=trash&per_page=100&include=${made.post.join(',')}&context=edit`, { as: 'administrator' });
    expect(trashed.body[0].slug).toMatch(/__trashed$/);
    // Post formats come from the post_format terms: aside 1, gallery 1, image 2, link 1, quote 1, status 1, video 1.
    const formats = await site.db.prisma.content.groupBy({ by: ['format'], where: { id: { in: made.post } , type: 'post' }, _count: true });
    expect(Object.fromEntries(formats.filter((f) => f.format !== 'standard').map((f) => [f.format, f._count]))).toEqual({ aside: 1, gallery: 1, image: 2, link: 1, quote: 1, status: 1, video: 1 });
    // Dates as exported: the site-local wall clock and the GMT instant two hours apart.
    const welcome = (await site.req('GET', `/core/v2/posts?slug=welcome-to-the-new-northshore-chronicle`)).body[0];
    expect([welcome.date, welcome.date_gmt]).toEqual(['2025-12-01T08:00:00', '2025-12-01T06:00:00']);
  });

  it('brings pages with their parents, order and template', () => {
    const page = (slug: string) => bySlug.get(`page:${slug}`);
    expect(bySlug.size).toBeGreaterThanOrEqual(10);
    expect(page('team').parent).toBe(page('about').id);
    expect(page('jane').parent).toBe(page('team').id);
    expect(page('omar').parent).toBe(page('team').id);
    expect(page('history').parent).toBe(page('about').id);
    expect([page('careers').parent, page('careers').status]).toEqual([page('about').id, 'draft']);
    expect(page('newsletter').template).toBe('blank');
    expect(page('jane').link).toBe(`${SITE}/about/team/jane/`);
    expect(Math.max(...[...bySlug.values()].map((p) => p.menu_order))).toBe(5);
  });

  it('downloads the attachments and stores them as uploads, with their sizes served', async () => {
    const res = await site.req('GET', `/core/v2/media?per_page=100&include=${made.attachment.join(',')}&context=edit`, { as: 'administrator' });
    const media: any[] = res.body;
    expect(media).toHaveLength(15);
    expect(media.filter((m) => m.mime_type.startsWith('image/'))).toHaveLength(14);
    expect(media.filter((m) => m.mime_type === 'application/pdf')).toHaveLength(1);
    expect(media.filter((m) => m.alt_text)).toHaveLength(12);
    expect(media.filter((m) => m.post)).toHaveLength(13);
    expect(media.filter((m) => m.caption.raw)).not.toHaveLength(0);
    expect(media.filter((m) => m.description.raw)).not.toHaveLength(0);
    const harbour = media.find((m) => m.slug === 'harbour-at-sunrise');
    expect(harbour.source_url).toMatch(/\/wp-content\/uploads\/2026\/11\/harbour-sunrise-scaled\.jpg$/);
    expect(harbour.media_details.original_image).toBe('harbour-sunrise.jpg');
    const rotated = media.find((m) => m.source_url.includes('IMG_2041'));
    expect(rotated.source_url).toMatch(/IMG_2041-rotated\.jpg$/);
    expect(rotated.media_details.original_image).toBe('IMG_2041.jpg');
    // The exporting site's folders are kept.
    expect(media.find((m) => m.source_url.includes('ferry-terminal')).source_url).toContain('/wp-content/uploads/2025/03/');
    for (const m of media) {
      const urls = [m.source_url, ...Object.values(m.media_details.sizes ?? {}).map((s: any) => s.source_url)];
      if (m.mime_type.startsWith('image/') && !m.source_url.includes('comment-icon')) expect(urls.length, m.slug).toBeGreaterThan(2);
      for (const url of urls) {
        const got = await site.req('GET', url);
        expect(got.status, url).toBe(200);
        expect(got.headers.get('content-type'), url).toBe(m.mime_type);
        expect(Number(got.headers.get('content-length')), url).toBeGreaterThan(0);
      }
    }
  });

  it('remaps featured images, image classes and block ids, and rewrites the URLs in the text', async () => {
    const items = await site.db.prisma.content.findMany({ where: { id: { in: made.post } }, select: { id: true, content: true, excerpt: true, featuredMedia: true } });
    const attachments = new Set(made.attachment);
    const featured = items.filter((i) => i.featuredMedia);
    expect(featured).toHaveLength(17);
    for (const i of featured) expect(attachments.has(i.featuredMedia), String(i.id)).toBe(true);
    const text = items.map((i) => `${i.content}\n${i.excerpt}`).join('\n');
    expect(text).not.toContain(`${OLD}/wp-content/uploads/`);
    // Only the old site's admin address stays: nothing was imported for it.
    expect([...new Set(text.match(/http:\/\/127\.0\.0\.1:8088\/[^"'\s<]*/g) ?? [])]).toEqual([`${OLD}/wp-admin/`]);
    const classIds = [...text.matchAll(/wp-image-(\d+)/g)].map((m) => Number(m[1]));
    expect(classIds.length).toBeGreaterThan(10);
    for (const id of classIds) expect(attachments.has(id), `wp-image-${id}`).toBe(true);
    const blockIds = [...text.matchAll(/<!-- wp:image \{"id":(\d+)/g)].map((m) => Number(m[1]));
    for (const id of blockIds) expect(attachments.has(id), `wp:image id ${id}`).toBe(true);
    const gallery = /\[gallery [^\]]*ids="([\d,]+)"/.exec(text);
    expect(gallery?.[1].split(',').every((id) => attachments.has(Number(id)))).toBe(true);
    expect(text).toContain(`href="${SITE}/about/team/jane/"`);
    expect(text).toContain(`href="${SITE}/contact/"`);
    // Every upload URL in the text (sub-sizes included) is a file the site serves.
    const files = [...new Set(text.match(new RegExp(`${SITE}/wp-content/uploads/[^"'\\s<)]+`, 'g')) ?? [])];
    expect(files.some((f) => /-\d+x\d+\.\w+$/.test(f))).toBe(true);
    for (const f of files) expect((await site.req('GET', f)).status, f).toBe(200);
  });

  it('brings comments with their threads, statuses and users', async () => {
    const list = async (status: string, type = 'comment') => (await site.req('GET', `/core/v2/comments?status=${status}&type=${type}&per_page=100&post=${made.post.join(',')}&context=edit`, { as: 'administrator' })).body as any[];
    const approved = await list('approve');
    const pingbacks = await list('approve', 'pingback');
    const held = await list('hold');
    const trash = await list('trash');
    // 35 approved, one of them a pingback (a list shows one comment type at a time, comments by default).
    expect([approved.length, pingbacks.length, held.length, trash.length]).toEqual([34, 1, 6, 1]);
    const all = [...approved, ...pingbacks, ...held, ...trash];
    expect(all.filter((c) => c.parent)).toHaveLength(14);
    expect(all.filter((c) => c.author)).toHaveLength(13);
    const byId = new Map(all.map((c) => [c.id, c]));
    const depth = (c: any): number => (c.parent ? 1 + depth(byId.get(c.parent)) : 0);
    // Threads three levels deep (a comment, a reply, a reply to that), as in the export.
    expect(Math.max(...all.map(depth))).toBe(2);
    expect(all.filter((c) => depth(c) === 2)).toHaveLength(4);
    const contributor = all.filter((c) => c.author_email === 'contributor1@example.test');
    expect(contributor.every((c) => c.author === site.users.contributor.id)).toBe(true);
    const row = await site.db.prisma.comment.findFirstOrThrow({ where: { id: trash[0].id } });
    expect(row.trashedStatus).toBe('approved');
  });

  it('brings the menus and their items, pointing at the new ids', async () => {
    const menus = (await site.req('GET', '/core/v2/menus?per_page=100', { as: 'administrator' })).body as any[];
    const main = menus.find((m) => m.name === 'Main menu');
    const footer = menus.find((m) => m.name === 'Footer');
    const items = async (menu: number) => (await site.req('GET', `/core/v2/menu-items?menus=${menu}&per_page=100&context=edit`, { as: 'administrator' })).body as any[];
    const [mainItems, footerItems] = [await items(main.id), await items(footer.id)];
    expect([mainItems.length, footerItems.length]).toEqual([14, 7]);
    const all = [...mainItems, ...footerItems];
    expect(all.filter((i) => i.parent)).toHaveLength(10);
    const kinds = (type: string, object?: string) => all.filter((i) => i.type === type && (!object || i.object === object)).length;
    expect([kinds('post_type', 'page'), kinds('taxonomy', 'category'), kinds('post_type', 'post'), kinds('custom')]).toEqual([9, 6, 1, 5]);
    const pages = new Set([...bySlug.values()].map((p) => p.id));
    for (const i of all.filter((x) => x.object === 'page')) expect(pages.has(i.object_id), i.title.raw).toBe(true);
    const ids = new Set(all.map((i) => i.id));
    for (const i of all.filter((x) => x.parent)) expect(ids.has(i.parent)).toBe(true);
    const depth = (i: any): number => (i.parent ? 1 + depth(all.find((x) => x.id === i.parent)) : 0);
    expect(Math.max(...mainItems.map(depth))).toBe(2);
    // A custom link to the old site's home now goes to this one's.
    expect(all.find((i) => i.type === 'custom' && i.url === `${SITE}/`)).toBeDefined();
  });

  it('keeps the custom fields (serialised arrays as JSON) and leaves WordPress-internal meta out', async () => {
    const rows = await site.db.prisma.postMeta.findMany({ where: { contentId: { in: made.post } } });
    const count = (key: string) => rows.filter((r) => r.key === key).length;
    expect([count('rating'), count('review_details'), count('source_url'), count('_legacy_article_id'), count('_wp_old_slug')]).toEqual([10, 4, 4, 10, 1]);
    expect(rows.filter((r) => r.key === 'source_url').reduce((n, r, _i, all) => Math.max(n, all.filter((x) => x.contentId === r.contentId).length), 0)).toBe(2);
    const review = rows.filter((r) => r.key === 'review_details').map((r) => JSON.parse(r.value));
    expect(review).toContainEqual({ work: 'The Salt Road', creator: 'Ines Varga', publisher: 'Harrow & Finch', pages: 312 });
    for (const key of ['_edit_lock', '_edit_last', '_thumbnail_id', '_wp_page_template', '_wp_trash_meta_status', '_wp_trash_meta_time', '_wp_desired_post_slug']) expect(count(key), key).toBe(0);
  });

  it('records its writes in the event log, as the services do (what webhooks announce)', async () => {
    const events = await site.db.prisma.contentEvent.findMany({ where: { id: { gt: lastEvent } }, select: { kind: true, type: true, action: true } });
    const count = (kind: string, type?: string) => events.filter((e) => e.kind === kind && (!type || e.type === type) && e.action === 'created').length;
    expect([count('content', 'post'), count('content', 'page'), count('content', 'attachment')]).toEqual([63, 10, 15]);
    expect([count('menu', 'nav_menu'), count('menu', 'nav_menu_item')]).toEqual([2, 21]);
    expect(count('comment')).toBe(42);
    expect(count('term', 'post_tag')).toBe(12);
  });

  it('is read by GraphQL too', async () => {
    const res = await site.gql(`{ nodeByUri(uri: "/about/team/jane/") { ... on Page { databaseId title { rendered } parent { node { ... on Page { databaseId } } } } } }`);
    expect(res.errors).toBeUndefined();
    expect(res.data.nodeByUri).toEqual({ databaseId: bySlug.get('page:jane').id, title: { rendered: 'Jane Moreau' }, parent: { node: { databaseId: bySlug.get('page:team').id } } });
    const post = await site.gql(`{ nodeByUri(uri: "/harbour-at-sunrise-behind-the-picture/") { ... on Post { featuredImage { node { databaseId sourceUrl } } categories { nodes { slug } } } } }`);
    expect(post.errors).toBeUndefined();
    expect(post.data.nodeByUri.featuredImage.node.sourceUrl).toMatch(/harbour-sunrise-scaled\.jpg$/);
    expect(made.attachment).toContain(post.data.nodeByUri.featuredImage.node.databaseId);
  });

  it('changes nothing when run again, and says so', async () => {
    const was = await snapshot(site);
    const asked = uploads.requests.length;
    const again = await runImport(site, EXPORT, flags);
    expect(again.code, again.err).toBe(0);
    expect(await snapshot(site)).toEqual(was);
    expect(uploads.requests.length).toBe(asked);
    const c = counts(again.out);
    expect([c.post.already, c.page.already, c.attachment.already, c.nav_menu_item.already, c.comment.already, c.author.already]).toEqual([63, 10, 15, 21, 42, 3]);
    expect(Object.values(c).every((k) => k.imported === 0 && k.matched === 0)).toBe(true);
    expect(again.out).not.toMatch(/updated after the fact/);
  });
});

describe('import wordpress: dry runs, hosts and resuming', () => {
  let site: TestSite;
  let uploads: Awaited<ReturnType<typeof uploadsServer>>;
  beforeAll(async () => {
    site = await createTestSite({ uploadsDir: join(tmp, 'uploads-other') });
    uploads = await uploadsServer();
  });
  afterAll(async () => {
    await site?.close();
    uploads?.server.close();
  });

  it('a dry run reports what would be imported and writes and fetches nothing', async () => {
    const was = await snapshot(site);
    const run = await runImport(site, EXPORT, { 'dry-run': true, 'allow-host': new URL(uploads.origin).host, 'base-url-map': `${OLD}=${uploads.origin}` });
    expect(run.code, run.err).toBe(0);
    expect(run.out).toMatch(/^Dry run \(nothing written\) from http:\/\/127\.0\.0\.1:8088/);
    expect(counts(run.out).post).toEqual({ imported: 63, matched: 0, already: 0, skipped: 0 });
    expect(counts(run.out).attachment.imported).toBe(15);
    expect(await snapshot(site)).toEqual(was);
    expect(uploads.requests).toEqual([]);
  });

  it('skips files on hosts that are not allowed, and on the export host at a private address, with the reason', async () => {
    const file = join(tmp, 'hosts.xml');
    writeFileSync(file, generateWxr({ posts: 0, pages: 0, comments: 0, base: OLD, attachments: ['http://media.example.invalid/a.jpg', `${OLD}/wp-content/uploads/2026/11/bookshelf.jpg`] }));
    const run = await runImport(site, file, {});
    expect(run.code, run.err).toBe(0);
    expect(counts(run.out).attachment).toEqual({ imported: 0, matched: 0, already: 0, skipped: 2 });
    expect(run.out).toMatch(/^ {2}attachment \d+ a\.jpg .*: host media\.example\.invalid is not allowed/m);
    expect(run.out).toMatch(/^ {2}attachment \d+ bookshelf\.jpg .*download of http:\/\/127\.0\.0\.1:8088\/.*failed \(blocked_address\)/m);
    expect(uploads.requests).toEqual([]);
  });

  it('resumes a stopped run where it stopped, creating the new authors once', async () => {
    const xml = generateWxr({ posts: 20, pages: 4, comments: 3, categories: 5, tags: 6, base: 'http://resume.example' });
    const file = join(tmp, 'resume.xml');
    writeFileSync(file, xml);
    const admin = site.users.administrator;
    const ctx = createContext(site.db, { id: admin.id, login: admin.login, role: 'administrator' }, site.app.media);
    let seen = 0;
    await expect(importWordPress(ctx, xml, {
      progress: ({ phase }) => { if (phase === 'items' && ++seen === 9) throw new Error('stopped'); },
    })).rejects.toThrow('stopped');
    const half = await site.db.prisma.importRecord.count({ where: { source: 'http://resume.example', kind: 'post' } });
    expect(half).toBe(9);
    const run = await runImport(site, file, {});
    expect(run.code, run.err).toBe(0);
    const c = counts(run.out);
    expect(c.post.already + c.page.already).toBe(9);
    expect(c.post.imported + c.page.imported).toBe(15);
    expect(c.comment.imported).toBe(60);
    const ids = (await site.db.prisma.importRecord.findMany({ where: { source: 'http://resume.example', kind: 'post' } })).map((r) => r.targetId);
    const posts = await site.db.prisma.content.findMany({ where: { id: { in: ids }, type: 'post' }, select: { slug: true } });
    expect(posts).toHaveLength(20);
    expect(posts.every((p) => /^gen-post-\d+$/.test(p.slug))).toBe(true);
    const authors = await site.db.prisma.user.findMany({ where: { login: { startsWith: 'gen-' } }, select: { login: true, role: true, firstName: true, lastName: true, displayName: true } });
    expect(authors).toEqual(expect.arrayContaining([{ login: 'gen-ana', role: 'author', firstName: 'First1', lastName: 'Last1', displayName: 'Author 1' }]));
    expect(authors).toHaveLength(3);
    // A post links to the one before it: the link now names the new permalink.
    const second = (await site.req('GET', '/core/v2/posts?slug=gen-post-1&context=edit', { as: 'administrator' })).body[0];
    expect(second.content.raw).toContain(`href="${SITE}/gen-post-0/"`);
  });
});

describe('import wordpress: authors', () => {
  let site: TestSite;
  beforeAll(async () => { site = await createTestSite({ uploadsDir: join(tmp, 'uploads-authors') }); });
  afterAll(async () => { await site?.close(); });

  it("--author-map gives an author's items to a user of the site; a mapping to no user is skipped with the reason", async () => {
    const file = join(tmp, 'authors.xml');
    writeFileSync(file, generateWxr({ posts: 3, pages: 0, comments: 0, base: 'http://authors.example', authors: ['gen-dora', 'gen-emil', 'gen-finn'] }));
    const run = await runImport(site, file, { 'author-map': 'gen-dora=editor1,gen-emil=nobody-here' });
    expect(run.code, run.err).toBe(0);
    expect(counts(run.out).author).toEqual({ imported: 1, matched: 1, already: 0, skipped: 1 });
    expect(run.out).toMatch(/^ {2}author 2 gen-emil: --author-map names nobody-here, who is not a user of this site; their items go to the operator$/m);
    const posts = (await site.req('GET', '/core/v2/posts?search=Post&per_page=100&context=edit', { as: 'administrator' })).body as any[];
    const author = (slug: string) => posts.find((p) => p.slug === slug)?.author;
    // Posts are written by authors in turn: gen-dora, gen-emil, gen-finn.
    expect([author('gen-post-0'), author('gen-post-1')]).toEqual([site.users.editor.id, site.users.administrator.id]);
    const finn = await site.db.prisma.user.findUniqueOrThrow({ where: { login: 'gen-finn' } });
    expect([author('gen-post-2'), finn.role]).toEqual([finn.id, 'author']);
    expect(await site.db.prisma.user.count({ where: { login: { in: ['gen-dora', 'gen-emil'] } } })).toBe(0);
  });
});

describe.runIf(provider === 'sqlite')('import wordpress on the command line', () => {
  const run = promisify(execFile);
  it('a file that is not a WordPress export ends with exit code 1 and a clear message', async () => {
    const bad = join(tmp, 'not-an-export.xml');
    writeFileSync(bad, '<?xml version="1.0"?><html><body>hello</body></html>');
    const env: NodeJS.ProcessEnv = { ...process.env, DATABASE_URL: `file:${join(tmp, 'cli.db')}`, UPLOADS_DIR: join(tmp, 'uploads') };
    for (const name of ['SITE_URL', 'HOST', 'PORT', 'ADMIN_USER', 'ADMIN_PASSWORD']) delete env[name];
    const failed = await run('npx', ['tsx', 'scripts/cli.ts', 'import', 'wordpress', bad], { cwd: root, env }).then(() => null, (e: { code: number; stderr: string }) => e);
    expect(failed?.code).toBe(1);
    expect(failed?.stderr).toMatch(/^error: .*not-an-export\.xml is not a WordPress export: The file is not a WordPress export: no rss\/channel element\.$/m);
    // Checked before any database is opened: none was made.
    expect(existsSync(join(tmp, 'cli.db'))).toBe(false);
  }, 60_000);
});
