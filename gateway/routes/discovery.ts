// The index `/` and one index route per namespace, built from the rest of the table.
import type { Endpoint, RouteEntry } from '../types.js';
import { routesObject } from '../discovery.js';

export interface DiscoveryOptions {
  namespaces: string[];
  /** The finished table, read when a request comes (the index lists itself too). */
  table: () => RouteEntry[];
  authorizationUrl: string;
}

export function discoveryRoutes(o: DiscoveryOptions): RouteEntry[] {
  const index: Endpoint = {
    methods: ['GET'], permission: 'public', operation: 'SiteIndex',
    // As WordPress: a default and no enum, so `context=help` is accepted and adds the schemas.
    args: { context: { default: 'view' } },
    async handler(req) {
      const { site } = await req.run(undefined, {});
      const { site_logo, site_icon, site_icon_url, ...description } = site;
      return {
        status: 200,
        body: {
          ...description,
          namespaces: o.namespaces,
          authentication: { 'application-passwords': { endpoints: { authorization: o.authorizationUrl } } },
          routes: routesObject(o.table(), req.root, undefined, req.params.context === 'help'),
          site_logo, site_icon, site_icon_url,
          _links: {
            help: [{ href: 'https://developer.wordpress.org/rest-api/' }],
          },
        },
      };
    },
  };

  const namespaceRoute = (namespace: string): RouteEntry => ({
    namespace,
    pattern: `/${namespace}`,
    endpoints: [{
      methods: ['GET'], permission: 'public',
      args: { namespace: { default: namespace }, context: { default: 'view' } },
      async handler(req) {
        return {
          status: 200,
          body: { namespace, routes: routesObject(o.table(), req.root, namespace, req.params.context === 'help'), _links: { up: [{ href: req.root }] } },
        };
      },
    }],
  });

  return [{ namespace: '', pattern: '/', endpoints: [index] }, ...o.namespaces.map(namespaceRoute)];
}
