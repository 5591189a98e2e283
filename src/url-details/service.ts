// Link previews for the block editor: the page at a URL fetched through the guarded client (no
// private address unless allow-listed, timeouts, a size cap) and its details read from its head.
// Answers are cached per URL for a day, as WordPress keeps them in a transient; failures are not
// cached (WordPress neither: a failure may be temporary).
import { guardedFetch, GuardedFetchError, type GuardedFetchOptions } from '../http/guarded-client.js';
import { restError } from '../errors.js';
import { readUrlDetails, type UrlDetails } from './details.js';

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
  const limit = Math.max(1, o.cacheEntries ?? 500);
  const ttl = o.cacheTtlMs ?? DAY;
  /** Insertion-ordered: the first entry is the least recently used. */
  const cache = new Map<string, { at: number; details: UrlDetails }>();

  return {
    async details(url) {
      const hit = cache.get(url);
      if (hit && Date.now() - hit.at < ttl) {
        cache.delete(url);
        cache.set(url, hit);
        return hit.details;
      }
      if (hit) cache.delete(url);
      const page = await fetchPage(url, o);
      const details = readUrlDetails(page.text, page.url);
      cache.set(url, { at: Date.now(), details });
      while (cache.size > limit) cache.delete(cache.keys().next().value as string);
      return details;
    },
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
