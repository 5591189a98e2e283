// The route table: the only place a REST route or argument is declared. Index, namespace
// indexes, OPTIONS, Allow, validation and batch eligibility are all read from it.
import type { RouteEntry } from '../types.js';
import { discoveryRoutes } from './discovery.js';
import { postRoutes } from './posts.js';
import { pageRoutes } from './pages.js';
import { applicationPasswordRoutes, userRoutes } from './users.js';
import { termRoutes } from './terms.js';

export interface TableOptions { namespaces: string[]; authorizationUrl: string }

export function buildRouteTable(o: TableOptions): RouteEntry[] {
  const table: RouteEntry[] = [];
  table.push(
    ...discoveryRoutes({ namespaces: o.namespaces, authorizationUrl: o.authorizationUrl, table: () => table }),
    ...postRoutes(),
    ...pageRoutes(),
    ...termRoutes(),
    ...userRoutes(),
    ...applicationPasswordRoutes(),
  );
  return table;
}
