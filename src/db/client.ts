// The one database handle: a Prisma 7 client over a driver adapter (no native engine), with a
// count of the SQL statements it sends (tests assert list routes stay at a fixed count) and a
// change feed that tells every process when any process wrote.
import Database from 'better-sqlite3';
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
  /** Called by the domain after its own writes commit. */
  changed(): void;
  close(): Promise<void>;
}

type AnyAdapter = { queryRaw: Function; executeRaw: Function; startTransaction?: Function };

/** Wraps an adapter factory so each statement, in or out of a transaction, is counted. */
function counting<F extends { connect(): Promise<unknown> }>(factory: F, count: () => void, sqlite = false): F {
  const wrap = (target: AnyAdapter) => {
    const q = target.queryRaw.bind(target);
    const e = target.executeRaw.bind(target);
    const log = process.env.LOG_SQL === '1' ? (a: unknown[]) => console.log('[sql]', (a[0] as { sql: string }).sql) : null;
    target.queryRaw = (...a: unknown[]) => (count(), log?.(a), q(...a));
    target.executeRaw = (...a: unknown[]) => (count(), log?.(a), e(...a));
    return target;
  };
  const connect = factory.connect.bind(factory);
  factory.connect = async () => {
    const adapter = wrap((await connect()) as AnyAdapter);
    if (sqlite) reusePreparedStatements(adapter);
    const start = adapter.startTransaction?.bind(adapter);
    if (start) adapter.startTransaction = async (...a: unknown[]) => wrap(await start(...a));
    return adapter;
  };
  return factory;
}

/**
 * The SQLite adapter prepares every statement anew. Prisma sends the same few SQL texts over
 * and over, so keep the prepared statements (better-sqlite3 runs one at a time, so sharing one
 * is safe); `bind` is emulated because a bound better-sqlite3 statement cannot be bound again.
 */
function reusePreparedStatements(adapter: unknown): void {
  const db = (adapter as { client?: Database.Database }).client;
  if (!db || typeof db.prepare !== 'function' || (db as unknown as { __reuse?: boolean }).__reuse) return;
  const prepare = db.prepare.bind(db);
  const cache = new Map<string, Database.Statement>();
  (db as unknown as { prepare: (sql: string) => unknown }).prepare = (sql: string) => {
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
    const adapter = counting(new PrismaBetterSqlite3({ url: path, timeout: 10_000 }), count, true);
    const prisma = new SqliteClient({ adapter });
    // SQLite bumps data_version when another connection commits; this connection is used only
    // for that, so the service's own writes (through Prisma's connection) count as "another".
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
      changed() { version++; local++; },
      async close() { await prisma.$disconnect(); watcher?.close(); },
    };
  }

  const adapter = counting(new PrismaPg({ connectionString: databaseUrl, max: Number(process.env.PG_POOL ?? 10) }), count);
  const prisma = new PostgresClient({ adapter }) as unknown as Prisma;
  // Other processes announce their writes on a channel; this process bumps its version on each.
  const listener = new pg.Client({ connectionString: databaseUrl });
  await listener.connect();
  listener.on('notification', (n) => { if (n.payload !== String(process.pid)) version++; });
  listener.on('error', () => { version++; });
  await listener.query('LISTEN content_changed');
  return {
    prisma,
    provider,
    get statements() { return statements; },
    version: () => version,
    get localVersion() { return local; },
    changed() {
      version++;
      local++;
      listener.query(`NOTIFY content_changed, '${process.pid}'`).catch(() => {});
    },
    async close() { await prisma.$disconnect(); await listener.end().catch(() => {}); },
  };
}
