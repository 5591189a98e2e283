// The vocabulary of resource definitions. A resource (post, page, category, user …) is declared
// once, in its module under src/resources/: every field with its REST name, GraphQL name, type,
// description, contexts, write rules, default and storage. Everything else is derived from that
// one declaration:
//   - the GraphQL object, input and enum types (src/schema/resource-types.ts),
//   - the JSON Schema WordPress calls the item schema (./json-schema.ts: OPTIONS, context=help),
//   - the REST arguments of the route table, the per-context selections the REST operations run,
//     and the REST ⇄ GraphQL name and value mapping (gateway/resources.ts).
// The model is WordPress's get_item_schema(), with the GraphQL side added.
import type { Context } from '../context.js';

export type RestContext = 'view' | 'edit' | 'embed';
export const ALL_CONTEXTS: RestContext[] = ['view', 'edit', 'embed'];
export const VIEW_EDIT: RestContext[] = ['view', 'edit'];
export const EDIT: RestContext[] = ['edit'];

/** An enumeration: WordPress's values, GraphQL names derived (publish → PUBLISH, auto-draft → AUTO_DRAFT). */
export interface EnumDef<V extends string = string> {
  /** GraphQL type name. */
  name: string;
  description: string;
  values: readonly V[];
  /** Descriptions of single values, for the GraphQL schema. */
  valueDescriptions?: Partial<Record<V, string>>;
  /** GraphQL name of a value. */
  nameOf(value: string): string;
  /** WordPress value of a GraphQL name (identity for values already given as WordPress values). */
  valueOf(name: string): string;
}

export function defineEnum<V extends string>(name: string, description: string, values: readonly V[], valueDescriptions?: Partial<Record<V, string>>): EnumDef<V> {
  const toName = (v: string) => v.toUpperCase().replace(/[^A-Z0-9_]/g, '_');
  const byName = new Map(values.map((v) => [toName(v), v as string]));
  return {
    name, description, values, valueDescriptions,
    nameOf: toName,
    valueOf: (n) => byName.get(n) ?? n,
  };
}

/**
 * A field's type. Scalars map to JSON Schema types and GraphQL scalars; `enum` carries its
 * enumeration; `object` has named sub-properties (its GraphQL type is given by `graphqlType`).
 */
export type FieldKind =
  | 'integer' | 'string' | 'boolean' | 'number'
  | 'date-time' | 'uri' | 'email' | 'uuid'
  | 'integer[]' | 'string[]'
  | 'enum' | 'enum[]'
  | 'object' | 'json';

/** A sub-property of an object field (title.raw, content.rendered …). */
export interface PropertyDef {
  /** GraphQL field name on the object type; defaults to the camelCase of the REST name. */
  graphql?: string;
  kind: FieldKind;
  description: string;
  contexts: RestContext[];
  readonly?: boolean;
  nullable?: boolean;
  default?: unknown;
  /** Extra JSON Schema keywords. */
  schema?: Record<string, unknown>;
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any
export type Resolver = (row: any, args: any, ctx: Context) => unknown;

export interface FieldDef {
  kind: FieldKind;
  /** WordPress's description (JSON Schema, REST args); also the GraphQL description unless `graphqlDescription`. */
  description: string;
  graphqlDescription?: string;
  /** REST key; defaults to the snake_case of the GraphQL name. `false`: GraphQL only. */
  rest?: string | false;
  /**
   * Also selected under this key in every REST context, for the gateway's `_links` and Allow
   * (`_can_edit`); with `rest: false` that is all the REST side sees of it.
   */
  linkData?: string;
  /** Contexts whose REST answers show the field (none for GraphQL-only fields). */
  contexts?: RestContext[];
  /** Not writable. */
  readonly?: boolean;
  /** Writable but not stored as given here: the field is in the input, never in the output. */
  writeOnly?: boolean;
  /** In the REST arguments but not in the GraphQL input (accepted and ignored, as term meta). */
  graphqlInput?: false;
  /** Contexts whose selections carry `linkData` (default: every context). */
  linkContexts?: RestContext[];
  /** The sub-selection REST runs for an object field, when its schema properties are not GraphQL fields. */
  selection?: string;
  /** Must be given on create. */
  required?: boolean;
  /**
   * Sent only in some answers of its contexts, and which (an application password's `password`:
   * the answer that issued it). Every other field of a context is in every answer of it, and the
   * OpenAPI document promises them (`required`); this one it does not.
   */
  sentOnly?: string;
  /** REST default on create (WordPress puts it in the create arguments). */
  default?: unknown;
  nullable?: boolean;
  /** JSON Schema type given as null-able (date: ['string', 'null']) for writes. */
  acceptsNull?: boolean;
  enum?: EnumDef;
  /** GraphQL output enum when records can hold more values than writes accept (status: trash). */
  outputEnum?: EnumDef;
  /** Item type for arrays of enums/strings given as their own schema (e.g. roles). */
  items?: Record<string, unknown>;
  /** Sub-properties of an object field, in WordPress's order. */
  properties?: Record<string, PropertyDef>;
  /** Extra JSON Schema keywords (minLength, pattern, uniqueItems …) for the schema and the args. */
  schema?: Record<string, unknown>;
  /**
   * GraphQL output type of an `object`/`json` field, by name (`'ContentText'`; `['Avatar']` for a
   * list). Definitions name types rather than hold them: the types are the GraphQL layer's, which
   * defines them and looks the names up when it builds the schema.
   */
  graphqlType?: string | [string];
  /** GraphQL scalar to use instead of the kind's own (a `uri` that may be empty is a String). */
  graphqlScalar?: string;
  /** GraphQL input type of an `object` field, when it is writable, by name (see `graphqlType`). */
  graphqlInputType?: string;
  /** Input kind when it differs from the output (a text object is written as a string). */
  inputKind?: FieldKind;
  /**
   * Name of the field in the GraphQL write input when it differs from the output's: an id field
   * whose output name gives way to its relation (`authorDatabaseId` beside `author { node }`) is
   * still written as `author`.
   */
  inputName?: string;
  /** REST value → GraphQL input value (before enum naming), e.g. `{raw}` or a string → string. */
  fromRest?: (value: unknown, param: string) => unknown;
  /** The GraphQL field's arguments, and how the REST selection passes them (`(length: $excerptLength)`). */
  args?: Record<string, { kind: FieldKind; description: string }>;
  selectionArgs?: string;
  /** Storage: the column it is read from when there is no resolver (default: the GraphQL name). */
  column?: string;
  /** Prisma selection the resolver needs (relations, other columns). */
  select?: Record<string, unknown>;
  /**
   * With `select`: the resolver reads the relation itself when a row comes without it (see
   * `withTerms`), so it runs without plugin-prisma's per-row wrapper (`unwrapOwnResolvers`).
   */
  ownsRelation?: boolean;
  resolve?: Resolver;
  /** Skip the REST validator (WordPress sets validate_callback null for title/content/excerpt). */
  skipValidation?: boolean;
}

export interface ResourceDef {
  /** GraphQL type name (Post) and WordPress's schema title (post). */
  name: string;
  title: string;
  description: string;
  /** Fields by GraphQL name, in the order WordPress prints them. */
  fields: Record<string, FieldDef>;
}

export const snakeCase = (s: string) => s.replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`);
export const camelCase = (s: string) => s.replace(/_([a-z0-9])/g, (_m, c: string) => c.toUpperCase());

/** The REST key of a field: given, or the snake_case of its GraphQL name. */
export const restKey = (name: string, f: Pick<FieldDef, 'rest'>): string => (typeof f.rest === 'string' ? f.rest : snakeCase(name));

export function defineResource(def: ResourceDef): ResourceDef {
  return def;
}

/**
 * An ordered record with entries left out, replaced, or added (after a named entry, else at the
 * end): how pages are made from posts and tags from categories, for fields and list parameters.
 */
function derived<T>(base: Record<string, T>, o: { omit?: string[]; add?: Record<string, T>; after?: Record<string, string> }): Record<string, T> {
  const out: Record<string, T> = {};
  const extra = { ...(o.add ?? {}) };
  const place = (key: string) => {
    for (const [name, anchor] of Object.entries(o.after ?? {})) {
      if (anchor === key && extra[name]) { out[name] = extra[name]; delete extra[name]; place(name); }
    }
  };
  for (const [key, value] of Object.entries(base)) {
    if (o.omit?.includes(key)) continue;
    out[key] = extra[key] ?? value;
    delete extra[key];
    place(key);
  }
  return Object.assign(out, extra);
}

/** The same resource with fields left out, added or changed (pages from posts, tags from categories). */
export function deriveResource(base: ResourceDef, o: { name: string; title: string; description: string; omit?: string[]; fields?: Record<string, FieldDef>; after?: Record<string, string> }): ResourceDef {
  return defineResource({ name: o.name, title: o.title, description: o.description, fields: derived(base.fields, { omit: o.omit, add: o.fields, after: o.after }) });
}

/** Fields the REST answer of a context shows, in order: [GraphQL name, REST key, def]. */
export function restFields(r: ResourceDef, context: RestContext): [string, string, FieldDef][] {
  const out: [string, string, FieldDef][] = [];
  for (const [name, f] of Object.entries(r.fields)) {
    if (f.rest === false || f.writeOnly || !f.contexts?.includes(context)) continue;
    out.push([name, restKey(name, f), f]);
  }
  return out;
}

/** Writable fields: [GraphQL name, REST key, def]. */
export function writableFields(r: ResourceDef): [string, string, FieldDef][] {
  return Object.entries(r.fields)
    .filter(([, f]) => !f.readonly && f.rest !== false)
    .map(([name, f]) => [name, restKey(name, f), f]);
}

// ---------------------------------------------------------------- lists

/**
 * A parameter of a resource's collection: its REST name is the key; GraphQL takes it in the list
 * field's `filter` input, as an argument of the list field, or not at all (`rest`: context).
 */
export interface ListParamDef {
  in: 'filter' | 'arg' | 'rest';
  /** GraphQL name; defaults to the camelCase of the REST name. */
  graphql?: string;
  kind: FieldKind;
  enum?: EnumDef;
  items?: Record<string, unknown>;
  description: string;
  graphqlDescription?: string;
  /** REST default (also the GraphQL argument's default for `arg` parameters). */
  default?: unknown;
  /** Extra JSON Schema keywords of the REST argument (minimum, maximum, uniqueItems …). */
  schema?: Record<string, unknown>;
  /** The REST argument's whole type schema, where it is not one kind (taxonomy filters). */
  argSchema?: Record<string, unknown>;
  /** GraphQL input type of an `object` parameter, by name (see FieldDef's `graphqlType`). */
  graphqlType?: string;
  /** REST value → GraphQL value (before enum naming); undefined leaves it out. */
  fromRest?: (value: unknown) => unknown;
}

export interface ListDef {
  /** GraphQL name of the filter input (PostListFilter). */
  filterName: string;
  description: string;
  /** Parameters in the order WordPress registers them. */
  params: Record<string, ListParamDef>;
}

/** A list's parameters with some left out, some added after a given one, some changed. */
export function deriveList(base: ListDef, o: { filterName: string; description?: string; omit?: string[]; params?: Record<string, ListParamDef>; after?: Record<string, string> }): ListDef {
  return { filterName: o.filterName, description: o.description ?? base.description, params: derived(base.params, { omit: o.omit, add: o.params, after: o.after }) };
}

/** The parameters every collection starts with (WordPress's get_collection_params()). */
export function collectionParams(o: { perPageDefault?: number; search?: boolean } = {}): Record<string, ListParamDef> {
  return {
    context: { in: 'rest', kind: 'string', description: 'Scope under which the request is made; determines fields present in response.', enum: undefined, schema: { enum: ['view', 'embed', 'edit'] }, default: 'view' },
    page: { in: 'arg', kind: 'integer', description: 'Current page of the collection.', default: 1, schema: { minimum: 1 } },
    per_page: { in: 'arg', graphql: 'perPage', kind: 'integer', description: 'Maximum number of items to be returned in result set.', ...(o.perPageDefault === undefined ? {} : { default: o.perPageDefault }), schema: { minimum: 1, maximum: 100 } },
    ...(o.search === false ? {} : { search: { in: 'filter' as const, kind: 'string' as const, description: 'Limit results to those matching a string.', fromRest: (v: unknown) => v || undefined } }),
  };
}
