// Shaped-response cache for anonymous reads: final bytes and headers, keyed by route path and
// sorted query. It holds the entries of one database version; any committed write, in this
// process or another, moves the version and so retires every entry at once.
export interface CachedResponse { status: number; headers: Record<string, string>; /** Empty when `bytes` holds the answer (what the dispatcher keeps). */ body: string; /** The body as UTF-8, encoded once. */ bytes?: Buffer }

export interface ResponseCache {
  get(key: string): CachedResponse | undefined;
  /** The generation a request starts under; pass it back to `set`. */
  begin(): number;
  /**
   * `begin` and `get` with one look at the database version (a SQLite PRAGMA per call: the
   * largest cost of a hit when done twice).
   */
  lookup(key: string): { generation: number; hit: CachedResponse | undefined };
  /**
   * Stores only if no write landed since `begin` (a slow read must not cache stale bytes), and
   * only an answer asked for before under this version: the first answer for a key is not kept
   * (see `createResponseCache`).
   */
  set(key: string, value: CachedResponse, generation: number): void;
  /**
   * Records that a request for the raw URL `url` (path and query as received) was answered with
   * the entry at `key`, so a later plain request for the same URL finds it without parsing,
   * routing or authenticating (`byUrl`). Only for answers that depend on the URL alone.
   */
  alias(url: string, key: string): void;
  /** The entry a raw URL was answered with, while it is held under the current version. */
  byUrl(url: string): CachedResponse | undefined;
  readonly size: number;
  /** What the entries weigh, roughly (see `weight`). */
  readonly bytes: number;
}

/** What an entry keeps resident, roughly: its text, its encoded bytes and its headers. */
function weight(v: CachedResponse): number {
  let headers = 0;
  for (const k in v.headers) headers += k.length + v.headers[k].length;
  return v.body.length + (v.bytes?.length ?? 0) + headers + 64;
}

/** FNV-1a of a string's UTF-16 units: a key's trace in the doorkeeper (a collision only keeps an answer early). */
function keyHash(key: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < key.length; i++) h = Math.imul(h ^ key.charCodeAt(i), 0x01000193);
  return h >>> 0;
}

/**
 * At most `maxEntries` entries and `maxBytes` of them (CACHE_MAX_BYTES): a run of distinct URLs
 * (every list with its own `exclude`) would otherwise keep thousands of 30 KB lists per process.
 * The least recently used go first; an entry larger than a quarter of the budget is not kept.
 *
 * An answer is kept the second time its key is answered under a version, not the first (a
 * doorkeeper, as in TinyLFU or a CDN's "cache on second hit"): the first time only a hash of the
 * key is noted. URLs asked once (a cache-busting parameter, a list with its own `exclude`, a crawl)
 * then neither push out what is asked again nor cost their keeping: every kept answer outlives the
 * young generation of the heap, and with a new URL per request the service answered 15–20% fewer
 * of them than with the cache off (list reads with a random `exclude`, two workers).
 */
export function createResponseCache(maxEntries: number, version: () => number, maxBytes = Infinity): ResponseCache {
  let generation = version();
  // In order of use, the least recent first. `at`: the count of placements when this one was placed.
  const entries = new Map<string, { value: CachedResponse; weight: number; at: number }>();
  let placed = 0;
  // Raw URL -> key. Several URLs may name one entry (parameters in another order); an alias whose
  // entry was evicted finds nothing. Bounded: past four per entry they are all forgotten.
  const aliases = new Map<string, string>();
  // Hashes of the keys answered once under this version; bounded as the aliases are.
  const seen = new Set<number>();
  let used = 0;
  const clear = () => { entries.clear(); aliases.clear(); seen.clear(); used = 0; };
  const drop = (key: string) => {
    const slot = entries.get(key);
    if (!slot) return;
    entries.delete(key);
    used -= slot.weight;
  };
  const current = () => {
    const now = version();
    if (now !== generation) { generation = now; clear(); }
  };
  // A hit moves its entry to the most recent end, unless it is already in the more recent half
  // (placed fewer than size/2 placements ago): the one most asked for is then not moved on every
  // hit (a delete and an insert in the map), and an entry in that half outlives at least as many
  // further placements anyway.
  const touch = (key: string) => {
    const slot = entries.get(key);
    if (!slot) return undefined;
    if (placed - slot.at >= entries.size / 2) {
      entries.delete(key);
      entries.set(key, slot);
      slot.at = ++placed;
    }
    return slot.value;
  };
  return {
    get(key) {
      current();
      return touch(key);
    },
    lookup(key) {
      current();
      return { generation, hit: touch(key) };
    },
    begin() {
      current();
      return generation;
    },
    set(key, value, startedAt) {
      current();
      if (startedAt !== generation) return;
      if (!entries.has(key)) {
        const h = keyHash(key);
        if (!seen.has(h)) {
          if (seen.size >= maxEntries * 4) seen.clear();
          seen.add(h);
          return;
        }
      }
      const w = weight(value);
      if (w > maxBytes / 4) return;
      drop(key);
      entries.set(key, { value, weight: w, at: ++placed });
      used += w;
      while (entries.size > maxEntries || used > maxBytes) drop(entries.keys().next().value!);
    },
    alias(url, key) {
      if (!entries.has(key) || aliases.get(url) === key) return;
      if (aliases.size >= maxEntries * 4) aliases.clear();
      aliases.set(url, key);
    },
    byUrl(url) {
      current();
      const key = aliases.get(url);
      return key === undefined ? undefined : touch(key);
    },
    get size() { return entries.size; },
    get bytes() { return used; },
  };
}
