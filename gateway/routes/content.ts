// Route entries of a content type (posts, pages; media next): collection and item, from the
// type's descriptor and its resource definition.
import type { Endpoint, GatewayRequest, Params, RouteEntry, RouteResult } from '../types.js';
import type { ContentTypeDescriptor } from '../../src/resources/content-types.js';
import type { ListDef, ResourceDef } from '../../src/resources/define.js';
import { itemSchema } from '../../src/resources/json-schema.js';
import { collectionArgs, inputOf, listVariables, restItem, writeArgs as resourceWriteArgs } from '../resources.js';
import type { RestContext } from '../operations.js';
import { WpError } from '../errors.js';
import { editCheckAfter, errorCode, forbiddenContext } from '../edit-context.js';
import { contextArg, idArg } from '../args/common.js';
import { pagingHeaders } from '../shape/paging.js';
import { contentLinks, itemAllow } from '../shape/links.js';

export interface ContentRouteOptions {
  /** The content type: REST base, GraphQL names, capabilities, taxonomies. */
  descriptor: ContentTypeDescriptor;
  /** Its fields: write arguments, input mapping and the REST values of enums come from here. */
  resource: ResourceDef;
  /** Its collection parameters: REST arguments and the list's GraphQL variables. */
  list: ListDef;
  /** The create endpoint, when items are not made from their fields alone (media: an upload). */
  create?: Endpoint;
}

/** How an item of the type leaves the gateway in a context: WordPress's values, then its `_links`. */
export function contentShape(d: ContentTypeDescriptor, resource: ResourceDef) {
  const toRest = restItem(resource);
  return (req: GatewayRequest, context: string) => (item: Record<string, unknown>) =>
    toRest(item, contentLinks(item, { root: req.root, type: d, context, ctx: req.ctx }));
}

/** A single item's answer: its shape, and the methods the caller may use on it (Allow). */
export function contentItemResult(d: ContentTypeDescriptor, resource: ResourceDef) {
  const shape = contentShape(d, resource);
  return (req: GatewayRequest, item: Record<string, unknown>, status: number, context: string): RouteResult => ({
    status, body: shape(req, context)(item), allow: itemAllow(item),
  });
}

export function contentRoutes(o: ContentRouteOptions): RouteEntry[] {
  const d = o.descriptor;
  const op = d.graphqlName;
  const listField = d.graphqlPlural;
  const itemField = op[0].toLowerCase() + op.slice(1);
  const writeArgs = () => resourceWriteArgs(o.resource, { create: false });
  const input = (p: Params) => inputOf(o.resource, p);
  const collectionUrl = (req: GatewayRequest) => `${req.root}core/v2/${d.restBase}`;
  const shape = contentShape(d, o.resource);
  const contextOf = (p: Params) => (p.context as RestContext) ?? 'view';
  const itemResult = contentItemResult(d, o.resource);

  const list: Endpoint = {
    methods: ['GET'], allowBatch: true, permission: 'public', operation: `${op}sList`,
    args: collectionArgs(o.list),
    async handler(req) {
      const p = req.params;
      const context = contextOf(p);
      // WordPress sanitizes the arguments before get_items_permissions_check, and `status` is refused
      // by its sanitizer (400 rest_invalid_param, inner rest_forbidden_status): that answer comes
      // before the missing edit right. The domain makes the status check, so the list runs first.
      const data = await editCheckAfter(req.ctx, context, req.ctx.can(d.caps.edit_posts), ['rest_invalid_param'],
        () => forbiddenContext(req.ctx, 'Sorry, you are not allowed to edit posts in this post type.'),
        () => req.run(context, { ...listVariables(o.list, p), withTotal: true }));
      const { total, totalPages, nodes } = data[listField];
      return {
        status: 200,
        body: nodes.map(shape(req, context)),
        headers: pagingHeaders(collectionUrl(req), req.query, p.page as number, total, totalPages),
      };
    },
  };

  const create: Endpoint = o.create ?? {
    methods: ['POST'], allowBatch: true, permission: d.caps.edit_posts, operation: `${op}Create`,
    args: writeArgs(),
    async handler(req) {
      if (req.params.id !== undefined) throw new WpError('rest_post_exists', 'Cannot create existing post.', 400);
      const data = await req.run('edit', { input: input(req.params) });
      const item = data[`create${op}`];
      const result = itemResult(req, item, 201, 'edit');
      result.headers = { Location: `${collectionUrl(req)}/${item.id}` };
      return result;
    },
  };

  const get: Endpoint = {
    methods: ['GET'], allowBatch: true, permission: 'public', operation: `${op}Get`,
    args: {
      id: idArg, context: contextArg(),
      excerpt_length: { description: 'Override the default excerpt length.', type: 'integer' },
      password: { description: 'The password for the post if it is password protected.', type: 'string' },
    },
    async handler(req) {
      const context = contextOf(req.params);
      const read = async (password: unknown) => (await req.run(context, { id: Number(req.params.id), password, excerptLength: req.params.excerpt_length }))[itemField];
      const item = context === 'edit' ? await readForEdit(req, () => read(req.params.password), () => read(undefined)) : await read(req.params.password);
      const result = itemResult(req, item, 200, context);
      if (item.status === 'publish') result.headers = { Link: `<${item.link}>; rel="alternate"; type=text/html` };
      return result;
    },
  };

  /**
   * The posts controller's order for context=edit: 404, then the edit right, then the password,
   * then the read right. The domain checks existence, password and reading; the edit right is
   * read from the item (`_can_edit`). One who cannot read cannot edit; a wrong password is the
   * answer only for one who may edit, which a read without the password tells.
   */
  async function readForEdit(req: GatewayRequest, read: () => Promise<Record<string, unknown>>, withoutPassword: () => Promise<Record<string, unknown>>) {
    const refuse = () => forbiddenContext(req.ctx, 'Sorry, you are not allowed to edit this post.');
    let item: Record<string, unknown>;
    try {
      item = await read();
    } catch (err) {
      // Operations fail with a WpError (the domain's RestError converted), so the code is read from either.
      const code = errorCode(err);
      if (code === 'rest_forbidden') throw refuse();
      if (code === 'rest_post_incorrect_password') {
        const probe = await withoutPassword().catch(() => null);
        if (!probe?._can_edit) throw refuse();
      }
      throw err;
    }
    if (!item._can_edit) throw refuse();
    return item;
  }

  const update: Endpoint = {
    methods: ['POST', 'PUT', 'PATCH'], allowBatch: true, permission: d.caps.edit_posts, operation: `${op}Update`,
    args: { id: idArg, ...writeArgs() },
    async handler(req) {
      const data = await req.run('edit', { id: Number(req.params.id), input: input(req.params) });
      return itemResult(req, data[`update${op}`], 200, 'edit');
    },
  };

  const remove: Endpoint = {
    methods: ['DELETE'], allowBatch: d.supports.trash, permission: d.caps.delete_posts, operation: `${op}Delete`, alsoRuns: d.supports.trash ? [`${op}Trash`] : [],
    args: { id: idArg, force: { type: 'boolean', default: false, description: 'Whether to bypass Trash and force deletion.' } },
    async handler(req) {
      const id = Number(req.params.id);
      // Without a trash, the delete operation itself answers 501 to a delete without force
      // (after the right to delete is checked).
      if (req.params.force || !d.supports.trash) {
        const data = await req.run('edit', d.supports.trash ? { id } : { id, force: req.params.force === true });
        const { deleted, previous } = data[`delete${op}`];
        return { status: 200, body: { deleted, previous: shape(req, 'edit')(previous) } };
      }
      const data = await req.run('edit', { id }, `${op}Trash`);
      return itemResult(req, data[`trash${op}`], 200, 'edit');
    },
  };

  return [
    { namespace: 'core/v2', pattern: `/core/v2/${d.restBase}`, endpoints: [list, create], schema: () => itemSchema(o.resource), records: { kind: 'post', subtype: d.type } },
    { namespace: 'core/v2', pattern: `/core/v2/${d.restBase}/(?P<id>[\\d]+)`, endpoints: [get, update, remove], schema: () => itemSchema(o.resource), records: { kind: 'post', subtype: d.type } },
  ];
}
