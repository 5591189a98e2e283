// The one database handle: a Prisma 7 client over a driver adapter (no native engine), with a
// count of the SQL statements it sends (tests assert list routes stay at a fixed count) and a
// change feed that tells every process when any process wrote. Writes are noticed here, in the
// adapter every statement passes through, so no write path in the domain can forget to announce one.
import Database from 'better-sqlite3';
import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { PrismaBetterSqlite3 } from '@prisma/adapter-better-sqlite3';
import { PrismaPg } from '@prisma/adapter-pg';
import { PrismaClient as SqliteClient } from '../generated/sqlite/client.js';
import { PrismaClient as PostgresClient } from '../generated/postgres/client.js';
import { providerOf } from '../config.js';
import { sqlitePath } from './migrate.js';

/** Both generated clients share the models; the SQLite one's type stands for either. */
export type Prisma = SqliteClient;
export type Tx = Parameters<Parameters<Prisma['$transaction']>[0]>[0];

export interface Db {
  prisma: Prisma;
  provider: 'sqlite' | 'postgres';
  /** SQL statements sent so far (read it before and after a request). */
  readonly statements: number;
  /** A number that changes whenever any process committed a write. */
  version(): number;
  /** Counts this process's own writes only (cheap; no database call). */
  readonly localVersion: number;
  /**
   * Announces a change by hand. Every write statement sent through `prisma` (model queries, raw
   * SQL, in or out of a transaction) already announces itself; this is for changes made around it.
   */
  changed(): void;
  close(): Promise<void>;
}

type Statement = { sql: string; args?: unknown[] };
type AnyQueryable = { queryRaw: Function; executeRaw: Function };
type AnyTransaction = AnyQueryable & { commit(): Promise<void> };
type AnyAdapter = AnyQueryable & { startTransaction?: Function; executeScript?: Function };

// A statement that may change data starts (after blanks, comments or a parenthesis) with one of
// these words. Reads start with SELECT; the transaction's own statements (BEGIN, COMMIT, ROLLBACK,
// SAVEPOINT, RELEASE, SET TRANSACTION) match nothing. `WITH` counts when its body writes.
// Not seen: a SELECT calling a function that writes (the schema has none).
const WRITE_START = /^[\s(]*(?:(?:--[^\n]*(?:\n|$)|\/\*[\s\S]*?\*\/)[\s(]*)*(insert|update|delete|replace|upsert|merge|create|drop|alter|truncate|with)\b/i;
const WRITES_IN_BODY = /\b(?:insert|update|delete|merge)\b/i;

/** Whether a SQL text may change data. Costs one character test for the reads Prisma sends. */
export function isWrite(sql: string): boolean {
  // SELECT (every read Prisma sends), SET, SAVEPOINT: never a write, and the hot path.
  if ((sql.charCodeAt(0) | 0x20) === 0x73) return false;
  const m = WRITE_START.exec(sql);
  if (!m) return false;
  return (m[1].length !== 4 || (m[1].charCodeAt(0) | 0x20) !== 0x77) || WRITES_IN_BODY.test(sql.slice(m[0].length));
}

/**
 * PostgreSQL's text cannot hold U+0000 (`invalid byte sequence for encoding "UTF8": 0x00`, which
 * failed the request with a 500): the character is removed from every string a statement binds,
 * written or compared, as WordPress's kses removes it from filtered content. SQLite stores it.
 */
function withoutNul(statement: Statement): void {
  const args = statement.args;
  if (!args) return;
  const clean = (v: unknown): unknown => (typeof v === 'string' && v.includes('\u0000') ? v.replace(/\u0000/g, '') : Array.isArray(v) ? v.map(clean) : v);
  for (let i = 0; i < args.length; i++) args[i] = clean(args[i]);
}

/**
 * Wraps an adapter factory so each statement, in or out of a transaction, is counted, and each
 * write announces a change: a write outside a transaction once it has run (whether it succeeded
 * or failed: a failed statement normally changed nothing, but a lost connection leaves that
 * unknown and retiring the cache is always safe), a write inside a transaction once the
 * transaction committed, once per transaction. A rolled-back transaction announces nothing.
 * Announcing after the fact matters: a read that started before the commit must see the version
 * move by the time it finishes, so the response cache does not keep what it read.
 */
function counting<F extends { connect(): Promise<unknown> }>(factory: F, count: () => void, changed: () => void, sqlite = false): F {
  const log = process.env.LOG_SQL === '1' ? (a: unknown[]) => console.log('[sql]', (a[0] as Statement).sql) : null;
  /** `onWrite` runs after a write statement settles, before its caller sees the outcome. */
  const wrap = <T extends AnyQueryable>(target: T, onWrite: () => void): T => {
    const q = target.queryRaw.bind(target);
    const e = target.executeRaw.bind(target);
    const send = (run: Function, a: unknown[]) => {
      count();
      if (!sqlite) withoutNul(a[0] as Statement);
      log?.(a);
      const p: Promise<unknown> = run(...a);
      if (!isWrite((a[0] as Statement).sql)) return p;
      return p.then((r) => (onWrite(), r), (err) => { onWrite(); throw err; });
    };
    target.queryRaw = (...a: unknown[]) => send(q, a);
    target.executeRaw = (...a: unknown[]) => send(e, a);
    return target;
  };
  const transaction = (tx: AnyTransaction): AnyTransaction => {
    let wrote = false;
    wrap(tx, () => { wrote = true; });
    // Prisma has run COMMIT (through executeRaw) before it calls commit(), which releases the
    // connection; with an adapter that commits in commit() itself, it has committed once this
    // resolves. A failed COMMIT is followed by rollback(), which is left as it is.
    const commit = tx.commit.bind(tx);
    tx.commit = async () => {
      try { await commit(); } finally { if (wrote) { wrote = false; changed(); } }
    };
    return tx;
  };
  const connect = factory.connect.bind(factory);
  factory.connect = async () => {
    const adapter = wrap((await connect()) as AnyAdapter, changed);
    if (sqlite) reusePreparedStatements(adapter);
    const start = adapter.startTransaction?.bind(adapter);
    if (start) adapter.startTransaction = async (...a: unknown[]) => transaction(await start(...a));
    const script = adapter.executeScript?.bind(adapter);
    if (script) adapter.executeScript = (...a: unknown[]) => new Promise((ok) => ok(script(...a))).finally(changed);
    return adapter;
  };
  return factory;
}

/**
 * The SQLite adapter prepares every statement anew. Prisma sends the same few SQL texts over
 * and over, so keep the prepared statements (and begin transactions IMMEDIATE, below) (better-sqlite3 runs one at a time, so sharing one
 * is safe); `bind` is emulated because a bound better-sqlite3 statement cannot be bound again.
 */
function reusePreparedStatements(adapter: unknown): void {
  const db = (adapter as { client?: Database.Database }).client;
  if (!db || typeof db.prepare !== 'function' || (db as unknown as { __reuse?: boolean }).__reuse) return;
  const prepare = db.prepare.bind(db);
  const cache = new Map<string, Database.Statement>();
  (db as unknown as { prepare: (sql: string) => unknown }).prepare = (text: string) => {
    // A deferred transaction that reads, then writes after another process committed cannot
    // upgrade its lock: SQLite answers SQLITE_BUSY at once, whatever the busy timeout. Prisma's
    // transactions here all write, so they take the write lock as they begin, waiting for it.
    const sql = text === 'BEGIN' ? 'BEGIN IMMEDIATE' : text;
    let stmt = cache.get(sql);
    if (!stmt) {
      stmt = prepare(sql);
      if (cache.size >= 1000) cache.delete(cache.keys().next().value!);
      cache.set(sql, stmt);
    }
    const s = stmt;
    return {
      bind: (args: unknown[]) => ({
        reader: s.reader,
        run: () => s.run(args),
        columns: () => s.columns(),
        raw: () => ({ all: () => s.raw(true).all(args) }),
      }),
      run: (...args: unknown[]) => s.run(...args),
    };
  };
  (db as unknown as { __reuse?: boolean }).__reuse = true;
}

export async function openDb(databaseUrl: string): Promise<Db> {
  const provider = providerOf(databaseUrl);
  let statements = 0;
  let version = 0;
  let local = 0;
  const count = () => void statements++;

  if (provider === 'sqlite') {
    const path = sqlitePath(databaseUrl);
    const changed = () => { version++; local++; };
    const adapter = counting(new PrismaBetterSqlite3({ url: path, timeout: 10_000 }), count, changed, true);
    const prisma = new SqliteClient({ adapter });
    // This process's writes move the version as they commit (above). Other processes' writes are
    // seen through data_version, which SQLite bumps when another connection commits; this
    // connection is used only for that, so this process's writes bump it too (harmlessly, again).
    const watcher = path === ':memory:' ? null : new Database(path, { timeout: 10_000 });
    const dataVersion = watcher?.prepare('PRAGMA data_version').pluck();
    let seen = dataVersion?.get();
    return {
      prisma,
      provider,
      get statements() { return statements; },
      version() {
        const now = dataVersion?.get();
        if (now !== seen) { seen = now; version++; }
        return version;
      },
      get localVersion() { return local; },
      changed,
      async close() { await prisma.$disconnect(); watcher?.close(); },
    };
  }

  // Processes announce their writes on a channel; each bumps its version on the others' notices.
  // The sender is named per handle, not per process, so two handles in one process (tests, a
  // command run in-process) hear each other.
  const self = `${process.pid}.${randomBytes(4).toString('hex')}`;
  const listener = new pg.Client({ connectionString: databaseUrl });
  const changed = () => {
    version++;
    local++;
    listener.query(`NOTIFY content_changed, '${self}'`).catch(() => {});
  };
  const adapter = counting(new PrismaPg({ connectionString: databaseUrl, max: Number(process.env.PG_POOL ?? 10) }), count, changed);
  const prisma = new PostgresClient({ adapter }) as unknown as Prisma;
  await listener.connect();
  listener.on('notification', (n) => { if (n.payload !== self) version++; });
  listener.on('error', () => { version++; });
  await listener.query('LISTEN content_changed');
  return {
    prisma,
    provider,
    get statements() { return statements; },
    version: () => version,
    get localVersion() { return local; },
    changed,
    async close() { await prisma.$disconnect(); await listener.end().catch(() => {}); },
  };
}
