// How much an operation sent to /graphql may make the server do, measured before it runs.
//
// The cost is the number of values the answer can hold: every field counts 1 for each item of
// every list it sits in. A list's size is what its arguments ask for, with the variables the
// request sends (and the defaults of the variables and of the arguments), bounded by the server's
// caps; written with literals or with variables, the same request costs the same. Fragments and
// inline fragments are merged the way the executor merges them, @skip/@include are honoured, and a
// union's selection costs its dearest member. Introspection (`__schema`, `__type`) is not counted:
// it reads the schema, not the database, and GraphiQL needs it whole.
//
// Why when the operation is about to run (a yoga plugin, gateway/graphql-guards.ts) and not in
// validation: validation does not see the variables, and yoga keeps a document's validation result
// by its text, so a rule there could only guess the sizes a variable will ask for. Why not Pothos's
// complexity plugin: it is configured on the schema builder and sized by options on each field,
// and the fields are defined across src/schema by their own modules; reading sizes from the
// arguments' names (`first`, `last`, `perPage`) covers every list the schema has, and every one
// added later with the same arguments, with nothing to annotate.
//
// The other measure, the shape of the document (aliases and fields, fragments expanded), needs no
// variables: it is taken before validation, which itself takes time in proportion to a document's
// size (thousands of aliases take it hundreds of milliseconds).
import {
  getArgumentValues, getDirectiveValues, getNamedType, getOperationAST, getVariableValues, GraphQLIncludeDirective, GraphQLSkipDirective,
  isAbstractType, isLeafType, isListType, isNonNullType, isObjectType, Kind,
  type DocumentNode, type FieldNode, type FragmentDefinitionNode, type GraphQLField, type GraphQLNamedType, type GraphQLObjectType,
  type GraphQLSchema, type SelectionNode, type SelectionSetNode,
} from 'graphql';
import { DEFAULT_WINDOW, MAX_WINDOW } from '../src/schema/connections.js';

/**
 * Items counted for a list of objects that takes no size argument (a post's categories and tags,
 * a category's children, a page's ancestors, the short lists at the root). These lists are as
 * long as the site's data makes them, which a caller does not choose; five is what such a list
 * usually holds. Nesting them still multiplies: a three-level tree of children counts 5 × 5.
 */
export const UNSIZED_LIST = 5;

/** Arguments that size a list; `page` and `offset` move the window without changing its size. */
const SIZE_ARGS = new Set(['first', 'last', 'perPage']);

/** Fields the walk looks at before it gives up: far beyond any document under the field limit. */
const MAX_VISITS = 100_000;

class TooLarge extends Error {}

/**
 * The cost of the operation `operationName` of `document` run with `variables` (as the request
 * sends them). Null when there is no such operation or the variables do not fit its definitions:
 * execution then stops with that error before any field is resolved.
 */
export function operationCost(schema: GraphQLSchema, document: DocumentNode, variables?: Record<string, unknown> | null, operationName?: string | null): number | null {
  const operation = getOperationAST(document, operationName);
  if (!operation) return null;
  const coerced = getVariableValues(schema, operation.variableDefinitions ?? [], variables ?? {}, { maxErrors: 1 });
  if (coerced.errors) return null;
  const root = schema.getRootType(operation.operation);
  if (!root) return null;
  const fragments = new Map<string, FragmentDefinitionNode>();
  for (const d of document.definitions) if (d.kind === Kind.FRAGMENT_DEFINITION) fragments.set(d.name.value, d);
  try {
    return new CostWalk(schema, fragments, coerced.coerced).selection(root, [operation.selectionSet], undefined);
  } catch (err) {
    if (err instanceof TooLarge) return Infinity;
    throw err;
  }
}

class CostWalk {
  private visits = 0;
  constructor(private schema: GraphQLSchema, private fragments: Map<string, FragmentDefinitionNode>, private variables: Record<string, unknown>) {}

  /**
   * The cost of one object of `type` answering the merged selection sets. `window`: the size its
   * field asked for when `type` is a page or connection, which the lists inside it (nodes, edges) hold.
   */
  selection(type: GraphQLObjectType, sets: readonly SelectionSetNode[], window: number | undefined): number {
    const fields = new Map<string, FieldNode[]>();
    const seen = new Set<string>();
    for (const set of sets) this.collect(type, set, fields, seen);
    let total = 0;
    for (const nodes of fields.values()) total += this.field(type, nodes, window);
    return total;
  }

  /** Fields by response name, as the executor groups them: one fragment once per object. */
  private collect(type: GraphQLObjectType, set: SelectionSetNode, into: Map<string, FieldNode[]>, seen: Set<string>): void {
    for (const sel of set.selections) {
      if (!this.included(sel)) continue;
      if (sel.kind === Kind.FIELD) {
        const key = sel.alias?.value ?? sel.name.value;
        const list = into.get(key);
        if (list) list.push(sel); else into.set(key, [sel]);
      } else if (sel.kind === Kind.INLINE_FRAGMENT) {
        if (!sel.typeCondition || this.applies(sel.typeCondition.name.value, type)) this.collect(type, sel.selectionSet, into, seen);
      } else {
        const name = sel.name.value;
        if (seen.has(name)) continue;
        seen.add(name);
        const fragment = this.fragments.get(name);
        if (fragment && this.applies(fragment.typeCondition.name.value, type)) this.collect(type, fragment.selectionSet, into, seen);
      }
    }
  }

  private applies(condition: string, type: GraphQLObjectType): boolean {
    const t = this.schema.getType(condition);
    return t === type || (!!t && isAbstractType(t) && this.schema.isSubType(t, type));
  }

  private included(node: SelectionNode): boolean {
    if (getDirectiveValues(GraphQLSkipDirective, node, this.variables)?.if === true) return false;
    return getDirectiveValues(GraphQLIncludeDirective, node, this.variables)?.if !== false;
  }

  private field(parent: GraphQLObjectType, nodes: FieldNode[], window: number | undefined): number {
    const name = nodes[0].name.value;
    if (name === '__schema' || name === '__type') return 0;
    const def = parent.getFields()[name];
    if (!def || isLeafType(getNamedType(def.type))) return 1;
    if (++this.visits > MAX_VISITS) throw new TooLarge();
    const sets = nodes.flatMap((n) => (n.selectionSet ? [n.selectionSet] : []));
    const size = this.size(def, nodes[0]);
    const type = isNonNullType(def.type) ? def.type.ofType : def.type;
    const named = getNamedType(def.type);
    if (isListType(type)) {
      const n = size ?? window ?? UNSIZED_LIST;
      return 1 + (n > 0 ? n * this.item(named, sets, undefined) : 0);
    }
    return 1 + this.item(named, sets, size);
  }

  /** One item: an object's selection, or the dearest member's of a union. */
  private item(type: GraphQLNamedType, sets: readonly SelectionSetNode[], window: number | undefined): number {
    if (isObjectType(type)) return this.selection(type, sets, window);
    if (isAbstractType(type)) return Math.max(0, ...this.schema.getPossibleTypes(type).map((t) => this.selection(t, sets, window)));
    return 0;
  }

  /**
   * The items a field with size arguments asks for; undefined when it takes none. The server
   * refuses `first`/`last` outside 0–100 and `perPage` outside 1–100 (so counting the bound is
   * never short), and `first`, `last` together give at most the smaller. Unsized, a connection
   * answers 10 and a paged list its `perPage` default; one with no default lists every item,
   * counted as a full page.
   */
  private size(def: GraphQLField<unknown, unknown>, node: FieldNode): number | undefined {
    const sized = def.args.filter((a) => SIZE_ARGS.has(a.name));
    if (!sized.length) return undefined;
    let args: Record<string, unknown>;
    try {
      args = getArgumentValues(def, node, this.variables);
    } catch {
      return MAX_WINDOW;
    }
    const asked: number[] = [];
    for (const a of sized) {
      const v = args[a.name] ?? a.defaultValue;
      if (typeof v !== 'number') continue;
      asked.push(a.name === 'perPage' ? (v < 1 ? MAX_WINDOW : Math.min(v, MAX_WINDOW)) : Math.min(Math.max(v, 0), MAX_WINDOW));
    }
    if (asked.length) return Math.min(...asked);
    return sized.some((a) => a.name === 'perPage') ? MAX_WINDOW : DEFAULT_WINDOW;
  }
}

/** Aliases and fields of a document's largest operation, each fragment counted where it is spread. */
export interface DocumentShape { aliases: number; fields: number }

/**
 * The shape of `document`, read as written (before validation: an unknown or cyclic fragment
 * counts nothing, and validation refuses it). Each fragment is measured once, so a document whose
 * spreads multiply (a fragment spreading another twice, and so on) is measured in time in
 * proportion to its text.
 */
export function documentShape(document: DocumentNode): DocumentShape {
  const fragments = new Map<string, FragmentDefinitionNode>();
  for (const d of document.definitions) if (d.kind === Kind.FRAGMENT_DEFINITION) fragments.set(d.name.value, d);
  const measured = new Map<string, DocumentShape>();
  const open = new Set<string>();
  const ofSet = (set: SelectionSetNode): DocumentShape => {
    let aliases = 0;
    let fields = 0;
    for (const sel of set.selections) {
      let inner: DocumentShape | undefined;
      if (sel.kind === Kind.FIELD) {
        fields += 1;
        if (sel.alias) aliases += 1;
        if (sel.selectionSet) inner = ofSet(sel.selectionSet);
      } else if (sel.kind === Kind.INLINE_FRAGMENT) {
        inner = ofSet(sel.selectionSet);
      } else {
        inner = ofFragment(sel.name.value);
      }
      if (inner) { aliases += inner.aliases; fields += inner.fields; }
    }
    return { aliases, fields };
  };
  const ofFragment = (name: string): DocumentShape => {
    const known = measured.get(name);
    if (known) return known;
    const fragment = fragments.get(name);
    if (!fragment || open.has(name)) return { aliases: 0, fields: 0 };
    open.add(name);
    const shape = ofSet(fragment.selectionSet);
    open.delete(name);
    measured.set(name, shape);
    return shape;
  };
  let largest: DocumentShape = { aliases: 0, fields: 0 };
  for (const d of document.definitions) {
    if (d.kind !== Kind.OPERATION_DEFINITION) continue;
    const s = ofSet(d.selectionSet);
    largest = { aliases: Math.max(largest.aliases, s.aliases), fields: Math.max(largest.fields, s.fields) };
  }
  return largest;
}
