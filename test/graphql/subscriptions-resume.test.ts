// contentChanged resumed by Last-Event-ID: every SSE event carries its log id; a subscriber that
// comes back, to another app over the same database (as another process or instance), first hears
// exactly what it missed, in log order, then the live events, none twice. A resume past the log's
// window says so; a malformed id is refused. On PostgreSQL: the listening connection, killed,
// is made again and what was logged meanwhile is heard; and a log id that commits after a larger
// one is heard before it, live and on a resume.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SITE, createTestSite, provider, service, type TestSite } from '../helpers/app.js';
import { recordContentEvent } from '../../src/content/events.js';
import { eventLogHours, loadConfig } from '../../src/config.js';
import type { App } from '../../gateway/app.js';
import type { Db } from '../../src/db/client.js';

let site: TestSite;
/** A second app over the same database. */
let other: App;
let otherDb: Db;

beforeAll(async () => {
  site = await createTestSite({ cacheEntries: 0 });
  otherDb = await service.openDb(site.app.config.databaseUrl);
  other = service.createApp(site.app.config, otherDb);
});
afterAll(async () => {
  await other?.close();
  await otherDb?.close();
  await site?.close();
});

interface Heard { id: string | null; data: any }

const QUERY = 'subscription { contentChanged { action type databaseId node { ... on Post { status } } } }';

/**
 * A contentChanged subscription over SSE, to app A over its socket (`via` 'a') or to the second
 * app in process ('b'). `heard` fills as events arrive, with each event's SSE id.
 */
function subscribe(via: 'a' | 'b', headers: Record<string, string> = {}, method: 'GET' | 'POST' = 'POST') {
  const heard: Heard[] = [];
  const failures: unknown[] = [];
  const controller = new AbortController();
  let status = 0;
  /** Cancels the body: the way out of an in-process answer, which the request's signal does not end. */
  let stop = () => {};
  // GET is what a browser's EventSource sends (and, reconnecting, with Last-Event-ID).
  const init = method === 'GET'
    ? { method, signal: controller.signal, headers: { accept: 'text/event-stream', ...headers } }
    : { method, signal: controller.signal, headers: { 'content-type': 'application/json', accept: 'text/event-stream', ...headers }, body: JSON.stringify({ query: QUERY }) };
  const path = method === 'GET' ? `/graphql?query=${encodeURIComponent(QUERY)}` : '/graphql';
  const opened = via === 'a' ? fetch(`${site.origin}${path}`, init) : other.fetch(new Request(`${SITE}${path}`, init));
  const done = (async () => {
    const res = await opened;
    status = res.status;
    const reader = res.body!.pipeThrough(new TextDecoderStream()).getReader();
    stop = () => void reader.cancel().catch(() => undefined);
    if (controller.signal.aborted) stop();
    let buffer = '';
    for (;;) {
      const { value, done: end } = await reader.read();
      if (end) return;
      buffer += value;
      let cut: number;
      while ((cut = buffer.indexOf('\n\n')) >= 0) {
        const lines = buffer.slice(0, cut).split('\n');
        buffer = buffer.slice(cut + 2);
        if (!lines.includes('event: next')) continue;
        const field = (name: string) => lines.filter((l) => l.startsWith(`${name}:`)).map((l) => l.slice(name.length + 1).trim());
        heard.push({ id: field('id')[0] ?? null, data: JSON.parse(field('data').join('\n')) });
      }
    }
  })().catch((err) => { if (!controller.signal.aborted) failures.push(err); });
  return {
    heard, failures,
    status: () => status,
    /** The events heard (without errors), as `<action> <databaseId>`. */
    changes: () => heard.filter((h) => h.data.data?.contentChanged).map((h) => `${h.data.data.contentChanged.action} ${h.data.data.contentChanged.databaseId}`),
    close: () => { controller.abort(); stop(); return done; },
    done,
  };
}
type Sub = ReturnType<typeof subscribe>;

/** Polls `check` (every 25 ms, a bounded number of times) until it is true. */
async function until(check: () => boolean | Promise<boolean>, what: string, sub?: Sub, attempts = 2400): Promise<void> {
  for (let i = 0; i < attempts; i++) {
    if (await check()) return;
    if (sub?.failures.length) throw new Error(`subscription failed: ${String(sub.failures[0])}`);
    await new Promise((r) => setTimeout(r, 25));
  }
  throw new Error(`never: ${what}; heard ${JSON.stringify(sub?.heard ?? [])}`);
}

const post = async (title: string, status = 'publish'): Promise<number> => (await site.createPost({ title, status })).id;

/**
 * Makes `sub` listen for certain: writes public posts until one is heard (the first may commit
 * before the stream has its place in the log), then one more, heard in turn. Returns that last
 * event's SSE id: every event before it has been heard.
 */
async function live(sub: Sub): Promise<number> {
  const written: number[] = [];
  const heardOne = () => sub.changes().some((c) => written.some((id) => c === `CREATED ${id}`));
  for (let n = 0; !heardOne(); n++) {
    if (sub.failures.length) throw new Error(`subscription failed: ${String(sub.failures[0])}`);
    if (n >= 2400) throw new Error(`no probe heard; heard ${JSON.stringify(sub.heard)}`);
    if (n % 40 === 0) written.push(await post(`Probe ${written.length}`));
    await new Promise((r) => setTimeout(r, 25));
  }
  const last = await post('Listening');
  await until(() => sub.changes().includes(`CREATED ${last}`), 'the probe', sub);
  return Number(sub.heard.at(-1)!.id);
}

/** Whether `check` stays false over `attempts` polls 25 ms apart (what must not happen, given a fair chance to). */
async function staysFalse(check: () => boolean, attempts = 40): Promise<boolean> {
  for (let i = 0; i < attempts; i++) {
    if (check()) return false;
    await new Promise((r) => setTimeout(r, 25));
  }
  return !check();
}

/** The log id of an item's event. */
const logIdOf = async (contentId: number, action = 'created') =>
  (await site.db.prisma.contentEvent.findFirstOrThrow({ where: { kind: 'content', contentId, action }, orderBy: { id: 'desc' } })).id;

describe('contentChanged resumed by Last-Event-ID', () => {
  it('gives every event its log id; a subscriber back on another app hears what it missed, in order, then live events, none twice', async () => {
    const first = subscribe('a');
    const lastSeen = await live(first);
    // Each event's SSE id is its log row's id.
    const probe = first.heard.at(-1)!;
    expect(Number(probe.id)).toBe(await logIdOf(probe.data.data.contentChanged.databaseId));
    await first.close();

    // Gone: three public posts and a draft the anonymous subscriber may not hear.
    const p1 = await post('Missed one');
    const draft = await post('Missed draft', 'draft');
    const p2 = await post('Missed two');
    await site.req('POST', `/core/v2/posts/${p1}`, { as: 'administrator', json: { title: 'Missed one, edited' } });

    // Back, to the other app, with the last id heard.
    const back = subscribe('b', { 'last-event-id': String(lastSeen) });
    const backEditor = subscribe('b', { 'last-event-id': String(lastSeen), authorization: site.users.editor.auth });
    try {
      await until(() => back.changes().length >= 3, 'the missed events', back);
      expect(back.status()).toBe(200);
      expect(back.changes()).toEqual([`CREATED ${p1}`, `CREATED ${p2}`, `UPDATED ${p1}`]);
      // The ids follow the log: increasing, after the one given, the same rows.
      const ids = back.heard.map((h) => Number(h.id));
      expect(ids[0]).toBeGreaterThan(lastSeen);
      expect(ids).toEqual([...ids].sort((x, y) => x - y));
      expect(ids.slice(0, 2)).toEqual([await logIdOf(p1), await logIdOf(p2)]);
      // An editor resuming from the same id hears the draft too, in its place.
      await until(() => backEditor.changes().length >= 4, 'the editor\'s missed events', backEditor);
      expect(backEditor.changes()).toEqual([`CREATED ${p1}`, `CREATED ${draft}`, `CREATED ${p2}`, `UPDATED ${p1}`]);

      // Then live, through either app.
      const p3 = await post('Live again');
      await until(() => back.changes().includes(`CREATED ${p3}`), 'the live event', back);
      expect(back.changes()).toEqual([`CREATED ${p1}`, `CREATED ${p2}`, `UPDATED ${p1}`, `CREATED ${p3}`]);
      expect(Number(back.heard.at(-1)!.id)).toBe(await logIdOf(p3));
      expect(back.failures).toEqual([]);
    } finally { await back.close(); await backEditor.close(); }
  }, 120_000);

  it('resumes a GET request as an EventSource sends it', async () => {
    const before = (await site.db.prisma.contentEvent.aggregate({ _max: { id: true } }))._max.id ?? 0;
    const missed = await post('Missed by the browser');
    const sub = subscribe('a', { 'last-event-id': String(before) }, 'GET');
    try {
      await until(() => sub.changes().length >= 1, 'the missed event', sub);
      expect(sub.status()).toBe(200);
      expect(sub.changes()[0]).toBe(`CREATED ${missed}`);
      expect(Number(sub.heard[0].id)).toBe(await logIdOf(missed));
    } finally { await sub.close(); }
  }, 120_000);

  it('replays a backlog longer than one read, all of it, in order', async () => {
    const target = await post('Often updated');
    const before = await logIdOf(target);
    const n = 1234;
    await site.db.prisma.$transaction(async (tx) => {
      await tx.content.update({ where: { id: target }, data: { title: 'Often updated, done' } });
      for (let i = 0; i < n; i++) await recordContentEvent(tx, site.db, { action: 'updated', type: 'post', id: target, status: 'publish', previousStatus: 'publish', authorId: site.users.administrator.id, parentId: null });
    }, { timeout: 60_000 });
    const sub = subscribe('b', { 'last-event-id': String(before) });
    try {
      await until(() => sub.heard.length >= n, 'the whole backlog', sub);
      const ids = sub.heard.map((h) => Number(h.id));
      expect(ids.slice(0, n)).toEqual(Array.from({ length: n }, (_, i) => before + 1 + i));
      expect(new Set(sub.changes().slice(0, n))).toEqual(new Set([`UPDATED ${target}`]));
    } finally { await sub.close(); }
  }, 120_000);

  it('a Last-Event-ID at the newest event replays nothing and goes on live', async () => {
    const newest = (await site.db.prisma.contentEvent.aggregate({ _max: { id: true } }))._max.id!;
    const sub = subscribe('b', { 'last-event-id': String(newest) });
    try {
      const after = await live(sub);
      expect(after).toBeGreaterThan(newest);
      expect(sub.heard.filter((h) => !(Number(h.id) > newest) || h.data.errors), `after ${newest}`).toEqual([]);
    } finally { await sub.close(); }
  }, 120_000);

  it('says when the rows after a Last-Event-ID have been pruned, then goes on live', async () => {
    // A first event, then rows that went (as the window's pruning takes the oldest).
    const gone = await post('Soon pruned');
    const goneId = await logIdOf(gone);
    await post('Also pruned');
    await post('Kept');
    await site.db.prisma.contentEvent.deleteMany({ where: { id: { lte: goneId + 1 } } });
    const oldest = (await site.db.prisma.contentEvent.aggregate({ _min: { id: true } }))._min.id!;
    const newest = (await site.db.prisma.contentEvent.aggregate({ _max: { id: true } }))._max.id!;
    const sub = subscribe('a', { 'last-event-id': String(goneId - 1) });
    try {
      await until(() => sub.heard.length >= 1, 'the notice', sub);
      expect(sub.status()).toBe(200);
      const [notice] = sub.heard;
      expect(notice.data.errors).toHaveLength(1);
      expect(notice.data.errors[0].extensions).toMatchObject({ code: 'event_log_window_passed', status: 410, data: { oldest } });
      // Its id is where the live stream stands: coming back with it resumes from there.
      expect(Number(notice.id)).toBeGreaterThanOrEqual(newest);
      const p = await post('After the notice');
      await until(() => sub.changes().includes(`CREATED ${p}`), 'the live event', sub);
      expect(sub.heard.filter((h) => h.data.errors)).toHaveLength(1);
    } finally { await sub.close(); }
  }, 120_000);

  it('refuses a Last-Event-ID that is not an event id: 400 rest_invalid_param', async () => {
    for (const bad of ['abc', '-1', '1.5', '12a', '99999999999999999999']) {
      for (const via of ['a', 'b'] as const) {
        const sub = subscribe(via, { 'last-event-id': bad });
        await sub.done;
        expect(sub.status(), `${bad} via ${via}`).toBe(400);
        expect(sub.heard).toHaveLength(1);
        expect(sub.heard[0].data.errors[0].extensions, bad).toMatchObject({ code: 'rest_invalid_param', status: 400, data: { params: { 'Last-Event-ID': expect.any(String) } } });
        expect(sub.heard[0].data.data ?? null).toBeNull();
      }
    }
  });

  it('takes an empty Last-Event-ID for none: a fresh subscription', async () => {
    const sub = subscribe('a', { 'last-event-id': '' });
    try {
      await live(sub);
      expect(sub.status()).toBe(200);
      expect(sub.heard.filter((h) => h.data.errors)).toEqual([]);
    } finally { await sub.close(); }
  }, 120_000);

  it('a query keeps its bytes: no id, whatever the headers', async () => {
    const res = await fetch(`${site.origin}/graphql`, {
      method: 'POST', headers: { 'content-type': 'application/json', accept: 'text/event-stream', 'last-event-id': '3' },
      body: JSON.stringify({ query: '{ __typename }' }),
    });
    const text = await res.text();
    expect(res.status).toBe(200);
    expect(text).toContain('data: {"data":{"__typename":"Query"}}');
    expect(text).not.toMatch(/^id:/m);
  });
});

describe.skipIf(provider !== 'postgres')('contentChanged on PostgreSQL', () => {
  /** The backends listening for content events (each app's listening connection). */
  const listeners = async (): Promise<number[]> =>
    (await site.db.prisma.$queryRawUnsafe<{ pid: number }[]>(
      `SELECT pid FROM pg_stat_activity WHERE datname = current_database() AND query = 'LISTEN content_events' AND pid <> pg_backend_pid()`,
    )).map((r) => Number(r.pid));

  it('makes its lost listening connection again and hears what was logged meanwhile', async () => {
    const sub = subscribe('a');
    try {
      await live(sub);
      // Only app A's hub listens (app B's subscribers have left, its connection closes as the last one goes): kill A's.
      await until(async () => (await listeners()).length === 1, 'one listening connection');
      const before = await listeners();
      await site.db.prisma.$queryRawUnsafe(`SELECT pg_terminate_backend(${before[0]})`);
      await until(async () => (await listeners()).length === 0, 'the connection gone');
      // Written while nobody listens (the connection is made again a second later).
      const during = await post('While disconnected');
      await until(() => sub.changes().includes(`CREATED ${during}`), 'the event logged while disconnected', sub);
      const again = await listeners();
      expect(again).toHaveLength(1);
      expect(again[0]).not.toBe(before[0]);
      const after = await post('After reconnecting');
      await until(() => sub.changes().includes(`CREATED ${after}`), 'a live event', sub);
      const ids = sub.heard.map((h) => Number(h.id));
      expect(new Set(ids).size).toBe(ids.length);
      expect(ids).toEqual([...ids].sort((x, y) => x - y));
    } finally { await sub.close(); }
  }, 120_000);

  it('hears a log id that commits after a larger one before it, live and on a resume', async () => {
    const sub = subscribe('a');
    try {
      const lastSeen = await live(sub);
      const target = await post('Updated slowly');
      await until(() => sub.changes().includes(`CREATED ${target}`), 'the target', sub);
      const beforeGap = Number(sub.heard.at(-1)!.id);
      let release!: () => void;
      const gate = new Promise<void>((r) => { release = r; });
      let entered!: () => void;
      const inside = new Promise<void>((r) => { entered = r; });
      // A write that has taken its log id and not committed yet.
      const slow = site.db.prisma.$transaction(async (tx) => {
        await tx.content.update({ where: { id: target }, data: { title: 'Updated slowly, done' } });
        await recordContentEvent(tx, site.db, { action: 'updated', type: 'post', id: target, status: 'publish', previousStatus: 'publish', authorId: site.users.administrator.id, parentId: null });
        entered();
        await gate;
      }, { timeout: 60_000 });
      await inside;
      const quick = await post('Committed first');
      // Resuming meanwhile, on the other app, from before the open id.
      const resumed = subscribe('b', { 'last-event-id': String(beforeGap) });
      // The committed event waits behind the open id: polled a bounded number of times, it does not come.
      expect(await staysFalse(() => sub.changes().includes(`CREATED ${quick}`) || resumed.heard.length > 0)).toBe(true);
      release();
      await slow;
      await until(() => sub.changes().includes(`CREATED ${quick}`), 'the held event', sub);
      await until(() => resumed.changes().includes(`CREATED ${quick}`), 'the resumed events', resumed);
      const slowId = await logIdOf(target, 'updated');
      expect(slowId).toBeLessThan(await logIdOf(quick));
      for (const s of [sub, resumed]) {
        const tail = s.heard.filter((h) => Number(h.id) > beforeGap);
        expect(tail.map((h) => `${h.data.data.contentChanged.action} ${h.data.data.contentChanged.databaseId}`)).toEqual([`UPDATED ${target}`, `CREATED ${quick}`]);
        expect(tail.map((h) => Number(h.id))).toEqual([slowId, await logIdOf(quick)]);
      }
      expect(lastSeen).toBeLessThan(beforeGap);
    } finally { await sub.close(); }
  }, 120_000);

  it('a transaction may record many thousands of events (the writers\' locks are per block of ids, not per id)', async () => {
    const before = (await site.db.prisma.contentEvent.aggregate({ _max: { id: true } }))._max.id ?? 0;
    // One lock per id would pass the server's lock table (max_locks_per_transaction 64 x max_connections): out of shared memory.
    const n = 25_000;
    await site.db.prisma.$transaction(async (tx) => {
      const t = await tx.term.create({ data: { taxonomy: 'post_tag', name: 'Bulk', slug: `bulk-${Date.now()}` } });
      for (let i = 0; i < n; i++) await recordContentEvent(tx, site.db, { kind: 'term', action: 'updated', type: 'post_tag', id: t.id, status: '', previousStatus: '', authorId: 0, parentId: null });
    }, { timeout: 120_000 });
    expect(await site.db.prisma.contentEvent.count({ where: { id: { gt: before } } })).toBe(n);
  }, 180_000);

  it('goes past an id whose transaction rolled back', async () => {
    const sub = subscribe('a');
    try {
      await live(sub);
      await site.db.prisma.$transaction(async (tx) => {
        const t = await tx.term.create({ data: { taxonomy: 'post_tag', name: 'Rolled back', slug: `rolled-back-${Date.now()}` } });
        await recordContentEvent(tx, site.db, { action: 'updated', type: 'post', id: t.id, status: 'publish', previousStatus: 'publish', authorId: 1, parentId: null });
        throw new Error('rolled back on purpose');
      }).catch((err: Error) => { if (err.message !== 'rolled back on purpose') throw err; });
      const p = await post('After a rollback');
      await until(() => sub.changes().includes(`CREATED ${p}`), 'the event after the rolled-back id', sub);
    } finally { await sub.close(); }
  }, 120_000);
});

describe('EVENT_LOG_HOURS', () => {
  it('is a positive number of hours, 24 by default or when it is not one', () => {
    expect(loadConfig({}).eventLogHours).toBe(24);
    expect(loadConfig({ EVENT_LOG_HOURS: '72' }).eventLogHours).toBe(72);
    expect(['0.5', '168'].map(eventLogHours)).toEqual([0.5, 168]);
    expect([undefined, '', ' ', 'a day', '0', '-3', 'Infinity'].map(eventLogHours)).toEqual([24, 24, 24, 24, 24, 24, 24]);
  });
});
