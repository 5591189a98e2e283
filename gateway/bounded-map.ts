// A map of at most a given number of entries that lets the least recently used go first: the
// shape yoga's parser cache takes (get and set by the document's text).

export interface BoundedMap<V> {
  get(key: string): V | undefined;
  set(key: string, value: V): void;
  readonly size: number;
}

export function boundedMap<V>(max: number): BoundedMap<V> {
  const entries = new Map<string, V>();
  return {
    get(key) {
      const value = entries.get(key);
      // A read makes the entry the most recent one (a Map keeps insertion order).
      if (value !== undefined) { entries.delete(key); entries.set(key, value); }
      return value;
    },
    set(key, value) {
      entries.delete(key);
      entries.set(key, value);
      if (entries.size > max) entries.delete(entries.keys().next().value as string);
    },
    get size() { return entries.size; },
  };
}
