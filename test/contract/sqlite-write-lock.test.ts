// SQLite has one writer at a time. A transaction that finds another connection (another worker
// process) holding the write lock waits for it without stopping its own process: the event loop
// keeps running, and it begins as soon as the lock is free. Two handles on one file stand for
// two processes here. SQLite only (PostgreSQL has row locks and a pool).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestSite, provider, type TestSite } from '../helpers/app.js';
import { openDb, type Db } from '../../src/db/client.js';

let site: TestSite;
let other: Db;

describe.skipIf(provider !== 'sqlite')('SQLite write lock between processes', () => {
  beforeAll(async () => {
    site = await createTestSite();
    other = await openDb(site.app.config.databaseUrl);
  });
  afterAll(async () => {
    await other?.close();
    await site?.close();
  });

  it('a transaction waiting for the lock lets the event loop run, then commits after the holder', async () => {
    const order: string[] = [];
    let releaseHolder!: () => void;
    const held = new Promise<void>((resolve) => { releaseHolder = resolve; });
    let holderIn!: () => void;
    const holderStarted = new Promise<void>((resolve) => { holderIn = resolve; });
    // The other "process" takes the write lock and keeps it until told.
    const holder = other.prisma.$transaction(async (tx) => {
      await tx.option.upsert({ where: { name: 'lock_test_a' }, create: { name: 'lock_test_a', value: '"a"' }, update: { value: '"a"' } });
      holderIn();
      await held;
      order.push('holder commits');
    }, { maxWait: 10_000, timeout: 10_000 });
    await holderStarted;

    const waiter = site.db.prisma.$transaction(async (tx) => {
      order.push('waiter begins');
      await tx.option.upsert({ where: { name: 'lock_test_b' }, create: { name: 'lock_test_b', value: '"b"' }, update: { value: '"b"' } });
    }, { maxWait: 10_000, timeout: 10_000 });

    // While the waiter waits, timers still fire in this process; the holder then commits.
    await new Promise((resolve) => setTimeout(resolve, 30));
    order.push('timer fired');
    releaseHolder();
    await holder;
    await waiter;
    expect(order).toEqual(['timer fired', 'holder commits', 'waiter begins']);
    const rows = await site.db.prisma.option.findMany({ where: { name: { in: ['lock_test_a', 'lock_test_b'] } }, orderBy: { name: 'asc' } });
    expect(rows.map((r) => r.value)).toEqual(['"a"', '"b"']);
  });

  it('the waiting transaction still rolls back on its own failure and leaves nothing behind', async () => {
    await expect(site.db.prisma.$transaction(async (tx) => {
      await tx.option.create({ data: { name: 'lock_test_c', value: '"c"' } });
      throw new Error('undo');
    })).rejects.toThrow('undo');
    expect(await site.db.prisma.option.count({ where: { name: 'lock_test_c' } })).toBe(0);
    // The process's next transaction is not stuck behind the failed one.
    await site.db.prisma.$transaction(async (tx) => { await tx.option.create({ data: { name: 'lock_test_c', value: '"c"' } }); });
    expect(await site.db.prisma.option.count({ where: { name: 'lock_test_c' } })).toBe(1);
  });

  it('runs in WAL mode with synchronous=NORMAL', async () => {
    const journal = await site.db.prisma.$queryRawUnsafe<{ journal_mode: string }[]>('PRAGMA journal_mode');
    expect(journal[0].journal_mode.toLowerCase()).toBe('wal');
    const sync = await site.db.prisma.$queryRawUnsafe<{ synchronous: number | bigint }[]>('PRAGMA synchronous');
    expect(Number(sync[0].synchronous)).toBe(1);
  });

  it("keeps SQLite's own 2 MB page cache on the adapter's connection and on the reads' one, not the driver's 16 MB", async () => {
    const adapter = await site.db.prisma.$queryRawUnsafe<{ cache_size: number | bigint }[]>('PRAGMA cache_size');
    expect(Number(adapter[0].cache_size)).toBe(-2048);
    const reads = await site.db.read('PRAGMA cache_size', []);
    expect(Number(reads[0].cache_size)).toBe(-2048);
  });
});
