// Categories and tags: reading rules, list filters and transactional writes.
import { afterWrite } from '../content/write-hooks.js';
import type { Prisma as PrismaNS } from '../generated/sqlite/client.js';
import type { Context } from '../context.js';
import { columnOrder, sortByPosition, type SortedList } from '../db/list.js';
import type { Tx } from '../db/client.js';
import { recountTermsLast } from '../content/term-counts.js';
import { recordContentEvent } from '../content/events.js';
import { authStatus, restError } from '../errors.js';
import { sanitizeTitle } from '../content/slug.js';
import { filterTitleHtml } from '../content/kses.js';
import { canReadContent } from '../auth/content-permissions.js';
import { ancestorChain, type SlugNode } from '../content/ancestors.js';
import { taxonomyRef } from '../resources/content-types.js';

/** A taxonomy's name: category, post_tag or one of the site's content model. */
export type Taxonomy = string;
type Where = PrismaNS.TermWhereInput;

export interface TermFilter {
  search?: string | null;
  include?: number[] | null;
  exclude?: number[] | null;
  slug?: string[] | null;
  parent?: number | null;
  post?: number | null;
  hideEmpty?: boolean | null;
}

export function termWhere(taxonomy: Taxonomy, f: TermFilter, provider: 'sqlite' | 'postgres' = 'sqlite'): Where {
  const and: Where[] = [{ taxonomy }];
  if (f.include?.length) and.push({ id: { in: f.include } });
  if (f.exclude?.length) and.push({ id: { notIn: f.exclude } });
  if (f.slug?.length) and.push({ slug: { in: f.slug } });
  if (f.parent != null) and.push({ parentId: f.parent });
  if (f.post != null) and.push({ contents: { some: { contentId: f.post } } });
  if (f.hideEmpty) and.push({ count: { gt: 0 } });
  if (f.search) {
    // Case-insensitive like MySQL's LIKE (SQLite's LIKE already is for ASCII).
    const mode = provider === 'postgres' ? ({ mode: 'insensitive' } as const) : {};
    and.push({ OR: [{ name: { contains: f.search, ...mode } }, { slug: { contains: f.search, ...mode } }] });
  }
  return { AND: and };
}

/** The terms controller's `post` check: the post exists, and the caller may read it. */
export async function checkPostForTerms(ctx: Context, postId: number): Promise<void> {
  const post = await ctx.loader<number, { id: number; type: string; status: string; authorId: number } | null>('termsPostAccess', async (ids) => {
    const rows = await ctx.prisma.content.findMany({ where: { id: { in: [...ids] } }, select: { id: true, type: true, status: true, authorId: true } });
    return ids.map((id) => rows.find((r) => r.id === id) ?? null);
  }).load(postId);
  if (!post) throw restError('rest_post_invalid_id', 'Invalid post ID.', 400);
  if (!canReadContent(ctx, post)) throw restError('rest_forbidden_context', 'Sorry, you are not allowed to view terms for this post.', authStatus(!!ctx.viewer));
}

export function termOrder(orderby: string, order: 'asc' | 'desc'): PrismaNS.TermOrderByWithRelationInput[] {
  return columnOrder<string>({ id: 'id', name: 'name', slug: 'slug', description: 'description', count: 'count', term_group: 'id' }, orderby, order, 'name');
}

/** Every match in the include or slug list's order, with its key (SortedList); null for the column orders. */
export async function sortedTerms(ctx: Context, where: Where, orderby: string, f: TermFilter): Promise<SortedList | null> {
  if (orderby === 'include' && f.include?.length) {
    const rows = await ctx.prisma.term.findMany({ where, select: { id: true } });
    const pos = new Map(f.include.map((id, i) => [id, i]));
    return sortByPosition(rows, (r) => pos.get(r.id));
  }
  if (orderby === 'include_slugs' && f.slug?.length) {
    const rows = await ctx.prisma.term.findMany({ where, select: { id: true, slug: true } });
    const pos = new Map(f.slug.map((s, i) => [s, i]));
    return sortByPosition(rows, (r) => pos.get(r.slug));
  }
  return null;
}

/** Ids of one page when the order follows the include or slug list. */
export async function orderedTermIds(ctx: Context, where: Where, orderby: string, f: TermFilter, skip: number, take: number): Promise<number[] | null> {
  const sorted = await sortedTerms(ctx, where, orderby, f);
  return sorted && sorted.rows.slice(skip, skip + take).map((r) => r.id);
}

export async function findTerm(ctx: Context, taxonomy: Taxonomy, id: number) {
  const term = id > 0 ? await ctx.prisma.term.findUnique({ where: { id } }) : null;
  if (!term || term.taxonomy !== taxonomy) throw restError('rest_term_invalid', 'Term does not exist.', 404);
  return term;
}

export interface TermInput { name?: string | null; slug?: string | null; description?: string | null; parent?: number | null }

function checkManage(ctx: Context, code: string, message: string): void {
  if (!ctx.can('manage_categories')) throw restError(code, message, authStatus(!!ctx.viewer));
}

/** Creates (id null) or updates a term; returns its id. */
export async function saveTerm(ctx: Context, taxonomy: Taxonomy, id: number | null, input: TermInput, o: { within?: (tx: Tx, id: number) => Promise<void> } = {}): Promise<number> {
  const existing = id === null ? null : await findTerm(ctx, taxonomy, id);
  if (existing) checkManage(ctx, 'rest_cannot_update', 'Sorry, you are not allowed to edit this term.');
  else checkManage(ctx, 'rest_cannot_create', 'Sorry, you are not allowed to create terms in this taxonomy.');
  const filter = ctx.can('unfiltered_html') ? (s: string) => s : filterTitleHtml;
  const name = input.name != null ? filter(input.name).trim() : existing?.name ?? '';
  if (!name) throw restError('empty_term_name', 'A name is required for this term.', 400);
  let parentId = existing?.parentId ?? 0;
  if (input.parent != null) {
    if (!taxonomyRef(taxonomy)?.hierarchical) throw restError('rest_taxonomy_not_hierarchical', 'Cannot set parent term, taxonomy is not hierarchical.', 400);
    parentId = input.parent;
    if (parentId && (parentId === existing?.id || !(await ctx.prisma.term.findFirst({ where: { id: parentId, taxonomy }, select: { id: true } })))) {
      throw restError('rest_term_invalid', 'Parent term does not exist.', 400);
    }
  }
  const savedId = await ctx.prisma.$transaction(async (tx) => {
    const clash = await tx.term.findFirst({ where: { taxonomy, name, parentId, ...(existing ? { id: { not: existing.id } } : {}) }, select: { id: true } });
    if (clash) throw restError('term_exists', 'A term with the name provided already exists with this parent.', 400, { term_id: clash.id });
    let slug = input.slug != null ? sanitizeTitle(input.slug) : existing?.slug ?? sanitizeTitle(name);
    if (!slug) slug = sanitizeTitle(name) || 'term';
    const base = slug;
    for (let n = 2; await tx.term.findFirst({ where: { taxonomy, slug, ...(existing ? { id: { not: existing.id } } : {}) }, select: { id: true } }); n++) slug = `${base}-${n}`;
    const data = { name, slug, parentId, description: input.description ?? existing?.description ?? '' };
    const saved = existing ? (await tx.term.update({ where: { id: existing.id }, data })).id : (await tx.term.create({ data: { taxonomy, ...data } })).id;
    await o.within?.(tx, saved);
    await recordTermEvent(tx, ctx, existing ? 'updated' : 'created', { id: saved, taxonomy, name, slug, parentId });
    return saved;
  });
  await afterWrite(ctx, { object: 'term', id: savedId, action: 'save' });
  return savedId;
}

export async function deleteTerm(ctx: Context, taxonomy: Taxonomy, id: number, force: boolean) {
  const term = await findTerm(ctx, taxonomy, id);
  checkManage(ctx, 'rest_cannot_delete', 'Sorry, you are not allowed to delete this term.');
  const site = await ctx.site();
  if (taxonomy === 'category' && id === site.defaultCategory) throw restError('rest_cannot_delete', 'Sorry, you are not allowed to delete this term.', authStatus(!!ctx.viewer));
  if (!force) throw restError('rest_trash_not_supported', "Terms do not support trashing. Set 'force=true' to delete.", 501);
  return term;
}

/**
 * A term's change in the event log (src/content/events.ts), for the webhooks. Menus are terms of
 * `nav_menu`, whose changes the menus record themselves (kind 'menu').
 */
async function recordTermEvent(tx: Tx, ctx: Context, action: 'created' | 'updated' | 'deleted', t: { id: number; taxonomy: string; name: string; slug: string; parentId: number }): Promise<void> {
  if (t.taxonomy === 'nav_menu') return;
  await recordContentEvent(tx, ctx.db, {
    kind: 'term', action, type: t.taxonomy, id: t.id, status: '', previousStatus: '', authorId: ctx.viewer?.id ?? 0, parentId: t.parentId,
    data: { name: t.name, slug: t.slug, taxonomy: t.taxonomy, parent: t.parentId },
  });
}

/** Deletes for good: children move up, posts left without a category get the default one. */
export async function removeTerm(ctx: Context, taxonomy: Taxonomy, id: number): Promise<void> {
  const site = await ctx.site();
  await ctx.prisma.$transaction(async (tx: Tx) => {
    const term = await tx.term.findUniqueOrThrow({ where: { id } });
    const posts = (await tx.termRelationship.findMany({ where: { termId: id }, select: { contentId: true } })).map((r) => r.contentId);
    await tx.term.updateMany({ where: { taxonomy, parentId: id }, data: { parentId: term.parentId } });
    await tx.term.delete({ where: { id } });
    await recordTermEvent(tx, ctx, 'deleted', term);
    if (taxonomy === 'category' && site.defaultCategory && posts.length) {
      const still = new Set((await tx.termRelationship.findMany({ where: { contentId: { in: posts }, taxonomy: 'category' }, select: { contentId: true } })).map((r) => r.contentId));
      const orphans = posts.filter((p) => !still.has(p));
      if (orphans.length) {
        await tx.termRelationship.createMany({ data: orphans.map((contentId) => ({ contentId, termId: site.defaultCategory, taxonomy: 'category' })) });
        // Last (with the COMMIT on PostgreSQL): the category's row stays locked until the commit.
        await recountTermsLast(tx, ctx.db, [site.defaultCategory]);
      }
    }
  });
  await afterWrite(ctx, { object: 'term', id, action: 'delete' });
}

/** Slugs of a category's ancestors, nearest last. */
export function termAncestorSlugs(ctx: Context, parentId: number): Promise<string[]> {
  return ancestorChain(ctx.loader<number, SlugNode | null>('termSlugParent', async (ids) => {
    const rows = await ctx.prisma.term.findMany({ where: { id: { in: [...ids] } }, select: { id: true, slug: true, parentId: true } });
    return ids.map((id) => rows.find((r) => r.id === id) ?? null);
  }), parentId);
}
