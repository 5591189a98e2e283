// versionCache: values per database version, and with `slowMs` a slow value given from before a
// write (to a caller that accepts it) while it is loaded again.
import { describe, expect, it } from 'vitest';
import { versionCache } from '../../src/db/version-cache.js';
import type { Db } from '../../src/db/client.js';

function fakeDb() {
  let v = 0;
  const db = { version: () => v } as unknown as Db;
  return { db, write: () => void v++ };
}

/** A cache whose loads of 20 ms or more are slow, and a `stale` callback that counts its calls. */
function slowCache() {
  const told = { n: 0 };
  return { cache: versionCache<number>(100, { slowMs: () => 20 }), told, stale: () => void told.n++ };
}

const after = <T>(ms: number, value: T) => () => new Promise<T>((done) => setTimeout(() => done(value), ms));

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
    const { cache, told, stale } = slowCache();
    // Nothing remembered yet: the first load is waited for.
    expect(await cache(db, 'k', after(40, 10), stale)).toBe(10);
    expect(told.n).toBe(0);
    write();
    // After the write: the remembered 10 at once, while 11 is loaded.
    const started = performance.now();
    expect(await cache(db, 'k', after(40, 11), stale)).toBe(10);
    expect(performance.now() - started).toBeLessThan(30);
    expect(told.n).toBe(1);
    // A caller that does not accept it waits for the load (the same one, in flight).
    expect(await cache(db, 'k', after(40, 99))).toBe(11);
    // Once the load has settled, everyone gets it.
    expect(await cache(db, 'k', after(40, 99), stale)).toBe(11);
    expect(told.n).toBe(1);
  });

  it('forgets a value once it loads fast again, and never remembers fast ones', async () => {
    const { db, write } = fakeDb();
    const { cache, told, stale } = slowCache();
    await cache(db, 'fast', after(0, 1), stale);
    write();
    expect(await cache(db, 'fast', after(0, 2), stale)).toBe(2);
    expect(told.n).toBe(0);

    await cache(db, 'k', after(40, 1), stale);
    write();
    expect(await cache(db, 'k', after(0, 2), stale)).toBe(1); // remembered while the (now fast) load runs
    await new Promise((r) => setTimeout(r, 5));
    write();
    expect(await cache(db, 'k', after(40, 3), stale)).toBe(3); // forgotten: waited for
    expect(told.n).toBe(1);
  });

  it('keeps nothing past its version without slowMs', async () => {
    const { db, write } = fakeDb();
    const cache = versionCache<number>();
    const told = { n: 0 };
    await cache(db, 'k', after(40, 1), () => void told.n++);
    write();
    expect(await cache(db, 'k', after(40, 2), () => void told.n++)).toBe(2);
    expect(told.n).toBe(0);
  });
});
