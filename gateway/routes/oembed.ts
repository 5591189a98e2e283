// oembed/1.0: the oEmbed provider endpoint for the site's own addresses. It answers the same to
// everyone: whether an item may be embedded is decided as for an anonymous reader (an editor asking
// for a draft's URL still gets 404), since the result is meant for other sites' pages.
import type { RouteEntry } from '../types.js';
import { WpError } from '../errors.js';
import { oembedFor, oembedXml } from '../../src/oembed/embed.js';

/** `GET /oembed/1.0/embed?url=…[&format=json|xml][&maxwidth=N]` */
export function oembedEmbedRoutes(): RouteEntry[] {
  return [{
    namespace: 'oembed/1.0',
    pattern: '/oembed/1.0/embed',
    endpoints: [{
      methods: ['GET'], permission: 'public',
      args: {
        url: { description: 'The URL of the resource for which to fetch oEmbed data.', type: 'string', format: 'uri', required: true },
        // No enum, as WordPress registers it: an unknown format reaches the handler (501).
        format: { default: 'json', type: 'string' },
        // Untyped, as WordPress: a value that is no number counts as 0 and so clamps to the minimum.
        maxwidth: { default: 600 },
      },
      async handler(req) {
        const format = req.params.format;
        if (format !== 'json' && format !== 'xml') throw new WpError('oembed_invalid_format', 'The format must be json or xml.', 501);
        const data = await oembedFor(req.ctx, String(req.params.url), req.params.maxwidth);
        return format === 'xml'
          ? { status: 200, body: data, raw: { text: oembedXml(data), contentType: 'text/xml; charset=UTF-8' } }
          : { status: 200, body: data };
      },
    }],
  }];
}
