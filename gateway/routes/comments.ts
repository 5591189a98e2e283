// core/v2/comments (WordPress's comments controller): the collection with every parameter of
// WordPress's, and one comment read, written, trashed or deleted. The rules are the comments
// service's (src/comments/); the handlers run the GraphQL operations of operations/comments.graphql.
import type { ArgDef, Endpoint, GatewayRequest, Params, RouteEntry, RouteResult } from '../types.js';
import type { RestContext } from '../operations.js';
import { WpError } from '../errors.js';
import { contextArg } from '../args/common.js';
import { pagingHeaders } from '../shape/paging.js';
import { errorCode, forbiddenContext } from '../edit-context.js';
import { CURIES } from '../shape/links.js';
import { CommentList, CommentResource } from '../../src/resources/comments.js';
import { contentTypeOf } from '../../src/resources/content-types.js';
import { itemSchema } from '../../src/resources/json-schema.js';
import { collectionArgs, inputOf, listVariables, restItem, writeArgs as resourceWriteArgs } from '../resources.js';

type Item = Record<string, any>;

const BASE = '/core/v2/comments';
const idArg: ArgDef = { description: 'Unique identifier for the comment.', type: 'integer' };
const passwordArg: ArgDef = { description: 'The password for the parent post of the comment (if the post is password protected).', type: 'string' };
const schema = () => itemSchema(CommentResource);
const toRest = restItem(CommentResource);
const contextOf = (p: Params) => (p.context as RestContext) ?? 'view';
const EDIT_REFUSED = 'Sorry, you are not allowed to edit comments.';

/** A comment as WordPress prints it: avatar URLs keyed by size, then `_links` (the controller's prepare_links). */
export function shapeComment(req: GatewayRequest, item: Item): Item {
  const ns = `${req.root}core/v2`;
  if (Array.isArray(item.author_avatar_urls)) item.author_avatar_urls = Object.fromEntries((item.author_avatar_urls as { size: number; url: string }[]).map((a) => [String(a.size), a.url]));
  const links: Record<string, unknown[]> = {
    self: [{ href: `${ns}/comments/${item.id}` }],
    collection: [{ href: `${ns}/comments` }],
  };
  if (item.author) links.author = [{ embeddable: true, href: `${ns}/users/${item.author}` }];
  if (item._post && item._post_type) links.up = [{ embeddable: true, post_type: item._post_type, href: `${ns}/${contentTypeOf(item._post_type).restBase}/${item._post}` }];
  if (item.parent) links['in-reply-to'] = [{ embeddable: true, href: `${ns}/comments/${item.parent}` }];
  if (item._has_children) links.children = [{ embeddable: true, href: `${ns}/comments?parent=${item.id}` }];
  links.curies = CURIES;
  return toRest(item, links);
}

/** The commenter's address and user agent, for the domain (wp_allow_comment's flood check, the stored record). */
function withClient(req: GatewayRequest): void {
  req.ctx.client = { ip: req.ip ?? '', userAgent: req.headers.get('user-agent') ?? '' };
}

const result = (req: GatewayRequest, item: Item, status = 200): RouteResult => ({
  status, body: shapeComment(req, item), allow: item._can_edit ? ['GET', 'POST', 'PUT', 'PATCH', 'DELETE'] : ['GET'],
});

export function commentRoutes(): RouteEntry[] {
  const list: Endpoint = {
    methods: ['GET'], allowBatch: true, permission: 'public', operation: 'CommentsList', args: collectionArgs(CommentList),
    async handler(req) {
      const p = req.params;
      const context = contextOf(p);
      const run = () => req.run(context, { ...listVariables(CommentList, p), withTotal: !req.embedded });
      let data: Record<string, any>;
      if (context === 'edit' && !req.ctx.can('moderate_comments')) {
        // As the controller: a post the caller may not read is refused before the edit context.
        try { await run(); } catch (err) {
          if (['rest_cannot_read_post', 'rest_cannot_read'].includes(errorCode(err) ?? '')) throw err;
        }
        throw forbiddenContext(req.ctx, EDIT_REFUSED);
      } else data = await run();
      const { total, totalPages, nodes } = data.commentList;
      return {
        status: 200, body: nodes.map((n: Item) => shapeComment(req, n)),
        headers: req.embedded ? {} : pagingHeaders(`${req.root}core/v2/comments`, req.query, p.page as number, total, totalPages),
      };
    },
  };

  const create: Endpoint = {
    methods: ['POST'], allowBatch: true, permission: 'public', operation: 'CommentCreate', args: resourceWriteArgs(CommentResource, { create: true }),
    async handler(req) {
      if (req.params.id !== undefined) throw new WpError('rest_comment_exists', 'Cannot create existing comment.', 400);
      withClient(req);
      // The answer is the edit view for moderators, the view for everyone else (as the controller sets it).
      const data = await req.run(req.ctx.can('moderate_comments') ? 'edit' : 'view', { input: inputOf(CommentResource, req.params) });
      const item = data.createComment;
      return { ...result(req, item, 201), headers: { Location: `${req.root}core/v2/comments/${item.id}` } };
    },
  };

  const get: Endpoint = {
    methods: ['GET'], allowBatch: true, permission: 'public', operation: 'CommentGet', args: { id: idArg, context: contextArg(), password: passwordArg },
    async handler(req) {
      const context = contextOf(req.params);
      const read = (c: RestContext) => req.run(c, { id: Number(req.params.id), password: req.params.password });
      if (context === 'edit' && !req.ctx.can('moderate_comments')) {
        // 404 first, then the edit context (get_item_permissions_check).
        try { await read('view'); } catch (err) {
          if (['rest_comment_invalid_id', 'rest_post_invalid_id'].includes(errorCode(err) ?? '')) throw err;
        }
        throw forbiddenContext(req.ctx, EDIT_REFUSED);
      }
      return result(req, (await read(context)).comment);
    },
  };

  const update: Endpoint = {
    methods: ['POST', 'PUT', 'PATCH'], allowBatch: true, permission: 'public', operation: 'CommentUpdate', args: { id: idArg, ...resourceWriteArgs(CommentResource, { create: false }) },
    async handler(req) {
      withClient(req);
      const data = await req.run('edit', { id: Number(req.params.id), input: inputOf(CommentResource, req.params) });
      return result(req, data.updateComment);
    },
  };

  const remove: Endpoint = {
    methods: ['DELETE'], allowBatch: true, permission: 'public', operation: 'CommentDelete', alsoRuns: ['CommentTrash'],
    args: { id: idArg, force: { type: 'boolean', default: false, description: 'Whether to bypass Trash and force deletion.' }, password: passwordArg },
    async handler(req) {
      const id = Number(req.params.id);
      if (req.params.force) {
        const { deleted, previous } = (await req.run('edit', { id })).deleteComment;
        return { status: 200, body: { deleted, previous: shapeComment(req, previous) } };
      }
      return result(req, (await req.run('edit', { id }, 'CommentTrash')).trashComment);
    },
  };

  return [
    { namespace: 'core/v2', pattern: BASE, endpoints: [list, create], schema },
    { namespace: 'core/v2', pattern: `${BASE}/(?P<id>[\\d]+)`, endpoints: [get, update, remove], schema },
  ];
}
