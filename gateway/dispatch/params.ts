// An endpoint's params as WordPress builds them: merged from the request's sources in its order
// (the JSON body over the form body over the query over the route's path; then the args'
// defaults), and validated and sanitised against the endpoint's args with WordPress's rules and
// error codes.
import type { ArgDef, Endpoint, Params, RouteEntry } from '../types.js';
import { WpError } from '../errors.js';
import { isJsonType, parseJsonBody, parseQueryString } from '../params.js';
import { checkValue } from '../validate.js';
import { clampIntParams } from '../int-range.js';

/** A single request's params: the path's, the query's, a form body's and a JSON body's, later ones winning. */
export function requestParams(pathParams: Record<string, string>, query: Params, headers: Headers, body: Buffer | null): Params {
  const json = isJsonType(headers.get('content-type')) ? parseJsonBody(body) : {};
  const form = !isJsonType(headers.get('content-type')) && /^application\/x-www-form-urlencoded/i.test(headers.get('content-type') ?? '') && body
    ? parseQueryString(body.toString('utf8')) : {};
  return withPathParams({ ...pathParams, ...query, ...form, ...json }, pathParams);
}

/** A streamed (multipart) request's params: the path's, the query's and the form's fields. */
export function uploadParams(pathParams: Record<string, string>, query: Params, fields: Params): Params {
  return withPathParams({ ...pathParams, ...query, ...fields }, pathParams);
}

/** A batch item's params: the path's, its query's and its body's, as a single request would have them. */
export function itemParams(pathParams: Record<string, string>, search: string, body: Params | undefined): Params {
  return withPathParams({ ...pathParams, ...parseQueryString(search), ...(body ?? {}) }, pathParams);
}

/**
 * An `_embed` sub-request's params: the path's and the link's query, in the embed context; a
 * collection (a route with no placeholders) is asked for up to 100 items unless the link says.
 */
export function embedParams(route: RouteEntry, pathParams: Record<string, string>, query: Params): Params {
  const params: Params = { ...pathParams, ...query, context: 'embed' };
  if (!route.pattern.includes('(?P<')) params.per_page ??= '100';
  return params;
}

/**
 * WordPress reads a parameter from the first source that has it set (`isset`): a JSON `null`
 * (or a form field that came to nothing) does not hide the value the route's path gave.
 */
export function withPathParams(params: Params, pathParams: Record<string, string>): Params {
  for (const [key, value] of Object.entries(pathParams)) if (params[key] === null || params[key] === undefined) params[key] = value;
  return params;
}

/**
 * Per endpoint: its args, and the sanitised value of each default that passes its own schema and
 * is a plain value or a list of them (copied per request, as structuredClone did). A request that
 * leaves such an arg out gets that value without validating it again: a list request sends two
 * or three of its 25 args, and validating the defaults was most of this step's cost. The plan
 * depends on the endpoint alone, so it is kept on the endpoint object for every dispatcher.
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

/**
 * Fills in the defaults, then checks every arg against its schema and replaces each value with
 * its sanitised form, in place: all of them or none (a missing required arg, or any invalid one,
 * throws WordPress's error naming every such param).
 */
export function validateParams(endpoint: Endpoint, params: Params): void {
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

/** A value a default may be shared as (copied per request): not an object, or a list of such values. */
function plainValue(v: unknown): boolean {
  return (typeof v !== 'object' && typeof v !== 'function') || v === null || (Array.isArray(v) && v.every((x) => typeof x !== 'object' || x === null));
}

function allowsNull(type: unknown): boolean {
  return type === 'null' || (Array.isArray(type) && type.includes('null'));
}
