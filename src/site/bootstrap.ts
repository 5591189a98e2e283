// First start: site options, the default category, the administrator and one application
// password. Idempotent: an existing site is left as it is, except that the server (and only the
// server: `followSiteUrl`) moves `siteurl`/`home` to its configured address.
import { randomBytes, randomUUID } from 'node:crypto';
import type { Db } from '../db/client.js';
import { setOption } from './options.js';
import { hashApplicationPassword, hashLoginPassword, newApplicationPassword, randomPassword } from '../auth/passwords.js';

export interface BootstrapResult {
  created: boolean;
  admin?: { login: string; password: string; applicationPassword: string; generatedPassword: boolean };
}

export interface BootstrapOptions {
  siteUrl: string;
  adminUser: string;
  adminPassword?: string;
  /**
   * For an existing site, set `siteurl` and `home` to `siteUrl`. Only the server sets this: its
   * address may change between starts (another port, a proxy). Other callers (the command line,
   * seeding) must never change the settings of a live site. `'loopback'`: only when the stored
   * address is itself a loopback one (the server's derived default, when SITE_URL is not set),
   * so an address the operator set (`cli site set-url`) is not replaced by a default.
   */
  followSiteUrl?: boolean | 'loopback';
}

/** An address on this machine only (what the server derives from HOST and PORT). */
export function isLoopbackUrl(url: string): boolean {
  try {
    const host = new URL(url).hostname.replace(/^\[|\]$/g, '');
    return host === 'localhost' || host === '::1' || /^127\./.test(host) || host === '0.0.0.0' || host === '::';
  } catch {
    return false;
  }
}

/** Points `siteurl` and `home` at a new address (the operator's `cli site set-url`). */
export async function setSiteUrl(db: Db, url: string): Promise<string> {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    throw new TypeError(`not a URL: ${url}`);
  }
  if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:') throw new TypeError(`the site address must be http or https: ${url}`);
  if (parsed.search || parsed.hash) throw new TypeError(`the site address takes no query or fragment: ${url}`);
  const value = parsed.href.replace(/\/+$/, '');
  await db.prisma.$transaction(async (tx) => {
    await setOption(tx, 'siteurl', value);
    await setOption(tx, 'home', value);
  });
  return value;
}

/** The options a start reads to tell whether an existing site needs a write (`siteUrlToWrite`). */
export const SITE_START_OPTIONS = ['site_key', 'siteurl', 'home'] as const;

/**
 * For a site whose options are `stored` (their JSON text, by name): whether a start must run
 * `bootstrapSite` at all, that is the site does not exist yet or its address moves. The server's
 * primary asks this of what it read through the plain driver (src/db/start-probe.ts) and opens
 * the ORM only when the answer is yes.
 */
export function siteNeedsBootstrap(stored: ReadonlyMap<string, string>, o: BootstrapOptions): boolean {
  return !stored.has('site_key') || siteUrlToWrite(stored, o) !== null;
}

/** The address an existing site's `siteurl` and `home` move to at this start, or null to leave them. */
function siteUrlToWrite(stored: ReadonlyMap<string, string>, o: BootstrapOptions): string | null {
  if (!o.followSiteUrl) return null;
  const text = (name: string) => {
    try {
      const value: unknown = JSON.parse(stored.get(name) ?? '""');
      return typeof value === 'string' ? value : String(value);
    } catch {
      return '';
    }
  };
  const current = text('siteurl');
  if (o.followSiteUrl === 'loopback' && current && !isLoopbackUrl(current)) return null;
  return current === o.siteUrl && text('home') === o.siteUrl ? null : o.siteUrl;
}

export async function bootstrapSite(db: Db, o: BootstrapOptions): Promise<BootstrapResult> {
  const prisma = db.prisma;
  const rows = await prisma.option.findMany({ where: { name: { in: [...SITE_START_OPTIONS] } } });
  const stored = new Map(rows.map((r) => [r.name, r.value]));
  if (stored.has('site_key')) {
    const url = siteUrlToWrite(stored, o);
    if (url !== null) {
      await setOption(prisma, 'siteurl', url);
      await setOption(prisma, 'home', url);
    }
    return { created: false };
  }
  const siteKey = randomBytes(32).toString('hex');
  const password = o.adminPassword ?? randomPassword(20);
  const applicationPassword = newApplicationPassword();
  const passwordHash = await hashLoginPassword(password);
  await prisma.$transaction(async (tx) => {
    for (const [name, value] of Object.entries({ site_key: siteKey, siteurl: o.siteUrl, home: o.siteUrl, blogname: 'My Site', default_category: 1 })) {
      await setOption(tx, name, value);
    }
    const category = await tx.term.upsert({
      where: { taxonomy_slug: { taxonomy: 'category', slug: 'uncategorized' } },
      create: { taxonomy: 'category', name: 'Uncategorized', slug: 'uncategorized' },
      update: {},
    });
    await setOption(tx, 'default_category', category.id);
    const admin = await tx.user.create({
      data: { login: o.adminUser, email: `${o.adminUser}@example.invalid`, slug: o.adminUser.toLowerCase(), displayName: o.adminUser, role: 'administrator', passwordHash },
    });
    await tx.appPassword.create({
      data: { uuid: randomUUID(), userId: admin.id, name: 'first start', hash: hashApplicationPassword(siteKey, applicationPassword) },
    });
  });
  return { created: true, admin: { login: o.adminUser, password, applicationPassword, generatedPassword: !o.adminPassword } };
}
