// Values that hold until the next committed write anywhere (list totals): kept per database
// handle and version, shared while in flight so concurrent requests ask the database once.
// The version moves when a write commits, so it cannot tell apart the states inside an open
// transaction: on the handle a batch gives its items (one transaction for all of them) values are
// kept under the count of write statements sent through it instead (`Db.writesSent`), so what is read
// after a write of the batch sees it, and reads with no write between them share one load.
import type { Db } from './client.js';

/**
 * Whether a handle reads through a transaction that is still open: the one a batch gives its
 * items (src/content/unit-of-work.ts), recognised by the term count additions it carries until
 * its commit (`Db.termCounts`, set on that handle only).
 */
export function withinTransaction(db: Db): boolean {
  return db.termCounts !== undefined;
}

export interface VersionCacheOptions {
  /**
   * Loads that took at least this many milliseconds are remembered past their version: after a
   * write, a caller that allows it (`stale`) gets the remembered value at once while one new load
   * runs, and the new value once that has settled. For totals that take seconds to count (a
   * common word's matches at a million posts), so a write does not make the next reader wait for
   * the count; they then lag the writes by one count's time.
   */
  slowMs?: () => number;
  /** The clock loads are timed by, in milliseconds (`performance.now`); tests give one they move. */
  now?: () => number;
}

/** The threshold and the clock the totals of lists and searches use (`slowMs`, `now`); tests set them. */
export const slowCounts = { ms: 500, now: () => performance.now() };

export interface VersionCache<T> {
  /** `stale`: a caller that accepts a remembered slow value (see `slowMs`); told when it gets one. */
  (db: Db, key: string, load: () => Promise<T>, stale?: () => void): Promise<T>;
}

export function versionCache<T>(maxEntries = 2000, options: VersionCacheOptions = {}): VersionCache<T> {
  // Per handle: each handle counts its own versions, so two sites in one process never share.
  const byDb = new WeakMap<Db, Map<string, Promise<T>>>();
  const slowByDb = new WeakMap<Db, Map<string, T>>();
  const { slowMs, now = () => performance.now() } = options;
  /** Loads that have resolved (with slowMs): their value is given, not a remembered one. */
  const settled = new WeakSet<Promise<T>>();
  return (db, key, load, stale) => {
    const batched = withinTransaction(db);
    if (batched) stale = undefined;
    let entries = byDb.get(db);
    if (!entries) byDb.set(db, (entries = new Map()));
    const k = `${batched ? `w${db.writesSent}` : db.version()}|${key}`;
    let value = entries.get(k);
    if (!value) {
      if (entries.size >= maxEntries) entries.clear();
      value = slowMs === undefined ? load() : timed(db, key, load, slowMs);
      const map = entries;
      map.set(k, value);
      value.catch(() => map.delete(k));
    }
    const remembered = slowMs === undefined || !stale || settled.has(value) ? undefined : slowByDb.get(db)?.get(key);
    if (remembered === undefined) return value;
    stale!();
    return Promise.resolve(remembered);
  };

  function timed(db: Db, key: string, load: () => Promise<T>, slow: () => number): Promise<T> {
    const started = now();
    const loading: Promise<T> = load().then((v) => {
      let slowOnes = slowByDb.get(db);
      if (!slowOnes) slowByDb.set(db, (slowOnes = new Map()));
      if (now() - started >= slow()) {
        if (slowOnes.size >= maxEntries) slowOnes.clear();
        slowOnes.set(key, v);
      } else {
        slowOnes.delete(key);
      }
      settled.add(loading);
      return v;
    });
    return loading;
  }
}
