// Which route and endpoint a REST request is for: the route table compiled once, the route path
// of a URL (under the REST prefix, or WordPress's `rest_route` query fallback), the method asked
// for, and the first route whose pattern matches.
import type { Endpoint, Method, Params, RouteEntry } from '../types.js';
import type { CoreRequest } from './core.js';

export interface CompiledRoute { route: RouteEntry; regex: RegExp }

/** A matched route and the placeholders its pattern captured from the path. */
export interface Matched { route: RouteEntry; pathParams: Record<string, string> }

/** A WordPress route pattern (PCRE's `(?P<name>…)` groups) as an anchored, case-insensitive regex. */
export function compilePattern(pattern: string): RegExp {
  return new RegExp(`^${pattern.replace(/\(\?P</g, '(?<')}$`, 'i');
}

export function compileRoutes(table: readonly RouteEntry[]): CompiledRoute[] {
  return table.map((route) => ({ route, regex: compilePattern(route.pattern) }));
}

/** The first route, in table order, whose pattern matches the whole path (as WordPress tries them). */
export function matchRoute(routes: readonly CompiledRoute[], path: string): Matched | null {
  for (const { route, regex } of routes) {
    const m = regex.exec(path);
    if (m) return { route, pathParams: { ...(m.groups ?? {}) } };
  }
  return null;
}

/** The route's endpoint that serves a method, if one does. */
export function endpointFor(route: RouteEntry, method: Method): Endpoint | undefined {
  return route.endpoints.find((e) => e.methods.includes(method));
}

/** Route path from the URL: under the prefix, or the `rest_route` query fallback. */
export function restPath(url: URL, restPrefix: string): string | null {
  const fallback = url.searchParams.get('rest_route');
  let path: string;
  if (url.pathname === restPrefix || url.pathname.startsWith(restPrefix + '/')) path = url.pathname.slice(restPrefix.length);
  else if (fallback !== null && (url.pathname === '/' || url.pathname === '/index.php')) path = fallback;
  else return null;
  return routePath(path);
}

/**
 * A raw path as routes are matched against it: decoded, one leading slash, no trailing ones (the
 * root stays `/`). A batch item's path goes through here too, as a single request's does.
 */
export function routePath(raw: string): string {
  const path = '/' + decodePath(raw).replace(/^\/+/, '');
  return path.length > 1 ? path.replace(/\/+$/, '') : path;
}

/**
 * The method a request is served as: its own, or the one `_method` or X-HTTP-Method-Override
 * names (for clients that can only send GET and POST), upper-cased. HEAD is left for the caller
 * to serve as GET without a body.
 */
export function requestMethod(request: CoreRequest, query: Params): string {
  const override = (typeof query._method === 'string' && query._method) || request.headers.get('x-http-method-override');
  return override ? override.toUpperCase() : request.method.toUpperCase();
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
