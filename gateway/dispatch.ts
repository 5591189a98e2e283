// One REST request: authenticate, match, merge and validate params, answer from the cache or
// run the route's operation, then shape (_fields, _envelope, _jsonp) and add the headers.
import type { Db } from '../src/db/client.js';
import { runUnitOfWork, type Step } from '../src/content/unit-of-work.js';
import { createContext, type Context } from '../src/context.js';
import { authenticateRequest } from '../src/auth/request.js';
import { RestError } from '../src/errors.js';
import type { BatchItem, GatewayRequest, ItemResult, Method, Params, PreparedItem, RouteEntry, RouteResult, Endpoint, ArgDef } from './types.js';
import { WpError, noRoute, tooManyValues } from './errors.js';
import { isJsonType, parseJsonBody, parseQueryString } from './params.js';
import { checkValue } from './validate.js';
import { clampIntParams } from './int-range.js';
import { allowedMethods, routeData } from './discovery.js';
import { applyFields, parseFieldsParam } from './shape/fields.js';
import { embedLinks, parseEmbedParam } from './shape/embed.js';
import type { ResponseCache } from './cache.js';
import type { Runner } from './execute.js';
import { snakeCase } from '../src/resources/define.js';
import { Readable } from 'node:stream';
import { hash } from 'node:crypto';
import type { MediaServices } from '../src/context.js';
import { receiveUpload } from './upload.js';
import { log } from '../src/log.js';

export interface CoreRequest {
  method: string;
  /** Path and query as received, e.g. /wp-json/core/v2/posts?page=2 */
  url: string;
  headers: Headers;
  body: Buffer | null;
  /** The body as a stream, for upload endpoints (see `wantsStream`); `body` is then null. */
  stream?: Readable;
  /** Client address, when known. */
  ip?: string;
  /** The request id (X-Request-Id) errors are logged with. */
  id?: string;
  /** `url` already parsed (against http://localhost) by the caller, so it is parsed once; not changed here. */
  parsed?: URL;
}

export interface CoreResponse {
  status: number;
  headers: Record<string, string>;
  body: string;
  /** A body sent as it is produced (a streamed `raw` result); `body` is then ''. */
  stream?: AsyncIterable<Uint8Array>;
  /** `body` as UTF-8 bytes, when already encoded (cacheable answers: encoded once, sent as is on every hit). */
  bytes?: Buffer;
}

interface CompiledRoute { route: RouteEntry; regex: RegExp }

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

export function compilePattern(pattern: string): RegExp {
  return new RegExp(`^${pattern.replace(/\(\?P</g, '(?<')}$`, 'i');
}

export function createDispatcher(o: DispatcherOptions) {
  const compiled: CompiledRoute[] = o.table.map((route) => ({ route, regex: compilePattern(route.pattern) }));
  const root = `${o.siteUrl}${o.restPrefix}/`;
  const discovery = `<${root}>; rel="https://api.w.org/"`;
  const inFlight = new Map<string, Promise<CoreResponse>>();

  function match(path: string): { route: RouteEntry; pathParams: Record<string, string> } | null {
    for (const { route, regex } of compiled) {
      const m = regex.exec(path);
      if (m) return { route, pathParams: { ...(m.groups ?? {}) } };
    }
    return null;
  }

  /** Route path from the URL: under the prefix, or the `rest_route` query fallback. */
  function routePath(url: URL): string | null {
    const fallback = url.searchParams.get('rest_route');
    let path: string;
    if (url.pathname === o.restPrefix || url.pathname.startsWith(o.restPrefix + '/')) path = url.pathname.slice(o.restPrefix.length);
    else if (fallback !== null && (url.pathname === '/' || url.pathname === '/index.php')) path = fallback;
    else return null;
    path = '/' + decodePath(path).replace(/^\/+/, '');
    return path.length > 1 ? path.replace(/\/+$/, '') : path;
  }

  /**
   * Per endpoint: its args, and the sanitised value of each default that passes its own schema and
   * is a plain value or a list of them (copied per request, as structuredClone did). A request that
   * leaves such an arg out gets that value without validating it again: a list request sends two
   * or three of its 25 args, and validating the defaults was most of this step's cost.
   */
  const argPlans = new WeakMap<Endpoint, { args: [string, ArgDef][]; defaults: Map<string, unknown> }>();
  function argPlan(endpoint: Endpoint) {
    let plan = argPlans.get(endpoint);
    if (!plan) {
      const defaults = new Map<string, unknown>();
      for (const [name, arg] of Object.entries(endpoint.args)) {
        if (arg.default === undefined || arg.skipValidation || (arg.default === null && !allowsNull(arg.type))) continue;
        const checked = checkValue(structuredClone(arg.default), arg, name);
        if ('value' in checked && plainValue(checked.value)) defaults.set(name, checked.value);
      }
      plan = { args: Object.entries(endpoint.args), defaults };
      argPlans.set(endpoint, plan);
    }
    return plan;
  }

  function validateParams(endpoint: Endpoint, params: Params): void {
    const { args, defaults } = argPlan(endpoint);
    const missing: string[] = [];
    const invalid: Record<string, { code: string; message: string; data: unknown }> = {};
    const sanitized: [string, unknown][] = [];
    for (const [name, arg] of args) {
      if (params[name] === undefined) {
        const ready = defaults.get(name);
        if (ready !== undefined) {
          params[name] = Array.isArray(ready) ? ready.slice() : ready;
          continue;
        }
        if (arg.default !== undefined) params[name] = structuredClone(arg.default);
      }
      const value = params[name];
      if (value === undefined || value === null && !allowsNull(arg.type)) {
        if (arg.required === true) missing.push(name);
        if (value === null) delete params[name];
        continue;
      }
      if (arg.skipValidation) continue;
      const checked = checkValue(value, arg, name);
      if ('error' in checked) invalid[name] = checked.error;
      else sanitized.push([name, checked.value]);
    }
    if (missing.length) throw new WpError('rest_missing_callback_param', `Missing parameter(s): ${missing.join(', ')}`, 400, { params: missing });
    if (Object.keys(invalid).length) {
      throw new WpError('rest_invalid_param', `Invalid parameter(s): ${Object.keys(invalid).join(', ')}`, 400, {
        params: Object.fromEntries(Object.entries(invalid).map(([k, e]) => [k, e.message])),
        details: invalid,
      });
    }
    for (const [name, value] of sanitized) params[name] = value;
    clampIntParams(params); // GraphQL Int is 32-bit: out-of-range ids and pages become impossible ones, not 500s
  }

  /**
   * The one way an endpoint runs, once its params are merged: validate and sanitise them, then
   * call the handler with its operation bound to the caller. Single requests, `_embed`
   * sub-requests and batch items all come through here.
   */
  async function executeEndpoint(endpoint: Endpoint, params: Params, r: Omit<GatewayRequest, 'params' | 'run'>): Promise<RouteResult> {
    validateParams(endpoint, params);
    const run: GatewayRequest['run'] = (context, variables, operation = endpoint.operation) => {
      if (!operation || (operation !== endpoint.operation && !endpoint.alsoRuns?.includes(operation))) throw new Error(`endpoint does not declare operation ${operation}`);
      return o.run(operation, context, variables, r.ctx);
    };
    return endpoint.handler({
      ...r, params, run,
      batchItem: (item) => prepareItem(item),
      runBatch: (items, b) => runItems(items, r.ctx, b.atomic),
    });
  }

  // ---------------------------------------------------------------- batch/v1

  interface Prepared extends PreparedItem {
    endpoint?: Endpoint; route?: RouteEntry; params?: Params; path?: string; pathParams?: Record<string, string>;
    method?: Method; headers?: Headers; query?: URLSearchParams;
  }

  const itemOf = (result: RouteResult, allow?: Method[] | null): ItemResult => {
    const headers: Record<string, string> = {};
    for (const [k, v] of Object.entries(result.headers ?? {})) headers[k] = String(v);
    if (allow) headers.Allow = allow.join(', ');
    return { status: result.status, body: result.body, headers };
  };

  /**
   * One batch item resolved as WordPress's batch server does: a full URL is cut to its path (and
   * matched as is), the route must exist for the method and allow batching, and the params are
   * the path's, the item's query and its body, as a single request would have them.
   */
  function prepareItem(item: BatchItem): Prepared {
    const method = String(item.method ?? 'POST').toUpperCase() as Method;
    let target = String(item.path);
    if (/^[a-z][a-z0-9+.-]*:\/\//i.test(target)) {
      try { const u = new URL(target); target = u.pathname + u.search; } catch { /* matched as given */ }
    }
    const u = new URL(target.startsWith('/') ? target : `/${target}`, 'http://localhost');
    let path: string;
    path = '/' + decodePath(u.pathname).replace(/^\/+/, '');
    if (path.length > 1) path = path.replace(/\/+$/, '');
    const matched = match(path);
    const endpoint = matched?.route.endpoints.find((e) => e.methods.includes(method));
    if (!matched || !endpoint) return { error: itemOf(errorResult(noRoute())) };
    if (!endpoint.allowBatch) return { error: itemOf(errorResult(new WpError('rest_batch_not_allowed', 'The requested route does not support batch requests.', 400))) };
    const headers = new Headers();
    for (const [k, v] of Object.entries(item.headers ?? {})) headers.set(k, Array.isArray(v) ? v.join(', ') : String(v));
    const params: Params = withPathParams({ ...matched.pathParams, ...parseQueryString(u.search), ...(item.body ?? {}) }, matched.pathParams);
    const prepared: Prepared = {
      endpoint, route: matched.route, params, path, pathParams: matched.pathParams, method, headers, query: u.searchParams,
      validate: () => {
        try { validateParams(endpoint, structuredClone(params)); return null; } catch (err) { return itemOf(errorResult(err)); }
      },
    };
    return prepared;
  }

  async function runItem(p: Prepared, ctx: Context): Promise<ItemResult> {
    try {
      const result = await executeEndpoint(p.endpoint!, structuredClone(p.params!), { method: p.method!, path: p.path!, pathParams: p.pathParams!, headers: p.headers!, ctx, root, query: p.query! });
      return itemOf(result, result.allow ?? allowedMethods(p.route!, ctx));
    } catch (err) {
      return itemOf(errorResult(err));
    }
  }

  /**
   * Runs a batch's items as one unit of work (src/content/unit-of-work.ts): one transaction,
   * a savepoint per item unless atomic. Each item gets a context of its own, as a single request
   * has: what an earlier item loaded (and cached in its context's loaders) may have changed since.
   */
  function runItems(items: Prepared[], ctx: Context, atomic: boolean): Promise<{ results: ItemResult[]; rolledBack: boolean }> {
    const steps: Step<ItemResult>[] = items.map((item) => (item.error ? { failed: item.error } : async (db: Db) => {
      const result = await runItem(item, createContext(db, ctx.viewer, o.media ?? null));
      return { value: result, ok: result.status < 400 };
    }));
    return runUnitOfWork(o.db, steps, atomic);
  }

  function baseHeaders(ctx: Context | null, request: CoreRequest): Record<string, string> {
    const headers: Record<string, string> = {
      'Content-Type': 'application/json; charset=UTF-8',
      'X-Robots-Tag': 'noindex',
      'X-Content-Type-Options': 'nosniff',
      'Access-Control-Expose-Headers': 'X-WP-Total, X-WP-TotalPages, Link',
      'Access-Control-Allow-Headers': 'Authorization, X-WP-Nonce, Content-Disposition, Content-MD5, Content-Type',
    };
    const origin = request.headers.get('origin');
    if (origin) {
      headers['Access-Control-Allow-Origin'] = origin;
      headers['Access-Control-Allow-Methods'] = 'OPTIONS, GET, POST, PUT, PATCH, DELETE';
      headers['Access-Control-Allow-Credentials'] = 'true';
      headers.Vary = 'Origin';
    }
    if (ctx?.viewer) {
      headers['Cache-Control'] = 'no-cache, must-revalidate, max-age=0, no-store, private';
      headers.Expires = 'Wed, 11 Jan 1984 05:00:00 GMT';
    }
    return headers;
  }

  /** Final bytes: _envelope, _jsonp, headers. */
  function finish(request: CoreRequest, ctx: Context | null, query: Params, result: RouteResult, allow: Method[] | null): CoreResponse {
    const own: Record<string, string> = {};
    for (const [k, v] of Object.entries(result.headers ?? {})) own[k] = String(v);
    const headers = { ...baseHeaders(ctx, request), ...own };
    headers.Link = own.Link ?? discovery;
    if (allow) headers.Allow = allow.join(', ');
    let status = result.status;
    let body: unknown = result.body;
    if (query._envelope !== undefined) {
      const envelopeHeaders: Record<string, unknown> = { ...(result.headers ?? {}) };
      if (allow) envelopeHeaders.Allow = allow.join(', ');
      body = { body, status, headers: envelopeHeaders };
      status = 200;
    }
    // A stream is never enveloped: its bytes are not held to be put in a JSON body.
    if (result.raw?.stream) return { status: result.status, headers: { ...headers, 'Content-Type': result.raw.contentType }, body: '', stream: encoded(result.raw.stream) };
    if (result.raw && query._envelope === undefined) return { status, headers: { ...headers, 'Content-Type': result.raw.contentType }, body: result.raw.text };
    let text = JSON.stringify(body, null, query._pretty !== undefined ? 4 : undefined) ?? 'null';
    if (query._jsonp !== undefined) {
      const callback = String(query._jsonp);
      if (!/^[\w.]+$/.test(callback)) {
        return { status: 400, headers: baseHeaders(ctx, request), body: JSON.stringify({ code: 'rest_callback_invalid', message: 'Invalid JSONP callback function.', data: { status: 400 } }) };
      }
      headers['Content-Type'] = 'application/javascript; charset=UTF-8';
      text = `/**/${callback}(${text})`;
    }
    return { status, headers, body: text };
  }

  async function handle(request: CoreRequest): Promise<CoreResponse> {
    const url = request.parsed ?? new URL(request.url, 'http://localhost');
    const query = parseQueryString(url.search);
    const path = routePath(url);
    if (path === null) return finish(request, null, query, errorResult(noRoute()), null);

    // Credentials first: bad ones are refused on every route, public ones included.
    let ctx: Context;
    let authHeaders: Record<string, string> | undefined;
    try {
      const identity = await authenticateRequest(o.db, { headers: request.headers, query, ip: request.ip });
      if (identity instanceof RestError) throw identity;
      ctx = createContext(o.db, identity.user, o.media ?? null);
      authHeaders = identity.headers;
    } catch (err) {
      return finish(request, null, query, errorResult(err, request.id), null);
    }

    let method = request.method.toUpperCase();
    const override = (typeof query._method === 'string' && query._method) || request.headers.get('x-http-method-override');
    if (override) method = override.toUpperCase();
    const head = method === 'HEAD';
    if (head) method = 'GET';

    try {
      const matched = match(path);
      if (method === 'OPTIONS') {
        if (!matched) return finish(request, ctx, query, { status: 200, body: [] }, null);
        return finish(request, ctx, query, { status: 200, body: routeData(matched.route, root, true) }, allowedMethods(matched.route, ctx));
      }
      if (!matched || !METHODS.has(method)) throw noRoute();
      const endpoint = matched.route.endpoints.find((e) => e.methods.includes(method as Method));
      if (!endpoint) throw noRoute();

      // An anonymous read: the same bytes for everyone, so it gets an ETag and may be cached.
      const shared = method === 'GET' && !ctx.viewer;
      const cacheable = o.cache && shared;
      const cacheKey = cacheable ? `${path}?${[...url.searchParams].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)).map(([k, v]) => `${k}=${v}`).join('&')}` : '';
      const { generation, hit } = cacheable ? o.cache!.lookup(cacheKey) : { generation: 0, hit: undefined };
      if (cacheable) {
        // Headers of the caller's sign-in (a fresh nonce) are per request: never cached, added to hits.
        if (hit) {
          if (plainRead(request, query, authHeaders)) o.cache!.alias(request.url, cacheKey);
          const out = withRequestHeaders(hit, request, head, 'HIT');
          return authHeaders ? { ...out, headers: { ...out.headers, ...authHeaders } } : out;
        }
      }

      const produce = async (): Promise<CoreResponse> => {
        if (endpoint.upload) return finish(request, ctx, query, await uploadRequest(endpoint, request, ctx, query, matched.pathParams, method as Method, path, url), null);
        if (endpoint.formUpload && /^multipart\/form-data/i.test(request.headers.get('content-type') ?? '')) {
          const result = await uploadRequest(endpoint, request, ctx, query, matched.pathParams, method as Method, path, url);
          return finish(request, ctx, query, result, result.allow ?? allowedMethods(matched.route, ctx));
        }
        const json = isJsonType(request.headers.get('content-type')) ? parseJsonBody(request.body) : {};
        const form = !isJsonType(request.headers.get('content-type')) && /^application\/x-www-form-urlencoded/i.test(request.headers.get('content-type') ?? '') && request.body
          ? parseQueryString(request.body.toString('utf8')) : {};
        const params: Params = withPathParams({ ...matched.pathParams, ...query, ...form, ...json }, matched.pathParams);
        const result = await executeEndpoint(endpoint, params, { method: method as Method, path, pathParams: matched.pathParams, headers: request.headers, ctx, root, query: url.searchParams, ip: request.ip });
        const fields = parseFieldsParam(query._fields);
        const embed = parseEmbedParam(query._embed);
        if (embed && result.status < 400 && (!fields || fields.some((f) => f === '_embedded' || f.startsWith('_embedded.')))) {
          await embedLinks(result.body, embed, (href) => subRequest(href, ctx));
        }
        // As WordPress's rest_filter_response_fields(): an error (status 400 and up) is never filtered.
        const shaped = fields && result.status < 400 ? { ...result, body: applyFields(result.body, fields) } : result;
        const response = finish(request, ctx, query, shaped, result.allow ?? allowedMethods(matched.route, ctx));
        if (shared && response.status === 200 && !response.stream) {
          withValidator(response);
          // Not an answer whose total predates a write (a slow count being redone): the cache would keep it past the recount.
          if (cacheable && !ctx.marks.staleTotal) o.cache!.set(cacheKey, bytesOnly(stripRequestHeaders(response)), generation);
        }
        return response;
      };

      if (cacheable) {
        // Single flight: identical anonymous reads arriving together share one execution. Only
        // under one cache generation: a read that arrives after a write must not join one that
        // started before it (it would be answered with what the write replaced).
        const flightKey = `${generation}|${cacheKey}`;
        let flight = inFlight.get(flightKey);
        // The request that runs the operation is the miss; those joining it are answered without
        // reaching the database, as hits are.
        const joined = !!flight;
        if (!flight) {
          flight = produce().then(stripRequestHeaders).finally(() => inFlight.delete(flightKey));
          inFlight.set(flightKey, flight);
        }
        const out = withRequestHeaders(await flight, request, head, joined ? 'HIT' : 'MISS');
        if (plainRead(request, query, authHeaders)) o.cache!.alias(request.url, cacheKey);
        return authHeaders ? { ...out, headers: { ...out.headers, ...authHeaders } } : out;
      }
      const response = await produce();
      if (authHeaders) Object.assign(response.headers, authHeaders);
      if (shared && notModified(response, request)) return { status: 304, headers: response.headers, body: '' };
      return head ? { ...response, body: '', bytes: undefined, stream: undefined } : response;
    } catch (err) {
      const response = finish(request, ctx, query, errorResult(err, request.id), null);
      return head ? { ...response, body: '' } : response;
    }
  }

  /**
   * A body read as a stream: a media upload (`upload`: the right to create is checked before a
   * byte is read; the file is the raw body or the multipart part `file`) or a multipart form post
   * (`formUpload`: file parts of any name; the handler checks rights). Files go to temporary
   * files, removed when the request ends; multipart fields join the params.
   */
  async function uploadRequest(endpoint: Endpoint, request: CoreRequest, ctx: Context, query: Params, pathParams: Record<string, string>, method: Method, path: string, url: URL): Promise<RouteResult> {
    if (endpoint.upload && (!ctx.viewer || !ctx.can(endpoint.permission))) {
      const refusal = endpoint.uploadRefusal ?? { code: 'rest_cannot_create', message: 'Sorry, you are not allowed to create posts as this user.' };
      throw new WpError(refusal.code, refusal.message, ctx.viewer ? 403 : 401);
    }
    const body = request.stream ?? Readable.from(request.body ? [request.body] : []);
    const upload = await receiveUpload(body, request.headers, o.media?.maxUploadBytes ?? 64 * 1024 * 1024, { anyFiles: !endpoint.upload });
    try {
      const params: Params = withPathParams({ ...pathParams, ...query, ...upload.fields }, pathParams);
      return await executeEndpoint(endpoint, params, { method, path, pathParams, headers: request.headers, ctx, root, query: url.searchParams, upload, ip: request.ip });
    } finally {
      await upload.discard();
    }
  }

  /** Whether a request's body should reach the dispatcher as a stream (an upload endpoint's, or a multipart form post's). */
  function wantsStream(method: string, url: string, contentType?: string | null): boolean {
    if (method.toUpperCase() !== 'POST') return false;
    const u = new URL(url, 'http://localhost');
    const path = routePath(u);
    const matched = path === null ? null : match(path);
    const endpoint = matched?.route.endpoints.find((e) => e.methods.includes('POST'));
    return !!endpoint?.upload || (!!endpoint?.formUpload && /^multipart\/form-data/i.test(contentType ?? ''));
  }

  /** A GET inside this request (for _embed): same caller, context=embed, no totals. */
  async function subRequest(href: string, ctx: Context): Promise<{ status: number; body: unknown }> {
    try {
      if (!href.startsWith(root)) throw noRoute();
      const url = new URL(href);
      const path = '/' + url.pathname.slice(new URL(root).pathname.length).replace(/\/+$/, '');
      const matched = match(path);
      const endpoint = matched?.route.endpoints.find((e) => e.methods.includes('GET'));
      if (!matched || !endpoint) throw noRoute();
      const query = parseQueryString(url.search);
      const params: Params = { ...matched.pathParams, ...query, context: 'embed' };
      if (!matched.route.pattern.includes('(?P<')) params.per_page ??= '100';
      const result = await executeEndpoint(endpoint, params, { method: 'GET', path, pathParams: matched.pathParams, headers: new Headers(), ctx, root, query: url.searchParams, embedded: true });
      return { status: result.status, body: result.body };
    } catch (err) {
      const { status, body } = errorResult(err);
      return { status, body };
    }
  }

  const hitHeaderList = new WeakMap<CoreResponse, { full: string[]; notModified: string[] }>();

  /**
   * The hit lane of the node:http front: a plain anonymous GET (see `plainRead`; the caller
   * checks the headers) whose raw URL was answered from the cache before, answered again without
   * parsing, routing or authenticating. The same status, headers and bytes as a hit through
   * `handle`; headers as node's flat [name, value, …] list, made once per entry, led by
   * X-Request-Id with an empty value for the caller to fill in a copy of. Null when the URL has no
   * answer held under the current database version.
   */
  function hitByUrl(url: string, ifNoneMatch: string | undefined): { status: number; headers: readonly string[]; bytes?: Buffer } | null {
    const cached = o.cache?.byUrl(url);
    if (!cached?.bytes) return null;
    let lists = hitHeaderList.get(cached);
    if (!lists) {
      // The 304 carries no body, so no Content-Length.
      const notModified = ['X-Request-Id', '', ...Object.entries(hitHeaders(cached)).flat()];
      hitHeaderList.set(cached, (lists = { full: [...notModified, 'Content-Length', String(cached.bytes.length)], notModified }));
    }
    if (ifNoneMatch !== undefined && etagMatches(cached.headers.ETag, ifNoneMatch)) return { status: 304, headers: lists.notModified };
    return { status: cached.status, headers: lists.full, bytes: cached.bytes };
  }

  /** A request refused before dispatch (a body too large, an unexpected failure): WordPress's error with the REST headers. */
  function errorResponse(request: CoreRequest, err: unknown): CoreResponse {
    return finish(request, null, {}, errorResult(err, request.id), null);
  }

  return { handle, root, match, executeEndpoint, wantsStream, errorResponse, hitByUrl };
}

/**
 * Percent-decoding as PHP's rawurldecode does it: an escape that is not valid UTF-8 (`%E0%A4%A`)
 * stays as written instead of failing the request, so the path simply matches no route.
 */
export function decodePath(path: string): string {
  try {
    return decodeURIComponent(path);
  } catch {
    return path.replace(/(?:%[0-9a-f]{2})+/gi, (run) => { try { return decodeURIComponent(run); } catch { return run; } });
  }
}

/**
 * WordPress reads a parameter from the first source that has it set (`isset`): a JSON `null`
 * (or a form field that came to nothing) does not hide the value the route's path gave.
 */
function withPathParams(params: Params, pathParams: Record<string, string>): Params {
  for (const [key, value] of Object.entries(pathParams)) if (params[key] === null || params[key] === undefined) params[key] = value;
  return params;
}

/** A value a default may be shared as (copied per request): not an object, or a list of such values. */
function plainValue(v: unknown): boolean {
  return (typeof v !== 'object' && typeof v !== 'function') || v === null || (Array.isArray(v) && v.every((x) => typeof x !== 'object' || x === null));
}

function allowsNull(type: unknown): boolean {
  return type === 'null' || (Array.isArray(type) && type.includes('null'));
}

export function errorResult(err: unknown, reqId?: string): RouteResult {
  const error = err instanceof WpError ? err : err instanceof RestError
    ? restNamed(new WpError(err.extensions.code, err.message, err.extensions.status, err.extensions.data ?? {}))
    : tooManyValues(err) ?? (log.error({ err, reqId }, 'unexpected error'), new WpError('internal_server_error', 'The server could not answer this request.', 500));
  return { status: error.status, body: error.body() };
}

/** The domain names a bad argument as GraphQL does (`modifiedAfter`); REST clients read `modified_after`. */
function restNamed(error: WpError): WpError {
  const { params, details } = error.data as { params?: Record<string, unknown>; details?: Record<string, unknown> };
  if (error.code !== 'rest_invalid_param' || !params || Array.isArray(params)) return error;
  const rename = (o: Record<string, unknown> | undefined) => (o ? Object.fromEntries(Object.entries(o).map(([k, v]) => [snakeCase(k), v])) : o);
  const named = rename(params)!;
  return new WpError(error.code, `Invalid parameter(s): ${Object.keys(named).join(', ')}`, error.status, { ...error.data, params: named, ...(details ? { details: rename(details) } : {}) });
}

/**
 * Whether an anonymous GET's answer depends on its URL alone, so a later request for the same raw
 * URL may be answered from the cache by `hitByUrl`: no credentials or nonce of any kind, no
 * method override, no Origin (its CORS headers are per request). If-None-Match is the one header
 * both ways answer alike.
 */
function plainRead(request: CoreRequest, query: Params, authHeaders: Record<string, string> | undefined): boolean {
  return request.method === 'GET' && !authHeaders && query._wpnonce === undefined && query._method === undefined &&
    !NOT_PLAIN.some((name) => request.headers.has(name));
}

/** The request headers (lower case) that keep a read off the hit lane. */
export const NOT_PLAIN: readonly string[] = ['authorization', 'x-wp-nonce', 'x-http-method-override', 'origin'];

const PER_REQUEST = ['Access-Control-Allow-Origin', 'Access-Control-Allow-Methods', 'Access-Control-Allow-Credentials', 'Vary'];

/** A stream of text as UTF-8 bytes. */
async function* encoded(source: AsyncIterable<string>): AsyncGenerator<Uint8Array> {
  for await (const text of source) yield Buffer.from(text, 'utf8');
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
function notModified(response: CoreResponse, request: CoreRequest): boolean {
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
