// Business rules for posts (and, through `type`, the other content kinds later): reading rules,
// list filters, and transactional writes. REST and GraphQL both come through here.
import { afterWrite } from './write-hooks.js';
import { recordContentEvent } from './events.js';
import { renderedColumns, storedRender } from './stored-render.js';
import type { Content, Prisma as PrismaNS } from '../generated/sqlite/client.js';
import type { Context } from '../context.js';
import type { Db, Tx } from '../db/client.js';
import { cachedCount, columnOrder, compareKeys, sortByPosition, type Direction, type SortedList } from '../db/list.js';
import { CONTENT_COLUMN_NAMES, contentRow, type ReadOptions } from '../db/content-read.js';
import { binder, placeholder, txStatements, type TxStatements } from '../db/sql.js';
import { addToTermCounts, recountTermsLast } from './term-counts.js';
import type { SiteSettings } from '../site/options.js';
import { setOption } from '../site/options.js';
import { restError, authStatus, invalidParam } from '../errors.js';
import { contentTypeOf, taxonomyKeys } from '../resources/content-types.js';
import { storedMetaValue } from './fields.js';
import { storedInputs } from '../resources/content.js';
import { canDeleteContent, canEditContent, canReadContent, type ContentAccessRow } from '../auth/content-permissions.js';
import { localToUtc, parseRestDate, utcToLocal } from './dates.js';
import { sanitizeTitle, uniqueSlug } from './slug.js';
import { exactMatches, SEARCH_COLUMNS, type SearchColumn } from './search.js';
import { searchPage, type SearchListFilter } from './search-list.js';
import { filterPostHtml, filterTitleHtml } from './kses.js';
import { MISSING_PARENT } from '../media/metadata.js';
import { trashPostComments, untrashPostComments } from '../comments/post-status.js';

type Where = PrismaNS.ContentWhereInput;

/** Statuses `any` stands for: every status that is not excluded from search (trash, auto-draft). */
const ANY_STATUSES = ['publish', 'future', 'draft', 'pending', 'private', 'inherit', 'request-pending', 'request-confirmed', 'request-failed', 'request-completed'];

// ---------------------------------------------------------------- reading

export interface TaxonomyFilter { terms?: number[] | null; slugs?: string[] | null; operator?: string | null; includeChildren?: boolean | null }

export interface ListFilter {
  search?: string | null;
  searchColumns?: string[] | null;
  searchSemantics?: string | null;
  after?: string | null;
  before?: string | null;
  modifiedAfter?: string | null;
  modifiedBefore?: string | null;
  author?: number[] | null;
  authorExclude?: number[] | null;
  include?: number[] | null;
  exclude?: number[] | null;
  slug?: string[] | null;
  status?: string[] | null;
  taxRelation?: string | null;
  categories?: TaxonomyFilter | null;
  categoriesExclude?: TaxonomyFilter | null;
  tags?: TaxonomyFilter | null;
  tagsExclude?: TaxonomyFilter | null;
  sticky?: boolean | null;
  format?: string[] | null;
  parent?: number[] | null;
  parentExclude?: number[] | null;
  menuOrder?: number | null;
  /** Attachments: exact MIME types, and MIME families (image, video, audio, application, text). */
  mimeType?: string[] | null;
  mediaType?: string[] | null;
}

export interface ListPaging {
  page: number;
  perPage: number;
  offset?: number | null;
  order: 'asc' | 'desc';
  orderby: string;
  ignoreSticky?: boolean;
}

/** Visibility of non-public statuses, as the posts controller's sanitize_post_statuses. */
export function checkStatusFilter(ctx: Context, type: string, statuses: string[], defaultStatus: string): void {
  const caps = contentTypeOf(type).caps;
  for (const status of statuses) {
    if (status === defaultStatus) continue;
    if (ctx.can(caps.edit_posts) || (status === 'private' && ctx.can(caps.read_private_posts))) continue;
    invalidParam('status', 'rest_forbidden_status', 'Status is forbidden.', { status: authStatus(!!ctx.viewer) });
  }
}

function boundDate(site: SiteSettings, value: string, param: string): Date {
  const parsed = parseRestDate(value);
  if (!parsed || parsed.impossible) invalidParam(param, 'rest_invalid_date', 'Invalid date.');
  const { y, m, d, H, M, S } = parsed.fields;
  const naive = new Date(Date.UTC(y, m - 1, d, H, M, S));
  // Bounds compare against the site-local column; a given offset is converted to site time first.
  return parsed.offsetMinutes === null ? naive : utcToLocal(site, new Date(naive.getTime() - parsed.offsetMinutes * 60_000));
}

/** Category ids with all their descendants (include_children). */
async function withDescendants(ctx: Context, taxonomy: string, ids: number[]): Promise<number[]> {
  const all = await ctx.prisma.term.findMany({ where: { taxonomy }, select: { id: true, parentId: true } });
  const result = new Set(ids);
  for (let grew = true; grew; ) {
    grew = false;
    for (const t of all) if (!result.has(t.id) && result.has(t.parentId)) { result.add(t.id); grew = true; }
  }
  return [...result];
}

/** The taxonomy filters as term-id sets: any of them, all of them, or none of them. */
async function taxonomySpecs(ctx: Context, type: string, f: ListFilter): Promise<{ ids: number[]; mode: 'any' | 'all' | 'none' }[]> {
  const out: { ids: number[]; mode: 'any' | 'all' | 'none' }[] = [];
  // Each taxonomy of the type filters by its REST base (categories, tags, event_category …) and its `_exclude`.
  const byKey = f as Record<string, TaxonomyFilter | null | undefined>;
  const specs: [string, TaxonomyFilter | null | undefined, boolean][] = taxonomyKeys(contentTypeOf(type)).flatMap(({ ref, key }) =>
    [[ref.taxonomy, byKey[key], false], [ref.taxonomy, byKey[`${key}Exclude`], true]] as [string, TaxonomyFilter | null | undefined, boolean][]);
  for (const [taxonomy, spec, exclude] of specs) {
    if (!spec?.terms?.length && !spec?.slugs?.length) continue;
    const terms = [...(spec.terms ?? []), ...(spec.slugs?.length ? await termIdsBySlug(ctx, taxonomy, spec.slugs) : [])];
    const ids = spec.includeChildren ? await withDescendants(ctx, taxonomy, terms) : terms;
    out.push(exclude ? { ids, mode: 'none' } : spec.operator === 'AND' ? { ids: terms, mode: 'all' } : { ids, mode: 'any' });
  }
  return out;
}

/**
 * The ids of a taxonomy's terms by slug (GraphQL's `slugs`, beside the ids REST takes); a slug that
 * names no term stands for an id no term has, so "all of these" matches nothing and "any" skips it.
 */
async function termIdsBySlug(ctx: Context, taxonomy: string, slugs: string[]): Promise<number[]> {
  const found = await ctx.prisma.term.findMany({ where: { taxonomy, slug: { in: slugs } }, select: { id: true, slug: true } });
  return slugs.map((slug) => found.find((t) => t.slug === slug)?.id ?? -1);
}

function taxonomyWhere(spec: { ids: number[]; mode: 'any' | 'all' | 'none' }): Where {
  if (spec.mode === 'none') return { NOT: { terms: { some: { termId: { in: spec.ids } } } } };
  if (spec.mode === 'all') return { AND: spec.ids.map((id) => ({ terms: { some: { termId: id } } })) };
  return { terms: { some: { termId: { in: spec.ids } } } };
}

export interface ListQuery {
  where: Where;
  /** Relevance scores when a full-text search ran. */
  scores: Map<number, number> | null;
  /**
   * Set when the search matched more items than fit in one `IN (…)` list: `where` then holds
   * the other filters only, and the page is cut from the matches in memory (same query count).
   */
  matchesInMemory: boolean;
  /** A full-text search: the page and total come from one SQL statement each. */
  search?: SearchListFilter;
}

function typeFromWhere(where: Where): string {
  return ((where.AND as Where[])[0] as { type: string }).type;
}

/** Most ids a query may carry as bind values (SQLite's classic limit is 999). */
export const MAX_BOUND_IDS = 900;

export async function listWhere(ctx: Context, site: SiteSettings, type: string, f: ListFilter): Promise<ListQuery> {
  const and: Where[] = [{ type }];
  const byDefault = [contentTypeOf(type).defaultStatus];
  const statuses = f.status?.length ? f.status : byDefault;
  and.push({ status: statuses.includes('any') ? { in: ANY_STATUSES } : { in: statuses } });
  if (f.include?.length) and.push({ id: { in: f.include } });
  if (f.exclude?.length) and.push({ id: { notIn: f.exclude } });
  if (f.author?.length) and.push({ authorId: { in: f.author } });
  if (f.authorExclude?.length) and.push({ authorId: { notIn: f.authorExclude } });
  if (f.slug?.length) and.push({ slug: { in: f.slug } });
  if (f.after) and.push({ date: { gt: boundDate(site, f.after, 'after') } });
  if (f.before) and.push({ date: { lt: boundDate(site, f.before, 'before') } });
  if (f.modifiedAfter) and.push({ modified: { gt: boundDate(site, f.modifiedAfter, 'modifiedAfter') } });
  if (f.modifiedBefore) and.push({ modified: { lt: boundDate(site, f.modifiedBefore, 'modifiedBefore') } });
  // An attachment's parent with nothing behind it is kept in its meta, its column then empty
  // (MISSING_PARENT): WordPress matches it as any other parent id, and not as unattached.
  const keptParent = (ids: number[]): Where => ({ meta: { some: { key: MISSING_PARENT, value: { in: ids.map(String) } } } });
  const unattached: Where = type === 'attachment' ? { parentId: null, meta: { none: { key: MISSING_PARENT } } } : { parentId: null };
  if (f.parent?.length) {
    const ids = f.parent.filter((p) => p > 0);
    and.push({ OR: [
      { parentId: { in: ids } },
      ...(type === 'attachment' && ids.length ? [{ parentId: null, ...keptParent(ids) }] : []),
      ...(f.parent.includes(0) ? [unattached] : []),
    ] });
  }
  if (f.parentExclude?.length) {
    // NOT IN alone would drop top-level items (NULL parent) too: SQL's three-valued logic. An
    // empty NOT IN is no condition at all (NULL included), so excluding 0 alone asks for a parent.
    const ids = f.parentExclude.filter((p) => p > 0);
    const otherParent: Where = { parentId: ids.length ? { notIn: ids } : { not: null } };
    const keptNotExcluded: Where = { parentId: null, meta: { some: { key: MISSING_PARENT, value: { notIn: ids.map(String) } } } };
    if (type !== 'attachment') and.push(f.parentExclude.includes(0) ? otherParent : { OR: [{ parentId: null }, otherParent] });
    else if (f.parentExclude.includes(0)) and.push({ OR: [otherParent, keptNotExcluded] });
    else and.push({ OR: [unattached, keptNotExcluded, otherParent] });
  }
  if (f.menuOrder != null) and.push({ menuOrder: f.menuOrder });
  if (f.format?.length) and.push({ format: { in: f.format } });
  if (f.mimeType?.length) and.push({ mimeType: { in: f.mimeType } });
  if (f.mediaType?.length) and.push({ OR: f.mediaType.map((family) => ({ mimeType: { startsWith: `${family}/` } })) });
  if (f.sticky != null) {
    const sticky = site.stickyPosts;
    and.push(f.sticky ? { id: { in: sticky } } : { id: { notIn: sticky } });
  }
  const taxSpecs = await taxonomySpecs(ctx, type, f);
  const tax = taxSpecs.map(taxonomyWhere);
  if (tax.length) and.push(f.taxRelation === 'OR' ? { OR: tax } : { AND: tax });
  let scores: Map<number, number> | null = null;
  if (f.search && f.searchSemantics !== 'exact') {
    // Full-text lists run as one SQL statement (src/content/search-list.ts).
    const bound = (v: string | null | undefined, param: string) => (v ? boundDate(site, v, param) : undefined);
    const statuses = f.status?.length ? (f.status.includes('any') ? ANY_STATUSES : f.status) : byDefault;
    return {
      where: { AND: and }, scores: null, matchesInMemory: false,
      search: {
        search: f.search, searchColumns: f.searchColumns, statuses,
        after: bound(f.after, 'after'), before: bound(f.before, 'before'), modifiedAfter: bound(f.modifiedAfter, 'modifiedAfter'), modifiedBefore: bound(f.modifiedBefore, 'modifiedBefore'),
        author: f.author, authorExclude: f.authorExclude, include: f.include, exclude: f.exclude, slug: f.slug,
        format: f.format, sticky: f.sticky, parent: f.parent, parentExclude: f.parentExclude, menuOrder: f.menuOrder,
        mimeType: f.mimeType, mediaType: f.mediaType,
        tax: taxSpecs, taxRelation: f.taxRelation,
      },
    };
  }
  if (f.search) {
    // Only search_semantics=exact is left here: whole-field equality, usually a handful of ids.
    const columns = (f.searchColumns?.length ? f.searchColumns.map((c) => SEARCH_COLUMNS[c]).filter(Boolean) : ['title', 'excerpt', 'content']) as SearchColumn[];
    scores = await exactMatches(ctx, type, f.search, columns);
    if (scores.size <= MAX_BOUND_IDS) and.push({ id: { in: [...scores.keys()] } });
  }
  return { where: { AND: and }, scores, matchesInMemory: !!scores && scores.size > MAX_BOUND_IDS };
}

/** Order columns of content lists, by orderby value. */
const ORDER_COLUMNS = {
  date: 'date', id: 'id', modified: 'modified', title: 'title', slug: 'slug', author: 'authorId', parent: 'parentId', menu_order: 'menuOrder',
} as const;

export function listOrder(paging: ListPaging): PrismaNS.ContentOrderByWithRelationInput[] {
  const dir = paging.order;
  // No parent is 0 in WordPress: first going up, last going down.
  if (paging.orderby === 'parent') return [{ parentId: { sort: dir, nulls: dir === 'asc' ? 'first' : 'last' } }, { id: dir }];
  return columnOrder<string>(ORDER_COLUMNS, paging.orderby, dir, 'date');
}

/**
 * The ids of one page when the order is not a column: the include/slug list order, relevance,
 * or sticky posts first. Reads ids only; the page's records are fetched afterwards by id.
 */
export async function orderedPageIds(ctx: Context, site: SiteSettings, q: ListQuery, paging: ListPaging, filter: ListFilter, skip: number): Promise<{ ids: number[]; total?: number } | null> {
  const dir = paging.order === 'asc' ? 1 : -1;
  const slice = (ids: number[]) => ({ ids: ids.slice(skip, skip + paging.perPage) });
  // The scope of a search's plan choice: the list without the full-text match (its own total, cached).
  if (q.search) return searchPage(ctx, site, typeFromWhere(q.where), q.search, { orderby: paging.orderby, order: paging.order, ignoreSticky: paging.ignoreSticky, include: filter.include, slug: filter.slug }, skip, paging.perPage, { scope: () => countContent(ctx, withoutExclude(q.where)) });
  if (q.matchesInMemory) return pageOfMatches(ctx, site, q, paging, filter, skip);
  const sorted = await sortedInMemory(ctx, q, paging, filter);
  if (sorted) return slice(sorted.rows.map((r) => r.id));
  if (paging.orderby === 'relevance' && q.scores) {
    const rows = await ctx.prisma.content.findMany({ where: q.where, select: { id: true } });
    return slice(rows.map((r) => r.id).sort((a, b) => dir * (q.scores!.get(a)! - q.scores!.get(b)!) || dir * (a - b)));
  }
  if (paging.ignoreSticky === false && site.stickyPosts.length) {
    // Sticky posts among the matches come first, then the rest, each in the requested order.
    const order = listOrder(paging);
    const sticky = await ctx.prisma.content.findMany({ where: { AND: [q.where, { id: { in: site.stickyPosts } }] }, orderBy: order, select: { id: true } });
    const head = sticky.slice(skip, skip + paging.perPage).map((r) => r.id);
    const want = paging.perPage - head.length;
    if (want <= 0) return { ids: head };
    const rest = await ctx.prisma.content.findMany({
      where: { AND: [q.where, { id: { notIn: site.stickyPosts } }] }, orderBy: order, select: { id: true },
      skip: Math.max(0, skip - sticky.length), take: want,
    });
    return { ids: [...head, ...rest.map((r) => r.id)] };
  }
  return null;
}

/**
 * Whether a list is ordered by `sortedInMemory`: an include or slug list's order, or titles. A
 * full-text search orders its own matches, whatever the order (searchPage, pageOfMatches).
 */
export function ordersInMemory(q: ListQuery, paging: ListPaging, filter: ListFilter): boolean {
  if (q.search || q.matchesInMemory) return false;
  return (paging.orderby === 'include' && !!filter.include?.length) || (paging.orderby === 'include_slugs' && !!filter.slug?.length) || paging.orderby === 'title';
}

/**
 * Every match of a list whose order is not a column's, in that order, with its sort key (the id
 * last): the include or slug list's order, or titles without regard to case. Null for the other
 * orders. Reads ids and the sort column only.
 */
export async function sortedInMemory(ctx: Context, q: ListQuery, paging: ListPaging, filter: ListFilter): Promise<SortedList | null> {
  if (!ordersInMemory(q, paging, filter)) return null;
  if (paging.orderby === 'include') {
    const rows = await ctx.prisma.content.findMany({ where: q.where, select: { id: true } });
    const position = new Map(filter.include!.map((id, i) => [id, i]));
    return sortByPosition(rows, (r) => position.get(r.id));
  }
  if (paging.orderby === 'include_slugs') {
    const rows = await ctx.prisma.content.findMany({ where: q.where, select: { id: true, slug: true } });
    const position = new Map(filter.slug!.map((s, i) => [s, i]));
    return sortByPosition(rows, (r) => position.get(r.slug));
  }
  // MySQL's usual collations order titles without regard to case; neither SQLite nor every
  // PostgreSQL collation does, so the matches are ordered here (ids and titles only).
  const rows = await ctx.prisma.content.findMany({ where: q.where, select: { id: true, title: true } });
  const dirs: Direction[] = [paging.order, paging.order];
  return { rows: rows.map((r) => ({ id: r.id, key: [r.title.toLowerCase(), r.id] })).sort((a, b) => compareKeys(dirs, a.key, b.key)), dirs };
}

/**
 * A page of a large full-text match set: the rows passing the other filters are read (id and
 * sort keys only), intersected with the matches, ordered and cut here; the total is the size of
 * the intersection.
 */
async function pageOfMatches(ctx: Context, site: SiteSettings, q: ListQuery, paging: ListPaging, filter: ListFilter, skip: number): Promise<{ ids: number[]; total: number }> {
  // Only the sort column is read with the ids: on 10k rows every extra column costs.
  const column = paging.orderby === 'include_slugs' ? 'slug' : paging.orderby === 'id' || paging.orderby === 'relevance' || paging.orderby === 'include' ? null : ORDER_COLUMNS[paging.orderby as 'date'] ?? 'date';
  type Row = { id: number; date: Date; modified: Date; title: string; slug: string; authorId: number; parentId: number | null; menuOrder: number };
  const rows = ((await ctx.prisma.content.findMany({ where: q.where, select: { id: true, ...(column ? { [column]: true } : {}) } })) as unknown as Row[])
    .filter((r) => q.scores!.has(r.id));
  const dir = paging.order === 'asc' ? 1 : -1;
  const includeAt = new Map((filter.include ?? []).map((id, i) => [id, i]));
  const slugAt = new Map((filter.slug ?? []).map((s, i) => [s, i]));
  const key: Record<string, (r: (typeof rows)[number]) => number | string> = {
    date: (r) => r.date.getTime(), modified: (r) => r.modified.getTime(), id: (r) => r.id, title: (r) => r.title.toLowerCase(),
    slug: (r) => r.slug, author: (r) => r.authorId, parent: (r) => r.parentId ?? 0, menu_order: (r) => r.menuOrder,
    relevance: (r) => q.scores!.get(r.id)!, include: (r) => includeAt.get(r.id) ?? 0, include_slugs: (r) => slugAt.get(r.slug) ?? 0,
  };
  const k = key[paging.orderby] ?? key.date;
  const listDir = paging.orderby === 'include' || paging.orderby === 'include_slugs' ? 1 : dir;
  rows.sort((a, b) => {
    const x = k(a), y = k(b);
    return (x < y ? -listDir : x > y ? listDir : 0) || dir * (a.id - b.id);
  });
  if (paging.ignoreSticky === false && site.stickyPosts.length) {
    const sticky = new Set(site.stickyPosts);
    rows.sort((a, b) => Number(sticky.has(b.id)) - Number(sticky.has(a.id)));
  }
  return { ids: rows.slice(skip, skip + paging.perPage).map((r) => r.id), total: rows.length };
}

/** A list's filter without its `exclude` ids: a total shared by every exclude list. */
function withoutExclude(where: Where): Where {
  const clauses = (where.AND ?? []) as Where[];
  return { AND: clauses.filter((c) => !(Object.keys(c).length === 1 && (c.id as { notIn?: number[] } | undefined)?.notIn)) };
}

/**
 * X-WP-Total for a filter, cached (in flight too) until the next write anywhere. An `exclude`
 * list is counted as (total without it) − (excluded ids that match): the first part is shared
 * by every exclude list and cached, the second is a primary-key lookup.
 */
export function countContent(ctx: Context, where: Where): Promise<number> {
  const clauses = (where.AND ?? []) as Where[];
  const excludeAt = clauses.findIndex((c) => Object.keys(c).length === 1 && (c.id as { notIn?: number[] } | undefined)?.notIn);
  if (excludeAt >= 0) {
    const ids = (clauses[excludeAt].id as { notIn: number[] }).notIn;
    const base = { AND: clauses.filter((_, i) => i !== excludeAt) };
    return Promise.all([cachedCount(ctx, 'content', base), cachedCount(ctx, 'content', { AND: [...base.AND, { id: { in: ids } }] })]).then(([all, gone]) => all - gone);
  }
  return cachedCount(ctx, 'content', where);
}

export async function readableRows<T extends { id: number; type: string; status: string; authorId: number; parentId: number | null }>(ctx: Context, rows: T[]): Promise<T[]> {
  const hidden = await hiddenByParent(ctx, rows);
  return rows.filter((row) => !hidden.has(row.id) && canReadContent(ctx, row));
}

/**
 * Attachments in `inherit` status are as readable as the item they are attached to (WordPress's
 * check_read_permission): the ids of those whose parent the caller may not read, in one query.
 */
async function hiddenByParent(ctx: Context, rows: { id: number; type: string; status: string; parentId: number | null }[]): Promise<Set<number>> {
  const attached = rows.filter((r) => r.type === 'attachment' && r.status === 'inherit' && r.parentId);
  if (!attached.length) return new Set();
  const parents = await ctx.prisma.content.findMany({ where: { id: { in: attached.map((r) => r.parentId!) } }, select: { id: true, type: true, status: true, authorId: true } });
  const readable = new Set(parents.filter((p) => canReadContent(ctx, p)).map((p) => p.id));
  return new Set(attached.filter((r) => !readable.has(r.parentId!)).map((r) => r.id));
}

/**
 * Loads one item for a route of `type`: 404 when missing or of another type. `include` (a Prisma
 * include, e.g. a GraphQL selection's relations) is read along, so a caller that answers with the
 * row needs no second read; `options` too (ANSWER_ROWS: its revision groups, for `_links`).
 */
export async function findContent(ctx: Context, type: string, id: number, include?: object, options?: ReadOptions) {
  const row = id > 0 ? await contentRow<Content>(ctx, { where: { id }, ...(include ? { include } : {}) }, options) : null;
  if (!row || row.type !== type) throw restError('rest_post_invalid_id', 'Invalid post ID.', 404);
  return row;
}

/**
 * The single-item read checks of the posts controller, in its order: existence, password, read
 * right. `include`: relations to read with the row (see findContent).
 */
export async function checkReadItem(ctx: Context, type: string, id: number, password?: string | null, include?: object, options?: ReadOptions) {
  const row = await findContent(ctx, type, id, include, options);
  if (password) {
    if (row.password !== password) throw restError('rest_post_incorrect_password', 'Incorrect post password.', 403);
    ctx.offeredPasswords.set(row.id, password);
  }
  if (!canReadContent(ctx, row) || (await hiddenByParent(ctx, [row])).size) throw restError('rest_forbidden', 'Sorry, you are not allowed to do that.', authStatus(!!ctx.viewer));
  return row;
}

// ---------------------------------------------------------------- writing

export interface ContentInput {
  date?: string | null;
  dateGmt?: string | null;
  slug?: string | null;
  status?: string | null;
  password?: string | null;
  title?: string | null;
  content?: string | null;
  excerpt?: string | null;
  author?: number | null;
  featuredMedia?: number | null;
  commentStatus?: string | null;
  pingStatus?: string | null;
  format?: string | null;
  /** Footnotes, and the custom fields the site's model registers on the type. */
  meta?: ({ footnotes?: string | null } & Record<string, unknown>) | null;
  sticky?: boolean | null;
  template?: string | null;
  categories?: number[] | null;
  tags?: number[] | null;
  parent?: number | null;
  menuOrder?: number | null;
  /** Attachments: the item it is attached to (0: none). */
  post?: number | null;
}

interface ResolvedDates { date: Date; dateGmt: Date; floating: boolean }

/** Turns `date`/`date_gmt` input into the two stored forms; `date` wins, `null` means floating. */
function resolveDates(site: SiteSettings, input: ContentInput): ResolvedDates | null | undefined {
  const given = input.date !== undefined ? { value: input.date, gmt: false, param: 'date' } : input.dateGmt !== undefined ? { value: input.dateGmt, gmt: true, param: 'dateGmt' } : null;
  if (!given) return undefined;
  if (given.value === null) return null;
  const parsed = parseRestDate(given.value);
  if (!parsed) invalidParam(given.param, 'rest_invalid_date', 'Invalid date.');
  if (parsed.impossible) throw restError('invalid_date', 'Invalid date.', 400);
  const { y, m, d, H, M, S } = parsed.fields;
  const naive = new Date(Date.UTC(y, m - 1, d, H, M, S));
  if (given.gmt || parsed.offsetMinutes !== null) {
    const utc = new Date(naive.getTime() - (parsed.offsetMinutes ?? 0) * 60_000);
    return { date: utcToLocal(site, utc), dateGmt: utc, floating: false };
  }
  return { date: naive, dateGmt: localToUtc(site, naive), floating: false };
}

export function nowDates(site: SiteSettings): { local: Date; gmt: Date } {
  const gmt = new Date(Math.floor(Date.now() / 1000) * 1000);
  return { local: utcToLocal(site, gmt), gmt };
}

const FLOATING_STATUSES = new Set(['draft', 'pending', 'auto-draft']);

async function checkTerms(tx: Tx, taxonomy: string, ids: number[], param: string): Promise<void> {
  if (!ids.length) return;
  const found = await tx.term.findMany({ where: { id: { in: ids }, taxonomy }, select: { id: true } });
  const known = new Set(found.map((t) => t.id));
  const unknown = ids.filter((id) => !known.has(id));
  if (unknown.length) invalidParam(param, 'rest_term_invalid', `Invalid term ID ${unknown[0]} for ${param}.`);
}

/**
 * Replaces an item's terms of one taxonomy (`fresh`: a new item, which has none yet); returns the
 * ids set. The rows go in with one hand-written INSERT: Prisma's createMany costs about five
 * times a single create in client time on every call (measured 1.4 ms against 0.14 ms for this
 * statement), and it runs inside the write transaction, where time holds the write lock.
 */
async function setTerms(tx: Tx, sql: TxStatements, pg: boolean, contentId: number, taxonomy: string, ids: number[], fresh = false): Promise<number[]> {
  if (!fresh) await tx.termRelationship.deleteMany({ where: { contentId, taxonomy } });
  const unique = [...new Set(ids)];
  if (unique.length) {
    const params: unknown[] = [];
    const p = binder(pg, params);
    const rows = unique.map((termId, i) => `(${p(contentId)}, ${p(termId)}, ${p(taxonomy)}, ${p(i)})`).join(', ');
    await sql.execute(`INSERT INTO "TermRelationship" ("contentId", "termId", "taxonomy", "termOrder") VALUES ${rows}`, ...params);
  }
  return unique;
}

/**
 * The write transaction's own statements are hand-written SQL where they run on every create:
 * a Prisma model query costs about 0.4 ms of client CPU against 0.06 ms for the same statement
 * sent raw (measured on SQLite), and inside the transaction that time holds the write lock.
 * Values bind as Prisma binds them (the adapters turn Dates and booleans into the same stored
 * forms), so the rows are the ones a model query would write.
 */
async function insertContent(tx: Tx, sql: TxStatements, pg: boolean, row: Record<string, unknown>, guid: (id: number) => string, guidPrefix: string): Promise<number> {
  const columns = Object.keys(row);
  if (pg && sql.announces) {
    // PostgreSQL: the id is drawn first (a CTE with nextval runs once), so the guid that holds it
    // is written by the same statement: one round trip fewer while the transaction is open.
    const n = columns.length;
    const rows = await sql.query<{ id: number | bigint }>(
      `WITH n AS (SELECT nextval(pg_get_serial_sequence('"Content"', 'id')) AS id) INSERT INTO "Content" ("id", ${columns.map((c) => `"${c}"`).join(', ')}, "guid") `
      + `VALUES ((SELECT id FROM n), ${columns.map((_, i) => `$${i + 1}`).join(', ')}, $${n + 1}::text || (SELECT id FROM n)::text) RETURNING "id"`,
      ...columns.map((c) => row[c]), guidPrefix,
    );
    return Number(rows[0].id);
  }
  // SQLite: the transaction's first write goes through Prisma, which announces it at commit.
  const inserted = await tx.$queryRawUnsafe<{ id: number | bigint }[]>(
    `INSERT INTO "Content" (${columns.map((c) => `"${c}"`).join(', ')}) VALUES (${columns.map((_, i) => placeholder(pg, i)).join(', ')}) RETURNING "id"`,
    ...columns.map((c) => row[c]),
  );
  const id = Number(inserted[0].id);
  // The guid holds the id, so it is set by a second statement (after the INSERT).
  await sql.execute(`UPDATE "Content" SET "guid" = ${placeholder(pg, 0)} WHERE "id" = ${placeholder(pg, 1)}`, guid(id), id);
  return id;
}

/**
 * Whether a slug is taken in its scope (a type's items other than revisions and autosaves for
 * `global`, a type, or a type under one parent), by another item than `except`.
 */
function slugTaken(statements: TxStatements, pg: boolean, scope: { global: true } | { type: string; parentId?: number | null }, except?: number): (slug: string) => Promise<boolean> {
  const where: string[] = [];
  const fixed: unknown[] = [];
  const p = binder(pg, fixed);
  if ('global' in scope) where.push(`"type" NOT IN ('revision', 'autosave')`);
  else {
    where.push(`"type" = ${p(scope.type)}`);
    if (scope.parentId === null) where.push('"parentId" IS NULL');
    else if (scope.parentId !== undefined) where.push(`"parentId" = ${p(scope.parentId)}`);
  }
  if (except !== undefined) where.push(`"id" <> ${p(except)}`);
  // The slug is bound per call, after the fixed values.
  where.push(`"slug" = ${placeholder(pg, fixed.length)}`);
  const sql = `SELECT 1 AS "one" FROM "Content" WHERE ${where.join(' AND ')} LIMIT 1`;
  return async (slug) => (await statements.query<unknown>(sql, ...fixed, slug)).length > 0;
}

/**
 * The write checks of the posts controller before anything is stored, in its order: the right to
 * create or edit, to give the item another author, to make it sticky, to publish. Autosaves run
 * them too (WordPress checks an autosave as an update of its parent).
 */
export function checkWriteRights(ctx: Context, type: string, existing: ContentAccessRow | null, input: ContentInput): void {
  const viewer = ctx.viewer;
  const loggedIn = !!viewer;
  const { caps, supports } = contentTypeOf(type);
  if (!existing) {
    if (!viewer || !ctx.can(contentTypeOf(type).createCap ?? caps.edit_posts)) throw restError('rest_cannot_create', 'Sorry, you are not allowed to create posts as this user.', authStatus(loggedIn));
  } else if (!canEditContent(ctx, existing)) {
    throw restError('rest_cannot_edit', 'Sorry, you are not allowed to edit this post.', authStatus(loggedIn));
  }
  if (input.author != null && input.author !== viewer!.id && input.author !== existing?.authorId && !ctx.can(caps.edit_others_posts)) {
    throw restError('rest_cannot_edit_others', existing ? 'Sorry, you are not allowed to update posts as this user.' : 'Sorry, you are not allowed to create posts as this user.', authStatus(loggedIn));
  }
  if (supports.sticky && input.sticky && !ctx.can(caps.edit_others_posts) && !ctx.can(caps.publish_posts)) {
    throw restError('rest_cannot_assign_sticky', 'Sorry, you are not allowed to make posts sticky.', authStatus(loggedIn));
  }
  if (input.status && input.status !== existing?.status && ['publish', 'future', 'private'].includes(input.status) && !ctx.can(caps.publish_posts)) {
    throw restError('rest_cannot_publish', 'Sorry, you are not allowed to publish posts in this post type.', authStatus(loggedIn));
  }
}

/** Title, content and excerpt as stored: given ones filtered unless the caller has unfiltered_html, others kept. */
export function writtenText(ctx: Context, input: ContentInput, existing: { title: string; content: string; excerpt: string } | null): { title: string; content: string; excerpt: string } {
  const filtered = !ctx.can('unfiltered_html');
  return {
    title: input.title != null ? (filtered ? filterTitleHtml(input.title) : input.title) : existing?.title ?? '',
    content: input.content != null ? (filtered ? filterPostHtml(input.content) : input.content) : existing?.content ?? '',
    excerpt: input.excerpt != null ? (filtered ? filterPostHtml(input.excerpt) : input.excerpt) : existing?.excerpt ?? '',
  };
}

export interface SaveOptions {
  /** Store a revision when the text changed (updates); an author's autosave of their draft stores none. */
  revision?: boolean;
  /** What a type stores beside the common columns (an attachment's file and metadata), in the same transaction. */
  within?: (tx: Tx, id: number) => Promise<void>;
  /**
   * Filled on a create with the row as written (every column, as a read would return it) and the
   * relations a create sets, so the answer can be built without reading them back. Left empty
   * when that row might differ from what the database returns (see `writtenRow`).
   */
  written?: { row?: WrittenContent };
}

/** A created item as the database holds it right after its transaction: its columns, footnotes and terms. */
export interface WrittenContent {
  columns: Record<string, unknown> & { id: number };
  footnotes: string;
  /** Term links in the order a read by termOrder returns them. */
  terms: { termId: number; taxonomy: string }[];
  /** The slugs of those terms, read in the transaction. */
  termSlugs: { id: number; slug: string }[];
}

const META_QUERY = JSON.stringify({ where: { key: 'footnotes' }, select: { key: true, value: true } });
const TERMS_QUERY = JSON.stringify({ orderBy: { termOrder: 'asc' }, select: { termId: true, taxonomy: true } });

/**
 * What `findUnique({ ...query, where: { id } })` would return for a just-created item, made from
 * what was written; null for a query asking anything else than the columns, the footnotes and
 * the term links (the answer is then read back).
 */
export function createdAsRead(query: { include?: Record<string, unknown>; [key: string]: unknown }, w: WrittenContent): Record<string, unknown> | null {
  for (const key of Object.keys(query)) if (key !== 'include') return null;
  const row: Record<string, unknown> = { ...w.columns };
  for (const [relation, q] of Object.entries(query.include ?? {})) {
    const text = JSON.stringify(q);
    if (relation === 'meta' && text === META_QUERY) row.meta = w.footnotes ? [{ key: 'footnotes', value: w.footnotes }] : [];
    else if (relation === 'terms' && text === TERMS_QUERY) row.terms = w.terms.map((t) => ({ termId: t.termId, taxonomy: t.taxonomy }));
    else return null;
  }
  return row;
}

/** Whether a string reads back as written: no U+0000 and no lone surrogate (`\p{Cs}` under the u flag matches only those). */
const storedAsIs = (s: string) => !s.includes('\u0000') && !/\p{Cs}/u.test(s);

/**
 * The columns of a new item as a read returns them, or null when a read could return something
 * else: PostgreSQL drops U+0000 from text, and a string that is not well-formed UTF-16 (a lone
 * surrogate) is stored with a replacement character. The remaining columns take their defaults.
 */
function writtenRow(id: number, guid: string, data: Record<string, unknown>): WrittenContent['columns'] | null {
  for (const v of Object.values(data)) if (typeof v === 'string' && !storedAsIs(v)) return null;
  const row: Record<string, unknown> = { id, ...data, guid, mimeType: '', trashedStatus: '', trashedSlug: '' };
  // A column this write left to its database default is not known here: the answer is read back.
  for (const c of CONTENT_COLUMN_NAMES) if (!(c in row)) return null;
  return row as WrittenContent['columns'];
}

const TARGET_SELECT = { id: true, type: true, status: true, authorId: true, trashedStatus: true, parentId: true } as const;

/**
 * The item an attachment is attached to (`post`; 0 detaches), as WordPress's attachments
 * controller takes it. An upload needs edit_post on it (create_item_permissions_check), which an
 * id with nothing behind it never grants and a revision passes on to the item it belongs to:
 * rest_cannot_edit. Then a revision or an attachment cannot hold attachments, on upload and on
 * update (rest_invalid_param, "Invalid parent type."). An update asks no right over the parent
 * and stores an id with nothing behind it as given: the parent column is a foreign key here, so
 * that id is returned as `missing`, kept in the attachment's meta (MISSING_PARENT).
 */
async function attachmentTarget(ctx: Context, post: number, creating: boolean): Promise<{ parentId: number | null; missing: number | null }> {
  if (post === 0) return { parentId: null, missing: null };
  const target = await ctx.prisma.content.findUnique({ where: { id: post }, select: TARGET_SELECT });
  const revision = !!target && (target.type === 'revision' || target.type === 'autosave');
  if (creating) {
    const owner = revision ? (target.parentId ? await ctx.prisma.content.findUnique({ where: { id: target.parentId }, select: TARGET_SELECT }) : null) : target;
    if (!owner || !canEditContent(ctx, owner)) throw restError('rest_cannot_edit', 'Sorry, you are not allowed to upload media to this post.', authStatus(!!ctx.viewer));
  }
  if (target && (revision || target.type === 'attachment')) throw restError('rest_invalid_param', 'Invalid parent type.', 400);
  if (target) return { parentId: target.id, missing: null };
  // A negative id goes into WordPress's unsigned parent column, which then holds 0: unattached.
  return { parentId: null, missing: post > 0 ? post : null };
}

/** Creates (id null) or updates a content item of `type`; returns its id. */
export async function saveContent(ctx: Context, type: string, id: number | null, input: ContentInput, o: SaveOptions = {}): Promise<number> {
  const viewer = ctx.viewer;
  const kind = contentTypeOf(type);
  const { caps, supports } = kind;
  const site = await ctx.site();
  const existing = id === null ? null : await findContent(ctx, type, id);

  checkWriteRights(ctx, type, existing, input);
  const authorId = input.author ?? existing?.authorId ?? viewer!.id;

  // Status: publishing needs the publish right (checked above); a trashed item given a status is restored.
  let status = input.status ?? existing?.status ?? (kind.defaultStatus === 'inherit' ? 'inherit' : 'draft');
  if (input.template != null && input.template !== '') invalidParam('template', 'rest_invalid_param', `Invalid template: ${input.template}.`);

  // Without unfiltered_html the submitted HTML is filtered on save, as WordPress's kses does.
  const { title, content, excerpt } = writtenText(ctx, input, existing);
  if (!existing && supports.requiresContent && !title && !content && !excerpt) {
    throw restError('empty_content', 'Content, title, and excerpt are empty.', 400);
  }
  // Rendered now, before the transaction (whose lock it would otherwise hold), and stored with the
  // row: reads then take it instead of rendering (./stored-render.ts). Unchanged text keeps its own.
  const rendered = existing && storedRender(existing) && existing.content === content && existing.excerpt === excerpt ? {} : renderedColumns(content, excerpt);
  let password = input.password ?? existing?.password ?? '';
  const wantsSticky = supports.sticky && (input.sticky ?? (existing ? site.stickyPosts.includes(existing.id) : false));
  if (wantsSticky && password && (input.sticky || input.password)) {
    throw restError('rest_invalid_field', input.password ? 'A sticky post can not be password protected.' : 'A password protected post can not be set to sticky.', 400);
  }
  if (status === 'private') password = '';

  if (input.author != null && input.author !== existing?.authorId) {
    const author = await ctx.prisma.user.findUnique({ where: { id: input.author }, select: { id: true } });
    if (!author) throw restError('rest_invalid_author', 'Invalid author ID.', 400);
  }
  // Pages: a page made its own parent is stored with no parent (WordPress answers 200);
  // any other parent must be an existing page.
  let parentId = existing?.parentId ?? null;
  // An attachment's parent id with nothing behind it (undefined: `post` not given, left as it is).
  let missingParent: number | null | undefined;
  if (input.post != null && type === 'attachment') ({ parentId, missing: missingParent } = await attachmentTarget(ctx, input.post, !existing));
  if (supports.pageAttributes && input.parent != null) {
    parentId = input.parent === 0 || input.parent === existing?.id ? null : input.parent;
    if (parentId) {
      const parent = await ctx.prisma.content.findUnique({ where: { id: parentId }, select: { type: true } });
      if (parent?.type !== type) throw restError('rest_post_invalid_id', 'Invalid post parent ID.', 400);
    }
  }
  if (input.featuredMedia) {
    const media = await ctx.prisma.content.findUnique({ where: { id: input.featuredMedia }, select: { type: true } });
    if (media?.type !== 'attachment') throw restError('rest_invalid_featured_media', 'Invalid featured media ID.', 400);
  }

  // Dates: explicit, floating (drafts re-stamped on each save) or now.
  const now = nowDates(site);
  const resolved = resolveDates(site, input);
  let date: Date, dateGmt: Date, floating: boolean;
  if (resolved) ({ date, dateGmt, floating } = resolved);
  else if (resolved === null || !existing || existing.dateFloating) {
    floating = FLOATING_STATUSES.has(status);
    date = now.local; dateGmt = now.gmt;
  } else ({ date, dateGmt, floating } = { date: existing.date, dateGmt: existing.dateGmt, floating: false });
  if (!FLOATING_STATUSES.has(status)) floating = false;
  const ahead = dateGmt.getTime() - now.gmt.getTime();
  if (status === 'publish' && ahead >= 60_000) status = 'future';
  else if (status === 'future' && ahead < 60_000) status = 'publish';

  const pg = ctx.db.provider === 'postgres';
  let written: WrittenContent | null = null;
  const id2 = await ctx.prisma.$transaction(async (tx) => {
    written = null; // a transaction that is tried again starts over
    let bumpTerms: (() => Promise<void>) | null = null;
    // Slug: drafts keep an empty one until published; a given slug is made unique at once.
    const restoring = existing?.status === 'trash' && input.status;
    let slug = input.slug != null ? sanitizeTitle(input.slug) : restoring ? existing.trashedSlug : existing?.slug ?? '';
    if (!slug && !FLOATING_STATUSES.has(status)) slug = sanitizeTitle(title) || (existing ? String(existing.id) : '');
    // Posts: unique per type; pages: per type and parent.
    // Whether any row holds the slug: the first one found answers (cheaper than a count).
    const statements = txStatements(tx, ctx.db);
    const taken = slugTaken(statements, pg, kind.slugScope === 'global' ? { global: true } : { type, parentId: kind.slugScope === 'parent' ? parentId : undefined }, existing?.id);
    // As wp_insert_post: a pending item saved by someone who cannot publish keeps no slug.
    if (status === 'pending' && !ctx.can(caps.publish_posts)) slug = '';
    if (slug) slug = await uniqueSlug(slug, type === 'attachment' ? 'attachment' : kind.hierarchical ? 'page' : 'post', taken);

    // Terms given per taxonomy, under the GraphQL name of its REST base (categories, tags, eventCategory …).
    const givenTerms = taxonomyKeys(kind).map(({ ref, key }) => ({ ref, ids: (input as Record<string, unknown>)[key] as number[] | null | undefined }));
    for (const { ref, ids } of givenTerms) if (ids) await checkTerms(tx, ref.taxonomy, ids, ref.restBase);

    const data = {
      status, title, content, excerpt, password, slug, date, dateGmt, dateFloating: floating,
      modified: now.local, modifiedGmt: now.gmt, authorId,
      commentStatus: input.commentStatus ?? existing?.commentStatus ?? (kind.discussionDefault === 'closed' ? 'closed' : site.defaultCommentStatus),
      pingStatus: input.pingStatus ?? existing?.pingStatus ?? (kind.discussionDefault === 'closed' ? 'closed' : site.defaultPingStatus),
      format: supports.formats ? input.format ?? existing?.format ?? 'standard' : '',
      template: input.template ?? existing?.template ?? '',
      featuredMedia: input.featuredMedia ?? existing?.featuredMedia ?? 0,
      parentId,
      menuOrder: supports.pageAttributes ? input.menuOrder ?? existing?.menuOrder ?? 0 : 0,
      ...(restoring ? { trashedStatus: '', trashedSlug: '' } : {}),
      ...rendered,
    } as Record<string, unknown> & { status: string; slug: string; parentId: number | null };
    // Stored fields of the type's definition no rule above writes: as given, else (on create) the
    // definition's default, else the column's.
    for (const f of storedInputs(type)) {
      if (f.column in data) continue;
      const given = (input as Record<string, unknown>)[f.name];
      if (given !== undefined && given !== null) data[f.column] = given;
      else if (!existing && f.default !== undefined) data[f.column] = f.default;
    }
    let savedId: number;
    if (existing) {
      await tx.content.update({ where: { id: existing.id }, data });
      savedId = existing.id;
      // Restored from the trash: its comments come back with it (wp_untrash_post_comments).
      if (restoring) await untrashPostComments(tx, ctx.db, existing.id);
    } else {
      const guidPrefix = `${site.home}/?${kind.plainLinkArg}=`;
      const guid = (newId: number) => `${guidPrefix}${newId}`;
      savedId = await insertContent(tx, statements, pg, { type, ...data }, guid, guidPrefix);
      if (o.written && !o.within) {
        const columns = writtenRow(savedId, guid(savedId), { type, ...data });
        if (columns) written = { columns, footnotes: '', terms: [], termSlugs: [] };
      }
    }

    if (supports.taxonomies.length) {
      const before = existing ? (await tx.termRelationship.findMany({ where: { contentId: savedId }, select: { termId: true } })).map((r) => r.termId) : [];
      const set: { taxonomy: string; ids: number[] }[] = [];
      for (const { ref, ids } of givenTerms) {
        // As WordPress: a new post given no category, or any post given an empty list of them, is
        // filed under the default one.
        let list = ids;
        if (ref.taxonomy === 'category' && site.defaultCategory && (list ? !list.length : !existing)) list = [site.defaultCategory];
        if (list) set.push({ taxonomy: ref.taxonomy, ids: await setTerms(tx, statements, pg, savedId, ref.taxonomy, list, !existing) });
      }
      const assigned = set.flatMap((t) => t.ids);
      // The answer holds the links of every taxonomy, whichever list was given empty. Each
      // taxonomy numbers its links from 0, so when two have some, the order of a read across
      // them is the database's: that answer is read back.
      if (written) {
        if (set.filter((t) => t.ids.length).length > 1) written = null;
        else written.terms = set.flatMap((t) => t.ids.map((termId) => ({ termId, taxonomy: t.taxonomy })));
      }
      // Recounted last, as a create's terms are bumped last (see bumpTerms below).
      if (existing) bumpTerms = () => recountTermsLast(tx, ctx.db, [...before, ...assigned]);
      // A new item had no terms, so each term it joins counts one more if it is published. This
      // keeps a create from recounting a category of a million posts.
      // The answer shows the terms' slugs (class_list): read here with the links, where the
      // count's UPDATE returns them, instead of by a query after the transaction.
      else if (assigned.length) {
        const ids = [...new Set(assigned)].sort((a, b) => a - b);
        const list = ids.map((_, i) => placeholder(pg, i)).join(', ');
        const keep = (slugs: { id: number | bigint; slug: string }[]) => {
          if (written) written.termSlugs = slugs.map((t) => ({ id: Number(t.id), slug: t.slug }));
        };
        const deferred = ctx.db.termCounts;
        if (status === 'publish' && !deferred) {
          // The last statement before COMMIT (see bumpTerms below): from here to the commit the
          // terms' rows are locked against every other write to them.
          bumpTerms = async () => { keep(await addToTermCounts(statements, pg, new Map(ids.map((id) => [id, 1])), true)); };
        } else {
          // In a batch: noted on the batch's handle (src/db/deferred-term-counts.ts) and added when
          // the batch's transaction ends (src/content/term-counts.ts says why).
          if (status === 'publish') deferred!.add(ids);
          if (written) keep(await statements.query(`SELECT "id", "slug" FROM "Term" WHERE "id" IN (${list})`, ...ids));
        }
      }
    }

    if (input.meta?.footnotes != null) {
      await tx.postMeta.deleteMany({ where: { contentId: savedId, key: 'footnotes' } });
      if (input.meta.footnotes !== '') await tx.postMeta.create({ data: { contentId: savedId, key: 'footnotes', value: input.meta.footnotes } });
      if (written) {
        if (!storedAsIs(input.meta.footnotes)) written = null;
        else written.footnotes = input.meta.footnotes;
      }
    }

    // Custom fields (register_meta): each given one replaces its stored value.
    const customFields = Object.entries(kind.fields).filter(([key]) => input.meta?.[key] != null);
    for (const [key, f] of customFields) {
      if (f.writeCapability && !ctx.can(f.writeCapability)) {
        throw restError('rest_cannot_update', `Sorry, you are not allowed to edit the ${key} custom field.`, authStatus(!!ctx.viewer), { key });
      }
      await tx.postMeta.deleteMany({ where: { contentId: savedId, key } });
      await tx.postMeta.create({ data: { contentId: savedId, key, value: storedMetaValue(f, input.meta![key]) } });
    }
    // The answer made from what was written knows the footnotes only: custom fields are read back.
    if (Object.keys(kind.fields).length) written = null;

    if (missingParent !== undefined && (existing || missingParent !== null)) {
      await tx.postMeta.deleteMany({ where: { contentId: savedId, key: MISSING_PARENT } });
      if (missingParent !== null) await tx.postMeta.create({ data: { contentId: savedId, key: MISSING_PARENT, value: String(missingParent) } });
    }

    if (supports.sticky && input.sticky != null) {
      const sticky = new Set(site.stickyPosts);
      if (input.sticky) sticky.add(savedId); else sticky.delete(savedId);
      await setOption(tx, 'sticky_posts', [...sticky]);
    }

    // A snapshot after each update whose text (or revisioned meta) differs from the newest
    // revision; the first update always stores one.
    if (o.within) await o.within(tx, savedId);

    if (existing && supports.revisions && o.revision !== false) {
      const footnotes = input.meta?.footnotes ?? (await tx.postMeta.findFirst({ where: { contentId: savedId, key: 'footnotes' }, select: { value: true } }))?.value ?? '';
      await storeRevision(tx, site, { id: savedId, authorId: viewer!.id, title, content, excerpt, footnotes, at: now });
    }
    await recordContentEvent(tx, ctx.db, {
      action: existing ? 'updated' : 'created', type, id: savedId, status, previousStatus: existing?.status ?? '', authorId, parentId,
    });
    // Last: on PostgreSQL a term's row stays locked until the commit, so every create in one
    // category waits for the one before it to commit; the fewer round trips from the lock to the
    // COMMIT, the more creates a second (each waits on a busy event loop).
    await bumpTerms?.();
    return savedId;
  });
  await afterWrite(ctx, { object: 'content', id: id2, action: 'save' });
  if (o.written && written) o.written.row = written;
  return id2;
}

/** DELETE: to the trash, or for good with `force`. Returns the id; the caller reads the record first. */
export async function checkDelete(ctx: Context, type: string, id: number, force: boolean) {
  const row = await findContent(ctx, type, id);
  if (!canDeleteContent(ctx, row)) throw restError('rest_cannot_delete', 'Sorry, you are not allowed to delete this post.', authStatus(!!ctx.viewer));
  if (!force && row.status === 'trash') throw restError('rest_already_trashed', 'The post has already been deleted.', 410);
  return row;
}

export async function trashContent(ctx: Context, row: { id: number; type: string; status: string; slug: string; authorId: number; parentId: number | null }): Promise<void> {
  const site = await ctx.site();
  await ctx.prisma.$transaction(async (tx) => {
    await tx.content.update({
      where: { id: row.id },
      data: { status: 'trash', trashedStatus: row.status, trashedSlug: row.slug, slug: row.slug ? `${row.slug}__trashed` : '', ...stampModified(site) },
    });
    // Its comments go with it (wp_trash_post_comments), each keeping its status for the untrash.
    await trashPostComments(tx, ctx.db, row.id);
    const terms = await tx.termRelationship.findMany({ where: { contentId: row.id }, select: { termId: true } });
    await recordContentEvent(tx, ctx.db, { action: 'trashed', type: row.type, id: row.id, status: 'trash', previousStatus: row.status, authorId: row.authorId, parentId: row.parentId });
    await recountTermsLast(tx, ctx.db, terms.map((t) => t.termId));
  });
  await afterWrite(ctx, { object: 'content', id: row.id, action: 'trash' });
}

export async function deleteContent(ctx: Context, id: number): Promise<void> {
  const site = await ctx.site();
  await ctx.prisma.$transaction(async (tx) => {
    const terms = await tx.termRelationship.findMany({ where: { contentId: id }, select: { termId: true } });
    await tx.content.deleteMany({ where: { parentId: id, type: { in: ['revision', 'autosave'] } } });
    const gone = await tx.content.delete({ where: { id } });
    await recordContentEvent(tx, ctx.db, { action: 'deleted', type: gone.type, id, status: gone.status, previousStatus: gone.status, authorId: gone.authorId, parentId: gone.parentId });
    if (site.stickyPosts.includes(id)) await setOption(tx, 'sticky_posts', site.stickyPosts.filter((s) => s !== id));
    // Last: the terms' rows stay locked from here to the commit (PostgreSQL).
    await recountTermsLast(tx, ctx.db, terms.map((t) => t.termId));
  });
  await afterWrite(ctx, { object: 'content', id, action: 'delete' });
}

function stampModified(site: SiteSettings) {
  const now = nowDates(site);
  return { modified: now.local, modifiedGmt: now.gmt };
}


/** What a revision holds: the parent's text and revisioned meta at one moment. */
export interface Snapshot { id: number; authorId: number; title: string; content: string; excerpt: string; footnotes: string; at: { local: Date; gmt: Date } }

/** The slug (and permalink-shaped guid) every revision or autosave of an item shares. */
export function revisionSlug(parentId: number, kind: 'revision' | 'autosave'): string {
  return `${parentId}-${kind}-v1`;
}

/** Stores a revision of `s.id` unless the newest one holds the same text and meta. */
export async function storeRevision(tx: Tx, site: SiteSettings, s: Snapshot): Promise<boolean> {
  const latest = await tx.content.findFirst({
    where: { parentId: s.id, type: 'revision' }, orderBy: [{ date: 'desc' }, { id: 'desc' }],
    select: { title: true, content: true, excerpt: true, meta: { where: { key: 'footnotes' }, select: { value: true } } },
  });
  if (latest && latest.title === s.title && latest.content === s.content && latest.excerpt === s.excerpt && (latest.meta[0]?.value ?? '') === s.footnotes) return false;
  const slug = revisionSlug(s.id, 'revision');
  await tx.content.create({
    data: {
      type: 'revision', status: 'inherit', parentId: s.id, authorId: s.authorId, title: s.title, content: s.content, excerpt: s.excerpt,
      slug, guid: `${site.home}/${slug}/`, date: s.at.local, dateGmt: s.at.gmt, modified: s.at.local, modifiedGmt: s.at.gmt,
      commentStatus: 'closed', pingStatus: 'closed', format: '',
      ...(s.footnotes ? { meta: { create: [{ key: 'footnotes', value: s.footnotes }] } } : {}),
    },
  });
  return true;
}
