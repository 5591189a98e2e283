// Revision and autosave routes of a content type (posts, pages), from the type's descriptor and
// the revision definitions made from its own (src/resources/revisions.ts). Beyond WordPress, a
// revision can be restored onto its parent: POST …/{parent}/revisions/{id}/restore.
import type { ArgDef, Endpoint, GatewayRequest, Params, RouteEntry } from '../types.js';
import type { ContentTypeDescriptor } from '../../src/resources/content-types.js';
import type { ListDef, ResourceDef, RestContext } from '../../src/resources/define.js';
import type { RevisionResources } from '../../src/resources/revisions.js';
import { itemSchema } from '../../src/resources/json-schema.js';
import { collectionArgs, inputOf, listVariables, restItem, writeArgs } from '../resources.js';
import { contextArg } from '../args/common.js';
import { pagingHeaders } from '../shape/paging.js';
import { contentItemResult } from './content.js';
import { clampInt } from '../int-range.js';

export interface RevisionRouteOptions {
  descriptor: ContentTypeDescriptor;
  /** The parent type's definition: an autosave takes its writable fields; a restore answers with it. */
  parent: ResourceDef;
  resources: RevisionResources;
  list: ListDef;
}

export function revisionRoutes(o: RevisionRouteOptions): RouteEntry[] {
  const d = o.descriptor;
  const op = d.graphqlName;
  const lower = op[0].toLowerCase() + op.slice(1);
  const base = `/core/v2/${d.restBase}`;
  const contextOf = (p: Params) => (p.context as RestContext) ?? 'view';
  const parentItem = contentItemResult(d, o.parent);

  /** A revision's only link is to its parent (none when it has none: an author's autosaved draft). */
  const shapeOf = (r: ResourceDef) => {
    const toRest = restItem(r);
    return (req: GatewayRequest) => (item: Record<string, unknown>) =>
      toRest(item, item.parent ? { parent: [{ href: `${req.root}core/v2/${d.restBase}/${item.parent}` }] } : null);
  };
  const revisionShape = shapeOf(o.resources.revision);
  const autosaveShape = shapeOf(o.resources.autosave);

  const revisionParent: ArgDef = { description: 'The ID for the parent of the revision.', type: 'integer' };
  const autosaveParent: ArgDef = { description: 'The ID for the parent of the autosave.', type: 'integer' };
  const revisionId: ArgDef = { description: 'Unique identifier for the revision.', type: 'integer' };
  const ids = (p: Params) => ({ parent: Number(p.parent), id: Number(p.id) });

  const list: Endpoint = {
    methods: ['GET'], permission: d.caps.edit_posts, operation: `${op}RevisionsList`,
    args: { parent: revisionParent, ...collectionArgs(o.list) },
    async handler(req) {
      const p = req.params;
      const data = await req.run(contextOf(p), { parent: Number(p.parent), ...listVariables(o.list, p) });
      const { total, totalPages, nodes } = data[`${lower}Revisions`];
      return {
        status: 200,
        body: nodes.map(revisionShape(req)),
        headers: pagingHeaders(`${req.root}${base.slice(1)}/${p.parent}/revisions`, req.query, p.page as number, total, totalPages),
      };
    },
  };

  const get: Endpoint = {
    methods: ['GET'], permission: d.caps.edit_posts, operation: `${op}RevisionGet`,
    args: { parent: revisionParent, id: revisionId, context: contextArg() },
    async handler(req) {
      const data = await req.run(contextOf(req.params), ids(req.params));
      return { status: 200, body: revisionShape(req)(data[`${lower}Revision`]) };
    },
  };

  const remove: Endpoint = {
    methods: ['DELETE'], permission: d.caps.delete_posts, operation: `${op}RevisionDelete`,
    args: { parent: revisionParent, id: revisionId, force: { type: 'boolean', default: false, description: 'Required to be true, as revisions do not support trashing.' } },
    async handler(req) {
      // WordPress prints the deleted revision in the request's context, which this route does not take: view.
      const data = await req.run('view', { ...ids(req.params), force: req.params.force === true });
      const { deleted, previous } = data[`delete${op}Revision`];
      return { status: 200, body: { deleted, previous: revisionShape(req)(previous) } };
    },
  };

  const restore: Endpoint = {
    methods: ['POST'], permission: d.caps.edit_posts, operation: `${op}RevisionRestore`,
    args: { parent: revisionParent, id: revisionId },
    answers: { kind: 'post', subtype: d.type },
    async handler(req) {
      const data = await req.run('edit', ids(req.params));
      return parentItem(req, data[`restore${op}Revision`], 200, 'edit');
    },
  };

  const autosaves: Endpoint = {
    methods: ['GET'], permission: d.caps.edit_posts, operation: `${op}AutosavesList`,
    args: { parent: autosaveParent, context: contextArg() },
    async handler(req) {
      const data = await req.run(contextOf(req.params), { parent: clampInt(Number(req.pathParams.id)) });
      return { status: 200, body: data[`${lower}Autosaves`].map(autosaveShape(req)) };
    },
  };

  const autosave: Endpoint = {
    methods: ['POST'], permission: d.caps.edit_posts, operation: `${op}AutosaveCreate`,
    // The parent type's update arguments; a page's own `parent` field replaces the route's.
    args: { parent: autosaveParent, ...writeArgs(o.parent, { create: false }) },
    async handler(req) {
      const data = await req.run('edit', { id: clampInt(Number(req.pathParams.id)), input: inputOf(o.parent, req.params) });
      return { status: 200, body: autosaveShape(req)(data[`autosave${op}`]) };
    },
  };

  const latestAutosave: Endpoint = {
    methods: ['GET'], permission: d.caps.edit_posts, operation: `${op}AutosaveGet`,
    args: { parent: autosaveParent, id: { description: 'The ID for the autosave.', type: 'integer' }, context: contextArg() },
    async handler(req) {
      const data = await req.run(contextOf(req.params), { parent: Number(req.params.parent) });
      return { status: 200, body: autosaveShape(req)(data[`${lower}Autosave`]) };
    },
  };

  const revisionSchema = () => itemSchema(o.resources.revision);
  const autosaveSchema = () => itemSchema(o.resources.autosave);
  return [
    { namespace: 'core/v2', pattern: `${base}/(?P<parent>[\\d]+)/revisions`, endpoints: [list], schema: revisionSchema },
    { namespace: 'core/v2', pattern: `${base}/(?P<parent>[\\d]+)/revisions/(?P<id>[\\d]+)`, endpoints: [get, remove], schema: revisionSchema },
    { namespace: 'core/v2', pattern: `${base}/(?P<parent>[\\d]+)/revisions/(?P<id>[\\d]+)/restore`, endpoints: [restore], schema: revisionSchema },
    { namespace: 'core/v2', pattern: `${base}/(?P<id>[\\d]+)/autosaves`, endpoints: [autosaves, autosave], schema: autosaveSchema },
    { namespace: 'core/v2', pattern: `${base}/(?P<parent>[\\d]+)/autosaves/(?P<id>[\\d]+)`, endpoints: [latestAutosave], schema: autosaveSchema },
  ];
}
