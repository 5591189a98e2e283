// Builds and refreshes Indexable rows: the columns derived from an object (permalink, status,
// author, dates, reading time, featured image). The columns an editor sets (title, description,
// canonical, noindex, cornerstone, focus keyphrase) are never touched here, so a refresh keeps them.
import { POST_LIKE_TYPES, TAXONOMY_REFS } from '../../resources/content-types.js';
import { createHash } from 'node:crypto';
import type { Context } from '../../context.js';
import type { Prisma as Client } from '../../db/client.js';
import type { SiteSettings } from '../../site/options.js';
import { permalink } from '../../resources/content-types.js';
import { ancestorSlugs } from '../../content/fields.js';
import { termAncestorSlugs } from '../../terms/service.js';
import { authorLink } from '../../users/service.js';
import { renderTitle, stripAllTags } from '../../content/render.js';
import { analyzeReadability, analyzeSeo } from '../analysis/index.js';
import { loadTemplates, replaceVars, siteLocale } from '../head/templates.js';

/** Content types that get an indexable. */
/** Public post-like types (posts, pages and the site's own) and every taxonomy have indexables. */
export const INDEXED_TYPES = POST_LIKE_TYPES.filter((d) => d.custom?.public ?? true).map((d) => d.type);
export const INDEXED_TAXONOMIES = TAXONOMY_REFS.map((t) => t.taxonomy);

export const hashPermalink = (url: string) => createHash('sha256').update(url).digest('hex');

/** Words per minute of the reading-time estimate. */
const WORDS_PER_MINUTE = 200;

export function wordCount(html: string): number {
  const text = stripAllTags(html).replace(/&[a-z#0-9]+;/gi, ' ').trim();
  return text ? text.split(/\s+/).length : 0;
}

export const readingMinutes = (html: string) => Math.max(1, Math.ceil(wordCount(html) / WORDS_PER_MINUTE));

export const CONTENT_SELECT = {
  id: true, type: true, status: true, slug: true, parentId: true, authorId: true, title: true, content: true,
  password: true, dateGmt: true, modifiedGmt: true, featuredMedia: true,
} as const;

export interface ContentRow {
  id: number; type: string; status: string; slug: string; parentId: number | null; authorId: number; title: string;
  content: string; password: string; dateGmt: Date; modifiedGmt: Date; featuredMedia: number;
}

/** The derived columns of a post's or page's indexable. */
export async function contentColumns(ctx: Context, site: SiteSettings, row: ContentRow) {
  const link = permalink(site, row, await ancestorSlugs(ctx, row));
  return {
    objectType: 'post', objectSubType: row.type, objectId: row.id,
    permalink: link, permalinkHash: hashPermalink(link),
    breadcrumbTitle: stripAllTags(renderTitle(row.title)),
    postStatus: row.status,
    // Published and without a password: what an anonymous reader (and a search engine) can read.
    isPublic: row.status === 'publish' && row.password === '',
    authorId: row.authorId,
    postParent: row.parentId ?? 0,
    openGraphImageId: row.featuredMedia || null,
    twitterImageId: row.featuredMedia || null,
    estimatedReadingTimeMinutes: readingMinutes(row.content),
    objectLastModified: row.modifiedGmt,
    objectPublishedAt: row.dateGmt,
  };
}

export interface TermRow { id: number; taxonomy: string; name: string; slug: string; parentId: number; count: number }

export async function termColumns(ctx: Context, site: SiteSettings, term: TermRow) {
  const path = term.taxonomy === 'category' ? [...(await termAncestorSlugs(ctx, term.parentId)), term.slug].join('/') : term.slug;
  const link = `${site.home}/${term.taxonomy === 'category' ? 'category' : 'tag'}/${path}/`;
  return {
    objectType: 'term', objectSubType: term.taxonomy, objectId: term.id,
    permalink: link, permalinkHash: hashPermalink(link),
    breadcrumbTitle: term.name, isPublic: true, postParent: term.parentId,
  };
}

export interface UserRow { id: number; slug: string; displayName: string }

export function userColumns(site: SiteSettings, user: UserRow) {
  const link = authorLink(site, user.slug);
  return {
    objectType: 'user', objectSubType: null, objectId: user.id, authorId: user.id,
    permalink: link, permalinkHash: hashPermalink(link), breadcrumbTitle: user.displayName, isPublic: true,
  };
}

/** The home page: the posts list, or the static front page when one is set (then the page's own row serves). */
export function homeColumns(site: SiteSettings) {
  const link = `${site.home}/`;
  return { objectType: 'home-page', objectSubType: null, objectId: null, permalink: link, permalinkHash: hashPermalink(link), breadcrumbTitle: 'Home', isPublic: true };
}

/** The posts archive: the page for posts when one is set, else the home page. */
export async function postArchiveColumns(ctx: Context, site: SiteSettings) {
  let link = `${site.home}/`;
  if (site.pageForPosts) {
    const page = await ctx.prisma.content.findUnique({ where: { id: site.pageForPosts }, select: { id: true, type: true, status: true, slug: true, parentId: true } });
    if (page) link = permalink(site, page, await ancestorSlugs(ctx, page));
  }
  return { objectType: 'post-type-archive', objectSubType: 'post', objectId: null, permalink: link, permalinkHash: hashPermalink(link), breadcrumbTitle: 'Posts', isPublic: true };
}

/** System pages have no permalink of their own. */
export function systemColumns(kind: '404' | 'search') {
  return { objectType: 'system-page', objectSubType: kind, objectId: null, permalink: null, permalinkHash: null, breadcrumbTitle: kind === '404' ? 'Error 404: Page not found' : 'Search', isPublic: false, isRobotsNoindex: true };
}

type Columns = Record<string, unknown> & { objectType: string; objectSubType: string | null; objectId: number | null };

/** Inserts or refreshes the row of one object. Rows without an object id are found by type and sub-type. */
export async function upsertIndexable(prisma: Client, columns: Columns): Promise<{ id: number }> {
  const where = columns.objectId === null
    ? { objectType: columns.objectType, objectSubType: columns.objectSubType, objectId: null }
    : { objectType: columns.objectType, objectId: columns.objectId };
  const existing = await prisma.indexable.findFirst({ where, select: { id: true } });
  if (existing) return prisma.indexable.update({ where: { id: existing.id }, data: columns as never, select: { id: true } });
  return prisma.indexable.create({ data: columns as never, select: { id: true } });
}

/** Refreshes (or creates) the row of a post or page; removes it when the item is gone or not indexed. */
export async function refreshContentIndexable(ctx: Context, id: number): Promise<void> {
  const row = await ctx.prisma.content.findUnique({ where: { id }, select: CONTENT_SELECT });
  if (!row || !INDEXED_TYPES.includes(row.type)) {
    await ctx.prisma.indexable.deleteMany({ where: { objectType: 'post', objectId: id } });
    return;
  }
  const site = await ctx.site();
  const existing = await ctx.prisma.indexable.findUnique({
    where: { objectType_objectId: { objectType: 'post', objectId: id } }, select: { primaryFocusKeyword: true, title: true, description: true },
  });
  await upsertIndexable(ctx.prisma, { ...(await contentColumns(ctx, site, row)), ...(await scoreColumns(ctx, row, existing)) });
}

export async function refreshTermIndexable(ctx: Context, id: number): Promise<void> {
  const term = await ctx.prisma.term.findUnique({ where: { id } });
  if (!term || !INDEXED_TAXONOMIES.includes(term.taxonomy)) {
    await ctx.prisma.indexable.deleteMany({ where: { objectType: 'term', objectId: id } });
    return;
  }
  await upsertIndexable(ctx.prisma, await termColumns(ctx, await ctx.site(), term));
}

export async function refreshUserIndexable(ctx: Context, id: number): Promise<void> {
  const user = await ctx.prisma.user.findUnique({ where: { id }, select: { id: true, slug: true, displayName: true } });
  if (!user) {
    await ctx.prisma.indexable.deleteMany({ where: { objectType: 'user', objectId: id } });
    return;
  }
  await upsertIndexable(ctx.prisma, userColumns(await ctx.site(), user));
}

export interface Overrides { primaryFocusKeyword?: string | null; title?: string | null; description?: string | null }

/**
 * The readability score of a post or page, and its SEO score when it has a focus keyphrase, from
 * the content analysis. The SEO score judges the resolved SEO title and meta description. A
 * `na` analysis (no text, no keyphrase) stores null.
 */
export async function scoreColumns(ctx: Context, row: ContentRow, o: Overrides | null, env?: ScoreEnv): Promise<{ primaryFocusKeywordScore: number | null; readabilityScore: number | null }> {
  const e = env ?? (await scoreEnv(ctx));
  const readability = analyzeReadability({ html: row.content, locale: e.locale });
  let seo: number | null = null;
  if (o?.primaryFocusKeyword) {
    const vars = { sitename: e.site.name, sitedesc: e.site.description, sep: e.templates.separator || '-', title: stripAllTags(renderTitle(row.title)) };
    const analysis = analyzeSeo({
      keyphrase: o.primaryFocusKeyword,
      title: replaceVars(o.title ?? e.templates[`title-${row.type}`] ?? '', vars),
      metaDescription: replaceVars(o.description ?? e.templates[`metadesc-${row.type}`] ?? '', vars),
      slug: row.slug, html: row.content, siteUrl: e.site.home,
    });
    seo = analysis.rating === 'na' ? null : analysis.score;
  }
  return { primaryFocusKeywordScore: seo, readabilityScore: readability.rating === 'na' ? null : readability.score };
}

/** What the analysis needs of the site, read once per batch. */
export interface ScoreEnv { site: SiteSettings; locale: string; templates: Record<string, string> }
export async function scoreEnv(ctx: Context): Promise<ScoreEnv> {
  const [site, locale, templates] = await Promise.all([ctx.site(), siteLocale(ctx), loadTemplates(ctx)]);
  return { site, locale, templates };
}
