// core/v2/types, core/v2/statuses and core/v2/taxonomies: read-only, as WordPress's post-types,
// post-statuses and taxonomies controllers. Collections are objects keyed by slug. The records
// and their schemas come from src/resources/types.ts (made from the type and taxonomy descriptors).
import type { ArgDef, Endpoint, GatewayRequest, Params, RouteEntry } from '../types.js';
import type { RestContext } from '../operations.js';
import type { ResourceDef } from '../../src/resources/define.js';
import { ContentTypeResource, StatusResource, TaxonomyResource } from '../../src/resources/types.js';
import { CONTENT_TYPES } from '../../src/resources/content-types.js';
import { TAXONOMIES } from '../../src/resources/terms.js';
import { itemSchema } from '../../src/resources/json-schema.js';
import { restItem } from '../resources.js';
import { contextArg } from '../args/common.js';
import { forbiddenContext } from '../edit-context.js';
import { CURIES } from '../shape/links.js';

type Item = Record<string, any>;
const ctxOf = (p: Params) => (p.context as RestContext) ?? 'view';
const keyed = (items: Item[], key: (i: Item) => string) => Object.fromEntries(items.map((i) => [key(i), i]));

interface Listing {
  /** Route base under core/v2 and the placeholder of its item route. */
  base: 'types' | 'statuses' | 'taxonomies';
  param: 'type' | 'status' | 'taxonomy';
  paramArg: ArgDef;
  resource: ResourceDef;
  listOp: string; listField: string; getOp: string; getField: string;
  /** The list's arguments beyond `context`. */
  listArgs?: Record<string, ArgDef>;
  listVariables?: (p: Params) => Record<string, unknown>;
  /** context=edit on the list: may the caller edit anything it lists? (else WordPress's rest_cannot_view) */
  mayEditSome: (req: GatewayRequest) => boolean;
  editRefusal: string;
  /** Item links beside curies; null: no `_links`. */
  links: (req: GatewayRequest, item: Item) => Record<string, unknown[]>;
}

function listingRoutes(l: Listing): RouteEntry[] {
  const toRest = restItem(l.resource);
  const shape = (req: GatewayRequest) => (item: Item) => {
    const links = l.links(req, item);
    return toRest(item, Object.keys(links).some((k) => k.startsWith('wp:')) ? { ...links, curies: CURIES } : links);
  };
  const slugOf = (i: Item) => i.slug as string;

  const list: Endpoint = {
    methods: ['GET'], permission: 'public', operation: l.listOp,
    args: { context: contextArg(), ...(l.listArgs ?? {}) },
    async handler(req) {
      const context = ctxOf(req.params);
      if (context === 'edit' && !l.mayEditSome(req)) throw forbiddenContext(req.ctx, l.editRefusal, 'rest_cannot_view');
      const data = await req.run(context, l.listVariables?.(req.params) ?? {});
      // As WordPress: in edit context only what the caller may edit is listed.
      const items = (data[l.listField] as Item[]).filter((i) => context !== 'edit' || i._can_edit !== false);
      return { status: 200, body: keyed(items.map(shape(req)), slugOf) };
    },
  };

  const get: Endpoint = {
    methods: ['GET'], permission: 'public', operation: l.getOp,
    args: { [l.param]: l.paramArg, context: contextArg() },
    async handler(req) {
      const context = ctxOf(req.params);
      // Not found first, then the edit right (rest_forbidden_context), as the controllers check.
      const data = await req.run(context, { [l.param]: String(req.params[l.param]) });
      const item = data[l.getField] as Item;
      if (context === 'edit' && item._can_edit === false) throw forbiddenContext(req.ctx, l.editRefusal);
      return { status: 200, body: shape(req)(item) };
    },
  };

  const schema = () => itemSchema(l.resource);
  return [
    { namespace: 'core/v2', pattern: `/core/v2/${l.base}`, endpoints: [list], schema },
    { namespace: 'core/v2', pattern: `/core/v2/${l.base}/(?P<${l.param}>[\\w-]+)`, endpoints: [get], schema },
  ];
}

export function typeRoutes(): RouteEntry[] {
  const ns = (req: GatewayRequest) => `${req.root}core/v2`;
  return [
    ...listingRoutes({
      base: 'types', param: 'type', resource: ContentTypeResource,
      paramArg: { description: 'An alphanumeric identifier for the post type.', type: 'string' },
      listOp: 'TypesList', listField: 'contentTypes', getOp: 'TypeGet', getField: 'contentType',
      mayEditSome: (req) => CONTENT_TYPES.some((d) => req.ctx.can(d.caps.edit_posts)),
      editRefusal: 'Sorry, you are not allowed to edit posts in this post type.',
      links: (req, item) => ({ collection: [{ href: `${ns(req)}/types` }], 'wp:items': [{ href: `${ns(req)}/${item.rest_base}` }] }),
    }),
    ...listingRoutes({
      base: 'statuses', param: 'status', resource: StatusResource,
      paramArg: { description: 'An alphanumeric identifier for the status.', type: 'string' },
      listOp: 'StatusesList', listField: 'statuses', getOp: 'StatusGet', getField: 'status',
      mayEditSome: (req) => CONTENT_TYPES.some((d) => req.ctx.can(d.caps.edit_posts)),
      editRefusal: 'Sorry, you are not allowed to manage post statuses.',
      // As WordPress: the post list of the status (the plain list for publish).
      links: (req, item) => ({ archives: [{ href: `${ns(req)}/posts${item.slug === 'publish' ? '' : `?status=${item.slug}`}` }] }),
    }),
    ...listingRoutes({
      base: 'taxonomies', param: 'taxonomy', resource: TaxonomyResource,
      paramArg: { description: 'An alphanumeric identifier for the taxonomy.', type: 'string' },
      listOp: 'TaxonomiesList', listField: 'taxonomies', getOp: 'TaxonomyGet', getField: 'taxonomy',
      listArgs: { type: { description: 'Limit results to taxonomies associated with a specific post type.', type: 'string' } },
      listVariables: (p) => ({ type: p.type ?? null }),
      mayEditSome: (req) => TAXONOMIES.filter((t) => req.params.type === undefined || CONTENT_TYPES.some((d) => d.type === req.params.type && d.supports.taxonomies.some((r) => r.taxonomy === t.taxonomy)))
        .some((t) => req.ctx.can(t.assignCap)),
      editRefusal: 'Sorry, you are not allowed to manage terms in this taxonomy.',
      links: (req, item) => ({ collection: [{ href: `${ns(req)}/taxonomies` }], 'wp:items': [{ href: `${ns(req)}/${item.rest_base}` }] }),
    }),
  ];
}
