// Imports a WordPress export into the site in chunks: authors (users, made authors when their
// login is new), categories and tags (parents first), then posts and pages (parents first)
// through the content service, so slugs, terms, dates and caches follow the usual rules and
// each item is written in its own transaction. The pending job (the document and how far it
// got) is kept in an option; the caller calls again until `next_url` is false. A second run
// skips what is already there: users by login, terms by taxonomy and slug, items by the source
// guid stored beside them (or by type and slug).
import { randomBytes } from 'node:crypto';
import type { Context } from '../../context.js';
import { RestError, restError } from '../../errors.js';
import { saveContent, type ContentInput } from '../../content/service.js';
import { saveTerm } from '../../terms/service.js';
import { createUserRecord } from '../../users/service.js';
import { sanitizeTitle } from '../../content/slug.js';
import { clearImportJob, getImportJob, setImportJob, type ImportJob } from '../site/options.js';
import { parseWxr, WxrError, type WxrAuthor, type WxrDocument, type WxrItem, type WxrTerm } from './wxr.js';

/** What the route accepts: `{plugin}/{type}`. */
export const IMPORTERS: Record<string, string[]> = { wxr: ['content'] };
/** Post meta key holding the export's guid of an imported item. */
export const SOURCE_GUID_KEY = '_import_source_guid';
const ITEM_TYPES = new Set(['post', 'page']);
const ITEM_STATUSES = new Set(['publish', 'draft', 'pending', 'private', 'future']);

export interface ImportProgress {
  success: boolean;
  status: number;
  total: number;
  imported: number;
  skipped: number;
  /** More to do: call this route again (false once done). */
  next: boolean;
  errors: ImportJob['errors'];
}

type Unit = { kind: 'author'; author: WxrAuthor } | { kind: 'term'; term: WxrTerm } | { kind: 'item'; item: WxrItem };

function units(doc: WxrDocument): Unit[] {
  return [
    ...doc.authors.map((author) => ({ kind: 'author' as const, author })),
    ...doc.terms.map((term) => ({ kind: 'term' as const, term })),
    ...doc.items.map((item) => ({ kind: 'item' as const, item })),
  ];
}

function checkImporter(plugin: string, type: string): void {
  if (!IMPORTERS[plugin]) throw restError('seo_import_unknown_plugin', `There is no importer for "${plugin}"; known: ${Object.keys(IMPORTERS).join(', ')}.`, 400, { plugin });
  if (!IMPORTERS[plugin].includes(type)) throw restError('seo_import_unknown_type', `The "${plugin}" importer has no type "${type}"; known: ${IMPORTERS[plugin].join(', ')}.`, 400, { type });
}

/**
 * One step of an import: with a `document` a new job starts (replacing any pending one),
 * without one the pending job goes on. At most `chunk` units are handled per call.
 */
export async function runImport(ctx: Context, plugin: string, type: string, document: string | null, chunk: number): Promise<ImportProgress> {
  if (!ctx.viewer || !ctx.can('manage_options')) throw restError('rest_forbidden', 'Sorry, you are not allowed to do that.', ctx.viewer ? 403 : 401);
  checkImporter(plugin, type);
  let job: ImportJob | null;
  let doc: WxrDocument;
  if (document !== null) {
    try { doc = parseWxr(document); } catch (err) {
      if (err instanceof WxrError) throw restError('seo_import_invalid_file', err.message, 400);
      throw err;
    }
    job = { plugin, type, document, position: 0, total: units(doc).length, imported: 0, skipped: 0, errors: [], ids: {} };
  } else {
    job = await getImportJob(ctx.prisma, plugin, type);
    if (!job) throw restError('seo_import_no_file', 'No file was uploaded and no import is pending: send the export as the multipart field "file" or as the body.', 400);
    doc = parseWxr(job.document);
  }
  const all = units(doc);
  const end = Math.min(all.length, job.position + Math.max(1, chunk));
  for (let i = job.position; i < end; i++) {
    const unit = all[i];
    try {
      const outcome = unit.kind === 'author' ? await importAuthor(ctx, unit.author)
        : unit.kind === 'term' ? await importTerm(ctx, unit.term)
        : await importItem(ctx, unit.item, job);
      if (outcome === 'imported') job.imported++; else job.skipped++;
    } catch (err) {
      if (!(err instanceof RestError)) throw err;
      job.skipped++;
      job.errors.push({ item: describe(unit), code: err.extensions.code, message: err.message });
    }
  }
  job.position = end;
  const done = end >= all.length;
  if (done) await clearImportJob(ctx.prisma, plugin, type);
  else await setImportJob(ctx.prisma, job);
  return { success: true, status: 200, total: job.total, imported: job.imported, skipped: job.skipped, next: !done, errors: job.errors };
}

export type ImportAnswer = Omit<ImportProgress, 'next'> & { next_url: string | false };

/** A step's answer as the route sends it: `next_url` is where to call again (`{root}seo/v1/import/{plugin}/{type}`), false once done. */
export function importAnswer(p: ImportProgress, restRoot: string, plugin: string, type: string): ImportAnswer {
  const { next, ...rest } = p;
  return { ...rest, next_url: next ? `${restRoot}seo/v1/import/${plugin}/${type}` : false };
}

function describe(u: Unit): string {
  if (u.kind === 'author') return `author ${u.author.login}`;
  if (u.kind === 'term') return `${u.term.taxonomy} ${u.term.slug}`;
  return `${u.item.type} ${u.item.sourceId} (${u.item.slug || u.item.title})`;
}

type Outcome = 'imported' | 'skipped';

async function importAuthor(ctx: Context, a: WxrAuthor): Promise<Outcome> {
  const found = await ctx.prisma.user.findUnique({ where: { login: a.login }, select: { id: true } });
  if (found) return 'skipped';
  // A new user gets a random password: they set their own through a reset.
  await createUserRecord(ctx, {
    username: a.login, email: a.email || `${sanitizeTitle(a.login) || 'author'}@invalid.invalid`, name: a.displayName || a.login,
    firstName: a.firstName, lastName: a.lastName, roles: ['author'], password: randomBytes(18).toString('base64url'),
  });
  return 'imported';
}

async function importTerm(ctx: Context, t: WxrTerm): Promise<Outcome> {
  const slug = sanitizeTitle(t.slug || t.name);
  const found = await ctx.prisma.term.findFirst({ where: { taxonomy: t.taxonomy, slug }, select: { id: true } });
  if (found) return 'skipped';
  let parent: number | undefined;
  if (t.taxonomy === 'category' && t.parentSlug) {
    const p = await ctx.prisma.term.findFirst({ where: { taxonomy: 'category', slug: sanitizeTitle(t.parentSlug) }, select: { id: true } });
    if (!p) throw restError('seo_import_missing_parent', `The parent category "${t.parentSlug}" is not in the export or the site.`, 400);
    parent = p.id;
  }
  await saveTerm(ctx, t.taxonomy, null, { name: t.name || t.slug, slug, description: t.description, ...(parent ? { parent } : {}) });
  return 'imported';
}

async function importItem(ctx: Context, it: WxrItem, job: ImportJob): Promise<Outcome> {
  if (!ITEM_TYPES.has(it.type) || !ITEM_STATUSES.has(it.status)) return 'skipped';
  const guid = it.guid || `${it.type}:${it.sourceId}`;
  const byGuid = await ctx.prisma.postMeta.findFirst({ where: { key: SOURCE_GUID_KEY, value: guid, content: { type: it.type } }, select: { contentId: true } });
  const slug = sanitizeTitle(it.slug);
  const existing = byGuid ? { id: byGuid.contentId } : slug ? await ctx.prisma.content.findFirst({ where: { type: it.type, slug }, select: { id: true } }) : null;
  if (existing) {
    job.ids[it.sourceId] = existing.id;
    return 'skipped';
  }
  const author = it.author ? await ctx.prisma.user.findUnique({ where: { login: it.author }, select: { id: true } }) : null;
  const termIds = async (taxonomy: string, slugs: string[]) => slugs.length
    ? (await ctx.prisma.term.findMany({ where: { taxonomy, slug: { in: slugs.map((s) => sanitizeTitle(s)) } }, select: { id: true } })).map((t) => t.id)
    : [];
  const input: ContentInput = {
    title: it.title, content: it.content, excerpt: it.excerpt, status: it.status,
    ...(slug ? { slug } : {}),
    ...(it.date ? { date: it.date } : {}),
    ...(author ? { author: author.id } : {}),
    ...(it.commentStatus === 'open' || it.commentStatus === 'closed' ? { commentStatus: it.commentStatus } : {}),
    ...(it.pingStatus === 'open' || it.pingStatus === 'closed' ? { pingStatus: it.pingStatus } : {}),
    ...(it.password && it.status !== 'private' ? { password: it.password } : {}),
  };
  if (it.type === 'post') {
    input.categories = await termIds('category', it.categories);
    input.tags = await termIds('post_tag', it.tags);
    if (it.sticky && !input.password) input.sticky = true;
  } else {
    input.menuOrder = it.menuOrder;
    if (it.parentSourceId && it.parentSourceId !== '0') {
      const parent = job.ids[it.parentSourceId];
      if (!parent) throw restError('seo_import_missing_parent', `The parent page ${it.parentSourceId} is not in the export.`, 400);
      input.parent = parent;
    }
  }
  if (!input.title && !input.content && !input.excerpt) input.title = slug || `Imported ${it.type} ${it.sourceId}`;
  const id = await saveContent(ctx, it.type, null, input, {
    within: async (tx, savedId) => { await tx.postMeta.create({ data: { contentId: savedId, key: SOURCE_GUID_KEY, value: guid } }); },
  });
  job.ids[it.sourceId] = id;
  return 'imported';
}
