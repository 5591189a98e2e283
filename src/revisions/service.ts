// Revisions and autosaves of posts and pages: WordPress's revisions and autosaves controllers'
// rules, in their order of checks, for REST and GraphQL alike. Revisions are made by updates
// (src/content/service.ts, storeRevision); autosaves here.
import type { Prisma as PrismaNS } from '../generated/sqlite/client.js';
import type { Context } from '../context.js';
import { restError, authStatus, invalidParam } from '../errors.js';
import { canDeleteContent, canEditContent } from '../auth/content-permissions.js';
import { absOffset, cachedCount, columnOrder, pageByPosition, type Direction } from '../db/list.js';
import { parseSearch } from '../content/search.js';
import {
  checkWriteRights, findContent, nowDates, revisionSlug, saveContent, writtenText, type ContentInput,
} from '../content/service.js';

type Where = PrismaNS.ContentWhereInput;

export const REVISION_TYPES = ['revision', 'autosave'];

/** The parent a revision route names: 404 rest_post_invalid_parent when missing or of another type. */
export async function revisionParent(ctx: Context, type: string, id: number) {
  const row = id > 0 ? await ctx.prisma.content.findUnique({ where: { id } }) : null;
  if (!row || row.type !== type) throw restError('rest_post_invalid_parent', 'Invalid post parent ID.', 404);
  return row;
}

/** Reading revisions or autosaves takes the right to edit their parent, in every context. */
function requireRead(ctx: Context, parent: Parameters<typeof canEditContent>[1], what: 'revisions' | 'autosaves'): void {
  if (!canEditContent(ctx, parent)) throw restError('rest_cannot_read', `Sorry, you are not allowed to view ${what} of this post.`, authStatus(!!ctx.viewer));
}

/** A revision or autosave by id: 404 rest_post_invalid_id when it is neither. */
async function findRevision(ctx: Context, id: number) {
  const row = id > 0 ? await ctx.prisma.content.findUnique({ where: { id }, select: { id: true, type: true, parentId: true } }) : null;
  if (!row || !REVISION_TYPES.includes(row.type)) throw restError('rest_post_invalid_id', 'Invalid revision ID.', 404);
  return row;
}

function mismatch(parentId: number): never {
  throw restError('rest_revision_parent_id_mismatch', `The revision does not belong to the specified parent with id of "${parentId}"`, 404);
}

// ---------------------------------------------------------------- lists

export interface RevisionListFilter { search?: string | null; include?: number[] | null; exclude?: number[] | null }
export interface RevisionListArgs { filter?: RevisionListFilter | null; page?: number | null; perPage?: number | null; offset?: number | null; order?: string | null; orderby?: string | null }

/** One page of a revision list: either a query (where, order, skip, take) or ids in their order. */
export interface RevisionPage {
  where: Where;
  orderBy: Record<string, Direction>[];
  skip: number;
  take: number | undefined;
  ids: number[] | null;
  total: number;
  totalPages: number;
}

const ORDER_COLUMNS: Record<string, 'date' | 'id' | 'title' | 'slug'> = { date: 'date', id: 'id', title: 'title', slug: 'slug', include_slugs: 'slug' };

/** Words of a search, as WordPress's LIKE matches them: every word in title, excerpt or content. */
function matchesSearch(row: { title: string; excerpt: string; content: string }, search: string): boolean {
  const { include, exclude } = parseSearch(search);
  const has = (term: string) => [row.title, row.excerpt, row.content].some((t) => t.toLowerCase().includes(term.toLowerCase()));
  return include.every(has) && !exclude.some(has);
}

/** WordPress's search order: the phrase in the title, every word in the title, any word in it, then the phrase elsewhere. */
function relevance(row: { title: string; excerpt: string; content: string }, search: string): number {
  const phrase = search.trim().toLowerCase();
  const title = row.title.toLowerCase();
  const words = parseSearch(search).include.map((w) => w.toLowerCase());
  if (title.includes(phrase)) return 1;
  if (words.length && words.every((w) => title.includes(w))) return 2;
  if (words.some((w) => title.includes(w))) return 3;
  if (row.excerpt.toLowerCase().includes(phrase)) return 4;
  if (row.content.toLowerCase().includes(phrase)) return 5;
  return 6;
}

/**
 * The revisions (and autosaves) of a parent, newest first by default, with WordPress's checks in
 * its order: parent, right, orderby arguments, then paging. Without `perPage` every one is listed.
 */
export async function listRevisions(ctx: Context, type: string, parentId: number, rawArgs: RevisionListArgs): Promise<RevisionPage> {
  const args = absOffset(rawArgs);
  const parent = await revisionParent(ctx, type, parentId);
  requireRead(ctx, parent, 'revisions');
  const filter = args.filter ?? {};
  const search = filter.search ?? '';
  const orderby = args.orderby ?? 'date';
  if (orderby === 'relevance' && !search) throw restError('rest_no_search_term_defined', 'You need to define a search term to order by relevance.', 400);
  if (orderby === 'include' && !filter.include?.length) throw restError('rest_orderby_include_missing_include', 'You need to define an include parameter to order by include.', 400);
  const page = args.page ?? 1;
  const perPage = args.perPage ?? undefined;
  if (page < 1) invalidParam('page', 'rest_out_of_bounds', 'page must be greater than or equal to 1');
  if (perPage !== undefined && (perPage < 1 || perPage > 100)) invalidParam('perPage', 'rest_out_of_bounds', 'per_page must be between 1 (inclusive) and 100 (inclusive)');
  const dir: Direction = args.order === 'asc' ? 'asc' : 'desc';

  const and: Where[] = [{ parentId: parent.id }, { type: { in: REVISION_TYPES } }];
  if (filter.include?.length) and.push({ id: { in: filter.include } });
  if (filter.exclude?.length) and.push({ id: { notIn: filter.exclude } });
  let where: Where = { AND: and };
  let ids: number[] | null = null;
  let candidates: { id: number; title: string; excerpt: string; content: string }[] | null = null;
  if (search) {
    // A parent's revisions are few: the words are matched here, over one statement.
    const rows = await ctx.prisma.content.findMany({ where, select: { id: true, title: true, excerpt: true, content: true, date: true }, orderBy: [{ date: dir }, { id: dir }] });
    candidates = rows.filter((r) => matchesSearch(r, search));
    where = { AND: [...and, { id: { in: candidates.map((r) => r.id) } }] };
  }
  const total = candidates ? candidates.length : await cachedCount(ctx, 'content', where);
  const totalPages = perPage ? Math.ceil(total / perPage) : total > 0 ? 1 : 0;
  // The checks read the offset as given; the query skips its absolute value (WordPress: the
  // controller compares the raw number, WP_Query applies absint).
  const offset = rawArgs.offset ?? 0;
  if (total > 0) {
    if (offset >= total) throw restError('rest_revision_invalid_offset_number', 'The offset number requested is larger than or equal to the number of available revisions.', 400);
    if (!offset && page > totalPages) throw restError('rest_revision_invalid_page_number', 'The page number requested is larger than the number of pages available.', 400);
  }
  const skip = args.offset != null ? args.offset : perPage ? (page - 1) * perPage : 0;
  const take = perPage ?? Number.MAX_SAFE_INTEGER;
  if (orderby === 'include') {
    const rows = candidates ?? (await ctx.prisma.content.findMany({ where, select: { id: true } }));
    const at = new Map(filter.include!.map((id, i) => [id, i]));
    // The include list's own order, whichever `order` is given (WordPress's ORDER BY FIELD takes none).
    ids = pageByPosition(rows, (r) => at.get(r.id), { skip, take });
  } else if (orderby === 'relevance') {
    // Relevance is read descending (best first); `order` turns it round, as WordPress's ORDER BY does.
    const ranked = [...candidates!].sort((a, b) => relevance(a, search) - relevance(b, search));
    if (dir === 'asc') ranked.reverse();
    ids = ranked.slice(skip, skip + take).map((r) => r.id);
  }
  return { where, orderBy: columnOrder(ORDER_COLUMNS, orderby, dir, 'date'), skip, take: perPage, ids, total, totalPages };
}

/** One revision (or autosave) of a parent, checked as WordPress's get_item does. */
export async function checkReadRevision(ctx: Context, type: string, parentId: number, id: number): Promise<number> {
  const parent = await revisionParent(ctx, type, parentId);
  requireRead(ctx, parent, 'revisions');
  const revision = await findRevision(ctx, id);
  if (revision.parentId !== parent.id) mismatch(parent.id);
  return revision.id;
}

/**
 * Revision delete: parent → the right to delete the parent → the revision under that parent →
 * the right to edit the parent → `force` (revisions have no trash). Returns the revision's id;
 * the caller reads the record before `removeRevision`.
 */
export async function checkDeleteRevision(ctx: Context, type: string, parentId: number, id: number, force: boolean): Promise<number> {
  const parent = await revisionParent(ctx, type, parentId);
  if (!canDeleteContent(ctx, parent)) throw restError('rest_cannot_delete', 'Sorry, you are not allowed to delete revisions of this post.', authStatus(!!ctx.viewer));
  const revision = await findRevision(ctx, id);
  if (revision.parentId !== parent.id) throw restError('rest_post_invalid_id', 'Invalid revision ID.', 404);
  requireRead(ctx, parent, 'revisions');
  if (!force) throw restError('rest_trash_not_supported', "Revisions do not support trashing. Set 'force=true' to delete.", 501);
  return revision.id;
}

export async function removeRevision(ctx: Context, id: number): Promise<void> {
  // Its meta goes with it (cascade); the parent is untouched.
  await ctx.prisma.content.delete({ where: { id } });
}

/**
 * Restores a revision onto its parent (WordPress's wp_restore_post_revision, which its REST API
 * lacks): the parent's title, content, excerpt and revisioned meta become the revision's, as an
 * update by the caller — with the update's rules, HTML filter and new revision.
 */
export async function restoreRevision(ctx: Context, type: string, parentId: number, id: number): Promise<number> {
  const parent = await revisionParent(ctx, type, parentId);
  if (!canEditContent(ctx, parent)) throw restError('rest_cannot_edit', 'Sorry, you are not allowed to edit this post.', authStatus(!!ctx.viewer));
  const found = await findRevision(ctx, id);
  if (found.parentId !== parent.id) mismatch(parent.id);
  const revision = await ctx.prisma.content.findUniqueOrThrow({
    where: { id: found.id }, select: { title: true, content: true, excerpt: true, meta: { where: { key: 'footnotes' }, select: { value: true } } },
  });
  return saveContent(ctx, type, parent.id, { title: revision.title, content: revision.content, excerpt: revision.excerpt, meta: { footnotes: revision.meta[0]?.value ?? '' } });
}

// ---------------------------------------------------------------- autosaves

/** Every user's autosave of a parent, newest first (WordPress's autosaves list). */
export async function autosaveWhere(ctx: Context, type: string, parentId: number): Promise<Where> {
  const parent = await revisionParent(ctx, type, parentId);
  requireRead(ctx, parent, 'autosaves');
  return { parentId: parent.id, type: 'autosave' };
}

export const NEWEST_FIRST: Record<string, Direction>[] = [{ date: 'desc' }, { id: 'desc' }];

/** The newest autosave of a parent, whoever made it (the autosave item route ignores its id). */
export async function latestAutosave(ctx: Context, type: string, parentId: number): Promise<number> {
  const parent = await revisionParent(ctx, type, parentId);
  requireRead(ctx, parent, 'revisions');
  const row = await ctx.prisma.content.findFirst({ where: { parentId: parent.id, type: 'autosave' }, orderBy: NEWEST_FIRST, select: { id: true } });
  if (!row) throw restError('rest_post_no_autosave', 'There is no autosave revision for this post.', 404);
  return row.id;
}

/** WordPress's normalize_whitespace: line breaks unified, runs of blanks made one, ends trimmed. */
const normalized = (s: string) => s.replace(/\r\n?/g, '\n').replace(/\n+/g, '\n').replace(/[ \t]+/g, ' ').trim();

/**
 * An autosave, as WordPress's autosaves controller makes it. The author of a draft autosaving it
 * updates the draft itself (no revision); anyone else, or any autosave of a published item, gets
 * one autosave per user and parent, replaced on each save and left alone when nothing changed.
 * Fields the body omits keep the parent's value. Returns the id of the record to answer with.
 */
export async function autosaveContent(ctx: Context, type: string, id: number, input: ContentInput): Promise<number> {
  const existing = await findContent(ctx, type, id);
  checkWriteRights(ctx, type, existing, input);
  const viewer = ctx.viewer!;
  if ((existing.status === 'draft' || existing.status === 'auto-draft') && existing.authorId === viewer.id) {
    return saveContent(ctx, type, id, input, { revision: false });
  }

  const site = await ctx.site();
  const text = writtenText(ctx, input, existing);
  const footnotes = input.meta?.footnotes ?? undefined;
  return ctx.prisma.$transaction(async (tx) => {
    let changed = (['title', 'content', 'excerpt'] as const).some((k) => normalized(text[k]) !== normalized(existing[k]));
    if (!changed && footnotes != null) {
      const current = await tx.postMeta.findFirst({ where: { contentId: id, key: 'footnotes' }, select: { value: true } });
      changed = footnotes !== (current?.value ?? '');
    }
    const old = await tx.content.findFirst({ where: { parentId: id, type: 'autosave', authorId: viewer.id }, select: { id: true } });
    if (!changed && old) return old.id;
    const now = nowDates(site);
    const data = { ...text, authorId: viewer.id, date: now.local, dateGmt: now.gmt, modified: now.local, modifiedGmt: now.gmt };
    let autosaveId: number;
    if (old) {
      await tx.content.update({ where: { id: old.id }, data });
      autosaveId = old.id;
    } else {
      const slug = revisionSlug(id, 'autosave');
      autosaveId = (await tx.content.create({
        data: { type: 'autosave', status: 'inherit', parentId: id, slug, guid: `${site.home}/${slug}/`, commentStatus: 'closed', pingStatus: 'closed', format: '', ...data },
        select: { id: true },
      })).id;
    }
    if (footnotes != null) {
      await tx.postMeta.deleteMany({ where: { contentId: autosaveId, key: 'footnotes' } });
      if (footnotes !== '') await tx.postMeta.create({ data: { contentId: autosaveId, key: 'footnotes', value: footnotes } });
    }
    return autosaveId;
  });
}

/** The caller's own autosave of an item, if any (GraphQL's `autosave` field). */
export async function viewerAutosave(ctx: Context, parent: { id: number; type: string; status: string; authorId: number }): Promise<number | null> {
  if (!ctx.viewer || !canEditContent(ctx, parent)) return null;
  const viewerId = ctx.viewer.id;
  return ctx.loader<number, number | null>('viewerAutosave', async (ids) => {
    const rows = await ctx.prisma.content.findMany({ where: { parentId: { in: [...ids] }, type: 'autosave', authorId: viewerId }, select: { id: true, parentId: true } });
    return ids.map((pid) => rows.find((r) => r.parentId === pid)?.id ?? null);
  }).load(parent.id);
}
