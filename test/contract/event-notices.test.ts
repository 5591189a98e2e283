// PostgreSQL: the event log's notices (src/content/events.ts) leave after their transaction has
// committed, from the writing process's notice connection (Db.commitNotices), not from inside the
// transaction: one that rolls back sends none, nor does a batch step rolled back to its savepoint,
// and what a committed batch kept arrives in id order, every event once.
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestSite, provider, type TestSite } from '../helpers/app.js';
import { CONTENT_EVENTS_CHANNEL, recordContentEvent, type ContentEvent } from '../../src/content/events.js';
import { runUnitOfWork } from '../../src/content/unit-of-work.js';
import type { Db } from '../../src/db/client.js';

let site: TestSite;
let listener: pg.Client;
const heard: { id: number; event: ContentEvent | null }[] = [];

beforeAll(async () => {
  if (provider !== 'postgres') return;
  site = await createTestSite();
  listener = new pg.Client({ connectionString: site.app.config.databaseUrl });
  await listener.connect();
  listener.on('notification', (n) => {
    if (n.channel !== CONTENT_EVENTS_CHANNEL || !n.payload) return;
    const colon = n.payload.indexOf(':');
    const text = n.payload.slice(colon + 1);
    heard.push({ id: Number(n.payload.slice(0, colon)), event: text ? JSON.parse(text) as ContentEvent : null });
    const w = wake;
    wake = null;
    w?.();
  });
  await listener.query(`LISTEN ${CONTENT_EVENTS_CHANNEL}`);
});
afterAll(async () => { await listener?.end(); await site?.close(); });

const event = (id: number, action: ContentEvent['action'] = 'updated'): ContentEvent => ({ action, type: 'post', id, status: 'publish', previousStatus: 'publish', authorId: 1, parentId: null });

/** Resolves the wait for the next notice (heardUpTo). */
let wake: (() => void) | null = null;
/** Waits until the notice of the log row `id` (the writer's last) has arrived: those sent before it were sent before it. */
async function heardUpTo(id: number): Promise<number[]> {
  while (!heard.some((h) => h.id === id)) await new Promise<void>((resolve) => { wake = resolve; });
  return heard.map((h) => h.id);
}
/** A batch step that records a create of `contentId` in its own transaction (joining the batch's), then succeeds or fails. */
const step = (contentId: number, ok: boolean) => async (d: Db) => {
  await d.prisma.$transaction(async (tx) => {
    await tx.option.findFirst();
    await recordContentEvent(tx, d, event(contentId, 'created'));
  });
  return { value: contentId, ok };
};
const newest = async (db: Db) => (await db.prisma.contentEvent.aggregate({ _max: { id: true } }))._max.id ?? 0;

describe.runIf(provider === 'postgres')('event notices (PostgreSQL)', () => {
  it('go out once the transaction commits, with the row id and the event; none for a rollback', async () => {
    const db = site.db;
    heard.length = 0;
    const start = await newest(db);
    await db.prisma.$transaction(async (tx) => {
      await tx.option.findFirst();
      await recordContentEvent(tx, db, event(9001));
      throw new Error('rolled back on purpose');
    }).catch((err: Error) => { if (err.message !== 'rolled back on purpose') throw err; });
    await db.prisma.$transaction(async (tx) => {
      await tx.option.findFirst();
      await recordContentEvent(tx, db, event(9002));
    });
    const committed = await newest(db);
    expect(await heardUpTo(committed)).toEqual([committed]);
    expect(committed).toBeGreaterThan(start + 1); // the rolled-back row took an id of its own
    expect(heard[0].event).toMatchObject({ kind: 'content', action: 'updated', type: 'post', id: 9002 });
    // The committed row is in the log under the id its notice names.
    expect((await db.prisma.contentEvent.findUniqueOrThrow({ where: { id: committed } })).contentId).toBe(9002);
  });

  it('of a batch step rolled back to its savepoint are dropped; the kept ones arrive in id order', async () => {
    const db = site.db;
    heard.length = 0;
    const { rolledBack } = await runUnitOfWork(db, [step(9101, true), step(9102, false), step(9103, true)], false);
    expect(rolledBack).toBe(false);
    const rows = await db.prisma.contentEvent.findMany({ where: { contentId: { in: [9101, 9102, 9103] } }, orderBy: { id: 'asc' } });
    expect(rows.map((r) => r.contentId)).toEqual([9101, 9103]);
    expect(await heardUpTo(rows[1].id)).toEqual(rows.map((r) => r.id));
    expect(heard.map((h) => h.event?.id)).toEqual([9101, 9103]);
  });

  it('of an atomic batch that failed are not sent at all', async () => {
    const db = site.db;
    heard.length = 0;
    expect((await runUnitOfWork(db, [step(9201, true), step(9202, false)], true)).rolledBack).toBe(true);
    await db.prisma.$transaction(async (tx) => { await tx.option.findFirst(); await recordContentEvent(tx, db, event(9203)); });
    const last = await newest(db);
    expect(await heardUpTo(last)).toEqual([last]);
    expect(heard[0].event?.id).toBe(9203);
  });
});
