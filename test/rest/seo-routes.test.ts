// seo/v1 as spec §4.8 lists it: in deployment B every route, method and argument is advertised as
// the spec declares it; in deployment A none of them exists.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestSite, type TestSite } from '../helpers/app.js';

type Arg = { required?: boolean; type?: string | string[]; default?: unknown; enum?: unknown[] };
interface SpecRoute { methods: string[]; path: string; args?: Record<string, Arg> }

const scoreArgs: Record<string, Arg> = {
  contentType: { required: true, type: 'string' },
  taxonomy: { type: 'string', default: '' },
  term: { type: 'integer', default: null },
  troubleshooting: { type: 'boolean', default: null },
};

/** Spec §4.8, one entry per route; args only where the spec declares them. */
const SPEC: SpecRoute[] = [
  { methods: ['GET'], path: '/seo/v1/file_size', args: { url: { required: true, type: 'string' } } },
  { methods: ['GET'], path: '/seo/v1/statistics' },
  { methods: ['POST'], path: '/seo/v1/new-content-type-visibility/dismiss-post-type', args: { postTypeName: {} } },
  { methods: ['POST'], path: '/seo/v1/new-content-type-visibility/dismiss-taxonomy', args: { taxonomyName: {} } },
  { methods: ['GET'], path: '/seo/v1/readability_scores', args: scoreArgs },
  { methods: ['GET'], path: '/seo/v1/seo_scores', args: scoreArgs },
  { methods: ['POST'], path: '/seo/v1/introductions/(?P<introduction_id>[\\w-]+)/seen', args: { introduction_id: { required: true, type: 'string' }, is_seen: { type: 'boolean', default: true } } },
  { methods: ['GET', 'POST'], path: '/seo/v1/video_embed_permission' },
  { methods: ['POST'], path: '/seo/v1/alerts/dismiss', args: { key: { required: true } } },
  {
    methods: ['POST'], path: '/seo/v1/configuration/site_representation',
    args: {
      company_or_person: { required: true, type: 'string', enum: ['company', 'person'] },
      company_name: { type: 'string' }, company_logo: { type: 'string' }, company_logo_id: { type: 'integer' },
      person_logo: { type: 'string' }, person_logo_id: { type: 'integer' }, company_or_person_user_id: { type: 'integer' }, description: { type: 'string' },
    },
  },
  { methods: ['POST'], path: '/seo/v1/configuration/social_profiles', args: { network_a_site: { type: 'string' }, network_b_site: { type: 'string' }, other_social_urls: { type: 'array' } } },
  { methods: ['GET'], path: '/seo/v1/configuration/check_capability', args: { user_id: { required: true } } },
  { methods: ['POST'], path: '/seo/v1/configuration/enable_tracking', args: { tracking: { required: true, type: 'boolean' } } },
  { methods: ['POST'], path: '/seo/v1/configuration/save_configuration_state', args: { finishedSteps: { required: true, type: 'array' } } },
  { methods: ['GET'], path: '/seo/v1/configuration/get_configuration_state' },
  { methods: ['POST'], path: '/seo/v1/import/(?P<plugin>[\\w-]+)/(?P<type>[\\w-]+)' },
  { methods: ['GET'], path: '/seo/v1/get_head', args: { url: { required: true } } },
  ...['posts', 'terms', 'post-type-archives', 'general', 'prepare', 'indexables-complete', 'complete'].map((r) => ({ methods: ['POST'], path: `/seo/v1/indexing/${r}` })),
  ...['posts', 'terms'].map((r) => ({ methods: ['POST'], path: `/seo/v1/link-indexing/${r}` })),
  { methods: ['POST'], path: '/seo/v1/integrations/set_active', args: { active: { required: true, type: 'boolean' }, integration: { required: true, type: 'string' } } },
  { methods: ['GET'], path: '/seo/v1/meta/search' },
  { methods: ['POST'], path: '/seo/v1/keyphrase-provider-a/authenticate', args: { code: { required: true } } },
  { methods: ['POST'], path: '/seo/v1/keyphrase-provider-a/country_code', args: { country_code: { required: true } } },
  { methods: ['GET'], path: '/seo/v1/keyphrase-provider-a/related_keyphrases', args: { keyphrase: { required: true }, country_code: { required: true } } },
  { methods: ['GET'], path: '/seo/v1/rank-tracker/authorization-url' },
  { methods: ['POST'], path: '/seo/v1/rank-tracker/authenticate', args: { code: { required: true }, websiteId: { required: true } } },
  { methods: ['POST'], path: '/seo/v1/rank-tracker/keyphrases/track', args: { keyphrases: { required: true } } },
  { methods: ['POST'], path: '/seo/v1/rank-tracker/keyphrases', args: { keyphrases: {}, permalink: {}, startAt: {} } },
  { methods: ['DELETE'], path: '/seo/v1/rank-tracker/keyphrases/untrack' },
  { methods: ['GET'], path: '/seo/v1/rank-tracker/account/limit' },
  { methods: ['GET'], path: '/seo/v1/rank-tracker/account/upgrade-campaign' },
  { methods: ['GET', 'POST'], path: '/seo/v1/workouts' },
];

/** A path that matches the pattern (placeholders filled). */
const concrete = (pattern: string) => pattern.replace('(?P<introduction_id>[\\w-]+)', 'intro-a').replace('(?P<plugin>[\\w-]+)', 'wxr').replace('(?P<type>[\\w-]+)', 'content');

describe('seo/v1 per deployment', () => {
  let a: TestSite;
  let b: TestSite;
  beforeAll(async () => { [a, b] = await Promise.all([createTestSite(), createTestSite({ deployment: 'B' })]); });
  afterAll(async () => { await Promise.all([a?.close(), b?.close()]); });

  it('B advertises every route of the spec with its methods and declared arguments', async () => {
    const index = await b.req('GET', '/seo/v1');
    expect(index.status).toBe(200);
    const routes = index.body.routes as Record<string, { endpoints: { methods: string[]; args: Record<string, Arg> }[] }>;
    const problems: string[] = [];
    for (const spec of SPEC) {
      const route = routes[spec.path];
      if (!route) { problems.push(`${spec.path}: missing`); continue; }
      for (const method of spec.methods) {
        const endpoint = route.endpoints.find((e) => e.methods.includes(method));
        if (!endpoint) { problems.push(`${method} ${spec.path}: missing method`); continue; }
        for (const [name, want] of Object.entries(spec.args ?? {})) {
          // GET+POST routes: the arguments the spec gives belong to the POST side.
          if (spec.methods.length > 1 && method === 'GET') continue;
          const got = endpoint.args[name];
          if (!got) { problems.push(`${method} ${spec.path}: no argument ${name}`); continue; }
          if ((got.required ?? false) !== (want.required ?? false)) problems.push(`${method} ${spec.path} ${name}: required ${got.required}`);
          for (const key of ['type', 'default', 'enum'] as const) {
            if (key in want && JSON.stringify(got[key]) !== JSON.stringify(want[key])) problems.push(`${method} ${spec.path} ${name}: ${key} ${JSON.stringify(got[key])}`);
          }
        }
      }
    }
    expect(problems).toEqual([]);
    // Nothing beyond the spec but the namespace index and this service's per-item settings route.
    const ours = ['/seo/v1', '/seo/v1/item_settings/(?P<id>[\\d]+)'];
    const extra = Object.keys(routes).filter((p) => !ours.includes(p) && !SPEC.some((s) => s.path === p));
    expect(extra).toEqual([]);
  });

  it('A has none of them: no namespace, and every route is 404 rest_no_route', async () => {
    const index = await a.req('GET', '/');
    expect(index.body.namespaces).not.toContain('seo/v1');
    expect(Object.keys(index.body.routes).filter((p) => p.startsWith('/seo/'))).toEqual([]);
    for (const spec of SPEC) {
      for (const method of spec.methods) {
        const res = await a.req(method, concrete(spec.path), { as: 'administrator' });
        expect(res, `${method} ${spec.path}`).toBeWpError(404, 'rest_no_route');
      }
    }
  });
});
