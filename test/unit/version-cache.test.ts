// versionCache: values per database version, and with `slowMs` a slow value given from before a
// write (to a caller that accepts it) while it is loaded again. Loads here are promises the test
// settles, timed by a clock the test moves: how long a load takes, and whether it is still
// running, never depend on how busy the machine is.
import { afterEach, describe, expect, it, vi } from 'vitest';
import { versionCache } from '../../src/db/version-cache.js';
import type { Db } from '../../src/db/client.js';

function fakeDb() {
  let v = 0;
  const db = { version: () => v } as unknown as Db;
  return { db, write: () => void v++ };
}

/** A clock the test moves by hand. */
function manualClock() {
  let t = 1000;
  return { now: () => t, advance: (ms: number) => void (t += ms) };
}

/** A load the test finishes: `load` starts it (counted in `started`), `finish` resolves it after `ms` on the clock. */
function pendingLoad<T>(clock: ReturnType<typeof manualClock>) {
  let resolve!: (value: T) => void;
  const promise = new Promise<T>((r) => { resolve = r; });
  const self = {
    started: 0,
    load: () => { self.started++; return promise; },
    finish(ms: number, value: T) { clock.advance(ms); resolve(value); },
  };
  return self;
}

/** A load that has taken `ms` by the clock when it resolves, with no waiting. */
const took = <T>(clock: ReturnType<typeof manualClock>, ms: number, value: T) => () => { clock.advance(ms); return Promise.resolve(value); };

/** A cache whose loads of 20 ms or more are slow by its clock, and a `stale` callback that counts its calls. */
function slowCache() {
  const clock = manualClock();
  const told = { n: 0 };
  return { cache: versionCache<number>(100, { slowMs: () => 20, now: clock.now }), clock, told, stale: () => void told.n++ };
}

/**
 * What a promise has come to by the next turn of the event loop: its value, or 'pending'. Nothing
 * here waits on anything but the test's own promises, so a value given at once is there by then.
 */
const byNextTurn = <T>(p: Promise<T>) => Promise.race([p, new Promise<'pending'>((resolve) => setImmediate(() => resolve('pending')))]);

const unused = () => Promise.reject(new Error('a load was started where the one in flight should have been used'));

afterEach(() => { vi.restoreAllMocks(); });

describe('versionCache', () => {
  it('loads once per version, shared while in flight', async () => {
    const { db, write } = fakeDb();
    const cache = versionCache<number>();
    let loads = 0;
    const load = () => { loads++; return Promise.resolve(loads); };
    expect(await Promise.all([cache(db, 'k', load), cache(db, 'k', load)])).toEqual([1, 1]);
    write();
    expect(await cache(db, 'k', load)).toBe(2);
    expect(loads).toBe(2);
  });

  it('gives a slow value from before a write while it is loaded again, and says so', async () => {
    const { db, write } = fakeDb();
    const { cache, clock, told, stale } = slowCache();
    // Nothing remembered yet: the first load is waited for.
    expect(await cache(db, 'k', took(clock, 40, 10), stale)).toBe(10);
    expect(told.n).toBe(0);
    write();
    // After the write: the remembered 10 while 11 is loaded (the load has not finished).
    const again = pendingLoad<number>(clock);
    expect(await byNextTurn(cache(db, 'k', again.load, stale))).toBe(10);
    expect(again.started).toBe(1);
    expect(told.n).toBe(1);
    // A caller that does not accept it waits for the load (the same one, in flight).
    const waiting = cache(db, 'k', unused);
    expect(await byNextTurn(waiting)).toBe('pending');
    again.finish(40, 11);
    expect(await waiting).toBe(11);
    // Once the load has settled, everyone gets it.
    expect(await cache(db, 'k', unused, stale)).toBe(11);
    expect(told.n).toBe(1);
    expect(again.started).toBe(1);
  });

  it('forgets a value once it loads fast again, and never remembers fast ones', async () => {
    const { db, write } = fakeDb();
    const { cache, clock, told, stale } = slowCache();
    await cache(db, 'fast', took(clock, 19, 1), stale);
    write();
    expect(await cache(db, 'fast', took(clock, 0, 2), stale)).toBe(2);
    expect(told.n).toBe(0);

    await cache(db, 'k', took(clock, 20, 1), stale);
    write();
    const fast = pendingLoad<number>(clock);
    expect(await byNextTurn(cache(db, 'k', fast.load, stale))).toBe(1); // remembered while the (now fast) load runs
    fast.finish(5, 2);
    expect(await cache(db, 'k', unused)).toBe(2); // the load in flight, settled
    write();
    expect(await cache(db, 'k', took(clock, 40, 3), stale)).toBe(3); // forgotten: waited for
    expect(told.n).toBe(1);
  });

  it('keeps nothing past its version without slowMs', async () => {
    const { db, write } = fakeDb();
    const clock = manualClock();
    const cache = versionCache<number>(100, { now: clock.now });
    const told = { n: 0 };
    await cache(db, 'k', took(clock, 40, 1), () => void told.n++);
    write();
    expect(await cache(db, 'k', took(clock, 40, 2), () => void told.n++)).toBe(2);
    expect(told.n).toBe(0);
  });

  it('times loads by performance.now unless given a clock', async () => {
    const { db, write } = fakeDb();
    let t = 0;
    vi.spyOn(performance, 'now').mockImplementation(() => t);
    const cache = versionCache<number>(100, { slowMs: () => 20 });
    const told = { n: 0 };
    const stale = () => void told.n++;
    await cache(db, 'k', () => { t += 20; return Promise.resolve(1); }, stale);
    write();
    expect(await cache(db, 'k', () => Promise.resolve(2), stale)).toBe(1);
    expect(told.n).toBe(1);
  });
});
