// The per-request context: who is asking, what they may do, lazily loaded site settings, and the
// app's services. A fresh one is made for every request (Pothos caches per context object).
import DataLoader from 'dataloader';
import type { Db, DbServices, Prisma } from './db/client.js';
import { capabilitiesOf } from './auth/capabilities.js';
import { siteSettings, type SiteSettings } from './site/options.js';
import { withinTransaction } from './db/version-cache.js';
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
  /**
   * The app's services (src/services.ts: forms, SEO, url-details, site health, content events,
   * write hooks), read from the database handle: every context of a request's handle, a batch
   * item's included, has its app's. Typed through the database layer's declaration, which
   * src/services.ts fills: importing that file here would close an import cycle (its services
   * take contexts).
   */
  services: DbServices;
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
  // Set by createApp; code without an app asks servicesOf (src/services.ts) for the defaults first.
  const services = db.services;
  if (!services) throw new Error('the database handle has no services: createApp sets them, servicesOf gives the defaults');
  return {
    db,
    prisma: db.prisma,
    viewer,
    can: (cap) => viewer?.caps.has(cap) ?? false,
    // Read once per request, again after this process writes (a write in this request shows).
    site: () => {
      // Inside a batch's transaction the version stands still while its items write: read each time.
      if (!site || siteAt !== db.localVersion || withinTransaction(db)) { siteAt = db.localVersion; site = siteSettings(db); }
      return site;
    },
    offeredPasswords: new Map(),
    media,
    services,
    marks: { staleTotal: false },
    loader<K, V>(name: string, batch: (keys: readonly K[]) => Promise<V[]>) {
      let l = loaders.get(name) as DataLoader<K, V> | undefined;
      if (!l) loaders.set(name, (l = new DataLoader<K, V>(batch)));
      return l;
    },
  };
}
