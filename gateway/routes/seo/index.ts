// seo/v1, served in deployment B only (DEPLOYMENT=B): the search-optimisation routes. The
// namespace is split by concern, one module each: the head and the indexables that feed it
// (head.ts), content analysis and its score buckets (scores.ts), and the site-level settings,
// imports and provider routes (site.ts).
import type { RouteEntry } from '../../types.js';
import { seoHeadRoutes } from './head.js';
import { seoScoreRoutes } from './scores.js';
import { seoSiteRoutes } from './site.js';

/** What the seo/v1 routes need from the service's configuration. */
export interface SeoRouteOptions {
  /** Absolute REST root, e.g. `https://example.com/wp-json/`. */
  restRoot?: string;
  /** External providers (keyphrase research, rank tracker) and the hosts seo fetches may reach on private addresses. */
  providers?: import('../../../src/seo/providers/index.js').ProviderSettings;
  /** Units (authors, terms, items) an import handles per call (default 50). */
  importChunkSize?: number;
}

export function seoRoutes(o: SeoRouteOptions): RouteEntry[] {
  return [...seoHeadRoutes(o), ...seoScoreRoutes(o), ...seoSiteRoutes(o)];
}
