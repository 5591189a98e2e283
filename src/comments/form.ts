// The site's classic comment form (WordPress's wp-comments-post.php and
// wp_handle_comment_submission): the checks the form makes before a comment is written, with
// WordPress's codes and messages, then the comments service's create (duplicates, floods and
// moderation as the REST route has them). And what an item's page shows: its approved comments.
import type { Comment } from '../generated/sqlite/client.js';
import type { Context } from '../context.js';
import { restError, RestError } from '../errors.js';
import { canReadContent } from '../auth/content-permissions.js';
import { commentPost } from './read.js';
import { createComment, discussionSettings } from './service.js';

/** The form's fields, as WordPress names them. */
export interface CommentFormFields {
  comment_post_ID?: string;
  comment_parent?: string;
  author?: string;
  email?: string;
  url?: string;
  comment?: string;
}

const EMAIL = /^[A-Za-z0-9._%+'-]+@[A-Za-z0-9-]+(?:\.[A-Za-z0-9-]+)+$/;

/**
 * wp_handle_comment_submission's checks, in its order, then the create. WordPress answers some
 * refusals with no message and a blank 200 (no such item, a trashed or draft one, a password),
 * and its required-field messages with 200: here each refusal has a 4xx status and a message.
 */
export async function submitCommentForm(ctx: Context, f: CommentFormFields): Promise<{ id: number; postId: number }> {
  const postId = Number.parseInt(f.comment_post_ID ?? '', 10) || 0;
  const parent = Math.abs(Number.parseInt(f.comment_parent ?? '', 10) || 0);
  if (parent) {
    const p = await ctx.prisma.comment.findUnique({ where: { id: parent }, select: { status: true, postId: true } });
    if (!p || p.status !== 'approved' || p.postId !== postId) throw restError('comment_reply_to_unapproved_comment', 'Sorry, replies to unapproved comments are not allowed.', 403);
  }
  const post = postId ? await commentPost(ctx, postId) : null;
  if (!post || (post.status === 'private' && !canReadContent(ctx, post))) throw restError('comment_id_not_found', 'The item to comment on was not found.', 404);
  if (post.commentStatus !== 'open') throw restError('comment_closed', 'Sorry, comments are closed for this item.', 403);
  if (post.status === 'trash') throw restError('comment_on_trash', 'The item to comment on was not found.', 404);
  if (post.status !== 'publish' && post.status !== 'private') throw restError('comment_on_draft', 'Sorry, comments are not allowed for this item.', 403);
  if (post.password && ctx.offeredPasswords.get(post.id) !== post.password) throw restError('comment_on_password_protected', 'This item is protected by a password.', 403);

  const settings = await discussionSettings(ctx);
  if (!ctx.viewer && settings.commentRegistration) throw restError('not_logged_in', 'Sorry, you must be logged in to comment.', 403);
  const author = (f.author ?? '').trim();
  const email = (f.email ?? '').trim();
  const content = (f.comment ?? '').trim();
  if (settings.requireNameEmail && !ctx.viewer) {
    if (!author || !email) throw restError('require_name_email', 'Error: Please fill the required fields.', 400);
    if (!EMAIL.test(email)) throw restError('require_valid_email', 'Error: Please enter a valid email address.', 400);
  }
  if (!content) throw restError('require_valid_comment', 'Error: Please type your comment text.', 400);
  try {
    const id = await createComment(ctx, { post: postId, parent, authorName: author, authorEmail: email, authorUrl: f.url ?? '', content }, { form: true });
    return { id, postId };
  } catch (err) {
    // The service's REST codes, as the form's own.
    if (err instanceof RestError && err.extensions.code === 'rest_comment_author_data_required') throw restError('require_name_email', 'Error: Please fill the required fields.', 400);
    if (err instanceof RestError && err.extensions.code === 'rest_comment_content_invalid') throw restError('require_valid_comment', 'Error: Please type your comment text.', 400);
    throw err;
  }
}

/** A comment with its replies, as a page prints it. */
export interface ThreadNode { comment: Comment; replies: ThreadNode[] }

/**
 * An item's approved comments as threads, oldest first (two statements: whether it takes comments,
 * and its comments). A reply whose parent is not shown is shown at the top level, as WordPress's
 * walker does with an orphan.
 */
export async function commentThread(ctx: Context, postId: number): Promise<{ open: boolean; threads: ThreadNode[] }> {
  const [post, rows] = await Promise.all([
    ctx.prisma.content.findUnique({ where: { id: postId }, select: { commentStatus: true } }),
    ctx.prisma.comment.findMany({ where: { postId, status: 'approved', type: 'comment' }, orderBy: [{ dateGmt: 'asc' }, { id: 'asc' }] }),
  ]);
  const nodes = new Map(rows.map((c) => [c.id, { comment: c, replies: [] as ThreadNode[] }]));
  const threads: ThreadNode[] = [];
  for (const node of nodes.values()) {
    const parent = node.comment.parentId ? nodes.get(node.comment.parentId) : undefined;
    (parent ? parent.replies : threads).push(node);
  }
  return { open: post?.commentStatus === 'open', threads };
}
