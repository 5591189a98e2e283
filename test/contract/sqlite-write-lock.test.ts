// SQLite has one writer at a time. A transaction that finds another connection (another worker
// process) holding the write lock waits for it without stopping its own process: the event loop
// keeps running, and it begins as soon as the lock is free. Two handles on one file stand for
// two processes here. SQLite only (PostgreSQL has row locks and a pool).
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { createTestSite, provider, type TestSite } from '../helpers/app.js';
import { openDb, SQLITE_LOOK_MS, type Db } from '../../src/db/client.js';
import { sqlitePath } from '../../src/db/migrate.js';

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

  // The version looks at other processes' commits at most once per SQLITE_LOOK_MS; every write
  // waits that long after its commit before its caller hears of it. So an acknowledged write of
  // one process is seen by the very next look of any other, however recently that one looked.
  describe('other processes\' writes, seen on the next look', () => {
    it('a committed transaction, a write outside one, and an option write (the options version too)', async () => {
      const post = await other.prisma.content.create({ data: { type: 'post', status: 'publish', authorId: 1, title: 'look', date: new Date(), dateGmt: new Date(), modified: new Date(), modifiedGmt: new Date() } });
      for (let i = 0; i < 20; i++) {
        // Looked just now: without the writer's wait the next look would fall in the same window.
        let seen = site.db.version();
        await other.prisma.$transaction(async (tx) => { await tx.content.update({ where: { id: post.id }, data: { title: `look ${i}` } }); });
        expect(site.db.version()).not.toBe(seen);
        seen = site.db.version();
        await other.prisma.content.update({ where: { id: post.id }, data: { title: `look ${i}b` } });
        expect(site.db.version()).not.toBe(seen);
        const options = site.db.optionsVersion();
        await other.prisma.option.upsert({ where: { name: 'look_test' }, create: { name: 'look_test', value: String(i) }, update: { value: String(i) } });
        expect(site.db.optionsVersion()).not.toBe(options);
      }
    });

    it('looks no more than once per window: a commit nobody waited out shows from the next window on', async () => {
      // A write straight through the driver, which does not wait after its commit.
      const raw = new (await import('better-sqlite3')).default(sqlitePath(site.app.config.databaseUrl));
      const write = raw.prepare('UPDATE "Option" SET "value" = ? WHERE "name" = ?');
      // The window is measured on performance.now: the clock stands still while the test looks and
      // moves only when the test moves it, so "within one window" holds however busy the machine is.
      let now = performance.now();
      const clock = vi.spyOn(performance, 'now').mockImplementation(() => now);
      try {
        for (let i = 0; i < 5; i++) {
          now += SQLITE_LOOK_MS + 1;
          const before = site.db.version(); // a new window: this one looks
          write.run(`"raw ${i}"`, 'look_test');
          expect(site.db.version()).toBe(before); // the same window: not looked again
          now += SQLITE_LOOK_MS + 1;
          expect(site.db.version()).not.toBe(before);
        }
      } finally {
        clock.mockRestore();
        raw.close();
      }
    });
  });
});
