// Comments in GraphQL: the `Comment` type (a Node) with the fields of its definition
// (src/resources/comments.ts) and its relations — the item it is on (`post { node }`), the comment
// it replies to (`parent { node }`), the signed-in user who wrote it (`author { node }`, null for
// an anonymous author, whose name, e-mail and URL are the comment's own fields) and its `replies`;
// `comment`, the REST-shaped page list `commentList`, the `comments` connection (first/after/where,
// as WPGraphQL names it), a `comments` connection on every content type, and the writes.
import { queryFromInfo } from '@pothos/plugin-prisma';
import type { GraphQLResolveInfo } from 'graphql';
import { builder } from '../builder.js';
import { NodeRef } from '../node.js';
import { restError } from '../../errors.js';
import type { Comment, Content, Prisma as PrismaNS, User } from '../../generated/sqlite/client.js';
import type { Context } from '../../context.js';
import { absOffset, cachedCount, keyColumns, type SortedList } from '../../db/list.js';
import { listArgs, listFilterInput, resourceFields, resourceInput } from '../resource-types.js';
import { connectionArgs, connectionType, keysetConnection, sortedConnection, MAX_WINDOW, type ConnectionArgs, type ConnectionShape } from '../connections.js';
import { CommentList, CommentResource, type CommentTextValue } from '../../resources/comments.js';
import { CONTENT_TYPES, POST_LIKE_TYPES } from '../../resources/content-types.js';
import { readableRows } from '../../content/service.js';
import { checkReadUser } from '../../users/service.js';
import { readableComments } from '../../comments/read.js';
import {
  checkCommentListAccess, checkDeleteComment, checkReadComment, commentListOrder, commentListWhere, countComments as commentCounts, createComment, deleteComment,
  sortedComments, trashComment, updateComment, type CommentCounts, type CommentInput, type CommentListFilter, type CommentPaging,
} from '../../comments/service.js';
import { contentRef } from '../content/registered.js';
import { MediaRef } from '../media/index.js';
import { UserRef } from '../users/types.js';
import { typeNameOf } from '../node.js';

builder.objectRef<CommentTextValue>('CommentText').implement({
  description: 'A comment\'s text: stored (raw) and as displayed (rendered).',
  fields: (t) => ({
    raw: t.string({ nullable: true, description: 'The stored text; null unless the caller may edit the comment.', resolve: (v) => v.raw }),
    rendered: t.string({ description: 'HTML as displayed (texturized, in paragraphs).', resolve: (v) => v.rendered }),
  }),
});

export const CommentRef = builder.prismaObject('Comment', {
  description: CommentResource.description,
  interfaces: [NodeRef],
  fields: (t) => resourceFields(t, CommentResource) as never,
});

const CommentInputType = resourceInput(CommentResource, { description: 'Writable fields of a comment; on create `post` and the text are required (and a name and e-mail from anonymous authors).' });

// ---------------------------------------------------------------- relations

/** Items a comment can be on: the post-like types and media. */
const CommentedItem = builder.unionType('CommentedItem', {
  description: 'The item a comment is on: a post, a page, a media item or an item of another content type of the site.',
  types: [...POST_LIKE_TYPES.map((d) => contentRef(d.type)), MediaRef] as never,
  resolveType: (row) => typeNameOf(row as object),
});

const edge = (name: string, node: unknown, description: string) => builder.objectRef<{ node: unknown }>(name).implement({
  description, fields: (t) => ({ node: t.field({ type: node as never, description: 'The record.', resolve: (e) => e.node as never }) }),
});
const CommentPostEdge = edge('CommentPostEdge', CommentedItem, 'The item a comment is on.');
const CommentParentEdge = edge('CommentParentEdge', CommentRef, 'The comment a comment replies to.');
const CommentAuthorEdge = edge('CommentAuthorEdge', UserRef, 'The signed-in user who wrote a comment.');
const CommentRelationEdge = edge('CommentRelationEdge', CommentRef, 'One comment reached through a relation.');

/** Content rows by id that the caller may read, batched per request. */
const itemById = (ctx: Context) => ctx.loader<number, Content | null>('comments:item', async (ids) => {
  const rows = await ctx.prisma.content.findMany({ where: { id: { in: [...ids] }, type: { in: CONTENT_TYPES.map((d) => d.type) } } });
  const readable = new Map((await readableRows(ctx, rows)).map((r) => [r.id, r]));
  return ids.map((id) => readable.get(id) ?? null);
});

const commentById = (ctx: Context) => ctx.loader<number, Comment | null>('comments:byId', async (ids) => {
  const rows = await ctx.prisma.comment.findMany({ where: { id: { in: [...ids] } } });
  const readable = new Set(await readableComments(ctx, rows));
  return ids.map((id) => rows.find((r) => r.id === id && readable.has(r)) ?? null);
});

/** The comments on items, or replying to comments, that the caller may read: oldest first, batched per request. */
function commentsOf(ctx: Context, link: 'postId' | 'parentId', first: number) {
  return ctx.loader<number, Comment[]>(`comments:of:${link}:${first}`, async (ids) => {
    const rows = await ctx.prisma.comment.findMany({ where: { [link]: { in: [...ids] }, type: 'comment', status: { in: ['approved', 'hold', 'spam'] } }, orderBy: [{ dateGmt: 'asc' }, { id: 'asc' }] });
    const readable = await readableComments(ctx, rows);
    return ids.map((id) => readable.filter((r) => r[link] === id).slice(0, first));
  });
}

const CommentListConnection = builder.objectRef<{ load: () => Promise<Comment[]> }>('CommentRelationConnection').implement({
  description: 'Comments reached through a relation (an item\'s comments, a comment\'s replies), oldest first.',
  fields: (t) => ({
    nodes: t.field({ type: [CommentRef], description: 'The comments the caller may read.', resolve: (c) => c.load() }),
    edges: t.field({ type: [CommentRelationEdge], description: 'The same comments as edges (`node`).', resolve: async (c) => (await c.load()).map((node) => ({ node })) }),
  }),
});

const relationFirst = (t: { arg: { int: (o: object) => unknown } }, what: string) => t.arg.int({ required: false, defaultValue: 100, description: `How many ${what} (at most ${MAX_WINDOW}).` });
const checkFirst = (n: number | null | undefined) => {
  const first = n ?? 100;
  if (first < 0 || first > MAX_WINDOW) throw restError('rest_invalid_param', 'Invalid parameter(s): first', 400, { params: { first: `first must be between 0 (inclusive) and ${MAX_WINDOW} (inclusive)` } });
  return first;
};

builder.prismaObjectFields(CommentRef, (t) => ({
  post: t.field({
    type: CommentPostEdge, nullable: true, description: 'The item the comment is on; null when the caller may not read it.',
    resolve: async (c, _a, ctx) => { const node = await itemById(ctx).load(c.postId); return node ? { node } : null; },
  }),
  parent: t.field({
    type: CommentParentEdge, nullable: true, description: 'The comment this one replies to; null for a top-level comment or one the caller may not read.',
    resolve: async (c, _a, ctx) => { const node = c.parentId ? await commentById(ctx).load(c.parentId) : null; return node ? { node } : null; },
  }),
  author: t.field({
    type: CommentAuthorEdge, nullable: true,
    description: 'The signed-in user who wrote it, when the caller may see that user; null for an anonymous author (see authorName, authorUrl).',
    resolve: async (c, _a, ctx) => {
      if (!c.userId) return null;
      try { await checkReadUser(ctx, c.userId); } catch { return null; }
      const node = await ctx.prisma.user.findUnique({ where: { id: c.userId } });
      return node ? { node: node as User } : null;
    },
  }),
  replies: t.field({
    type: CommentListConnection, description: 'Comments replying to this one that the caller may read, oldest first.',
    args: { first: relationFirst(t as never, 'replies') as never },
    resolve: (c, args, ctx) => { const first = checkFirst(args.first as number | null); return { load: () => commentsOf(ctx, 'parentId', first).load(c.id) }; },
  }),
}));

/** `comments` on every item type: its comments the caller may read (approved ones for readers), oldest first. */
for (const ref of [...POST_LIKE_TYPES.map((d) => contentRef(d.type)), MediaRef]) {
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  builder.prismaObjectFields(ref as never, ((t: any) => ({
    comments: t.field({
      type: CommentListConnection, description: 'Comments on the item that the caller may read (approved ones for readers), oldest first; `parent { node }` threads them.',
      args: { first: relationFirst(t, 'comments') },
      resolve: (item: { id: number }, args: { first?: number | null }, ctx: Context) => { const first = checkFirst(args.first); return { load: () => commentsOf(ctx, 'postId', first).load(item.id) }; },
    }),
  })) as never);
}

// ---------------------------------------------------------------- queries

interface ListShape {
  where: PrismaNS.CommentWhereInput; orderBy: PrismaNS.CommentOrderByWithRelationInput[]; skip: number; take: number; ids: number[] | null; password: string | null;
  /** One item's comments (what `_embed` asks for, once per item): the filter without the item, read for every item of the request at once. */
  ofPost?: { post: number; where: PrismaNS.CommentWhereInput };
}

const countComments = (ctx: Context, where: object) => cachedCount(ctx, 'comment' as never, where);

const CommentPage = builder.objectRef<ListShape>('CommentList').implement({
  description: 'One page of comments with the totals of the whole filtered list.',
  fields: (t) => ({
    total: t.int({ description: 'Comments matching the filter (before per-comment visibility, as X-WP-Total).', resolve: (l, _a, ctx) => countComments(ctx, l.where) }),
    totalPages: t.int({ description: 'Pages of this size.', resolve: async (l, _a, ctx) => Math.ceil((await countComments(ctx, l.where)) / l.take) }),
    nodes: t.prismaField({
      type: [CommentRef], description: 'The comments of this page the caller may read.',
      resolve: async (query, l, _a, ctx) => {
        if (l.ids) {
          const rows = await ctx.prisma.comment.findMany({ ...query, where: { id: { in: l.ids } } });
          const byId = new Map(rows.map((r) => [r.id, r]));
          return readableComments(ctx, l.ids.map((id) => byId.get(id)!).filter(Boolean), l.password);
        }
        if (l.ofPost) {
          const { where, post } = l.ofPost;
          // Alone, the page is cut by the statement; several items' pages are cut here from one read.
          const rows = await ctx.loader<number, Comment[]>(`comments:ofPost:${JSON.stringify([query, where, l.orderBy, l.skip, l.take])}`, async (posts) => {
            if (posts.length === 1) return [await ctx.prisma.comment.findMany({ ...query, where: { AND: [where, { postId: posts[0] }] }, orderBy: l.orderBy, skip: l.skip, take: l.take })];
            const found = await ctx.prisma.comment.findMany({ ...query, where: { AND: [where, { postId: { in: [...posts] } }] }, orderBy: l.orderBy });
            return posts.map((p) => found.filter((r) => r.postId === p).slice(l.skip, l.skip + l.take));
          }).load(post);
          return readableComments(ctx, rows, l.password);
        }
        return readableComments(ctx, await ctx.prisma.comment.findMany({ ...query, where: l.where, orderBy: l.orderBy, skip: l.skip, take: l.take }), l.password);
      },
    }),
  }),
});

const CommentConnection = connectionType('Comment', CommentRef, 'Comment', 'comment');
type ListArgs = { filter?: CommentListFilter | null; page?: number; perPage?: number; offset?: number | null; order?: string; orderby?: string };

const pagingOf = (args: { order?: string | null; orderby?: string | null }): CommentPaging => ({ order: args.order === 'asc' ? 'asc' : 'desc', orderby: args.orderby ?? 'date_gmt' });

const CommentCountsRef = builder.objectRef<CommentCounts>('CommentCounts').implement({
  description: 'Comments per status, as WordPress\'s wp_count_comments counts them.',
  fields: (t) => ({
    approved: t.exposeInt('approved', { description: 'Approved comments.' }),
    hold: t.exposeInt('hold', { description: 'Comments waiting for moderation.' }),
    spam: t.exposeInt('spam', { description: 'Comments marked as spam.' }),
    trash: t.exposeInt('trash', { description: 'Comments in the trash.' }),
    postTrashed: t.exposeInt('postTrashed', { description: 'Comments whose item is in the trash.' }),
    all: t.exposeInt('all', { description: 'Approved and held comments.' }),
    totalComments: t.exposeInt('totalComments', { description: 'Approved, held and spam comments.' }),
  }),
});

builder.queryFields((t) => ({
  commentCounts: t.field({
    type: CommentCountsRef, description: 'Comments per status, of one item or of the whole site; for those who may edit posts.',
    args: { post: t.arg.int({ required: false, description: 'An item\'s id; every item when left out.' }) },
    resolve: (_r, args, ctx) => commentCounts(ctx, args.post ?? null),
  }),
  comment: t.prismaField({
    type: CommentRef, description: 'One comment by id (with the password of its item when that is protected).',
    args: {
      id: t.arg.int({ required: true, description: 'Id.' }),
      password: t.arg.string({ required: false, description: 'The password of the item the comment is on, when it is protected.' }),
    },
    resolve: async (query, _r, args, ctx) => {
      const c = await checkReadComment(ctx, args.id, args.password);
      return ctx.prisma.comment.findUniqueOrThrow({ ...query, where: { id: c.id } });
    },
  }),
  commentList: t.field({
    type: CommentPage, description: 'A page of comments as the REST collection cuts it (newest first by default; approved comments of type comment unless filtered).',
    args: listArgs(t, CommentList, listFilterInput(CommentList)) as never,
    resolve: async (_r, rawArgs, ctx) => {
      const args = absOffset(rawArgs as ListArgs);
      const filter = (args.filter ?? {}) as CommentListFilter;
      const page = args.page ?? 1;
      const take = args.perPage ?? 10;
      if (page < 1 || take < 1 || take > 100) throw restError('rest_invalid_param', 'Invalid parameter(s): per_page', 400);
      await checkCommentListAccess(ctx, filter);
      const paging = pagingOf(args);
      const where = await commentListWhere(ctx, filter);
      const skip = args.offset ?? (page - 1) * take;
      const sorted = await sortedComments(ctx, where, filter, paging);
      const ofPost = filter.post?.length === 1 && !sorted ? { post: filter.post[0], where: await commentListWhere(ctx, { ...filter, post: null }) } : undefined;
      return { where, orderBy: commentListOrder(paging), skip, take, ids: sorted ? sorted.rows.slice(skip, skip + take).map((r) => r.id) : null, password: filter.password ?? null, ofPost };
    },
  }),
  comments: t.field({
    type: CommentConnection,
    description: 'Comments as a cursor connection (as WPGraphQL names it): the filters, orders and rules of `commentList` and the REST collection, paged with first/after/last/before.',
    args: { ...connectionArgs(t), ...listArgs(t, CommentList, listFilterInput(CommentList), { omit: ['page', 'per_page', 'offset'], filterArg: 'where' }) } as never,
    resolve: async (_r, rawArgs, ctx) => {
      const args = rawArgs as ConnectionArgs & { where?: CommentListFilter | null; order?: string; orderby?: string };
      const filter = (args.where ?? {}) as CommentListFilter;
      await checkCommentListAccess(ctx, filter);
      const paging = pagingOf(args);
      const where = await commentListWhere(ctx, filter);
      const total = () => countComments(ctx, where);
      const order = `comment:${paging.orderby}:${paging.order}`;
      const readable = (rows: Comment[]) => readableComments(ctx, rows, filter.password);
      if (paging.orderby === 'include' && filter.include?.length) {
        let sorted: Promise<SortedList> | undefined;
        const list = () => (sorted ??= sortedComments(ctx, where, filter, paging).then((l) => l!));
        return sortedConnection(args, order, list, { width: 2, total, readByIds: (query, ids) => ctx.prisma.comment.findMany({ ...query, where: { id: { in: ids } } }) as Promise<Comment[]>, readable });
      }
      const orderBy = commentListOrder(paging) as object[];
      return keysetConnection<Comment>(args, {
        order, orderBy, columns: keyColumns('Comment' as never, orderBy),
        read: (query, bound, by, take) => ctx.prisma.comment.findMany({ ...query, where: { AND: [where, bound] }, orderBy: by, take } as never) as Promise<Comment[]>,
        readable,
      }, total) as ConnectionShape;
    },
  }),
}));

// ---------------------------------------------------------------- mutations

const CommentDeleteResult = builder.objectRef<{ deleted: boolean; previous: unknown }>('CommentDeleteResult').implement({
  description: 'A comment deleted for good, with the record as it was.',
  fields: (t) => ({
    deleted: t.boolean({ description: 'Always true.', resolve: (r) => r.deleted }),
    previous: t.field({ type: CommentRef, description: 'The comment before deletion.', resolve: (r) => r.previous as never }),
  }),
});

builder.mutationFields((t) => ({
  createComment: t.prismaField({
    type: CommentRef,
    description: 'Adds a comment to an item. Signed-in callers comment as themselves; anonymous comments need the site to allow them (rest_allow_anonymous_comments) and, by default, a name and e-mail. Duplicates and floods are refused; the status follows the moderation rules unless a moderator sets it.',
    args: { input: t.arg({ type: CommentInputType, required: true, description: 'The comment: `post` and `content` at least.' }) },
    resolve: async (query, _r, args, ctx) => {
      const id = await createComment(ctx, args.input as CommentInput);
      return ctx.prisma.comment.findUniqueOrThrow({ ...query, where: { id } });
    },
  }),
  updateComment: t.prismaField({
    type: CommentRef,
    description: 'Edits a comment or moderates it through `status` (approved, hold, spam, unspam, trash, untrash); needs moderate_comments or the right to edit its item.',
    args: { id: t.arg.int({ required: true, description: 'Id.' }), input: t.arg({ type: CommentInputType, required: true, description: 'The fields to change.' }) },
    resolve: async (query, _r, args, ctx) => {
      const id = await updateComment(ctx, args.id, args.input as CommentInput);
      return ctx.prisma.comment.findUniqueOrThrow({ ...query, where: { id } });
    },
  }),
  trashComment: t.prismaField({
    type: CommentRef, description: 'Moves a comment to the trash and returns it (rest_already_trashed when it is there).',
    args: { id: t.arg.int({ required: true, description: 'Id.' }) },
    resolve: async (query, _r, args, ctx) => {
      const c = await checkDeleteComment(ctx, args.id, false);
      await trashComment(ctx, c);
      return ctx.prisma.comment.findUniqueOrThrow({ ...query, where: { id: c.id } });
    },
  }),
  deleteComment: t.field({
    type: CommentDeleteResult, description: 'Deletes a comment for good; its replies move up to its parent.',
    args: { id: t.arg.int({ required: true, description: 'Id.' }) },
    resolve: async (_r, args, ctx, info: GraphQLResolveInfo) => {
      const c = await checkDeleteComment(ctx, args.id, true);
      const query = queryFromInfo({ context: ctx, info, path: ['previous'], typeName: 'Comment' });
      const previous = await ctx.prisma.comment.findUniqueOrThrow({ ...(query as object), where: { id: c.id } });
      await deleteComment(ctx, c);
      return { deleted: true, previous };
    },
  }),
}));
