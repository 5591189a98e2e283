// Relay cursor connections over the lists the REST collections serve. A connection is a window of
// the same ordered, filtered list a REST page cuts: the cursor is the item's position in that list,
// so `first/after` and `last/before` become the offset and size the list code already takes, and
// every filter and order is the collection's own (src/resources). Positions rather than keyset
// cursors because several orders are not columns (include, relevance, sticky first, titles
// without regard to case); like a REST page, a window can shift when items are written between
// two requests.
import { queryFromInfo } from '@pothos/plugin-prisma';
import type { GraphQLResolveInfo } from 'graphql';
import { builder } from './builder.js';
import { restError } from '../errors.js';
import type { Context } from '../context.js';

// eslint-disable-next-line @typescript-eslint/no-explicit-any
type AnyRef = any;

/** Most items one connection answer may hold (the REST collections' per_page maximum). */
export const MAX_WINDOW = 100;
/** Items of a connection asked for with neither `first` nor `last` (the REST collections' default). */
export const DEFAULT_WINDOW = 10;

const PREFIX = 'position:';
export const encodeCursor = (position: number) => Buffer.from(`${PREFIX}${position}`).toString('base64url');

function decodeCursor(cursor: string, arg: string): number {
  const text = Buffer.from(cursor, 'base64url').toString('utf8');
  const n = text.startsWith(PREFIX) ? Number(text.slice(PREFIX.length)) : NaN;
  if (!Number.isInteger(n) || n < 0) throw restError('rest_invalid_param', `Invalid parameter(s): ${arg}`, 400, { params: { [arg]: `${arg} is not a cursor of this list.` } });
  return n;
}

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

export interface Window { start: number; size: number }

/**
 * The positions a connection's arguments select, as Relay's algorithm does: `after`/`before` bound
 * the list, then `first` keeps the head and `last` the tail. `total` is asked only when the tail
 * must be measured from the end.
 */
export async function windowOf(args: ConnectionArgs, total: () => Promise<number>): Promise<Window> {
  for (const arg of ['first', 'last'] as const) {
    const n = args[arg];
    if (n != null && (n < 0 || n > MAX_WINDOW)) throw restError('rest_invalid_param', `Invalid parameter(s): ${arg}`, 400, { params: { [arg]: `${arg} must be between 0 (inclusive) and ${MAX_WINDOW} (inclusive)` } });
  }
  let start = args.after != null ? decodeCursor(args.after, 'after') + 1 : 0;
  let end = args.before != null ? decodeCursor(args.before, 'before') : Infinity;
  if (args.first != null) end = Math.min(end, start + args.first);
  if (args.last != null) {
    if (end === Infinity) end = await total();
    start = Math.max(start, end - args.last);
  }
  if (args.first == null && args.last == null) end = Math.min(end, start + DEFAULT_WINDOW);
  return { start, size: Math.max(0, end - start) };
}

/** What a connection field resolves to: its window, the total, and how to read the window's rows. */
export interface ConnectionShape<Row = unknown> {
  window: Window;
  total: () => Promise<number>;
  /** The window's rows the caller may read, with their positions, read with a Prisma selection. */
  rows: (query: object) => Promise<{ row: Row; position: number }[]>;
}

/** Reads rows once per selection (edges and nodes asked for together share one read). */
export function memoRows<Row>(read: (query: object) => Promise<{ row: Row; position: number }[]>): ConnectionShape<Row>['rows'] {
  const seen = new Map<string, Promise<{ row: Row; position: number }[]>>();
  return (query) => {
    const key = JSON.stringify(query);
    let p = seen.get(key);
    if (!p) seen.set(key, (p = read(query)));
    return p;
  };
}

/** Rows read by id, put back in the order of `ids`, each with its position from `start`. */
export function inOrder<Row extends { id: number }>(ids: number[], rows: Row[], start: number): { row: Row; position: number }[] {
  const byId = new Map(rows.map((r) => [r.id, r]));
  return ids.flatMap((id, i) => (byId.has(id) ? [{ row: byId.get(id)!, position: start + i }] : []));
}

export const PageInfoRef = builder.objectRef<{ hasNextPage: boolean; hasPreviousPage: boolean; startCursor: string | null; endCursor: string | null }>('PageInfo').implement({
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
  const Edge = builder.objectRef<{ row: unknown; position: number }>(`${name}Edge`).implement({
    description: `One ${what} of a connection, with its cursor.`,
    fields: (t) => ({
      cursor: t.string({ description: 'Opaque position of the item in the filtered, ordered list; pass it as after or before.', resolve: (e) => encodeCursor(e.position) }),
      node: t.field({ type: nodeRef, description: `The ${what}.`, resolve: (e) => e.row as never }),
    }),
  });
  return builder.objectRef<ConnectionShape>(`${name}Connection`).implement({
    description: `A window of the ${what} list, with cursors and the size of the whole filtered list.`,
    fields: (t) => ({
      totalCount: t.int({ description: `Items of the whole filtered list (before per-item visibility, as X-WP-Total).`, resolve: (c) => c.total() }),
      pageInfo: t.field({
        type: PageInfoRef, description: 'Where the window sits in the list.',
        resolve: async (c) => {
          const { start, size } = c.window;
          const total = await c.total();
          const end = Math.min(start + size, total);
          const empty = end <= start;
          return { hasPreviousPage: start > 0 && total > 0, hasNextPage: end < total, startCursor: empty ? null : encodeCursor(start), endCursor: empty ? null : encodeCursor(end - 1) };
        },
      }),
      edges: t.field({
        type: [Edge], description: `The ${what}s of the window the caller may read, with their cursors.`,
        resolve: (c, _a, ctx: Context, info: GraphQLResolveInfo) => c.rows(queryFromInfo({ context: ctx, info, path: ['node'], typeName }) as object),
      }),
      nodes: t.prismaField({
        type: [nodeRef], description: `The ${what}s of the window the caller may read (edges without cursors).`,
        resolve: async (query: object, c: ConnectionShape) => (await c.rows(query)).map((e) => e.row),
      } as never),
    }),
  });
}
