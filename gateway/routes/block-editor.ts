// block-editor/v1: the helpers WordPress's editor calls under wp-block-editor/v1 — link previews
// (url-details), the site's export and the fallback navigation. None is a GraphQL operation:
// url-details fetches another site's page (behind the guarded client), the export is streamed as
// it is read, and the navigation is generated. The rules live in src/{url-details,export,navigation}.
import type { RouteEntry } from '../types.js';
import { WpError } from '../errors.js';
import { createUrlDetailsFetcher, urlDetails, type UrlDetailsFetcher, type UrlDetailsOptions } from '../../src/url-details/service.js';
import { exportContent, type ExportFormat } from '../../src/export/content.js';
import { navigationFallback } from '../../src/navigation/fallback.js';

const NS = 'block-editor/v1';

export interface BlockEditorOptions {
  /** Hosts url-details may fetch even on private addresses (URL_DETAILS_ALLOW_HOSTS). */
  urlDetailsAllowHosts?: string[];
  urlDetails?: Omit<UrlDetailsOptions, 'allowHosts'>;
  /** The app's fetcher, shared with GraphQL; made here from the options when absent. */
  urlDetailsFetcher?: UrlDetailsFetcher;
}

/** The item schema WordPress registers for url-details. */
function urlDetailsSchema(): Record<string, unknown> {
  const prop = (description: string, format?: string) => ({ description, type: 'string', ...(format ? { format } : {}), context: ['view', 'edit', 'embed'], readonly: true });
  return {
    $schema: 'http://json-schema.org/draft-04/schema#',
    title: 'url-details',
    type: 'object',
    properties: {
      title: prop('The contents of the <title> element from the URL.'),
      icon: prop('The favicon image link of the <link rel="icon"> element from the URL.', 'uri'),
      description: prop('The content of the <meta name="description"> element from the URL.'),
      image: prop('The Open Graph image link of the <meta property="og:image"> or <meta property="og:image:url"> element from the URL.', 'uri'),
    },
  };
}

export function blockEditorRoutes(o: BlockEditorOptions = {}): RouteEntry[] {
  // One fetcher, and so one cache, per app.
  const fetcher = o.urlDetailsFetcher ?? createUrlDetailsFetcher({ ...o.urlDetails, allowHosts: o.urlDetailsAllowHosts ?? [] });
  return [
    {
      namespace: NS,
      pattern: `/${NS}/url-details`,
      schema: urlDetailsSchema,
      endpoints: [{
        methods: ['GET'],
        permission: 'edit_posts',
        args: {
          url: { description: 'The URL to process.', type: 'string', format: 'uri', required: true },
        },
        async handler(req) {
          // As WordPress: the argument's validation comes before the permission check (src/url-details/service.ts).
          return { status: 200, body: await urlDetails(req.ctx, String(req.params.url ?? ''), fetcher) };
        },
      }],
    },
    {
      namespace: NS,
      pattern: `/${NS}/export`,
      endpoints: [{
        methods: ['GET'],
        permission: 'export',
        args: {
          format: { description: 'The format of the export: a WordPress export file (WXR) or a JSON array of the items.', type: 'string', enum: ['wxr', 'json'], default: 'wxr' },
        },
        async handler(req) {
          const file = await exportContent(req.ctx, (req.params.format ?? 'wxr') as ExportFormat);
          return {
            status: 200,
            body: null,
            headers: { 'Content-Disposition': `attachment; filename="${file.filename}"` },
            raw: { contentType: file.contentType, stream: file.body },
          };
        },
      }],
    },
    {
      namespace: NS,
      pattern: `/${NS}/navigation-fallback`,
      endpoints: [{
        methods: ['GET'],
        permission: 'edit_theme_options',
        args: {},
        handler: async (req) => ({ status: 200, body: await navigationFallback(req.ctx) }),
      }],
    },
  ];
}
