// The webhooks' dispatcher: turns the event log (src/content/events.ts, written in each change's
// own transaction: the outbox) into deliveries, and sends them. One per app (gateway/app.ts); any
// number of them over one database (workers, instances) deliver each event once:
//
// - fan-out: for each active webhook, the log rows after its cursor become WebhookDelivery rows
//   (one per webhook and event: the pair is unique, and rows already there are skipped), and the
//   cursor moves past them, in one transaction. A fan-out cut short (a crash) leaves both as they
//   were; one repeated inserts nothing twice. On PostgreSQL the webhook's row is locked for it
//   (FOR UPDATE SKIP LOCKED: another instance busy with it is left to it). PostgreSQL hands out ids
//   before commit, so a row may appear after higher ones: the cursor stops below a missing id for
//   as long as the log's reader (LogReader, src/content/events.ts) says it may still commit (its
//   writer's transaction is open), and passes it once it is known rolled back. The rows after it
//   are fanned out meanwhile: each dispatcher remembers how far past the cursor it has read, so a
//   gap holds back nothing behind it, and a row that commits into the gap later is fanned out when
//   the cursor reaches it.
// - sending: a due pending delivery is claimed with a conditional UPDATE (only if no other
//   worker's claim is running: `lockedUntil` unset or past), sent, and its outcome written. A
//   worker that dies after claiming leaves the claim to expire (`leaseMs`), and the delivery is
//   sent again, with the same webhook-id: receivers drop what they have already seen.
// - retries: a 2xx answer is delivered; anything else (another status, a refused address, a
//   timeout) is tried again after `retryDelays[n]`, and marked failed once they are used up.
//
// It wakes when the database's version moves (any process's write: db.version()), when a retry
// falls due, and every few seconds anyway; its statements run `inBackground` (not counted as a
// request's). The clock (`clock.now`) is replaceable: tests move it forward instead of waiting.
import { randomBytes } from 'node:crypto';
import { inBackground, type Db, type Tx } from '../db/client.js';
import { eventOfRow, LogReader, type ContentEvent } from '../content/events.js';
import { sendSigned } from './send.js';
import { contentTypeOf, permalink, taxonomyRef } from '../resources/content-types.js';
import { siteSettings } from '../site/options.js';
import { log } from '../log.js';
import { deliveredAs } from './names.js';
import { eventsOf, type WebhookDeliveryRow, type WebhookRow } from './service.js';

export interface DispatcherOptions {
  /** Hosts a webhook URL may name even when they resolve to private addresses (WEBHOOK_ALLOW_HOSTS). */
  allowHosts?: string[];
  /** Waits before each retry, in ms (default 10 s, 1 min, 5 min, 30 min, 2 h): one first try, then one per entry. */
  retryDelays?: number[];
  /** How long a claim keeps other workers off a delivery being sent (default 60 s). */
  leaseMs?: number;
  /** One send, connection and answer (default 10 s). */
  timeoutMs?: number;
  /** How often it looks for work when nothing woke it (default 250 ms for the version, 5 s anyway). */
  pollMs?: number;
  /** Delivered and failed deliveries older than this are removed (default 30 days). */
  keepDeliveriesMs?: number;
  /** The REST root with a trailing slash, for the `rest_url` of payloads. */
  restRoot?: string;
  /** Sends at once (default 8). */
  concurrency?: number;
}

export const DEFAULT_RETRY_DELAYS = [10_000, 60_000, 300_000, 1_800_000, 7_200_000];
/** Log rows read per webhook per pass. */
const FAN_OUT_BATCH = 500;
/** Deliveries claimed per round. */
const SEND_BATCH = 50;
/** How often the delivery log is pruned. */
const PRUNE_EVERY_MS = 3_600_000;

export interface WebhookDispatcher {
  /** The clock every decision reads (ms since the epoch); tests replace `now`. */
  clock: { now: () => number };
  start(): void;
  /** Stops waking up and waits for the pass under way. */
  stop(): Promise<void>;
  /** Runs passes until nothing is left to do now: every due delivery sent (or rescheduled). */
  drain(): Promise<void>;
}

export function createWebhookDispatcher(db: Db, o: DispatcherOptions = {}): WebhookDispatcher {
  const retryDelays = o.retryDelays ?? DEFAULT_RETRY_DELAYS;
  const leaseMs = o.leaseMs ?? 60_000;
  const pollMs = o.pollMs ?? 250;
  const keepMs = o.keepDeliveriesMs ?? 30 * 86_400_000;
  const concurrency = o.concurrency ?? 8;
  const clock = { now: () => Date.now() };
  let timer: NodeJS.Timeout | null = null;
  let stopped = false;
  let running: Promise<void> | null = null;
  let seenVersion = -1;
  /** When the next retry or expired claim falls due (ms); Infinity: nothing waits. */
  let nextDue = 0;
  let lastLook = 0;
  let lastPrune = 0;
  /** Per webhook: its log reader (which settles the cursor over gaps) and the last id fanned out past the cursor. */
  const readers = new Map<number, { reader: LogReader; ahead: number }>();
  /** Set by a fan-out that left work for the next pass (a full batch, or an id still being written). */
  let again = false;

  /** One pass: fan out, send what is due, note when the next thing falls due. Returns whether it did anything. */
  async function pass(): Promise<boolean> {
    const version = db.version();
    lastLook = clock.now();
    again = false;
    const hooks = await db.prisma.webhook.findMany({ where: { active: true } });
    if (!hooks.length) { seenVersion = version; nextDue = Infinity; return false; }
    for (const id of readers.keys()) if (!hooks.some((h) => h.id === id)) readers.delete(id);
    let worked = false;
    // A fan-out is a write transaction (on SQLite it takes the write lock): only for webhooks behind the log.
    const newest = (await db.prisma.contentEvent.aggregate({ _max: { id: true } }))._max.id ?? 0;
    for (const hook of hooks) if (hook.cursor < newest && await fanOut(hook)) worked = true;
    for (;;) {
      const sent = await sendDue(hooks);
      if (sent) worked = true;
      if (sent < SEND_BATCH) break;
    }
    seenVersion = version;
    const now = clock.now();
    const due = await db.prisma.webhookDelivery.aggregate({
      where: { status: 'pending', webhookId: { in: hooks.map((h) => h.id) } },
      _min: { nextAttempt: true, lockedUntil: true },
    });
    nextDue = Math.min(due._min.nextAttempt?.getTime() ?? Infinity, due._min.lockedUntil && due._min.lockedUntil.getTime() > now ? due._min.lockedUntil.getTime() : Infinity);
    if (again) nextDue = Math.min(nextDue, now + pollMs);
    if (now - lastPrune >= PRUNE_EVERY_MS) {
      lastPrune = now;
      await db.prisma.webhookDelivery.deleteMany({ where: { status: { in: ['delivered', 'failed'] }, created: { lt: new Date(now - keepMs) } } });
    }
    return worked;
  }

  /** The log rows after the webhook's cursor as deliveries, and its cursor moved; whether it did either. */
  async function fanOut(hook: WebhookRow): Promise<boolean> {
    // Where this process has read up to, kept only once the fan-out's transaction has committed
    // (rolled back, its rows are read again).
    let readUpTo: number | null = null;
    const worked = await db.prisma.$transaction(async (tx) => {
      let cursor = hook.cursor;
      if (db.provider === 'postgres') {
        const locked = await tx.$queryRawUnsafe<{ cursor: number }[]>('SELECT "cursor" FROM "Webhook" WHERE "id" = $1 AND "active" FOR UPDATE SKIP LOCKED', hook.id);
        if (!locked.length) return false;
        cursor = Number(locked[0].cursor);
      } else {
        const fresh = await tx.webhook.findUnique({ where: { id: hook.id }, select: { cursor: true, active: true } });
        if (!fresh?.active) return false;
        cursor = fresh.cursor;
      }
      let state = readers.get(hook.id);
      if (!state) readers.set(hook.id, state = { reader: new LogReader(db, cursor, () => clock.now()), ahead: cursor });
      const { reader } = state;
      reader.cursor = cursor;
      // New rows: after the last one read (this process, or the cursor if another moved it further).
      const from = Math.max(cursor, state.ahead);
      const newer = await tx.contentEvent.findMany({ where: { id: { gt: from } }, orderBy: { id: 'asc' }, take: FAN_OUT_BATCH });
      const top = newer.at(-1)?.id ?? from;
      // The cursor moves over the rows up to `top` with no open gap below them; those that filled a gap are new too.
      const settled = top > cursor ? await reader.next(top, tx) : [];
      if (newer.length === FAN_OUT_BATCH || reader.cursor < top) again = true;
      const rows = [...new Map([...settled, ...newer].map((r) => [r.id, r])).values()];
      readUpTo = top;
      if (!rows.length) return false;
      const patterns = eventsOf(hook);
      const now = clock.now();
      const wanted: { event: ContentEvent; name: string; created: Date }[] = [];
      for (const r of rows) {
        const event = eventOfRow(r);
        const name = deliveredAs(patterns, event);
        if (name) wanted.push({ event, name, created: r.created });
      }
      let made = 0;
      if (wanted.length) {
        const have = new Set((await tx.webhookDelivery.findMany({
          where: { webhookId: hook.id, eventId: { in: wanted.map((w) => w.event.logId!) } }, select: { eventId: true },
        })).map((d) => d.eventId));
        const fresh = wanted.filter((w) => !have.has(w.event.logId!));
        if (fresh.length) {
          const links = await linksOf(tx, db, fresh.map((w) => w.event));
          await tx.webhookDelivery.createMany({
            data: fresh.map((w) => ({
              webhookId: hook.id, eventId: w.event.logId!, messageId: `msg_${randomBytes(12).toString('base64url')}`, event: w.name,
              payload: JSON.stringify(payloadOf(w.name, w.event, w.created, o.restRoot, links.get(w.event.id))), status: 'pending', attempts: 0, nextAttempt: new Date(now),
            })),
          });
          made = fresh.length;
        }
      }
      const moved = reader.cursor;
      if (moved > cursor) await tx.webhook.updateMany({ where: { id: hook.id, cursor: { lt: moved } }, data: { cursor: moved } });
      // Work done: deliveries made, or the cursor or the read position moved (a full batch may have more after it).
      return made > 0 || moved > cursor || newer.length > 0;
    });
    const state = readers.get(hook.id);
    if (state && readUpTo !== null) state.ahead = readUpTo;
    return worked;
  }

  /** Claims and sends up to SEND_BATCH due deliveries; answers how many it claimed. */
  async function sendDue(hooks: WebhookRow[]): Promise<number> {
    const now = new Date(clock.now());
    const byId = new Map(hooks.map((h) => [h.id, h]));
    const due = await db.prisma.webhookDelivery.findMany({
      where: { status: 'pending', webhookId: { in: [...byId.keys()] }, nextAttempt: { lte: now }, OR: [{ lockedUntil: null }, { lockedUntil: { lt: now } }] },
      orderBy: { id: 'asc' }, take: SEND_BATCH,
    });
    const claimed: WebhookDeliveryRow[] = [];
    for (const d of due) {
      // Ours only if no other worker's claim is running: the condition is checked by the UPDATE itself.
      const { count } = await db.prisma.webhookDelivery.updateMany({
        where: { id: d.id, status: 'pending', OR: [{ lockedUntil: null }, { lockedUntil: { lt: now } }] },
        data: { lockedUntil: new Date(now.getTime() + leaseMs) },
      });
      if (count === 1) claimed.push(d);
    }
    const queue = [...claimed];
    const workers = Array.from({ length: Math.min(concurrency, queue.length) }, async () => {
      for (let d = queue.shift(); d; d = queue.shift()) await deliver(d, byId.get(d.webhookId)!);
    });
    await Promise.all(workers);
    return claimed.length;
  }

  /** Sends one claimed delivery and writes down how it went. */
  async function deliver(d: WebhookDeliveryRow, hook: WebhookRow): Promise<void> {
    const { status, ok, error } = await sendSigned(hook.url, hook.secret, d.messageId, d.payload, { allowHosts: o.allowHosts, timeoutMs: o.timeoutMs });
    const now = clock.now();
    const attempts = d.attempts + 1;
    const failed = !ok && attempts > retryDelays.length;
    await db.prisma.webhookDelivery.update({
      where: { id: d.id },
      data: {
        attempts, lastStatus: status, lastError: error, lockedUntil: null,
        status: ok ? 'delivered' : failed ? 'failed' : 'pending',
        ...(ok ? { delivered: new Date(now) } : failed ? {} : { nextAttempt: new Date(now + retryDelays[attempts - 1]) }),
      },
    }).catch((err) => log.error({ err, delivery: d.id }, 'webhooks: recording a delivery failed'));
  }

  /** One pass at a time; what asks meanwhile waits for it and runs the next. */
  function run(): Promise<void> {
    const go = async () => {
      if (running) await running.catch(() => undefined);
      if (stopped) return;
      const p = inBackground(async () => { await pass(); }).catch((err) => {
        nextDue = 0; // look again soon
        log.error({ err }, 'webhooks: a dispatch pass failed');
      });
      running = p;
      try { await p; } finally { if (running === p) running = null; }
    };
    return go();
  }

  function tick(): void {
    if (running || stopped) return;
    const now = clock.now();
    let version: number;
    // A handle closed under a dispatcher nobody stopped (code that made an app and closed its
    // database) throws here: this dispatcher is done.
    try { version = db.version(); } catch { stopped = true; if (timer) clearInterval(timer); timer = null; return; }
    if (version !== seenVersion || now >= nextDue || now - lastLook >= 20 * pollMs) void run();
  }

  return {
    clock,
    start() {
      if (timer || stopped) return;
      timer = setInterval(tick, pollMs);
      timer.unref();
    },
    async stop() {
      stopped = true;
      if (timer) clearInterval(timer);
      timer = null;
      await running?.catch(() => undefined);
    },
    async drain() {
      // Until a pass finds nothing to do: fanning out may make deliveries due at once.
      for (let i = 0; i < 20; i++) {
        if (running) await running.catch(() => undefined);
        let worked = false;
        const p = inBackground(async () => { worked = await pass(); });
        running = p;
        try { await p; } finally { if (running === p) running = null; }
        if (!worked) return;
      }
    },
  };
}

/**
 * The links of the content items of `events` that still exist, as they are when fanned out (the
 * plain `?p=` link until an item is public). Read through the transaction (SQLite has one
 * connection for it), the site's settings past it (`Db.read`).
 */
async function linksOf(tx: Tx, db: Db, events: ContentEvent[]): Promise<Map<number, string>> {
  const ids = [...new Set(events.filter((e) => (e.kind ?? 'content') === 'content' && e.action !== 'deleted').map((e) => e.id))];
  const out = new Map<number, string>();
  if (!ids.length) return out;
  const select = { id: true, type: true, status: true, slug: true, parentId: true } as const;
  const rows = await tx.content.findMany({ where: { id: { in: ids } }, select });
  if (!rows.length) return out;
  const site = await siteSettings(db);
  for (const row of rows) {
    const ancestors: string[] = [];
    if (contentTypeOf(row.type).hierarchical) {
      // Parents' slugs, nearest last (a few levels at most; a loop in the data stops at ten).
      for (let parent = row.parentId, n = 0; parent && n < 10; n++) {
        const up = await tx.content.findUnique({ where: { id: parent }, select: { slug: true, parentId: true } });
        if (!up) break;
        ancestors.unshift(up.slug);
        parent = up.parentId;
      }
    }
    out.set(row.id, permalink(site, row, ancestors));
  }
  return out;
}

/** The JSON body of a delivery (docs/webhooks.md): `{type, timestamp, data}`. */
export function payloadOf(name: string, e: ContentEvent, created: Date, restRoot?: string, link?: string): { type: string; timestamp: string; data: Record<string, unknown> } {
  const kind = e.kind ?? 'content';
  const data: Record<string, unknown> = { id: e.id, object: kind, type: e.type, action: e.action, event_id: e.logId };
  if (kind === 'content') {
    Object.assign(data, { status: e.status, previous_status: e.previousStatus, author: e.authorId, parent: e.parentId ?? 0 });
    if (link) data.link = link;
    const base = restBaseOf('content', e.type);
    if (restRoot && base && e.action !== 'deleted') data.rest_url = `${restRoot}core/v2/${base}/${e.id}`;
  } else if (kind === 'term') {
    const base = restBaseOf('term', e.type);
    if (restRoot && base && e.action !== 'deleted') data.rest_url = `${restRoot}core/v2/${base}/${e.id}`;
  }
  if (e.data) for (const [k, v] of Object.entries(e.data)) if (!(k in data)) data[k] = v;
  return { type: name, timestamp: created.toISOString(), data };
}

function restBaseOf(kind: 'content' | 'term', type: string): string | null {
  try {
    return kind === 'content' ? contentTypeOf(type).restBase : taxonomyRef(type)?.restBase ?? null;
  } catch { return null; }
}

