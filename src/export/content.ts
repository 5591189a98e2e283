// The site's content as a WordPress export file (WXR 1.2: RSS 2.0 with the wp: namespace) or as a
// JSON array, produced as it is read: authors, terms and items are read in pages of PAGE rows
// (keyset order by id) and written out page by page, so memory stays flat whatever the size of
// the site. What is exported, as WordPress's "All content": posts, pages and attachments in every
// status but auto-draft, the users who wrote them, every category and tag (and the terms and
// items of the site's own taxonomies and content types).
// Every page is read in one read transaction, so the file is one state of the site however long
// it takes and whatever is written meanwhile: PostgreSQL, REPEATABLE READ READ ONLY on one pooled
// connection; SQLite, a deferred transaction on a connection of the export's own (the process's
// connection would hold the write lock for the whole export; a reader's WAL snapshot lets writers
// go on). An in-memory SQLite database has no second connection: there the pages are separate
// reads (WordPress's export reads in chunks too). The site's settings (title, sticky posts) are
// read before the transaction begins.
import { POST_LIKE_TYPES, TAXONOMY_REFS, contentTypeOf } from '../resources/content-types.js';
import type { Context } from '../context.js';
import { restError } from '../errors.js';
import { formatWpDate } from '../content/dates.js';
import { permalink } from '../resources/content-types.js';
import { ancestorSlugs } from '../content/fields.js';
import { ATTACHED_FILE, MISSING_PARENT, attachmentParent, metaValue } from '../media/metadata.js';
import type { SiteSettings } from '../site/options.js';
import type { Prisma } from '../db/client.js';
import { log } from '../log.js';

export type ExportFormat = 'wxr' | 'json';

/** Rows read per query. */
export const EXPORT_PAGE = 200;
/** Text gathered before it is handed on (fewer, larger writes). */
const FLUSH_AT = 64 * 1024;

// Every post-like type (posts, pages, the site's own) and attachments.
const ITEM_TYPES = [...POST_LIKE_TYPES.map((d) => d.type), 'attachment'];
/** Taxonomies of the site's content model: WordPress writes their terms as `wp:term`. */
const CUSTOM_TAXONOMIES = TAXONOMY_REFS.slice(2);
const EXPORTED_TAXONOMIES = new Set(TAXONOMY_REFS.map((t) => t.taxonomy));
const itemWhere = { type: { in: ITEM_TYPES }, status: { not: 'auto-draft' } };

export interface ContentExport {
  contentType: string;
  filename: string;
  /** The file, produced as it is read. */
  body: AsyncIterable<string>;
}

export interface ExportOptions {
  /** Called after each page of rows is read (tests write there, to see the file keep its snapshot). */
  afterRead?: () => Promise<void>;
}

/** Refuses callers without the `export` capability (administrators), then describes the export. */
export async function exportContent(ctx: Context, format: ExportFormat, now: Date = new Date(), options: ExportOptions = {}): Promise<ContentExport> {
  if (!ctx.viewer || !ctx.can('export')) {
    throw restError('rest_cannot_export', "Sorry, you are not allowed to export this site's content.", ctx.viewer ? 403 : 401);
  }
  const site = await ctx.site();
  // WordPress names the file after the site: sanitize_key(blogname), then the date.
  const key = site.name.toLowerCase().replace(/[^a-z0-9_-]/g, '') || 'site';
  const date = now.toISOString().slice(0, 10);
  const produce = (snap: Context) => {
    if (options.afterRead) afterReads.set(snap, options.afterRead);
    return format === 'json' ? jsonExport(snap, site) : wxrExport(snap, site, now);
  };
  return format === 'json'
    ? { contentType: 'application/json; charset=UTF-8', filename: `${key}.${date}.json`, body: chunked(inSnapshot(ctx, produce)) }
    : { contentType: 'application/rss+xml; charset=UTF-8', filename: `${key}.${date}.xml`, body: chunked(inSnapshot(ctx, produce)) };
}

// ---------------------------------------------------------------------------
// One read transaction
// ---------------------------------------------------------------------------

/** The longest an export's transaction may stay open. */
const SNAPSHOT_TIMEOUT_MS = 6 * 3600_000;
const afterReads = new WeakMap<Context, () => Promise<void>>();

/** Runs `work` with a context whose client reads inside one read-only transaction (see the head of this file). */
async function withSnapshot(ctx: Context, work: (snap: Context) => Promise<void>): Promise<void> {
  const snapshotOf = (prisma: Prisma): Context => ({ ...ctx, prisma });
  if (ctx.db.provider === 'postgres') {
    await ctx.db.prisma.$transaction(async (tx) => {
      await tx.$executeRawUnsafe('SET TRANSACTION ISOLATION LEVEL REPEATABLE READ, READ ONLY');
      await work(snapshotOf(tx as unknown as Prisma));
    }, { maxWait: 15_000, timeout: SNAPSHOT_TIMEOUT_MS });
    return;
  }
  const [main] = (await ctx.db.read(`SELECT file FROM pragma_database_list WHERE name = 'main'`, [])) as { file: string }[];
  if (!main?.file) return work(ctx);
  const [{ PrismaBetterSqlite3 }, { PrismaClient }] = await Promise.all([import('@prisma/adapter-better-sqlite3'), import('../generated/sqlite/client.js')]);
  const own = new PrismaClient({ adapter: new PrismaBetterSqlite3({ url: main.file, timeout: 10_000 }) });
  try {
    // The adapter's BEGIN is a deferred one: the first read takes the snapshot, no lock is held against writers.
    await own.$transaction(async (tx) => work(snapshotOf(tx as unknown as Prisma)), { maxWait: 15_000, timeout: SNAPSHOT_TIMEOUT_MS });
  } finally {
    await own.$disconnect().catch((err) => log.warn({ err }, 'closing the export connection failed'));
  }
}

/**
 * The strings `produce` makes inside the snapshot, handed out one at a time as the consumer asks
 * (the transaction's callback runs the producer; each string waits until the previous one was
 * taken, so memory stays flat). A consumer that stops early (a client gone) ends the transaction.
 */
async function* inSnapshot(ctx: Context, produce: (snap: Context) => AsyncIterable<string>): AsyncGenerator<string> {
  let offered: { value: string; taken: () => void } | null = null;
  let wake: (() => void) | null = null;
  let finished = false;
  let failure: unknown = null;
  let stop = false;
  const notify = () => { const w = wake; wake = null; w?.(); };
  const run = withSnapshot(ctx, async (snap) => {
    for await (const value of produce(snap)) {
      if (stop) return;
      await new Promise<void>((taken) => { offered = { value, taken }; notify(); });
      if (stop) return;
    }
  }).then(() => { finished = true; notify(); }, (err: unknown) => { failure = err ?? new Error('export failed'); finished = true; notify(); });
  let current: (() => void) | null = null;
  try {
    for (;;) {
      const next = offered as { value: string; taken: () => void } | null;
      if (next) {
        offered = null;
        current = next.taken;
        yield next.value;
        current = null;
        next.taken();
        continue;
      }
      if (finished) {
        if (failure) throw failure;
        return;
      }
      await new Promise<void>((resolve) => { wake = resolve; });
    }
  } finally {
    stop = true;
    (current as (() => void) | null)?.();
    (offered as { taken: () => void } | null)?.taken();
    await run;
  }
}

// ---------------------------------------------------------------------------
// Reading in pages
// ---------------------------------------------------------------------------

/** Rows of a keyset-paged query, page by page: `read(after)` answers up to EXPORT_PAGE rows with ids above `after`. */
async function* pages<T extends { id: number }>(ctx: Context, read: (after: number) => Promise<T[]>): AsyncGenerator<T[]> {
  for (let after = 0; ;) {
    const rows = await read(after);
    await afterReads.get(ctx)?.();
    if (rows.length) yield rows;
    if (rows.length < EXPORT_PAGE) return;
    after = rows[rows.length - 1].id;
  }
}

const authorPages = (ctx: Context) => pages(ctx, (after) => ctx.prisma.user.findMany({
  where: { id: { gt: after }, contents: { some: itemWhere } },
  orderBy: { id: 'asc' }, take: EXPORT_PAGE,
  select: { id: true, login: true, email: true, displayName: true, firstName: true, lastName: true },
}));

type TermRow = { id: number; taxonomy: string; name: string; slug: string; description: string; parentId: number };

/** Terms of a taxonomy, each with its parent's slug ('' at the top). */
async function* termPages(ctx: Context, taxonomy: string): AsyncGenerator<(TermRow & { parentSlug: string })[]> {
  for await (const rows of pages(ctx, (after) => ctx.prisma.term.findMany({
    where: { taxonomy, id: { gt: after } }, orderBy: { id: 'asc' }, take: EXPORT_PAGE,
    select: { id: true, taxonomy: true, name: true, slug: true, description: true, parentId: true },
  }))) {
    const parentIds = [...new Set(rows.map((r) => r.parentId).filter((id) => id > 0))];
    const parents = parentIds.length ? await ctx.prisma.term.findMany({ where: { id: { in: parentIds } }, select: { id: true, slug: true } }) : [];
    const slugOf = new Map(parents.map((p) => [p.id, p.slug]));
    yield rows.map((r) => ({ ...r, parentSlug: slugOf.get(r.parentId) ?? '' }));
  }
}

const ITEM_SELECT = {
  id: true, type: true, status: true, slug: true, parentId: true, title: true, content: true, excerpt: true, password: true,
  date: true, dateGmt: true, dateFloating: true, modified: true, modifiedGmt: true, commentStatus: true, pingStatus: true,
  menuOrder: true, guid: true, mimeType: true,
  author: { select: { id: true, login: true } },
  terms: { orderBy: { termOrder: 'asc' as const }, select: { taxonomy: true, term: { select: { slug: true, name: true } } } },
  // An attachment's parent with nothing behind it is kept in its meta (MISSING_PARENT): exported as stored.
  meta: { where: { key: { in: [ATTACHED_FILE, MISSING_PARENT] } }, select: { key: true, value: true } },
};

interface ExportItem {
  id: number; type: string; status: string; slug: string; parentId: number | null; title: string; content: string; excerpt: string;
  password: string; date: Date; dateGmt: Date; dateFloating: boolean; modified: Date; modifiedGmt: Date; commentStatus: string;
  pingStatus: string; menuOrder: number; guid: string; mimeType: string;
  author: { id: number; login: string };
  terms: { taxonomy: string; term: { slug: string; name: string } }[];
  meta: { key: string; value: string }[];
  link: string;
  attachmentUrl: string;
}

/** Items page by page, with their permalink and (attachments) file URL. */
async function* itemPages(ctx: Context, site: SiteSettings): AsyncGenerator<ExportItem[]> {
  for await (const rows of pages(ctx, (after) => ctx.prisma.content.findMany({
    where: { ...itemWhere, id: { gt: after } }, orderBy: { id: 'asc' }, take: EXPORT_PAGE, select: ITEM_SELECT,
  }))) {
    // Together, so the parent chains of the page's rows are read a level at a time.
    const ancestors = await Promise.all(rows.map((row) => ancestorSlugs(ctx, row)));
    const storage = ctx.media?.storage;
    yield rows.map((row, i) => {
      const file = metaValue(row.meta, ATTACHED_FILE);
      const parentId = row.type === 'attachment' ? attachmentParent(row) : row.parentId;
      return { ...row, parentId, link: permalink(site, row, ancestors[i]), attachmentUrl: row.type === 'attachment' ? (file && storage ? storage.url(file) : row.guid) : '' };
    });
  }
}

/** Gathers small strings into pieces of about FLUSH_AT characters. */
async function* chunked(source: AsyncIterable<string>): AsyncGenerator<string> {
  let buffer = '';
  for await (const s of source) {
    buffer += s;
    if (buffer.length >= FLUSH_AT) { yield buffer; buffer = ''; }
  }
  if (buffer) yield buffer;
}

// ---------------------------------------------------------------------------
// WXR
// ---------------------------------------------------------------------------

/** Characters XML 1.0 does not allow, even inside CDATA (controls but tab, LF, CR; lone surrogates; U+FFFE/U+FFFF). */
const NOT_XML = /[\u0000-\u0008\u000B\u000C\u000E-\u001F\uFFFE\uFFFF]|[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g;

/** Text content or attribute value, escaped. */
export function xmlText(s: string): string {
  return s.replace(NOT_XML, '').replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');
}

/** A CDATA section; a `]]>` inside is split across two sections so it survives. */
export function cdata(s: string): string {
  return `<![CDATA[${s.replace(NOT_XML, '').split(']]>').join(']]]]><![CDATA[>')}]]>`;
}

/** 'YYYY-MM-DD HH:MM:SS' of a stored date (its UTC fields are the wall-clock ones). */
const sqlDate = (d: Date) => formatWpDate(d).replace('T', ' ');
const NO_DATE = '0000-00-00 00:00:00';

/** RFC 2822 date of an instant, as RSS wants it. */
function rssDate(d: Date): string {
  const days = ['Sun', 'Mon', 'Tue', 'Wed', 'Thu', 'Fri', 'Sat'];
  const months = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];
  const p = (n: number) => String(n).padStart(2, '0');
  return `${days[d.getUTCDay()]}, ${p(d.getUTCDate())} ${months[d.getUTCMonth()]} ${d.getUTCFullYear()} ${p(d.getUTCHours())}:${p(d.getUTCMinutes())}:${p(d.getUTCSeconds())} +0000`;
}

const el = (name: string, inner: string) => `<${name}>${inner}</${name}>`;

async function* wxrExport(ctx: Context, site: SiteSettings, now: Date): AsyncGenerator<string> {
  yield '<?xml version="1.0" encoding="UTF-8" ?>\n'
    + '<rss version="2.0"\n'
    + '\txmlns:excerpt="http://wordpress.org/export/1.2/excerpt/"\n'
    + '\txmlns:content="http://purl.org/rss/1.0/modules/content/"\n'
    + '\txmlns:wfw="http://wellformedweb.org/CommentAPI/"\n'
    + '\txmlns:dc="http://purl.org/dc/elements/1.1/"\n'
    + '\txmlns:wp="http://wordpress.org/export/1.2/"\n>\n'
    + '<channel>\n'
    + `\t${el('title', xmlText(site.name))}\n`
    + `\t${el('link', xmlText(site.home))}\n`
    + `\t${el('description', xmlText(site.description))}\n`
    + `\t${el('pubDate', rssDate(now))}\n`
    + `\t${el('language', 'en-US')}\n`
    + `\t${el('wp:wxr_version', '1.2')}\n`
    + `\t${el('wp:base_site_url', xmlText(site.url))}\n`
    + `\t${el('wp:base_blog_url', xmlText(site.home))}\n\n`;

  for await (const authors of authorPages(ctx)) {
    let out = '';
    for (const a of authors) {
      out += '\t<wp:author>'
        + el('wp:author_id', String(a.id))
        + el('wp:author_login', cdata(a.login))
        + el('wp:author_email', cdata(a.email))
        + el('wp:author_display_name', cdata(a.displayName))
        + el('wp:author_first_name', cdata(a.firstName))
        + el('wp:author_last_name', cdata(a.lastName))
        + '</wp:author>\n';
    }
    yield out;
  }
  yield '\n';
  // Categories and tags differ only in their element names (and tags have no parent); the other
  // taxonomies' terms are WordPress's generic wp:term, which names its taxonomy.
  type TermElements = { taxonomy: string; tag: string; of?: string; slug: string; parent: string | null; name: string; description: string };
  const termElements: TermElements[] = [
    { taxonomy: 'category', tag: 'wp:category', slug: 'wp:category_nicename', parent: 'wp:category_parent', name: 'wp:cat_name', description: 'wp:category_description' },
    { taxonomy: 'post_tag', tag: 'wp:tag', slug: 'wp:tag_slug', parent: null, name: 'wp:tag_name', description: 'wp:tag_description' },
    ...CUSTOM_TAXONOMIES.map((x) => ({ taxonomy: x.taxonomy, tag: 'wp:term', of: 'wp:term_taxonomy', slug: 'wp:term_slug', parent: 'wp:term_parent', name: 'wp:term_name', description: 'wp:term_description' })),
  ];
  for (const e of termElements) {
    for await (const terms of termPages(ctx, e.taxonomy)) {
      let out = '';
      for (const t of terms) {
        out += `\t<${e.tag}>`
          + el('wp:term_id', String(t.id))
          + (e.of ? el(e.of, cdata(e.taxonomy)) : '')
          + el(e.slug, cdata(t.slug))
          + (e.parent ? el(e.parent, cdata(t.parentSlug)) : '')
          + el(e.name, cdata(t.name))
          + (t.description ? el(e.description, cdata(t.description)) : '')
          + `</${e.tag}>\n`;
      }
      yield out;
    }
  }
  yield `\n\t${el('generator', 'content-service')}\n\n`;

  for await (const items of itemPages(ctx, site)) {
    let out = '';
    for (const it of items) out += wxrItem(it, site);
    yield out;
  }
  yield '</channel>\n</rss>\n';
}

function wxrItem(it: ExportItem, site: SiteSettings): string {
  const sticky = it.type === 'post' && site.stickyPosts.includes(it.id);
  let out = '\t<item>\n'
    + `\t\t${el('title', cdata(it.title))}\n`
    + `\t\t${el('link', xmlText(it.link))}\n`
    + `\t\t${el('pubDate', it.dateFloating ? '' : rssDate(it.dateGmt))}\n`
    + `\t\t${el('dc:creator', cdata(it.author.login))}\n`
    + `\t\t<guid isPermaLink="false">${xmlText(it.guid)}</guid>\n`
    + '\t\t<description></description>\n'
    + `\t\t${el('content:encoded', cdata(it.content))}\n`
    + `\t\t${el('excerpt:encoded', cdata(it.excerpt))}\n`
    + `\t\t${el('wp:post_id', String(it.id))}\n`
    + `\t\t${el('wp:post_date', cdata(sqlDate(it.date)))}\n`
    + `\t\t${el('wp:post_date_gmt', cdata(it.dateFloating ? NO_DATE : sqlDate(it.dateGmt)))}\n`
    + `\t\t${el('wp:post_modified', cdata(sqlDate(it.modified)))}\n`
    + `\t\t${el('wp:post_modified_gmt', cdata(sqlDate(it.modifiedGmt)))}\n`
    + `\t\t${el('wp:comment_status', cdata(it.commentStatus))}\n`
    + `\t\t${el('wp:ping_status', cdata(it.pingStatus))}\n`
    + `\t\t${el('wp:post_name', cdata(it.slug))}\n`
    + `\t\t${el('wp:status', cdata(it.status))}\n`
    + `\t\t${el('wp:post_parent', String(it.parentId ?? 0))}\n`
    + `\t\t${el('wp:menu_order', String(it.menuOrder))}\n`
    + `\t\t${el('wp:post_type', cdata(it.type))}\n`
    + `\t\t${el('wp:post_password', cdata(it.password))}\n`
    + `\t\t${el('wp:is_sticky', sticky ? '1' : '0')}\n`;
  if (it.type === 'attachment') out += `\t\t${el('wp:attachment_url', cdata(it.attachmentUrl))}\n`;
  for (const t of it.terms) {
    if (!EXPORTED_TAXONOMIES.has(t.taxonomy)) continue;
    out += `\t\t<category domain="${t.taxonomy}" nicename="${xmlText(t.term.slug)}">${cdata(t.term.name)}</category>\n`;
  }
  const file = metaValue(it.meta, ATTACHED_FILE);
  if (it.type === 'attachment' && file) {
    out += `\t\t<wp:postmeta>${el('wp:meta_key', cdata(ATTACHED_FILE))}${el('wp:meta_value', cdata(file))}</wp:postmeta>\n`;
  }
  return `${out}\t</item>\n`;
}

// ---------------------------------------------------------------------------
// JSON
// ---------------------------------------------------------------------------

/** One array of items, each with its author and terms by name (the REST records' snake_case keys). */
async function* jsonExport(ctx: Context, site: SiteSettings): AsyncGenerator<string> {
  yield '[';
  let first = true;
  for await (const items of itemPages(ctx, site)) {
    let out = '';
    for (const it of items) {
      out += (first ? '\n' : ',\n') + JSON.stringify(jsonItem(it, site));
      first = false;
    }
    yield out;
  }
  yield first ? ']\n' : '\n]\n';
}

function jsonItem(it: ExportItem, site: SiteSettings): Record<string, unknown> {
  const terms = (taxonomy: string) => it.terms.filter((t) => t.taxonomy === taxonomy).map((t) => ({ slug: t.term.slug, name: t.term.name }));
  return {
    id: it.id,
    type: it.type,
    status: it.status,
    slug: it.slug,
    link: it.link,
    guid: it.guid,
    title: it.title,
    content: it.content,
    excerpt: it.excerpt,
    date: formatWpDate(it.date),
    date_gmt: it.dateFloating ? null : formatWpDate(it.dateGmt),
    modified: formatWpDate(it.modified),
    modified_gmt: formatWpDate(it.modifiedGmt),
    author: { id: it.author.id, login: it.author.login },
    parent: it.parentId ?? 0,
    menu_order: it.menuOrder,
    comment_status: it.commentStatus,
    ping_status: it.pingStatus,
    password: it.password,
    sticky: it.type === 'post' && site.stickyPosts.includes(it.id),
    categories: terms('category'),
    tags: terms('post_tag'),
    // The site's own taxonomies, by name, on the items of the types that carry them.
    ...Object.fromEntries(CUSTOM_TAXONOMIES.filter((x) => contentTypeOf(it.type).supports.taxonomies.some((r) => r.taxonomy === x.taxonomy)).map((x) => [x.taxonomy, terms(x.taxonomy)])),
    ...(it.type === 'attachment' ? { mime_type: it.mimeType, source_url: it.attachmentUrl } : {}),
  };
}
