// Values that hold until the next committed write anywhere (list totals): kept per database
// version, shared while in flight so concurrent requests ask the database once.
import type { Db } from './client.js';

export function versionCache<T>(maxEntries = 2000) {
  const entries = new Map<string, Promise<T>>();
  return (db: Db, key: string, load: () => Promise<T>): Promise<T> => {
    const k = `${db.version()}|${key}`;
    let value = entries.get(k);
    if (!value) {
      if (entries.size >= maxEntries) entries.clear();
      value = load();
      entries.set(k, value);
      value.catch(() => entries.delete(k));
    }
    return value;
  };
}
