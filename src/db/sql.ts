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
 * The hand-written statements of a write transaction, straight on the connection the transaction
 * holds: SQLite's one connection (`Db.inTransaction`), PostgreSQL's pooled one
 * (`Db.transactionStatement`); Prisma's transaction client costs about 0.2 ms of CPU a statement,
 * spent while the transaction holds its locks. Through Prisma's client when neither is at hand. On
 * SQLite, writes through here must follow a write through Prisma in the same transaction (which
 * announces them at commit); PostgreSQL's announce themselves.
 */
export interface TxStatements {
  query<T>(sql: string, ...args: unknown[]): Promise<T[]>;
  execute(sql: string, ...args: unknown[]): Promise<void>;
  /**
   * The transaction's last statement (integer values only). On PostgreSQL, outside a batch, it is
   * sent with the COMMIT (`Db.transactionFinish`); otherwise it is an ordinary statement. Nothing
   * may run in the transaction after it.
   */
  finish<T>(sql: string, ...args: unknown[]): Promise<T[]>;
  /** Whether a write through here is announced at commit by itself (not on SQLite's connection). */
  announces: boolean;
}

export function txStatements(tx: Tx, db: Db): TxStatements {
  const sqlite = db.inTransaction;
  if (sqlite) {
    const query = async <T>(sql: string, ...args: unknown[]) => sqlite(sql, args) as T[];
    return { query, finish: query, execute: async (sql: string, ...args: unknown[]) => { sqlite(sql, args); }, announces: false };
  }
  const pg = db.transactionStatement?.();
  if (pg) {
    const query = <T>(sql: string, ...args: unknown[]) => pg(sql, args) as Promise<T[]>;
    const last = db.transactionFinish?.();
    return {
      query,
      finish: last ? <T>(sql: string, ...args: unknown[]) => last(sql, args) as Promise<T[]> : query,
      execute: async (sql: string, ...args: unknown[]) => { await pg(sql, args); },
      announces: true,
    };
  }
  const query = <T>(sql: string, ...args: unknown[]) => tx.$queryRawUnsafe<T[]>(sql, ...args);
  return { query, finish: query, execute: async (sql: string, ...args: unknown[]) => { await tx.$executeRawUnsafe(sql, ...args); }, announces: true };
}
