// seo/v1 head and indexing routes: get_head (the head of any URL of the site, public), the
// indexing loop that fills the Indexable table a batch per call (edit_posts), link indexing, and
// per-item SEO settings for editors (GraphQL operations in operations/seo-head.graphql). The head
// and indexing routes call src/seo directly, as the plugin's routes call its actions: their
// answers are the plugin's shapes, nothing a GraphQL client would ask for.
import type { ArgDef, Endpoint, GatewayRequest, RouteEntry, RouteRecords } from '../../types.js';
import type { SeoRouteOptions } from './options.js';
import { INDEXING_STEPS, runIndexingStep, type IndexingStep } from '../../../src/seo/indexables/indexing.js';
import { headByUrl } from '../../../src/seo/head/by-url.js';
import { itemHead } from '../../../src/schema/seo/head/index.js';
import { INDEXED_TYPES } from '../../../src/seo/indexables/build.js';
import type { AdditionalField } from '../../additional-fields.js';

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

/**
 * Deployment B: posts, pages and the site's public types, every taxonomy's terms and users, in
 * lists and single reads (GET), also carry `seo_head` (HTML) and `seo_head_json`, null for what an
 * anonymous reader cannot see, as the plugin's REST fields (registered in gateway/routes/index.ts
 * through gateway/additional-fields.ts). The heads of an answer are built together: their reads
 * are batched, so a list costs a fixed number of statements more than without heads.
 */
export function seoHeadFields(): AdditionalField[] {
  const appliesTo = (r: RouteRecords) => r.kind !== 'post' || INDEXED_TYPES.includes(r.subtype);
  const heads = (req: GatewayRequest, records: Record<string, unknown>[], kind: RouteRecords['kind']) =>
    Promise.all(records.map((item) => (typeof item.id === 'number' ? itemHead(req.ctx, item.id, kind) : null)));
  return [
    {
      name: 'seo_head', appliesTo,
      schema: { description: 'The SEO head of the public page as HTML.', type: ['string', 'null'], context: ['view', 'edit', 'embed'], readonly: true },
      values: async (req, records, kind) => (await heads(req, records, kind)).map((h) => h?.html ?? null),
    },
    {
      name: 'seo_head_json', appliesTo,
      schema: { description: 'The SEO head of the public page as an object.', type: ['object', 'null'], context: ['view', 'edit', 'embed'], readonly: true },
      values: async (req, records, kind) => (await heads(req, records, kind)).map((h) => h?.json ?? null),
    },
  ];
}
