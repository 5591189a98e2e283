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
  /** Stores only if no write landed since `begin` (a slow read must not cache stale bytes). */
  set(key: string, value: CachedResponse, generation: number): void;
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

/**
 * At most `maxEntries` entries and `maxBytes` of them (CACHE_MAX_BYTES): a run of distinct URLs
 * (every list with its own `exclude`) would otherwise keep thousands of 30 KB lists per process.
 * The least recently used go first; an entry larger than a quarter of the budget is not kept.
 */
export function createResponseCache(maxEntries: number, version: () => number, maxBytes = Infinity): ResponseCache {
  let generation = version();
  const entries = new Map<string, CachedResponse>();
  const weights = new Map<string, number>();
  let used = 0;
  const clear = () => { entries.clear(); weights.clear(); used = 0; };
  const drop = (key: string) => {
    entries.delete(key);
    used -= weights.get(key) ?? 0;
    weights.delete(key);
  };
  const current = () => {
    const now = version();
    if (now !== generation) { generation = now; clear(); }
  };
  const touch = (key: string) => {
    const hit = entries.get(key);
    if (hit) { entries.delete(key); entries.set(key, hit); } // most recently used last
    return hit;
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
      const w = weight(value);
      if (w > maxBytes / 4) return;
      drop(key);
      entries.set(key, value);
      weights.set(key, w);
      used += w;
      while (entries.size > maxEntries || used > maxBytes) drop(entries.keys().next().value!);
    },
    get size() { return entries.size; },
    get bytes() { return used; },
  };
}
