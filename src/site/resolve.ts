// Which page of the site an address names, and whether an anonymous reader may see it. The public
// pages, the oEmbed route and the SEO head by URL all start here, so "publicly viewable" means one
// thing for all of them. An address names an item (a permalink, a plain `?p=` link, a static front
// page) or a list of posts: the home page, a term's archive or an author's page, each in pages.
// The pages print a handful of columns, so the lookups are written for them: one statement for a
// pretty path (every candidate of its slugs at once), one for a plain `?p=` form, one for a term
// or an author, and one more for a list page after the first (that it is not past the end).
import type { Prisma, Term, User } from '../generated/sqlite/client.js';
import type { Context } from '../context.js';
import type { SiteSettings } from './options.js';
import { CONTENT_TYPES, MEDIA_TYPE, PAGE_TYPE, POST_TYPE, TAXONOMY_REFS, contentTypeOf, permalink, type ContentTypeDescriptor, type TaxonomyRef } from '../resources/content-types.js';
import { readableRows } from '../content/service.js';
import { ancestorSlugs } from '../content/fields.js';
import { mediaMetaSelect } from '../media/metadata.js';
import { PUBLIC_AUTHOR_TYPES, authorLink } from '../users/service.js';

export const ITEM_SELECT = {
  id: true, type: true, status: true, slug: true, parentId: true, authorId: true,
  title: true, content: true, excerpt: true, password: true,
  date: true, dateGmt: true, featuredMedia: true, mimeType: true,
  author: { select: { displayName: true, slug: true } },
} satisfies Prisma.ContentSelect;

export type FrontRow = Prisma.ContentGetPayload<{ select: typeof ITEM_SELECT }> & { meta?: { key: string; value: string }[] };

export interface FoundItem {
  row: FrontRow;
  /** The item's permalink, as its REST `link` prints it. */
  permalink: string;
  /** The address asked for the embed view of the item (`…/embed/` or `&embed=true`). */
  embed: boolean;
  /** How it was asked for: a pretty path, a plain `?p=`-style query, or the home page (a static front page). */
  form: 'path' | 'plain' | 'home';
}

/** What an author page shows of its user, and all it reads: the public columns. */
export const AUTHOR_SELECT = { id: true, slug: true, displayName: true, description: true, url: true } satisfies Prisma.UserSelect;
export type Author = Pick<User, 'id' | 'slug' | 'displayName' | 'description' | 'url'>;

/** One page of a list of posts: the home page, a term archive or an author page. */
export interface ListPage {
  /** 1 for the first page. */
  page: number;
  /** The list's first page, with its trailing slash; page N is at `pageLink(base, N)`. */
  base: string;
  /** This page's canonical address. */
  link: string;
  /** How it was asked for: its pretty path, or a plain query (`?cat=`, `?author=`, `?paged=` …) that moves to `link`. */
  form: 'path' | 'plain';
  /** The items it lists: published, of the listed types; shown in `LIST_ORDER`, `postsPerPage` a page. */
  where: Prisma.ContentWhereInput;
}

export type HomeResolution = { kind: 'home' } & ListPage;
export type TermResolution = { kind: 'term'; term: Term; taxonomy: TaxonomyRef } & ListPage;
export type AuthorResolution = { kind: 'author'; user: Author } & ListPage;
export type ListResolution = HomeResolution | TermResolution | AuthorResolution;
export type Resolution = ListResolution | { kind: 'item'; item: FoundItem } | { kind: 'none' };
/** A resolution with the archives answered as `none`: what callers that serve items and the home page alone see. */
export type ItemResolution = Exclude<Resolution, TermResolution | AuthorResolution>;

/** Newest first, as WordPress's lists (post_date, then the id for items of the same second). */
export const LIST_ORDER = [{ date: 'desc' }, { id: 'desc' }] satisfies Prisma.ContentOrderByWithRelationInput[];

const NONE = { kind: 'none' } as const;

/** The path of the home URL without a trailing slash ('' for a site at the root of its host). */
export function homePath(site: SiteSettings): string {
  try { return new URL(site.home).pathname.replace(/\/+$/, ''); } catch { return ''; }
}

/** A path segment as slugs are stored: percent escapes of non-ASCII bytes in lower case. Null when it does not decode. */
function slugSegment(raw: string): string | null {
  try {
    return encodeURIComponent(decodeURIComponent(raw)).replace(/%[0-9A-F]{2}/g, (m) => m.toLowerCase());
  } catch {
    return null;
  }
}

const truthy = (v: string | null) => v !== null && v !== '' && v !== '0' && v !== 'false';

/**
 * The page of this site a URL names, whatever its items' status (for an item, the caller decides
 * with `publiclyViewable`): an item, the home page's list, a term archive, an author page, or
 * none. `url` is taken as local; the oEmbed route checks the host first.
 */
export async function resolveAddress(ctx: Context, site: SiteSettings, url: URL): Promise<Resolution> {
  const base = homePath(site);
  if (url.pathname !== base && !url.pathname.startsWith(base + '/')) return NONE;
  const rel = url.pathname.slice(base.length) || '/';
  // WordPress's plain page number, on any list (`/?paged=2`, `/?cat=3&paged=2`, `/tag/x/?paged=2`);
  // an item ignores it. A list is not found when it is no number.
  const paged = url.searchParams.get('paged');
  const pagedBad = paged !== null && !/^\d{1,9}$/.test(paged);

  if (rel === '/' || rel === '/index.php') {
    const embed = truthy(url.searchParams.get('embed'));
    // A custom type's plain link names it (?post_type=event&p=ID); the built-in types have an
    // argument of their own (?p=, ?page_id=, ?attachment_id=).
    const named = CONTENT_TYPES.find((d) => d.custom && d.type === url.searchParams.get('post_type'));
    for (const d of named ? [named] : CONTENT_TYPES.filter((c) => !c.custom)) {
      const value = url.searchParams.get(d.plainLinkArg);
      if (value === null) continue;
      if (!/^\d{1,9}$/.test(value)) return NONE;
      const row = await byId(ctx, d.type, Number(value));
      return row ? { kind: 'item', item: { row, permalink: await linkOf(ctx, site, row), embed, form: 'plain' } } : NONE;
    }
    if (named || pagedBad) return NONE;
    const archive = await plainArchive(ctx, site, url.searchParams);
    if (archive) return archive.kind === 'none' ? NONE : pageOfList(ctx, site, archive, pageOf(paged), 'plain');
    // A static front page, when it is published; otherwise the home page lists the posts.
    if (site.showOnFront === 'page' && site.pageOnFront > 0) {
      const row = await byId(ctx, PAGE_TYPE.type, site.pageOnFront);
      if (row?.status === 'publish') return pageOf(paged) > 1 ? NONE : { kind: 'item', item: { row, permalink: await linkOf(ctx, site, row), embed, form: 'home' } };
    }
    return pageOfList(ctx, site, homeList(site), pageOf(paged), paged === null ? 'path' : 'plain');
  }

  const segments: string[] = [];
  for (const raw of rel.split('/')) {
    if (raw === '') continue;
    const segment = slugSegment(raw);
    if (segment === null) return NONE;
    segments.push(segment);
  }
  if (!segments.length || segments.length > 50) return NONE;

  // The lists' pretty paths come first, as WordPress's rewrite rules try them before a page's path.
  const list = await listAtPath(ctx, site, segments, paged);
  if (list) return pagedBad ? NONE : list;

  // `embed` is a reserved slug (no item can take it), so a trailing one always asks for the embed view.
  const embed = segments.length > 1 && segments[segments.length - 1] === 'embed';
  if (embed) segments.pop();

  // The site's own types answer under their permalink base: /events/{slug}/ (/{base}/{parent}/{slug}/ in a tree).
  const custom = segments.length > 1 ? CONTENT_TYPES.find((d) => d.custom && d.custom.permalinkBase === segments[0]) : undefined;
  if (custom) return custom.custom!.public ? itemAtPath(ctx, site, [custom], segments.slice(1), embed) : NONE;
  // Pages first, as WordPress's rewrite rules try a page at the whole path before a post name.
  return itemAtPath(ctx, site, [PAGE_TYPE, POST_TYPE], segments, embed);
}

/**
 * The item or the home page a URL names, for the callers that serve nothing else (oEmbed, the
 * SEO head's content, nodeByUri for now): `resolveAddress` with term archives and author pages
 * answered as none.
 */
export async function resolveUrl(ctx: Context, site: SiteSettings, url: URL): Promise<ItemResolution> {
  const found = await resolveAddress(ctx, site, url);
  return found.kind === 'term' || found.kind === 'author' ? NONE : found;
}

// ---------------------------------------------------------------- lists

/** What a list is before its page is known. */
type List =
  | { kind: 'home'; base: string; where: Prisma.ContentWhereInput }
  | { kind: 'term'; term: Term; taxonomy: TaxonomyRef; base: string; where: Prisma.ContentWhereInput }
  | { kind: 'author'; user: Author; base: string; where: Prisma.ContentWhereInput };

/** The address of page `page` of a list whose first page is `base`. */
export const pageLink = (base: string, page: number) => (page > 1 ? `${base}page/${page}/` : base);

/** A page number as given; 0 is the first page, as WordPress reads `paged=0`. */
const pageOf = (value: string | null) => Math.max(1, Number(value ?? 1));

const homeList = (site: SiteSettings): List => ({ kind: 'home', base: `${site.home}/`, where: { type: POST_TYPE.type, status: 'publish' } });

/** Page `page` of a list, or none when it is past the end (the first page exists even when empty, as WordPress's). */
async function pageOfList(ctx: Context, site: SiteSettings, list: List, page: number, form: 'path' | 'plain'): Promise<Resolution> {
  if (page > 1) {
    const first = await ctx.prisma.content.findFirst({ where: list.where, orderBy: LIST_ORDER, skip: (page - 1) * site.postsPerPage, select: { id: true } });
    if (!first) return NONE;
  }
  return { ...list, page, link: pageLink(list.base, page), form };
}

/**
 * A list's pretty path: `/page/N/` after the home, `/{taxonomy base}/{slug}/` (the chain of slugs
 * in a tree) and `/author/{nicename}/`, each with an optional `/page/N/`. Undefined when the path
 * is no list's, so that an item may have it.
 */
async function listAtPath(ctx: Context, site: SiteSettings, segments: string[], paged: string | null): Promise<Resolution | undefined> {
  let rest = segments;
  let page = pageOf(paged);
  const n = segments.length;
  const numbered = n >= 2 && segments[n - 2] === 'page' && /^\d{1,9}$/.test(segments[n - 1]);
  if (numbered) {
    rest = segments.slice(0, -2);
    if (paged === null) page = pageOf(segments[n - 1]);
  }
  // A plain page number on a pretty path moves to the path of that page.
  const form = paged === null ? 'path' : 'plain';
  if (!rest.length) {
    const staticFront = site.showOnFront === 'page' && site.pageOnFront > 0 && (await byId(ctx, PAGE_TYPE.type, site.pageOnFront))?.status === 'publish';
    return staticFront ? NONE : pageOfList(ctx, site, homeList(site), page, form);
  }
  if (rest.length < 2) return undefined;
  const taxonomy = TAXONOMY_REFS.find((t) => t.permalinkBase === rest[0]);
  if (taxonomy) {
    const list = await termList(ctx, site, taxonomy, { path: rest.slice(1) });
    return list ? pageOfList(ctx, site, list, page, form) : NONE;
  }
  if (rest[0] === 'author') {
    const list = rest.length === 2 ? await authorList(ctx, site, { slug: rest[1] }) : null;
    return list ? pageOfList(ctx, site, list, page, form) : NONE;
  }
  return undefined;
}

/**
 * The archive a plain query names: `?cat=ID`, `?category_name=slug` (or `parent/child`),
 * `?tag=slug`, `?tag_id=ID`, `?{taxonomy}=slug` for the content model's taxonomies, `?author=ID`
 * or `?author_name=nicename`. Undefined when it names none; none when what it names does not
 * exist, or when it names more than one (WordPress would list their intersection; no page here
 * shows one).
 */
async function plainArchive(ctx: Context, site: SiteSettings, q: URLSearchParams): Promise<List | { kind: 'none' } | undefined> {
  const asks: (() => Promise<List | null>)[] = [];
  const id = (value: string) => (/^\d{1,9}$/.test(value) ? Number(value) : 0);
  const slug = (value: string) => slugSegment(encodeURIComponent(value));
  for (const ref of TAXONOMY_REFS) {
    const vars: [string, (v: string) => TermMatch | null][] = ref.taxonomy === 'category'
      ? [['cat', (v) => (id(v) ? { id: id(v) } : null)], ['category_name', (v) => pathOf(v)]]
      : ref.taxonomy === 'post_tag'
        ? [['tag', (v) => (slug(v) ? { path: [slug(v)!] } : null)], ['tag_id', (v) => (id(v) ? { id: id(v) } : null)]]
        : [[ref.taxonomy, (v) => (slug(v) ? { path: [slug(v)!] } : null)]];
    for (const [name, match] of vars) {
      const value = q.get(name);
      if (value === null) continue;
      const m = match(value);
      asks.push(async () => (m ? termList(ctx, site, ref, m) : null));
    }
  }
  const author = q.get('author');
  if (author !== null) asks.push(async () => (id(author) ? authorList(ctx, site, { id: id(author) }) : null));
  const authorName = q.get('author_name');
  if (authorName !== null) asks.push(async () => (slug(authorName) ? authorList(ctx, site, { slug: slug(authorName)! }) : null));
  if (!asks.length) return undefined;
  if (asks.length > 1) return NONE;
  return (await asks[0]()) ?? NONE;
}

/** `parent/child` as stored slugs; null when a part does not decode. */
function pathOf(value: string): TermMatch | null {
  const path = value.split('/').filter(Boolean).map((p) => slugSegment(encodeURIComponent(p)));
  return path.length && path.every((p) => p !== null) ? { path: path as string[] } : null;
}

type TermMatch = { id: number } | { path: string[] };

/**
 * The types a taxonomy's archive lists: posts for categories and tags (WordPress's main query
 * for them), else the public types that carry the taxonomy. None: the taxonomy has no archive.
 */
export function archiveTypes(ref: TaxonomyRef): string[] {
  if (ref.taxonomy === 'category' || ref.taxonomy === 'post_tag') return [POST_TYPE.type];
  return CONTENT_TYPES.filter((d) => d.custom?.public && d.supports.taxonomies.some((t) => t.taxonomy === ref.taxonomy)).map((d) => d.type);
}

/**
 * A term's archive: the term by its id, or by its path (in a tree, one slug finds the term
 * wherever it is, and a longer path must be its whole chain, as get_category_by_path's full
 * match). A tree's archive lists the items of the term and of its descendants, as WordPress's
 * category archives do; so in a tree the taxonomy's terms are read at once (WordPress keeps the
 * same hierarchy in an option) and the chain and the descendants come from them.
 */
async function termList(ctx: Context, site: SiteSettings, ref: TaxonomyRef, match: TermMatch): Promise<List | null> {
  const types = archiveTypes(ref);
  if (!types.length) return null;
  let term: Term | null | undefined;
  const chain: string[] = [];
  let ids: number[];
  if (ref.hierarchical) {
    const all = await ctx.prisma.term.findMany({ where: { taxonomy: ref.taxonomy } });
    const byId = new Map(all.map((t) => [t.id, t]));
    term = 'id' in match ? byId.get(match.id) : all.find((t) => t.slug === match.path[match.path.length - 1]);
    if (!term) return null;
    const seen = new Set([term.id]);
    for (let p = byId.get(term.parentId); p && !seen.has(p.id); p = byId.get(p.parentId)) {
      seen.add(p.id);
      chain.unshift(p.slug);
    }
    if ('path' in match && match.path.length > 1 && [...chain, term.slug].join('/') !== match.path.join('/')) return null;
    const children = new Map<number, number[]>();
    for (const t of all) {
      const siblings = children.get(t.parentId);
      if (siblings) siblings.push(t.id);
      else children.set(t.parentId, [t.id]);
    }
    const found = new Set([term.id]);
    for (const id of found) for (const child of children.get(id) ?? []) found.add(child);
    ids = [...found];
  } else {
    if ('path' in match && match.path.length !== 1) return null;
    term = 'id' in match
      ? await ctx.prisma.term.findUnique({ where: { id: match.id } })
      : await ctx.prisma.term.findUnique({ where: { taxonomy_slug: { taxonomy: ref.taxonomy, slug: match.path[0] } } });
    if (!term || term.taxonomy !== ref.taxonomy) return null;
    ids = [term.id];
  }
  return {
    kind: 'term', term, taxonomy: ref, base: termLink(site, ref, chain, term.slug),
    where: { type: types.length === 1 ? types[0] : { in: types }, status: 'publish', terms: { some: { termId: ids.length === 1 ? ids[0] : { in: ids } } } },
  };
}

/** A term's archive address, as its REST `link`: `/{base}/{slug}/`, the ancestors' slugs first in a tree. */
export const termLink = (site: SiteSettings, ref: TaxonomyRef, ancestors: string[], slug: string) =>
  `${site.home}/${ref.permalinkBase}/${[...ancestors, slug].join('/')}/`;

/**
 * An author's page, for a user with published content of a type whose authors are public: the
 * users the REST API shows to anyone. WordPress answers an author archive for any member of the
 * site; here a user no list of the API reveals has no page either (docs/site-front.md).
 */
async function authorList(ctx: Context, site: SiteSettings, match: { id: number } | { slug: string }): Promise<List | null> {
  const user = await ctx.prisma.user.findFirst({
    where: { ...match, contents: { some: { status: 'publish', type: { in: PUBLIC_AUTHOR_TYPES } } } },
    select: AUTHOR_SELECT,
  });
  if (!user) return null;
  return { kind: 'author', user, base: authorLink(site, user.slug), where: { type: POST_TYPE.type, status: 'publish', authorId: user.id } };
}

// ---------------------------------------------------------------- items

/**
 * The item of one of `types` (tried in that order) a pretty path names: a hierarchical type's by
 * its whole chain of slugs, another's by one slug; a public one before one that is not.
 */
async function itemAtPath(ctx: Context, site: SiteSettings, types: ContentTypeDescriptor[], segments: string[], embed: boolean): Promise<Resolution> {
  const order = types.map((d) => d.type);
  const candidates = await ctx.prisma.content.findMany({
    where: { slug: { in: [...new Set(segments)] }, type: { in: order } },
    select: ITEM_SELECT,
  });
  const last = segments[segments.length - 1];
  const matches = candidates
    .filter((c) => c.slug === last && (contentTypeOf(c.type).hierarchical ? chainMatches(c, segments, candidates) : segments.length === 1))
    .sort((a, b) => (a.type === b.type ? a.id - b.id : order.indexOf(a.type) - order.indexOf(b.type)));
  const found = matches.find((m) => isPublic(m)) ?? matches[0];
  if (!found) return NONE;
  return { kind: 'item', item: { row: found, permalink: permalink(site, found, segments.slice(0, -1)), embed, form: 'path' } };
}

/** Whether a page's parent chain is exactly the path's leading segments, up to a page without a parent. */
function chainMatches(page: FrontRow, segments: string[], candidates: FrontRow[]): boolean {
  const byId = new Map(candidates.filter((c) => c.type === page.type).map((c) => [c.id, c]));
  let node: FrontRow | undefined = page;
  for (let i = segments.length - 1; i >= 0; i--) {
    if (!node || node.slug !== segments[i]) return false;
    if (i === 0) return !node.parentId;
    node = node.parentId ? byId.get(node.parentId) : undefined;
  }
  return false;
}

async function byId(ctx: Context, type: string, id: number): Promise<FrontRow | null> {
  if (id <= 0) return null;
  const row = await ctx.prisma.content.findUnique({
    where: { id },
    select: type === MEDIA_TYPE.type ? { ...ITEM_SELECT, ...mediaMetaSelect } : ITEM_SELECT,
  });
  return row && row.type === type ? row : null;
}

async function linkOf(ctx: Context, site: SiteSettings, row: FrontRow): Promise<string> {
  return permalink(site, row, await ancestorSlugs(ctx, row));
}

/** Published (or an attachment that inherits), before the parent check of attachments. */
const isPublic = (row: FrontRow) => row.status === 'publish' || (row.type === MEDIA_TYPE.type && row.status === 'inherit');

/**
 * Whether an anonymous reader may see the item at all: published, or an attachment whose parent
 * (if any) they may read. Drafts, pending, scheduled, private and trashed items are not.
 */
export async function publiclyViewable(anonymous: Context, row: FrontRow): Promise<boolean> {
  if (!isPublic(row)) return false;
  return (await readableRows(anonymous, [row])).length === 1;
}

/** A password stands between every anonymous reader and the text. */
export const isProtected = (row: FrontRow) => row.password !== '' && row.type !== MEDIA_TYPE.type;

/** The address of the item's embed view: `{permalink}embed/`, or `&embed=true` on a plain link. */
export function embedUrl(link: string): string {
  return link.includes('?') ? `${link}&embed=true` : `${link.replace(/\/?$/, '/')}embed/`;
}
