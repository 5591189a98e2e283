// A bounded in-memory cache with an expiry per entry, for what the server fetched from elsewhere
// (oEmbed data, link previews). The least recently used entry goes first when it is full; lookups
// of a key already being fetched join that fetch instead of starting another. Only successes are
// kept (as WordPress keeps only successful answers): a fetch that failed is tried again next time.

export interface TtlCache<V> {
  /** The cached value of `key`, or the value `load` produces (kept when it is not null). */
  get(key: string, load: () => Promise<V | null>): Promise<V | null>;
  readonly size: number;
  clear(): void;
}

export function createTtlCache<V>(o: { maxEntries: number; ttlMs: number; now?: () => number }): TtlCache<V> {
  const now = o.now ?? Date.now;
  const entries = new Map<string, { value: V; expires: number }>();
  const loading = new Map<string, Promise<V | null>>();
  return {
    async get(key, load) {
      const hit = entries.get(key);
      if (hit && hit.expires > now()) {
        entries.delete(key); // re-inserted: Map order is the recency order
        entries.set(key, hit);
        return hit.value;
      }
      if (hit) entries.delete(key);
      let flight = loading.get(key);
      if (!flight) {
        flight = load().then((value) => {
          if (value !== null && o.maxEntries > 0) {
            entries.set(key, { value, expires: now() + o.ttlMs });
            while (entries.size > o.maxEntries) entries.delete(entries.keys().next().value!);
          }
          return value;
        }).finally(() => loading.delete(key));
        loading.set(key, flight);
      }
      return flight;
    },
    get size() { return entries.size; },
    clear() { entries.clear(); },
  };
}
