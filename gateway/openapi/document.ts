// The OpenAPI 3.1 description of the REST interface, derived from the route table alone: paths
// from the patterns, parameters and request bodies from the endpoints' args, security from their
// permission, response bodies from the routes' item schemas (the ones OPTIONS and `context=help`
// print). Nothing here names a route: a route added to the table is described as it is. The
// schemas are rewritten for the wire (./wire.ts): answers as WordPress sends them, inputs as it
// accepts them, so the document holds as a contract (the tests check every answer against it).
import type { ArgDef, Endpoint, Method, RouteEntry } from '../types.js';
import { accepted, answered } from './wire.js';
import { ANSWERS } from './answers.js';

export type OpenApiDocument = Record<string, any>;
type Schema = Record<string, unknown>;

export interface DocumentOptions {
  /** Public base URL of the site, without a trailing slash (SITE_URL). */
  siteUrl: string;
  /** The REST prefix, e.g. /wp-json. */
  restPrefix: string;
  /** The namespaces the deployment advertises. */
  namespaces: string[];
  deployment: string;
  version: string;
}

const CONTEXTS = ['view', 'edit', 'embed'] as const;
/** WordPress's EDITABLE methods: a route that updates answers an item, one that only creates is a collection. */
const EDITABLE: Method[] = ['POST', 'PUT', 'PATCH'];
const SECURITY = 'applicationPassword';
const ERROR_RESPONSES: Record<string, { name: string; description: string }> = {
  400: { name: 'BadRequest', description: 'Invalid or missing parameters (`rest_invalid_param`, `rest_missing_callback_param`) or a request the endpoint refuses.' },
  401: { name: 'Unauthorized', description: 'No or bad credentials where the endpoint needs a signed-in caller (`rest_forbidden`, `rest_cannot_*`, `incorrect_password`).' },
  403: { name: 'Forbidden', description: 'The signed-in caller lacks the capability (`rest_forbidden`, `rest_cannot_*`, `rest_forbidden_context`).' },
  404: { name: 'NotFound', description: 'No such item (`rest_post_invalid_id` and the like), or no route for the path and method (`rest_no_route`).' },
  410: { name: 'Gone', description: 'The item is in the trash already (`rest_already_trashed`).' },
  413: { name: 'TooLarge', description: 'The request body is larger than the site accepts (`rest_request_too_large`).' },
  501: { name: 'NotImplemented', description: 'The item cannot be trashed, only deleted with `force=true` (`rest_trash_not_supported`), or a format the endpoint does not speak.' },
  default: { name: 'Error', description: 'Any other error, as a WordPress error: a method the endpoint refuses (405), a conflict (409), a failed precondition (412), a media type it does not take (415), a server failure (500).' },
};

// ------------------------------------------------------------------------------ paths

interface PathPart { literal?: string; name?: string; regex?: string }

/**
 * Splits a WordPress route pattern into literal text and its named groups, keeping each group's
 * regular expression (groups may nest: `(?P<user_id>(?:[\d]+|me))`).
 */
export function parsePattern(pattern: string): PathPart[] {
  const parts: PathPart[] = [];
  let literal = '';
  let i = 0;
  while (i < pattern.length) {
    if (pattern.startsWith('(?P<', i)) {
      const close = pattern.indexOf('>', i);
      const name = pattern.slice(i + 4, close);
      let depth = 1;
      let j = close + 1;
      let inClass = false;
      for (; j < pattern.length && depth > 0; j++) {
        const c = pattern[j];
        if (c === '\\') { j++; continue; }
        if (inClass) { if (c === ']') inClass = false; continue; }
        if (c === '[') inClass = true;
        else if (c === '(') depth++;
        else if (c === ')') depth--;
      }
      if (literal) parts.push({ literal });
      literal = '';
      parts.push({ name, regex: pattern.slice(close + 1, j - 1) });
      i = j;
      continue;
    }
    // Outside the groups a pattern is literal text; an escaped character stands for itself.
    if (pattern[i] === '\\' && i + 1 < pattern.length) { literal += pattern[i + 1]; i += 2; continue; }
    literal += pattern[i++];
  }
  if (literal) parts.push({ literal });
  return parts;
}

/** `/core/v2/posts/(?P<id>[\d]+)` → `/core/v2/posts/{id}`. */
export function openApiPath(pattern: string): string {
  return parsePattern(pattern).map((p) => (p.name ? `{${p.name}}` : p.literal)).join('');
}

// ------------------------------------------------------------------------------ schemas

const KEEP = new Set([
  'title', 'description', 'default', 'type', 'format', 'enum', 'minProperties', 'maxProperties', 'minimum', 'maximum',
  'multipleOf', 'minLength', 'maxLength', 'pattern', 'minItems', 'maxItems', 'uniqueItems',
]);

/**
 * A WordPress schema (JSON Schema draft 4 with its own additions) as JSON Schema 2020-12, the
 * dialect of OpenAPI 3.1: `required: true` on a property becomes the parent's list, boolean
 * `exclusiveMinimum`/`exclusiveMaximum` become numbers, `readonly` becomes `readOnly`, and
 * `context` (WordPress's view filter) is left out (each view is a schema of its own). With
 * `context`, properties outside that view are dropped, as WordPress filters a response.
 */
export function toJsonSchema(s: Schema, context?: string): Schema {
  const out: Schema = {};
  for (const [key, value] of Object.entries(s)) {
    if (value === undefined) continue;
    if (KEEP.has(key)) out[key] = structuredClone(value);
  }
  if (s.readonly === true || s.readOnly === true) out.readOnly = true;
  for (const bound of ['Minimum', 'Maximum'] as const) {
    const flag = s[`exclusive${bound}`];
    const limit = s[bound.toLowerCase()];
    if (typeof flag === 'number') out[`exclusive${bound}`] = flag;
    else if (flag === true && typeof limit === 'number') { out[`exclusive${bound}`] = limit; delete out[bound.toLowerCase()]; }
  }
  if (s.items && typeof s.items === 'object' && !Array.isArray(s.items)) out.items = toJsonSchema(s.items as Schema, context);
  for (const key of ['anyOf', 'oneOf'] as const) {
    if (Array.isArray(s[key])) out[key] = (s[key] as Schema[]).map((x) => toJsonSchema(x, context));
  }
  if (s.additionalProperties !== undefined) {
    out.additionalProperties = typeof s.additionalProperties === 'object' && s.additionalProperties !== null
      ? toJsonSchema(s.additionalProperties as Schema, context) : s.additionalProperties;
  }
  if (s.patternProperties && typeof s.patternProperties === 'object') {
    out.patternProperties = Object.fromEntries(Object.entries(s.patternProperties as Record<string, Schema>).map(([k, v]) => [k, toJsonSchema(v, context)]));
  }
  const required = new Set(Array.isArray(s.required) ? (s.required as string[]) : []);
  if (s.properties && typeof s.properties === 'object') {
    const properties: Record<string, Schema> = {};
    for (const [name, p] of Object.entries(s.properties as Record<string, Schema>)) {
      if (context && !inContext(p, context)) continue;
      properties[name] = toJsonSchema(p, context);
      if (p.required === true) required.add(name);
    }
    out.properties = properties;
  }
  if (required.size) out.required = [...required];
  return out;
}

/** WordPress keeps a property without `context` in every view. */
const inContext = (p: Schema, context: string) => !Array.isArray(p.context) || (p.context as string[]).includes(context);

/** Whether any property of the schema names its views (the schema is then published once per view). */
function hasContexts(schema: Schema): boolean {
  return Object.values((schema.properties ?? {}) as Record<string, Schema>).some((p) => Array.isArray(p.context));
}

/** An arg as a parameter or body property: its schema, minus the flags that stay on the gateway's side. */
function argSchema(arg: ArgDef): Schema {
  const { required: _required, skipValidation: _skip, ...rest } = arg;
  return accepted(toJsonSchema(rest));
}

/** A parameter's schema: its description is the parameter's, not repeated inside. */
function paramSchema(arg: ArgDef): Schema {
  const { description: _d, ...schema } = argSchema(arg);
  return schema;
}

const componentName = (title: string) => title.replace(/[^A-Za-z0-9._-]+/g, '_').replace(/^_+|_+$/g, '') || 'item';

// ------------------------------------------------------------------------------ the document

export function buildOpenApiDocument(table: RouteEntry[], o: DocumentOptions): OpenApiDocument {
  const schemas: Record<string, Schema> = {
    WP_Error: {
      type: 'object',
      description: 'An error, as WordPress answers it: a machine code, an English message and data with the HTTP status.',
      required: ['code', 'message', 'data'],
      properties: {
        code: { type: 'string', description: 'Machine-readable code, e.g. `rest_invalid_param`.' },
        message: { type: 'string' },
        data: {
          type: 'object', required: ['status'], additionalProperties: true,
          properties: {
            status: { type: 'integer', description: 'The HTTP status.' },
            params: {
              description: 'Per parameter, why it was refused (`rest_invalid_param`); the names of the missing ones (`rest_missing_callback_param`).',
              anyOf: [{ type: 'object', additionalProperties: { type: 'string' } }, { type: 'array', items: { type: 'string' } }],
            },
          },
        },
        additional_errors: { type: 'array', items: { type: 'object', properties: { code: { type: 'string' }, message: { type: 'string' }, data: {} } } },
      },
    },
  };
  const responses: Record<string, unknown> = {};
  for (const [status, r] of Object.entries(ERROR_RESPONSES)) {
    responses[r.name] = { description: r.description, content: { 'application/json': { schema: { $ref: '#/components/schemas/WP_Error' } } } };
  }
  responses.Refused = {
    description: 'A refusal: a WordPress error, or the body of the service the route stands in for, as that service answers it.',
    content: { 'application/json': { schema: { anyOf: [{ $ref: '#/components/schemas/WP_Error' }, { type: 'object' }] } } },
  };

  // One component per item schema and view; the same schema met on several routes is published once.
  const published = new Map<string, string>();
  const byText = new Map<string, string>();
  /** A schema met again (the same write body on several endpoints) keeps its first name. */
  function share(base: string, schema: Schema): string {
    const text = JSON.stringify(schema);
    const known = byText.get(text);
    if (known) return known;
    const name = register(base, schema);
    byText.set(text, name);
    return name;
  }
  const seen = new Map<() => Record<string, unknown>, Record<string, string>>();
  function register(base: string, schema: Schema): string {
    const text = JSON.stringify(schema);
    let name = base;
    for (let n = 2; schemas[name] && published.get(name) !== text; n++) name = `${base}_${n}`;
    schemas[name] = schema;
    published.set(name, text);
    return name;
  }
  /** The route's item schema, by view: `{ view: 'post.view', … }`, or `{ '': 'name' }` when it has no views. */
  function views(route: RouteEntry): Record<string, string> {
    const known = seen.get(route.schema!);
    if (known) return known;
    const item = route.schema!() as Schema;
    const base = componentName(String(item.title ?? route.pattern));
    const out: Record<string, string> = {};
    if (hasContexts(item)) {
      for (const c of CONTEXTS) {
        out[c] = register(`${base}.${c}`, { ...answered(toJsonSchema(item, c)), description: `${item.title ?? base}, as answered with \`context=${c}\`.` });
      }
    } else {
      out[''] = register(base, answered(toJsonSchema(item)));
    }
    seen.set(route.schema!, out);
    return out;
  }
  const ref = (name: string) => ({ $ref: `#/components/schemas/${name}` });

  /** The item a response holds: the views the endpoint's `context` arg allows (its default first). */
  function itemResponse(route: RouteEntry, endpoint: Endpoint, method: Method): Schema {
    const v = views(route);
    if (v['']) return ref(v['']);
    if (method !== 'GET') return ref(v.edit);
    const arg = endpoint.args.context;
    const allowed = (Array.isArray(arg?.enum) ? (arg.enum as string[]) : ['view']).filter((c) => v[c]);
    const first = typeof arg?.default === 'string' && allowed.includes(arg.default) ? [arg.default] : [];
    const order = [...new Set([...first, ...allowed])];
    if (order.length <= 1) return ref(v[order[0] ?? 'view']);
    return { anyOf: order.map((c) => ref(v[c])), description: 'The view `context` asks for (see the components `*.view`, `*.edit`, `*.embed`).' };
  }

  const paths: Record<string, Record<string, unknown>> = {};
  const operationIds = new Set<string>();
  const tags = new Map<string, string>();

  for (const route of table) {
    const parts = parsePattern(route.pattern);
    const path = openApiPath(route.pattern);
    const pathNames = new Set(parts.filter((p) => p.name).map((p) => p.name!));
    const tag = route.namespace || route.pattern.split('/').filter(Boolean).slice(0, 2).join('/') || 'index';
    if (!tags.has(tag)) tags.set(tag, route.namespace ? `The ${route.namespace} namespace.` : 'The index and routes outside any namespace.');
    const collection = !route.endpoints.some((e) => EDITABLE.every((m) => e.methods.includes(m))) && route.endpoints.some((e) => e.methods.includes('POST') && e.methods.length === 1);
    const item = paths[path] ??= {};

    for (const endpoint of route.endpoints) {
      for (const method of endpoint.methods) {
        const key = method.toLowerCase();
        // As the dispatcher: the first route that matches a path answers it.
        if (item[key]) continue;
        item[key] = operation(route, endpoint, method, { parts, pathNames, tag, collection });
      }
    }
  }

  function operation(route: RouteEntry, endpoint: Endpoint, method: Method, r: { parts: PathPart[]; pathNames: Set<string>; tag: string; collection: boolean }): Record<string, unknown> {
    const parameters: Record<string, unknown>[] = [];
    for (const part of r.parts) {
      if (!part.name) continue;
      const arg = endpoint.args[part.name];
      parameters.push({
        name: part.name, in: 'path', required: true,
        ...(arg?.description ? { description: arg.description } : {}),
        schema: { ...(arg ? paramSchema(arg) : { type: 'string' }), pattern: `^${part.regex}$` },
      });
    }
    const bodyArgs = Object.entries(endpoint.args).filter(([name]) => !r.pathNames.has(name));
    const inBody = EDITABLE.includes(method);
    if (!inBody) {
      for (const [name, arg] of bodyArgs) {
        const schema = paramSchema(arg);
        const type = [schema.type].flat();
        parameters.push({
          name, in: 'query', required: arg.required === true,
          ...(arg.description ? { description: arg.description } : {}),
          schema,
          // Lists as `a=1,2` (WordPress splits them), objects as `a[b]=1` (PHP brackets).
          ...(type.includes('array') ? { style: 'form', explode: false } : type.includes('object') ? { style: 'deepObject', explode: true } : {}),
        });
      }
    }
    const op: Record<string, unknown> = {
      tags: [r.tag],
      summary: summary(route, method, r.collection),
      operationId: operationId(method, route.pattern),
      description: describe(endpoint),
      ...(parameters.length ? { parameters } : {}),
    };
    if (inBody) {
      const properties: Record<string, Schema> = {};
      const required: string[] = [];
      for (const [name, arg] of bodyArgs) {
        properties[name] = argSchema(arg);
        if (arg.required === true) required.push(name);
      }
      const fields: Schema = { type: 'object', properties, ...(required.length ? { required } : {}) };
      const title = route.schema ? String((route.schema() as Schema).title ?? '') : '';
      const body = ref(share(title ? `${componentName(title)}.write` : `${operationId(method, route.pattern, false)}.body`, fields));
      const content: Record<string, unknown> = {};
      if (endpoint.upload) {
        content['multipart/form-data'] = { schema: { ...fields, properties: { file: { type: 'string', contentMediaType: 'application/octet-stream', description: 'The file.' }, ...properties } } };
        content['application/octet-stream'] = { schema: { type: 'string', contentMediaType: 'application/octet-stream', description: 'The file itself, named by a `Content-Disposition: attachment; filename=…` header (any media type); fields go in the query string.' } };
      } else {
        content['application/json'] = { schema: body };
        content['application/x-www-form-urlencoded'] = { schema: body };
        if (endpoint.formUpload) content['multipart/form-data'] = { schema: { allOf: [body], additionalProperties: true, description: 'Fields, and files under any field name.' } };
      }
      op.requestBody = { required: required.length > 0 || !!endpoint.upload, content };
    }
    op.responses = responsesOf(route, endpoint, method, r.collection, parameters.some((p) => p.in === 'path'));
    if (endpoint.permission === 'public') op.security = [{}, { [SECURITY]: [] }];
    op['x-permission'] = endpoint.permission;
    if (endpoint.allowBatch) op['x-batch'] = true;
    return op;
  }

  function responsesOf(route: RouteEntry, endpoint: Endpoint, method: Method, collection: boolean, hasPathParams: boolean): Record<string, unknown> {
    const out: Record<string, unknown> = {};
    const notes = ANSWERS[`${method} ${openApiPath(route.pattern)}`] ?? {};
    // A paginated GET answers a list whatever else the route does (revisions, abilities).
    const list = method === 'GET' && (collection || 'per_page' in endpoint.args);
    const paged = list && 'per_page' in endpoint.args;
    const headers: Record<string, unknown> = {};
    if (paged) {
      headers['X-WP-Total'] = { required: true, description: 'How many items match, on every page.', schema: { type: 'integer', minimum: 0 } };
      headers['X-WP-TotalPages'] = { required: true, description: 'How many pages of `per_page` items there are.', schema: { type: 'integer', minimum: 0 } };
      headers.Link = { description: 'The `prev` and `next` pages, where there are any.', schema: { type: 'string' } };
    }
    if (method === 'GET') {
      headers.Allow = { description: 'The methods the caller may use on this route.', schema: { type: 'string' } };
      headers.ETag = { description: 'On anonymous reads: the answer\'s strong validator (`If-None-Match` answers 304).', schema: { type: 'string' } };
    }
    /** The success answer's media types: JSON, what the handler also sends, and JSONP for reads. */
    const content = (schema: Schema): Record<string, unknown> => ({
      'application/json': { schema },
      ...Object.fromEntries(Object.entries(notes.types ?? {}).map(([t, d]) => [t, { schema: { type: 'string', description: d } }])),
      ...(method === 'GET' ? { 'application/javascript': { schema: { type: 'string', description: 'With `_jsonp=callback`: the JSON wrapped in a call of that function.' } } } : {}),
    });
    const withHeaders = (r: Record<string, unknown>, extra: Record<string, unknown> = {}) => {
      const all = { ...headers, ...extra };
      return Object.keys(all).length ? { ...r, headers: all } : r;
    };
    if (route.schema) {
      const one = itemResponse(route, endpoint, method);
      if (method === 'GET') {
        out['200'] = withHeaders({
          description: list ? 'The items of the page asked for; `X-WP-Total` and `X-WP-TotalPages` count them all.' : 'The item.',
          content: content(list ? { type: 'array', items: one } : one),
        });
      } else if (method === 'DELETE') {
        out['200'] = {
          description: 'The item moved to the trash, or with `force=true` its last state.',
          content: content({ anyOf: [one, { type: 'object', required: ['deleted'], properties: { deleted: { type: 'boolean' }, previous: one } }] }),
        };
      } else if (collection && method === 'POST') {
        out['201'] = {
          description: 'The item made; `Location` is its address.', content: content(one),
          headers: { Location: { description: 'The address of the item made.', schema: { type: 'string', format: 'uri' } } },
        };
      } else {
        out['200'] = { description: 'The item as it now is.', content: content(one) };
      }
      for (const [status, description] of Object.entries(notes.statuses ?? {})) out[status] ??= { description, content: content(one) };
    } else {
      out['2XX'] = withHeaders({ description: 'The answer (this route publishes no item schema).', content: content({}) });
    }
    const error = (status: string) => ({ $ref: `#/components/responses/${ERROR_RESPONSES[status].name}` });
    // Without an item schema a handler may pass on another service's refusal as it came.
    const refusal = route.schema ? error('400') : { $ref: '#/components/responses/Refused' };
    if (Object.keys(endpoint.args).length || endpoint.upload || !route.schema) out['400'] = refusal;
    out['401'] = error('401');
    const editable = Array.isArray(endpoint.args.context?.enum) && (endpoint.args.context.enum as string[]).includes('edit');
    if (endpoint.permission !== 'public' || editable) out['403'] = error('403');
    if (hasPathParams || !route.schema) out['404'] = route.schema ? error('404') : { $ref: '#/components/responses/Refused' };
    if (method === 'DELETE') { out['410'] = error('410'); out['501'] = error('501'); }
    if (EDITABLE.includes(method)) out['413'] = error('413');
    if (method === 'GET' && route.schema === undefined) out['501'] = error('501');
    if (method === 'GET') out['304'] = { description: 'Not modified: `If-None-Match` names the answer\'s `ETag` (anonymous reads); no body.' };
    out.default = error('default');
    return out;
  }

  function summary(route: RouteEntry, method: Method, collection: boolean): string {
    const title = route.schema ? String((route.schema() as Schema).title ?? '') : '';
    if (!title) return `${method} ${openApiPath(route.pattern)}`;
    if (method === 'GET') return collection ? `List ${title} items` : `Get ${title}`;
    if (method === 'DELETE') return `Delete ${title}`;
    return collection && method === 'POST' ? `Create ${title}` : `Update ${title}`;
  }

  function operationId(method: Method, pattern: string, claim = true): string {
    const words = openApiPath(pattern).split(/[^A-Za-z0-9]+/).filter(Boolean);
    const base = method.toLowerCase() + words.map((w) => w[0].toUpperCase() + w.slice(1)).join('');
    if (!claim) return base;
    let id = base;
    for (let n = 2; operationIds.has(id); n++) id = `${base}${n}`;
    operationIds.add(id);
    return id;
  }

  function describe(endpoint: Endpoint): string {
    const lines = [endpoint.permission === 'public'
      ? 'Public: callers need no credentials (signed-in callers may see more).'
      : `Needs a signed-in caller with the \`${endpoint.permission}\` capability.`];
    if (endpoint.allowBatch) lines.push('May be sent inside a `batch/v1` request.');
    if (endpoint.upload) lines.push('Takes a file: a multipart form (part `file`) or the raw body.');
    return lines.join(' ');
  }

  return {
    openapi: '3.1.0',
    info: {
      title: 'Content service REST API',
      version: o.version,
      description: [
        `The WordPress-compatible REST interface of this site (deployment ${o.deployment}; namespaces ${o.namespaces.join(', ')}), generated from its route table.`,
        'Parameters may also be sent in the query string of any method. Every route accepts `_fields`, `_embed`, `_envelope`, `_jsonp`, `_method` and `_pretty` (WordPress\'s global parameters).',
        'Signing in: HTTP Basic with a user login and an application password.',
      ].join('\n\n'),
    },
    servers: [{ url: `${o.siteUrl}${o.restPrefix}`, description: 'This site' }],
    security: [{ [SECURITY]: [] }],
    tags: [...tags].map(([name, description]) => ({ name, description })),
    paths,
    components: {
      schemas,
      responses,
      securitySchemes: {
        [SECURITY]: { type: 'http', scheme: 'basic', description: 'A user login and one of their application passwords (users/me/application-passwords).' },
      },
    },
  };
}
