// The route table: the only place a REST route or argument is declared. Index, namespace
// indexes, OPTIONS, Allow, validation and batch eligibility are all read from it.
import type { RouteEntry } from '../types.js';
import { discoveryRoutes } from './discovery.js';
import { postLikeRoutes } from './posts.js';
import { mediaRoutes } from './media.js';
import { batchRoutes } from './batch.js';
import { applicationPasswordRoutes, userRoutes } from './users.js';
import { termRoutes } from './terms.js';
import { navMenuRoutes } from './menus.js';
import { typeRoutes } from './types.js';
import { oembedEmbedRoutes } from './oembed.js';
import { oembedProxyRoutes } from './oembed-proxy.js';
import { blockEditorRoutes } from './block-editor.js';
import type { UrlDetailsFetcher } from '../../src/url-details/service.js';
import { formRoutes } from './forms.js';
import { commentRoutes } from './comments.js';
import { widgetRoutes } from './widgets.js';
import { siteHealthRoutes, type SiteHealthOptions } from './site-health.js';
import { abilityRoutes } from './abilities.js';
import { seoHeadFields } from './seo/head.js';
import { applyAdditionalFields } from '../additional-fields.js';
import { seoRoutes, type SeoRouteOptions } from './seo/index.js';
import { webhookRoutes } from './webhooks.js';

export interface TableOptions {
  namespaces: string[];
  authorizationUrl: string;
  /** Hosts the oEmbed proxy may fetch even on private addresses (OEMBED_ALLOW_HOSTS). */
  oembedAllowHosts?: string[];
  /** Hosts block-editor/v1/url-details may fetch even on private addresses (URL_DETAILS_ALLOW_HOSTS). */
  urlDetailsAllowHosts?: string[];
  /** The url-details fetcher the app shares with GraphQL. */
  urlDetailsFetcher?: UrlDetailsFetcher;
  /** Settings of the site-health/v1 checks (without them the namespace has only its index). */
  siteHealth?: SiteHealthOptions;
  /** Settings of the seo/v1 routes (deployment B). */
  seo?: SeoRouteOptions;
}

export function buildRouteTable(o: TableOptions): RouteEntry[] {
  const table: RouteEntry[] = [];
  table.push(
    ...discoveryRoutes({ namespaces: o.namespaces, authorizationUrl: o.authorizationUrl, table: () => table }),
    ...oembedEmbedRoutes(),
    ...oembedProxyRoutes({ allowHosts: o.oembedAllowHosts }),
    ...batchRoutes(),
    ...widgetRoutes(),
    ...postLikeRoutes(),
    ...mediaRoutes(),
    ...termRoutes(),
    ...navMenuRoutes(),
    ...typeRoutes(),
    ...userRoutes(),
    ...commentRoutes(),
    ...applicationPasswordRoutes(),
    ...formRoutes(),
    ...(o.namespaces.includes('site-health/v1') && o.siteHealth ? siteHealthRoutes(o.siteHealth) : []),
    ...(o.namespaces.includes('abilities/v1') ? abilityRoutes({ namespaces: o.namespaces }) : []),
    ...blockEditorRoutes({ urlDetailsAllowHosts: o.urlDetailsAllowHosts, urlDetailsFetcher: o.urlDetailsFetcher }),
    ...(o.namespaces.includes('seo/v1') ? seoRoutes(o.seo ?? {}) : []),
    ...(o.namespaces.includes('webhooks/v1') ? webhookRoutes() : []),
  );
  // Fields other parts add to the records of resources: seo/v1 adds the head fields.
  applyAdditionalFields(table, o.namespaces.includes('seo/v1') ? seoHeadFields() : []);
  return table;
}
