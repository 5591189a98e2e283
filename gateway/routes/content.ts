// Route entries of a content type (posts now; pages and media reuse it): collection and item.
import type { Endpoint, GatewayRequest, Params, RouteEntry, RouteResult } from '../types.js';
import type { Runner } from '../execute.js';
import type { RestContext } from '../operations.js';
import { WpError } from '../errors.js';
import { contextArg, idArg } from '../args/common.js';
import { pagingHeaders } from '../shape/paging.js';
import { itemAllow, withContentLinks } from '../shape/links.js';

export interface ContentRouteOptions {
  base: string; // posts
  type: 'post' | 'page';
  op: string; // Post → PostsList, PostGet, …
  listField: string; // posts
  itemField: string; // post
  collectionArgs: () => Record<string, Endpoint['args'][string]>;
  writeArgs: () => Record<string, Endpoint['args'][string]>;
  taxonomies: { taxonomy: string; base: string }[];
  /** REST params → GraphQL input fields of this type. */
  input: (p: Params) => Record<string, unknown>;
  filter: (p: Params) => Record<string, unknown>;
  createCap: string;
}

const text = (value: unknown, param: string): string | undefined => {
  if (value === undefined) return undefined;
  if (typeof value === 'string') return value;
  if (value && typeof value === 'object' && 'raw' in value) return String((value as { raw: unknown }).raw ?? '');
  if (value && typeof value === 'object') return undefined;
  if (value === null) return '';
  throw new WpError('rest_invalid_param', `Invalid parameter(s): ${param}`, 400, { params: { [param]: `${param} is not of type object.` }, details: { [param]: { code: 'rest_invalid_type', message: `${param} is not of type object.`, data: { param } } } });
};

/** The writable fields every post-like type shares, REST names to GraphQL names. */
export function commonInput(p: Params): Record<string, unknown> {
  const input: Record<string, unknown> = {
    date: p.date, dateGmt: p.date_gmt, slug: p.slug, status: p.status, password: p.password,
    title: text(p.title, 'title'), content: text(p.content, 'content'), excerpt: text(p.excerpt, 'excerpt'),
    author: p.author, featuredMedia: p.featured_media, commentStatus: p.comment_status, pingStatus: p.ping_status,
    template: p.template,
    meta: p.meta && typeof p.meta === 'object' && !Array.isArray(p.meta) && 'footnotes' in p.meta ? { footnotes: (p.meta as { footnotes: unknown }).footnotes } : undefined,
  };
  for (const key of Object.keys(input)) if (input[key] === undefined) delete input[key];
  return input;
}

export function commonFilter(p: Params): Record<string, unknown> {
  return {
    search: p.search || undefined, searchColumns: p.search_columns, searchExact: p.search_semantics === 'exact' || undefined,
    after: p.after, before: p.before, modifiedAfter: p.modified_after, modifiedBefore: p.modified_before,
    author: p.author, authorExclude: p.author_exclude, include: p.include, exclude: p.exclude, slug: p.slug, status: p.status,
  };
}

/** A taxonomy filter arrives as a list of ids or as {terms, operator, include_children}. */
export function taxonomyFilter(value: unknown): Record<string, unknown> | undefined {
  if (value === undefined || value === null) return undefined;
  if (Array.isArray(value)) return { terms: value };
  const v = value as { terms?: unknown; operator?: unknown; include_children?: unknown };
  return { terms: v.terms ?? [], operator: v.operator, includeChildren: v.include_children };
}

export function contentRoutes(o: ContentRouteOptions, run: Runner): RouteEntry[] {
  const collectionUrl = (req: GatewayRequest) => `${req.root}core/v2/${o.base}`;
  const shape = (req: GatewayRequest, context: string) => (item: Record<string, unknown>) =>
    withContentLinks(item, { root: req.root, base: o.base, type: o.type, taxonomies: o.taxonomies, context, ctx: req.ctx });
  const contextOf = (p: Params) => (p.context as RestContext) ?? 'view';
  const itemResult = (req: GatewayRequest, item: Record<string, unknown>, status: number, context: string): RouteResult => ({
    status, body: shape(req, context)(item), allow: itemAllow(item),
  });

  const list: Endpoint = {
    methods: ['GET'], allowBatch: true, permission: 'public', operation: `${o.op}sList`,
    args: o.collectionArgs(),
    async handler(req) {
      const p = req.params;
      const context = contextOf(p);
      const data = await run(`${o.op}sList`, context, {
        filter: o.filter(p), context, page: p.page, perPage: p.per_page, offset: p.offset, order: p.order, orderby: p.orderby,
        ignoreSticky: p.ignore_sticky, withTotal: true,
      }, req.ctx);
      const { total, totalPages, nodes } = data[o.listField];
      return {
        status: 200,
        body: nodes.map(shape(req, context)),
        headers: pagingHeaders(collectionUrl(req), req.query, p.page as number, total, totalPages),
      };
    },
  };

  const create: Endpoint = {
    methods: ['POST'], allowBatch: true, permission: o.createCap, operation: `${o.op}Create`,
    args: o.writeArgs(),
    async handler(req) {
      if (req.params.id !== undefined) throw new WpError('rest_post_exists', 'Cannot create existing post.', 400);
      const data = await run(`${o.op}Create`, 'edit', { input: o.input(req.params) }, req.ctx);
      const item = data[`create${o.op}`];
      const result = itemResult(req, item, 201, 'edit');
      result.headers = { Location: `${collectionUrl(req)}/${item.id}` };
      return result;
    },
  };

  const get: Endpoint = {
    methods: ['GET'], allowBatch: true, permission: 'public', operation: `${o.op}Get`,
    args: {
      id: idArg, context: contextArg(),
      excerpt_length: { description: 'Override the default excerpt length.', type: 'integer' },
      password: { description: 'The password for the post if it is password protected.', type: 'string' },
    },
    async handler(req) {
      const context = contextOf(req.params);
      const data = await run(`${o.op}Get`, context, {
        id: Number(req.params.id), context, password: req.params.password, excerptLength: req.params.excerpt_length,
      }, req.ctx);
      const item = data[o.itemField];
      const result = itemResult(req, item, 200, context);
      if (item.status === 'publish') result.headers = { Link: `<${item.link}>; rel="alternate"; type=text/html` };
      return result;
    },
  };

  const update: Endpoint = {
    methods: ['POST', 'PUT', 'PATCH'], allowBatch: true, permission: o.createCap, operation: `${o.op}Update`,
    args: { id: idArg, ...o.writeArgs() },
    async handler(req) {
      const data = await run(`${o.op}Update`, 'edit', { id: Number(req.params.id), input: o.input(req.params) }, req.ctx);
      return itemResult(req, data[`update${o.op}`], 200, 'edit');
    },
  };

  const remove: Endpoint = {
    methods: ['DELETE'], allowBatch: true, permission: o.createCap.replace('edit_', 'delete_'), operation: `${o.op}Delete`,
    args: { id: idArg, force: { type: 'boolean', default: false, description: 'Whether to bypass Trash and force deletion.' } },
    async handler(req) {
      const id = Number(req.params.id);
      if (req.params.force) {
        const data = await run(`${o.op}Delete`, 'edit', { id }, req.ctx);
        const { deleted, previous } = data[`delete${o.op}`];
        return { status: 200, body: { deleted, previous: shape(req, 'edit')(previous) } };
      }
      const data = await run(`${o.op}Trash`, 'edit', { id }, req.ctx);
      return itemResult(req, data[`trash${o.op}`], 200, 'edit');
    },
  };

  return [
    { namespace: 'core/v2', pattern: `/core/v2/${o.base}`, endpoints: [list, create] },
    { namespace: 'core/v2', pattern: `/core/v2/${o.base}/(?P<id>[\\d]+)`, endpoints: [get, update, remove] },
  ];
}
