// Comments: reading rules, the list query and transactional writes, as WordPress's comments
// controller, wp_allow_comment (duplicates, floods, moderation) and wp_handle_comment_submission
// (the classic form) decide them. REST, GraphQL and the site's comment form all come through here.
import type { Comment, Prisma as PrismaNS } from '../generated/sqlite/client.js';
import type { Context } from '../context.js';
import type { Tx } from '../db/client.js';
import { restError, authStatus, invalidParam } from '../errors.js';
import { recordContentEvent, type ContentAction } from '../content/events.js';
import { filterTitleHtml, hasAllowedScheme } from '../content/kses.js';
import { stripAllTags } from '../content/render.js';
import { localToUtc, parseRestDate, utcToLocal } from '../content/dates.js';
import { nowDates } from '../content/service.js';
import { capabilitiesOf } from '../auth/capabilities.js';
import { columnOrder, sortByPosition, type SortedList } from '../db/list.js';
import { POST_SELECT, canEditCommentOn, canReadCommentOn, canReadCommentPost, commentPost, type CommentPost } from './read.js';

type Where = PrismaNS.CommentWhereInput;

// ---------------------------------------------------------------- discussion settings

/**
 * WordPress's discussion options, read from the Option table. `rest_allow_anonymous_comments`
 * stands for WordPress's filter of that name (off by default: anonymous REST comments are refused);
 * `empty_trash_days` for its EMPTY_TRASH_DAYS constant (0: no trash, DELETE needs force).
 */
export interface DiscussionSettings {
  commentRegistration: boolean;
  requireNameEmail: boolean;
  commentModeration: boolean;
  previouslyApproved: boolean;
  maxLinks: number;
  allowAnonymousRest: boolean;
  emptyTrashDays: number;
}

const DISCUSSION_DEFAULTS: Record<string, unknown> = {
  comment_registration: 0, require_name_email: 1, comment_moderation: 0, comment_previously_approved: 1,
  comment_max_links: 2, rest_allow_anonymous_comments: false, empty_trash_days: 30,
};

const truthy = (v: unknown) => v === true || v === 1 || v === '1' || v === 'true';

export async function discussionSettings(ctx: Context): Promise<DiscussionSettings> {
  const rows = await ctx.prisma.option.findMany({ where: { name: { in: Object.keys(DISCUSSION_DEFAULTS) } }, select: { name: true, value: true } });
  const o: Record<string, unknown> = { ...DISCUSSION_DEFAULTS };
  for (const r of rows) {
    try { o[r.name] = JSON.parse(r.value); } catch { o[r.name] = r.value; }
  }
  const num = (v: unknown, d: number) => (Number.isFinite(Number(v)) ? Number(v) : d);
  return {
    commentRegistration: truthy(o.comment_registration), requireNameEmail: truthy(o.require_name_email), commentModeration: truthy(o.comment_moderation),
    previouslyApproved: truthy(o.comment_previously_approved), maxLinks: num(o.comment_max_links, 2), allowAnonymousRest: truthy(o.rest_allow_anonymous_comments),
    emptyTrashDays: num(o.empty_trash_days, 30),
  };
}

// ---------------------------------------------------------------- reading

export async function findComment(ctx: Context, id: number): Promise<Comment> {
  const row = id > 0 ? await ctx.prisma.comment.findUnique({ where: { id } }) : null;
  if (!row) throw restError('rest_comment_invalid_id', 'Invalid comment ID.', 404);
  return row;
}

/** The item check of the controller's single reads: the comment's item must exist. */
async function postOf(ctx: Context, c: Comment): Promise<CommentPost> {
  const post = await commentPost(ctx, c.postId);
  if (!post) throw restError('rest_post_invalid_id', 'Invalid post ID.', 404);
  return post;
}

/** get_item_permissions_check after the edit context: the comment, then its item. */
export async function checkReadComment(ctx: Context, id: number, password?: string | null): Promise<Comment> {
  const c = await findComment(ctx, id);
  const post = await postOf(ctx, c);
  if (password) ctx.offeredPasswords.set(post.id, password);
  if (!canReadCommentOn(ctx, c, post, password)) throw restError('rest_cannot_read', 'Sorry, you are not allowed to read this comment.', authStatus(!!ctx.viewer));
  if (!canReadCommentPost(ctx, post, password)) throw restError('rest_cannot_read_post', 'Sorry, you are not allowed to read the post for this comment.', authStatus(!!ctx.viewer));
  return c;
}

export interface CommentListFilter {
  search?: string | null;
  after?: string | null;
  before?: string | null;
  author?: number[] | null;
  authorExclude?: number[] | null;
  authorEmail?: string | null;
  exclude?: number[] | null;
  include?: number[] | null;
  parent?: number[] | null;
  parentExclude?: number[] | null;
  post?: number[] | null;
  status?: string | null;
  type?: string | null;
  password?: string | null;
}

export interface CommentPaging { order: 'asc' | 'desc'; orderby: string }

/**
 * get_items_permissions_check: each named item readable (a password counts when one item is
 * named), no item 0 unless moderating, and the filters that need authorization (author,
 * author_exclude, author_email, a type other than comment, a status other than approve) only for
 * those who may edit posts.
 */
export async function checkCommentListAccess(ctx: Context, f: CommentListFilter): Promise<void> {
  const posts = f.post ?? [];
  for (const id of posts) {
    if (id === 0) {
      if (!ctx.can('moderate_comments')) throw restError('rest_cannot_read', 'Sorry, you are not allowed to read comments without a post.', authStatus(!!ctx.viewer));
      continue;
    }
    const post = await commentPost(ctx, id);
    if (post && !canReadCommentPost(ctx, post, posts.length === 1 ? f.password : null)) {
      throw restError('rest_cannot_read_post', 'Sorry, you are not allowed to read the post for this comment.', authStatus(!!ctx.viewer));
    }
  }
  if (!ctx.can('edit_posts')) {
    const forbidden: string[] = [];
    if (f.author?.length) forbidden.push('author');
    if (f.authorExclude?.length) forbidden.push('author_exclude');
    if (f.authorEmail) forbidden.push('author_email');
    if ((f.type ?? 'comment') !== 'comment') forbidden.push('type');
    if ((f.status ?? 'approve') !== 'approve') forbidden.push('status');
    if (forbidden.length) throw restError('rest_forbidden_param', `Query parameter not permitted: ${forbidden.join(', ')}`, authStatus(!!ctx.viewer));
  }
  if (posts.length === 1 && f.password) ctx.offeredPasswords.set(posts[0], f.password);
}

/** WP_Comment_Query's status argument: approve, hold, all (both), or a stored status as it is. */
function statusWhere(status: string): Where {
  switch (status) {
    case 'approve': case '1': return { status: 'approved' };
    case 'hold': case '0': return { status: 'hold' };
    case 'all': case 'any': case '': return { status: { in: ['approved', 'hold'] } };
    default: return { status };
  }
}

/** WP_Comment_Query's type argument: a type, `comments` (comment), `pings` (pingback, trackback) or `all`. */
function typeWhere(type: string): Where | null {
  if (type === 'all' || type === '') return null;
  if (type === 'comments') return { type: 'comment' };
  if (type === 'pings') return { type: { in: ['pingback', 'trackback'] } };
  return { type };
}

function dateBound(site: Awaited<ReturnType<Context['site']>>, value: string, param: string): Date {
  const parsed = parseRestDate(value);
  if (!parsed || parsed.impossible) invalidParam(param, 'rest_invalid_date', 'Invalid date.');
  const { y, m, d, H, M, S } = parsed.fields;
  const naive = new Date(Date.UTC(y, m - 1, d, H, M, S));
  return parsed.offsetMinutes === null ? naive : utcToLocal(site, new Date(naive.getTime() - parsed.offsetMinutes * 60_000));
}

export async function commentListWhere(ctx: Context, f: CommentListFilter): Promise<Where> {
  const and: Where[] = [statusWhere(f.status ?? 'approve')];
  const type = typeWhere(f.type ?? 'comment');
  if (type) and.push(type);
  if (f.post?.length) and.push({ postId: { in: f.post } });
  if (f.parent?.length) and.push({ parentId: { in: f.parent } });
  if (f.parentExclude?.length) and.push({ parentId: { notIn: f.parentExclude } });
  if (f.include?.length) and.push({ id: { in: f.include } });
  if (f.exclude?.length) and.push({ id: { notIn: f.exclude } });
  if (f.author?.length) and.push({ userId: { in: f.author } });
  if (f.authorExclude?.length) and.push({ userId: { notIn: f.authorExclude } });
  if (f.authorEmail) and.push({ authorEmail: f.authorEmail });
  if (f.after || f.before) {
    const site = await ctx.site();
    if (f.after) and.push({ date: { gt: dateBound(site, f.after, 'after') } });
    if (f.before) and.push({ date: { lt: dateBound(site, f.before, 'before') } });
  }
  if (f.search) {
    // WP_Comment_Query searches the author's name, e-mail, URL and address and the text, as LIKE
    // (without regard to case, as MySQL's collations; SQLite's LIKE already is for ASCII).
    const mode = ctx.db.provider === 'postgres' ? ({ mode: 'insensitive' } as const) : {};
    and.push({ OR: (['authorName', 'authorEmail', 'authorUrl', 'authorIp', 'content'] as const).map((c) => ({ [c]: { contains: f.search!, ...mode } })) });
  }
  return { AND: and };
}

const ORDER_COLUMNS = { date: 'date', date_gmt: 'dateGmt', id: 'id', post: 'postId', parent: 'parentId', type: 'type' } as const;

/** The list's order (the id breaks ties, in the same direction, as WordPress adds it to date orders). */
export function commentListOrder(p: CommentPaging): PrismaNS.CommentOrderByWithRelationInput[] {
  return columnOrder<string>(ORDER_COLUMNS, p.orderby, p.order, 'dateGmt') as PrismaNS.CommentOrderByWithRelationInput[];
}

/** orderby=include with an include list: the matches in the list's order (ids only), else null. */
export async function sortedComments(ctx: Context, where: Where, f: CommentListFilter, p: CommentPaging): Promise<SortedList | null> {
  if (p.orderby !== 'include' || !f.include?.length) return null;
  const rows = await ctx.prisma.comment.findMany({ where, select: { id: true } });
  const at = new Map(f.include.map((id, i) => [id, i]));
  return sortByPosition(rows, (r) => at.get(r.id), p.order === 'desc');
}

// ---------------------------------------------------------------- writing

export interface CommentInput {
  post?: number | null;
  parent?: number | null;
  author?: number | null;
  authorName?: string | null;
  authorEmail?: string | null;
  authorUrl?: string | null;
  authorIp?: string | null;
  authorUserAgent?: string | null;
  content?: string | null;
  date?: string | null;
  dateGmt?: string | null;
  status?: string | null;
}

/** Who is writing: the address and user agent of the request (REST, GraphQL or the form). */
export interface CommentClient { ip: string; userAgent: string }

const clientOf = (ctx: Context): CommentClient => ({ ip: ctx.client?.ip || '127.0.0.1', userAgent: ctx.client?.userAgent ?? '' });

/** wp_check_comment_data_max_lengths: the column sizes of WordPress's comments table. */
function checkLengths(c: { authorName?: string; authorEmail?: string; authorUrl?: string; content?: string }): void {
  const limits: [keyof typeof c, number, string][] = [['authorName', 245, 'comment_author_column_length'], ['authorEmail', 100, 'comment_author_email_column_length'], ['authorUrl', 200, 'comment_author_url_column_length'], ['content', 65525, 'comment_content_column_length']];
  for (const [key, max, code] of limits) {
    if ((c[key]?.length ?? 0) > max) throw restError(code, 'Comment field exceeds maximum length allowed.', 400);
  }
}

const EMAIL = /^[A-Za-z0-9._%+'-]+@[A-Za-z0-9-]+(?:\.[A-Za-z0-9-]+)+$/;

/** check_comment_author_email: empty, or a valid address. */
function checkEmail(email: string): string {
  const v = email.trim();
  if (v && !EMAIL.test(v)) invalidParam('authorEmail', 'rest_invalid_email', 'Invalid email address.');
  return v;
}

/** pre_comment_author_url (esc_url_raw): a URL with a scheme kses allows, else nothing. */
function cleanUrl(url: string): string {
  const v = url.trim();
  if (!v) return '';
  const withScheme = /^[a-z][a-z0-9+.-]*:/i.test(v) ? v : `http://${v}`;
  return hasAllowedScheme(withScheme) && !/[<>"\s]/.test(withScheme) ? withScheme : '';
}

/** pre_comment_author_name: text only (tags and line breaks go), trimmed. */
const cleanName = (name: string) => stripAllTags(name).replace(/[\r\n\t]+/g, ' ').trim();

/** pre_comment_content: the text filtered as wp_filter_kses ($allowedtags) unless the caller has unfiltered_html. */
export function filterCommentContent(ctx: Context, content: string): string {
  return ctx.can('unfiltered_html') ? content : filterTitleHtml(content);
}

/** A REST status value as stored: approve/1 → approved, hold/0 → hold, spam, trash; null when not a status. */
function storedStatus(value: string, current: Comment | null): string | null {
  switch (value) {
    case 'approved': case 'approve': case '1': return 'approved';
    case 'hold': case '0': return 'hold';
    case 'spam': return 'spam';
    case 'trash': return 'trash';
    case 'unspam': return current?.status === 'spam' ? current.trashedStatus || 'hold' : null;
    case 'untrash': return current?.status === 'trash' ? current.trashedStatus || 'hold' : null;
    default: return null;
  }
}

function resolveDates(site: Awaited<ReturnType<Context['site']>>, input: CommentInput): { date: Date; dateGmt: Date } | null {
  const given = input.date ? { value: input.date, gmt: false, param: 'date' } : input.dateGmt ? { value: input.dateGmt, gmt: true, param: 'dateGmt' } : null;
  if (!given) return null;
  const parsed = parseRestDate(given.value);
  if (!parsed || parsed.impossible) invalidParam(given.param, 'rest_invalid_date', 'Invalid date.');
  const { y, m, d, H, M, S } = parsed.fields;
  const naive = new Date(Date.UTC(y, m - 1, d, H, M, S));
  if (given.gmt || parsed.offsetMinutes !== null) {
    const utc = new Date(naive.getTime() - (parsed.offsetMinutes ?? 0) * 60_000);
    return { date: utcToLocal(site, utc), dateGmt: utc };
  }
  return { date: naive, dateGmt: localToUtc(site, naive) };
}

/** A parent must be a comment on the same item (WordPress stores any number; threads here stay whole). */
async function checkParent(ctx: Context, parent: number, postId: number): Promise<void> {
  if (!parent) return;
  const row = await ctx.prisma.comment.findUnique({ where: { id: parent }, select: { postId: true } });
  if (!row || row.postId !== postId) invalidParam('parent', 'rest_comment_invalid_parent', 'Invalid comment parent ID.');
}

/** The user a comment is attributed to (`author`), or rest_comment_author_invalid. */
async function authorUser(ctx: Context, id: number) {
  const user = id > 0 ? await ctx.prisma.user.findUnique({ where: { id }, select: { id: true, displayName: true, login: true, email: true, url: true, role: true } }) : null;
  if (!user) throw restError('rest_comment_author_invalid', 'Invalid comment author ID.', 400);
  return user;
}

interface NewComment {
  postId: number; parentId: number; userId: number; authorName: string; authorEmail: string; authorUrl: string;
  authorIp: string; authorAgent: string; content: string; date: Date; dateGmt: Date; type: string;
}

/**
 * wp_allow_comment: a duplicate (same item, parent, author name or e-mail and text, not trashed)
 * is refused, then a flood (the same user, or address, or e-mail, less than 15 seconds after
 * their last comment within the hour; moderators are never throttled), then the status: approved
 * for the item's author and moderators, otherwise check_comment's moderation rules.
 */
async function allowComment(ctx: Context, c: NewComment, post: CommentPost, settings: DiscussionSettings, status: number): Promise<string> {
  const sameAuthor: Where[] = [{ authorName: c.authorName }];
  if (c.authorEmail) sameAuthor.push({ authorEmail: c.authorEmail });
  const dupe = await ctx.prisma.comment.findFirst({ where: { postId: c.postId, parentId: c.parentId, status: { not: 'trash' }, OR: sameAuthor, content: c.content }, select: { id: true } });
  if (dupe) throw restError('comment_duplicate', 'Duplicate comment detected; it looks as though you&#8217;ve already said that!', 409);

  if (!ctx.can('manage_options') && !ctx.can('moderate_comments')) {
    const who: Where[] = [ctx.viewer ? { userId: ctx.viewer.id } : { authorIp: c.authorIp }];
    if (c.authorEmail) who.push({ authorEmail: c.authorEmail });
    const last = await ctx.prisma.comment.findFirst({
      where: { dateGmt: { gte: new Date(c.dateGmt.getTime() - 3600_000) }, OR: who }, orderBy: { dateGmt: 'desc' }, select: { dateGmt: true },
    });
    if (last && c.dateGmt.getTime() - last.dateGmt.getTime() < 15_000) throw restError('comment_flood', 'You are posting comments too quickly. Slow down.', status);
  }

  if (c.userId) {
    const caps = c.userId === ctx.viewer?.id ? ctx.viewer.caps : capabilitiesOf((await ctx.prisma.user.findUnique({ where: { id: c.userId }, select: { role: true } }))?.role ?? '');
    if (c.userId === post.authorId || caps.has('moderate_comments')) return 'approved';
  }
  return (await checkComment(ctx, c, settings)) ? 'approved' : 'hold';
}

/** check_comment: manual moderation, too many links, and a first comment held until one is approved. */
async function checkComment(ctx: Context, c: NewComment, settings: DiscussionSettings): Promise<boolean> {
  if (settings.commentModeration) return false;
  if (settings.maxLinks > 0 && (c.content.match(/<a [^>]*href/gi)?.length ?? 0) >= settings.maxLinks) return false;
  if (!settings.previouslyApproved) return true;
  if (c.type !== 'comment' || !c.authorName || !c.authorEmail) return false;
  const user = await ctx.prisma.user.findFirst({ where: { email: c.authorEmail }, select: { id: true } });
  const earlier = await ctx.prisma.comment.findFirst({
    where: user ? { userId: user.id, status: 'approved' } : { authorName: c.authorName, authorEmail: c.authorEmail, status: 'approved' }, select: { id: true },
  });
  return !!earlier;
}

const eventData = (c: { postId: number; parentId: number; status: string }) => ({ post: c.postId, parent: c.parentId, status: c.status });

async function record(tx: Tx, ctx: Context, action: ContentAction, c: Comment, previousStatus: string): Promise<void> {
  await recordContentEvent(tx, ctx.db, {
    kind: 'comment', action, type: c.type, id: c.id, status: c.status, previousStatus, authorId: c.userId, parentId: c.postId, data: eventData(c),
  });
}

/**
 * create_item_permissions_check, in its order: signed in (or anonymous comments allowed), the
 * fields only moderators set, the item (exists, not a draft, not trashed, readable, open).
 */
async function checkCreate(ctx: Context, input: CommentInput, client: CommentClient, settings: DiscussionSettings, o: { form?: boolean }): Promise<CommentPost> {
  const moderator = ctx.can('moderate_comments');
  if (!ctx.viewer && !o.form && (settings.commentRegistration || !settings.allowAnonymousRest)) {
    throw restError('rest_comment_login_required', 'Sorry, you must be logged in to comment.', 401);
  }
  if (input.author != null && input.author !== (ctx.viewer?.id ?? 0) && !moderator) {
    throw restError('rest_comment_invalid_author', "Sorry, you are not allowed to edit 'author' for comments.", authStatus(!!ctx.viewer));
  }
  if (input.authorIp != null && !moderator && input.authorIp !== client.ip) {
    throw restError('rest_comment_invalid_author_ip', "Sorry, you are not allowed to edit 'author_ip' for comments.", authStatus(!!ctx.viewer));
  }
  if (input.status != null && !moderator) {
    throw restError('rest_comment_invalid_status', "Sorry, you are not allowed to edit 'status' for comments.", authStatus(!!ctx.viewer));
  }
  const post = input.post ? await commentPost(ctx, input.post) : null;
  if (!post) throw restError('rest_comment_invalid_post_id', 'Sorry, you are not allowed to create this comment without a post.', 403);
  if (post.status === 'draft') throw restError('rest_comment_draft_post', 'Sorry, you are not allowed to create a comment on this post.', 403);
  if (post.status === 'trash') throw restError('rest_comment_trash_post', 'Sorry, you are not allowed to create a comment on this post.', 403);
  if (!canReadCommentPost(ctx, post)) throw restError('rest_cannot_read_post', 'Sorry, you are not allowed to read the post for this comment.', authStatus(!!ctx.viewer));
  if (post.commentStatus !== 'open') throw restError('rest_comment_closed', 'Sorry, comments are closed for this item.', 403);
  return post;
}

export interface CreateOptions {
  /** The classic form (wp_handle_comment_submission): anonymous comments need only comment_registration off. */
  form?: boolean;
}

/** Creates a comment (the REST create, GraphQL's createComment and the site's form); returns its id. */
export async function createComment(ctx: Context, input: CommentInput, o: CreateOptions = {}): Promise<number> {
  const client = clientOf(ctx);
  const settings = await discussionSettings(ctx);
  const post = await checkCreate(ctx, input, client, settings, o);
  const site = await ctx.site();
  const moderator = ctx.can('moderate_comments');

  const content = filterCommentContent(ctx, (input.content ?? '').trim());
  if (!content) throw restError('rest_comment_content_invalid', 'Invalid comment content.', 400);
  const parentId = input.parent ?? 0;
  await checkParent(ctx, parentId, post.id);

  let userId = 0, authorName = '', authorEmail = '', authorUrl = '';
  if (input.author != null && input.author !== 0) {
    const user = await authorUser(ctx, input.author);
    ({ id: userId, email: authorEmail, url: authorUrl } = user);
    authorName = user.displayName || user.login;
  }
  if (input.authorName != null) authorName = cleanName(input.authorName);
  if (input.authorEmail != null) authorEmail = checkEmail(input.authorEmail);
  if (input.authorUrl != null) authorUrl = cleanUrl(input.authorUrl);
  // Signed in and naming no author at all: the caller, as WordPress fills it in.
  if (ctx.viewer && !userId && !authorName && !authorEmail && !authorUrl) {
    const me = await authorUser(ctx, ctx.viewer.id);
    ({ id: userId, email: authorEmail, url: authorUrl } = me);
    authorName = me.displayName || me.login;
  }
  if (settings.requireNameEmail && (!authorName || !authorEmail)) {
    throw restError('rest_comment_author_data_required', 'Creating a comment requires valid author name and email values.', 400);
  }
  const authorIp = input.authorIp != null && moderator ? input.authorIp : client.ip;
  const authorAgent = input.authorUserAgent || client.userAgent;
  checkLengths({ authorName, authorEmail, authorUrl, content });

  const now = nowDates(site);
  const dates = resolveDates(site, input) ?? { date: now.local, dateGmt: now.gmt };
  const row: NewComment = { postId: post.id, parentId, userId, authorName, authorEmail, authorUrl, authorIp, authorAgent: authorAgent.slice(0, 255), content, type: 'comment', ...dates };
  // The REST route answers a flood with 400, the form with WordPress's 429.
  const approved = await allowComment(ctx, row, post, settings, o.form ? 429 : 400);
  const given = input.status != null ? storedStatus(input.status, null) : null;
  const status = given ?? approved;

  const id = await ctx.prisma.$transaction(async (tx) => {
    const created = await tx.comment.create({ data: { ...row, status, trashedStatus: status === 'trash' || status === 'spam' ? approved : '' } });
    await record(tx, ctx, 'created', created, '');
    return created.id;
  });
  return id;
}

/** update_item_permissions_check: the comment, then the right to edit it. */
export async function checkEditComment(ctx: Context, id: number, verb: 'edit' | 'delete'): Promise<Comment> {
  const c = await findComment(ctx, id);
  const post = await commentPost(ctx, c.postId);
  if (!canEditCommentOn(ctx, post)) {
    throw verb === 'edit'
      ? restError('rest_cannot_edit', 'Sorry, you are not allowed to edit this comment.', authStatus(!!ctx.viewer))
      : restError('rest_cannot_delete', 'Sorry, you are not allowed to delete this comment.', authStatus(!!ctx.viewer));
  }
  return c;
}

/** Updates a comment's fields and, through `status`, moderates it; returns its id. */
export async function updateComment(ctx: Context, id: number, input: CommentInput & { type?: string | null }): Promise<number> {
  const existing = await checkEditComment(ctx, id, 'edit');
  if (input.type != null && input.type !== existing.type) throw restError('rest_comment_invalid_type', 'Sorry, you are not allowed to change the comment type.', 404);
  const site = await ctx.site();
  const data: PrismaNS.CommentUncheckedUpdateInput = {};
  let postId = existing.postId;
  if (input.post != null && input.post !== existing.postId) {
    const post = await ctx.prisma.content.findUnique({ where: { id: input.post }, select: POST_SELECT });
    if (!post) throw restError('rest_comment_invalid_post_id', 'Invalid post ID.', 403);
    data.postId = postId = post.id;
  }
  if (input.parent != null && input.parent !== existing.parentId) {
    if (input.parent === existing.id) invalidParam('parent', 'rest_comment_invalid_parent', 'Invalid comment parent ID.');
    await checkParent(ctx, input.parent, postId);
    data.parentId = input.parent;
  }
  if (input.content != null) {
    const content = filterCommentContent(ctx, input.content.trim());
    if (!content) throw restError('rest_comment_content_invalid', 'Invalid comment content.', 400);
    data.content = content;
  }
  if (input.author != null) {
    if (input.author === 0) data.userId = 0;
    else {
      const user = await authorUser(ctx, input.author);
      Object.assign(data, { userId: user.id, authorName: user.displayName || user.login, authorEmail: user.email, authorUrl: user.url });
    }
  }
  if (input.authorName != null) data.authorName = cleanName(input.authorName);
  if (input.authorEmail != null) data.authorEmail = checkEmail(input.authorEmail);
  if (input.authorUrl != null) data.authorUrl = cleanUrl(input.authorUrl);
  if (input.authorIp != null && ctx.can('moderate_comments')) data.authorIp = input.authorIp;
  if (input.authorUserAgent) data.authorAgent = input.authorUserAgent.slice(0, 255);
  const dates = resolveDates(site, input);
  if (dates) Object.assign(data, dates);
  checkLengths({ authorName: data.authorName as string | undefined, authorEmail: data.authorEmail as string | undefined, authorUrl: data.authorUrl as string | undefined, content: data.content as string | undefined });

  let action: ContentAction = 'updated';
  if (input.status != null) {
    // handle_status_param: a value that is no status, or the current one, changes nothing.
    const status = storedStatus(input.status, existing);
    if (status && status !== existing.status) {
      data.status = status;
      if (status === 'trash' || status === 'spam') { data.trashedStatus = existing.status; if (status === 'trash') action = 'trashed'; }
      else data.trashedStatus = '';
    }
  }
  await ctx.prisma.$transaction(async (tx) => {
    const saved = await tx.comment.update({ where: { id }, data });
    await record(tx, ctx, action, saved, existing.status);
  });
  return id;
}

/** delete_item's checks: the right (as editing), then, without force, a trash that exists and a comment not in it. */
export async function checkDeleteComment(ctx: Context, id: number, force: boolean): Promise<Comment> {
  const c = await checkEditComment(ctx, id, 'delete');
  if (!force) {
    const settings = await discussionSettings(ctx);
    if (settings.emptyTrashDays <= 0) throw restError('rest_trash_not_supported', "The comment does not support trashing. Set 'force=true' to delete.", 501);
    if (c.status === 'trash') throw restError('rest_already_trashed', 'The comment has already been trashed.', 410);
  }
  return c;
}

/** wp_trash_comment: status trash, the previous one kept for untrash. */
export async function trashComment(ctx: Context, c: Comment): Promise<void> {
  await ctx.prisma.$transaction(async (tx) => {
    const saved = await tx.comment.update({ where: { id: c.id }, data: { status: 'trash', trashedStatus: c.status } });
    await record(tx, ctx, 'trashed', saved, c.status);
  });
}

/** wp_delete_comment with force: its replies move up to its parent, then it goes. */
export async function deleteComment(ctx: Context, c: Comment): Promise<void> {
  await ctx.prisma.$transaction(async (tx) => {
    await tx.comment.updateMany({ where: { parentId: c.id }, data: { parentId: c.parentId } });
    const gone = await tx.comment.delete({ where: { id: c.id } });
    await record(tx, ctx, 'deleted', gone, gone.status);
  });
}

/** wp_count_comments: comments per status (of one item, or of the site), for those who may edit posts. */
export interface CommentCounts { approved: number; hold: number; spam: number; trash: number; postTrashed: number; all: number; totalComments: number }

export async function countComments(ctx: Context, postId: number | null): Promise<CommentCounts> {
  if (!ctx.can('edit_posts')) throw restError('rest_forbidden', 'Sorry, you are not allowed to do that.', authStatus(!!ctx.viewer));
  const rows = await ctx.prisma.comment.groupBy({ by: ['status'], where: postId ? { postId } : {}, _count: { _all: true } });
  const of = (status: string) => rows.find((r) => r.status === status)?._count._all ?? 0;
  const approved = of('approved'), hold = of('hold'), spam = of('spam');
  // As WordPress: `all` is approved and held, `total_comments` adds spam.
  return { approved, hold, spam, trash: of('trash'), postTrashed: of('post-trashed'), all: approved + hold, totalComments: approved + hold + spam };
}
