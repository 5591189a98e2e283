// Fetching oEmbed data for a URL on an editor's behalf: a known provider first, then (with
// `discover`) the JSON endpoint the page itself names. Every fetch goes through the guarded
// client, so neither the URL nor a page's link nor a redirect reaches a private address.
import { guardedFetch, type GuardedFetchOptions } from '../http/guarded-client.js';
import { findOembedLinks } from './discovery.js';
import { findProvider } from './providers.js';
import { dataToHtml, sanitizeEmbedHtml } from './html.js';
import { createTtlCache } from '../http/ttl-cache.js';

export interface OembedQuery {
  url: string;
  maxwidth: number;
  maxheight?: number;
  discover: boolean;
}

export type OembedData = Record<string, unknown> & { html: string | false };

export interface OembedFetcherOptions {
  /** Hosts the guarded client may reach even on private addresses (OEMBED_ALLOW_HOSTS). */
  allowHosts: string[];
  /** Extra limits for the guarded client (timeouts; the tests shorten them). */
  fetchOptions?: Omit<GuardedFetchOptions, 'allowHosts' | 'truncate' | 'method'>;
  cacheEntries?: number;
  cacheTtlMs?: number;
}

/** Only the head of a page is read for discovery; WordPress reads the first 150 KB too. */
const DISCOVERY_BYTES = 150 * 1024;
const DAY = 24 * 60 * 60 * 1000;

/**
 * A fetcher with its own cache (per URL, maxwidth, maxheight and discover, for a day by
 * default). It answers null whenever no oEmbed data could be had: no provider, a refused
 * address, a failed or oversize fetch, an answer that is not a JSON object.
 */
export function createOembedFetcher(o: OembedFetcherOptions) {
  const cache = createTtlCache<OembedData>({ maxEntries: o.cacheEntries ?? 1000, ttlMs: o.cacheTtlMs ?? DAY });
  const base = { ...o.fetchOptions, allowHosts: o.allowHosts };

  async function endpointFor(q: OembedQuery): Promise<string | null> {
    const provider = findProvider(q.url);
    if (provider) return withArgs(provider.endpoint, q, true);
    if (!q.discover) return null;
    const page = await guardedFetch(q.url, { ...base, maxBytes: DISCOVERY_BYTES, truncate: true, headers: { accept: 'text/html,application/xhtml+xml;q=0.9,*/*;q=0.5', ...base.headers } });
    const links = findOembedLinks(page.text, page.url);
    // The JSON endpoint only: the service does not read providers' XML.
    return links.json ? withArgs(links.json, q, false) : null;
  }

  async function load(q: OembedQuery): Promise<OembedData | null> {
    try {
      const endpoint = await endpointFor(q);
      if (!endpoint) return null;
      const res = await guardedFetch(endpoint, { ...base, headers: { accept: 'application/json', ...base.headers } });
      const data: unknown = JSON.parse(res.text);
      if (!data || typeof data !== 'object' || Array.isArray(data)) return null;
      const html = dataToHtml(data as Record<string, unknown>, q.url);
      return { ...(data as Record<string, unknown>), html: html === false ? false : sanitizeEmbedHtml(html) };
    } catch {
      // GuardedFetchError (refused, failed, too large) or a body that is not JSON: no embed.
      return null;
    }
  }

  return {
    fetch(q: OembedQuery): Promise<OembedData | null> {
      const key = JSON.stringify([q.url, q.maxwidth, q.maxheight ?? null, q.discover]);
      return cache.get(key, () => load(q));
    },
    cache,
  };
}

/**
 * The provider endpoint with the consumer's arguments, as WordPress's WP_oEmbed::fetch() adds
 * them. A discovered href already names its URL (perhaps a canonical form): that one is kept.
 */
function withArgs(endpoint: string, q: OembedQuery, setUrl: boolean): string {
  const u = new URL(endpoint);
  u.searchParams.set('maxwidth', String(q.maxwidth));
  if (q.maxheight !== undefined) u.searchParams.set('maxheight', String(q.maxheight));
  if (setUrl || !u.searchParams.has('url')) u.searchParams.set('url', q.url);
  u.searchParams.set('dnt', '1');
  u.searchParams.set('format', 'json');
  return u.href;
}
