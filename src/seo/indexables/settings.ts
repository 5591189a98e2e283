// An editor's SEO settings of one post or page (focus keyphrase, title and description overrides,
// canonical, noindex, cornerstone), kept on the item's indexable. 404 for anything that is not a
// post or page; the right to edit the item, as the editor's sidebar needs.
import type { Context } from '../../context.js';
import { authStatus, restError } from '../../errors.js';
import { canEditContent } from '../../auth/content-permissions.js';
import { INDEXED_TYPES, refreshContentIndexable } from './build.js';

export interface ItemSettingsInput {
  focusKeyphrase?: string;
  title?: string;
  description?: string;
  canonical?: string;
  /** null: follow the default. */
  noindex?: boolean | null;
  cornerstone?: boolean;
}

export interface ItemSettings {
  id: number;
  focus_keyphrase: string;
  title: string;
  meta_description: string;
  canonical: string;
  noindex: boolean | null;
  cornerstone: boolean;
  seo_score: number | null;
  readability_score: number | null;
}

async function editable(ctx: Context, id: number) {
  const row = await ctx.prisma.content.findUnique({ where: { id }, select: { id: true, type: true, status: true, authorId: true, parentId: true } });
  if (!row || !INDEXED_TYPES.includes(row.type) || row.status === 'trash') throw restError('rest_post_invalid_id', 'Invalid post ID.', 404);
  if (!canEditContent(ctx, row)) throw restError('rest_cannot_edit', 'Sorry, you are not allowed to edit this post.', authStatus(!!ctx.viewer));
  return row;
}

async function read(ctx: Context, id: number): Promise<ItemSettings> {
  const idx = await ctx.prisma.indexable.findUnique({ where: { objectType_objectId: { objectType: 'post', objectId: id } } });
  return {
    id, focus_keyphrase: idx?.primaryFocusKeyword ?? '', title: idx?.title ?? '', meta_description: idx?.description ?? '',
    canonical: idx?.canonical ?? '', noindex: idx?.isRobotsNoindex ?? null, cornerstone: idx?.isCornerstone ?? false,
    seo_score: idx?.primaryFocusKeywordScore ?? null, readability_score: idx?.readabilityScore ?? null,
  };
}

export async function itemSettings(ctx: Context, id: number): Promise<ItemSettings> {
  await editable(ctx, id);
  return read(ctx, id);
}

const orNull = (v: string | undefined) => (v === undefined ? undefined : v.trim() === '' ? null : v);

export async function updateItemSettings(ctx: Context, id: number, input: ItemSettingsInput): Promise<ItemSettings> {
  await editable(ctx, id);
  if (input.canonical) {
    let ok = false;
    try { ok = /^https?:$/.test(new URL(input.canonical).protocol); } catch { /* not a URL */ }
    if (!ok) throw restError('rest_invalid_param', 'Invalid parameter(s): canonical', 400, { params: { canonical: 'canonical is not a valid URL.' }, details: {} });
  }
  // The row is made (or refreshed) first, so settings saved before indexing are kept by it.
  await refreshContentIndexable(ctx, id);
  await ctx.prisma.indexable.update({
    where: { objectType_objectId: { objectType: 'post', objectId: id } },
    data: {
      primaryFocusKeyword: orNull(input.focusKeyphrase), title: orNull(input.title), description: orNull(input.description),
      canonical: orNull(input.canonical), isRobotsNoindex: input.noindex, isCornerstone: input.cornerstone,
    },
  });
  // Scores depend on the keyphrase and description: recomputed with them.
  await refreshContentIndexable(ctx, id);
  return read(ctx, id);
}
