// Comments (WordPress's comments controller): one definition for the REST record, the item schema
// and the GraphQL `Comment` type. What a caller may see of a comment (its author's e-mail, address
// and user agent) and the link to it are worked out by the comments service (src/comments/).
import type { Comment } from '../generated/sqlite/client.js';
import type { Context } from '../context.js';
import { ALL_CONTEXTS, EDIT, VIEW_EDIT, collectionParams, defineEnum, defineResource, type FieldDef, type ListDef } from './define.js';
import { Order } from './enums.js';
import { formatWpDate } from '../content/dates.js';
import { avatarUrls } from '../users/service.js';
import { canEditComment, commentHasChildren, commentLink, commentPost, renderCommentText } from '../comments/read.js';

/** A text value of a comment: its stored form (edit context) and its display HTML. */
export interface CommentTextValue { raw: string | null; rendered: string }

export const CommentOrderBy = defineEnum('CommentOrderBy', 'What a comment list is ordered by.', ['date', 'date_gmt', 'id', 'include', 'post', 'parent', 'type'] as const, {
  date: "The date on the site's clock.", date_gmt: 'The date in UTC (the default).', id: 'The id.',
  include: 'The order of the ids given in the `include` filter.', post: "The post's id.", parent: "The parent comment's id.", type: 'The comment type.',
});

/** The content arrives as a string or as `{raw}`, as WordPress's prepare_item_for_database reads it. */
function contentInput(value: unknown): string | undefined {
  if (typeof value === 'string') return value;
  if (value && typeof value === 'object' && typeof (value as { raw?: unknown }).raw === 'string') return (value as { raw: string }).raw;
  return undefined;
}

/** A field only those who may edit the comment see (WordPress's edit context); null for the others in GraphQL. */
const editOnly = (f: Omit<FieldDef, 'contexts' | 'nullable'>, column: keyof Comment): FieldDef => ({
  ...f, contexts: EDIT, nullable: true, column,
  graphqlDescription: `${f.description} Null unless the caller may edit the comment.`,
  resolve: async (c: Comment, _a: unknown, ctx: Context) => ((await canEditComment(ctx, c)) ? c[column] : null),
});

export const CommentResource = defineResource({
  name: 'Comment', title: 'comment', description: 'A comment on a post, page or item of another content type; comments reply to each other in threads.',
  fields: {
    databaseId: { kind: 'integer', rest: 'id', column: 'id', graphqlDescription: 'The id REST uses (in its routes and `id` fields); `id` is the global id.', description: 'Unique identifier for the comment.', contexts: ALL_CONTEXTS, readonly: true },
    postDatabaseId: {
      kind: 'integer', rest: 'post', inputName: 'post', column: 'postId', linkData: '_post', default: 0, contexts: VIEW_EDIT,
      description: 'The ID of the associated post object.', graphqlDescription: 'Id of the item commented on (REST: `post`); `post { node }` is the item.',
    },
    parentDatabaseId: {
      kind: 'integer', rest: 'parent', inputName: 'parent', column: 'parentId', default: 0, contexts: ALL_CONTEXTS,
      description: 'The ID for the parent of the comment.', graphqlDescription: 'Id of the comment this one replies to, 0 for none (REST: `parent`); `parent { node }` is that comment.',
    },
    authorDatabaseId: {
      kind: 'integer', rest: 'author', inputName: 'author', column: 'userId', contexts: ALL_CONTEXTS,
      description: 'The ID of the user object, if author was a user.', graphqlDescription: 'Id of the signed-in user who wrote it, 0 for an anonymous author (REST: `author`); `author { node }` is that user.',
    },
    authorName: { kind: 'string', description: 'Display name for the comment author.', contexts: ALL_CONTEXTS },
    authorEmail: editOnly({ kind: 'email', description: 'Email address for the comment author.', skipValidation: true }, 'authorEmail'),
    authorUrl: { kind: 'uri', graphqlScalar: 'String', description: 'URL for the comment author.', contexts: ALL_CONTEXTS },
    authorIp: editOnly({ kind: 'string', description: 'IP address for the comment author.', schema: { format: 'ip' } }, 'authorIp'),
    authorUserAgent: editOnly({ kind: 'string', description: 'User agent for the comment author.' }, 'authorAgent'),
    date: {
      kind: 'date-time', description: "The date the comment was published, in the site's timezone.", contexts: ALL_CONTEXTS,
      graphqlDescription: "When it was written, on the site's clock. On write: site time, or with an offset.", resolve: (c: Comment) => formatWpDate(c.date),
    },
    dateGmt: { kind: 'date-time', description: 'The date the comment was published, as GMT.', contexts: VIEW_EDIT, resolve: (c: Comment) => formatWpDate(c.dateGmt) },
    content: {
      kind: 'object', graphqlType: 'CommentText', inputKind: 'string', fromRest: contentInput, skipValidation: true, contexts: ALL_CONTEXTS,
      description: 'The content for the comment.', graphqlDescription: 'The comment text: stored (raw, for those who may edit it) and as displayed. Written as a string.',
      properties: {
        raw: { kind: 'string', nullable: true, description: 'Content for the comment, as it exists in the database.', contexts: EDIT },
        rendered: { kind: 'string', description: 'HTML content for the comment, transformed for display.', contexts: ALL_CONTEXTS, readonly: true },
      },
      resolve: async (c: Comment, _a: unknown, ctx: Context): Promise<CommentTextValue> => ({ raw: (await canEditComment(ctx, c)) ? c.content : null, rendered: renderCommentText(c.content) }),
    },
    link: {
      kind: 'uri', description: 'URL to the comment.', contexts: ALL_CONTEXTS, readonly: true,
      graphqlDescription: "The item's permalink with the comment's anchor (`#comment-12`).", resolve: (c: Comment, _a: unknown, ctx: Context) => commentLink(ctx, c),
    },
    status: {
      kind: 'string', description: 'State of the comment.', contexts: VIEW_EDIT,
      graphqlDescription: 'approved, hold, spam, trash, or post-trashed (its item is in the trash). On write: approved (approve, 1), hold (0), spam, unspam, trash or untrash; moderators only.',
    },
    type: { kind: 'string', description: 'Type of the comment.', contexts: ALL_CONTEXTS, readonly: true, default: 'comment', graphqlDescription: 'comment, pingback or trackback.' },
    authorAvatarUrls: {
      kind: 'object', graphqlType: ['Avatar'], selection: '{ size url }', readonly: true, contexts: ALL_CONTEXTS,
      description: 'Avatar URLs for the comment author.', graphqlDescription: "Avatar addresses of the author's e-mail at 24, 48 and 96 pixels.",
      properties: Object.fromEntries([24, 48, 96].map((size) => [String(size), { kind: 'uri' as const, description: `Avatar URL with image size of ${size} pixels.`, contexts: ALL_CONTEXTS }])),
      resolve: (c: Comment) => avatarUrls(c.authorEmail),
    },
    meta: { kind: 'json', description: 'Meta fields.', contexts: VIEW_EDIT, properties: {}, graphqlInput: false, graphqlDescription: 'Registered meta values (none are registered: an empty list).', resolve: () => [] },
    postType: {
      kind: 'string', rest: false, linkData: '_post_type', readonly: true, nullable: true, description: 'The content type of the item commented on (its `up` link names it).',
      resolve: async (c: Comment, _a: unknown, ctx: Context) => (await commentPost(ctx, c.postId))?.type ?? null,
    },
    hasChildren: {
      kind: 'boolean', rest: false, linkData: '_has_children', readonly: true, description: 'Whether any comment replies to this one (its `children` link).',
      resolve: (c: Comment, _a: unknown, ctx: Context) => commentHasChildren(ctx, c.id),
    },
    viewerCanEdit: {
      kind: 'boolean', rest: false, linkData: '_can_edit', readonly: true, description: 'Whether the caller may edit, moderate or delete it.',
      resolve: (c: Comment, _a: unknown, ctx: Context) => canEditComment(ctx, c),
    },
  },
});

// ---------------------------------------------------------------- the collection

const ids = (description: string, dflt?: unknown[]) => ({ in: 'filter' as const, kind: 'integer[]' as const, description, ...(dflt ? { default: dflt } : {}) });

export const CommentList: ListDef = {
  filterName: 'CommentListFilter', description: 'Filters of a comment list; every one optional.',
  params: {
    ...collectionParams({ perPageDefault: 10 }),
    after: { in: 'filter', kind: 'date-time', description: 'Limit response to comments published after a given ISO8601 compliant date.' },
    author: ids('Limit result set to comments assigned to specific user IDs. Requires authorization.'),
    author_exclude: ids('Ensure result set excludes comments assigned to specific user IDs. Requires authorization.'),
    author_email: { in: 'filter', kind: 'email', description: 'Limit result set to that from a specific author email. Requires authorization.', default: null, argSchema: { type: 'string', format: 'email' } },
    before: { in: 'filter', kind: 'date-time', description: 'Limit response to comments published before a given ISO8601 compliant date.' },
    exclude: ids('Ensure result set excludes specific IDs.', []),
    include: ids('Limit result set to specific IDs.', []),
    offset: { in: 'arg', kind: 'integer', description: 'Offset the result set by a specific number of items.' },
    order: { in: 'arg', kind: 'enum', enum: Order, description: 'Order sort attribute ascending or descending.', default: 'desc' },
    orderby: { in: 'arg', kind: 'enum', enum: CommentOrderBy, description: 'Sort collection by comment attribute.', default: 'date_gmt' },
    parent: ids('Limit result set to comments of specific parent IDs.', []),
    parent_exclude: ids('Ensure result set excludes specific parent IDs.', []),
    post: ids('Limit result set to comments assigned to specific post IDs.', []),
    status: {
      in: 'filter', kind: 'string', default: 'approve', description: 'Limit result set to comments assigned a specific status. Requires authorization.',
      graphqlDescription: 'approve (the default), hold, spam, trash, post-trashed or all (approved and held); anything but approve needs edit_posts.',
    },
    type: {
      in: 'filter', kind: 'string', default: 'comment', description: 'Limit result set to comments assigned a specific type. Requires authorization.',
      graphqlDescription: 'comment (the default), pingback, trackback, pings (both), or all; anything but comment needs edit_posts.',
    },
    password: { in: 'filter', kind: 'string', description: 'The password for the post if it is password protected.' },
  },
};
