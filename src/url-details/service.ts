// Link previews for the block editor: the page at a URL fetched through the guarded client (no
// private address unless allow-listed, timeouts, a size cap) and its details read from its head.
// Answers are cached per URL for a day, as WordPress keeps them in a transient; failures are not
// cached (WordPress neither: a failure may be temporary).
import { guardedFetch, GuardedFetchError, type GuardedFetchOptions } from '../http/guarded-client.js';
import { authStatus, restError } from '../errors.js';
import type { Context } from '../context.js';
import { readUrlDetails, type UrlDetails } from './details.js';
import { createTtlCache } from '../http/ttl-cache.js';

export interface UrlDetailsOptions {
  /** Hosts that may be fetched even on private addresses (URL_DETAILS_ALLOW_HOSTS). */
  allowHosts?: string[];
  /** Largest page accepted (default 1 MB); a larger one is refused, never kept. */
  maxBytes?: number;
  /** Pages kept in the cache (default 500) and for how long (default a day). */
  cacheEntries?: number;
  cacheTtlMs?: number;
  fetchOptions?: Pick<GuardedFetchOptions, 'timeoutMs' | 'connectTimeoutMs' | 'maxRedirects'>;
}

export const URL_DETAILS_MAX_BYTES = 1024 * 1024;
const DAY = 24 * 60 * 60 * 1000;

export interface UrlDetailsFetcher {
  details(url: string): Promise<UrlDetails>;
}

export function createUrlDetailsFetcher(o: UrlDetailsOptions = {}): UrlDetailsFetcher {
  const cache = createTtlCache<UrlDetails>({ maxEntries: Math.max(1, o.cacheEntries ?? 500), ttlMs: o.cacheTtlMs ?? DAY });
  return {
    // The loader never answers null (a failure throws), so neither does the cache.
    details: async (url) => (await cache.get(url, async () => {
      const page = await fetchPage(url, o);
      return readUrlDetails(page.text, page.url);
    }))!,
  };
}

async function fetchPage(url: string, o: UrlDetailsOptions): Promise<{ text: string; url: string }> {
  let res;
  try {
    res = await guardedFetch(url, {
      ...o.fetchOptions,
      allowHosts: o.allowHosts ?? [],
      maxBytes: o.maxBytes ?? URL_DETAILS_MAX_BYTES,
      headers: { accept: 'text/html,application/xhtml+xml;q=0.9,*/*;q=0.5' },
    });
  } catch (err) {
    if (!(err instanceof GuardedFetchError)) throw err;
    // WordPress answers the same for every failed fetch (its safe remote get refuses unsafe
    // addresses the same way): the reason stays in the server's hands.
    throw restError('no_response', 'URL not found. Response returned a non-200 status code for this URL.', 404);
  }
  // WordPress accepts only 200 itself; the client already refused anything outside 2xx.
  if (res.status !== 200) throw restError('no_response', 'URL not found. Response returned a non-200 status code for this URL.', 404);
  if (!res.text.trim()) throw restError('no_content', 'Unable to retrieve body from response at this URL.', 404);
  return { text: res.text, url: res.url };
}

/** WordPress validates the URL with wp_http_validate_url: an absolute http(s) URL with a host and no credentials. */
export function checkDetailsUrl(raw: string): void {
  let url: URL | null = null;
  try { url = new URL(raw); } catch { /* not a URL */ }
  if (!url || (url.protocol !== 'http:' && url.protocol !== 'https:') || !url.hostname || url.username || url.password) {
    throw restError('rest_invalid_param', 'Invalid parameter(s): url', 400, { params: { url: 'Invalid parameter.' }, details: {} });
  }
}

/**
 * GET block-editor/v1/url-details: the URL's validation first, then the right (edit_posts), then the
 * fetch. By default through the app's fetcher (its allow-list and cache, among its services), so
 * GraphQL previews links as the REST route does.
 */
export async function urlDetails(ctx: Context, url: string, fetcher: UrlDetailsFetcher = ctx.services.urlDetails): Promise<UrlDetails> {
  checkDetailsUrl(url);
  if (!ctx.can('edit_posts')) throw restError('rest_cannot_view_url_details', 'Sorry, you are not allowed to process remote URLs.', authStatus(!!ctx.viewer));
  return fetcher.details(url);
}
