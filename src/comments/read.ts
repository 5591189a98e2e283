// What the comments controller decides about reading a comment: the item it is on (batched per
// request, so a list costs one statement for its items, not one per comment), who may read the
// item's comments, who may edit a comment (WordPress's edit_comment maps to edit_post of the item,
// moderate_comments to every comment), the comment's link and its displayed text.
import type { Comment } from '../generated/sqlite/client.js';
import type { Context } from '../context.js';
import { canEditContent, canReadContent } from '../auth/content-permissions.js';
import { permalink } from '../resources/content-types.js';
import { ancestorSlugs } from '../content/fields.js';
import { autop, texturize } from '../content/render.js';

/** The columns of the item commented on that the rules read. */
export const POST_SELECT = { id: true, type: true, status: true, authorId: true, password: true, commentStatus: true, slug: true, parentId: true, trashedStatus: true } as const;
export interface CommentPost { id: number; type: string; status: string; authorId: number; password: string; commentStatus: string; slug: string; parentId: number | null; trashedStatus: string }

/** The item a comment is on, by id (null when gone), batched per request. */
export function commentPost(ctx: Context, postId: number): Promise<CommentPost | null> {
  return ctx.loader<number, CommentPost | null>('comments:post', async (ids) => {
    const rows = await ctx.prisma.content.findMany({ where: { id: { in: [...ids] } }, select: POST_SELECT });
    const byId = new Map(rows.map((r) => [r.id, r]));
    return ids.map((id) => byId.get(id) ?? null);
  }).load(postId);
}

/** Whether any comment replies to `id` (WordPress's `children` link), batched per request. */
export function commentHasChildren(ctx: Context, id: number): Promise<boolean> {
  return ctx.loader<number, boolean>('comments:children', async (ids) => {
    const rows = await ctx.prisma.comment.groupBy({ by: ['parentId'], where: { parentId: { in: [...ids] } } });
    const parents = new Set(rows.map((r) => r.parentId));
    return ids.map((i) => parents.has(i));
  }).load(id);
}

/**
 * The comments controller's check_read_post_permission: behind a password the caller did not give
 * (`password`, or one offered earlier on this request) only those who may edit the item read it;
 * otherwise the posts controller's read check.
 */
export function canReadCommentPost(ctx: Context, post: CommentPost, password?: string | null): boolean {
  if (post.password && (password ?? ctx.offeredPasswords.get(post.id)) !== post.password) return canEditContent(ctx, post);
  return canReadContent(ctx, post);
}

/** edit_comment: moderators edit every comment; others, those on items they may edit. */
export function canEditCommentOn(ctx: Context, post: CommentPost | null): boolean {
  if (!ctx.viewer) return false;
  if (ctx.can('moderate_comments')) return true;
  return post ? canEditContent(ctx, post) : ctx.can('edit_posts');
}

export async function canEditComment(ctx: Context, c: Pick<Comment, 'postId'>): Promise<boolean> {
  if (!ctx.viewer) return false;
  if (ctx.can('moderate_comments')) return true;
  return canEditCommentOn(ctx, await commentPost(ctx, c.postId));
}

/**
 * The controller's check_read_permission: an approved comment on an item the caller may read, or,
 * for a signed-in caller, their own comment or one they may edit.
 */
export function canReadCommentOn(ctx: Context, c: Pick<Comment, 'status' | 'userId'>, post: CommentPost | null, password?: string | null): boolean {
  if (post && c.status === 'approved' && canReadCommentPost(ctx, post, password)) return true;
  if (!ctx.viewer) return false;
  if (c.userId && c.userId === ctx.viewer.id) return true;
  return canEditCommentOn(ctx, post);
}

/** The comments of `rows` the caller may read, in order (the list's per-item check). */
export async function readableComments<T extends Pick<Comment, 'postId' | 'status' | 'userId'>>(ctx: Context, rows: T[], password?: string | null): Promise<T[]> {
  const posts = await Promise.all(rows.map((r) => commentPost(ctx, r.postId)));
  return rows.filter((r, i) => canReadCommentOn(ctx, r, posts[i], password));
}

/** get_comment_link(): the item's permalink and the comment's anchor. */
export async function commentLink(ctx: Context, c: Pick<Comment, 'id' | 'postId'>): Promise<string> {
  const site = await ctx.site();
  const post = await commentPost(ctx, c.postId);
  if (!post) return `${site.home}/#comment-${c.id}`;
  return `${permalink(site, post, await ancestorSlugs(ctx, post))}#comment-${c.id}`;
}

/** comment_text's display filters that matter for stored text: texturize, then paragraphs. */
export function renderCommentText(raw: string): string {
  return autop(texturize(raw));
}
