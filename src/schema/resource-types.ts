// GraphQL types made from resource definitions (src/resources/): the object fields, the input
// type of the writable fields, and one enum type per enumeration. Nothing here names a field:
// adding a field to a definition adds it to the GraphQL schema.
import { isObjectType, type GraphQLFieldResolver, type GraphQLSchema } from 'graphql';
import { builder as defaultBuilder } from './builder.js';
import type { EnumDef, FieldDef, FieldKind, ListDef, ListParamDef, ResourceDef } from '../resources/define.js';
import { camelCase } from '../resources/define.js';

// eslint-disable-next-line @typescript-eslint/no-explicit-any
type AnyBuilder = any;
// eslint-disable-next-line @typescript-eslint/no-explicit-any
type AnyRef = any;

const enums = new WeakMap<AnyBuilder, Map<string, AnyRef>>();

/** The GraphQL enum type of an enumeration (made once per builder). */
export function enumRef(e: EnumDef, builder: AnyBuilder = defaultBuilder): AnyRef {
  let refs = enums.get(builder);
  if (!refs) enums.set(builder, (refs = new Map()));
  let ref = refs.get(e.name);
  if (!ref) {
    const values = Object.fromEntries(e.values.map((v) => [e.nameOf(v), { value: v, ...(e.valueDescriptions?.[v] ? { description: e.valueDescriptions[v] } : {}) }]));
    ref = builder.enumType(e.name, { description: e.description, values } as never);
    refs.set(e.name, ref);
  }
  return ref;
}

function scalarOf(kind: FieldKind, f: Pick<FieldDef, 'graphqlScalar'>, input: boolean): string | null {
  if (f.graphqlScalar) return f.graphqlScalar;
  switch (kind) {
    case 'integer': return 'Int';
    case 'number': return 'Float';
    case 'boolean': return 'Boolean';
    case 'date-time': return input ? 'String' : 'LocalDateTime';
    case 'uri': return input ? 'String' : 'URL';
    case 'string': case 'email': case 'uuid': return 'String';
    case 'json': return 'JSON';
    default: return null;
  }
}

/** The GraphQL type of a field, for output or for input. */
export function graphqlTypeOf(f: FieldDef, input: boolean, builder: AnyBuilder = defaultBuilder): AnyRef {
  const kind = input ? f.inputKind ?? f.kind : f.kind;
  const scalar = scalarOf(kind, f, input);
  if (scalar) return scalar;
  switch (kind) {
    case 'integer[]': return ['Int'];
    case 'string[]': return ['String'];
    case 'enum': return enumRef((input ? f.enum : f.outputEnum ?? f.enum)!, builder);
    case 'enum[]': return [enumRef(f.enum!, builder)];
    case 'object': {
      // A type's name: Pothos looks it up when the schema is built, so the type may be defined
      // after the fields that name it, but must be defined by then.
      const ref = input ? f.graphqlInputType : f.graphqlType;
      if (!ref) throw new Error(`object field without a GraphQL ${input ? 'input ' : ''}type`);
      return ref;
    }
    default: throw new Error(`no GraphQL type for ${kind}`);
  }
}

const argBuilders: Record<string, string> = { integer: 'int', string: 'string', boolean: 'boolean', number: 'float' };

/**
 * The object fields of a resource, for `fields: (t) => resourceFields(t, R)` of a Pothos object
 * (prismaObject variants too: a field's `select` asks Prisma for what its resolver reads).
 */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export function resourceFields(t: any, r: ResourceDef, builder: AnyBuilder = defaultBuilder): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [name, f] of Object.entries(r.fields)) {
    if (f.writeOnly) continue;
    const column = f.column ?? name;
    const args = f.args
      ? Object.fromEntries(Object.entries(f.args).map(([a, d]) => [a, t.arg[argBuilders[d.kind] ?? 'string']({ required: false, description: d.description })]))
      : undefined;
    out[name] = t.field({
      type: graphqlTypeOf(f, false, builder),
      nullable: !!f.nullable,
      description: f.graphqlDescription ?? f.description,
      ...(args ? { args } : {}),
      ...(f.select ? { select: f.select } : {}),
      ...(f.select && f.ownsRelation && f.resolve ? { extensions: { [OWN_RESOLVER]: f.resolve } } : {}),
      // A column read under the field's own name gets no resolver: the default one reads the same
      // property, and graphql-jit (the gateway's compiled operations) then reads it inline instead
      // of calling a function per field per row.
      resolve: f.resolve ?? (column === name ? undefined : (row: Record<string, unknown>) => row[column]),
    });
  }
  return out;
}

/** The field extension that carries the resolver of an `ownsRelation` field (see `unwrapOwnResolvers`). */
const OWN_RESOLVER = 'ownResolver';

/**
 * Gives the fields marked `ownsRelation` their own resolver back in the built schema. Their
 * `select` stays with the field, so a query that asks for one still reads the relation with the
 * rows (Pothos plans from the field's extensions); what goes is plugin-prisma's wrapper around the
 * resolver, which asks per row how the row was loaded (key strings and WeakMap lookups by response
 * path: 12–15% of a cold list read's CPU for four such fields of a post). Their resolvers read the
 * relation themselves when a row came without it (see `withTerms`).
 */
export function unwrapOwnResolvers(schema: GraphQLSchema): GraphQLSchema {
  for (const type of Object.values(schema.getTypeMap())) {
    if (!isObjectType(type)) continue;
    for (const field of Object.values(type.getFields())) {
      const own = field.extensions?.[OWN_RESOLVER];
      if (typeof own === 'function') field.resolve = own as GraphQLFieldResolver<unknown, unknown>;
    }
  }
  return schema;
}

/** The input type of a resource's writable fields (`PostInput`), shared by create and update. */
export function resourceInput(r: ResourceDef, o: { name?: string; description?: string } = {}, builder: AnyBuilder = defaultBuilder): AnyRef {
  return builder.inputType(o.name ?? `${r.name}Input`, {
    description: o.description ?? `Writable fields of a ${r.title}; omitted fields keep their value (or get their default on create).`,
    fields: (t: AnyRef) => {
      const fields: Record<string, unknown> = {};
      for (const [name, f] of Object.entries(r.fields)) {
        if (f.readonly || f.rest === false || f.graphqlInput === false) continue;
        fields[f.inputName ?? name] = t.field({ type: graphqlTypeOf(f, true, builder), required: false, description: f.graphqlDescription ?? f.description });
      }
      return fields;
    },
  } as never);
}

const filterInputs = new WeakMap<ListDef, AnyRef>();

/** The filter input of a list (`PostListFilter`): its `filter` parameters (made once per list). */
export function listFilterInput(list: ListDef, builder: AnyBuilder = defaultBuilder): AnyRef {
  const made = builder === defaultBuilder ? filterInputs.get(list) : undefined;
  if (made) return made;
  const ref = builder.inputType(list.filterName, {
    description: list.description,
    fields: (t: AnyRef) => {
      const fields: Record<string, unknown> = {};
      for (const [rest, p] of Object.entries(list.params)) {
        if (p.in !== 'filter') continue;
        fields[p.graphql ?? camelCase(rest)] = t.field({ type: paramType(p, builder), required: false, description: p.graphqlDescription ?? p.description });
      }
      return fields;
    },
  } as never);
  if (builder === defaultBuilder) filterInputs.set(list, ref);
  return ref;
}

/**
 * The arguments of a list field: its own parameters (page, perPage, order …) and `filter`;
 * `omit` leaves some out by REST name (a connection pages with cursors instead of page/per_page/offset),
 * `filterArg` names the filter otherwise (`where` on connections, as WPGraphQL names it).
 */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export function listArgs(t: any, list: ListDef, filter: AnyRef, o: { omit?: string[]; filterArg?: string } = {}): Record<string, unknown> {
  const args: Record<string, unknown> = { [o.filterArg ?? 'filter']: t.arg({ type: filter, required: false, description: 'Filters: the REST collection\'s filter parameters.' }) };
  for (const [rest, p] of Object.entries(list.params)) {
    if (p.in !== 'arg' || o.omit?.includes(rest)) continue;
    args[p.graphql ?? camelCase(rest)] = t.arg({ type: paramType(p), required: false, description: p.graphqlDescription ?? p.description, ...(p.default !== undefined ? { defaultValue: p.default } : {}) });
  }
  return args;
}

function paramType(p: ListParamDef, builder: AnyBuilder = defaultBuilder): AnyRef {
  return graphqlTypeOf({ ...p, graphqlInputType: p.graphqlType } as FieldDef, true, builder);
}
