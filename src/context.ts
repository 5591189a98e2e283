// The per-request context: who is asking, what they may do, and lazily loaded site settings.
// A fresh one is made for every request (Pothos caches per context object).
import type { Db, Prisma } from './db/client.js';
import { capabilitiesOf } from './auth/capabilities.js';
import { siteSettings, type SiteSettings } from './site/options.js';

export interface Viewer {
  id: number;
  login: string;
  role: string;
  caps: ReadonlySet<string>;
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
}

export function createContext(db: Db, user: { id: number; login: string; role: string } | null): Context {
  const viewer = user ? { ...user, caps: capabilitiesOf(user.role) } : null;
  let site: Promise<SiteSettings> | undefined;
  return {
    db,
    prisma: db.prisma,
    viewer,
    can: (cap) => viewer?.caps.has(cap) ?? false,
    site: () => (site ??= siteSettings(db)),
    offeredPasswords: new Map(),
  };
}
