// Changes as events: the transactional event log. A change is recorded inside the transaction that
// makes it, as a row of ContentEvent on both databases, so an event exists exactly when the change
// committed, whichever process or worker made it. Two readers hear it:
// - GraphQL's `contentChanged` subscription, live:
//   - SQLite: each process, while it has subscribers, watches the database's version (PRAGMA
//     data_version, the response cache's signal) and reads the rows after the last one it saw.
//     Writers take the write lock as they begin, so ids grow in commit order;
//   - PostgreSQL: the same statement that inserts the row sends pg_notify on CONTENT_EVENTS_CHANNEL
//     with the row's id and the event; PostgreSQL delivers it when the transaction commits (never
//     when it rolls back), in commit order, to every process listening. Each process listens on
//     its own connection while it has subscribers.
// - the webhooks (src/webhooks/): the log is their outbox; a dispatcher fans its rows out into
//   deliveries and moves each webhook's cursor past them.
// The log is pruned by writes (every PRUNE_EVERY-th event): the newest KEEP rows stay, and so does
// every row after the lowest cursor of an active webhook (what some webhook has not fanned out yet).
import { createRequire } from 'node:module';
import type pg from 'pg';
import type { Db, Tx } from '../db/client.js';
import { log } from '../log.js';
import { txStatements } from '../db/sql.js';
import { CONTENT_TYPES } from '../resources/content-types.js';

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
/**
 * Rows kept in the log besides those a webhook still needs; older ones are pruned by writes
 * (every PRUNE_EVERY-th event). A webhook's cursor holds back the pruning only while it is active.
 */
export const EVENT_LOG_KEEP = 1000;
const PRUNE_EVERY = 100;
/** NOTIFY payloads are limited to 8000 bytes: a longer event is sent as its id, and read back. */
const NOTIFY_MAX = 7000;
/** SQLite: how often a process with subscribers checks the database's version. */
const POLL_MS = Number(process.env.CONTENT_EVENTS_POLL_MS ?? 200);

/** Records a change inside the transaction that makes it. */
export async function recordContentEvent(tx: Tx, db: Db, e: ContentEvent): Promise<void> {
  const kind = e.kind ?? 'content';
  if (kind === 'content' && !LOGGED.has(e.type)) return;
  const data = e.data ? JSON.stringify(e.data) : '';
  // Hand-written: it runs in every write transaction, where a model query's client time (about
  // 0.4 ms, against 0.06 ms for the statement) holds the write lock. Every caller has written
  // through Prisma in this transaction before, so it may go straight to the transaction's
  // connection (txStatements). `created` is bound as the model's default (now, to the millisecond) would be.
  const values = [e.action, e.type, e.id, e.status, e.previousStatus, e.authorId, e.parentId, new Date(), kind, data];
  const columns = '"action", "type", "contentId", "status", "previousStatus", "authorId", "parentId", "created", "kind", "data"';
  const statements = txStatements(tx, db);
  let id: number;
  if (db.provider === 'postgres') {
    // One statement: the row, and its notice (sent by PostgreSQL at commit) with the row's id.
    const event = JSON.stringify({ ...e, kind });
    const notice = event.length > NOTIFY_MAX ? '' : event;
    const rows = await statements.query<{ id: number | bigint }>(
      `WITH e AS (INSERT INTO "ContentEvent" (${columns}) VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10) RETURNING "id") `
      + `SELECT e."id", pg_notify($11, e."id"::text || ':' || $12::text) FROM e`,
      ...values, CONTENT_EVENTS_CHANNEL, notice,
    );
    id = Number(rows[0].id);
  } else {
    const rows = await statements.query<{ id: number | bigint }>(
      `INSERT INTO "ContentEvent" (${columns}) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?) RETURNING "id"`, ...values,
    );
    id = Number(rows[0].id);
  }
  if (id % PRUNE_EVERY === 0) {
    // Never past what an active webhook has yet to fan out (its cursor).
    const p = db.provider === 'postgres' ? ['$1', '$2'] : ['?', '?'];
    await statements.execute(
      `DELETE FROM "ContentEvent" WHERE "id" <= ${p[0]} AND "id" <= COALESCE((SELECT MIN("cursor") FROM "Webhook" WHERE "active"), ${p[1]})`,
      id - EVENT_LOG_KEEP, id - EVENT_LOG_KEEP,
    );
  }
}

/** An event read back from a row of the log. */
export function eventOfRow(r: { id: number; kind: string; action: string; type: string; contentId: number; status: string; previousStatus: string; authorId: number; parentId: number | null; data: string }): ContentEvent {
  return {
    kind: r.kind as EventKind, action: r.action as ContentAction, type: r.type, id: r.contentId, status: r.status, previousStatus: r.previousStatus,
    authorId: r.authorId, parentId: r.parentId, ...(r.data ? { data: JSON.parse(r.data) as Record<string, unknown> } : {}), logId: r.id,
  };
}

type Listener = (e: ContentEvent) => void;

interface Hub {
  listeners: Set<Listener>;
  start(): void;
  stop(): void;
}

/**
 * The events of one app's database, among its services (src/services.ts): one hub per app, started
 * by its first subscriber and stopped when its last one leaves.
 */
export interface ContentEvents {
  /**
   * The changes from now on that `accept` lets through, as an async iterator: ends when the
   * consumer returns (a subscriber leaves); the process stops watching when its last one has left.
   */
  subscribe(accept?: (e: ContentEvent) => boolean): AsyncIterableIterator<ContentEvent>;
}

/**
 * The events of `db`. `databaseUrl` is where it lives: PostgreSQL listens on a connection of its
 * own (null outside an app: a PostgreSQL site's subscribers then hear nothing, and it is logged).
 */
export function createContentEvents(db: Db, databaseUrl: string | null): ContentEvents {
  let hub: Hub | null = null;
  const hubOf = (): Hub => {
    if (hub) return hub;
    const listeners = new Set<Listener>();
    const emit = (e: ContentEvent) => { for (const l of listeners) l(e); };
    return (hub = db.provider === 'postgres' ? postgresHub(db, databaseUrl, listeners, emit) : sqliteHub(db, listeners, emit));
  };
  return { subscribe: (accept = () => true) => subscribe(hubOf(), accept) };
}

function sqliteHub(db: Db, listeners: Set<Listener>, emit: Listener): Hub {
  let timer: NodeJS.Timeout | null = null;
  let last = 0;
  let seenVersion = -1;
  let busy = false;
  const poll = async () => {
    const version = db.version();
    if (busy || version === seenVersion) return;
    busy = true;
    try {
      seenVersion = version;
      const rows = await db.prisma.contentEvent.findMany({ where: { id: { gt: last } }, orderBy: { id: 'asc' } });
      for (const r of rows) {
        last = r.id;
        emit(eventOfRow(r));
      }
    } catch (err) {
      seenVersion = -1; // try again on the next tick
      log.error({ err }, 'content events: polling failed');
    } finally { busy = false; }
  };
  return {
    listeners,
    start() {
      if (timer) return;
      // Events from now on: start after the newest row (read before the first subscriber returns).
      seenVersion = db.version();
      const first = db.prisma.contentEvent.aggregate({ _max: { id: true } }).then((r) => { last = Math.max(last, r._max.id ?? 0); });
      timer = setInterval(() => void first.then(poll), POLL_MS);
      timer.unref();
    },
    stop() { if (timer) clearInterval(timer); timer = null; },
  };
}

// pg is loaded by the PostgreSQL hub only: a SQLite site never loads it.
const require = createRequire(import.meta.url);
const pgLib = (): typeof pg => require('pg') as typeof pg;

function postgresHub(db: Db, url: string | null, listeners: Set<Listener>, emit: Listener): Hub {
  let client: pg.Client | null = null;
  const connect = () => {
    if (!url) { log.error('content events: no database URL given'); return; }
    const c = new (pgLib().Client)({ connectionString: url });
    client = c;
    c.on('notification', (n) => {
      if (n.channel !== CONTENT_EVENTS_CHANNEL || !n.payload) return;
      // `<id>:<event>`, or `<id>:` for an event too long for a notice (read back from the log).
      const colon = n.payload.indexOf(':');
      const logId = Number(n.payload.slice(0, colon));
      const text = n.payload.slice(colon + 1);
      if (colon < 1 || !Number.isInteger(logId)) return;
      if (text) {
        try { emit({ ...(JSON.parse(text) as ContentEvent), logId }); } catch { /* not ours */ }
        return;
      }
      db.prisma.contentEvent.findUnique({ where: { id: logId } })
        .then((r) => { if (r) emit(eventOfRow(r)); })
        .catch((err) => log.error({ err }, 'content events: reading a long event failed'));
    });
    // A lost connection is made again while there are subscribers (events in between are lost).
    c.on('error', () => { if (client === c) { client = null; c.end().catch(() => {}); if (listeners.size) setTimeout(connect, 1000).unref(); } });
    c.connect().then(() => c.query(`LISTEN ${CONTENT_EVENTS_CHANNEL}`)).catch((err) => c.emit('error', err));
  };
  return {
    listeners,
    start() { if (!client) connect(); },
    stop() { const c = client; client = null; c?.end().catch(() => {}); },
  };
}

/** A subscriber on `hub` (ContentEvents.subscribe). */
function subscribe(hub: Hub, accept: (e: ContentEvent) => boolean): AsyncIterableIterator<ContentEvent> {
  const queue: ContentEvent[] = [];
  let waiting: ((r: IteratorResult<ContentEvent>) => void) | null = null;
  let done = false;
  const listener: Listener = (e) => {
    if (!accept(e)) return;
    if (waiting) { const w = waiting; waiting = null; w({ value: e, done: false }); } else queue.push(e);
  };
  hub.listeners.add(listener);
  if (hub.listeners.size === 1) hub.start();
  const finish = (): IteratorResult<ContentEvent> => {
    if (!done) {
      done = true;
      hub.listeners.delete(listener);
      if (!hub.listeners.size) hub.stop();
      queue.length = 0;
      if (waiting) { const w = waiting; waiting = null; w({ value: undefined, done: true }); }
    }
    return { value: undefined, done: true };
  };
  return {
    next: () => {
      if (queue.length) return Promise.resolve({ value: queue.shift()!, done: false });
      if (done) return Promise.resolve({ value: undefined, done: true });
      return new Promise((resolve) => { waiting = resolve; });
    },
    return: () => Promise.resolve(finish()),
    throw: (err) => { finish(); return Promise.reject(err); },
    [Symbol.asyncIterator]() { return this; },
  };
}
