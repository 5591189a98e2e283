// Totals that take long to count (src/db/version-cache.ts `slowMs`): after a write the first
// reader gets the total from before it while it is counted again, and the response cache does not
// keep that answer. The totals' clock stands still here, so every count takes no time by it and
// only the threshold decides: 0 makes every count slow, the default none. A recount "still running"
// is one the test holds (holdCounts), never one that merely has not finished yet.
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { bundleLane, createTestSite, type TestSite } from '../helpers/app.js';
import { slowCounts } from '../../src/db/version-cache.js';

let site: TestSite;
const { ms: threshold, now: clock } = slowCounts;
beforeAll(async () => { site = await createTestSite(); });
afterAll(async () => { await site?.close(); });
beforeEach(() => { slowCounts.now = () => 0; });
afterEach(() => { slowCounts.ms = threshold; slowCounts.now = clock; });

const total = (res: { headers: Headers }) => Number(res.headers.get('x-wp-total'));

type Counter = { count(args: object): Promise<number> };

/**
 * Holds the counts `picks` chooses, until release(): COUNT(*) statements and sums of the tallies
 * sent straight to the driver (told by their text and values) and Prisma counts of content (by
 * their arguments).
 */
function holdCounts(picks: (text: string) => boolean) {
  const db = site.db;
  const read = db.read;
  const content = db.prisma.content as unknown as Counter;
  const ownCount = Object.hasOwn(content, 'count');
  const count = content.count;
  let open!: () => void;
  const gate = new Promise<void>((resolve) => { open = resolve; });
  const held: Promise<unknown>[] = [];
  const hold = <T>(run: () => Promise<T>): Promise<T> => {
    const later = gate.then(run);
    held.push(later);
    return later;
  };
  db.read = (sql, args) => (/COUNT\(\*\)|"ContentTally"/.test(sql) && picks(`${sql} ${JSON.stringify(args)}`)
    ? hold(() => read.call(db, sql, args))
    : read.call(db, sql, args));
  content.count = (args) => (picks(JSON.stringify(args)) ? hold(() => count.call(content, args)) : count.call(content, args));
  return {
    /** The counts held so far. */
    held,
    /** Lets them run, and waits until they and what the totals' cache does with them have settled. */
    async release() {
      open();
      await Promise.all(held);
      // The cache notes a count as settled in continuations of it: all run before the next turn.
      await new Promise((resolve) => setImmediate(resolve));
    },
    restore() {
      db.read = read;
      if (ownCount) content.count = count;
      else delete (content as Partial<Counter>).count;
    },
  };
}

// Not in the bundle lane: it stops the clock of the sources' totals cache (slowCounts), and the
// bundle has its own copy of that module.
describe.skipIf(bundleLane)('slow totals', () => {
  it.each([
    ['a search', '/core/v2/posts?search=quokka', () => (text: string) => text.includes('quokka')],
    // One category's total: a sum of the tallies both databases keep (src/db/content-read.ts
    // tallyCount).
    ['a list', '/core/v2/posts?categories=CAT', (cat: number) => (text: string) => text.includes(`"termId":{"in":[${cat}]}`) || (text.includes('"ContentTally"') && text.endsWith(`,${cat}]`))],
  ])('%s: the total from before a write while it is counted again, never kept by the response cache', async (_name, pathTemplate, picker) => {
    const cat = await site.createTerm('categories', { name: `Slow ${Math.random()}` });
    const path = pathTemplate.replace('CAT', String(cat.id));
    for (let i = 0; i < 3; i++) await site.createPost({ title: `Quokka ${i} ${cat.id}`, status: 'publish', categories: [cat.id] });
    slowCounts.ms = 0;
    const first = await site.req('GET', path);
    expect(first.status).toBe(200);
    const before = total(first);
    expect(before).toBeGreaterThanOrEqual(3);
    const created = await site.createPost({ title: `Quokka new ${cat.id}`, status: 'publish', categories: [cat.id] });

    const recount = holdCounts(picker(cat.id));
    try {
      // The page is read anew (the new post is on it); its total is the one from before the write,
      // given while the one recount is held.
      const stale = await site.req('GET', path);
      expect(stale.status).toBe(200);
      expect(stale.body.map((p: { id: number }) => p.id)).toContain(created.id);
      expect(total(stale)).toBe(before);
      expect(stale.headers.get('x-wp-totalpages')).toBe(String(Math.ceil(before / 10)));
      expect(recount.held).toHaveLength(1);

      // Once the recount has settled, the next answers carry it, and the stale one was not cached.
      await recount.release();
      for (let i = 0; i < 3; i++) {
        const res = await site.req('GET', path);
        expect(total(res)).toBe(before + 1);
      }
    } finally {
      recount.restore();
    }
  });

  it('an answer given with an old total is not cached, even when asked for twice during the recount', async () => {
    const path = '/core/v2/posts?search=bilby';
    await site.createPost({ title: 'Bilby one', status: 'publish' });
    slowCounts.ms = 0;
    expect(total(await site.req('GET', path))).toBe(1);
    await site.createPost({ title: 'Bilby two', status: 'publish' });
    // Both reads below come while the recount is held (the cache would keep the second ask of a
    // version's answer), and they share that one recount.
    const recount = holdCounts((text) => text.includes('bilby'));
    try {
      expect(total(await site.req('GET', path))).toBe(1);
      const second = await site.req('GET', path);
      expect(total(second)).toBe(1);
      expect(recount.held).toHaveLength(1);
      await recount.release();
      const settled = await site.req('GET', path);
      expect(settled.headers.get('x-cache')).toBe('MISS');
      expect(total(settled)).toBe(2);
    } finally {
      recount.restore();
    }
  });

  it('a count that is fast is waited for after a write, as before', async () => {
    const path = '/core/v2/posts?search=wombat';
    await site.createPost({ title: 'Wombat one', status: 'publish' });
    expect(total(await site.req('GET', path))).toBe(1);
    await site.createPost({ title: 'Wombat two', status: 'publish' });
    expect(total(await site.req('GET', path))).toBe(2);
  });
});
