// seo/v1 score routes: the dashboard's readability and SEO score buckets and the SEO-score summary.
// No resource and no schema: the plugin answers fixed shapes. The rules (which items, which bucket)
// live in src/seo/scores/service.ts; the scores themselves come from src/seo/analysis via the SEO
// index. Permissions are checked before the content type (the plugin validates in its callback).
import type { ArgDef, Endpoint, RouteEntry } from '../../types.js';
import type { SeoRouteOptions } from './options.js';
import { scoreBuckets, seoStatistics, type ScoreKind } from '../../../src/seo/scores/service.js';

const NS = 'seo/v1';

const scoreArgs: Record<string, ArgDef> = {
  contentType: { description: 'The content type whose items are counted (post or page).', type: 'string', required: true },
  taxonomy: { description: 'A taxonomy to filter by; empty for none.', type: 'string', default: '' },
  term: { description: 'The term of the taxonomy to filter by.', type: 'integer', default: null as unknown as number },
  troubleshooting: { description: 'Whether the answer is for troubleshooting (scores are always computed fresh here).', type: 'boolean', default: null as unknown as boolean },
};

function scoresEndpoint(kind: ScoreKind): Endpoint {
  return {
    methods: ['GET'], permission: 'edit_posts', args: scoreArgs,
    async handler(req) {
      const p = req.params;
      const term = p.term === undefined || p.term === null ? null : Number(p.term);
      const body = await scoreBuckets(req.ctx, kind, { contentType: String(p.contentType), taxonomy: p.taxonomy == null ? '' : String(p.taxonomy), term });
      return { status: 200, body };
    },
  };
}

export function seoScoreRoutes(_o: SeoRouteOptions): RouteEntry[] {
  return [
    { namespace: NS, pattern: `/${NS}/readability_scores`, endpoints: [scoresEndpoint('readability')] },
    { namespace: NS, pattern: `/${NS}/seo_scores`, endpoints: [scoresEndpoint('seo')] },
    {
      namespace: NS, pattern: `/${NS}/statistics`,
      endpoints: [{ methods: ['GET'], permission: 'read', args: {}, async handler(req) { return { status: 200, body: await seoStatistics(req.ctx) }; } }],
    },
  ];
}
