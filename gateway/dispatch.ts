// One REST request: authenticate, match, merge and validate params, answer from the cache or
// run the route's operation, then shape (_fields, _envelope, _jsonp) and add the headers.
//
// The steps are `handle` below; each job has a module of its own under gateway/dispatch/:
// router (which route and endpoint), params (WordPress's merge order and validation), execute
// (running an endpoint, batch items, `_embed`, uploads), respond (headers, shaping, errors) and
// http-cache (ETag and 304, the response cache, the hit lane). What they share (the compiled
// routes, the runner, the cache, the reads in flight) is made once here and handed to them.
import { createContext, type Context, type MediaServices } from '../src/context.js';
import type { Db } from '../src/db/client.js';
import { authenticateRequest } from '../src/auth/request.js';
import { RestError } from '../src/errors.js';
import type { Endpoint, GatewayRequest, Method, Params, RouteEntry } from './types.js';
import { noRoute } from './errors.js';
import { parseQueryString } from './params.js';
import { allowedMethods, routeData } from './discovery.js';
import { parseFieldsParam } from './shape/fields.js';
import { parseEmbedParam } from './shape/embed.js';
import type { ResponseCache } from './cache.js';
import type { Runner } from './execute.js';
import type { CoreRequest, CoreResponse } from './dispatch/core.js';
import { compileRoutes, endpointFor, matchRoute, requestMethod, restPath } from './dispatch/router.js';
import { requestParams } from './dispatch/params.js';
import { embedLinked, executeEndpoint, isMultipart, uploadRequest, wantsStream, type Call, type Execution } from './dispatch/execute.js';
import { discoveryLink, errorResult, finish, withFields } from './dispatch/respond.js';
import { cacheKey, CONTENT_VERSION, createHitLane, fromCache, notModified, sealShared, sharedRead, type Read } from './dispatch/http-cache.js';

export type { CoreRequest, CoreResponse } from './dispatch/core.js';
export { compilePattern, decodePath } from './dispatch/router.js';
export { errorResult } from './dispatch/respond.js';
export { CONTENT_VERSION, mayWrite, NOT_PLAIN } from './dispatch/http-cache.js';

const METHODS = new Set(['GET', 'POST', 'PUT', 'PATCH', 'DELETE']);

export interface DispatcherOptions {
  db: Db;
  /** Runs the prepared operations the endpoints name. */
  run: Runner;
  table: RouteEntry[];
  restPrefix: string;
  siteUrl: string;
  cache: ResponseCache | null;
  /** The media library's storage and limits (upload endpoints). */
  media?: MediaServices | null;
}

/** Everything the steps read, made once per dispatcher. */
interface Dispatch extends Execution {
  cache: ResponseCache | null;
  /** The cacheable reads running now, by generation and key (see `sharedRead`). */
  inFlight: Map<string, Promise<CoreResponse>>;
  /** The Link header of an answer that names none of its own. */
  discovery: string;
  /** `produce` bound to this dispatcher once, for `sharedRead` to start: no function is made per request. */
  produce: (job: Job) => Promise<CoreResponse>;
}

/** A matched request past the cache lookup: what running it (`Call`) and caching its answer (`Read`) read. */
interface Job extends Call, Read {}

/** What a read that is not looked up in the cache reads of the lookup. */
const NOT_LOOKED_UP = { generation: 0, hit: undefined };

export function createDispatcher(o: DispatcherOptions) {
  const root = `${o.siteUrl}${o.restPrefix}/`;
  const d: Dispatch = {
    db: o.db, run: o.run, media: o.media ?? null, routes: compileRoutes(o.table), restPrefix: o.restPrefix,
    root, rootPath: new URL(root).pathname, cache: o.cache, inFlight: new Map(), discovery: discoveryLink(root),
    produce: (job) => produce(d, job),
  };
  return {
    handle: (request: CoreRequest) => handle(d, request),
    root,
    match: (path: string) => matchRoute(d.routes, path),
    executeEndpoint: (endpoint: Endpoint, params: Params, r: Omit<GatewayRequest, 'params' | 'run'>) => executeEndpoint(d, endpoint, params, r),
    wantsStream: (method: string, url: string, contentType?: string | null) => wantsStream(d, method, url, contentType),
    /** A request refused before dispatch (a body too large, an unexpected failure): WordPress's error with the REST headers. */
    errorResponse: (request: CoreRequest, err: unknown) => finish(d.discovery, request, null, {}, errorResult(err, request.id), null),
    hitByUrl: createHitLane(o.cache),
  };
}

async function handle(d: Dispatch, request: CoreRequest): Promise<CoreResponse> {
  const url = request.parsed ?? new URL(request.url, 'http://localhost');
  const query = parseQueryString(url.search);
  const path = restPath(url, d.restPrefix);
  if (path === null) return finish(d.discovery, request, null, query, errorResult(noRoute()), null);

  // Credentials first: bad ones are refused on every route, public ones included.
  let ctx: Context;
  let authHeaders: Record<string, string> | undefined;
  try {
    const identity = await authenticateRequest(d.db, { headers: request.headers, query, ip: request.ip });
    if (identity instanceof RestError) throw identity;
    ctx = createContext(d.db, identity.user, d.media);
    authHeaders = identity.headers;
  } catch (err) {
    return finish(d.discovery, request, null, query, errorResult(err, request.id), null);
  }

  const asked = requestMethod(request, query);
  const head = asked === 'HEAD';
  const method = head ? 'GET' : asked;

  try {
    const matched = matchRoute(d.routes, path);
    if (method === 'OPTIONS') {
      if (!matched) return finish(d.discovery, request, ctx, query, { status: 200, body: [] }, null);
      return finish(d.discovery, request, ctx, query, { status: 200, body: routeData(matched.route, d.root, true) }, allowedMethods(matched.route, ctx));
    }
    if (!matched || !METHODS.has(method)) throw noRoute();
    const endpoint = endpointFor(matched.route, method as Method);
    if (!endpoint) throw noRoute();

    // An anonymous read: the same bytes for everyone, so it gets an ETag and may be cached.
    const shared = method === 'GET' && !ctx.viewer;
    // Not from the cache (nor shared with a read in flight) when the reader asks for an answer at
    // least as new as a write this process has not heard of yet (`X-Content-Version`).
    const token = shared ? request.headers.get(CONTENT_VERSION) : null;
    const key = shared && d.cache && (token === null || d.db.caughtUp(token)) ? cacheKey(path, url.searchParams) : null;
    const { generation, hit } = key !== null ? d.cache!.lookup(key) : NOT_LOOKED_UP;
    if (hit) return fromCache(d.cache!, hit, key!, request, query, authHeaders, head, 'HIT');

    const job: Job = { request, url, query, path, method: method as Method, matched, endpoint, ctx, shared, key, generation };
    if (key !== null) return await sharedRead(d.cache!, d.inFlight, job, authHeaders, head, d.produce);
    const response = await produce(d, job);
    // Kept off the cache by its `X-Content-Version`: the database answered.
    if (shared && d.cache) response.headers['X-Cache'] = 'MISS';
    if (authHeaders) Object.assign(response.headers, authHeaders);
    if (shared && notModified(response, request)) return { status: 304, headers: response.headers, body: '' };
    return head ? { ...response, body: '', bytes: undefined, stream: undefined } : response;
  } catch (err) {
    const response = finish(d.discovery, request, ctx, query, errorResult(err, request.id), null);
    return head ? { ...response, body: '' } : response;
  }
}

/**
 * A matched request's answer: its params merged (or its body streamed), the endpoint run, the
 * linked resources embedded and `_fields` applied, finished with its headers; a shared read's
 * gets its ETag and goes into the cache (`sealShared`).
 */
async function produce(d: Dispatch, job: Job): Promise<CoreResponse> {
  const { request, ctx, query, endpoint, matched } = job;
  if (endpoint.upload) return finish(d.discovery, request, ctx, query, await uploadRequest(d, job), null);
  if (endpoint.formUpload && isMultipart(request.headers.get('content-type'))) {
    const result = await uploadRequest(d, job);
    return finish(d.discovery, request, ctx, query, result, result.allow ?? allowedMethods(matched.route, ctx));
  }
  const params = requestParams(matched.pathParams, query, request.headers, request.body);
  const result = await executeEndpoint(d, endpoint, params, { method: job.method, path: job.path, pathParams: matched.pathParams, headers: request.headers, ctx, root: d.root, query: job.url.searchParams, ip: request.ip });
  const fields = parseFieldsParam(query._fields);
  const embed = parseEmbedParam(query._embed);
  if (embed && result.status < 400 && (!fields || fields.some((f) => f === '_embedded' || f.startsWith('_embedded.')))) {
    await embedLinked(d, result.body, embed, ctx);
  }
  const response = finish(d.discovery, request, ctx, query, withFields(result, fields), result.allow ?? allowedMethods(matched.route, ctx));
  sealShared(d.cache, response, job);
  return response;
}
