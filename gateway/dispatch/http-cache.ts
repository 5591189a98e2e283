// HTTP caching of anonymous reads: the strong ETag of an answer's bytes and 304 for a caller that
// holds them; the response cache (answers kept, hits with the caller's own headers, identical
// reads arriving together run once); and the hit lane, which answers a raw URL seen before
// without parsing, routing or authenticating.
import type { Context } from '../../src/context.js';
import type { CachedResponse, ResponseCache } from '../cache.js';
import type { Params } from '../types.js';
import type { CoreRequest, CoreResponse } from './core.js';
import { hash } from 'node:crypto';

/** What the cache steps read of a matched request (gateway/dispatch.ts's `Job` is one). */
export interface Read {
  request: CoreRequest;
  query: Params;
  ctx: Context;
  /** An anonymous GET: the same bytes for everyone, so it gets an ETag. */
  shared: boolean;
  /** The cache key of a shared read when the cache is on (`cacheKey`), else null. */
  key: string | null;
  /** The cache generation the read started under; pass it back to `set`. */
  generation: number;
}

/**
 * The read-your-writes token's header (Db.writeToken, Db.caughtUp): on the answers of requests
 * that may write (`mayWrite`), and sent back by a client on a read that must see those writes.
 */
export const CONTENT_VERSION = 'X-Content-Version';

/** Whether a request may write: any method but a read's, or a read carrying a method override. */
export function mayWrite(method: string | undefined, url: string, overridden: boolean): boolean {
  if (method !== 'GET' && method !== 'HEAD' && method !== 'OPTIONS') return true;
  return overridden || url.includes('_method=');
}

/** The request headers (lower case) that keep a read off the hit lane. */
export const NOT_PLAIN: readonly string[] = ['authorization', 'x-wp-nonce', 'x-http-method-override', 'origin', CONTENT_VERSION.toLowerCase()];

const PER_REQUEST = ['Access-Control-Allow-Origin', 'Access-Control-Allow-Methods', 'Access-Control-Allow-Credentials', 'Vary'];

/** The key of a read: its route path and its query sorted, so the order of parameters does not matter. */
export function cacheKey(path: string, search: URLSearchParams): string {
  return `${path}?${[...search].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)).map(([k, v]) => `${k}=${v}`).join('&')}`;
}

/**
 * A cached (or shared single-flight) answer for this caller: its own CORS and sign-in headers (a
 * fresh nonce is per request: never cached, added to hits), `X-Cache`, 304 when it already holds
 * these bytes. A plain read's raw URL is recorded, for the hit lane to answer next time.
 */
export function fromCache(cache: ResponseCache, cached: CoreResponse, key: string, request: CoreRequest, query: Params, authHeaders: Record<string, string> | undefined, head: boolean, how: 'HIT' | 'MISS'): CoreResponse {
  if (plainRead(request, query, authHeaders)) cache.alias(request.url, key);
  const out = withRequestHeaders(cached, request, head, how);
  return authHeaders ? { ...out, headers: { ...out.headers, ...authHeaders } } : out;
}

/**
 * A cacheable read the cache did not hold. Single flight: identical anonymous reads arriving
 * together share one execution. Only under one cache generation: a read that arrives after a
 * write must not join one that started before it (it would be answered with what the write
 * replaced). The request that runs `produce` is the miss; those joining it are answered without
 * reaching the database, as hits are.
 */
export async function sharedRead<R extends Read>(
  cache: ResponseCache, flights: Map<string, Promise<CoreResponse>>, read: R,
  authHeaders: Record<string, string> | undefined, head: boolean, produce: (read: R) => Promise<CoreResponse>,
): Promise<CoreResponse> {
  const key = read.key!;
  const flightKey = `${read.generation}|${key}`;
  let flight = flights.get(flightKey);
  const joined = !!flight;
  if (!flight) {
    flight = produce(read).then(stripRequestHeaders).finally(() => flights.delete(flightKey));
    flights.set(flightKey, flight);
  }
  return fromCache(cache, await flight, key, read.request, read.query, authHeaders, head, joined ? 'HIT' : 'MISS');
}

/**
 * A shared read's finished answer: its strong validator, and a copy of it kept in the cache when
 * the cache is on. Only a whole 200: not an error, not a stream.
 */
export function sealShared(cache: ResponseCache | null, response: CoreResponse, read: Read): void {
  if (!read.shared || response.status !== 200 || response.stream) return;
  withValidator(response);
  // Not an answer whose total predates a write (a slow count being redone): the cache would keep it past the recount.
  if (read.key !== null && !read.ctx.marks.staleTotal) cache!.set(read.key, bytesOnly(stripRequestHeaders(response)), read.generation);
}

/**
 * Whether an anonymous GET's answer depends on its URL alone, so a later request for the same raw
 * URL may be answered from the cache by the hit lane (`createHitLane`): no credentials or nonce of
 * any kind, no method override, no Origin (its CORS headers are per request). If-None-Match is the
 * one header both ways answer alike.
 */
function plainRead(request: CoreRequest, query: Params, authHeaders: Record<string, string> | undefined): boolean {
  return request.method === 'GET' && !authHeaders && query._wpnonce === undefined && query._method === undefined &&
    !NOT_PLAIN.some((name) => request.headers.has(name));
}

const hitHeaderList = new WeakMap<CachedResponse, { full: string[]; notModified: string[] }>();

/** The hit lane's answer: node's flat header list, and the bytes unless it is a 304. */
export type LaneHit = { status: number; headers: readonly string[]; bytes?: Buffer };

/**
 * The hit lane of the node:http front: a plain anonymous GET (see `plainRead`; the caller
 * checks the headers) whose raw URL was answered from the cache before, answered again without
 * parsing, routing or authenticating. The same status, headers and bytes as a hit through
 * `handle`; headers as node's flat [name, value, …] list, made once per entry, led by
 * X-Request-Id with an empty value for the caller to fill in a copy of. Null when the URL has no
 * answer held under the current database version. Made once per dispatcher, over its cache: the
 * lane is the hottest path there is, and calls it with nothing else.
 */
export function createHitLane(cache: ResponseCache | null): (url: string, ifNoneMatch: string | undefined) => LaneHit | null {
  return (url, ifNoneMatch) => {
    const cached = cache?.byUrl(url);
    if (!cached?.bytes) return null;
    let lists = hitHeaderList.get(cached);
    if (!lists) {
      // The 304 carries no body, so no Content-Length.
      const notModified = ['X-Request-Id', '', ...Object.entries(hitHeaders(cached)).flat()];
      hitHeaderList.set(cached, (lists = { full: [...notModified, 'Content-Length', String(cached.bytes.length)], notModified }));
    }
    if (ifNoneMatch !== undefined && etagMatches(cached.headers.ETag, ifNoneMatch)) return { status: 304, headers: lists.notModified };
    return { status: cached.status, headers: lists.full, bytes: cached.bytes };
  };
}

function stripRequestHeaders(response: CoreResponse): CoreResponse {
  const headers = { ...response.headers };
  for (const h of PER_REQUEST) delete headers[h];
  return { ...response, headers };
}

/**
 * What the cache keeps of an answer: its encoded bytes, not the text as well. A kept entry
 * outlives the young generation, so its text (30 KB for a page of posts) was copied into the old
 * one and collected there after it was evicted; with a new URL on every request (a list with its
 * own `exclude`) that made a miss with the cache on cost a third more than with it off. A
 * Buffer's bytes live outside the JavaScript heap. Answers made from the cache carry `bytes`.
 */
function bytesOnly(response: CoreResponse): CoreResponse {
  return response.bytes ? { ...response, body: '' } : response;
}

/**
 * Adds the strong validator of an anonymous answer's final bytes (encoded here once; the cache
 * keeps bytes and ETag together, so a hit hashes nothing). Strong: the bytes are exactly these.
 */
function withValidator(response: CoreResponse): void {
  const bytes = Buffer.from(response.body, 'utf8');
  response.bytes = bytes;
  response.headers.ETag = `"${hash('sha1', bytes, 'base64url')}"`;
}

/**
 * Whether If-None-Match names the answer's ETag (or is `*`): it is then answered 304 with no body
 * and the same headers (RFC 9110 §13.1.2: weak comparison, for GET and HEAD).
 */
export function notModified(response: CoreResponse, request: CoreRequest): boolean {
  const condition = request.headers.get('if-none-match');
  return condition !== null && etagMatches(response.headers.ETag, condition);
}

/** Whether an If-None-Match value names `etag` (weak comparison) or is `*`. */
function etagMatches(etag: string | undefined, condition: string): boolean {
  if (!etag || !condition) return false;
  if (condition === etag) return true; // what a client sends back most of the time: no parsing
  if (condition.trim() === '*') return true;
  const opaque = etag.startsWith('W/') ? etag.slice(2) : etag;
  for (const part of condition.split(',')) {
    const tag = part.trim();
    if ((tag.startsWith('W/') ? tag.slice(2) : tag) === opaque) return true;
  }
  return false;
}

const hitHeadersOf = new WeakMap<CoreResponse, Record<string, string>>();

/** A cached answer's headers with `X-Cache: HIT`, made once per entry (hits share them, read-only, as they share the bytes). */
function hitHeaders(cached: CoreResponse): Record<string, string> {
  let headers = hitHeadersOf.get(cached);
  if (!headers) hitHeadersOf.set(cached, (headers = { ...cached.headers, 'X-Cache': 'HIT' }));
  return headers;
}

/**
 * A cached (or shared single-flight) answer for this request: its own CORS headers, `X-Cache`
 * (HIT: the database was not reached for this request; MISS: it ran the operation), and 304 when
 * the caller already holds these bytes.
 */
function withRequestHeaders(cached: CoreResponse, request: CoreRequest, head: boolean, cache: 'HIT' | 'MISS'): CoreResponse {
  const origin = request.headers.get('origin');
  const headers = origin
    ? { ...cached.headers, 'X-Cache': cache, 'Access-Control-Allow-Origin': origin, 'Access-Control-Allow-Methods': 'OPTIONS, GET, POST, PUT, PATCH, DELETE', 'Access-Control-Allow-Credentials': 'true', Vary: 'Origin' }
    : cache === 'HIT' ? hitHeaders(cached) : { ...cached.headers, 'X-Cache': cache };
  if (notModified(cached, request)) return { status: 304, headers, body: '' };
  return head ? { status: cached.status, headers, body: '' } : { status: cached.status, headers, body: cached.body, bytes: cached.bytes };
}
