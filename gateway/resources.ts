// The REST side of a resource definition (src/resources/): the write arguments of the route
// table, the selection each context runs, and the mapping of names and enum values between the
// REST body and GraphQL. Nothing here names a field of any resource.
import type { ArgDef, Params } from './types.js';
import type { EnumDef, FieldDef, ListDef, ResourceDef, RestContext } from '../src/resources/define.js';
import { camelCase, restFields, restKey, writableFields } from '../src/resources/define.js';
import { fieldSchema, typeSchema } from '../src/resources/json-schema.js';

/** Keywords of a property that become keywords of its argument (WordPress's rest_get_endpoint_args_for_schema). */
const ARG_KEYWORDS = ['description', 'type', 'format', 'enum', 'items', 'properties', 'additionalProperties', 'minLength', 'maxLength', 'pattern', 'minimum', 'maximum', 'minItems', 'maxItems', 'uniqueItems', 'oneOf', 'anyOf'];

/** The write arguments of a resource: create adds `required` and defaults, as WordPress does. */
export function writeArgs(r: ResourceDef, o: { create: boolean }): Record<string, ArgDef> {
  const args: Record<string, ArgDef> = {};
  for (const [, rest, f] of writableFields(r)) {
    const schema = fieldSchema(f);
    const arg: ArgDef = {};
    for (const key of ARG_KEYWORDS) if (schema[key] !== undefined) arg[key] = schema[key];
    if (o.create && f.required) arg.required = true;
    if (o.create && f.default !== undefined) arg.default = f.default;
    if (f.skipValidation) arg.skipValidation = true;
    args[rest] = arg;
  }
  return args;
}

function subSelection(f: FieldDef, context: RestContext): string {
  if (f.selection) return ` ${f.selection}`;
  if (!f.properties || f.kind !== 'object') return '';
  const parts: string[] = [];
  for (const [key, p] of Object.entries(f.properties)) {
    if (!p.contexts.includes(context)) continue;
    const name = p.graphql ?? camelCase(key);
    parts.push(name === key ? key : `${key}: ${name}`);
  }
  return ` { ${parts.join(' ')} }`;
}

/**
 * The alias a REST key is selected under: itself, or, for a key GraphQL cannot name (a REST base
 * with a dash, as `event-categories`), an escaped form that `restItem` turns back.
 */
export function aliasOf(rest: string): string {
  return /^[_A-Za-z][_0-9A-Za-z]*$/.test(rest) ? rest : `_rest_${Buffer.from(rest).toString('hex')}`;
}
const unalias = (key: string) => (key.startsWith('_rest_') ? Buffer.from(key.slice(6), 'hex').toString() : key);

/** The GraphQL selection of a context: REST keys as aliases, then the link data every context carries. */
export function selectionOf(r: ResourceDef, context: RestContext): string {
  const lines: string[] = [];
  for (const [name, rest, f] of restFields(r, context)) {
    const alias = aliasOf(rest);
    lines.push(`${alias === name ? name : `${alias}: ${name}`}${f.selectionArgs ?? ''}${subSelection(f, context)}`);
  }
  for (const [name, f] of Object.entries(r.fields)) {
    if (f.linkData && (f.linkContexts ?? ['view', 'edit', 'embed']).includes(context)) lines.push(`${f.linkData}: ${name}${f.selectionArgs ?? ''}`);
  }
  return lines.join('\n  ');
}

/** `fragment PostView on Post { … }` for each context. */
export function fragmentsOf(r: ResourceDef, typeName = r.name): string {
  const suffix: Record<RestContext, string> = { view: 'View', edit: 'Edit', embed: 'Embed' };
  return (Object.keys(suffix) as RestContext[])
    .map((c) => `fragment ${r.name}${suffix[c]} on ${typeName} {\n  ${selectionOf(r, c)}\n}`)
    .join('\n\n');
}

/** A REST value of an enum (or enum list) field as GraphQL names it; other values as they are. */
function enumNamed(f: { kind: string; enum?: EnumDef }, value: unknown): unknown {
  if (f.kind === 'enum') return f.enum!.nameOf(String(value));
  if (f.kind === 'enum[]' && Array.isArray(value)) return value.map((v) => f.enum!.nameOf(String(v)));
  return value;
}

/** REST params → the GraphQL input of the writable fields that were given. */
export function inputOf(r: ResourceDef, params: Params): Record<string, unknown> {
  const input: Record<string, unknown> = {};
  for (const [name, rest, f] of writableFields(r)) {
    if (f.graphqlInput === false) continue;
    let value = params[rest];
    if (value === undefined) continue;
    if (f.fromRest) value = f.fromRest(value, rest);
    if (value === undefined) continue;
    input[f.inputName ?? name] = enumNamed(f, value);
  }
  return input;
}

/** Turns the GraphQL enum names of an answer back into WordPress's values, in place. */
export function restValues(r: ResourceDef): (item: Record<string, unknown>) => Record<string, unknown> {
  const enumFields: [string, (n: string) => string, boolean][] = [];
  for (const [name, f] of Object.entries(r.fields)) {
    if ((f.kind !== 'enum' && f.kind !== 'enum[]') || f.rest === false) continue;
    const e = f.outputEnum ?? f.enum!;
    enumFields.push([restKey(name, f), e.valueOf, f.kind === 'enum[]']);
  }
  return (item) => {
    for (const [key, valueOf, list] of enumFields) {
      const v = item[key];
      if (v === undefined || v === null) continue;
      item[key] = list ? (v as string[]).map(valueOf) : valueOf(v as string);
    }
    return item;
  };
}

/**
 * How every resource's item leaves the gateway: enum names turned back into WordPress's values,
 * the link data (`_can_edit` …) dropped, and `_links` added last.
 */
export function restItem(r: ResourceDef): (item: Record<string, unknown>, links: Record<string, unknown[]> | null) => Record<string, unknown> {
  const values = restValues(r);
  const linkData = new Set(Object.values(r.fields).flatMap((f) => (f.linkData ? [f.linkData] : [])));
  const aliased = restFields(r, 'edit').some(([, rest]) => aliasOf(rest) !== rest);
  return (item, links) => {
    // In place, as callers read the item's WordPress values after (status for the Link header).
    values(item);
    const out: Record<string, unknown> = {};
    for (const key in item) if (!linkData.has(key)) out[aliased ? unalias(key) : key] = item[key];
    if (links) out._links = links;
    return out;
  };
}

/** The REST arguments of a collection, in its definition's order. */
export function collectionArgs(list: ListDef): Record<string, ArgDef> {
  const args: Record<string, ArgDef> = {};
  for (const [rest, p] of Object.entries(list.params)) {
    args[rest] = {
      description: p.description,
      ...(p.argSchema ?? typeSchema(p)),
      ...(p.schema ?? {}),
      ...(p.default !== undefined ? { default: p.default } : {}),
    } as ArgDef;
  }
  return args;
}

/** Per collection: each GraphQL-bound param with its GraphQL name (worked out once, not per request). */
const listParams = new WeakMap<ListDef, [string, ListDef['params'][string], string][]>();

/** REST params of a collection → the list field's variables: its own arguments and `filter`. */
export function listVariables(list: ListDef, params: Params): Record<string, unknown> & { filter: Record<string, unknown> } {
  let bound = listParams.get(list);
  if (!bound) {
    bound = Object.entries(list.params).filter(([, p]) => p.in !== 'rest').map(([rest, p]) => [rest, p, p.graphql ?? camelCase(rest)]);
    listParams.set(list, bound);
  }
  const vars: Record<string, unknown> & { filter: Record<string, unknown> } = { filter: {} };
  for (const [rest, p, name] of bound) {
    let value = params[rest];
    if (p.fromRest) value = p.fromRest(value);
    if (value === undefined || value === null) continue;
    value = enumNamed(p, value);
    if (p.in === 'filter') vars.filter[name] = value;
    else vars[name] = value;
  }
  return vars;
}
