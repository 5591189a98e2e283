// core/v2/categories, core/v2/tags and the taxonomies of the site's content model
import type { ArgDef, Endpoint, GatewayRequest, Params, RouteEntry } from '../types.js';
import type { RestContext } from '../operations.js';
import { contextArg } from '../args/common.js';
import { pagingHeaders } from '../shape/paging.js';
import { requireCapForEdit } from '../edit-context.js';
import type { ListDef, ResourceDef } from '../../src/resources/define.js';
import { TAXONOMIES, typesOfTaxonomy } from '../../src/resources/terms.js';
import { contentTypeOf } from '../../src/resources/content-types.js';
import { itemSchema } from '../../src/resources/json-schema.js';
import { collectionArgs, inputOf, listVariables, restItem, writeArgs as resourceWriteArgs } from '../resources.js';
import { CURIES } from '../shape/links.js';

interface TaxonomyRoute { base: string; taxonomy: string; op: string; list: string; resource: ResourceDef; listDef: ListDef; types: string[] }

const idArg: ArgDef = { description: 'Unique identifier for the term.', type: 'integer' };

function termLinks(req: GatewayRequest, t: TaxonomyRoute, item: Record<string, any>, toRest: ReturnType<typeof restItem>) {
  const ns = `${req.root}core/v2`;
  const links: Record<string, unknown[]> = {
    self: [{ href: `${ns}/${t.base}/${item.id}` }],
    collection: [{ href: `${ns}/${t.base}` }],
    about: [{ href: `${ns}/taxonomies/${t.taxonomy}` }],
  };
  if (item._parent) links.up = [{ embeddable: true, href: `${ns}/${t.base}/${item._parent}` }];
  // One link per content type the taxonomy is registered for, as WordPress's.
  links['wp:post_type'] = t.types.map((type) => ({ href: `${ns}/${contentTypeOf(type).restBase}?${t.base}=${item.id}` }));
  links.curies = CURIES;
  return toRest(item, links);
}

function routes(t: TaxonomyRoute): RouteEntry[] {
  const toRest = restItem(t.resource);
  const ctxOf = (p: Params) => (p.context as RestContext) ?? 'view';
  const input = (p: Params) => inputOf(t.resource, p);
  const writeArgs = (create: boolean) => resourceWriteArgs(t.resource, { create });
  const schema = () => itemSchema(t.resource);
  const manage: Endpoint['permission'] = 'manage_categories';
  const list: Endpoint = {
    methods: ['GET'], allowBatch: true, permission: 'public', operation: `${t.list}List`, args: collectionArgs(t.listDef),
    async handler(req) {
      const p = req.params;
      const context = ctxOf(p);
      requireCapForEdit(req.ctx, context, manage, 'Sorry, you are not allowed to edit terms in this taxonomy.');
      const data = await req.run(context, { ...listVariables(t.listDef, p), withTotal: !req.embedded });
      const { total, totalPages, nodes } = data[t.list[0].toLowerCase() + t.list.slice(1)];
      return {
        status: 200, body: nodes.map((n: Record<string, unknown>) => termLinks(req, t, n, toRest)),
        headers: req.embedded ? {} : pagingHeaders(`${req.root}core/v2/${t.base}`, req.query, p.page as number, total, totalPages),
      };
    },
  };
  const create: Endpoint = {
    methods: ['POST'], allowBatch: true, permission: manage, operation: `${t.op}Create`, args: writeArgs(true),
    async handler(req) {
      const data = await req.run('edit', { input: input(req.params) });
      const item = data[`create${t.op}`];
      return { status: 201, body: termLinks(req, t, item, toRest), headers: { Location: `${req.root}core/v2/${t.base}/${item.id}` } };
    },
  };
  const get: Endpoint = {
    methods: ['GET'], allowBatch: true, permission: 'public', operation: `${t.op}Get`, args: { id: idArg, context: contextArg() },
    async handler(req) {
      // As the terms controller: 404 first, then the edit right.
      const context = ctxOf(req.params);
      const data = await req.run(context, { id: Number(req.params.id) });
      requireCapForEdit(req.ctx, context, manage, 'Sorry, you are not allowed to edit this term.');
      return { status: 200, body: termLinks(req, t, data[t.op[0].toLowerCase() + t.op.slice(1)], toRest) };
    },
  };
  const update: Endpoint = {
    methods: ['POST', 'PUT', 'PATCH'], allowBatch: true, permission: manage, operation: `${t.op}Update`, args: { id: idArg, ...writeArgs(false) },
    async handler(req) {
      const data = await req.run('edit', { id: Number(req.params.id), input: input(req.params) });
      return { status: 200, body: termLinks(req, t, data[`update${t.op}`], toRest) };
    },
  };
  const remove: Endpoint = {
    methods: ['DELETE'], allowBatch: true, permission: manage, operation: `${t.op}Delete`,
    args: { id: idArg, force: { type: 'boolean', default: false, description: 'Required to be true, as terms do not support trashing.' } },
    async handler(req) {
      const data = await req.run('edit', { id: Number(req.params.id), force: req.params.force });
      const { deleted, previous } = data[`delete${t.op}`];
      return { status: 200, body: { deleted, previous: termLinks(req, t, previous, toRest) } };
    },
  };
  return [
    { namespace: 'core/v2', pattern: `/core/v2/${t.base}`, endpoints: [list, create], schema, records: { kind: 'term', subtype: t.taxonomy } },
    { namespace: 'core/v2', pattern: `/core/v2/${t.base}/(?P<id>[\\d]+)`, endpoints: [get, update, remove], schema, records: { kind: 'term', subtype: t.taxonomy } },
  ];
}

export function termRoutes(): RouteEntry[] {
  return TAXONOMIES.flatMap((x) => routes({
    base: x.restBase, taxonomy: x.taxonomy, op: x.graphqlName, list: x.graphqlPlural[0].toUpperCase() + x.graphqlPlural.slice(1),
    resource: x.resource, listDef: x.list, types: typesOfTaxonomy(x.taxonomy),
  }));
}
