// Running endpoints: `executeEndpoint`, the one way an endpoint runs once its params are merged
// (single requests, `_embed` sub-requests and batch items all come through it); batch/v1's items,
// resolved and run as one unit of work (src/content/unit-of-work.ts); the GETs of `_embed`; and
// the requests whose body is read as a stream (uploads, multipart forms).
import { Readable } from 'node:stream';
import type { Db } from '../../src/db/client.js';
import { runUnitOfWork, type Step } from '../../src/content/unit-of-work.js';
import { createContext, type Context, type MediaServices } from '../../src/context.js';
import type { BatchItem, Endpoint, GatewayRequest, ItemResult, Method, Params, PreparedItem, RouteEntry, RouteResult } from '../types.js';
import { WpError, noRoute } from '../errors.js';
import { parseQueryString } from '../params.js';
import { allowedMethods } from '../discovery.js';
import { embedLinks } from '../shape/embed.js';
import type { Runner } from '../execute.js';
import { receiveUpload } from '../upload.js';
import type { CoreRequest } from './core.js';
import { endpointFor, matchRoute, restPath, routePath, type CompiledRoute, type Matched } from './router.js';
import { embedParams, itemParams, uploadParams, validateParams } from './params.js';
import { errorResult } from './respond.js';

/** What running endpoints needs, made once per dispatcher. */
export interface Execution {
  db: Db;
  /** Runs the prepared operations the endpoints name. */
  run: Runner;
  /** The media library's storage and limits (upload endpoints), or null. */
  media: MediaServices | null;
  routes: readonly CompiledRoute[];
  restPrefix: string;
  /** API root URL with a trailing slash. */
  root: string;
  /** The path of `root`: an `_embed` link's route path follows it. */
  rootPath: string;
}

/** A REST request matched to its endpoint, with its caller: what running it reads. */
export interface Call {
  request: CoreRequest;
  url: URL;
  query: Params;
  /** The route path, e.g. /core/v2/posts/5 */
  path: string;
  method: Method;
  matched: Matched;
  endpoint: Endpoint;
  ctx: Context;
}

/**
 * The one way an endpoint runs, once its params are merged: validate and sanitise them, then
 * call the handler with its operation bound to the caller. Single requests, `_embed`
 * sub-requests and batch items all come through here.
 */
export async function executeEndpoint(x: Execution, endpoint: Endpoint, params: Params, r: Omit<GatewayRequest, 'params' | 'run'>): Promise<RouteResult> {
  validateParams(endpoint, params);
  const run: GatewayRequest['run'] = (context, variables, operation = endpoint.operation) => {
    if (!operation || (operation !== endpoint.operation && !endpoint.alsoRuns?.includes(operation))) throw new Error(`endpoint does not declare operation ${operation}`);
    return x.run(operation, context, variables, r.ctx);
  };
  return endpoint.handler({
    ...r, params, run,
    batchItem: (item) => prepareItem(x, item),
    runBatch: (items, b) => runItems(x, items, r.ctx, b.atomic),
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
function prepareItem(x: Execution, item: BatchItem): Prepared {
  const method = String(item.method ?? 'POST').toUpperCase() as Method;
  let target = String(item.path);
  if (/^[a-z][a-z0-9+.-]*:\/\//i.test(target)) {
    try { const u = new URL(target); target = u.pathname + u.search; } catch { /* matched as given */ }
  }
  const u = new URL(target.startsWith('/') ? target : `/${target}`, 'http://localhost');
  const path = routePath(u.pathname);
  const matched = matchRoute(x.routes, path);
  const endpoint = matched && endpointFor(matched.route, method);
  if (!matched || !endpoint) return { error: itemOf(errorResult(noRoute())) };
  if (!endpoint.allowBatch) return { error: itemOf(errorResult(new WpError('rest_batch_not_allowed', 'The requested route does not support batch requests.', 400))) };
  const headers = new Headers();
  for (const [k, v] of Object.entries(item.headers ?? {})) headers.set(k, Array.isArray(v) ? v.join(', ') : String(v));
  const params = itemParams(matched.pathParams, u.search, item.body);
  const prepared: Prepared = {
    endpoint, route: matched.route, params, path, pathParams: matched.pathParams, method, headers, query: u.searchParams,
    validate: () => {
      try { validateParams(endpoint, structuredClone(params)); return null; } catch (err) { return itemOf(errorResult(err)); }
    },
  };
  return prepared;
}

async function runItem(x: Execution, p: Prepared, ctx: Context): Promise<ItemResult> {
  try {
    const result = await executeEndpoint(x, p.endpoint!, structuredClone(p.params!), { method: p.method!, path: p.path!, pathParams: p.pathParams!, headers: p.headers!, ctx, root: x.root, query: p.query! });
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
function runItems(x: Execution, items: Prepared[], ctx: Context, atomic: boolean): Promise<{ results: ItemResult[]; rolledBack: boolean }> {
  const steps: Step<ItemResult>[] = items.map((item) => (item.error ? { failed: item.error } : async (db: Db) => {
    const result = await runItem(x, item, createContext(db, ctx.viewer, x.media));
    return { value: result, ok: result.status < 400 };
  }));
  return runUnitOfWork(x.db, steps, atomic);
}

// ---------------------------------------------------------------- _embed

/** `_embed`: the resources the answer links to, fetched inside this request as the same caller. */
export function embedLinked(x: Execution, body: unknown, embed: true | string[], ctx: Context): Promise<unknown> {
  return embedLinks(body, embed, (href) => subRequest(x, href, ctx));
}

/** A GET inside this request (for _embed): same caller, context=embed, no totals. */
async function subRequest(x: Execution, href: string, ctx: Context): Promise<{ status: number; body: unknown }> {
  try {
    if (!href.startsWith(x.root)) throw noRoute();
    const url = new URL(href);
    const path = '/' + url.pathname.slice(x.rootPath.length).replace(/\/+$/, '');
    const matched = matchRoute(x.routes, path);
    const endpoint = matched && endpointFor(matched.route, 'GET');
    if (!matched || !endpoint) throw noRoute();
    const params = embedParams(matched.route, matched.pathParams, parseQueryString(url.search));
    const result = await executeEndpoint(x, endpoint, params, { method: 'GET', path, pathParams: matched.pathParams, headers: new Headers(), ctx, root: x.root, query: url.searchParams, embedded: true });
    return { status: result.status, body: result.body };
  } catch (err) {
    const { status, body } = errorResult(err);
    return { status, body };
  }
}

// ---------------------------------------------------------------- streamed bodies

/** Whether a request's body should reach the dispatcher as a stream (an upload endpoint's, or a multipart form post's). */
export function wantsStream(x: Execution, method: string, url: string, contentType?: string | null): boolean {
  if (method.toUpperCase() !== 'POST') return false;
  const u = new URL(url, 'http://localhost');
  const path = restPath(u, x.restPrefix);
  const matched = path === null ? null : matchRoute(x.routes, path);
  const endpoint = matched ? endpointFor(matched.route, 'POST') : undefined;
  return !!endpoint?.upload || (!!endpoint?.formUpload && isMultipart(contentType));
}

/** Whether a Content-Type names a multipart form (a `formUpload` endpoint streams only those). */
export function isMultipart(contentType: string | null | undefined): boolean {
  return /^multipart\/form-data/i.test(contentType ?? '');
}

/**
 * A body read as a stream: a media upload (`upload`: the right to create is checked before a
 * byte is read; the file is the raw body or the multipart part `file`) or a multipart form post
 * (`formUpload`: file parts of any name; the handler checks rights). Files go to temporary
 * files, removed when the request ends; multipart fields join the params.
 */
export async function uploadRequest(x: Execution, call: Call): Promise<RouteResult> {
  const { endpoint, request, ctx, query, matched: { pathParams }, method, path, url } = call;
  if (endpoint.upload && (!ctx.viewer || !ctx.can(endpoint.permission))) {
    const refusal = endpoint.uploadRefusal ?? { code: 'rest_cannot_create', message: 'Sorry, you are not allowed to create posts as this user.' };
    throw new WpError(refusal.code, refusal.message, ctx.viewer ? 403 : 401);
  }
  const body = request.stream ?? Readable.from(request.body ? [request.body] : []);
  const upload = await receiveUpload(body, request.headers, x.media?.maxUploadBytes ?? 64 * 1024 * 1024, { anyFiles: !endpoint.upload });
  try {
    const params = uploadParams(pathParams, query, upload.fields);
    return await executeEndpoint(x, endpoint, params, { method, path, pathParams, headers: request.headers, ctx, root: x.root, query: url.searchParams, upload, ip: request.ip });
  } finally {
    await upload.discard();
  }
}
