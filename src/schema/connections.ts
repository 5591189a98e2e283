// Relay cursor connections over the lists the REST collections serve: a window of the same
// filtered, ordered list a REST page cuts, every filter and order the collection's own
// (src/resources). A cursor names its list's order (the type or taxonomy, orderby and order), and
// one made for another order is refused.
//
// Where the order is columns (a date, a title or slug, an id, a count …, the id breaking ties in
// the same direction), the cursor names the item: its sort values and its id. The window after it
// is a WHERE on those values, `(date < X) OR (date = X AND id < Y)`, so an item written or deleted
// between two requests neither repeats nor skips another, and the cursor still works when its own
// item is gone. Lists ordered in memory (case-blind titles, include and slug lists) take the same
// kind of cursor and cut the window at its key in the ordered matches. The orders left (a full-text
// search's, relevance, sticky posts first) have no key to follow: their cursor is the item's
// position in the list, and, as with REST pages, a write between two requests can shift a window.
import { queryFromInfo } from '@pothos/plugin-prisma';
import type { GraphQLResolveInfo } from 'graphql';
import { builder } from './builder.js';
import { restError } from '../errors.js';
import type { Context } from '../context.js';
import { compareKeys, keysetWhere, reversedOrder, type KeyColumn, type KeyValue, type SortedList } from '../db/list.js';

// eslint-disable-next-line @typescript-eslint/no-explicit-any
type AnyRef = any;

/** Most items one connection answer may hold (the REST collections' per_page maximum). */
export const MAX_WINDOW = 100;
/** Items of a connection asked for with neither `first` nor `last` (the REST collections' default). */
export const DEFAULT_WINDOW = 10;

export interface ConnectionArgs { first?: number | null; after?: string | null; last?: number | null; before?: string | null }

/** The Relay paging arguments, for `args: { ...connectionArgs(t), … }`. */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export function connectionArgs(t: any): Record<string, unknown> {
  return {
    first: t.arg.int({ required: false, description: `Items after \`after\` (or from the start): at most ${MAX_WINDOW}; ${DEFAULT_WINDOW} when neither first nor last is given.` }),
    after: t.arg.string({ required: false, description: 'Cursor of the item to start after.' }),
    last: t.arg.int({ required: false, description: `Items before \`before\` (or up to the end): at most ${MAX_WINDOW}.` }),
    before: t.arg.string({ required: false, description: 'Cursor of the item to end before.' }),
  };
}

// ---------------------------------------------------------------- cursors

/** A cursor's text: its kind (`k` a key, `p` a position), the order it belongs to, and its value. */
type CursorText = ['k', string, unknown[]] | ['p', string, number];

const encode = (c: CursorText) => Buffer.from(JSON.stringify(c)).toString('base64url');
export const keyCursor = (order: string, key: KeyValue[]) => encode(['k', order, key.map((v) => (v instanceof Date ? { d: v.toISOString() } : v))]);
const positionCursor = (order: string, position: number) => encode(['p', order, position]);

function invalidCursor(arg: string, why: string): never {
  throw restError('rest_invalid_param', `Invalid parameter(s): ${arg}`, 400, { params: { [arg]: why } });
}

function readCursor(cursor: string, arg: string, kind: 'k' | 'p', order: string): unknown {
  let parsed: unknown;
  try { parsed = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8')); } catch { parsed = null; }
  if (!Array.isArray(parsed) || parsed.length !== 3 || (parsed[0] !== 'k' && parsed[0] !== 'p') || typeof parsed[1] !== 'string') invalidCursor(arg, `${arg} is not a cursor of this list.`);
  if (parsed[0] !== kind || parsed[1] !== order) invalidCursor(arg, `${arg} is a cursor of another order or list.`);
  return parsed[2];
}

/** A key cursor's values, checked against the columns they must fill (types, NULLs, the id). */
export function decodeKey(cursor: string, arg: string, order: string, columns: { type: string; nullable: boolean }[]): KeyValue[] {
  const raw = readCursor(cursor, arg, 'k', order);
  const bad = () => invalidCursor(arg, `${arg} is not a cursor of this list.`);
  if (!Array.isArray(raw) || raw.length !== columns.length) bad();
  return (raw as unknown[]).map((v, i) => {
    const c = columns[i];
    if (v === null) return c.nullable ? null : bad();
    if (c.type === 'Int') return Number.isSafeInteger(v) ? (v as number) : bad();
    if (c.type === 'String') return typeof v === 'string' ? v : bad();
    if (c.type === 'DateTime') {
      const d = v && typeof v === 'object' && typeof (v as { d?: unknown }).d === 'string' ? new Date((v as { d: string }).d) : null;
      return d && !Number.isNaN(d.getTime()) ? d : bad();
    }
    return bad();
  });
}

function decodePosition(cursor: string, arg: string, order: string): number {
  const n = readCursor(cursor, arg, 'p', order);
  return Number.isInteger(n) && (n as number) >= 0 ? (n as number) : invalidCursor(arg, `${arg} is not a cursor of this list.`);
}

function checkSizes(args: ConnectionArgs): void {
  for (const arg of ['first', 'last'] as const) {
    const n = args[arg];
    if (n != null && (n < 0 || n > MAX_WINDOW)) throw restError('rest_invalid_param', `Invalid parameter(s): ${arg}`, 400, { params: { [arg]: `${arg} must be between 0 (inclusive) and ${MAX_WINDOW} (inclusive)` } });
  }
}

// ---------------------------------------------------------------- what a connection resolves to

export interface EdgeShape<Row = unknown> { row: Row; cursor: string }
export interface PageInfo { hasNextPage: boolean; hasPreviousPage: boolean; startCursor: string | null; endCursor: string | null }

/** What a connection field resolves to: the total, the window's edges, and where the window sits. */
export interface ConnectionShape<Row = unknown> {
  total: () => Promise<number>;
  /** The window's rows the caller may read, with their cursors, read with a Prisma selection. */
  edges: (query: object) => Promise<EdgeShape<Row>[]>;
  pageInfo: () => Promise<PageInfo>;
}

/**
 * Reads once per selection (edges and nodes asked for together share one read). `any` gives a
 * read already started, after the fields beside it have started theirs (graphql-js calls the
 * resolvers of one selection set before it awaits any), or else the `fallback` selection's.
 */
function memoReads<T>(read: (query: object) => Promise<T>, fallback: object) {
  const seen = new Map<string, Promise<T>>();
  const get = (query: object) => {
    const key = JSON.stringify(query);
    let p = seen.get(key);
    if (!p) seen.set(key, (p = read(query)));
    return p;
  };
  return { get, any: async () => { await Promise.resolve(); return seen.values().next().value ?? get(fallback); } };
}

interface Cut<Row> { rows: Row[]; hasNextPage: () => Promise<boolean>; hasPreviousPage: () => Promise<boolean> }

/**
 * Relay's window over a list read from either end: `after`/`before` bound it, then `first` keeps
 * the head and `last` the tail (`last` alone reads from the end). `read(reverse, take)` gives the
 * bounded list's first `take` rows, or its last ones when `reverse` (last first). `beyondEnd` and
 * `beforeStart` say whether rows lie past the bounds, asked only when pageInfo needs them.
 */
async function cutWindow<Row>(args: ConnectionArgs, read: (reverse: boolean, take: number) => Promise<Row[]>, beyond: { end: () => Promise<boolean>; start: () => Promise<boolean> }): Promise<Cut<Row>> {
  const forward = args.first != null || args.last == null;
  const size = forward ? (args.first ?? DEFAULT_WINDOW) : args.last!;
  const got = await read(!forward, size + 1);
  const more = got.length > size;
  if (forward) {
    const head = got.slice(0, size);
    const rows = args.last != null ? head.slice(Math.max(0, head.length - args.last)) : head;
    const trimmed = rows.length < head.length;
    return {
      rows,
      hasNextPage: async () => more || (args.before != null && beyond.end()),
      hasPreviousPage: async () => trimmed || (args.after != null && beyond.start()),
    };
  }
  return {
    rows: got.slice(0, size).reverse(),
    hasNextPage: async () => args.before != null && beyond.end(),
    hasPreviousPage: async () => more || (args.after != null && beyond.start()),
  };
}

/** A list whose order is columns, read with a WHERE on the sort key past a cursor (keyset paging). */
export interface KeysetList<Row> {
  /** The list and its order (type or taxonomy, orderby, order): what its cursors carry. */
  order: string;
  /** The Prisma `orderBy` of the list, the id last (`listOrder`, `termOrder`, `userListOrder`). */
  orderBy: object[];
  /** Its columns (`keyColumns(model, orderBy)`). */
  columns: KeyColumn[];
  /** Rows of the list that also match `bound`, in `orderBy`, at most `take`, with a selection. */
  read: (query: object, bound: object, orderBy: object[], take: number) => Promise<Row[]>;
  /** The rows of a window the caller may read (the posts controller's read check); all by default. */
  readable?: (rows: Row[]) => Promise<Row[]>;
}

/**
 * A connection over a keyset list: one statement reads the window (one more row tells whether
 * the list goes on), and pageInfo asks one more only when the answer is not in it (whether rows
 * lie before `after` or past `before`).
 */
export function keysetConnection<Row extends Record<string, unknown>>(args: ConnectionArgs, list: KeysetList<Row>, total: () => Promise<number>): ConnectionShape<Row> {
  checkSizes(args);
  const { columns, order } = list;
  const after = args.after != null ? decodeKey(args.after, 'after', order, columns) : null;
  const before = args.before != null ? decodeKey(args.before, 'before', order, columns) : null;
  const bound = { AND: [after ? keysetWhere(columns, after, 'after') : {}, before ? keysetWhere(columns, before, 'before') : {}] };
  const keyOf = (row: Row) => columns.map((c) => row[c.column] as KeyValue);
  // A `select` selection is given the sort columns the cursors are made of.
  const withKeys = (query: object) => {
    const q = query as { select?: Record<string, unknown> };
    return q.select ? { ...q, select: { ...q.select, ...Object.fromEntries(columns.map((c) => [c.column, true])) } } : query;
  };
  const exists = async (where: object) => (await list.read({ select: { id: true } }, where, list.orderBy, 1)).length > 0;
  const beyond = {
    end: () => exists(keysetWhere(columns, before!, 'after', true)),
    start: () => exists(keysetWhere(columns, after!, 'before', true)),
  };
  const reads = memoReads((query) => cutWindow(args, (reverse, take) => list.read(withKeys(query), bound, reverse ? reversedOrder(list.orderBy) : list.orderBy, take), beyond),
    { select: Object.fromEntries(columns.map((c) => [c.column, true])) });
  return {
    total,
    edges: async (query) => {
      const { rows } = await reads.get(query);
      const readable = list.readable ? new Set(await list.readable(rows)) : null;
      return rows.filter((r) => !readable || readable.has(r)).map((row) => ({ row, cursor: keyCursor(order, keyOf(row)) }));
    },
    pageInfo: async () => {
      const cut = await reads.any();
      const [hasNextPage, hasPreviousPage] = await Promise.all([cut.hasNextPage(), cut.hasPreviousPage()]);
      const ends = cut.rows.length ? [cut.rows[0], cut.rows[cut.rows.length - 1]] : null;
      return { hasNextPage, hasPreviousPage, startCursor: ends && keyCursor(order, keyOf(ends[0])), endCursor: ends && keyCursor(order, keyOf(ends[1])) };
    },
  };
}

/**
 * A connection over a list ordered in memory (`SortedList`: every match's id and sort key): the
 * window is cut at the cursors' keys, so it is as stable as a keyset; its rows are read by id.
 */
export function sortedConnection<Row extends { id: number }>(args: ConnectionArgs, order: string, sorted: () => Promise<SortedList>, o: {
  /** Values in a key (the id included). */
  width: number;
  total: () => Promise<number>;
  readByIds: (query: object, ids: number[]) => Promise<Row[]>;
  readable?: (rows: Row[]) => Promise<Row[]>;
}): ConnectionShape<Row> {
  checkSizes(args);
  const decode = (cursor: string, arg: string) => {
    const raw = readCursor(cursor, arg, 'k', order);
    if (!Array.isArray(raw) || raw.length !== o.width || !raw.every((v) => typeof v === 'string' || Number.isFinite(v)) || !Number.isSafeInteger(raw[raw.length - 1])) invalidCursor(arg, `${arg} is not a cursor of this list.`);
    return raw as KeyValue[];
  };
  const after = args.after != null ? decode(args.after, 'after') : null;
  const before = args.before != null ? decode(args.before, 'before') : null;
  let cut: Promise<{ list: SortedList; start: number; end: number; rows: SortedList['rows'] }> | undefined;
  const window = () => (cut ??= sorted().then((list) => {
    const cmp = (a: KeyValue[], b: KeyValue[]) => compareKeys(list.dirs, a, b);
    let lo = after ? list.rows.findIndex((r) => cmp(r.key, after) > 0) : 0;
    if (lo < 0) lo = list.rows.length;
    let hi = before ? list.rows.findIndex((r) => cmp(r.key, before) >= 0) : list.rows.length;
    if (hi < 0) hi = list.rows.length;
    hi = Math.max(lo, hi);
    let start = lo, end = hi;
    if (args.first != null) end = Math.min(end, start + args.first);
    if (args.last != null) start = Math.max(start, end - args.last);
    if (args.first == null && args.last == null) end = Math.min(end, start + DEFAULT_WINDOW);
    return { list, start, end, rows: list.rows.slice(start, end) };
  }));
  const reads = new Map<string, Promise<Row[]>>();
  return {
    total: o.total,
    edges: async (query) => {
      const { rows } = await window();
      if (!rows.length) return [];
      const key = JSON.stringify(query);
      if (!reads.has(key)) reads.set(key, o.readByIds(query, rows.map((r) => r.id)).then(async (found) => (o.readable ? o.readable(found) : found)));
      const byId = new Map((await reads.get(key)!).map((r) => [r.id, r]));
      return rows.flatMap((r) => (byId.has(r.id) ? [{ row: byId.get(r.id)!, cursor: keyCursor(order, r.key) }] : []));
    },
    pageInfo: async () => {
      const { list, start, end, rows } = await window();
      const ends = rows.length ? [rows[0], rows[rows.length - 1]] : null;
      return { hasPreviousPage: start > 0, hasNextPage: end < list.rows.length, startCursor: ends && keyCursor(order, ends[0].key), endCursor: ends && keyCursor(order, ends[1].key) };
    },
  };
}

/**
 * A connection over a list whose order no key follows: cursors are positions, and the window is
 * the offset and size the list code takes (`page(start, size)`: the window's ids), as a REST
 * page's. The ids are read before the connection resolves, so a total the same statement gives
 * (a full-text search's) is known before `totalCount` asks.
 */
export async function positionConnection<Row extends { id: number }>(args: ConnectionArgs, order: string, o: {
  total: () => Promise<number>;
  page: (start: number, size: number) => Promise<number[]>;
  /** The rows of `ids` the caller may read, in any order. */
  readByIds: (query: object, ids: number[]) => Promise<Row[]>;
}): Promise<ConnectionShape<Row>> {
  checkSizes(args);
  let start = args.after != null ? decodePosition(args.after, 'after', order) + 1 : 0;
  let end = args.before != null ? decodePosition(args.before, 'before', order) : Infinity;
  if (args.first != null) end = Math.min(end, start + args.first);
  if (args.last != null) {
    if (end === Infinity) end = await o.total();
    start = Math.max(start, end - args.last);
  }
  if (args.first == null && args.last == null) end = Math.min(end, start + DEFAULT_WINDOW);
  const size = Math.max(0, end - start);
  const ids = size ? await o.page(start, size) : [];
  const reads = new Map<string, Promise<Row[]>>();
  return {
    total: o.total,
    edges: async (query) => {
      if (!ids.length) return [];
      const key = JSON.stringify(query);
      if (!reads.has(key)) reads.set(key, o.readByIds(query, ids));
      const byId = new Map((await reads.get(key)!).map((r) => [r.id, r]));
      return ids.flatMap((id, i) => (byId.has(id) ? [{ row: byId.get(id)!, cursor: positionCursor(order, start + i) }] : []));
    },
    pageInfo: async () => {
      const total = await o.total();
      const last = Math.min(start + size, total);
      const empty = last <= start;
      return { hasPreviousPage: start > 0 && total > 0, hasNextPage: last < total, startCursor: empty ? null : positionCursor(order, start), endCursor: empty ? null : positionCursor(order, last - 1) };
    },
  };
}

export const PageInfoRef = builder.objectRef<PageInfo>('PageInfo').implement({
  description: 'Where a connection window sits in its whole list.',
  fields: (t) => ({
    hasNextPage: t.exposeBoolean('hasNextPage', { description: 'Whether items follow the window.' }),
    hasPreviousPage: t.exposeBoolean('hasPreviousPage', { description: 'Whether items precede the window.' }),
    startCursor: t.exposeString('startCursor', { nullable: true, description: 'Cursor of the first item of the window; null when it is empty.' }),
    endCursor: t.exposeString('endCursor', { nullable: true, description: 'Cursor of the last item of the window; null when it is empty.' }),
  }),
});

/**
 * `<Name>Connection` and `<Name>Edge` for a Prisma object type. `typeName` is the node's GraphQL
 * type (a variant name), which the edges' selection is read for.
 */
export function connectionType(name: string, nodeRef: AnyRef, typeName: string, what: string) {
  const Edge = builder.objectRef<EdgeShape>(`${name}Edge`).implement({
    description: `One ${what} of a connection, with its cursor.`,
    fields: (t) => ({
      cursor: t.string({ description: 'Opaque cursor of the item in the filtered, ordered list (its sort values and id, or its position where the order has no key); pass it as after or before.', resolve: (e) => e.cursor }),
      node: t.field({ type: nodeRef, description: `The ${what}.`, resolve: (e) => e.row as never }),
    }),
  });
  return builder.objectRef<ConnectionShape>(`${name}Connection`).implement({
    description: `A window of the ${what} list, with cursors and the size of the whole filtered list.`,
    fields: (t) => ({
      totalCount: t.int({ description: `Items of the whole filtered list (before per-item visibility, as X-WP-Total).`, resolve: (c) => c.total() }),
      pageInfo: t.field({ type: PageInfoRef, description: 'Where the window sits in the list.', resolve: (c) => c.pageInfo() }),
      edges: t.field({
        type: [Edge], description: `The ${what}s of the window the caller may read, with their cursors.`,
        resolve: (c, _a, ctx: Context, info: GraphQLResolveInfo) => c.edges(queryFromInfo({ context: ctx, info, path: ['node'], typeName }) as object),
      }),
      nodes: t.prismaField({
        type: [nodeRef], description: `The ${what}s of the window the caller may read (edges without cursors).`,
        resolve: async (query: object, c: ConnectionShape) => (await c.edges(query)).map((e) => e.row),
      } as never),
    }),
  });
}
