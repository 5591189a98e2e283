// A route's result made into the response WordPress would send: its headers (the REST ones, CORS
// for a cross-origin caller, no caching for a signed-in one, Link, Allow), `_fields`, and the
// final bytes (`_envelope`, `_pretty`, `_jsonp`, a raw body); and any error as WordPress's error.
import type { Context } from '../../src/context.js';
import { RestError } from '../../src/errors.js';
import { snakeCase } from '../../src/resources/define.js';
import { log } from '../../src/log.js';
import type { Method, Params, RouteResult } from '../types.js';
import { WpError, clientGone, tooManyValues } from '../errors.js';
import { applyFields } from '../shape/fields.js';
import type { CoreRequest, CoreResponse } from './core.js';

/** The Link header of an answer that names none of its own: the API root, for discovery. */
export function discoveryLink(root: string): string {
  return `<${root}>; rel="https://api.w.org/"`;
}

export function baseHeaders(ctx: Context | null, request: CoreRequest): Record<string, string> {
  const headers: Record<string, string> = {
    'Content-Type': 'application/json; charset=UTF-8',
    'X-Robots-Tag': 'noindex',
    'X-Content-Type-Options': 'nosniff',
    'Access-Control-Expose-Headers': 'X-WP-Total, X-WP-TotalPages, Link, X-Content-Version',
    'Access-Control-Allow-Headers': 'Authorization, X-WP-Nonce, Content-Disposition, Content-MD5, Content-Type, X-Content-Version',
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

/**
 * `_fields`: the result's body cut to the fields named. As WordPress's
 * rest_filter_response_fields(): an error (status 400 and up) is never filtered.
 */
export function withFields(result: RouteResult, fields: string[] | null): RouteResult {
  return fields && result.status < 400 ? { ...result, body: applyFields(result.body, fields) } : result;
}

/** Final bytes: _envelope, _jsonp, headers. `discovery` is the Link an answer gets unless it names its own. */
export function finish(discovery: string, request: CoreRequest, ctx: Context | null, query: Params, result: RouteResult, allow: Method[] | null): CoreResponse {
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

/**
 * Any failure as WordPress's error result: a WpError as it is, a domain RestError under its REST
 * names, id lists past the database's limit on bound values as the client's 400; anything else is
 * logged (with the request id) and answered as a plain 500 that tells the caller nothing of the cause.
 */
export function errorResult(err: unknown, reqId?: string): RouteResult {
  const error = err instanceof WpError ? err : err instanceof RestError
    ? restNamed(new WpError(err.extensions.code, err.message, err.extensions.status, err.extensions.data ?? {}))
    : tooManyValues(err) ?? clientGone(err) ?? (log.error({ err, reqId }, 'unexpected error'), new WpError('internal_server_error', 'The server could not answer this request.', 500));
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

/** A stream of text as UTF-8 bytes. */
async function* encoded(source: AsyncIterable<string>): AsyncGenerator<Uint8Array> {
  for await (const text of source) yield Buffer.from(text, 'utf8');
}
