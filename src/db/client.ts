// The one database handle: a Prisma 7 client over a driver adapter (no native engine), with a
// count of the SQL statements it sends (tests assert list routes stay at a fixed count) and a
// change feed that tells every process when any process wrote. Writes are noticed here, in the
// adapter every statement passes through, so no write path in the domain can forget to announce one.
import type Database from 'better-sqlite3';
import type { CustomTypesConfig, Pool, PoolClient } from 'pg';
import { AsyncLocalStorage } from 'node:async_hooks';
import { spendStatement } from './statement-budget.js';
import { currentAbortSignal, RequestAborted, throwIfAborted } from './abort.js';
import { randomBytes } from 'node:crypto';
import type { PrismaClient as SqliteClient } from '../generated/sqlite/client.js';
import { providerOf } from '../config.js';
import { sqlitePath } from './migrate.js';
import { log } from '../log.js';
import type { DeferredTermCounts } from './deferred-term-counts.js';

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
   * Whether `close()` has been called. A closed handle sends nothing more: every statement, and
   * `version()`, throws (Prisma would otherwise connect again for a statement sent after
   * `$disconnect`, and work nobody stopped, such as the dispatcher of an app that was never closed,
   * would go on using the database, or trying to, after it is gone).
   */
  readonly closed: boolean;
  /**
   * Write statements sent through this handle so far (and the handles made from it), in a
   * transaction or not, as they are sent. The values a batch's handle keeps while its transaction
   * is open are kept under it (src/db/version-cache.ts): a write of the batch (or of another
   * request, which only costs a read more) moves it, so what is read after it sees it.
   */
  readonly writesSent: number;
  /** Like `writesSent`, for the write statements that may touch the site's options (`touchesOptions`). */
  readonly optionWritesSent: number;
  /**
   * A token naming every write this handle has committed so far (its process and its count of
   * writes), sent to a client with a write's answer (`X-Content-Version`) so that its next read,
   * through any process or instance, can ask for an answer at least that new (`caughtUp`).
   */
  writeToken(): string;
  /**
   * Whether this handle has heard of the writes a token names, so that what it caches is at least
   * that new: always on SQLite (every process looks at the database's version before it answers
   * and writes wait for those looks); on PostgreSQL once the token's process has announced that
   * many writes to this one (or the token is this handle's own). A token it cannot read: false.
   */
  caughtUp(token: string): boolean;
  /**
   * Like `version()`, but moves only when the site's options may have changed: this process's
   * writes move it when they touch the Option table, another process's writes (which are not
   * told apart on SQLite) always. Site settings are kept by it, so a content write does not
   * send the next request back for every option.
   */
  optionsVersion(): number;
  /**
   * Announces a change by hand. Every write statement sent through `prisma` (model queries, raw
   * SQL, in or out of a transaction) already announces itself; this is for changes made around it.
   */
  changed(): void;
  /**
   * Sends one read statement straight to the connection (SQLite) or pool (PostgreSQL) Prisma's
   * adapter opened, past Prisma's query engine: rows as the driver gives them (column names as
   * keys), counted with the rest. Placeholders are `?` on SQLite and `$1…` on PostgreSQL. Not
   * inside a transaction: it runs on a connection of its own (SQLite's second one, a pooled one on
   * PostgreSQL) and sees only what is committed. (The handle a batch gives its items reads through
   * the batch's transaction instead.)
   */
  read(sql: string, args: readonly unknown[]): Promise<Record<string, unknown>[]>;
  /**
   * SQLite only (undefined on PostgreSQL): runs a statement of the write transaction open on this
   * process's connection straight on that connection, without Prisma's client (about 0.2 ms of
   * CPU per statement, spent while the write lock is held), counted with the rest. Rows come back
   * as plain objects with numbers as numbers. Only for statements inside `prisma.$transaction`,
   * after the transaction has written through Prisma at least once: what it writes is announced at
   * commit as the transaction's own statements are (those through here are not seen by that count).
   */
  inTransaction?: (sql: string, args: readonly unknown[]) => Record<string, unknown>[];
  /**
   * PostgreSQL only (undefined on SQLite): inside the callback of `prisma.$transaction`, a function
   * that runs a statement straight on the pooled connection that transaction holds (`pg`'s client,
   * without Prisma's, about 0.2 ms of CPU per statement), counted with the rest, rows as `Db.read`
   * gives them; null outside one. A write through it is announced at commit like the
   * transaction's own.
   */
  transactionStatement?: () => ((sql: string, args: readonly unknown[]) => Promise<Record<string, unknown>[]>) | null;
  /**
   * PostgreSQL only: inside the callback of `prisma.$transaction`, a function that sends the
   * transaction's last statement and its COMMIT in one message (one round trip instead of two,
   * while the statement's row locks are held: a create's term count waits on the create before
   * it for exactly that long). Its values must be integers: they are written into the text (a
   * message of several statements takes no parameters). Prisma's own COMMIT then goes nowhere.
   * Nothing may run in the transaction after it (an attempt throws). Null outside a transaction,
   * and on the handle a batch gives its items (the batch commits, not an item).
   */
  transactionFinish?: () => ((sql: string, args: readonly unknown[]) => Promise<Record<string, unknown>[]>) | null;
  /**
   * Set on the handle a batch gives its items (gateway/dispatch.ts): the term count additions of
   * its creates, sent when the batch's transaction ends (src/content/term-counts.ts).
   */
  termCounts?: DeferredTermCounts;
  /**
   * PostgreSQL only: inside the callback of `prisma.$transaction`, the notices that go out once that
   * transaction has committed (none if it rolls back): push to it. Null outside one. A notice sent
   * by the transaction itself (pg_notify) would also go out at commit, but a transaction that
   * notifies holds a lock of the whole database from its notify to the end of its commit, so every
   * notifying writer would commit one after another; these go out after the commit, batched, on the
   * connection the process listens on. A savepoint rolled back must drop what its statements
   * pushed (src/content/unit-of-work.ts). Delivery is not guaranteed (the process may end between
   * the commit and the notice): a listener must also find what it missed by itself.
   */
  commitNotices?: () => CommitNotice[] | null;
  /**
   * The services of the app serving this database (src/services.ts), set once by createApp, or by
   * servicesOf for code outside an app. A property of the handle rather than a registry keyed by
   * it, so that a handle derived from this one with Object.create inherits them (a batch's, which
   * sets its own copy without the write hooks: src/content/unit-of-work.ts).
   */
  services?: DbServices;
  close(): Promise<void>;
}

/**
 * What `Db.services` holds. Empty here on purpose: this layer may not import the domain, so the
 * domain declares the members itself (src/services.ts, by declaration merging).
 */
export interface DbServices {}

/**
 * What the database layer's helpers need of a request: its handle, and the client it reads
 * through (a transaction's, inside one). The request context (src/context.ts) has both; the
 * helpers ask for no more, so this layer does not depend on the one above it.
 */
export interface DbScope {
  db: Db;
  prisma: Prisma;
}

type Statement = { sql: string; args?: unknown[] };
/** PostgreSQL: how long a read whose client left waits for its cancel to be answered before its connection is closed instead of lent again. */
const CANCEL_WAIT_MS = 5000;
/** PostgreSQL: the application_name of the connection a process hears and sends its change notices on. */
export const NOTICE_CONNECTION = 'content-notices';

/** The connection of the interactive transaction started in an async context (PostgreSQL). */
interface TransactionSlot {
  taken: boolean;
  run: ((sql: string, args: readonly unknown[]) => Promise<Record<string, unknown>[]>) | null;
  finish: ((sql: string, args: readonly unknown[]) => Promise<Record<string, unknown>[]>) | null;
  /** The notices to send once the transaction has committed (`Db.commitNotices`). */
  notices: CommitNotice[];
}

/** A NOTIFY to send after a commit: its channel and payload (at most 8000 bytes). */
export interface CommitNotice { channel: string; payload: string }
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
  const clean = (v: unknown): unknown => (Array.isArray(v) ? v.map(clean) : noNul(v));
  for (let i = 0; i < args.length; i++) args[i] = clean(args[i]);
}

/** A string without U+0000 (see withoutNul); any other value as it is. */
const noNul = (v: unknown): unknown => (typeof v === 'string' && v.includes('\u0000') ? v.replace(/\u0000/g, '') : v);

/** Whether a write's SQL may touch the Option table (a false yes only costs a re-read of the options). */
export const touchesOptions = (sql: string) => /\boption\b/i.test(sql);

/** Told of each interactive transaction as it starts: its adapter object and how to mark it as having written. */
type TransactionHook = (tx: AnyTransaction, wrote: (options: boolean) => void) => void;

/**
 * Wraps an adapter factory so each statement, in or out of a transaction, is counted, and each
 * write announces a change: a write outside a transaction once it has run (whether it succeeded
 * or failed: a failed statement normally changed nothing, but a lost connection leaves that
 * unknown and retiring the cache is always safe), a write inside a transaction once the
 * transaction committed, once per transaction. A rolled-back transaction announces nothing.
 * Announcing after the fact matters: a read that started before the commit must see the version
 * move by the time it finishes, so the response cache does not keep what it read.
 */
function counting<F extends { connect(): Promise<unknown> }>(factory: F, count: () => void, changed: (options?: boolean) => void, opened: (client: unknown) => void, sent: (sql: string) => void, sqlite?: (lock: WriteLock) => void, started?: TransactionHook): F {
  const logSql = process.env.LOG_SQL === '1' ? (a: unknown[]) => log.info({ sql: (a[0] as Statement).sql }, 'sql') : null;
  /**
   * `onWrite` runs after a write statement settles, before its caller sees the outcome; `after`,
   * when given, is waited for before a successful write's caller sees it (SQLite's `settled`).
   */
  const wrap = <T extends AnyQueryable>(target: T, onWrite: (options: boolean) => void, after?: () => Promise<void>): T => {
    const q = target.queryRaw.bind(target);
    const e = target.executeRaw.bind(target);
    const send = (run: Function, a: unknown[]) => {
      try { count(); } catch (err) { return Promise.reject(err); }
      if (!sqlite) withoutNul(a[0] as Statement);
      logSql?.(a);
      const p: Promise<unknown> = run(...a);
      const sql = (a[0] as Statement).sql;
      if (!isWrite(sql)) return p;
      sent(sql);
      const options = touchesOptions(sql);
      return p.then((r) => { onWrite(options); return after ? after().then(() => r) : r; }, (err) => { onWrite(options); throw err; });
    };
    target.queryRaw = (...a: unknown[]) => send(q, a);
    target.executeRaw = (...a: unknown[]) => send(e, a);
    return target;
  };
  const transaction = (tx: AnyTransaction): AnyTransaction => {
    let wrote = false;
    let options = false;
    const mark = (o: boolean) => { wrote = true; options ||= o; };
    wrap(tx, mark);
    started?.(tx, mark);
    // Prisma has run COMMIT (through executeRaw) before it calls commit(), which releases the
    // connection; with an adapter that commits in commit() itself, it has committed once this
    // resolves. A failed COMMIT is followed by rollback(), which is left as it is.
    const commit = tx.commit.bind(tx);
    tx.commit = async () => {
      try { await commit(); } finally { if (wrote) { const o = options; wrote = false; options = false; changed(o); } }
    };
    return tx;
  };
  const connect = factory.connect.bind(factory);
  factory.connect = async () => {
    // Outside a transaction a write commits by itself: on SQLite its caller waits out the window
    // of the other processes' looks, as a transaction's commit does (see SQLITE_LOOK_MS).
    const adapter = wrap((await connect()) as AnyAdapter, changed, sqlite ? settled : undefined);
    opened((adapter as { client?: unknown }).client);
    const lock = sqlite ? reusePreparedStatements(adapter) : null;
    if (lock) sqlite!(lock);
    const start = adapter.startTransaction?.bind(adapter);
    if (start && lock) adapter.startTransaction = (...a: unknown[]) => lock.begin(async () => transaction(await start(...a)));
    else if (start) adapter.startTransaction = async (...a: unknown[]) => transaction(await start(...a));
    const script = adapter.executeScript?.bind(adapter);
    if (script) adapter.executeScript = (...a: unknown[]) => new Promise((ok) => ok(script(...a))).finally(() => changed(true));
    return adapter;
  };
  return factory;
}

// ---------------------------------------------------------------- direct reads (Db.read)

const sqliteStatements = new WeakMap<Database.Database, Map<string, Database.Statement>>();

/** A prepared statement of this connection, kept by its text (a few hundred at most are kept). */
function sqliteStatement(connection: Database.Database, sql: string): Database.Statement {
  let cache = sqliteStatements.get(connection);
  if (!cache) sqliteStatements.set(connection, (cache = new Map()));
  let stmt = cache.get(sql);
  if (!stmt) {
    // The connection's own prepare, not the adapter-facing one reusePreparedStatements put over it.
    // Plain numbers: the adapter turns on safe integers (BigInt) for the whole connection.
    const own = (Object.getPrototypeOf(connection) as Database.Database).prepare;
    stmt = (own.call(connection, sql) as Database.Statement).safeIntegers(false);
    if (cache.size >= 500) cache.delete(cache.keys().next().value!);
    cache.set(sql, stmt);
  }
  return stmt;
}

/** A bound value as Prisma's SQLite adapter writes it (dates as ISO text with `+00:00`, booleans as 0/1). */
const sqliteValue = (v: unknown) => (v instanceof Date ? v.toISOString().replace('Z', '+00:00') : typeof v === 'boolean' ? (v ? 1 : 0) : v);

/**
 * A bound value as Prisma's PostgreSQL adapter sends it (a date as UTC text for `timestamp`
 * columns), without U+0000, which PostgreSQL's text cannot hold (see withoutNul).
 */
const postgresValue = (v: unknown) => (v instanceof Date ? v.toISOString().slice(0, 23).replace('T', ' ') : noNul(v));

/**
 * A statement with its `$n` placeholders replaced by the values, which must be safe integers (the
 * only values written into statement text here).
 */
export function withIntegers(sql: string, args: readonly unknown[]): string {
  return sql.replace(/\$(\d+)/g, (_, n: string) => {
    const v = args[Number(n) - 1];
    if (typeof v !== 'number' || !Number.isSafeInteger(v)) throw new Error(`only integers can be written into a statement (value ${n})`);
    return String(v);
  });
}

/** Statements PostgreSQL can keep prepared by name (not SAVEPOINT and the like). */
const PREPARABLE = /^\s*(?:select|insert|update|delete|with|values)\b/i;

const statementNames = new Map<string, string>();
/**
 * A name for a statement text, so each pooled connection prepares it once (PostgreSQL then skips
 * parsing it again); the first 500 texts of the process get one, later ones run unnamed.
 */
function statementName(sql: string): string | undefined {
  let name = statementNames.get(sql);
  if (name === undefined && statementNames.size < 500) statementNames.set(sql, (name = `direct_${statementNames.size}`));
  return name;
}

/**
 * Result parsing for direct reads (given the loaded `pg` module): `timestamp` (without zone, how Prisma stores DateTime) is UTC,
 * not the process's local time; `int8` (counts) becomes a number.
 */
const pgTypes = (pg: { types: { getTypeParser(oid: number, format?: 'text'): unknown } }) => ({
  getTypeParser(oid: number, format?: string) {
    if (oid === 1114) return (text: string) => new Date(`${text.replace(' ', 'T')}Z`);
    if (oid === 20) return (text: string) => Number(text);
    return pg.types.getTypeParser(oid, format as 'text');
  },
}) as unknown as CustomTypesConfig;

/** SQLite's answer when another connection holds the lock asked for. */
const isBusy = (err: unknown) => typeof (err as { code?: unknown })?.code === 'string' && (err as { code: string }).code.startsWith('SQLITE_BUSY');

const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/**
 * SQLite: how long one look at other processes' commits (PRAGMA data_version) stays good, in
 * milliseconds. A look costs about 2 µs and two lock calls to the kernel; asked on every turn of
 * the event loop, it was the largest single cost of a cached answer (a tenth of its CPU with two
 * workers). Asked at most once per window instead, what another process committed stays unseen
 * for up to the window, so every write here waits out the window after its commit before its
 * caller sees it (`settled`): by the time anyone learns of a write, every process's next look
 * sees it, and a client that writes through one worker and then reads through another still
 * reads its write. Both sides measure on the monotonic clock, so only its rate matters.
 */
export const SQLITE_LOOK_MS = 1;

/**
 * A `PRAGMA data_version` asked at most once per window (see SQLITE_LOOK_MS): whether it moved
 * since the last look; `seen()` is the value that look found.
 */
function lookedAtMost(ask: () => unknown): (() => boolean) & { seen(): unknown } {
  let at = -Infinity;
  let seen = ask();
  const moved = () => {
    const now = performance.now();
    if (now - at < SQLITE_LOOK_MS) return false;
    at = now; // before the look: what committed by now is seen
    const next = ask();
    if (next === seen) return false;
    seen = next;
    return true;
  };
  return Object.assign(moved, { seen: () => seen });
}

/** Resolves once SQLITE_LOOK_MS have passed since it was called (node's timers may fire a little early). */
async function settled(): Promise<void> {
  const until = performance.now() + SQLITE_LOOK_MS;
  for (let left = SQLITE_LOOK_MS; left > 0; left = until - performance.now()) await sleep(Math.ceil(left));
}

/** How the SQLite connection waits for the write lock: see `reusePreparedStatements`. */
interface WriteLock {
  /** Runs `start` (the adapter's startTransaction) once this connection holds SQLite's write lock. */
  begin<T extends AnyTransaction>(start: () => Promise<T>): Promise<T>;
  /** PRAGMA data_version on this connection: it changes when another connection committed. */
  dataVersion(): unknown;
}

/**
 * A connection's page cache: SQLITE_CACHE_MB (default 2, SQLite's own default). better-sqlite3
 * builds SQLite with 16 MB per connection, and a worker has two (the adapter's and the reads'):
 * as the search and category scenarios of the bench walked more of the file, the caches filled
 * and a worker's malloc heap grew by about 40 MB to stay there. Pages outside the cache come from
 * the operating system's file cache; no slower reads were measurable here.
 */
function setPageCache(db: Database.Database): void {
  const mb = Number(process.env.SQLITE_CACHE_MB ?? 2);
  if (Number.isFinite(mb) && mb > 0) db.pragma(`cache_size = -${Math.round(mb * 1024)}`);
}

/**
 * Tunes the SQLite connection the adapter opened, and returns how its transactions begin.
 *
 * - Prepared statements are kept: the adapter prepares every statement anew, while Prisma sends
 *   the same few SQL texts over and over (better-sqlite3 runs one at a time, so sharing one is
 *   safe); `bind` is emulated because a bound better-sqlite3 statement cannot be bound again.
 * - `synchronous=NORMAL` in WAL mode (SQLITE_SYNCHRONOUS overrides it): a commit no longer waits
 *   for an fsync of the log; the database stays consistent, and a power cut (not a crash of the
 *   process) may lose the last commits before a checkpoint.
 * - Transactions begin IMMEDIATE: a deferred transaction that reads, then writes after another
 *   process committed cannot upgrade its lock (SQLite answers SQLITE_BUSY at once, whatever the
 *   busy timeout). Prisma's transactions here all write, so they take the write lock as they begin.
 * - Waiting for that lock does not block the process: with the busy timeout SQLite would sleep
 *   inside the call (in growing steps of up to 100 ms) with the event loop stopped, while the
 *   other worker held the lock for a few milliseconds. Here BEGIN IMMEDIATE is tried without a
 *   timeout and, while another process holds the lock, tried again a millisecond or so later,
 *   the event loop free meanwhile, up to the connection's timeout; then once more the usual way
 *   (which fails as before). Transactions of this process queue before that, one at a time, as
 *   the adapter's own mutex had them.
 */
function reusePreparedStatements(adapter: unknown, timeoutMs = 10_000): WriteLock | null {
  const db = (adapter as { client?: Database.Database }).client;
  if (!db || typeof db.prepare !== 'function' || (db as unknown as { __reuse?: boolean }).__reuse) return null;
  const wal = String(db.pragma('journal_mode', { simple: true })).toLowerCase() === 'wal';
  const synchronous = (process.env.SQLITE_SYNCHRONOUS ?? 'NORMAL').toUpperCase();
  if (wal && ['OFF', 'NORMAL', 'FULL', 'EXTRA'].includes(synchronous)) db.pragma(`synchronous = ${synchronous}`);
  setPageCache(db);
  const prepare = db.prepare.bind(db);
  const cache = new Map<string, Database.Statement>();
  /** Set while the write lock was taken here and the adapter's own BEGIN is to do nothing. */
  let begun = false;
  const nothing = { reader: false, run: () => ({ changes: 0, lastInsertRowid: 0 }), columns: () => [], raw: () => ({ all: () => [] }) };
  (db as unknown as { prepare: (sql: string) => unknown }).prepare = (text: string) => {
    if (text === 'BEGIN' && begun) {
      begun = false;
      return { bind: () => nothing, run: nothing.run };
    }
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

  const beginImmediate = prepare('BEGIN IMMEDIATE');
  const dataVersion = prepare('PRAGMA data_version').pluck();
  const rollback = prepare('ROLLBACK');
  // Through `exec`: `db.pragma()` cost about 30 µs a call in the driver's JavaScript (0.12 ms of a
  // 3-4 ms create), `exec` about 1 µs. (Not a statement prepared once: SQLite applies this pragma
  // while preparing it, so running a prepared one again changes nothing.)
  const noWait = 'PRAGMA busy_timeout = 0';
  const wait = `PRAGMA busy_timeout = ${Math.max(0, Math.floor(timeoutMs))}`;
  /** Tries once, without waiting: whether this connection now holds the write lock. */
  const tryLock = (): boolean => {
    db.exec(noWait);
    try {
      beginImmediate.run();
      return true;
    } catch (err) {
      if (isBusy(err)) return false;
      throw err;
    } finally {
      db.exec(wait);
    }
  };
  let queue: Promise<void> = Promise.resolve();
  return {
    dataVersion: () => dataVersion.get(),
    async begin(start) {
      // One transaction of this process at a time (the adapter's mutex, taken earlier).
      let release!: () => void;
      const mine = new Promise<void>((resolve) => { release = resolve; });
      const before = queue;
      queue = before.then(() => mine);
      await before;
      let tx: AnyTransaction;
      try {
        const deadline = Date.now() + timeoutMs;
        let tries = 0;
        let locked = tryLock();
        while (!locked && Date.now() < deadline) {
          await sleep(++tries < 50 ? 1 : 5);
          locked = tryLock();
        }
        begun = locked; // else the adapter's BEGIN waits the usual way, and fails as it did
        try {
          tx = await start();
        } catch (err) {
          if (begun) { begun = false; rollback.run(); }
          throw err;
        }
      } catch (err) {
        release();
        throw err;
      }
      const commit = tx.commit.bind(tx);
      const undo = (tx as AnyTransaction & { rollback(): Promise<void> }).rollback.bind(tx);
      tx.commit = () => commit().finally(release).then(settled);
      (tx as AnyTransaction & { rollback(): Promise<void> }).rollback = () => undo().finally(release);
      return tx as never;
    },
  };
}

/**
 * Interactive transactions may wait this long for a connection (`maxWait`) and run this long
 * (`timeout`). Prisma's defaults (2 s, 5 s) turned a busy moment into 500s: with 32 writers on
 * two workers the pool (PG_POOL) queues requests for seconds, and under that load a write's
 * transaction can take over 5 s on a small machine. The requests in flight are bounded by
 * MAX_IN_FLIGHT instead.
 */
const TRANSACTIONS = { maxWait: 15_000, timeout: 30_000 };

const background = new AsyncLocalStorage<true>();
/**
 * Runs work the process does on its own, outside any request (the webhooks' dispatcher): its
 * statements are not counted in `Db.statements`, which measures what requests send (a request's
 * count must not move because a background pass ran meanwhile).
 */
export function inBackground<T>(fn: () => Promise<T>): Promise<T> {
  return background.run(true, fn);
}

/** How a handle is opened besides its URL (tests give a clock). */
export interface DbSettings {
  /** PostgreSQL: the longest an answer made under one version is served (CACHE_STALE_BOUND_MS; 0: no bound). */
  staleBoundMs?: number;
  /** The clock of that bound, in milliseconds. */
  now?: () => number;
}

export async function openDb(databaseUrl: string, settings: DbSettings = {}): Promise<Db> {
  const provider = providerOf(databaseUrl);
  let statements = 0;
  let version = 0;
  let local = 0;
  // Every statement sent, and one more against the running unit of work's budget, if any (throws
  // past it); none of the process's own background work (`inBackground`). A read request whose
  // client has left sends none (./abort.ts).
  let handleClosed = false;
  const refuseClosed = () => { if (handleClosed) throw new Error('the database handle is closed'); };
  const count = () => { refuseClosed(); if (background.getStore()) return; throwIfAborted(); spendStatement(); statements++; };
  let writesSent = 0;
  let optionWritesSent = 0;
  const sent = (sql: string) => { writesSent++; if (touchesOptions(sql)) optionWritesSent++; };

  // Each database's driver, adapter and generated client are loaded when a handle of that kind is
  // opened: a SQLite site never loads pg and Prisma's PostgreSQL client, nor the reverse.
  if (provider === 'sqlite') {
    const [{ default: BetterSqlite }, { PrismaBetterSqlite3 }, { PrismaClient: SqliteClientClass }] = await Promise.all([
      import('better-sqlite3'), import('@prisma/adapter-better-sqlite3'), import('../generated/sqlite/client.js'),
    ]);
    const path = sqlitePath(databaseUrl);
    let options = 0;
    const changed = (touchedOptions = true) => { version++; local++; if (touchedOptions) options++; };
    // Other processes' commits, for the options: seen on the adapter's own connection, where this
    // process's commits do not count (they do on the watcher below, a connection of its own).
    // Looked at no more often than the version is (see SQLITE_LOOK_MS).
    let othersChangedOptions: (() => boolean) | null = null;
    let connection: Database.Database | null = null;
    const adapter = counting(new PrismaBetterSqlite3({ url: path, timeout: 10_000 }), count, changed, (c) => { connection = c as Database.Database; }, sent, (lock) => {
      // The baseline: what commits after it is seen here. What committed before it and after the
      // watcher last looked (see optionsVersion) is looked for once, after it.
      othersChangedOptions = lookedAtMost(lock.dataVersion);
      // (Not on a closed handle, whose watcher is closed: the statement that opened this refuses.)
      if (!handleClosed && dataVersion && othersBeforeAdapter && dataVersion.get() !== othersBeforeAdapter.seen()) options++;
    });
    // A transaction may wait for the write lock at least as long as SQLite's busy timeout would
    // have let it (10 s), queued behind this process's own ones included (TRANSACTIONS: 15 s):
    // Prisma's default start wait (2 s) would turn a busy moment into errors now that waiting
    // leaves the event loop free and more requests queue meanwhile. Callers that pass their own
    // maxWait keep it.
    const prisma = new SqliteClientClass({ adapter, transactionOptions: TRANSACTIONS });
    // This process's writes move the version as they commit (above). Other processes' writes are
    // seen through data_version, which SQLite bumps when another connection commits; this
    // connection is used only for that, so this process's writes bump it too (harmlessly, again).
    const watcher = path === ':memory:' ? null : new BetterSqlite(path, { timeout: 10_000 });
    if (watcher) setPageCache(watcher);
    const dataVersion = watcher?.prepare('PRAGMA data_version').pluck();
    // Asked at most once per SQLITE_LOOK_MS (a request asks for the version many times as it
    // reads, a cached answer once); the writes of every process wait that long before they are
    // acknowledged, so none acknowledged goes unseen.
    const othersCommitted = dataVersion ? lookedAtMost(() => dataVersion.get()) : () => false;
    // Until the adapter's connection opens (reads go to the watcher, so a process that only reads
    // may never open it), this process has written nothing: it writes through that connection. Any
    // commit the watcher sees meanwhile is another's, and may have touched the options.
    const othersBeforeAdapter = dataVersion ? lookedAtMost(() => dataVersion.get()) : null;
    const version_ = () => {
      if (othersCommitted()) version++;
      return version;
    };
    return {
      prisma,
      provider,
      get statements() { return statements; },
      version: () => { refuseClosed(); return version_(); },
      get localVersion() { return local; },
      get writesSent() { return writesSent; },
      get optionWritesSent() { return optionWritesSent; },
      writeToken: () => `${local}`,
      caughtUp: () => true,
      optionsVersion() {
        if (othersChangedOptions ? othersChangedOptions() : othersBeforeAdapter?.()) options++;
        return options;
      },
      changed: () => changed(),
      async read(sql, args) {
        refuseClosed();
        // A file's reads go to the watcher, so they need not open Prisma's connection: opening it
        // starts Prisma's query compiler (WebAssembly, about 75 ms of CPU here), which would
        // otherwise fall on a new worker's first answer. A database in memory has one connection.
        if (!watcher && !connection) await prisma.$connect();
        const on = watcher ?? connection;
        if (!on) throw new Error('the SQLite adapter exposed no connection');
        count();
        // On the watcher's connection, not the adapter's: a transaction of this process runs on the
        // adapter's one connection, and a read there while it is open (another request's, between
        // two of its statements) would see its rows before it commits, or after it rolls back.
        // (An in-memory database has one connection: there both are the same.)
        return sqliteStatement(on, sql).all(...args.map(sqliteValue)) as Record<string, unknown>[];
      },
      inTransaction(sql, args) {
        if (!connection) throw new Error('the SQLite adapter exposed no connection');
        count();
        const statement = sqliteStatement(connection, sql);
        const values = args.map(sqliteValue);
        if (statement.reader) return statement.all(...values) as Record<string, unknown>[];
        if (isWrite(sql)) sent(sql);
        statement.run(...values);
        return [];
      },
      get closed() { return handleClosed; },
      async close() { handleClosed = true; await prisma.$disconnect(); watcher?.close(); },
    };
  }

  // Processes announce their writes on a channel; each bumps its version on the others' notices.
  // The sender is named per handle, not per process, so two handles in one process (tests, a
  // command run in-process) hear each other. A notice reads `<sender>/<count>`: the sender's
  // count of committed writes when it was sent (so a listener knows which write tokens it has
  // caught up with), followed by `+options` when a write it tells of touched the options.
  const [{ default: pg }, { PrismaPg }, { PrismaClient: PostgresClient }] = await Promise.all([
    import('pg'), import('@prisma/adapter-pg'), import('../generated/postgres/client.js'),
  ]);
  const self = `${process.pid}.${randomBytes(4).toString('hex')}`;
  let options = 0;
  // Per sender, the highest count of writes it has announced (a few entries: one per process).
  const heard = new Map<string, number>();
  // The connection notices come in on (and go out on); null while it is being made again.
  let listener: InstanceType<typeof pg.Client> | null = null;
  // The longest an answer made under one version is served: past it the version moves by itself.
  // A notice can be lost (a writer killed between its commit and its notice): this bounds how
  // long another process may answer from before such a write.
  const staleBound = settings.staleBoundMs ?? Number(process.env.CACHE_STALE_BOUND_MS ?? 5000);
  const now = settings.now ?? (() => performance.now());
  let versionSince = now();
  // One notice on the wire at a time (pg wants a client's queries one after another): the writes
  // committed while one is sent are told by one more notice after it, which names the options if
  // any of them touched them. Every other process only needs to hear that something changed
  // after the last notice it had. A notice that could not be sent (the connection was lost) is
  // owed again and sent once the connection is back.
  // The committed transactions' own notices (`Db.commitNotices`) go out with it, in commit order,
  // in one statement.
  let sending = false;
  let owed: 'none' | 'plain' | 'options' = 'none';
  let queued: CommitNotice[] = [];
  const owe = (kind: 'plain' | 'options') => { if (kind === 'options' || owed === 'none') owed = kind; };
  const announce = () => {
    if ((owed === 'none' && !queued.length) || !listener) { sending = false; return; }
    const kind = owed;
    const notices = queued;
    queued = [];
    owed = 'none';
    sending = true;
    const all = kind === 'none' ? notices : [{ channel: 'content_changed', payload: `${self}/${local}${kind === 'options' ? '+options' : ''}` }, ...notices];
    const sent = all.length === 1
      ? listener.query('SELECT pg_notify($1, $2)', [all[0].channel, all[0].payload])
      : listener.query('SELECT pg_notify(n.c, n.p) FROM unnest($1::text[], $2::text[]) AS n(c, p)', [all.map((n) => n.channel), all.map((n) => n.payload)]);
    sent.then(announce, () => { if (kind !== 'none') owe(kind); queued = [...notices, ...queued]; sending = false; });
  };
  const queueNotices = (notices: CommitNotice[]) => {
    if (!notices.length) return;
    queued.push(...notices);
    if (!sending) announce();
  };
  const changed = (touchedOptions = true) => {
    version++;
    local++;
    if (touchedOptions) options++;
    owe(touchedOptions ? 'options' : 'plain');
    if (!sending) announce();
  };
  const onNotice = (n: { payload?: string }) => {
    const [from, what] = (n.payload ?? '').split('+');
    const slash = from.lastIndexOf('/');
    const sender = slash < 0 ? from : from.slice(0, slash);
    if (sender === self) return;
    const count = slash < 0 ? NaN : Number(from.slice(slash + 1));
    if (Number.isSafeInteger(count) && count > (heard.get(sender) ?? -1)) heard.set(sender, count);
    version++;
    if (what !== undefined || !sender) options++;
  };
  // Listening, and listening again after the connection is lost. While it is down nothing this
  // process caches can be trusted (other processes' writes go unheard), so every look at the
  // version moves it: no answer is cached or served from the cache until the connection is back.
  const listen = async (): Promise<void> => {
    // Named, so an operator (or a test) can tell it from the pool's connections in pg_stat_activity.
    const client = new pg.Client({ connectionString: databaseUrl, application_name: NOTICE_CONNECTION });
    const lost = () => {
      client.end().catch(() => {});
      if (listener !== client) return;
      listener = null;
      version++;
      options++;
      if (handleClosed) return;
      log.warn('database change notices: connection lost; answering without the cache until it is back');
      const again = () => { if (!handleClosed) listen().catch(() => setTimeout(again, 1000).unref()); };
      setTimeout(again, 100).unref();
    };
    client.on('error', lost);
    client.on('end', lost);
    client.on('notification', onNotice);
    await client.connect();
    await client.query('LISTEN content_changed');
    listener = client;
    // What was written meanwhile went unheard: everything kept before is retired.
    version++;
    options++;
    if (!sending) announce();
  };
  // The pool is made here and handed to Prisma's adapter, so that reads (Db.read) can use it before
  // Prisma's first query: opening Prisma's connection starts its query compiler (WebAssembly,
  // about 75 ms of CPU here), which would otherwise fall on a new worker's first answer. Ended by
  // close(), whether Prisma ever used it or not.
  const pool: Pool = new pg.Pool({ connectionString: databaseUrl, max: Number(process.env.PG_POOL ?? 10) });
  // An idle connection that fails (the server restarted) is dropped by the pool; without a listener the error would end the process.
  pool.on('error', (err) => log.warn({ err: err.message }, 'an idle PostgreSQL connection was lost'));
  // A read whose client left is cancelled with a statement on the notice connection (or, while it
  // is being made again, on a connection of its own), never on a pooled one: every pooled
  // connection may be held by such a read, each waiting for its cancel to be answered before it
  // goes back, and a cancel waiting for a pooled connection would then wait for ever (so would
  // every request of the process).
  const cancelBackend = (pid: number): Promise<unknown> => {
    const sql = 'SELECT pg_cancel_backend($1)';
    if (listener) return listener.query(sql, [pid]).catch(() => {});
    const c = new pg.Client({ connectionString: databaseUrl, application_name: NOTICE_CONNECTION });
    c.on('error', () => {});
    return c.connect().then(() => c.query(sql, [pid])).catch(() => {}).finally(() => c.end().catch(() => {}));
  };
  const types = pgTypes(pg);
  // Which connection an interactive transaction holds: `$transaction` (below) opens a slot in the
  // async context its callback runs in; the adapter's startTransaction, called within that
  // context, fills it. Two transactions started in one slot (never expected) leave it empty, so
  // their statements go through Prisma.
  const slots = new AsyncLocalStorage<TransactionSlot>();
  const started: TransactionHook = (tx, wrote) => {
    const slot = slots.getStore();
    if (!slot) return;
    const client = (tx as AnyTransaction & { client?: PoolClient }).client;
    if (slot.taken || !client) { slot.run = null; slot.finish = null; slot.taken = true; return; }
    slot.taken = true;
    // After the commit (and only then), the notices the transaction left.
    const commit = tx.commit.bind(tx);
    tx.commit = async () => { await commit(); queueNotices(slot.notices.splice(0)); };
    let committed = false;
    /** What every statement of the transaction does first: refuse one after the COMMIT, count it, note a write. */
    const before = (sql: string) => {
      if (committed) throw new Error('the transaction has committed: no statement may follow its last');
      count();
      if (isWrite(sql)) { sent(sql); wrote(touchesOptions(sql)); }
    };
    slot.run = async (sql, args) => {
      before(sql);
      const result = await client.query({ text: sql, values: args.map(postgresValue), types, name: PREPARABLE.test(sql) ? statementName(sql) : undefined });
      return result.rows;
    };
    slot.finish = async (sql, args) => {
      before(sql);
      const text = `${withIntegers(sql, args)}; COMMIT`;
      committed = true; // whatever the outcome: a failed COMMIT has ended the transaction too
      const results = (await client.query({ text, types })) as unknown as { rows: Record<string, unknown>[] }[];
      return results[0].rows;
    };
    // Prisma sends COMMIT through the transaction before it lets go of the connection: once the
    // last statement carried it, there is nothing left to commit. (A ROLLBACK after a failed one
    // goes through: PostgreSQL only warns that no transaction is in progress.)
    const execute = tx.executeRaw.bind(tx);
    tx.executeRaw = (...a: unknown[]) => (committed && /^\s*COMMIT\s*$/i.test((a[0] as Statement).sql) ? Promise.resolve(0) : execute(...a));
  };
  const adapter = counting(new PrismaPg(pool), count, changed, () => {}, sent, undefined, started);
  const prisma = new PostgresClient({ adapter, transactionOptions: TRANSACTIONS }) as unknown as Prisma;
  const transaction = prisma.$transaction.bind(prisma) as (arg: unknown, options?: unknown) => Promise<unknown>;
  (prisma as unknown as { $transaction: typeof transaction }).$transaction = (arg, options) =>
    typeof arg === 'function' ? slots.run({ taken: false, run: null, finish: null, notices: [] }, () => transaction(arg, options)) : transaction(arg, options);
  await listen();
  return {
    prisma,
    provider,
    get statements() { return statements; },
    version() {
      refuseClosed();
      if (!listener) return ++version;
      if (staleBound > 0) {
        const t = now();
        if (t - versionSince >= staleBound) { versionSince = t; version++; }
      }
      return version;
    },
    get localVersion() { return local; },
    get writesSent() { return writesSent; },
    get optionWritesSent() { return optionWritesSent; },
    writeToken: () => `${self}/${local}`,
    caughtUp(token) {
      const slash = token.lastIndexOf('/');
      const count = Number(token.slice(slash + 1));
      if (slash < 1 || !Number.isSafeInteger(count)) return false;
      const sender = token.slice(0, slash);
      return sender === self ? local >= count : (heard.get(sender) ?? -1) >= count;
    },
    optionsVersion: () => (listener ? options : ++options),
    changed: () => changed(),
    async read(sql, args) {
      refuseClosed();
      count();
      const query = { text: sql, values: args.map(postgresValue), types, name: statementName(sql) };
      const signal = currentAbortSignal();
      if (!signal) return (await pool.query(query)).rows;
      // A read of a request: cancelled on the server if its client leaves while it runs.
      const client = await pool.connect();
      // The connection goes back to the pool only once a cancel sent for it has been answered: a
      // cancel still on its way would otherwise stop whatever the next borrower runs there (a 500
      // for another request's read).
      let cancelling: Promise<unknown> | null = null;
      const cancel = () => { cancelling = cancelBackend((client as unknown as { processID: number }).processID); };
      signal.addEventListener('abort', cancel, { once: true });
      try {
        if (signal.aborted) throw new RequestAborted();
        return (await client.query(query)).rows;
      } catch (err) {
        throw signal.aborted ? new RequestAborted() : err;
      } finally {
        signal.removeEventListener('abort', cancel);
        // A cancel not answered in CANCEL_WAIT_MS: the connection is closed rather than lent again.
        const pending = cancelling as Promise<unknown> | null;
        const answered = pending ? await Promise.race([pending.then(() => true), new Promise<boolean>((resolve) => setTimeout(resolve, CANCEL_WAIT_MS, false).unref())]) : true;
        client.release(!answered);
      }
    },
    transactionStatement: () => slots.getStore()?.run ?? null,
    transactionFinish: () => slots.getStore()?.finish ?? null,
    commitNotices: () => { const slot = slots.getStore(); return slot?.run ? slot.notices : null; },
    get closed() { return handleClosed; },
    async close() {
      handleClosed = true;
      const l = listener;
      listener = null;
      await prisma.$disconnect();
      await pool.end().catch(() => {});
      await l?.end().catch(() => {});
    },
  };
}
