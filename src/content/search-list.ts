// A page of a full-text search, in SQL: the list filters, the full-text match and the order are one
// statement (plus one to count), so a search matching most of the site costs what any list costs.
// Prisma's query builder cannot join the full-text index, hence hand-written SQL for both databases;
// the filter meaning is the same as listWhere's in src/schema/content/service.ts.
import type { Context } from '../context.js';
import type { SiteSettings } from '../site/options.js';
import { versionCache } from '../db/version-cache.js';
import { parseSearch, SEARCH_COLUMNS, words, type SearchColumn } from './search.js';

export interface SearchListFilter {
  search: string;
  searchColumns?: string[] | null;
  after?: Date; before?: Date; modifiedAfter?: Date; modifiedBefore?: Date;
  author?: number[] | null; authorExclude?: number[] | null;
  include?: number[] | null; exclude?: number[] | null;
  slug?: string[] | null; statuses: string[];
  format?: string[] | null; sticky?: boolean | null;
  parent?: number[] | null; parentExclude?: number[] | null; menuOrder?: number | null;
  mimeType?: string[] | null; mediaType?: string[] | null;
  /** Taxonomy clauses, term ids already expanded for include_children. */
  tax: { ids: number[]; mode: 'any' | 'all' | 'none' }[];
  taxRelation?: string | null;
}

export interface SearchListOrder { orderby: string; order: 'asc' | 'desc'; ignoreSticky?: boolean; include?: number[] | null; slug?: string[] | null }

const counts = versionCache<number>();

/** COUNT(*) of a statement, cached until the next write anywhere. */
function cachedCount(ctx: Context, sql: string, params: unknown[]): Promise<number> {
  const key = `${sql}|${JSON.stringify(params, (_k, v) => (v instanceof Date ? v.toISOString() : v))}`;
  return counts(ctx.db, key, () => ctx.prisma.$queryRawUnsafe<{ n: number | bigint }[]>(sql, ...params).then((r) => Number(r[0]?.n ?? 0)));
}

export async function searchPage(ctx: Context, site: SiteSettings, type: string, f: SearchListFilter, o: SearchListOrder, skip: number, take: number): Promise<{ ids: number[]; total: number }> {
  const pg = ctx.db.provider === 'postgres';
  const params: unknown[] = [];
  const p = (value: unknown) => { params.push(value); return pg ? `$${params.length}` : '?'; };
  const list = (values: unknown[]) => values.map(p).join(', ');
  const when = (d: Date) => (pg ? d : d.toISOString().replace('Z', '+00:00'));
  const col = (name: string) => `c."${name}"`;

  const terms = parseSearch(f.search);
  const include = terms.include.map(words).filter((w) => w.length);
  const exclude = terms.exclude.map(words).filter((w) => w.length);
  if (!include.length) return { ids: [], total: 0 };
  const columns = (f.searchColumns?.length ? f.searchColumns.map((c) => SEARCH_COLUMNS[c]).filter(Boolean) : ['title', 'excerpt', 'content']) as SearchColumn[];

  let from = `"Content" c`;
  const and: string[] = [];
  let rank = '0';
  if (pg) {
    const anyColumn = (w: string[]) => {
      const q = `to_tsquery('simple', ${p(w.map((x) => `${x}:*`).join(' <-> '))})`;
      return `(${columns.map((c) => `to_tsvector('simple', ${col(c)}) @@ ${q}`).join(' OR ')})`;
    };
    // The predicate of the GIN indexes (migration media_search), repeated word for word so the
    // planner can use them; a content type made searchable later needs a migration for its rows.
    and.push(`${col('type')} IN ('post', 'page', 'attachment')`, ...include.map(anyColumn), ...exclude.map((w) => `NOT ${anyColumn(w)}`));
  } else {
    const phrase = (w: string[]) => `"${w.join(' ').replace(/"/g, '""')}"*`;
    let match = `{${columns.join(' ')}} : (${include.map(phrase).join(' AND ')})`;
    if (exclude.length) match += ` NOT {${columns.join(' ')}} : (${exclude.map(phrase).join(' OR ')})`;
    from = `content_fts JOIN "Content" c ON c."id" = content_fts.rowid`;
    and.push(`content_fts MATCH ${p(match)}`);
    if (o.orderby === 'relevance') rank = '-bm25(content_fts, 10.0, 5.0, 1.0)';
  }

  and.push(`${col('type')} = ${p(type)}`);
  and.push(`${col('status')} IN (${list(f.statuses)})`);
  if (f.include?.length) and.push(`${col('id')} IN (${list(f.include)})`);
  // `exclude` is kept apart so the count without it can be shared (and cached) across exclude lists.
  const excludeAt = f.exclude?.length ? and.length : -1;
  const firstExcludeParam = params.length;
  if (f.exclude?.length) and.push(`${col('id')} NOT IN (${list(f.exclude)})`);
  if (f.author?.length) and.push(`${col('authorId')} IN (${list(f.author)})`);
  if (f.authorExclude?.length) and.push(`${col('authorId')} NOT IN (${list(f.authorExclude)})`);
  if (f.slug?.length) and.push(`${col('slug')} IN (${list(f.slug)})`);
  if (f.after) and.push(`${col('date')} > ${p(when(f.after))}`);
  if (f.before) and.push(`${col('date')} < ${p(when(f.before))}`);
  if (f.modifiedAfter) and.push(`${col('modified')} > ${p(when(f.modifiedAfter))}`);
  if (f.modifiedBefore) and.push(`${col('modified')} < ${p(when(f.modifiedBefore))}`);
  if (f.parent?.length) and.push(`COALESCE(${col('parentId')}, 0) IN (${list(f.parent)})`);
  if (f.parentExclude?.length) and.push(`COALESCE(${col('parentId')}, 0) NOT IN (${list(f.parentExclude)})`);
  if (f.menuOrder != null) and.push(`${col('menuOrder')} = ${p(f.menuOrder)}`);
  if (f.format?.length) and.push(`${col('format')} IN (${list(f.format)})`);
  if (f.mimeType?.length) and.push(`${col('mimeType')} IN (${list(f.mimeType)})`);
  if (f.mediaType?.length) and.push(`(${f.mediaType.map((family) => `${col('mimeType')} LIKE ${p(`${family}/%`)}`).join(' OR ')})`);
  if (f.sticky != null) and.push(site.stickyPosts.length ? `${col('id')} ${f.sticky ? '' : 'NOT '}IN (${list(site.stickyPosts)})` : f.sticky ? '1 = 0' : '1 = 1');
  const has = (ids: number[]) => `EXISTS (SELECT 1 FROM "TermRelationship" t WHERE t."contentId" = c."id" AND t."termId" IN (${list(ids)}))`;
  const tax = f.tax.map((t) => (t.mode === 'none' ? `NOT ${has(t.ids)}` : t.mode === 'all' ? `(${t.ids.map((id) => has([id])).join(' AND ')})` : has(t.ids)));
  if (tax.length) and.push(`(${tax.join(f.taxRelation === 'OR' ? ' OR ' : ' AND ')})`);

  const where = and.join(' AND ');
  const countParams = [...params];
  // Bound after the filters so the count statement carries exactly its own parameters.
  if (pg && o.orderby === 'relevance') {
    const weighted = `setweight(to_tsvector('simple', ${col('title')}), 'A') || setweight(to_tsvector('simple', ${col('excerpt')}), 'B') || setweight(to_tsvector('simple', ${col('content')}), 'C')`;
    rank = `ts_rank(${weighted}, to_tsquery('simple', ${p(include.map((w) => `(${w.map((x) => `${x}:*`).join(' <-> ')})`).join(' & '))}))`;
  }
  const dir = o.order === 'asc' ? 'ASC' : 'DESC';
  const orderColumn: Record<string, string> = {
    date: col('date'), id: col('id'), modified: col('modified'), title: `LOWER(${col('title')})`, slug: col('slug'),
    author: col('authorId'), parent: `COALESCE(${col('parentId')}, 0)`, menu_order: col('menuOrder'), relevance: rank,
  };
  const order: string[] = [];
  if (o.ignoreSticky === false && site.stickyPosts.length) order.push(`CASE WHEN ${col('id')} IN (${list(site.stickyPosts)}) THEN 0 ELSE 1 END`);
  if (o.orderby === 'include' && o.include?.length) order.push(`CASE ${col('id')} ${o.include.map((id, i) => `WHEN ${p(id)} THEN ${i}`).join(' ')} END`);
  else if (o.orderby === 'include_slugs' && o.slug?.length) order.push(`CASE ${col('slug')} ${o.slug.map((s, i) => `WHEN ${p(s)} THEN ${i}`).join(' ')} END`);
  else order.push(`${orderColumn[o.orderby] ?? col('date')} ${dir}`);
  order.push(`${col('id')} ${dir}`);

  const pageSql = `SELECT c."id" AS id FROM ${from} WHERE ${where} ORDER BY ${order.join(', ')} LIMIT ${p(take)} OFFSET ${p(skip)}`;
  const rows = await ctx.prisma.$queryRawUnsafe<{ id: number | bigint }[]>(pageSql, ...params);
  let total: number;
  if (excludeAt >= 0 && !pg) {
    // total = (matches without the exclude list, cached) − (excluded ids that match).
    const withoutExclude = and.filter((_, i) => i !== excludeAt).join(' AND ');
    const excludeParams = f.exclude!;
    const baseParams = countParams.filter((_, i) => !(i >= firstExcludeParam && i < firstExcludeParam + excludeParams.length));
    const [all, gone] = await Promise.all([
      cachedCount(ctx, `SELECT COUNT(*) AS n FROM ${from} WHERE ${withoutExclude}`, baseParams),
      cachedCount(ctx, `SELECT COUNT(*) AS n FROM ${from} WHERE ${withoutExclude} AND c."id" IN (${excludeParams.map(() => '?').join(', ')})`, [...baseParams, ...excludeParams]),
    ]);
    total = all - gone;
  } else {
    total = await cachedCount(ctx, `SELECT COUNT(*) AS n FROM ${from} WHERE ${where}`, countParams);
  }
  return { ids: rows.map((r) => Number(r.id)), total };
}
