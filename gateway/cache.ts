// Shaped-response cache for anonymous reads: final bytes and headers, keyed by route path and
// sorted query. It holds the entries of one database version; any committed write, in this
// process or another, moves the version and so retires every entry at once.
export interface CachedResponse { status: number; headers: Record<string, string>; body: string; /** The body as UTF-8, encoded once. */ bytes?: Buffer }

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
}

export function createResponseCache(maxEntries: number, version: () => number): ResponseCache {
  let generation = version();
  const entries = new Map<string, CachedResponse>();
  const current = () => {
    const now = version();
    if (now !== generation) { generation = now; entries.clear(); }
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
      entries.set(key, value);
      if (entries.size > maxEntries) entries.delete(entries.keys().next().value!);
    },
    get size() { return entries.size; },
  };
}
