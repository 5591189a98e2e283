// What every list of the domain shares: its order (a column, then the id as tie-break), the rows
// past a key in that order (keyset paging), the order of an include or slug list kept in memory,
// and a total cached until the next write.
import type { DbScope } from './client.js';
import { slowCounts, versionCache } from './version-cache.js';
import { countContentRows, direct, tallyCount } from './content-read.js';
import { getDatamodel } from '../generated/pothos-types.js';

export type Direction = 'asc' | 'desc';

/**
 * A list's `offset` as WordPress's queries read it (absint in WP_Query, WP_Term_Query and
 * WP_User_Query): a negative offset counts as its absolute value.
 */
export function absOffset<T extends { offset?: number | null }>(args: T): T {
  return args.offset != null && args.offset < 0 ? { ...args, offset: -args.offset } : args;
}

/**
 * A Prisma `orderBy` for `orderby`, read through the list's column map (unknown values fall back),
 * with the id as tie-break so pages stay stable when values repeat (WordPress adds none).
 */
export function columnOrder<C extends string>(columns: Record<string, C>, orderby: string, dir: Direction, fallback: C): Record<string, Direction>[] {
  const column = columns[orderby] ?? fallback;
  return column === 'id' ? [{ id: dir }] : [{ [column]: dir }, { id: dir }];
}

/** One column of an order that is columns, as a Prisma `orderBy` names it; the last is the id. */
export interface KeyColumn {
  column: string;
  dir: Direction;
  /** The Prisma type of the column (Int, String or DateTime): what a cursor's value must be. */
  type: string;
  nullable: boolean;
  /** Whether NULL sorts before every value in the column's direction (Prisma's `nulls`). */
  nullsFirst: boolean;
}
export type KeyValue = number | string | Date | null;

const MODELS = getDatamodel().datamodel.models;

/**
 * The columns of a list order (`listOrder`, `termOrder`, `userListOrder`), with their types from
 * the data model. A nullable column must say where its NULLs go (`{ sort, nulls }`).
 */
export function keyColumns(model: 'Content' | 'Term' | 'User', orderBy: object[]): KeyColumn[] {
  return orderBy.map((o) => {
    const [[column, spec]] = Object.entries(o) as [string, Direction | { sort: Direction; nulls?: 'first' | 'last' }][];
    const field = MODELS[model].fields.find((f) => f.name === column && f.kind === 'scalar');
    if (!field) throw new Error(`${model}.${column} is not a column`);
    const dir = typeof spec === 'string' ? spec : spec.sort;
    if (!field.isRequired && (typeof spec === 'string' || !spec.nulls)) throw new Error(`${model}.${column} may be NULL: its order must place NULLs`);
    return { column, dir, type: field.type, nullable: !field.isRequired, nullsFirst: typeof spec !== 'string' && spec.nulls === 'first' };
  });
}

/** The same order read backwards (the last rows of a list first). */
export function reversedOrder(orderBy: object[]): object[] {
  const flip = (d: Direction): Direction => (d === 'asc' ? 'desc' : 'asc');
  return orderBy.map((o) => Object.fromEntries(Object.entries(o).map(([column, spec]) => [column,
    typeof spec === 'string' ? flip(spec as Direction) : { sort: flip(spec.sort), nulls: spec.nulls === 'first' ? 'last' : 'first' }])));
}

/**
 * A Prisma `where` for the rows that come after (or before) `key` in the order of `columns`:
 * `(a > x) OR (a = x AND id > y)`, each comparison turned for a descending column; `inclusive`
 * takes the row of the key itself too. NULL sorts where the order puts it (a page's parent 0:
 * first going up, last going down), so it is compared with IS NULL / IS NOT NULL.
 */
export function keysetWhere(columns: KeyColumn[], key: KeyValue[], side: 'after' | 'before', inclusive = false): object {
  const or: object[] = [];
  const equal: object[] = [];
  columns.forEach((c, i) => {
    const v = key[i];
    const up = (c.dir === 'asc') === (side === 'after');
    // NULL is the lowest value of the column in its ascending sense when it sorts first going up.
    const nullLowest = c.dir === 'asc' ? c.nullsFirst : !c.nullsFirst;
    let beyond: object | null;
    if (!c.nullable) beyond = { [c.column]: { [up ? 'gt' : 'lt']: v } };
    else if (v === null) beyond = up === nullLowest ? { [c.column]: { not: null } } : null;
    else if (up === nullLowest) beyond = { [c.column]: { [up ? 'gt' : 'lt']: v } };
    else beyond = { OR: [{ [c.column]: { [up ? 'gt' : 'lt']: v } }, { [c.column]: null }] };
    const last = i === columns.length - 1;
    if (beyond) or.push(equal.length ? { AND: [...equal, beyond] } : beyond);
    if (last && inclusive) or.push({ AND: [...equal, { [c.column]: v }] });
    equal.push({ [c.column]: v });
  });
  return or.length ? { OR: or } : { id: { in: [] } };
}

/** `[a, b]` before (−), equal to (0) or after (+) `[c, d]` in an order of these directions. */
export function compareKeys(dirs: Direction[], a: KeyValue[], b: KeyValue[]): number {
  for (let i = 0; i < dirs.length; i++) {
    const x = a[i] ?? -Infinity, y = b[i] ?? -Infinity;
    if (x < y) return dirs[i] === 'asc' ? -1 : 1;
    if (x > y) return dirs[i] === 'asc' ? 1 : -1;
  }
  return 0;
}

/** A list ordered in memory: its ids, each with its sort key (the id last), and the key's directions. */
export interface SortedList { rows: { id: number; key: KeyValue[] }[]; dirs: Direction[] }

/**
 * Rows ordered by their position in a list the caller gave (orderby include / include_slugs);
 * rows the list does not name go last, ties by id.
 */
export function sortByPosition<R extends { id: number }>(rows: R[], position: (row: R) => number | undefined, reverse = false): SortedList {
  const dir: Direction = reverse ? 'desc' : 'asc';
  const keyed = rows.map((r) => ({ id: r.id, key: [position(r) ?? Number.MAX_SAFE_INTEGER, r.id] }));
  return { rows: keyed.sort((a, b) => compareKeys([dir, dir], a.key, b.key)), dirs: [dir, dir] };
}

/** One page of ids of `sortByPosition`'s order. */
export function pageByPosition<R extends { id: number }>(rows: R[], position: (row: R) => number | undefined, o: { skip: number; take: number; reverse?: boolean }): number[] {
  return sortByPosition(rows, position, o.reverse).rows.slice(o.skip, o.skip + o.take).map((r) => r.id);
}

/** A request as counting sees it: the database, and the marks its answer carries (src/context.ts). */
type CountScope = DbScope & { marks: { staleTotal: boolean } };

/**
 * A cache of totals (list and search counts) until the next write: a count that took seconds is
 * given from before a write while it is counted again (versionCache's `slowMs`), outside
 * transactions, and the answer is marked so the response cache does not keep it.
 */
export function totalsCache(): (ctx: CountScope, key: string, load: () => Promise<number>) => Promise<number> {
  const cache = versionCache<number>(2000, { slowMs: () => slowCounts.ms, now: () => slowCounts.now() });
  return (ctx, key, load) => cache(ctx.db, key, load, direct(ctx) ? () => { ctx.marks.staleTotal = true; } : undefined);
}

const totals = totalsCache();

type Countable = 'content' | 'term' | 'user';

/** A list's total for a filter, asked once per database version (in flight too; see totalsCache). */
export function cachedCount(ctx: CountScope, model: Countable, where: object): Promise<number> {
  return totals(ctx, `${model}|${JSON.stringify(where)}`, async () => {
    // The common shapes from the tallies the database keeps; other filters counted directly.
    const counted = model === 'content' && direct(ctx) ? (await tallyCount(ctx.db, where)) ?? (await countContentRows(ctx.db, where)) : null;
    return counted ?? (ctx.prisma[model] as unknown as { count(a: object): Promise<number> }).count({ where });
  });
}
