// Values that hold until the next committed write anywhere (list totals): kept per database
// handle and version, shared while in flight so concurrent requests ask the database once.
import type { Db } from './client.js';

export function versionCache<T>(maxEntries = 2000) {
  // Per handle: each handle counts its own versions, so two sites in one process never share.
  const byDb = new WeakMap<Db, Map<string, Promise<T>>>();
  return (db: Db, key: string, load: () => Promise<T>): Promise<T> => {
    let entries = byDb.get(db);
    if (!entries) byDb.set(db, (entries = new Map()));
    const k = `${db.version()}|${key}`;
    let value = entries.get(k);
    if (!value) {
      if (entries.size >= maxEntries) entries.clear();
      value = load();
      const map = entries;
      map.set(k, value);
      value.catch(() => map.delete(k));
    }
    return value;
  };
}
