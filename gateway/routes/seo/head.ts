import type { RouteEntry } from '../../types.js';
import type { SeoRouteOptions } from './index.js';

export function seoHeadRoutes(_o: SeoRouteOptions): RouteEntry[] {
  return [];
}
