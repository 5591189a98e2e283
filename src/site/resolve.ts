// Which item an address of the site names, and whether an anonymous reader may see it. The public
// pages and the oEmbed route both start here, so "publicly viewable" means one thing for both.
// The pages print a handful of columns, so the lookups are written for them: one statement for a
// pretty path (every candidate of its slugs at once), one for a plain `?p=` form.
import type { Prisma } from '../generated/sqlite/client.js';
import type { Context } from '../context.js';
import type { SiteSettings } from './options.js';
import { CONTENT_TYPES, MEDIA_TYPE, PAGE_TYPE, POST_TYPE, contentTypeOf, permalink, type ContentTypeDescriptor } from '../resources/content-types.js';
import { readableRows } from '../content/service.js';
import { ancestorSlugs } from '../content/fields.js';
import { mediaMetaSelect } from '../media/metadata.js';

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

export type Resolution = { kind: 'home' } | { kind: 'item'; item: FoundItem } | { kind: 'none' };

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
 * The item (or the home page) a URL of this site names, whatever its status: the caller decides
 * with `publiclyViewable`. `url` is taken as local; the oEmbed route checks the host first.
 */
export async function resolveUrl(ctx: Context, site: SiteSettings, url: URL): Promise<Resolution> {
  const base = homePath(site);
  if (url.pathname !== base && !url.pathname.startsWith(base + '/')) return { kind: 'none' };
  const rel = url.pathname.slice(base.length) || '/';

  if (rel === '/' || rel === '/index.php') {
    const embed = truthy(url.searchParams.get('embed'));
    // A custom type's plain link names it (?post_type=event&p=ID); the built-in types have an
    // argument of their own (?p=, ?page_id=, ?attachment_id=).
    const named = CONTENT_TYPES.find((d) => d.custom && d.type === url.searchParams.get('post_type'));
    for (const d of named ? [named] : CONTENT_TYPES.filter((c) => !c.custom)) {
      const value = url.searchParams.get(d.plainLinkArg);
      if (value === null) continue;
      if (!/^\d{1,9}$/.test(value)) return { kind: 'none' };
      const row = await byId(ctx, d.type, Number(value));
      return row ? { kind: 'item', item: { row, permalink: await linkOf(ctx, site, row), embed, form: 'plain' } } : { kind: 'none' };
    }
    if (named) return { kind: 'none' };
    // A static front page, when it is published; otherwise the home page lists the posts.
    if (site.showOnFront === 'page' && site.pageOnFront > 0) {
      const row = await byId(ctx, PAGE_TYPE.type, site.pageOnFront);
      if (row?.status === 'publish') return { kind: 'item', item: { row, permalink: await linkOf(ctx, site, row), embed, form: 'home' } };
    }
    return { kind: 'home' };
  }

  const segments: string[] = [];
  for (const raw of rel.split('/')) {
    if (raw === '') continue;
    const segment = slugSegment(raw);
    if (segment === null) return { kind: 'none' };
    segments.push(segment);
  }
  // `embed` is a reserved slug (no item can take it), so a trailing one always asks for the embed view.
  const embed = segments.length > 1 && segments[segments.length - 1] === 'embed';
  if (embed) segments.pop();
  if (!segments.length || segments.length > 50) return { kind: 'none' };

  // The site's own types answer under their permalink base: /events/{slug}/ (/{base}/{parent}/{slug}/ in a tree).
  const custom = segments.length > 1 ? CONTENT_TYPES.find((d) => d.custom && d.custom.permalinkBase === segments[0]) : undefined;
  if (custom) return custom.custom!.public ? itemAtPath(ctx, site, [custom], segments.slice(1), embed) : { kind: 'none' };
  // Pages first, as WordPress's rewrite rules try a page at the whole path before a post name.
  return itemAtPath(ctx, site, [PAGE_TYPE, POST_TYPE], segments, embed);
}

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
  if (!found) return { kind: 'none' };
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
