// What every list of the domain shares: its order (a column, then the id as tie-break), the order
// of an include or slug list kept in memory, and a total cached until the next write.
import type { DbScope } from './client.js';
import { slowCounts, versionCache } from './version-cache.js';
import { countContentRows, direct } from './content-read.js';

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

/**
 * One page of ids ordered by their position in a list the caller gave (orderby include /
 * include_slugs); rows the list does not name go last, ties by id.
 */
export function pageByPosition<R extends { id: number }>(rows: R[], position: (row: R) => number | undefined, o: { skip: number; take: number; reverse?: boolean }): number[] {
  const at = (r: R) => position(r) ?? Number.MAX_SAFE_INTEGER;
  const sorted = [...rows].sort((a, b) => at(a) - at(b) || a.id - b.id);
  if (o.reverse) sorted.reverse();
  return sorted.slice(o.skip, o.skip + o.take).map((r) => r.id);
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
    const counted = model === 'content' && direct(ctx) ? await countContentRows(ctx.db, where) : null;
    return counted ?? (ctx.prisma[model] as unknown as { count(a: object): Promise<number> }).count({ where });
  });
}
