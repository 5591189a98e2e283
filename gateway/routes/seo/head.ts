// seo/v1 head and indexing routes: get_head (the head of any URL of the site, public), the
// indexing loop that fills the Indexable table a batch per call (edit_posts), link indexing, and
// per-item SEO settings for editors (GraphQL operations in operations/seo-head.graphql). The head
// and indexing routes call src/seo directly, as the plugin's routes call its actions: their
// answers are the plugin's shapes, nothing a GraphQL client would ask for.
import type { ArgDef, Endpoint, GatewayRequest, RouteEntry } from '../../types.js';
import type { SeoRouteOptions } from './options.js';
import { INDEXING_STEPS, runIndexingStep, type IndexingStep } from '../../../src/seo/indexables/indexing.js';
import { headByUrl } from '../../../src/seo/head/by-url.js';
import { itemHead } from '../../../src/schema/seo/head/index.js';
import { parseFieldsParam } from '../../shape/fields.js';
import { POST_LIKE_TYPES, TAXONOMY_REFS } from '../../../src/resources/content-types.js';

const NS = 'seo/v1';

/** A batch step: `{objects, next_url}`, the same route again while a full batch was done (src/seo/indexables/indexing.ts). */
function indexingRoute(o: SeoRouteOptions, step: IndexingStep): RouteEntry {
  const path = INDEXING_STEPS[step];
  const full = `${(o.restRoot ?? '/').replace(/\/$/, '')}/${NS}/${path}`;
  const endpoint: Endpoint = {
    methods: ['POST'], permission: 'edit_posts', args: {},
    async handler(req) {
      const { objects, more } = await runIndexingStep(req.ctx, step);
      return { status: 200, body: { objects, next_url: more ? full : false } };
    },
  };
  return { namespace: NS, pattern: `/${NS}/${path}`, endpoints: [endpoint] };
}

const getHead: Endpoint = {
  methods: ['GET'], permission: 'public',
  args: { url: { description: 'The url to get the head for.', type: 'string', required: true } },
  async handler(req) {
    // As an anonymous reader sees the page, whoever asks (src/seo/head/by-url.ts).
    const head = await headByUrl(req.ctx, String(req.params.url));
    return { status: head.status, body: head };
  },
};

const idArg: ArgDef = { description: 'Unique identifier for the post or page.', type: 'integer', required: true };

/** Not in the plugin (which keeps these in post meta edited from its sidebar): one item's SEO settings. */
const settingsArgs = {
  id: idArg,
  focus_keyphrase: { description: 'The focus keyphrase; empty removes it.', type: 'string' },
  title: { description: 'SEO title template override; empty returns to the type\'s template.', type: 'string' },
  meta_description: { description: 'Meta description template override; empty returns to the type\'s template.', type: 'string' },
  canonical: { description: 'Canonical URL override; empty removes it.', type: 'string' },
  noindex: { description: 'true or false to choose, null to follow the default.', type: ['boolean', 'null'] },
  cornerstone: { description: 'Whether the item is cornerstone content.', type: 'boolean' },
} satisfies Record<string, ArgDef>;

/** REST names to the GraphQL input; an absent field stays absent, `noindex: null` is sent as null. */
function settingsInput(p: Record<string, unknown>): Record<string, unknown> {
  const input: Record<string, unknown> = {};
  const names: [string, string][] = [['focus_keyphrase', 'focusKeyphrase'], ['title', 'title'], ['meta_description', 'metaDescription'], ['canonical', 'canonical'], ['noindex', 'noindex'], ['cornerstone', 'cornerstone']];
  for (const [rest, gql] of names) if (p[rest] !== undefined) input[gql] = p[rest];
  return input;
}

const settingsRoute: RouteEntry = {
  namespace: NS, pattern: `/${NS}/item_settings/(?P<id>[\\d]+)`,
  endpoints: [
    {
      methods: ['GET'], permission: 'edit_posts', operation: 'SeoItemSettingsGet', args: { id: idArg },
      async handler(req) { return { status: 200, body: (await req.run(undefined, { id: Number(req.params.id) })).seoItemSettings }; },
    },
    {
      methods: ['POST', 'PUT', 'PATCH'], permission: 'edit_posts', operation: 'SeoItemSettingsUpdate', args: settingsArgs,
      async handler(req) { return { status: 200, body: (await req.run(undefined, { id: Number(req.params.id), input: settingsInput(req.params) })).updateSeoItemSettings }; },
    },
  ],
};

export function seoHeadRoutes(o: SeoRouteOptions): RouteEntry[] {
  return [
    { namespace: NS, pattern: `/${NS}/get_head`, endpoints: [getHead] },
    ...(Object.keys(INDEXING_STEPS) as IndexingStep[]).map((step) => indexingRoute(o, step)),
    settingsRoute,
  ];
}

/** The collections whose records carry a head: every public post-like type, every taxonomy, users. */
const HEAD_BASES: [string, 'post' | 'term' | 'user'][] = [
  ...POST_LIKE_TYPES.filter((d) => d.custom?.public ?? true).map((d) => [d.restBase, 'post'] as [string, 'post']),
  ...TAXONOMY_REFS.map((t) => [t.restBase, 'term'] as [string, 'term']),
  ['users', 'user'],
];
const LIST_ROUTES: Record<string, 'post' | 'term' | 'user'> = Object.fromEntries(HEAD_BASES.map(([base, kind]) => [`/core/v2/${base}`, kind]));
const ITEM_ROUTES: Record<string, 'post' | 'term' | 'user'> = {
  ...Object.fromEntries(HEAD_BASES.map(([base, kind]) => [`/core/v2/${base}/(?P<id>[\\d]+)`, kind])),
  '/core/v2/users/me': 'user',
};

/** The two fields in the route's item schema. */
function addHeadSchema(route: RouteEntry): void {
  const schema = route.schema;
  if (!schema) return;
  route.schema = () => {
    const s = schema();
    const properties = { ...(s.properties as Record<string, unknown>) };
    properties.seo_head = { description: 'The SEO head of the public page as HTML.', type: ['string', 'null'], context: ['view', 'edit', 'embed'], readonly: true };
    properties.seo_head_json = { description: 'The SEO head of the public page as an object.', type: ['object', 'null'], context: ['view', 'edit', 'embed'], readonly: true };
    return { ...s, properties };
  };
}

/** Whether the answer will show a head field (`_fields` may leave both out: then none is built). */
function wantsHead(req: GatewayRequest): boolean {
  const fields = parseFieldsParam(req.query.get('_fields') ?? undefined);
  return !fields || fields.some((f) => f === 'seo_head' || f === 'seo_head_json');
}

/**
 * Deployment B: posts, pages, categories, tags and users, in lists and single reads (GET), also
 * carry `seo_head` (HTML) and `seo_head_json`, null for what an anonymous reader cannot see, as
 * the plugin's REST field. The heads of a list are built together: their reads are batched, so a
 * list costs a fixed number of statements more than without heads, whatever its length.
 */
export function addSeoHeadFields(table: RouteEntry[]): void {
  for (const route of table.filter((r) => r.pattern in LIST_ROUTES)) {
    const kind = LIST_ROUTES[route.pattern];
    addHeadSchema(route);
    route.endpoints = route.endpoints.map((e) => (!e.methods.includes('GET') ? e : {
      ...e,
      async handler(req) {
        const result = await e.handler(req);
        if (result.status !== 200 || !Array.isArray(result.body) || !wantsHead(req)) return result;
        const items = result.body as Record<string, unknown>[];
        const heads = await Promise.all(items.map((item) => (typeof item.id === 'number' ? itemHead(req.ctx, item.id, kind) : null)));
        return { ...result, body: items.map((item, i) => ({ ...item, seo_head: heads[i]?.html ?? null, seo_head_json: heads[i]?.json ?? null })) };
      },
    }));
  }
  for (const route of table.filter((r) => r.pattern in ITEM_ROUTES)) {
    const kind = ITEM_ROUTES[route.pattern];
    addHeadSchema(route);
    route.endpoints = route.endpoints.map((e) => (!e.methods.includes('GET') ? e : {
      ...e,
      async handler(req) {
        const result = await e.handler(req);
        if (result.status !== 200 || !result.body || typeof result.body !== 'object' || !wantsHead(req)) return result;
        const body = result.body as Record<string, unknown>;
        const head = await itemHead(req.ctx, Number(body.id), kind);
        return { ...result, body: { ...body, seo_head: head?.html ?? null, seo_head_json: head?.json ?? null } };
      },
    }));
  }
}
