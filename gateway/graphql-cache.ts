// HTTP caching of anonymous GraphQL reads: the response cache of /graphql (answers of queries kept
// by document, variables and Accept, retired with every committed write as the REST cache is),
// GET answers with `Cache-Control` and a strong ETag (304 to a caller that holds the bytes), and
// the hit lane's part for /graphql (a raw GET URL answered before, answered again without yoga).
// A yoga plugin, made with the GraphQL server (gateway/app.ts); it imports nothing of yoga, so the
// hit lane can use it before yoga is loaded.
import { hash } from 'node:crypto';
import { getOperationAST, type ExecutionArgs, type ExecutionResult } from 'graphql';
import type { Plugin } from 'graphql-yoga';
import type { CachedResponse, ResponseCache } from './cache.js';
import { CONTENT_VERSION, type LaneHit } from './dispatch/http-cache.js';

/** Where a request stands: a shared (anonymous) read, its cache key and generation, and what it turned out to be. */
interface Shared {
  /** The cache key (null: the cache is off, or the request has no document). */
  key: string | null;
  generation: number;
  /** The entry that answered it. */
  hit?: CachedResponse;
  /** It ran a query (not a mutation or a subscription). */
  query?: boolean;
  /** Its result has no errors (and is one result, not a stream). */
  clean?: boolean;
}

/**
 * Whether a request reaches GraphQL as nobody: no credentials and no nonce of any kind (a session
 * cookie counts for nothing without a nonce, src/auth/request.ts), so its answer is everyone's.
 */
function anonymous(headers: Headers, url: string): boolean {
  return !headers.has('authorization') && !headers.has('x-wp-nonce') && !url.includes('_wpnonce');
}

/** The `Vary` of a shared GET answer: its media type follows Accept, and a caller with credentials gets another answer. */
const VARY = 'Accept, Authorization, X-WP-Nonce';

/** Whether an If-None-Match value names `etag` (weak comparison, RFC 9110 §13.1.2) or is `*`. */
function etagMatches(etag: string, condition: string): boolean {
  if (condition === etag || condition.trim() === '*') return true;
  for (const part of condition.split(',')) {
    const tag = part.trim();
    if ((tag.startsWith('W/') ? tag.slice(2) : tag) === etag) return true;
  }
  return false;
}

export interface GraphqlHttpCache {
  /** The yoga plugin: after the persisted-query plugins (it reads the document they put in the params). */
  plugin: Plugin;
  /**
   * The hit lane's answer for a plain anonymous GET of /graphql (no credentials, nonce, method
   * override or Origin: the caller checks the headers): the entry its raw URL and Accept were
   * answered with, as node's flat header list led by an empty X-Request-Id; null when there is none
   * under the current database version.
   */
  hitByUrl(url: string, accept: string | undefined, ifNoneMatch: string | undefined): LaneHit | null;
}

/**
 * `cache`: the GraphQL response cache (null: off; GET answers still get their validators).
 * `maxAge`: the seconds an anonymous GET query's answer may be reused by the client and shared
 * caches (GRAPHQL_GET_MAX_AGE); 0 makes them ask again each time (with If-None-Match).
 *
 * A shared read is an anonymous query. Its answer, when whole and without errors, is kept in the
 * cache under the document, the variables, the operation name and the Accept header (the media type
 * follows it), by the REST cache's rules (gateway/cache.ts): the second answer under a database
 * version is kept, every committed write in any process retires them all, an answer read across a
 * write is not kept. Entity-level invalidation would need to know what each write touched in every
 * process; the database version already says that something did. Authenticated requests never
 * read or fill it.
 */
export function graphqlHttpCache(cache: ResponseCache | null, maxAge: number, caughtUp: (token: string) => boolean = () => true): GraphqlHttpCache {
  const reads = new WeakMap<Request, Shared>();
  const cacheControl = maxAge > 0 ? `public, max-age=${maxAge}` : 'public, no-cache';
  // Raw URL and Accept → key, for the hit lane (see `alias` in gateway/cache.ts).
  const laneKey = (url: string, accept: string | null | undefined) => `${accept ?? ''}\n${url}`;
  const laneHeaders = new WeakMap<CachedResponse, { full: string[]; notModified: string[] }>();

  const plugin: Plugin = {
    onParams({ params, request, setResult }) {
      if (!anonymous(request.headers, request.url)) return;
      const shared: Shared = { key: null, generation: 0 };
      reads.set(request, shared);
      if (!cache || typeof params.query !== 'string') return;
      // A reader that asks for an answer at least as new as a write it was told of
      // (`X-Content-Version`), before this process has heard of that write: the database answers.
      const token = request.headers.get(CONTENT_VERSION);
      if (token !== null && !caughtUp(token)) return;
      shared.key = JSON.stringify([request.headers.get('accept') ?? '', params.operationName ?? null, params.variables ?? null, params.query]);
      const { generation, hit } = cache.lookup(shared.key);
      shared.generation = generation;
      if (hit?.bytes) {
        shared.hit = hit;
        // Nothing is parsed, validated or run; the answer's bytes are the kept ones (onResponse).
        setResult(JSON.parse(hit.bytes.toString('utf8')) as ExecutionResult);
      }
    },
    onExecute({ args }) {
      const request = (args as ExecutionArgs & { contextValue: { request?: Request } }).contextValue.request;
      const shared = request && reads.get(request);
      if (shared) shared.query = getOperationAST(args.document, args.operationName)?.operation === 'query';
    },
    onExecutionResult({ request, result }) {
      const shared = reads.get(request);
      if (shared) shared.clean = !!result && !Array.isArray(result) && !(Symbol.asyncIterator in result) && !(result as ExecutionResult).errors?.length;
    },
    async onResponse({ request, response, setResponse, serverContext, fetchAPI }) {
      const get = request.method === 'GET';
      const shared = reads.get(request);
      const type = response.headers.get('content-type') ?? '';
      const json = type.startsWith('application/json') || type.startsWith('application/graphql-response+json');
      if (!shared || !(shared.hit || (shared.query && shared.clean)) || response.status !== 200 || !json) {
        // Never kept by anyone: a caller's own answer, an error, a mutation's (refused over GET anyway).
        if (get && !type.startsWith('text/event-stream') && !type.startsWith('text/html')) response.headers.set('Cache-Control', shared ? 'no-store' : 'private, no-store');
        return;
      }
      const bytes = shared.hit?.bytes ?? Buffer.from(await response.arrayBuffer());
      const etag = shared.hit?.headers.ETag ?? `"${hash('sha1', bytes, 'base64url')}"`;
      const headers = new fetchAPI.Headers(response.headers);
      headers.set('ETag', etag);
      if (cache) headers.set('X-Cache', shared.hit ? 'HIT' : 'MISS');
      if (!shared.hit && cache && shared.key !== null) {
        cache.set(shared.key, { status: 200, headers: { 'Content-Type': type, ETag: etag }, body: '', bytes }, shared.generation);
      }
      if (get) {
        headers.set('Cache-Control', cacheControl);
        headers.set('Vary', headers.has('vary') ? `${headers.get('vary')}, ${VARY}` : VARY);
        // A plain GET (its answer depends on its URL and Accept alone) is found by the hit lane next time.
        const raw = (serverContext as { req?: { url?: string } }).req?.url;
        if (cache && shared.key !== null && raw && !request.headers.has('origin') && !request.headers.has('x-http-method-override')) {
          cache.alias(laneKey(raw, request.headers.get('accept')), shared.key);
        }
        const condition = request.headers.get('if-none-match');
        if (condition && etagMatches(etag, condition)) {
          headers.delete('content-length');
          return setResponse(new fetchAPI.Response(null, { status: 304, headers }));
        }
      }
      headers.set('content-length', String(bytes.length));
      setResponse(new fetchAPI.Response(new Uint8Array(bytes), { status: 200, headers }));
    },
  };

  function hitByUrl(url: string, accept: string | undefined, ifNoneMatch: string | undefined): LaneHit | null {
    const cached = cache?.byUrl(laneKey(url, accept));
    if (!cached?.bytes) return null;
    let lists = laneHeaders.get(cached);
    if (!lists) {
      const notModified = ['X-Request-Id', '', 'Content-Type', cached.headers['Content-Type'], 'ETag', cached.headers.ETag, 'X-Cache', 'HIT', 'Cache-Control', cacheControl, 'Vary', VARY];
      laneHeaders.set(cached, (lists = { full: [...notModified, 'Content-Length', String(cached.bytes.length)], notModified }));
    }
    if (ifNoneMatch !== undefined && etagMatches(cached.headers.ETag, ifNoneMatch)) return { status: 304, headers: lists.notModified };
    return { status: 200, headers: lists.full, bytes: cached.bytes };
  }

  return { plugin, hitByUrl };
}
