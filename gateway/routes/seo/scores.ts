import type { RouteEntry } from '../../types.js';
import type { SeoRouteOptions } from './index.js';

export function seoScoreRoutes(_o: SeoRouteOptions): RouteEntry[] {
  return [];
}
