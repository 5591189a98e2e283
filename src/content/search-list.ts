// A page of a full-text search, in SQL: the list filters, the full-text match and the order are one
// statement (plus one to count), so a search matching most of the site costs what any list costs.
// Prisma's query builder cannot join the full-text index, hence hand-written SQL for both databases;
// the filter meaning is the same as listWhere's in src/content/service.ts.
import type { Context } from '../context.js';
import type { SiteSettings } from '../site/options.js';
import { versionCache } from '../db/version-cache.js';
import { totalsCache } from '../db/list.js';
import { parseSearch, SEARCH_COLUMNS, words, type SearchColumn } from './search.js';
import { binder } from '../db/sql.js';
import { direct } from '../db/content-read.js';
import { MISSING_PARENT } from '../media/metadata.js';

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

const counts = totalsCache();

/**
 * A read statement of the search, straight to the driver (`Db.read`: Prisma's client costs about
 * 0.2 ms a statement) unless the context reads through a transaction of its own.
 */
function query<T>(ctx: Context, sql: string, params: unknown[]): Promise<T[]> {
  return direct(ctx) ? (ctx.db.read(sql, params) as Promise<T[]>) : ctx.prisma.$queryRawUnsafe<T[]>(sql, ...params);
}

/** COUNT(*) of a statement, cached until the next write anywhere (see totalsCache). */
function cachedCount(ctx: Context, sql: string, params: unknown[]): Promise<number> {
  const key = `${sql}|${JSON.stringify(params, (_k, v) => (v instanceof Date ? v.toISOString() : v))}`;
  return counts(ctx, key, () => query<{ n: number | bigint | string }>(ctx, sql, params).then((r) => Number(r[0]?.n ?? 0)));
}

/**
 * How a search page is cut on SQLite. `drive`: from the full-text matches, then ordered: its cost
 * follows the number of matches (a word in most of a million posts: seconds). The walk (newest
 * first by date only): the first rows of the list down the (type, status, date, id) index, then
 * those of them the full-text index holds, with one word query bounded to their ids' range; its
 * cost follows the rows read, about (offset + page size) × (rows in scope) / matches. Same rows
 * either way (a walk that reads too few rows to fill the page walks further, and falls back to
 * `drive` once walking costs more than the matches). `walk` as a
 * plan of `build` is the row-by-row test (a correlated EXISTS), used to count the excluded ids.
 * PostgreSQL's planner makes its own choice.
 */
export type ListPlan = 'drive' | 'walk';

/** Plan constants, exported for the tests (which set `minMatches` to 0 to try both plans on small sites). */
export const listPlans = {
  /** Below this many matches the drive plan is cheap whatever the site's size: no plan choice. */
  minMatches: 2000,
  /** The walk reads `walkFactor` × the rows it should pass over, plus `walkBase` (recent rows may match less; a walk that finds too few walks further, see walkGrowth). */
  walkFactor: 2,
  walkBase: 100,
  /** How much further each walk goes than the one before when that one did not fill the page. */
  walkGrowth: 4,
  /** A row walked costs about 1/walkRowCost of a match driven (an index entry against a row read and sorted). */
  walkRowCost: 4,
  /** Most words a prefix may stand for in the walk plan's exact-word query. */
  maxExpansion: 16,
  /**
   * PostgreSQL: a row its planner walks down the date index costs about this many matches read
   * through the GIN index and sorted (a walked row about 2 µs here, its stored vector tested; a
   * match about 1.5 µs, read back from the table for the recheck).
   */
  pgWalkRowCost: 1.4,
  /** PostgreSQL: the fixed part of reading the matches (the GIN index's scan, about 0.15 ms), in matches. */
  pgDriveBase: 100,
  /**
   * SQLite: most rows of the indexed types outside the filter (pages, drafts, attachments …) a
   * search's total is counted by complement over (see complementTotal); past it the matches are
   * counted against the table. A row outside costs an index entry and a test, a match counted
   * against the table a row read (10,000 posts, a word in 78% of them, 500 rows outside: 3.9 ms by
   * complement, 24.7 ms against the table).
   */
  complementMax: 20_000,
};

/**
 * The content types SQLite's full-text index holds: every row of these types, whatever its status
 * (the triggers of migration media_search). A row's type never changes, so the index holds exactly
 * the rows of these types.
 */
const FTS_TYPES = ['post', 'page', 'attachment'];

/**
 * Rows the walk reads for a page: it passes over about (skip + take) × scope / total rows when the
 * matches are spread evenly, times `walkFactor`, plus `walkBase`.
 */
export function walkRows(total: number, scope: number, skip: number, take: number): number {
  if (total <= 0) return Number.MAX_SAFE_INTEGER;
  return Math.ceil(((skip + take) * scope * listPlans.walkFactor) / total) + listPlans.walkBase;
}

export interface SearchPlanInput {
  /** Rows the list's other filters leave (no full-text match): for the plan choice. */
  scope?: () => Promise<number>;
}

interface Built { from: string; where: string; params: unknown[] }

/** SQLite's full-text query of the include/exclude phrases: `{columns} : (…)`. */
function ftsPhrase(w: string[]): string {
  return `"${w.join(' ').replace(/"/g, '""')}"*`;
}

/** The stored vector's weight of each searchable column (migration search_vector). */
const WEIGHTS: Record<SearchColumn, string> = { title: 'A', excerpt: 'B', content: 'C' };

/**
 * PostgreSQL's tsquery of the include and exclude phrases over the chosen columns: each word a
 * prefix (`word:*`), restricted to the columns' weights unless all three are chosen. A phrase of
 * several words is tested one column at a time (`(a:*A <-> b:*A) | (a:*B <-> b:*B)`): in the
 * stored vector a column's first word follows the previous column's last, and without the
 * weights a phrase could match across the two. The words are letters and digits only (`words`),
 * so nothing in them is tsquery syntax.
 */
export function pgQuery(include: string[][], exclude: string[][], columns: SearchColumn[]): string {
  const all = columns.length === 3;
  const phrase = (w: string[]) => {
    if (w.length === 1) return `${w[0]}:*${all ? '' : columns.map((c) => WEIGHTS[c]).join('')}`;
    return `(${columns.map((c) => `(${w.map((x) => `${x}:*${WEIGHTS[c]}`).join(' <-> ')})`).join(' | ')})`;
  };
  return [...include.map(phrase), ...exclude.map((w) => `!${phrase(w)}`)].join(' & ');
}

export async function searchPage(ctx: Context, site: SiteSettings, type: string, f: SearchListFilter, o: SearchListOrder, skip: number, take: number, planning: SearchPlanInput = {}): Promise<{ ids: number[]; total: number }> {
  const pg = ctx.db.provider === 'postgres';
  const terms = parseSearch(f.search);
  const include = terms.include.map(words).filter((w) => w.length);
  const exclude = terms.exclude.map(words).filter((w) => w.length);
  if (!include.length) return { ids: [], total: 0 };
  const columns = (f.searchColumns?.length ? f.searchColumns.map((c) => SEARCH_COLUMNS[c]).filter(Boolean) : ['title', 'excerpt', 'content']) as SearchColumn[];
  const fields = `{${columns.join(' ')}}`;
  let match = `${fields} : (${include.map(ftsPhrase).join(' AND ')})`;
  if (exclude.length) match += ` NOT ${fields} : (${exclude.map(ftsPhrase).join(' OR ')})`;

  /**
   * The statement's FROM and WHERE for a plan. `withExclude`: the `exclude` id list as NOT IN;
   * `excludedIn`: those ids as IN instead (the part of the total they take away).
   */
  const build = (plan: ListPlan | 'scan', params: unknown[], opts: { withExclude?: boolean; excludedIn?: boolean; match?: string } = {}): Built => {
    const p = binder(pg, params);
    const list = (values: unknown[]) => values.map(p).join(', ');
    const when = (d: Date) => (pg ? d : d.toISOString().replace('Z', '+00:00'));
    const col = (name: string) => `c."${name}"`;
    let from = `"Content" c`;
    const and: string[] = [];
    if (pg) {
      // One test of the stored vector (migration search_vector) for every phrase, excluded ones
      // included; the type list is the GIN index's predicate, repeated word for word so the
      // planner can use it. A content type made searchable later needs a migration for its rows.
      and.push(`${col('type')} IN ('post', 'page', 'attachment')`, `${col('searchVector')} @@ to_tsquery('simple', ${p(pgQuery(include, exclude, columns))})`);
    } else if (plan === 'walk') {
      and.push(`EXISTS (SELECT 1 FROM content_fts WHERE content_fts MATCH ${p(opts.match ?? match)} AND content_fts.rowid = c."id")`);
    } else if (plan === 'drive') {
      from = `content_fts JOIN "Content" c ON c."id" = content_fts.rowid`;
      and.push(`content_fts MATCH ${p(opts.match ?? match)}`);
    }
    and.push(`${col('type')} = ${p(type)}`);
    and.push(`${col('status')} IN (${list(f.statuses)})`);
    if (f.include?.length) and.push(`${col('id')} IN (${list(f.include)})`);
    if (f.exclude?.length && opts.withExclude) and.push(`${col('id')} NOT IN (${list(f.exclude)})`);
    if (f.exclude?.length && opts.excludedIn) and.push(`${col('id')} IN (${list(f.exclude)})`);
    filterClauses(f, site, and, p, list, when, col);
    return { from, where: and.join(' AND '), params };
  };

  // Bound after the filters so the count statement carries exactly its own parameters.
  const orderSql = (params: unknown[]) => {
    const p = binder(pg, params);
    const list = (values: unknown[]) => values.map(p).join(', ');
    const col = (name: string) => `c."${name}"`;
    let rank = '0';
    if (o.orderby === 'relevance') {
      // Ranked by the words wherever they are, as before the stored vector (the same vector).
      if (pg) rank = `ts_rank(${col('searchVector')}, to_tsquery('simple', ${p(include.map((w) => `(${w.map((x) => `${x}:*`).join(' <-> ')})`).join(' & '))}))`;
      else rank = '-bm25(content_fts, 10.0, 5.0, 1.0)';
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
    return order.join(', ');
  };

  // The total: (matches without the exclude list, cached) − (excluded ids that match), on both
  // databases (a million-post full-text count takes seconds on SQLite, minutes on PostgreSQL). Past
  // `minMatches` on SQLite, the prefixes are looked up as words (exactWords): the excluded ids and
  // a walk are then tested row by row with word queries.
  const countOf = (b: Built) => cachedCount(ctx, `SELECT COUNT(*) AS n FROM ${b.from} WHERE ${b.where}`, b.params);
  // The matches within type and statuses, the exclude list left out: by complement where it applies.
  const plain = !pg && FTS_TYPES.includes(type) && !f.include?.length && !otherFilters(f, site);
  const matchesInFilter = async (withExclude: boolean) => {
    const n = plain ? await counts(ctx, `complement|${type}|${f.statuses.join(',')}|${match}`, async () => (await complementTotal(ctx, type, f.statuses, match)) ?? -1) : -1;
    return n >= 0 ? n : countOf(build('drive', [], { withExclude }));
  };
  let total: number;
  let walkMatch: string | null = null;
  if (f.exclude?.length) {
    const all = await matchesInFilter(false);
    if (!pg && all > listPlans.minMatches) walkMatch = await exactWords(ctx, include, exclude, fields);
    const gone = await countOf(walkMatch ? build('walk', [], { excludedIn: true, match: walkMatch }) : build('drive', [], { excludedIn: true }));
    total = all - gone;
  } else {
    total = await matchesInFilter(true);
    if (!pg && total > listPlans.minMatches) walkMatch = await exactWords(ctx, include, exclude, fields);
  }

  const drivePage = (fenced = false) => {
    const params: unknown[] = [];
    const b = build('drive', params, { withExclude: true });
    const order = orderSql(params);
    const p = binder(pg, params);
    // Fenced (PostgreSQL, newest or oldest first): the matches are read in a subquery the planner
    // may not merge (OFFSET 0), so through the GIN indexes, then sorted; see pgDrives.
    const from = fenced ? `(SELECT c."id", c."date" FROM ${b.from} WHERE ${b.where} OFFSET 0) c` : `${b.from} WHERE ${b.where}`;
    return query<{ id: number | bigint }>(ctx, `SELECT c."id" AS id FROM ${from} ORDER BY ${order} LIMIT ${p(take)} OFFSET ${p(skip)}`, params);
  };
  if (pg && planning.scope && walkable(o, f, site) && pgDrives(total, await planning.scope(), skip, take)) {
    return { ids: (await drivePage(true)).map((r) => Number(r.id)), total };
  }
  let rows: { id: number | bigint }[] | null = null;
  if (walkMatch && planning.scope && walkable(o, f, site)) {
    const scope = await planning.scope();
    // The first `cap` rows of the list in its order (index only), then the matches among them:
    // one full-text query bounded to their ids' range. Exact when it fills the page, or when the
    // page it gives ends the list (the total says so). A walk that falls short met rows without
    // the words first (recent posts on another subject: a site grown by such posts had every
    // common-word search cut from all its matches, seconds at a million posts), so it walks again
    // `walkGrowth` times as far, while that still costs less than starting from the matches.
    for (let cap = walkRows(total, scope, skip, take); cap < total * listPlans.walkRowCost; cap *= listPlans.walkGrowth) {
      const params: unknown[] = [];
      const b = build('scan', params, { withExclude: true });
      const p = binder(false, params); // the walk runs on SQLite only
      const dir = o.order === 'asc' ? 'ASC' : 'DESC';
      const sql = `WITH w AS (SELECT c."id" AS id, c."date" AS date FROM ${b.from} WHERE ${b.where} ORDER BY c."date" ${dir}, c."id" ${dir} LIMIT ${p(cap)}) `
        + `SELECT w.id AS id FROM w WHERE w.id IN (SELECT rowid FROM content_fts WHERE content_fts MATCH ${p(walkMatch)} AND rowid BETWEEN (SELECT MIN(id) FROM w) AND (SELECT MAX(id) FROM w)) `
        + `ORDER BY w.date ${dir}, w.id ${dir} LIMIT ${p(take)} OFFSET ${p(skip)}`;
      const walked = await query<{ id: number | bigint }>(ctx, sql, params);
      if (walked.length === take || skip + walked.length === total) { rows = walked; break; }
      if (cap >= scope) break;
    }
  }
  rows ??= await drivePage();
  return { ids: rows.map((r) => Number(r.id)), total };
}

type Bind = (value: unknown) => string;

/** Whether the filter has conditions besides type, status, include and exclude (filterClauses). */
function otherFilters(f: SearchListFilter, site: SiteSettings): boolean {
  const and: string[] = [];
  const p: Bind = () => '?';
  filterClauses(f, site, and, p, (values) => values.map(p).join(', '), (d) => d, (name) => name);
  return and.length > 0;
}

/**
 * SQLite: how many rows of `type` with one of `statuses` the full-text query `match` finds, in one
 * statement that reads none of them. Counting the matches against the table reads every matching
 * row (a word in most of a million posts: about 780,000 rows, over a second), while the index alone
 * counts them in a fraction of that. The index holds every row of FTS_TYPES, so the total is its
 * count less the matches among the rows of those types outside the filter (pages, drafts,
 * attachments …): those are walked down the (type, status) index, for each pair the tallies
 * (ContentTally) hold, and tested against the list of matches (built once). Null, for the caller
 * to count against the table, when the tallies put more than `complementMax` rows outside.
 */
async function complementTotal(ctx: Context, type: string, statuses: string[], match: string): Promise<number | null> {
  const params: unknown[] = [];
  const p = binder(false, params);
  // The (type, status) pairs of the indexed types outside the filter, from the tallies (slot 0 on SQLite).
  const outside = () => `t."authorId" = 0 AND t."termId" = 0 AND t."count" > 0 AND t."type" IN (${FTS_TYPES.map(p).join(', ')}) AND NOT (t."type" = ${p(type)} AND t."status" IN (${statuses.map(p).join(', ')}))`;
  const size = `(SELECT COALESCE(SUM(t."count"), 0) FROM "ContentTally" t WHERE ${outside()})`;
  const cap = p(listPlans.complementMax);
  const all = `(SELECT COUNT(*) FROM content_fts WHERE content_fts MATCH ${p(match)})`;
  // `+c."id"`: the planner would otherwise read the matches first and look each row up, which is
  // the cost being avoided; this way it walks the rows outside and tests each against the list.
  const others = `(SELECT COUNT(*) FROM "ContentTally" t JOIN "Content" c ON c."type" = t."type" AND c."status" = t."status" WHERE ${outside()} AND +c."id" IN (SELECT rowid FROM content_fts WHERE content_fts MATCH ${p(match)}))`;
  const rows = await query<{ n: number | bigint }>(ctx, `SELECT CASE WHEN ${size} > ${cap} THEN -1 ELSE ${all} - ${others} END AS n`, params);
  const n = Number(rows[0].n);
  return n < 0 ? null : n;
}

/** The filters besides type, status, include and exclude, as SQL conditions on `c`. */
function filterClauses(f: SearchListFilter, site: SiteSettings, and: string[], p: Bind, list: (values: unknown[]) => string, when: (d: Date) => unknown, col: (name: string) => string): void {
  if (f.author?.length) and.push(`${col('authorId')} IN (${list(f.author)})`);
  if (f.authorExclude?.length) and.push(`${col('authorId')} NOT IN (${list(f.authorExclude)})`);
  if (f.slug?.length) and.push(`${col('slug')} IN (${list(f.slug)})`);
  if (f.after) and.push(`${col('date')} > ${p(when(f.after))}`);
  if (f.before) and.push(`${col('date')} < ${p(when(f.before))}`);
  if (f.modifiedAfter) and.push(`${col('modified')} > ${p(when(f.modifiedAfter))}`);
  if (f.modifiedBefore) and.push(`${col('modified')} < ${p(when(f.modifiedBefore))}`);
  // An attachment's parent with nothing behind it is kept in its meta (MISSING_PARENT); WordPress
  // matches it as any other parent id.
  const parent = () => `COALESCE(${col('parentId')}, (SELECT CAST(m."value" AS INTEGER) FROM "PostMeta" m WHERE m."contentId" = ${col('id')} AND m."key" = ${p(MISSING_PARENT)} LIMIT 1), 0)`;
  if (f.parent?.length) and.push(`${parent()} IN (${list(f.parent)})`);
  if (f.parentExclude?.length) and.push(`${parent()} NOT IN (${list(f.parentExclude)})`);
  if (f.menuOrder != null) and.push(`${col('menuOrder')} = ${p(f.menuOrder)}`);
  if (f.format?.length) and.push(`${col('format')} IN (${list(f.format)})`);
  if (f.mimeType?.length) and.push(`${col('mimeType')} IN (${list(f.mimeType)})`);
  if (f.mediaType?.length) and.push(`(${f.mediaType.map((family) => `${col('mimeType')} LIKE ${p(`${family}/%`)}`).join(' OR ')})`);
  if (f.sticky != null) and.push(site.stickyPosts.length ? `${col('id')} ${f.sticky ? '' : 'NOT '}IN (${list(site.stickyPosts)})` : f.sticky ? '1 = 0' : '1 = 1');
  const has = (ids: number[]) => `EXISTS (SELECT 1 FROM "TermRelationship" t WHERE t."contentId" = c."id" AND t."termId" IN (${list(ids)}))`;
  const tax = f.tax.map((t) => (t.mode === 'none' ? `NOT ${has(t.ids)}` : t.mode === 'all' ? `(${t.ids.map((id) => has([id])).join(' AND ')})` : has(t.ids)));
  if (tax.length) and.push(`(${tax.join(f.taxRelation === 'OR' ? ' OR ' : ' AND ')})`);
}

/**
 * PostgreSQL's plan for a page newest (or oldest) first. With a LIMIT its planner walks the date
 * index testing each row's vector unless its statistics say the word is rare; they are estimates
 * (a prefix's words, a word new since the last ANALYZE), while the total here is exact (cached), so
 * the walk's rows are too: (skip + take) × scope ÷ total. True when reading the matches through
 * the GIN index costs less (measured at 10,000 posts, a word in 3% of them: a walk of 290 rows
 * 0.6 ms, its 339 matches read and sorted 0.5 ms; before the stored vector, when each walked row
 * cost three to_tsvector calls, the walk took 30 ms).
 */
export function pgDrives(total: number, scope: number, skip: number, take: number): boolean {
  if (total <= 0) return true;
  return ((skip + take) * scope / total) * listPlans.pgWalkRowCost > total + listPlans.pgDriveBase;
}

/** Whether the walk plan can serve the order: newest (or oldest) first by date, one status, no sticky posts first. */
function walkable(o: SearchListOrder, f: Pick<SearchListFilter, 'statuses'>, site: SiteSettings): boolean {
  return o.orderby === 'date' && f.statuses.length === 1 && !(o.ignoreSticky === false && site.stickyPosts.length);
}

const expansions = versionCache<string | null>();

/**
 * The walk plan's full-text query: each phrase's last word, a prefix, replaced by the indexed
 * words it stands for (FTS5 reads every posting of a prefix query at each call, a word query
 * seeks to the row). Null when a prefix stands for more than `maxExpansion` words, or holds
 * other characters than ASCII letters and digits (the index folds diacritics; a range of its
 * vocabulary could not be computed here). Cached per database version.
 */
function exactWords(ctx: Context, include: string[][], exclude: string[][], scope: string): Promise<string | null> {
  const key = JSON.stringify([include, exclude, scope]);
  return expansions(ctx.db, key, async () => {
    const phrases = [...include, ...exclude];
    if (phrases.some((w) => w.some((x) => !/^[a-z0-9]+$/.test(x)))) return null;
    const last = [...new Set(phrases.map((w) => w[w.length - 1]))];
    const upper = (s: string) => s.slice(0, -1) + String.fromCharCode(s.charCodeAt(s.length - 1) + 1);
    const rows = await query<{ prefix: string; term: string }>(
      ctx,
      last.map(() => `SELECT * FROM (SELECT ? AS prefix, term FROM content_fts_vocab WHERE term >= ? AND term < ? LIMIT ${listPlans.maxExpansion + 1})`).join(' UNION ALL '),
      last.flatMap((w) => [w, w, upper(w)]),
    );
    const words = new Map<string, string[]>(last.map((w) => [w, []]));
    for (const r of rows) words.get(r.prefix)!.push(r.term);
    // No word for a prefix: the drive plan finds nothing (or excludes nothing) at once.
    if ([...words.values()].some((t) => !t.length || t.length > listPlans.maxExpansion)) return null;
    const phrase = (w: string[]) => {
      const found = words.get(w[w.length - 1])!;
      const head = w.slice(0, -1).join(' ');
      return `(${found.map((t) => `"${head ? `${head} ` : ''}${t}"`).join(' OR ')})`;
    };
    let match = `${scope} : (${include.map(phrase).join(' AND ')})`;
    if (exclude.length) match += ` NOT ${scope} : (${exclude.map(phrase).join(' OR ')})`;
    return match;
  });
}

