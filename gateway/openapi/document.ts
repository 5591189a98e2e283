// The OpenAPI 3.1 description of the REST interface, derived from the route table alone: paths
// from the patterns, parameters and request bodies from the endpoints' args, security from their
// permission, response bodies from the routes' item schemas (the ones OPTIONS and `context=help`
// print). Nothing here names a route: a route added to the table is described as it is. The
// schemas are rewritten for the wire (./wire.ts): answers as WordPress sends them, inputs as it
// accepts them, so the document holds as a contract (the tests check every answer against it).
import type { ArgDef, Endpoint, Method, RouteEntry } from '../types.js';
import { accepted, answered } from './wire.js';
import { ANSWERS } from './answers.js';
import { SENT_ONLY } from '../../src/resources/json-schema.js';

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
  /** The service's licence (package.json `license`), named in `info`. */
  license?: string;
}

const CONTEXTS = ['view', 'edit', 'embed'] as const;
/** WordPress's EDITABLE methods: a route that updates answers an item, one that only creates is a collection. */
const EDITABLE: Method[] = ['POST', 'PUT', 'PATCH'];
/**
 * WordPress's global parameters (`WP_REST_Server::serve_request`), published once under
 * components/parameters and referenced where they apply: `_embed` and `_fields` on reads,
 * `_jsonp` on GET, `_method` on POST where the path has a method some clients cannot send,
 * `_envelope` and `_pretty` on every operation.
 */
const GLOBAL_PARAMETERS = {
  _embed: {
    name: '_embed', in: 'query', required: false, style: 'form', explode: false,
    description: 'Adds `_embedded`: the embeddable links of the answer, fetched as the same caller in the `embed` view; `true` (or empty) for all, or the relations to embed (`author,wp:term`).',
    schema: { anyOf: [{ type: 'boolean' }, { type: 'array', items: { type: 'string' } }] },
  },
  _fields: {
    name: '_fields', in: 'query', required: false, style: 'form', explode: false,
    description: 'Only these keys of each item (`id,title.rendered`); the answer is then a part of the item schema.',
    schema: { type: 'array', items: { type: 'string' } },
  },
  _envelope: {
    name: '_envelope', in: 'query', required: false,
    description: 'Present (any value, or none): the answer is always `200` and its body `{body, status, headers}` (`x-answer`), holding what would have been answered (for clients that cannot read statuses or headers).',
    schema: { type: 'string' },
    // The answer's shape, for tools that check answers; OpenAPI cannot tie a response to a parameter.
    'x-answer': {
      type: 'object', required: ['body', 'status', 'headers'],
      description: 'The answer the request would have had, as a `200` body.',
      properties: {
        body: { description: 'The body that would have been answered (an error\'s too).' },
        status: { type: 'integer', minimum: 100, maximum: 599, description: 'The status that would have been answered.' },
        headers: { type: 'object', additionalProperties: true, description: 'The headers the route set (`X-WP-Total`, `Location`, `Allow` …), with their values as the route set them.' },
      },
    },
  },
  _jsonp: {
    name: '_jsonp', in: 'query', required: false,
    description: 'A callback name: the answer is `application/javascript`, the JSON wrapped in a call of that function (`/**/cb(…)`); a name with other characters is refused (`rest_callback_invalid`, 400).',
    schema: { type: 'string', pattern: '^[\\w.]+$' },
  },
  _method: {
    name: '_method', in: 'query', required: false,
    description: 'Serves this POST as the method named (any case), for clients that can only send GET and POST; the `X-HTTP-Method-Override` header does the same. The answer is then that operation\'s.',
    schema: { type: 'string', enum: ['PUT', 'PATCH', 'DELETE'] },
  },
  _pretty: {
    name: '_pretty', in: 'query', required: false,
    description: 'Present (any value, or none): the JSON is indented; the answer is otherwise the same.',
    schema: { type: 'string' },
  },
} satisfies Record<string, Record<string, unknown>>;
type GlobalName = keyof typeof GLOBAL_PARAMETERS;
/** The global parameters an operation takes, in the order they are listed. */
function globalsOf(method: Method, pathMethods: Set<string>): GlobalName[] {
  const out: GlobalName[] = [];
  if (method === 'GET') out.push('_embed', '_fields', '_jsonp');
  if (method === 'POST' && ['PUT', 'PATCH', 'DELETE'].some((m) => pathMethods.has(m))) out.push('_method');
  out.push('_envelope', '_pretty');
  return out;
}
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
  if (isTextField(arg)) return textField(arg);
  return accepted(toJsonSchema(rest));
}

/**
 * A text field whose schema is the `{raw, rendered}` object it answers with and whose value is not
 * checked against it (WordPress's title, content, excerpt, caption, description: `arg_options`
 * without validation). It takes what WordPress clients send: a plain string, `{raw}`, or null.
 */
const isTextField = (arg: ArgDef) => arg.skipValidation === true && arg.type === 'object'
  && typeof arg.properties === 'object' && arg.properties !== null && 'raw' in (arg.properties as Schema);

function textField(arg: ArgDef): Schema {
  const raw = (arg.properties as Record<string, Schema>).raw;
  return {
    ...(arg.description ? { description: arg.description } : {}),
    oneOf: [
      { type: 'string', description: 'The text as it is to be stored.' },
      { type: 'object', properties: { raw: { type: 'string', ...(raw.description ? { description: raw.description } : {}) } }, description: 'The text under `raw`, as the edit view answers it; other keys are ignored.' },
      { type: 'null', description: 'Empties the field.' },
    ],
  };
}

/** A parameter's schema: its description is the parameter's, not repeated inside. */
function paramSchema(arg: ArgDef): Schema {
  const { description: _d, ...schema } = argSchema(arg);
  return schema;
}

/** `post-revision` → `PostRevision`: a component name a generated client can use as a type name. */
const pascal = (text: string) => text.split(/[^A-Za-z0-9]+/).filter(Boolean).map((w) => w[0].toUpperCase() + w.slice(1)).join('') || 'Item';
/** `categories` → `category`, `autosaves` → `autosave` (names of collections as the item they hold). */
const singular = (word: string) => (/ies$/.test(word) ? word.slice(0, -3) + 'y' : /[^s]s$/.test(word) ? word.slice(0, -1) : word);
/** The literal words of a route after its namespace: `/core/v2/posts/(?P<id>…)/autosaves` → `PostAutosave`. */
function pathName(route: RouteEntry, singularize = true): string {
  const rest = route.namespace && route.pattern.startsWith(`/${route.namespace}`) ? route.pattern.slice(route.namespace.length + 1) : route.pattern;
  const words = parsePattern(rest).filter((p) => p.literal).flatMap((p) => p.literal!.split('/')).filter(Boolean);
  return pascal((singularize ? words.map(singular) : words).join('-'));
}
const VIEW_SUFFIX: Record<string, string> = { view: 'View', edit: 'Edit', embed: 'Embed' };

/**
 * Whether a property may be missing from an answer of a view it is in: only a field its definition
 * says is sent in some answers alone (`FieldDef.sentOnly`: an application password's `password`,
 * printed on its creation only). Every other property of a view, the fields other parts add
 * (`seo_head`) included, is in every answer of that view, reads and writes alike, and `required`
 * promises it; the suite's answers are checked against that.
 */
function sometimesLeftOut(p: Schema | undefined): boolean {
  return !!p && typeof (p as Record<symbol, unknown>)[SENT_ONLY] === 'string';
}

/**
 * A view with the keys the REST server adds to an item: `_links`, and `_embedded` when the request
 * asks for `_embed` (in any view; the items inside it are not embedded further). Neither is in
 * `required`: the server adds them where the item has links, and `_fields` may leave them out.
 */
function withLinks(view: Schema, context: string): Schema {
  if (!context) return view;
  const properties = { ...((view.properties ?? {}) as Schema), _links: { $ref: '#/components/schemas/Links' }, _embedded: { $ref: '#/components/schemas/Embedded' } };
  return { ...view, properties };
}

/**
 * What an item carries in one view whatever its state: the view's properties, and inside an object
 * whose properties name their views (`title.raw` in edit, `title.rendered` in all), those of the view.
 * The answers of the whole suite are checked against these lists.
 */
function sentIn(item: Schema, view: Schema, context: string): Schema {
  const props = (item.properties ?? {}) as Record<string, Schema>;
  const out: Schema = { ...view };
  const viewProps = { ...((view.properties ?? {}) as Record<string, Schema>) };
  for (const [name, p] of Object.entries(props)) {
    if (!viewProps[name] || !p.properties || typeof p.properties !== 'object') continue;
    const inner = Object.values(p.properties as Record<string, Schema>);
    if (!inner.length || !inner.every((x) => Array.isArray(x.context))) continue;
    const names = Object.entries(p.properties as Record<string, Schema>).filter(([, x]) => inContext(x, context)).map(([k]) => k);
    if (names.length && viewProps[name].properties) viewProps[name] = { ...viewProps[name], required: names };
  }
  out.properties = viewProps;
  const required = Object.keys(viewProps).filter((name) => !sometimesLeftOut(props[name]));
  if (required.length) out.required = required;
  return out;
}

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
  schemas.Link = {
    type: 'object', required: ['href'], additionalProperties: true,
    description: 'A link of `_links`, as WordPress prints it (HAL).',
    properties: {
      href: { type: 'string', description: 'The address; with `templated`, a URI template.' },
      embeddable: { type: 'boolean', description: 'Whether `_embed` fetches it into `_embedded`.' },
      templated: { type: 'boolean' },
      name: { type: 'string', description: 'The prefix a `curies` link stands for (`wp`).' },
      taxonomy: { type: 'string', description: 'On `wp:term`: the taxonomy the terms belong to.' },
      count: { type: 'integer', description: 'On `version-history`: how many revisions there are.' },
      id: { type: 'integer', description: 'On `predecessor-version`: the id of the newest revision.' },
      targetHints: { type: 'object', additionalProperties: true, properties: { allow: { type: 'array', items: { type: 'string' } } }, description: 'On `self`: the methods the caller may use.' },
    },
  };
  schemas.Links = {
    type: 'object', additionalProperties: { type: 'array', items: { $ref: '#/components/schemas/Link' } },
    description: 'The item\'s links by relation (`self`, `collection`, `author`, `wp:term`, `wp:featuredmedia`, `curies` …), each a list.',
  };
  schemas.Embedded = {
    type: 'object', additionalProperties: { type: 'array', items: {} },
    description: 'With `_embed`: per embeddable relation of `_links`, what its links answer in the `embed` view, in the order of the links (an item, or the WordPress error its link answered; `wp:term` holds one list of terms per taxonomy).',
  };
  // What OPTIONS answers (and the index prints per route): `get_data_for_route` of WordPress's REST server.
  schemas.RouteDescription = {
    type: 'object', required: ['namespace', 'methods', 'endpoints'],
    description: 'A route as WordPress describes it (OPTIONS, and each route of the index).',
    properties: {
      namespace: { type: 'string', description: 'The namespace the route belongs to (`core/v2`); empty outside any.' },
      methods: { type: 'array', items: { type: 'string' }, description: 'Every method of the route\'s endpoints.' },
      endpoints: { type: 'array', items: { $ref: '#/components/schemas/RouteEndpoint' } },
      schema: { type: 'object', additionalProperties: true, description: 'The item schema, as WordPress writes it (JSON Schema draft 4 with `context`, `readonly` …), where the route has one.' },
      _links: { $ref: '#/components/schemas/Links' },
    },
  };
  schemas.RouteEndpoint = {
    type: 'object', required: ['methods', 'args'],
    description: 'An endpoint of a route: its methods and the args it takes.',
    properties: {
      methods: { type: 'array', items: { type: 'string' } },
      allow_batch: { type: 'object', properties: { v1: { type: 'boolean' } }, description: 'Whether it may be sent inside a `batch/v1` request.' },
      args: {
        anyOf: [{ type: 'object', additionalProperties: { $ref: '#/components/schemas/RouteArg' } }, { type: 'array', maxItems: 0 }],
        description: 'The args by name (`[]` when there are none, as PHP prints an empty array).',
      },
    },
  };
  schemas.RouteArg = {
    type: 'object', required: ['required'], additionalProperties: true,
    description: 'An arg: its JSON Schema keywords (`type`, `enum`, `default`, `description` …) and whether it is required.',
    properties: { required: { type: 'boolean' }, description: { type: 'string' } },
  };
  const responses: Record<string, unknown> = {};
  for (const [status, r] of Object.entries(ERROR_RESPONSES)) {
    responses[r.name] = { description: r.description, content: { 'application/json': { schema: { $ref: '#/components/schemas/WP_Error' } } } };
  }
  responses.Refused = {
    description: 'A refusal: a WordPress error, or the body of the service the route stands in for, as that service answers it.',
    content: { 'application/json': { schema: { anyOf: [{ $ref: '#/components/schemas/WP_Error' }, { type: 'object' }] } } },
  };

  // One component per item schema and view, named for a generated client (`PostView`, `PostEdit`,
  // `PostEmbed`); the same schema met on several routes is published once.
  const published = new Map<string, string>();
  const byText = new Map<string, string>();
  const taken = (name: string, text: string) => !!schemas[name] && published.get(name) !== text;
  /** A body met again under the same name (an update's on POST, PUT and PATCH) is published once. */
  function share(names: string[], schema: Schema): string {
    const text = JSON.stringify(schema);
    const key = `${names[0]} ${text}`;
    const known = byText.get(key);
    if (known) return known;
    const name = register(names.find((n) => !taken(n, text)) ?? names[0], schema);
    byText.set(key, name);
    return name;
  }
  const seen = new Map<() => Record<string, unknown>, { base: string; views: Record<string, string> }>();
  function register(base: string, schema: Schema): string {
    const text = JSON.stringify(schema);
    let name = base;
    for (let n = 2; taken(name, text); n++) name = `${base}${n}`;
    schemas[name] = schema;
    published.set(name, text);
    return name;
  }
  /**
   * The route's item schema, by view: `{ view: 'PostView', … }`, or `{ '': 'Name' }` when it has no
   * views. Named after the schema's title; a title another schema has already (revisions and
   * autosaves are both `post-revision`) names it after its route (`PostAutosave`).
   */
  function itemViews(route: RouteEntry): { base: string; views: Record<string, string> } {
    const known = seen.get(route.schema!);
    if (known) return known;
    const item = route.schema!() as Schema;
    const made: Record<string, Schema> = {};
    if (hasContexts(item)) {
      for (const c of CONTEXTS) {
        made[c] = withLinks(sentIn(item, answered(toJsonSchema(item, c)), c), c);
        made[c].description = `${item.title ?? route.pattern}, as answered with \`context=${c}\`.`;
      }
    } else {
      made[''] = withLinks(sentIn(item, answered(toJsonSchema(item)), 'view'), '');
    }
    const names = (base: string) => Object.keys(made).map((c) => `${base}${VIEW_SUFFIX[c] ?? ''}`);
    const clash = (base: string) => Object.keys(made).some((c, i) => taken(names(base)[i], JSON.stringify(made[c])));
    let base = pascal(String(item.title ?? '')) ;
    if (!item.title || clash(base)) base = pathName(route);
    const views: Record<string, string> = {};
    for (const [i, c] of Object.keys(made).entries()) views[c] = register(names(base)[i], made[c]);
    const out = { base, views };
    seen.set(route.schema!, out);
    return out;
  }
  const views = (route: RouteEntry) => itemViews(route).views;
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
    return { anyOf: order.map((c) => ref(v[c])), description: 'The view `context` asks for (the components `…View`, `…Edit`, `…Embed`).' };
  }

  const paths: Record<string, Record<string, unknown>> = {};
  const shape = (p: string) => openApiPath(p).replace(/\{[^}]*\}/g, '{}');
  /** Whether a route of the table addresses items under this one (`/types` → `/types/{type}`). */
  const hasItemsUnder = (route: RouteEntry) => table.some((other) => shape(other.pattern).startsWith(`${shape(route.pattern)}/{}`));
  const operationIds = new Set<string>();
  const tags = new Map<string, string>();

  for (const route of table) {
    const parts = parsePattern(route.pattern);
    const path = openApiPath(route.pattern);
    const pathNames = new Set(parts.filter((p) => p.name).map((p) => p.name!));
    const tag = route.namespace || route.pattern.split('/').filter(Boolean).slice(0, 2).join('/') || 'index';
    if (!tags.has(tag)) tags.set(tag, route.namespace ? `The ${route.namespace} namespace.` : 'The index and routes outside any namespace.');
    const collection = !route.endpoints.some((e) => EDITABLE.every((m) => e.methods.includes(m))) && route.endpoints.some((e) => e.methods.includes('POST') && e.methods.length === 1);
    // A POST-only route with no item route under it acts on something (`/media/{id}/edit`) rather than holding items.
    const action = collection && !hasItemsUnder(route);
    const item = paths[path] ??= {};
    // The methods the path answers, whichever route of the table serves each.
    const pathMethods = new Set(table.filter((t) => openApiPath(t.pattern) === path).flatMap((t) => t.endpoints.flatMap((e) => e.methods)));

    for (const endpoint of route.endpoints) {
      for (const method of endpoint.methods) {
        const key = method.toLowerCase();
        // As the dispatcher: the first route that matches a path answers it.
        if (item[key]) continue;
        item[key] = operation(route, endpoint, method, { parts, pathNames, pathMethods, tag, collection, action });
      }
    }
  }

  // HEAD beside every GET (the dispatcher serves it as the GET, without the body) and OPTIONS on
  // every path (WordPress answers the description of the route the path matches).
  for (const [path, item] of Object.entries(paths)) {
    const route = table.find((t) => openApiPath(t.pattern) === path)!;
    const first = Object.values(item)[0] as Record<string, any>;
    if (item.get) item.head = headOf(item.get as Record<string, any>, route.pattern);
    const inPath = ((first.parameters ?? []) as Record<string, unknown>[]).filter((p) => p.in === 'path');
    item.options = {
      tags: first.tags,
      summary: `Describe ${path}`,
      operationId: operationId('OPTIONS', route.pattern),
      description: 'The route as WordPress describes it: its namespace, methods and endpoints with their args and, where it has one, the item schema (as `context=help` prints it). Public: callers need no credentials (bad ones are refused).',
      parameters: [...inPath, ...(['_envelope', '_pretty'] as const).map((name) => ({ $ref: `#/components/parameters/${name}` }))],
      responses: {
        200: {
          description: 'The route\'s description; `Allow` names the methods the caller may use.',
          headers: { Allow: { description: 'The methods the caller may use on this route.', schema: { type: 'string' } } },
          content: { 'application/json': { schema: ref('RouteDescription') } },
        },
        401: { $ref: `#/components/responses/${ERROR_RESPONSES[401].name}` },
        default: { $ref: `#/components/responses/${ERROR_RESPONSES.default.name}` },
      },
      security: [{}, { [SECURITY]: [] }],
      'x-permission': 'public',
    };
  }

  /** A GET's HEAD: the same parameters, statuses and headers, no content. */
  function headOf(get: Record<string, any>, pattern: string): Record<string, unknown> {
    const out: Record<string, unknown> = {};
    for (const [status, r] of Object.entries<Record<string, any>>(get.responses)) {
      const name = typeof r.$ref === 'string' ? r.$ref.split('/').pop() : undefined;
      const response = name ? (responses[name] as Record<string, any>) : r;
      out[status] = { description: `As GET, no body: ${response.description}`, ...(response.headers ? { headers: response.headers } : {}) };
    }
    return {
      tags: get.tags,
      summary: `Headers of ${get.summary}`,
      operationId: operationId('HEAD', pattern),
      description: `The GET's status and headers, without its body. ${get.description}`,
      ...(get.parameters ? { parameters: get.parameters } : {}),
      responses: out,
      ...(get.security ? { security: get.security } : {}),
      'x-permission': get['x-permission'],
    };
  }

  function operation(route: RouteEntry, endpoint: Endpoint, method: Method, r: { parts: PathPart[]; pathNames: Set<string>; pathMethods: Set<string>; tag: string; collection: boolean; action: boolean }): Record<string, unknown> {
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
    // WordPress's global parameters, beside the endpoint's own (an arg of the same name wins).
    for (const name of globalsOf(method, r.pathMethods)) if (!(name in endpoint.args)) parameters.push({ $ref: `#/components/parameters/${name}` });
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
    // An endpoint that takes no fields describes no body (it ignores one).
    if (inBody && (bodyArgs.length || endpoint.upload || endpoint.formUpload)) {
      const properties: Record<string, Schema> = {};
      const required: string[] = [];
      for (const [name, arg] of bodyArgs) {
        properties[name] = argSchema(arg);
        if (arg.required === true) required.push(name);
      }
      const fields: Schema = { type: 'object', properties, ...(required.length ? { required } : {}) };
      const names = bodyNames(route, method, r);
      const body = () => ref(share(names, fields));
      const content: Record<string, unknown> = {};
      if (endpoint.upload) {
        const form = { ...fields, properties: { file: { type: 'string', contentMediaType: 'application/octet-stream', description: 'The file.' }, ...properties } };
        content['multipart/form-data'] = { schema: ref(share(names, form)) };
        content['application/octet-stream'] = { schema: { type: 'string', contentMediaType: 'application/octet-stream', description: 'The file itself, named by a `Content-Disposition: attachment; filename=…` header (any media type); fields go in the query string.' } };
      } else {
        content['application/json'] = { schema: body() };
        content['application/x-www-form-urlencoded'] = { schema: body() };
        if (endpoint.formUpload) content['multipart/form-data'] = { schema: { allOf: [body()], additionalProperties: true, description: 'Fields, and files under any field name.' } };
      }
      op.requestBody = { required: required.length > 0 || !!endpoint.upload, content };
    }
    op.responses = responsesOf(route, endpoint, method, r.collection, r.pathNames.size > 0);
    if (endpoint.permission === 'public') op.security = [{}, { [SECURITY]: [] }];
    op['x-permission'] = endpoint.permission;
    if (endpoint.allowBatch) op['x-batch'] = true;
    return op;
  }

  /**
   * The names a write body is published under, best first: `PostCreate` on a collection,
   * `PostUpdate` on an item, `AttachmentEditRequest` on an action route of a resource
   * (`/media/{id}/edit`), and after the path (`SeoV1AlertsDismissRequest`) without an item schema.
   */
  function bodyNames(route: RouteEntry, method: Method, r: { collection: boolean; action: boolean }): string[] {
    const words = pascal(openApiPath(route.pattern).replace(/\{[^}]*\}/g, ''));
    if (!route.schema) return [`${words}Request`];
    const base = itemViews(route).base;
    const last = parsePattern(route.pattern).at(-1)?.literal?.split('/').filter(Boolean).at(-1);
    if (r.action && last) return [`${base}${pascal(last)}Request`, `${words}Request`];
    if (r.collection && method === 'POST') return [`${base}Create`, `${pathName(route)}Create`, `${words}Request`];
    return [`${base}Update`, `${pathName(route)}Update`, `${words}Request`];
  }

  function responsesOf(route: RouteEntry, endpoint: Endpoint, method: Method, collection: boolean, hasPathParams: boolean): Record<string, unknown> {
    const out: Record<string, unknown> = {};
    const notes = ANSWERS[`${method} ${openApiPath(route.pattern)}`] ?? {};
    // A paginated GET answers a list whatever else the route does (revisions, abilities).
    const list = method === 'GET' && (collection || 'per_page' in endpoint.args);
    const paged = list && 'per_page' in endpoint.args;
    // A read that is not a list but has items under it (types, taxonomies, statuses) answers them keyed by slug, as WordPress.
    const keyed = method === 'GET' && !list && hasItemsUnder(route);
    const headers: Record<string, unknown> = {};
    if (paged) {
      headers['X-WP-Total'] = { required: true, description: 'How many items match, on every page.', schema: { type: 'integer', minimum: 0 } };
      headers['X-WP-TotalPages'] = { required: true, description: 'How many pages of `per_page` items there are.', schema: { type: 'integer', minimum: 0 } };
      headers.Link = { description: 'The `prev` and `next` pages, where there are any.', schema: { type: 'string' } };
    }
    if (method === 'GET') {
      headers.Allow = { description: 'The methods the caller may use on this route.', schema: { type: 'string' } };
      headers.ETag = { description: 'On anonymous reads: the answer\'s strong validator (`If-None-Match` answers 304).', schema: { type: 'string' } };
    } else {
      headers['X-Content-Version'] = {
        required: true,
        description: 'The writes committed so far by the process that answered, this one\'s among them. Sent back as the request header `X-Content-Version` on a later read (through any instance), it keeps that read off caches that have not yet heard of them.',
        schema: { type: 'string' },
      };
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
      const one = notes.views ? { anyOf: notes.views.map((c) => ref(views(route)[c])) } : itemResponse(route, endpoint, method);
      if (method === 'GET') {
        out['200'] = withHeaders({
          description: list ? 'The items of the page asked for; `X-WP-Total` and `X-WP-TotalPages` count them all.' : keyed ? 'Every item, keyed by its slug.' : 'The item.',
          content: content(list ? { type: 'array', items: one } : keyed ? { type: 'object', additionalProperties: one, description: 'The items, by slug.' } : one),
        });
      } else if (method === 'DELETE') {
        out['200'] = {
          description: 'The item moved to the trash, or with `force=true` its last state.',
          content: content({ anyOf: [one, { type: 'object', required: ['deleted'], properties: { deleted: { type: 'boolean' }, previous: lastState(route, one) } }] }),
        };
      } else if (collection && method === 'POST') {
        out['201'] = {
          description: 'The item made; `Location` is its address.', content: content(one),
          headers: { Location: { description: 'The address of the item made.', schema: { type: 'string', format: 'uri' } } },
        };
      } else {
        out['200'] = { description: 'The item as it now is.', content: content(one) };
      }
      // A handler that answers another route's item (a restore answers the post) says which.
      const other = notes.item ? table.find((r) => r.pattern === notes.item && r.schema) : undefined;
      const noted = other ? ref(views(other).edit ?? views(other)['']) : one;
      for (const [status, description] of Object.entries(notes.statuses ?? {})) out[status] ??= { description, content: content(noted) };
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

  /** A deleted item's last state: as the edit view, or as the view a handler prints it in (a revision's). */
  function lastState(route: RouteEntry, one: Schema): Schema {
    const v = views(route);
    return v.view && v.edit ? { anyOf: [ref(v.edit), ref(v.view)] } : one;
  }

  function summary(route: RouteEntry, method: Method, collection: boolean): string {
    const title = route.schema ? String((route.schema() as Schema).title ?? '') : '';
    if (!title) return `${method} ${openApiPath(route.pattern)}`;
    if (method === 'GET') return collection ? `List ${title} items` : `Get ${title}`;
    if (method === 'DELETE') return `Delete ${title}`;
    return collection && method === 'POST' ? `Create ${title}` : `Update ${title}`;
  }

  function operationId(method: Method | 'HEAD' | 'OPTIONS', pattern: string, claim = true): string {
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

  typeEmbedded();
  pruneUnused(schemas, { paths, responses });

  /**
   * `_embedded` by relation: each embeddable link answers what its route answers in the `embed`
   * view (or the error it refused with), so the relations get the embed views of the routes their
   * links point at: `author` users, `wp:featuredmedia` media, `up` the item's own kind (any content
   * or term), `wp:term` one list per taxonomy, `replies` one list of comments. A relation of a
   * route added later that is not named here is still allowed, as a list of anything.
   */
  function typeEmbedded(): void {
    const itemRoutes = table.filter((t) => t.schema && /^\/core\/v2\/[\w-]+\/\(\?P<id>\[\\d\]\+\)$/.test(t.pattern));
    const embedOf = (t: RouteEntry) => views(t).embed ?? views(t).view ?? views(t)[''];
    const byBase = (base: string) => itemRoutes.filter((t) => t.pattern.startsWith(`/core/v2/${base}/`)).map(embedOf);
    const kinds = (kind: string) => itemRoutes.filter((t) => t.records?.kind === kind).map(embedOf);
    const oneOf = (names: string[]) => {
      const unique = [...new Set(names.filter(Boolean))];
      return unique.length === 1 ? ref(unique[0]) : { anyOf: unique.map(ref) };
    };
    const orError = (schema: Schema) => ({ anyOf: [schema, ref('WP_Error')] });
    const each = (schema: Schema, description: string) => ({ type: 'array', items: orError(schema), description });
    const properties: Record<string, Schema> = {};
    const users = byBase('users');
    if (users.length) properties.author = each(oneOf(users), 'The author (`author` link): the user in the `embed` view.');
    const media = byBase('media');
    if (media.length) properties['wp:featuredmedia'] = each(oneOf(media), 'The featured image (`wp:featuredmedia` link): the media item in the `embed` view.');
    const parents = [...kinds('post'), ...media, ...kinds('term')];
    if (parents.length) properties.up = each(oneOf(parents), 'The parent (`up` link): an item of the same kind in the `embed` view.');
    // A menu item's `wp:term` link lists its menu (menus are nav_menu terms, with routes of their own).
    const terms = [...kinds('term'), ...byBase('menus')];
    if (terms.length) properties['wp:term'] = each({ type: 'array', items: oneOf(terms) }, 'The terms (`wp:term` links): per taxonomy, the item\'s terms in the `embed` view.');
    const comments = byBase('comments');
    if (comments.length) properties.replies = each({ type: 'array', items: oneOf(comments) }, 'The replies (`replies` link): the comments in the `embed` view.');
    schemas.Embedded = {
      type: 'object',
      properties,
      additionalProperties: { type: 'array', items: {} },
      description: 'With `_embed`: per embeddable relation of `_links`, what its links answer in the `embed` view, in the order of the links (an item, or the WordPress error its link answered; `wp:term` holds one list of terms per taxonomy).',
    };
  }

  return {
    openapi: '3.1.0',
    info: {
      title: 'Content service REST API',
      version: o.version,
      ...(o.license ? { license: { name: o.license } } : {}),
      description: [
        `The WordPress-compatible REST interface of this site (deployment ${o.deployment}; namespaces ${o.namespaces.join(', ')}), generated from its route table.`,
        'Parameters may also be sent in the query string of any method. WordPress\'s global parameters (`_fields`, `_embed`, `_envelope`, `_jsonp`, `_method`, `_pretty`) are listed on the operations they apply to.',
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
      parameters: GLOBAL_PARAMETERS,
      securitySchemes: {
        [SECURITY]: { type: 'http', scheme: 'basic', description: 'A user login and one of their application passwords (users/me/application-passwords).' },
      },
    },
  };
}

/**
 * Drops the schemas nothing refers to: the views a route's `context` never allows (a site-health
 * test read only in `view`) are made with the others but not published.
 */
function pruneUnused(schemas: Record<string, Schema>, roots: unknown): void {
  const used = new Set<string>();
  const walk = (node: unknown): void => {
    if (Array.isArray(node)) { node.forEach(walk); return; }
    if (!node || typeof node !== 'object') return;
    for (const [key, value] of Object.entries(node)) {
      if (key === '$ref' && typeof value === 'string' && value.startsWith('#/components/schemas/')) {
        const name = value.slice('#/components/schemas/'.length);
        if (!used.has(name)) { used.add(name); walk(schemas[name]); }
      } else walk(value);
    }
  };
  walk(roots);
  for (const name of Object.keys(schemas)) if (!used.has(name)) delete schemas[name];
}
