// The per-request context: who is asking, what they may do, and lazily loaded site settings.
// A fresh one is made for every request (Pothos caches per context object).
import DataLoader from 'dataloader';
import type { Db, Prisma } from './db/client.js';
import { capabilitiesOf } from './auth/capabilities.js';
import { siteSettings, type SiteSettings } from './site/options.js';
import type { Storage } from './media/storage.js';

/** What the media library works with: where files go, and how large an upload may be. */
export interface MediaServices {
  storage: Storage;
  maxUploadBytes: number;
}

export interface Viewer {
  id: number;
  login: string;
  role: string;
  caps: ReadonlySet<string>;
  /** The application password this request signed in with (introspection), if any. */
  appPasswordUuid?: string;
}

export interface Context {
  db: Db;
  prisma: Prisma;
  viewer: Viewer | null;
  /** Whether the viewer holds a primitive capability. */
  can(cap: string): boolean;
  site(): Promise<SiteSettings>;
  /** Passwords offered for protected items on this request (`?password=`), by item id. */
  offeredPasswords: Map<number, string>;
  /** File storage of the media library (absent in contexts made outside an app, e.g. operator commands). */
  media: MediaServices | null;
  /** A batch loader shared by every field of this request that names the same key. */
  loader<K, V>(name: string, batch: (keys: readonly K[]) => Promise<V[]>): DataLoader<K, V>;
  /** The caller's address and user agent, for the /graphql requests that record them (contact-form feedback). */
  client?: { ip: string; userAgent: string };
  /**
   * What the answer was made of, shared by the contexts derived from this one: `staleTotal` when a
   * total came from before the latest write (a slow count being redone, src/db/version-cache.ts),
   * so the response cache does not keep the answer.
   */
  marks: { staleTotal: boolean };
}

export function createContext(db: Db, user: { id: number; login: string; role: string; appPasswordUuid?: string } | null, media: MediaServices | null = null): Context {
  let site: Promise<SiteSettings> | undefined;
  let siteAt = -1;
  const loaders = new Map<string, DataLoader<unknown, unknown>>();
  const viewer = user ? { ...user, caps: capabilitiesOf(user.role) } : null;
  return {
    db,
    prisma: db.prisma,
    viewer,
    can: (cap) => viewer?.caps.has(cap) ?? false,
    // Read once per request, again after this process writes (a write in this request shows).
    site: () => {
      if (!site || siteAt !== db.localVersion) { siteAt = db.localVersion; site = siteSettings(db); }
      return site;
    },
    offeredPasswords: new Map(),
    media,
    marks: { staleTotal: false },
    loader<K, V>(name: string, batch: (keys: readonly K[]) => Promise<V[]>) {
      let l = loaders.get(name) as DataLoader<K, V> | undefined;
      if (!l) loaders.set(name, (l = new DataLoader<K, V>(batch)));
      return l;
    },
  };
}
