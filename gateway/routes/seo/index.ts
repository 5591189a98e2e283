// seo/v1, served in deployment B only (DEPLOYMENT=B): the search-optimisation routes. The
// namespace is split by concern, one module each: the head and the indexables that feed it
// (head.ts), content analysis and its score buckets (scores.ts), and the site-level settings,
// imports and provider routes (site.ts). Their options are declared in options.ts.
import type { RouteEntry } from '../../types.js';
import type { SeoRouteOptions } from './options.js';
import { seoHeadRoutes } from './head.js';
import { seoScoreRoutes } from './scores.js';
import { seoSiteRoutes } from './site.js';

export type { SeoRouteOptions } from './options.js';

export function seoRoutes(o: SeoRouteOptions): RouteEntry[] {
  return [...seoHeadRoutes(o), ...seoScoreRoutes(o), ...seoSiteRoutes(o)];
}
