// Bind placeholders of hand-written SQL, for the statements sent past Prisma's model queries
// (`$queryRawUnsafe`, `Db.read`): SQLite numbers `?` by position, PostgreSQL names `$1`, `$2`, ….
// And where a write transaction's hand-written statements go (`txStatements`).
import type { Db, Tx } from './client.js';

/** The i-th (0-based) bind placeholder of a statement. */
export const placeholder = (pg: boolean, i: number): string => (pg ? `$${i + 1}` : '?');

/** A function that appends a value to `params` and answers the placeholder it is bound by. */
export function binder(pg: boolean, params: unknown[]): (value: unknown) => string {
  return (value) => {
    params.push(value);
    return placeholder(pg, params.length - 1);
  };
}

/**
 * The hand-written statements of a write transaction: on SQLite straight on the connection the
 * transaction holds (`Db.inTransaction`: Prisma's client costs about 0.2 ms a statement, while the
 * write lock is held), through Prisma's transaction client on PostgreSQL. Writes through here
 * must follow a write through Prisma in the same transaction (which announces them at commit).
 */
export interface TxStatements {
  query<T>(sql: string, ...args: unknown[]): Promise<T[]>;
  execute(sql: string, ...args: unknown[]): Promise<void>;
}

export function txStatements(tx: Tx, db: Db): TxStatements {
  const direct = db.inTransaction;
  return {
    query: async <T>(sql: string, ...args: unknown[]) => (direct ? (direct(sql, args) as T[]) : tx.$queryRawUnsafe<T[]>(sql, ...args)),
    execute: async (sql: string, ...args: unknown[]) => { if (direct) direct(sql, args); else await tx.$executeRawUnsafe(sql, ...args); },
  };
}
