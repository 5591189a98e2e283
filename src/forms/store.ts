// Reading contact forms: one row becomes a record with its properties read back (defaults filled).
// Forms asked for by several fields of one request are loaded together.
import type { Context } from '../context.js';
import { readProperties, type FormProperties } from './properties.js';

export interface FormRow {
  id: number;
  slug: string;
  title: string;
  locale: string;
  hash: string;
  form: string;
  properties: string;
}

export interface ContactFormRecord {
  id: number;
  slug: string;
  title: string;
  locale: string;
  hash: string;
  properties: FormProperties;
}

export const FORM_SELECT = { id: true, slug: true, title: true, locale: true, hash: true, form: true, properties: true } as const;

/** What the defaults need of the site: its title and host (the default sender's domain). */
export async function siteInfo(ctx: Context): Promise<{ title: string; host: string; url: string }> {
  const site = await ctx.site();
  let host = 'localhost';
  try { host = new URL(site.url || site.home).hostname || host; } catch { /* an unset URL keeps localhost */ }
  return { title: site.name, host: host.replace(/^www\./, ''), url: site.url || site.home };
}

export async function toRecord(ctx: Context, row: FormRow): Promise<ContactFormRecord> {
  const site = await siteInfo(ctx);
  return { id: row.id, slug: row.slug, title: row.title, locale: row.locale, hash: row.hash, properties: readProperties(row.form, row.properties, site) };
}

/** One form by id, batched with the other forms this request asks for; null when there is none. */
export async function loadForm(ctx: Context, id: number): Promise<ContactFormRecord | null> {
  if (!Number.isSafeInteger(id) || id <= 0 || id > 2147483647) return null;
  const row = await ctx.loader<number, FormRow | null>('contactForm', async (ids) => {
    const rows = await ctx.prisma.contactForm.findMany({ where: { id: { in: [...ids] } }, select: FORM_SELECT });
    const byId = new Map(rows.map((r) => [r.id, r]));
    return ids.map((i) => byId.get(i) ?? null);
  }).load(id);
  return row ? toRecord(ctx, row) : null;
}

/** The forms named by shortcodes: ids, or hash prefixes (7+ hex digits) — one query for all. */
export async function loadFormsByRef(ctx: Context, refs: string[]): Promise<Map<string, ContactFormRecord>> {
  const out = new Map<string, ContactFormRecord>();
  const ids = [...new Set(refs.filter((r) => /^\d{1,10}$/.test(r)).map(Number).filter((n) => n > 0 && n <= 2147483647))];
  const hashes = [...new Set(refs.filter((r) => /^[0-9a-f]{7,40}$/i.test(r) && !/^\d+$/.test(r)).map((r) => r.toLowerCase()))];
  if (!ids.length && !hashes.length) return out;
  const rows = await ctx.prisma.contactForm.findMany({
    where: { OR: [...(ids.length ? [{ id: { in: ids } }] : []), ...hashes.map((h) => ({ hash: { startsWith: h } }))] },
    select: FORM_SELECT,
  });
  for (const row of rows) {
    const record = await toRecord(ctx, row);
    out.set(String(row.id), record);
    for (const h of hashes) if (row.hash.startsWith(h)) out.set(h, record);
  }
  return out;
}
