// Changes as events: the transactional event log. A change is recorded inside the transaction that
// makes it, as a row of ContentEvent on both databases, so an event exists exactly when the change
// committed, whichever process or worker made it. Two readers hear it:
// - GraphQL's `contentChanged` subscription, live, in the order of the log's ids (docs/subscriptions.md):
//   - SQLite: each process, while it has subscribers, watches the database's version (PRAGMA
//     data_version, the response cache's signal) and reads the rows after the last one it passed.
//     Writers take the write lock as they begin, so ids grow in commit order;
//   - PostgreSQL: once the transaction that inserts the row has committed (never when it rolls
//     back), its process sends a notice on CONTENT_EVENTS_CHANNEL with the row's id and the event
//     (Db.commitNotices: batched, outside the writers' transactions) to every process listening.
//     Each process listens on its own connection while it has subscribers. Ids are taken before
//     commit, so a smaller id may commit after a larger one: a process hands events on in id
//     order, holding back behind an id still being written (LogReader), and after a lost
//     connection it reads what it missed from the log. A notice lost with its sender (ended
//     between its commit and its notice) is found in the log by the next notice or, with none,
//     by the read every SWEEP_MS.
//   A subscriber that comes back with the last id it heard (Last-Event-ID) first hears the rows
//   after it from the log, then the live ones.
// - the webhooks (src/webhooks/): the log is their outbox; a dispatcher fans its rows out into
//   deliveries and moves each webhook's cursor past them.
// The log is pruned by writes (every PRUNE_EVERY-th event) by age: rows older than the window
// (EVENT_LOG_HOURS) go, except those after the lowest cursor of an active webhook (what some
// webhook has not fanned out yet).
import { createRequire } from 'node:module';
import type pg from 'pg';
import type { Db, Tx } from '../db/client.js';
import { log } from '../log.js';
import { txStatements } from '../db/sql.js';
import { CONTENT_TYPES } from '../resources/content-types.js';
import { eventLogHours } from '../config.js';

export type ContentAction = 'created' | 'updated' | 'trashed' | 'deleted';
/** What an event is about: a content item (the default), a term, a comment or a menu. */
export type EventKind = 'content' | 'term' | 'comment' | 'menu';

export interface ContentEvent {
  /** Absent means 'content'. Only content events reach the `contentChanged` subscription. */
  kind?: EventKind;
  action: ContentAction;
  /** Content type: post, page, attachment. */
  type: string;
  id: number;
  /** Status after the change (for a delete, the last one), and before it (empty on create). */
  status: string;
  previousStatus: string;
  authorId: number;
  parentId: number | null;
  /** Public details of a term, comment or menu change (what a webhook carries besides the ids). */
  data?: Record<string, unknown>;
  /** The event log row's id, on events read back from the log (absent on what a writer records). */
  logId?: number;
}

/** The content types the `contentChanged` subscription announces (its union has these three). */
export const SUBSCRIBED_TYPES: ReadonlySet<string> = new Set(['post', 'page', 'attachment']);
/** The content types whose changes are logged: every type of the registry (posts, pages, media, the model's types). */
const LOGGED = new Set(CONTENT_TYPES.map((d) => d.type));
export const CONTENT_EVENTS_CHANNEL = 'content_events';
/** How many events apart the writes prune the log (the write whose id is a multiple of it). */
export const PRUNE_EVERY = 100;
/** NOTIFY payloads are limited to 8000 bytes: a longer event is sent as its id, and read back. */
const NOTIFY_MAX = 7000;
/** SQLite: how often a process with subscribers checks the database's version. */
const POLL_MS = Number(process.env.CONTENT_EVENTS_POLL_MS ?? 200);
/** Rows a reader takes from the log at once. */
const READ_BATCH = 500;
/**
 * PostgreSQL: the advisory lock class a writer holds (shared), keyed by its row's id's block of
 * WRITING_BLOCK ids, from the insert to its commit or rollback: a reader that finds an id missing
 * below a committed one learns from it whether a transaction that wrote into that block is still
 * open. Blocks, not single ids: a transaction that records thousands of events (an import) holds
 * one lock per thousand, where one per id would fill the server's lock table (max_locks_per_transaction).
 */
const WRITING_LOCK = 0x43457674;
const WRITING_BLOCK = 1024;
/**
 * PostgreSQL: how long an id must have been seen missing before an unlocked, absent id counts as
 * rolled back. It only covers the instant between the id's allocation and the lock, inside the
 * writer's one statement.
 */
const GAP_SETTLE_MS = 1000;
/**
 * PostgreSQL: an id missing below a row written this long ago is given up without asking: no
 * transaction stays open that long (the longest, a unit of work, times out after 120 s; the
 * rest is a margin for the clocks of other machines).
 */
const GAP_GIVE_UP_MS = 180_000;
/** PostgreSQL: how soon a process looks again at an id still being written. */
const GAP_RETRY_MS = 250;
/** PostgreSQL: how often a process with subscribers reads the log without a notice (for a notice lost with its sender). */
const SWEEP_MS = 5000;

/** The log's window: rows older than `hours` go (EVENT_LOG_HOURS); `now` is the writers' clock (tests move it). */
export interface EventLogSettings { hours: number; now: () => number }
/** Outside an app (the command line's writes) the window is still EVENT_LOG_HOURS. */
const DEFAULT_SETTINGS: EventLogSettings = { hours: eventLogHours(process.env.EVENT_LOG_HOURS), now: () => Date.now() };
const settingsOf = new WeakMap<Db, EventLogSettings>();
/** Sets the log's window (and clock) for the writes through `db`; the app does it from its configuration. */
export function configureEventLog(db: Db, settings: Partial<EventLogSettings>): void {
  settingsOf.set(db, { ...(settingsOf.get(db) ?? DEFAULT_SETTINGS), ...settings });
}
export const eventLogSettings = (db: Db): EventLogSettings => settingsOf.get(db) ?? DEFAULT_SETTINGS;

/** Records a change inside the transaction that makes it. */
export async function recordContentEvent(tx: Tx, db: Db, e: ContentEvent): Promise<void> {
  const kind = e.kind ?? 'content';
  if (kind === 'content' && !LOGGED.has(e.type)) return;
  const data = e.data ? JSON.stringify(e.data) : '';
  const settings = eventLogSettings(db);
  // Hand-written: it runs in every write transaction, where a model query's client time (about
  // 0.4 ms, against 0.06 ms for the statement) holds the write lock. Every caller has written
  // through Prisma in this transaction before, so it may go straight to the transaction's
  // connection (txStatements). `created` is bound as the model's default (now, to the millisecond) would be.
  const values = [e.action, e.type, e.id, e.status, e.previousStatus, e.authorId, e.parentId, new Date(settings.now()), kind, data];
  const columns = '"action", "type", "contentId", "status", "previousStatus", "authorId", "parentId", "created", "kind", "data"';
  const statements = txStatements(tx, db);
  let id: number;
  if (db.provider === 'postgres') {
    // One statement: the row, and the lock on its id that tells readers it is being written
    // (released at commit or rollback). Its notice, with the row's id, goes out once the
    // transaction has committed (Db.commitNotices); where no list is open (a transaction not begun
    // through the handle's $transaction), PostgreSQL sends it at commit from the same statement.
    const event = JSON.stringify({ ...e, kind });
    const notice = event.length > NOTIFY_MAX ? '' : event;
    const after = db.commitNotices?.() ?? null;
    const insert = `WITH e AS (INSERT INTO "ContentEvent" (${columns}) VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10) RETURNING "id") `
      + `SELECT e."id", pg_advisory_xact_lock_shared(${WRITING_LOCK}, e."id" / ${WRITING_BLOCK}) AS "held"`;
    const rows = after
      ? await statements.query<{ id: number | bigint }>(`${insert} FROM e`, ...values)
      : await statements.query<{ id: number | bigint }>(`${insert}, pg_notify($11, e."id"::text || ':' || $12::text) AS "sent" FROM e`, ...values, CONTENT_EVENTS_CHANNEL, notice);
    id = Number(rows[0].id);
    after?.push({ channel: CONTENT_EVENTS_CHANNEL, payload: `${id}:${notice}` });
  } else {
    const rows = await statements.query<{ id: number | bigint }>(
      `INSERT INTO "ContentEvent" (${columns}) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?) RETURNING "id"`, ...values,
    );
    id = Number(rows[0].id);
  }
  if (id % PRUNE_EVERY === 0) await pruneLog(statements, db.provider, id, settings);
}

/**
 * Deletes the rows older than the window, never one an active webhook has yet to fan out (after
 * its cursor). `created` has no index: the rows are in id order, and the first one inside the
 * window is found by walking the primary key up from the oldest, over the rows that go anyway
 * (and none below the webhooks' bound), so the cost follows what is deleted. A row written out
 * of time order (another machine's clock) only keeps the rows after it a little longer.
 */
async function pruneLog(statements: ReturnType<typeof txStatements>, provider: Db['provider'], id: number, settings: EventLogSettings): Promise<void> {
  const [held] = await statements.query<{ cursor: number | bigint | null }>('SELECT MIN("cursor") AS "cursor" FROM "Webhook" WHERE "active"');
  const bound = Math.min(id, held?.cursor == null ? id : Number(held.cursor));
  const cutoff = new Date(settings.now() - settings.hours * 3_600_000);
  const sql = `DELETE FROM "ContentEvent" WHERE "id" <= $1 AND "id" < COALESCE((SELECT "id" FROM "ContentEvent" WHERE "id" <= $1 AND "created" >= $2 ORDER BY "id" LIMIT 1), $1 + 1)`;
  if (provider === 'postgres') await statements.execute(sql, bound, cutoff);
  else await statements.execute(sql.replace(/\$\d/g, '?'), bound, bound, cutoff, bound);
}

type Row = Parameters<typeof eventOfRow>[0] & { created: Date };

/** An event read back from a row of the log. */
export function eventOfRow(r: { id: number; kind: string; action: string; type: string; contentId: number; status: string; previousStatus: string; authorId: number; parentId: number | null; data: string }): ContentEvent {
  return {
    kind: r.kind as EventKind, action: r.action as ContentAction, type: r.type, id: r.contentId, status: r.status, previousStatus: r.previousStatus,
    authorId: r.authorId, parentId: r.parentId, ...(r.data ? { data: JSON.parse(r.data) as Record<string, unknown> } : {}), logId: r.id,
  };
}

/**
 * Reads the log in id order from a cursor, never past an id that may still commit: every id at
 * or below `cursor` has been handed on or will never be in the log. On SQLite an id missing below
 * a committed one never commits (writers hold the write lock from their start, so ids are taken in
 * commit order). On PostgreSQL it may be a transaction still open: the reader stops before it
 * until the row appears, or the id is known rolled back (its writer's lock is free and the row
 * still absent, GAP_SETTLE_MS after it was first seen missing), or the row after it is older than
 * any transaction lives (GAP_GIVE_UP_MS).
 */
export class LogReader {
  /** Whether the last read stopped before an id still being written (read again soon). */
  blocked = false;
  private readonly missingSince = new Map<number, number>();
  constructor(private readonly db: Db, public cursor: number, private readonly now: () => number = Date.now) {}

  /**
   * The rows after the cursor (up to `upTo`) that follow it without an open gap; moves the cursor
   * past them. `via` reads the rows inside a caller's transaction (SQLite's one connection).
   */
  async next(upTo?: number, via: Pick<Tx, 'contentEvent'> = this.db.prisma): Promise<Row[]> {
    this.blocked = false;
    if (upTo !== undefined && this.cursor >= upTo) return [];
    const id = upTo === undefined ? { gt: this.cursor } : { gt: this.cursor, lte: upTo };
    const rows = await via.contentEvent.findMany({ where: { id }, orderBy: { id: 'asc' }, take: READ_BATCH }) as Row[];
    const out: Row[] = [];
    for (const r of rows) {
      if (r.id > this.cursor + 1 && !(await this.gone(this.cursor + 1, r.id - 1, r.created))) { this.blocked = true; return out; }
      out.push(r);
      this.cursor = r.id;
    }
    // Below a bound that has committed (the live stream's place): ids past the last row read are gaps too.
    if (rows.length < READ_BATCH && upTo !== undefined && this.cursor < upTo) {
      if (await this.gone(this.cursor + 1, upTo, null)) this.cursor = upTo; else this.blocked = true;
    }
    return out;
  }

  /** Whether no id from `from` to `to` will ever commit. `after` is when the row after them was written, if known. */
  private async gone(from: number, to: number, after: Date | null): Promise<boolean> {
    if (this.db.provider !== 'postgres') return true;
    const now = this.now();
    if (after && now - after.getTime() > GAP_GIVE_UP_MS) return true;
    const ids: number[] = [];
    for (let i = from; i <= to; i++) ids.push(i);
    let settled = true;
    for (const i of ids) {
      const since = this.missingSince.get(i);
      if (since === undefined) this.missingSince.set(i, now);
      if (since === undefined || now - since < GAP_SETTLE_MS) settled = false;
    }
    if (!settled) return false;
    // The locks first, then the rows (a statement of its own, with a later snapshot): when no
    // writer holds a block's lock, every writer of its ids had ended, so a committed row is seen
    // now. The exclusive try never waits (it only keeps a writer entering the block waiting for
    // the length of this statement).
    const blocks = [...new Set(ids.map((i) => Math.floor(i / WRITING_BLOCK)))];
    const writing = await this.db.prisma.$queryRawUnsafe<{ block: number }[]>(
      `SELECT b AS "block" FROM unnest($1::int[]) AS b WHERE NOT pg_try_advisory_xact_lock(${WRITING_LOCK}, b)`, blocks,
    );
    if (writing.length) return false;
    if (await this.db.prisma.contentEvent.count({ where: { id: { gte: from, lte: to } } })) return false; // committed meanwhile: read again
    for (const i of ids) this.missingSince.delete(i);
    return true;
  }
}

type Listener = (e: ContentEvent) => void;

interface Hub {
  listeners: Set<Listener>;
  /** The id the live stream has passed (every later event is emitted); null until it has started. */
  cursor(): number | null;
  /** Resolves with the id the live stream starts after, once it has started. */
  ready(): Promise<number>;
  start(): void;
  stop(): void;
}

/** A stream of events together with the log id a subscriber is known to have heard up to. */
export interface SubscribeOptions {
  /**
   * Resume after this log id (a client's Last-Event-ID): the logged events after it are heard
   * first, from the log, then the live ones, none twice and none missed. When the rows after it
   * have been pruned, the stream's first item is a `windowPassed` marker instead, then the live
   * events.
   */
  after?: number;
}

/** What a stream yields: an event, or (first, on a resume past the log's window) the marker. */
export type StreamItem = ContentEvent & { windowPassed?: { oldest: number } };

/**
 * The events of one app's database, among its services (src/services.ts): one hub per app, started
 * by its first subscriber and stopped when its last one leaves.
 */
export interface ContentEvents {
  /**
   * The changes from now on (or after `o.after`) that `accept` lets through, as an async iterator:
   * ends when the consumer returns (a subscriber leaves); the process stops watching when its
   * last one has left.
   */
  subscribe(accept?: (e: ContentEvent) => boolean, o?: SubscribeOptions): AsyncIterableIterator<StreamItem>;
}

/**
 * The events of `db`. `databaseUrl` is where it lives: PostgreSQL listens on a connection of its
 * own (null outside an app: a PostgreSQL site's subscribers then hear only what they resume, and it is logged).
 */
export function createContentEvents(db: Db, databaseUrl: string | null): ContentEvents {
  let hub: Hub | null = null;
  const hubOf = (): Hub => {
    if (hub) return hub;
    const listeners = new Set<Listener>();
    const emit = (e: ContentEvent) => { for (const l of listeners) l(e); };
    return (hub = db.provider === 'postgres' ? postgresHub(db, databaseUrl, listeners, emit) : sqliteHub(db, listeners, emit));
  };
  return { subscribe: (accept = () => true, o = {}) => subscribe(db, hubOf(), accept, o) };
}

/** A promise with its resolve, for a hub's start. */
function deferred<T>(): { promise: Promise<T>; resolve: (v: T) => void } {
  let resolve!: (v: T) => void;
  const promise = new Promise<T>((r) => { resolve = r; });
  return { promise, resolve };
}

/** The newest id of the log (0 when empty). */
const newestId = async (db: Db): Promise<number> => (await db.prisma.contentEvent.aggregate({ _max: { id: true } }))._max.id ?? 0;

function sqliteHub(db: Db, listeners: Set<Listener>, emit: Listener): Hub {
  let timer: NodeJS.Timeout | null = null;
  let reader: LogReader | null = null;
  let started = deferred<number>();
  let seenVersion = -1;
  let busy = false;
  const poll = async (r: LogReader) => {
    // Its app is gone without stopping it: nothing more to read.
    if (db.closed) { if (timer) clearInterval(timer); timer = null; reader = null; return; }
    const version = db.version();
    if (busy || version === seenVersion) return;
    busy = true;
    try {
      seenVersion = version;
      for (;;) {
        const rows = await r.next();
        if (reader !== r) return; // stopped meanwhile
        for (const row of rows) emit(eventOfRow(row));
        if (rows.length < READ_BATCH) break;
      }
    } catch (err) {
      seenVersion = -1; // try again on the next tick (from the same cursor: nothing is skipped)
      log.error({ err }, 'content events: polling failed');
    } finally { busy = false; }
  };
  return {
    listeners,
    cursor: () => reader?.cursor ?? null,
    ready: () => started.promise,
    start() {
      if (timer) return;
      // Events from now on: start after the newest row (read before the first subscriber hears anything).
      seenVersion = db.version();
      const mine = started;
      const first = newestId(db).then((max) => {
        if (mine !== started || !timer) return null;
        reader = new LogReader(db, max);
        mine.resolve(max);
        return reader;
      });
      first.catch((err) => log.error({ err }, 'content events: reading the log failed'));
      timer = setInterval(() => void first.then((r) => (r && r === reader ? poll(r) : undefined), () => undefined), POLL_MS);
      timer.unref();
    },
    stop() {
      if (timer) clearInterval(timer);
      timer = null;
      reader = null;
      started = deferred<number>();
    },
  };
}

// pg is loaded by the PostgreSQL hub only: a SQLite site never loads it.
const require = createRequire(import.meta.url);
const pgLib = (): typeof pg => require('pg') as typeof pg;

function postgresHub(db: Db, url: string | null, listeners: Set<Listener>, emit: Listener): Hub {
  let client: pg.Client | null = null;
  let reader: LogReader | null = null;
  let started = deferred<number>();
  let running = false;
  let again = false;
  let retry: NodeJS.Timeout | null = null;
  let sweep: NodeJS.Timeout | null = null;
  /** Hands on what the log has after the cursor, in id order, until it holds nothing more that may be handed on. */
  const pump = async (): Promise<void> => {
    const r = reader;
    if (!r) return;
    if (running) { again = true; return; }
    running = true;
    try {
      do {
        again = false;
        const rows = await r.next();
        if (reader !== r) return;
        for (const row of rows) emit(eventOfRow(row));
        if (rows.length === READ_BATCH) again = true;
      } while (again);
      if (r.blocked && !retry) retry = setTimeout(() => { retry = null; void pump(); }, GAP_RETRY_MS);
    } catch (err) {
      if (db.closed) return; // its app is gone without stopping it: nothing more to read
      log.error({ err }, 'content events: reading the log failed');
      if (!retry) retry = setTimeout(() => { retry = null; void pump(); }, 1000);
    } finally { running = false; }
    if (retry) retry.unref();
  };
  const connect = () => {
    const listening = (): void => {
      if (reader) { void pump(); return; } // made again: what was logged meanwhile is read from the log
      const mine = started;
      newestId(db).then((max) => {
        if (mine !== started || reader) return;
        reader = new LogReader(db, max);
        mine.resolve(max);
        void pump();
      }).catch((err) => { log.error({ err }, 'content events: reading the log failed'); client?.emit('error', err); });
    };
    if (!url) { log.error('content events: no database URL given'); listening(); return; }
    const c = new (pgLib().Client)({ connectionString: url });
    client = c;
    c.on('notification', (n) => {
      if (n.channel !== CONTENT_EVENTS_CHANNEL || !n.payload || !reader) return;
      // `<id>:<event>`, or `<id>:` for an event too long for a notice (read back from the log).
      const colon = n.payload.indexOf(':');
      const logId = Number(n.payload.slice(0, colon));
      const text = n.payload.slice(colon + 1);
      if (colon < 1 || !Number.isInteger(logId) || logId <= reader.cursor) return;
      // The next id, with nothing being read: handed on from the notice. Anything else: from the log, in order.
      if (logId === reader.cursor + 1 && text && !running) {
        let e: ContentEvent;
        try { e = { ...(JSON.parse(text) as ContentEvent), logId }; } catch { return; }
        reader.cursor = logId;
        emit(e);
        return;
      }
      void pump();
    });
    // A lost connection is made again while there are subscribers; the rows logged meanwhile are
    // read from the log after the cursor once it listens again.
    c.on('error', (err) => {
      if (client !== c) return;
      log.warn({ err }, 'content events: the listening connection was lost');
      client = null;
      c.end().catch(() => {});
      if (listeners.size) setTimeout(() => { if (!client && listeners.size && !db.closed) connect(); }, 1000).unref();
    });
    c.on('end', () => { if (client === c) c.emit('error', new Error('connection ended')); });
    c.connect().then(() => c.query(`LISTEN ${CONTENT_EVENTS_CHANNEL}`)).then(() => { if (client === c) listening(); }).catch((err) => c.emit('error', err));
  };
  const hub: Hub = {
    listeners,
    cursor: () => reader?.cursor ?? null,
    ready: () => started.promise,
    start() {
      if (client || reader) return;
      connect();
      sweep = setInterval(() => { if (db.closed) hub.stop(); else void pump(); }, SWEEP_MS);
      sweep.unref();
    },
    stop() {
      const c = client;
      client = null;
      reader = null;
      started = deferred<number>();
      if (retry) clearTimeout(retry);
      retry = null;
      if (sweep) clearInterval(sweep);
      sweep = null;
      c?.end().catch(() => {});
    },
  };
  return hub;
}

/** A subscriber on `hub` (ContentEvents.subscribe). */
function subscribe(db: Db, hub: Hub, accept: (e: ContentEvent) => boolean, o: SubscribeOptions): AsyncIterableIterator<StreamItem> {
  const queue: StreamItem[] = [];
  let waiting: { resolve: (r: IteratorResult<StreamItem>) => void; reject: (err: unknown) => void } | null = null;
  let done = false;
  let failure: unknown = null;
  /** While the log is replayed, the live events wait here. */
  let held: ContentEvent[] | null = o.after === undefined ? null : [];
  const deliver = (e: StreamItem) => {
    if (done) return;
    if (waiting) { const w = waiting; waiting = null; w.resolve({ value: e, done: false }); } else queue.push(e);
  };
  /** Woken when the subscriber has taken events from a long queue (the replay reads on). */
  let drained: (() => void) | null = null;
  const wake = () => { if (drained) { const d = drained; drained = null; d(); } };
  /** Live events at or below it were replayed (or came before the given id): not handed on again. */
  let floor = -1;
  const listener: Listener = (e) => {
    if (!accept(e)) return;
    if (held) held.push(e); else if ((e.logId ?? Number.MAX_SAFE_INTEGER) > floor) deliver(e);
  };
  // Where the live stream stands as this listener joins: every later event reaches it.
  const joinedAt = hub.cursor();
  hub.listeners.add(listener);
  if (hub.listeners.size === 1) hub.start();
  if (o.after !== undefined) {
    const after = o.after;
    void (async () => {
      const live = joinedAt ?? await hub.ready();
      floor = live;
      // Ahead of this process's live stream (it has not read the newest rows yet): its events up to
      // the given id were heard already. An id past the newest row is not this log's: nothing is dropped.
      if (after > live && after <= await newestId(db)) floor = after;
      if (after < live) {
        const oldest = (await db.prisma.contentEvent.aggregate({ _min: { id: true } }))._min.id;
        if (oldest !== null && oldest > after + 1) {
          // Rows after it have been pruned: say so (with the live stream's place as its id), then go live.
          deliver({ windowPassed: { oldest }, logId: live, kind: 'content', action: 'updated', type: '', id: 0, status: '', previousStatus: '', authorId: 0, parentId: null });
        } else {
          const reader = new LogReader(db, after);
          let idle = 0;
          while (!done && reader.cursor < live) {
            // A long backlog is read as the subscriber takes it, not all into memory at once.
            while (!done && queue.length >= READ_BATCH) await new Promise<void>((r) => { drained = r; });
            const rows = await reader.next(live);
            for (const r of rows) { const e = eventOfRow(r); if (accept(e)) deliver(e); }
            if (reader.blocked) await new Promise((r) => setTimeout(r, Math.min(GAP_RETRY_MS * ++idle, 2000)));
          }
        }
      }
      const late = held ?? [];
      held = null;
      for (const e of late) if ((e.logId ?? Number.MAX_SAFE_INTEGER) > floor) deliver(e);
    })().catch((err) => {
      log.error({ err }, 'content events: replaying the log failed');
      failure = err;
      if (waiting) { const w = waiting; waiting = null; w.reject(err); }
    });
  }
  const finish = (): IteratorResult<StreamItem> => {
    if (!done) {
      done = true;
      hub.listeners.delete(listener);
      if (!hub.listeners.size) hub.stop();
      queue.length = 0;
      wake();
      if (waiting) { const w = waiting; waiting = null; w.resolve({ value: undefined, done: true }); }
    }
    return { value: undefined, done: true };
  };
  return {
    next: () => {
      if (queue.length) { const value = queue.shift()!; if (queue.length < READ_BATCH / 2) wake(); return Promise.resolve({ value, done: false }); }
      if (failure) { const err = failure; finish(); return Promise.reject(err); }
      if (done) return Promise.resolve({ value: undefined, done: true });
      return new Promise((resolve, reject) => { waiting = { resolve, reject }; });
    },
    return: () => Promise.resolve(finish()),
    throw: (err) => { finish(); return Promise.reject(err); },
    [Symbol.asyncIterator]() { return this; },
  };
}
