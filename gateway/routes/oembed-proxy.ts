// GET /oembed/1.0/proxy: oEmbed data of another site's URL, fetched by the server for editors
// (the block editor previews embeds through it). Not a GraphQL operation: nothing of it is in
// the database, and the fetch must stay on this side, behind the guarded client.
import type { RouteEntry } from '../types.js';
import { WpError } from '../errors.js';
import { createContext } from '../../src/context.js';
import { createOembedFetcher, type OembedFetcherOptions } from '../../src/oembed/proxy.js';
import { embeddableItem, oembedData } from '../../src/oembed/embed.js';

export interface OembedProxyOptions {
  /** Hosts that may be fetched even on private addresses (OEMBED_ALLOW_HOSTS). */
  allowHosts?: string[];
  fetchOptions?: OembedFetcherOptions['fetchOptions'];
}

export function oembedProxyRoutes(o: OembedProxyOptions = {}): RouteEntry[] {
  // One fetcher, and so one cache, per app.
  const fetcher = createOembedFetcher({ allowHosts: o.allowHosts ?? [], fetchOptions: o.fetchOptions });
  return [{
    namespace: 'oembed/1.0',
    pattern: '/oembed/1.0/proxy',
    endpoints: [{
      methods: ['GET'],
      permission: 'edit_posts',
      args: {
        url: { description: 'The URL of the resource for which to fetch oEmbed data.', type: 'string', format: 'uri', required: true },
        // WordPress accepts it and still answers JSON (its XML output is for the embed route only).
        format: { description: 'The oEmbed format to use.', type: 'string', default: 'json', enum: ['json', 'xml'] },
        maxwidth: { description: 'The maximum width of the embed frame in pixels.', type: 'integer', default: 600 },
        maxheight: { description: 'The maximum height of the embed frame in pixels.', type: 'integer' },
        discover: { description: 'Whether to perform an oEmbed discovery request for unsanctioned providers.', type: 'boolean', default: true },
      },
      async handler(req) {
        if (!req.ctx.can('edit_posts')) {
          throw new WpError('rest_forbidden', 'Sorry, you are not allowed to make proxied oEmbed requests.', req.ctx.viewer ? 403 : 401);
        }
        const p = req.params;
        const url = String(p.url ?? '');
        // The site's own URLs answer the embed route's data, as WordPress's proxy does; judged as
        // for an anonymous reader (that data is for other sites' pages) and never cached here.
        const anonymous = createContext(req.ctx.db, null, req.ctx.media);
        const site = await anonymous.site();
        const item = await embeddableItem(anonymous, site, url);
        if (item) return { status: 200, body: await oembedData(anonymous, site, item, p.maxwidth) };
        const data = await fetcher.fetch({
          url,
          maxwidth: Number(p.maxwidth),
          maxheight: p.maxheight === undefined ? undefined : Number(p.maxheight),
          discover: p.discover !== false,
        });
        if (!data) throw new WpError('oembed_invalid_url', 'Not Found', 404);
        return { status: 200, body: data };
      },
    }],
  }];
}
