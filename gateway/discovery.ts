// Everything derived from the route table: route data for the index and namespace indexes,
// OPTIONS answers and the Allow header.
import type { Context } from '../src/context.js';
import type { ArgDef, Endpoint, Method, RouteEntry } from './types.js';

const SCHEMA_KEYWORDS = new Set([
  'title', 'description', 'default', 'type', 'format', 'enum', 'items', 'properties', 'additionalProperties',
  'patternProperties', 'minProperties', 'maxProperties', 'minimum', 'maximum', 'exclusiveMinimum', 'exclusiveMaximum',
  'multipleOf', 'minLength', 'maxLength', 'pattern', 'minItems', 'maxItems', 'uniqueItems', 'anyOf', 'oneOf',
]);

/** An arg as the index prints it: schema keywords only, plus `required` (always present). */
export function printArg(arg: ArgDef): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(arg)) if (SCHEMA_KEYWORDS.has(key)) out[key] = value;
  out.required = arg.required === true;
  return out;
}

export function endpointData(endpoint: Endpoint): Record<string, unknown> {
  const args = Object.fromEntries(Object.entries(endpoint.args).map(([name, arg]) => [name, printArg(arg)]));
  return {
    methods: endpoint.methods,
    ...(endpoint.allowBatch ? { allow_batch: { v1: true } } : {}),
    args: Object.keys(args).length ? args : [],
  };
}

/** A route as the index prints it; `help` adds the resource schema (OPTIONS, `?context=help`), as WordPress. */
export function routeData(route: RouteEntry, root: string, help = false): Record<string, unknown> {
  const data: Record<string, unknown> = {
    namespace: route.namespace,
    methods: [...new Set(route.endpoints.flatMap((e) => e.methods))],
    endpoints: route.endpoints.map(endpointData),
  };
  if (help && route.schema) data.schema = route.schema();
  if (!route.pattern.includes('(?P<')) data._links = { self: [{ href: root + route.pattern.replace(/^\//, '') }] };
  return data;
}

export function routesObject(routes: RouteEntry[], root: string, namespace?: string, help = false): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const route of routes) {
    if (namespace !== undefined && route.namespace !== namespace) continue;
    out[route.pattern] = routeData(route, root, help);
  }
  return out;
}

/** Coarse permission for the Allow header when the handler did not name the item's methods. */
export function allowedMethods(route: RouteEntry, ctx: Context): Method[] {
  const methods: Method[] = [];
  for (const endpoint of route.endpoints) {
    const ok = endpoint.permission === 'public' || ctx.can(endpoint.permission);
    if (ok) methods.push(...endpoint.methods);
  }
  return [...new Set(methods)];
}
