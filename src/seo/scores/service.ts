// The dashboard's score buckets (seo/v1 readability_scores, seo_scores, statistics). Items are the
// published posts or pages; their scores come from the SEO index (Indexable: readabilityScore,
// primaryFocusKeywordScore, 0–100). An item not yet indexed, or indexed without a score (no
// keyphrase, no text), is "not analysed". Query count is fixed: the optional term lookup, the items,
// their index rows (and the site settings for the links).
import type { Context } from '../../context.js';
import { authStatus, restError } from '../../errors.js';
import { bucketOf } from '../analysis/index.js';

export type ScoreKind = 'seo' | 'readability';
export type BucketName = 'good' | 'ok' | 'bad' | 'notAnalyzed';
const BUCKETS: BucketName[] = ['good', 'ok', 'bad', 'notAnalyzed'];

/** Content types the dashboard reports on, with the taxonomies each can be filtered by. */
const CONTENT_TYPES: Record<string, string[]> = { post: ['category', 'post_tag'], page: [] };
/** The admin list's query variable for a term of each taxonomy. */
const TERM_QUERY_VAR: Record<string, string> = { category: 'category_name', post_tag: 'tag' };

export function requireCap(ctx: Context, cap: string): void {
  if (!ctx.viewer || !ctx.can(cap)) throw restError('rest_forbidden', 'Sorry, you are not allowed to do that.', authStatus(!!ctx.viewer));
}

function invalid(param: string, message: string): never {
  throw restError('rest_invalid_param', `Invalid parameter(s): ${param}`, 400, { params: { [param]: message } });
}

const bucketOfScore = (score: number | null | undefined): BucketName => {
  const b = bucketOf(score);
  return b === 'na' ? 'notAnalyzed' : b;
};

/** The admin list of published items of the type in one bucket (the plugin's list filter names). */
function viewLink(adminUrl: string, kind: ScoreKind, contentType: string, bucket: BucketName, term: { taxonomy: string; slug: string } | null): string {
  const q = new URLSearchParams({ post_status: 'publish', post_type: contentType, [`${kind}_filter`]: bucket === 'notAnalyzed' ? 'na' : bucket });
  if (term) q.set(TERM_QUERY_VAR[term.taxonomy] ?? term.taxonomy, term.slug);
  return `${adminUrl}edit.php?${q.toString()}`;
}

export interface ScoreBuckets {
  scores: { name: BucketName; amount: number; links: { view: string | null }; ids: number[] }[];
  cache_used: false;
}

export async function scoreBuckets(
  ctx: Context,
  kind: ScoreKind,
  args: { contentType: string; taxonomy: string; term: number | null },
): Promise<ScoreBuckets> {
  requireCap(ctx, 'edit_posts');
  const taxonomies = CONTENT_TYPES[args.contentType];
  if (!taxonomies) invalid('contentType', `The content type must be one of: ${Object.keys(CONTENT_TYPES).join(', ')}.`);
  let term: { id: number; taxonomy: string; slug: string } | null = null;
  if (args.taxonomy !== '') {
    if (!taxonomies.includes(args.taxonomy)) invalid('taxonomy', `The taxonomy ${args.taxonomy} cannot filter ${args.contentType} items.`);
    if (args.term === null) invalid('term', 'A term is required with a taxonomy.');
    const found = await ctx.prisma.term.findFirst({ where: { id: args.term, taxonomy: args.taxonomy }, select: { id: true, taxonomy: true, slug: true } });
    if (!found) invalid('term', `No ${args.taxonomy} term has the id ${args.term}.`);
    term = found;
  }

  const items = await ctx.prisma.content.findMany({
    where: { type: args.contentType, status: 'publish', ...(term ? { terms: { some: { termId: term.id } } } : {}) },
    select: { id: true },
    orderBy: { id: 'asc' },
  });
  const ids = items.map((i) => i.id);
  const rows = ids.length === 0 ? [] : await ctx.prisma.indexable.findMany({
    where: { objectType: 'post', objectId: { in: ids } },
    select: { objectId: true, readabilityScore: true, primaryFocusKeywordScore: true },
  });
  const score = new Map(rows.map((r) => [r.objectId, kind === 'seo' ? r.primaryFocusKeywordScore : r.readabilityScore]));
  const byBucket = new Map<BucketName, number[]>(BUCKETS.map((b) => [b, []]));
  for (const id of ids) byBucket.get(bucketOfScore(score.get(id)))!.push(id);

  const site = await ctx.site();
  const adminUrl = `${site.url.replace(/\/+$/, '')}/wp-admin/`;
  return {
    scores: BUCKETS.map((name) => {
      const list = byBucket.get(name)!;
      return { name, amount: list.length, links: { view: list.length ? viewLink(adminUrl, kind, args.contentType, name, term) : null }, ids: list };
    }),
    cache_used: false,
  };
}

export type SeoRank = 'noindex' | 'bad' | 'ok' | 'good' | 'na';
const RANKS: { rank: SeoRank; label: string }[] = [
  { rank: 'noindex', label: 'Posts that should not show up in search results' },
  { rank: 'bad', label: 'Posts with a bad SEO score' },
  { rank: 'ok', label: 'Posts with an OK SEO score' },
  { rank: 'good', label: 'Posts with a good SEO score' },
  { rank: 'na', label: 'Posts without a focus keyphrase' },
];

/**
 * The SEO-score summary of the dashboard widget: published posts and pages per SEO rank. An item
 * set to noindex counts as `noindex` whatever its score. Two queries (items, their index rows).
 */
export async function seoStatistics(ctx: Context) {
  requireCap(ctx, 'read');
  const items = await ctx.prisma.content.findMany({
    where: { type: { in: ['post', 'page'] }, status: 'publish' },
    select: { id: true, type: true },
  });
  const rows = items.length === 0 ? [] : await ctx.prisma.indexable.findMany({
    where: { objectType: 'post', objectId: { in: items.map((i) => i.id) } },
    select: { objectId: true, primaryFocusKeywordScore: true, isRobotsNoindex: true },
  });
  const byId = new Map(rows.map((r) => [r.objectId, r]));
  const counts = new Map<SeoRank, { post: number; page: number }>(RANKS.map((r) => [r.rank, { post: 0, page: 0 }]));
  for (const item of items) {
    const row = byId.get(item.id);
    const b = bucketOf(row?.primaryFocusKeywordScore);
    const rank: SeoRank = row?.isRobotsNoindex === true ? 'noindex' : b;
    counts.get(rank)![item.type as 'post' | 'page']++;
  }
  const site = await ctx.site();
  const adminUrl = `${site.url.replace(/\/+$/, '')}/wp-admin/`;
  return {
    header: `Your site's SEO scores: ${items.length} published posts and pages`,
    seo_scores: RANKS.map(({ rank, label }) => {
      const c = counts.get(rank)!;
      return {
        seo_rank: rank, label, count: c.post + c.page, counts: c,
        link: c.post + c.page > 0 ? `${adminUrl}edit.php?${new URLSearchParams({ post_status: 'publish', seo_filter: rank }).toString()}` : null,
      };
    }),
  };
}
