// The full import of a WordPress export (WXR), as the operator's command runs it: authors, terms
// of every known taxonomy, attachments (downloaded and stored as uploads are), posts, pages and
// the content model's types, menus and their items, and comments, with every id the export uses
// remapped and the export's URLs in the text rewritten to the new files and permalinks.
//
// Resumable and idempotent: each item is written with its ImportRecord (source = the export's
// base site URL) in one transaction, and every run starts by reading the records of its source,
// so what is already there is skipped and a stopped run goes on where it stopped. Users and terms
// already on the site (by login or email; by taxonomy and slug) are used, not duplicated.
//
// Writes go through the domain services (users, terms, menus, content, media), so their rules and the
// event log apply; comments, which the comments service only creates as new ones, are written by
// ./store.ts with their events.
import { randomBytes } from 'node:crypto';
import type { Context } from '../../context.js';
import { RestError } from '../../errors.js';
import { saveContent, type ContentInput } from '../../content/service.js';
import { saveTerm } from '../../terms/service.js';
import { createUserRecord } from '../../users/service.js';
import { createAttachment } from '../../media/service.js';
import { ATTACHED_FILE, ATTACHMENT_METADATA, IMAGE_ALT, attachmentMeta, folderOf, mediaMetaSelect, metaValue } from '../../media/metadata.js';
import { sanitizeTitle } from '../../content/slug.js';
import type { SiteSettings } from '../../site/options.js';
import { contentTypeOf, permalink, POST_LIKE_TYPES, taxonomyKeys, taxonomyRef } from '../../resources/content-types.js';
import { orderParentsFirst, parseWxrDocument, type WxrComment, type WxrDocument, type WxrItem, type WxrTerm } from '../wxr/parse.js';
import { isSerialized, metaValueFromWxr, unserialize, type PhpValue } from '../wxr/php.js';
import { canonical, makeRewriter, withoutSlash, type Rewrites } from './rewrite.js';
import { download, exportedMeta, fetchTarget, folderUrl, SkipError, sourceFileUrl, type ExportedMeta, type FetchPolicy } from './media.js';
import { saveMenu, saveMenuItem } from '../../menus/service.js';
import {
  insertComment, loadRecords, recordExisting, recordKey, wallClock, writeRecord, type RecordKind, type Records,
} from './store.js';

export { WxrError } from '../wxr/parse.js';

export interface WordPressImportOptions {
  /** Parse and report what would be imported; write nothing, fetch nothing. */
  dryRun?: boolean;
  /** Leave attachments out (featured images and media URLs then keep pointing at the old site). */
  skipMedia?: boolean;
  /** Hosts files may be fetched from besides the export's own (see ./media.ts). */
  allowHosts?: string[];
  /** Fetch the export's files from elsewhere: `from` prefix → `to` prefix. */
  baseUrlMap?: [string, string][];
  /** Export login → login of a user of this site to use instead of making one. */
  authorMap?: Record<string, string>;
  /** Largest file downloaded (default 64 MB), and the time one download may take (default 60 s). */
  maxMediaBytes?: number;
  mediaTimeoutMs?: number;
  /** Called after each unit of work. */
  progress?: (p: { phase: Phase; done: number; total: number }) => void;
}

export type Phase = 'authors' | 'terms' | 'attachments' | 'items' | 'links' | 'menu items' | 'comments';

export type Outcome = 'imported' | 'matched' | 'already' | 'skipped';
export interface KindCounts { imported: number; matched: number; already: number; skipped: number }
export interface SkippedItem { kind: string; id: string; label: string; reason: string }

export interface ImportSummary {
  /** The export's base site URL: the source its records are kept under. */
  source: string;
  dryRun: boolean;
  /** By WordPress's name of the kind: author, category, post_tag, nav_menu, attachment, post, page, nav_menu_item, comment … */
  counts: Record<string, KindCounts>;
  skipped: SkippedItem[];
  /** Items whose text was rewritten after the fact (links to items imported after them), attachments attached to their parent then. */
  relinked: number;
}

/** Post meta WordPress keeps for itself, or that the import turns into columns and files instead of copying. */
const NOT_COPIED = new Set([
  '_edit_lock', '_edit_last', '_encloseme', '_pingme', '_wp_trash_meta_status', '_wp_trash_meta_time', '_wp_desired_post_slug',
  '_thumbnail_id', '_wp_page_template', ATTACHED_FILE, ATTACHMENT_METADATA, IMAGE_ALT, '_wp_attachment_backup_sizes',
]);
/** Taxonomies that are the site's own besides the content model's. */
const BUILT_IN_TAXONOMIES = new Set(['category', 'post_tag', 'nav_menu']);
const COMMENT_STATUS: Record<string, string> = { '1': 'approved', '0': 'hold', spam: 'spam', trash: 'trash', 'post-trashed': 'post-trashed' };
const SKIPPED_STATUSES = new Set(['auto-draft', 'inherit']);
const FLOATING = new Set(['draft', 'pending']);

const toRestDate = (d: string) => d.replace(' ', 'T');

/** The base site URL the export names: its records' source. */
export function sourceOf(doc: WxrDocument): string {
  return doc.baseSiteUrl || doc.baseBlogUrl;
}

/**
 * Imports an export (its text, or as parseWxrDocument read it) with the operator context `ctx`
 * (an administrator; media services unless media are skipped or it is a dry run).
 */
export async function importWordPress(ctx: Context, xml: string | WxrDocument, o: WordPressImportOptions = {}): Promise<ImportSummary> {
  const doc = typeof xml === 'string' ? parseWxrDocument(xml) : xml;
  return new Importer(ctx, doc, o).run();
}

class Importer {
  private readonly source: string;
  private readonly dry: boolean;
  private records: Records = new Map();
  private readonly summary: ImportSummary;
  private fakeIds = 0;
  /** Export ids and keys → ids here. */
  private readonly users = new Map<string, number>(); // login → id
  private readonly usersBySourceId = new Map<string, number>();
  private readonly terms = new Map<string, number>(); // taxonomy:slug → id
  private readonly termsBySourceId = new Map<string, number>();
  private readonly attachments = new Map<string, number>();
  private readonly contents = new Map<string, number>(); // posts, pages, model types
  private readonly menuItems = new Map<string, number>();
  private readonly comments = new Map<string, number>();
  private readonly files = new Map<string, string>();
  private rewrite: (text: string) => string = (t) => t;
  private readonly linkRewrites: Rewrites;
  private defaultAuthor = 0;
  private site: SiteSettings | null = null;
  private readonly rows = new Map<number, LinkRow>();

  constructor(private readonly ctx: Context, private readonly doc: WxrDocument, private readonly o: WordPressImportOptions) {
    this.source = sourceOf(doc);
    this.dry = !!o.dryRun;
    this.summary = { source: this.source, dryRun: this.dry, counts: {}, skipped: [], relinked: 0 };
    this.linkRewrites = { files: this.files, attachments: new Map(), links: new Map(), linksById: new Map(), bases: [...new Set([doc.baseSiteUrl, doc.baseBlogUrl].filter(Boolean))] };
  }

  async run(): Promise<ImportSummary> {
    if (!this.source) throw new RestError('import_no_source', 'The export names no site (wp:base_site_url).', 400);
    this.records = await loadRecords(this.ctx.prisma, this.source);
    this.defaultAuthor = this.ctx.viewer?.id ?? 0;
    await this.importAuthors();
    await this.importTerms();
    const items = this.doc.items;
    const attachments = items.filter((i) => i.type === 'attachment');
    await this.importAttachments(attachments);
    await this.mapFiles(attachments);
    this.linkRewrites.attachments = new Map([...this.attachments].filter(([, id]) => id > 0));
    const contents = orderParentsFirst(items.filter((i) => i.type !== 'attachment' && i.type !== 'nav_menu_item'), (i) => i.sourceId, (i) => (i.parentSourceId !== '0' ? i.parentSourceId : ''));
    await this.importItems(contents);
    await this.relink(contents, attachments);
    await this.importMenuItems(items.filter((i) => i.type === 'nav_menu_item'));
    await this.importComments(items.filter((i) => i.comments.length));
    return this.summary;
  }

  // ------------------------------------------------------------------ bookkeeping

  private tally(kind: string, outcome: Outcome, skip?: { id: string; label: string; reason: string }): void {
    const c = (this.summary.counts[kind] ??= { imported: 0, matched: 0, already: 0, skipped: 0 });
    c[outcome]++;
    if (outcome === 'skipped' && skip) this.summary.skipped.push({ kind, ...skip });
  }

  private progress(phase: Phase, done: number, total: number): void {
    this.o.progress?.({ phase, done, total });
  }

  private known(kind: RecordKind, sourceId: string): number | undefined {
    return this.records.get(recordKey(kind, sourceId));
  }

  /** A stand-in id for what a dry run would create (negative: never a real row). */
  private fake(): number {
    return -(++this.fakeIds);
  }

  private async note(kind: RecordKind, sourceId: string, targetId: number): Promise<void> {
    if (!this.dry) await recordExisting(this.ctx.prisma, this.source, kind, sourceId, targetId);
    this.records.set(recordKey(kind, sourceId), targetId);
  }

  private record(kind: RecordKind, sourceId: string) {
    return async (tx: Parameters<typeof writeRecord>[0], id: number) => {
      await writeRecord(tx, this.source, kind, sourceId, id);
      this.records.set(recordKey(kind, sourceId), id);
    };
  }

  // ------------------------------------------------------------------ authors

  private async importAuthors(): Promise<void> {
    const total = this.doc.authors.length;
    let done = 0;
    for (const a of this.doc.authors) {
      const id = await this.importAuthor(a);
      if (id !== null) {
        this.users.set(a.login, id);
        if (a.id) this.usersBySourceId.set(a.id, id);
      }
      this.progress('authors', ++done, total);
    }
  }

  private async importAuthor(a: WxrDocument['authors'][number]): Promise<number | null> {
    const label = a.login;
    const already = this.known('author', a.login);
    if (already !== undefined) { this.tally('author', 'already'); return already; }
    const mappedLogin = this.o.authorMap?.[a.login];
    if (mappedLogin !== undefined) {
      const user = await this.ctx.prisma.user.findFirst({ where: { OR: [{ login: mappedLogin }, { email: mappedLogin }] }, select: { id: true } });
      if (!user) {
        this.tally('author', 'skipped', { id: a.id || a.login, label, reason: `--author-map names ${mappedLogin}, who is not a user of this site; their items go to the operator` });
        return null;
      }
      await this.note('author', a.login, user.id);
      this.tally('author', 'matched');
      return user.id;
    }
    const or = [{ login: a.login }, ...(a.email ? [{ email: a.email }] : [])];
    const existing = await this.ctx.prisma.user.findFirst({ where: { OR: or }, select: { id: true } });
    if (existing) {
      await this.note('author', a.login, existing.id);
      this.tally('author', 'matched');
      return existing.id;
    }
    if (this.dry) { this.tally('author', 'imported'); return this.fake(); }
    try {
      // A new user gets a random password: they set their own through a reset.
      const id = await createUserRecord(this.ctx, {
        username: a.login, email: a.email || `${sanitizeTitle(a.login) || 'author'}@invalid.invalid`, name: a.displayName || a.login,
        firstName: a.firstName, lastName: a.lastName, roles: ['author'], password: randomBytes(18).toString('base64url'),
      }, { within: this.record('author', a.login) });
      this.tally('author', 'imported');
      return id;
    } catch (err) {
      if (!(err instanceof RestError)) throw err;
      this.tally('author', 'skipped', { id: a.id || a.login, label, reason: `${err.extensions.code}: ${err.message} (their items go to the operator)` });
      return null;
    }
  }

  // ------------------------------------------------------------------ terms

  private async importTerms(): Promise<void> {
    const total = this.doc.terms.length;
    let done = 0;
    for (const t of this.doc.terms) {
      const id = await this.importTerm(t);
      if (id !== null) {
        this.terms.set(`${t.taxonomy}:${t.slug}`, id);
        if (t.id) this.termsBySourceId.set(t.id, id);
      }
      this.progress('terms', ++done, total);
    }
  }

  private async importTerm(t: WxrTerm): Promise<number | null> {
    const kind = t.taxonomy;
    const skip = (reason: string) => { this.tally(kind, 'skipped', { id: t.id || t.slug, label: `${t.taxonomy} ${t.slug}`, reason }); return null; };
    if (t.taxonomy === 'post_format') return skip("a post format is kept as the item's format, not as a term");
    const ref = taxonomyRef(t.taxonomy);
    if (!BUILT_IN_TAXONOMIES.has(t.taxonomy) && !ref) return skip(`the taxonomy ${t.taxonomy} is not declared in the site's content model`);
    const sourceId = `${t.taxonomy}:${t.slug}`;
    const already = this.known('term', sourceId);
    if (already !== undefined) { this.tally(kind, 'already'); return already; }
    const slug = sanitizeTitle(t.slug || t.name);
    const existing = slug ? await this.ctx.prisma.term.findFirst({ where: { taxonomy: t.taxonomy, slug }, select: { id: true } }) : null;
    if (existing) {
      await this.note('term', sourceId, existing.id);
      this.tally(kind, 'matched');
      return existing.id;
    }
    if (this.dry) { this.tally(kind, 'imported'); return this.fake(); }
    const parent = ref?.hierarchical && t.parentSlug ? this.terms.get(`${t.taxonomy}:${t.parentSlug}`) : undefined;
    try {
      const within = this.record('term', sourceId);
      const id = t.taxonomy === 'nav_menu'
        ? await saveMenu(this.ctx, null, { name: t.name || t.slug, slug, description: t.description }, { within })
        : await saveTerm(this.ctx, t.taxonomy, null, { name: t.name || t.slug, slug, description: t.description, ...(parent && parent > 0 ? { parent } : {}) }, { within });
      this.tally(kind, 'imported');
      return id;
    } catch (err) {
      if (!(err instanceof RestError)) throw err;
      // The same name under the same parent with another slug: that term is this one.
      const clash = (err.extensions.data as { term_id?: number } | undefined)?.term_id;
      if ((err.extensions.code === 'term_exists' || err.extensions.code === 'menu_exists') && clash) {
        await this.note('term', sourceId, clash);
        this.tally(kind, 'matched');
        return clash;
      }
      return skip(`${err.extensions.code}: ${err.message}`);
    }
  }

  // ------------------------------------------------------------------ attachments

  private policy(): FetchPolicy {
    let siteHost = '';
    try { siteHost = new URL(this.source).host.toLowerCase(); } catch { /* checked at start */ }
    return {
      allowHosts: this.o.allowHosts ?? [], siteHost, baseUrlMap: this.o.baseUrlMap ?? [],
      maxBytes: this.o.maxMediaBytes ?? Math.max(this.ctx.media?.maxUploadBytes ?? 0, 64 * 1024 * 1024), timeoutMs: this.o.mediaTimeoutMs ?? 60_000,
    };
  }

  private async importAttachments(list: WxrItem[]): Promise<void> {
    const policy = this.policy();
    let done = 0;
    for (const item of list) {
      const id = await this.importAttachment(item, policy);
      if (id !== null) this.attachments.set(item.sourceId, id);
      this.progress('attachments', ++done, list.length);
    }
  }

  private async importAttachment(item: WxrItem, policy: FetchPolicy): Promise<number | null> {
    const label = `${item.title || item.slug} (${item.attachmentUrl || item.guid})`;
    const skip = (reason: string) => { this.tally('attachment', 'skipped', { id: item.sourceId, label, reason }); return null; };
    const already = this.known('attachment', item.sourceId);
    if (already !== undefined) { this.tally('attachment', 'already'); return already; }
    if (this.o.skipMedia) return skip('media were skipped (--skip-media)');
    const url = item.attachmentUrl || item.guid;
    if (!url) return skip('the export gives no URL for its file');
    const meta = exportedMeta(parsedMeta(item, ATTACHMENT_METADATA));
    const source = sourceFileUrl(url, meta);
    const target = fetchTarget(source, policy);
    if ('refused' in target) return skip(target.refused);
    if (this.dry) { this.tally('attachment', 'imported'); return this.fake(); }
    let bytes: Buffer;
    let fetched = source;
    try {
      bytes = await download(source, policy);
    } catch (err) {
      if (!(err instanceof SkipError)) throw err;
      if (source === url) return skip(err.message);
      // The original is gone: the attachment's own file is the next best thing.
      try { bytes = await download(url, policy); fetched = url; } catch (again) {
        if (!(again instanceof SkipError)) throw again;
        return skip(again.message);
      }
    }
    const name = decodeURIComponent(fetched.slice(fetched.lastIndexOf('/') + 1).split(/[?#]/)[0]) || 'file';
    const attachedFile = metaOf(item, ATTACHED_FILE) ?? meta.file ?? '';
    const folder = /^(\d{4}\/\d{2})\//.exec(attachedFile)?.[1];
    const parent = item.parentSourceId !== '0' ? this.contents.get(item.parentSourceId) ?? this.known('post', item.parentSourceId) : undefined;
    const author = this.users.get(item.author);
    try {
      const id = await createAttachment(this.ctx, { buffer: bytes, name, size: bytes.length, head: bytes.subarray(0, 4100) }, {
        title: item.title, caption: item.excerpt, description: item.content, altText: metaOf(item, IMAGE_ALT) ?? undefined,
        ...(item.slug ? { slug: item.slug } : {}),
        ...dateInput(item),
        ...(author && author > 0 ? { author } : {}),
        ...discussion(item),
        ...(parent && parent > 0 ? { post: parent } : {}),
      }, null, {
        folder,
        within: async (tx, id) => {
          await this.record('attachment', item.sourceId)(tx, id);
          await copyMeta(tx, id, item);
          const dates = exactDates(item);
          if (Object.keys(dates).length) await tx.content.update({ where: { id }, data: dates });
        },
      });
      this.tally('attachment', 'imported');
      return id;
    } catch (err) {
      if (!(err instanceof RestError)) throw err;
      return skip(`${err.extensions.code}: ${err.message}`);
    }
  }

  /** The export's upload URLs (file, sub-sizes, original) → the URLs of the imported files. */
  private async mapFiles(list: WxrItem[]): Promise<void> {
    const storage = this.ctx.media?.storage;
    const ids = list.map((i) => this.attachments.get(i.sourceId)).filter((id): id is number => id !== undefined && id > 0);
    if (!storage || !ids.length) return;
    const rows = await this.ctx.prisma.content.findMany({ where: { id: { in: ids } }, select: { id: true, ...mediaMetaSelect } });
    const byId = new Map(rows.map((r) => [r.id, r]));
    for (const item of list) {
      const id = this.attachments.get(item.sourceId);
      const row = id ? byId.get(id) : undefined;
      const url = item.attachmentUrl || item.guid;
      if (!row || !url) continue;
      const file = metaValue(row.meta, ATTACHED_FILE);
      if (!file) continue;
      const now = attachmentMeta(row.meta);
      const fullUrl = storage.url(file);
      const old: ExportedMeta = exportedMeta(parsedMeta(item, ATTACHMENT_METADATA));
      const folder = folderUrl(url);
      const put = (from: string, to: string) => this.files.set(canonical(from, this.linkRewrites.bases), to);
      put(url, fullUrl);
      if (old.original_image) put(folder + old.original_image, now.original_image ? storage.url(folderOf(file) + now.original_image) : fullUrl);
      for (const [size, s] of Object.entries(old.sizes ?? {})) {
        if (!s.file) continue;
        const made = now.sizes?.[size];
        put(folder + s.file, made ? storage.url(folderOf(file) + made.file) : fullUrl);
      }
    }
  }

  // ------------------------------------------------------------------ posts, pages, the model's types

  private async importItems(list: WxrItem[]): Promise<void> {
    if (!this.dry) this.site = await this.ctx.site();
    for (const base of this.linkRewrites.bases) this.linkRewrites.links.set(withoutSlash(base), `${this.site?.home ?? ''}/`);
    this.rewrite = makeRewriter(this.linkRewrites);
    let done = 0;
    for (const item of list) {
      const id = await this.importItem(item);
      if (id !== null) this.contents.set(item.sourceId, id);
      this.progress('items', ++done, list.length);
    }
  }

  private async importItem(item: WxrItem): Promise<number | null> {
    const kind = item.type;
    const label = `${item.title || '(no title)'} [${item.status}]`;
    const skip = (reason: string) => { this.tally(kind, 'skipped', { id: item.sourceId, label, reason }); return null; };
    const descriptor = POST_LIKE_TYPES.find((d) => d.type === item.type);
    if (!descriptor) return skip(`the type ${item.type} is not declared in the site's content model`);
    if (SKIPPED_STATUSES.has(item.status)) return skip(`items with the status ${item.status} are not imported`);
    const already = this.known('post', item.sourceId);
    if (already !== undefined) { this.tally(kind, 'already'); return already; }
    let parent: number | undefined;
    if (item.parentSourceId !== '0') {
      parent = this.contents.get(item.parentSourceId);
      if (parent === undefined) return skip(`its parent (${item.parentSourceId}) was not imported`);
    }
    if (this.dry) { this.tally(kind, 'imported'); return this.fake(); }

    const { supports } = descriptor;
    const input: ContentInput = {
      title: item.title, content: this.rewrite(item.content), excerpt: this.rewrite(item.excerpt), status: item.status,
      ...(item.slug ? { slug: item.slug } : {}),
      ...dateInput(item),
      ...discussion(item),
    };
    const author = this.users.get(item.author);
    if (author && author > 0) input.author = author;
    if (item.password && item.status !== 'private') input.password = item.password;
    if (supports.sticky && item.sticky && !input.password) input.sticky = true;
    if (supports.formats) {
      const format = item.terms.find((t) => t.taxonomy === 'post_format')?.slug.replace(/^post-format-/, '');
      if (format) input.format = format;
    }
    for (const { ref, key } of taxonomyKeys(descriptor)) {
      const ids = item.terms.filter((t) => t.taxonomy === ref.taxonomy).map((t) => this.terms.get(`${t.taxonomy}:${t.slug}`)).filter((id): id is number => !!id && id > 0);
      if (ids.length) (input as Record<string, unknown>)[key] = [...new Set(ids)];
    }
    if (supports.pageAttributes) {
      input.menuOrder = item.menuOrder;
      if (parent && parent > 0) input.parent = parent;
    }
    const thumbnail = metaOf(item, '_thumbnail_id');
    const featured = thumbnail ? this.attachments.get(thumbnail) : undefined;
    if (featured && featured > 0) input.featuredMedia = featured;
    const template = metaOf(item, '_wp_page_template');
    try {
      const id = await saveContent(this.ctx, item.type, null, input, {
        within: async (tx, id) => {
          await this.record('post', item.sourceId)(tx, id);
          await copyMeta(tx, id, item);
          const extra = exactDates(item);
          if (template && template !== 'default') extra.template = template;
          if (item.status === 'trash') {
            const was = metaOf(item, '_wp_trash_meta_status');
            extra.trashedStatus = was ?? 'draft';
            extra.trashedSlug = metaOf(item, '_wp_desired_post_slug') ?? item.slug.replace(/__trashed$/, '');
          }
          // The row as saved (slug made unique, status as the date made it): its new permalink, for the links of the items after it.
          const row = await tx.content.update({ where: { id }, data: extra, select: { id: true, type: true, status: true, slug: true, parentId: true } });
          this.noteLink(item, row);
        },
      });
      this.tally(kind, 'imported');
      return id;
    } catch (err) {
      if (!(err instanceof RestError)) throw err;
      return skip(`${err.extensions.code}: ${err.message}`);
    }
  }

  /** Where an imported item now is, by its old permalink and id (pages' ancestors from the rows seen so far). */
  private noteLink(item: WxrItem, row: LinkRow): void {
    if (!this.site) return;
    this.rows.set(row.id, row);
    const chain: string[] = [];
    if (contentTypeOf(row.type).hierarchical) {
      for (let p = row.parentId, n = 0; p && n < 100; n++) {
        const up = this.rows.get(p);
        if (!up) break;
        chain.unshift(up.slug);
        p = up.parentId;
      }
    }
    const to = permalink(this.site, row, chain);
    this.linkRewrites.linksById.set(item.sourceId, to);
    if (item.link) this.linkRewrites.links.set(withoutSlash(canonical(item.link, this.linkRewrites.bases)), to);
  }

  /**
   * Links to items imported after the item that holds them, and attachments whose parent came
   * after them: fixed once everything is in. Also what a resumed run left unfixed. Changes
   * nothing when there is nothing to change (a second run).
   */
  private async relink(items: WxrItem[], attachments: WxrItem[]): Promise<void> {
    if (this.dry) return;
    const site = await this.ctx.site();
    const targets = new Map<string, number>();
    for (const i of items) { const id = this.contents.get(i.sourceId); if (id && id > 0) targets.set(i.sourceId, id); }
    const rows = targets.size ? await this.ctx.prisma.content.findMany({ where: { id: { in: [...targets.values()] } }, select: { id: true, type: true, status: true, slug: true, parentId: true, content: true, excerpt: true } }) : [];
    const byId = new Map(rows.map((r) => [r.id, r]));
    this.site = site;
    for (const r of rows) this.rows.set(r.id, r);
    // Rows in parents-first order, so each page's ancestors are known when it is placed.
    for (const i of items) {
      const row = byId.get(targets.get(i.sourceId) ?? 0);
      if (row) this.noteLink(i, row);
    }
    // Links only: the files and attachment ids were rewritten when the item was written, and
    // rewriting ids again would turn a new id that equals an old one into another.
    const relinkText = makeRewriter({ ...this.linkRewrites, files: new Map(), attachments: new Map() });
    this.rewrite = makeRewriter(this.linkRewrites);
    const total = items.length + attachments.length;
    let done = 0;
    for (const i of items) {
      const row = byId.get(targets.get(i.sourceId) ?? 0);
      if (row) {
        const content = relinkText(row.content);
        const excerpt = relinkText(row.excerpt);
        if (content !== row.content || excerpt !== row.excerpt) {
          await saveContent(this.ctx, row.type, row.id, { content, excerpt }, { revision: false });
          this.summary.relinked++;
        }
      }
      this.progress('links', ++done, total);
    }
    // Attachments imported before their parent item: attached now.
    const parents = attachments
      .map((a) => ({ id: this.attachments.get(a.sourceId), parent: a.parentSourceId !== '0' ? this.contents.get(a.parentSourceId) : undefined }))
      .filter((a): a is { id: number; parent: number } => !!a.id && a.id > 0 && !!a.parent && a.parent > 0);
    const current = parents.length ? await this.ctx.prisma.content.findMany({ where: { id: { in: parents.map((p) => p.id) } }, select: { id: true, parentId: true } }) : [];
    const now = new Map(current.map((c) => [c.id, c.parentId]));
    for (const p of parents) {
      if (now.get(p.id) !== p.parent) {
        await saveContent(this.ctx, 'attachment', p.id, { post: p.parent }, { revision: false });
        this.summary.relinked++;
      }
    }
    this.progress('links', total, total);
  }

  // ------------------------------------------------------------------ menus

  private async importMenuItems(list: WxrItem[]): Promise<void> {
    const parentOf = (i: WxrItem) => metaOf(i, '_menu_item_menu_item_parent') ?? '0';
    const ordered = orderParentsFirst(list, (i) => i.sourceId, (i) => (parentOf(i) !== '0' ? parentOf(i) : ''));
    let done = 0;
    for (const item of ordered) {
      const id = await this.importMenuItem(item, parentOf(item));
      if (id !== null) this.menuItems.set(item.sourceId, id);
      this.progress('menu items', ++done, ordered.length);
    }
  }

  private async importMenuItem(item: WxrItem, parentSource: string): Promise<number | null> {
    const label = `${item.title || '(label of its object)'} in ${item.terms.find((t) => t.taxonomy === 'nav_menu')?.name ?? '(no menu)'}`;
    const skip = (reason: string) => { this.tally('nav_menu_item', 'skipped', { id: item.sourceId, label, reason }); return null; };
    const already = this.known('menu_item', item.sourceId);
    if (already !== undefined) { this.tally('nav_menu_item', 'already'); return already; }
    const menuSlug = item.terms.find((t) => t.taxonomy === 'nav_menu')?.slug;
    const menuId = menuSlug ? this.terms.get(`nav_menu:${menuSlug}`) : undefined;
    if (!menuId) return skip('its menu is not in the export');
    const type = metaOf(item, '_menu_item_type') ?? 'custom';
    const object = metaOf(item, '_menu_item_object') ?? '';
    const objectSource = metaOf(item, '_menu_item_object_id') ?? '0';
    let objectId = 0;
    if (type === 'post_type') {
      const found = this.contents.get(objectSource) ?? this.attachments.get(objectSource);
      if (found === undefined) return skip(`the ${object || 'item'} it points at (${objectSource}) was not imported`);
      objectId = found;
    } else if (type === 'taxonomy') {
      const found = this.termsBySourceId.get(objectSource);
      if (found === undefined) return skip(`the ${object || 'term'} it points at (${objectSource}) was not imported`);
      objectId = found;
    } else if (type !== 'custom' && type !== 'post_type_archive') {
      return skip(`menu items of the type ${type} are not imported`);
    }
    const parent = parentSource !== '0' ? this.menuItems.get(parentSource) : 0;
    if (parent === undefined) return skip(`its parent item (${parentSource}) was not imported`);
    if (this.dry) { this.tally('nav_menu_item', 'imported'); return this.fake(); }
    // Post meta of the item other than the menus service's own keys, copied as for any item.
    const extra = item.meta.filter((m) => !NOT_COPIED.has(m.key) && !m.key.startsWith('_menu_item_'));
    try {
      const id = await saveMenuItem(this.ctx, null, {
        title: item.title, status: item.status === 'draft' ? 'draft' : 'publish', menuId, parent, menuOrder: item.menuOrder,
        type, object, objectId, url: type === 'custom' ? this.rewrite(metaOf(item, '_menu_item_url') ?? '') : '',
        description: item.content.trim(), attrTitle: item.excerpt, target: metaOf(item, '_menu_item_target') ?? '',
        cssClasses: listOf(metaOf(item, '_menu_item_classes') ?? ''), xfn: listOf(metaOf(item, '_menu_item_xfn') ?? ''),
      }, {
        within: async (tx, id) => {
          await this.record('menu_item', item.sourceId)(tx, id);
          if (extra.length) await tx.postMeta.createMany({ data: extra.map((m) => ({ contentId: id, key: m.key, value: metaValueFromWxr(m.value) })) });
          // Its author and dates as exported (the service stamps the writer and now).
          const author = this.authorOf(item);
          const date = wallClock(item.date);
          const dateGmt = wallClock(item.dateGmt);
          await tx.content.update({ where: { id }, data: { ...(date ? { date } : {}), ...(dateGmt ? { dateGmt } : {}), ...(author ? { authorId: author } : {}) } });
        },
      });
      this.tally('nav_menu_item', 'imported');
      return id;
    } catch (err) {
      if (!(err instanceof RestError)) throw err;
      return skip(`${err.extensions.code}: ${err.message}`);
    }
  }

  private authorOf(item: WxrItem): number {
    const id = this.users.get(item.author);
    return id && id > 0 ? id : this.defaultAuthor;
  }

  // ------------------------------------------------------------------ comments

  private async importComments(items: WxrItem[]): Promise<void> {
    const all = items.flatMap((item) => orderParentsFirst(item.comments, (c) => c.id, (c) => (c.parentId !== '0' ? c.parentId : '')).map((c) => ({ item, c })));
    // Registered commenters the export does not list as authors: found by their address.
    const emails = [...new Set(all.filter(({ c }) => c.userId !== '0' && !this.usersBySourceId.has(c.userId) && c.authorEmail).map(({ c }) => c.authorEmail))];
    const byEmail = new Map((emails.length ? await this.ctx.prisma.user.findMany({ where: { email: { in: emails } }, select: { id: true, email: true } }) : []).map((u) => [u.email.toLowerCase(), u.id]));
    let done = 0;
    for (const { item, c } of all) {
      const id = await this.importComment(item, c, byEmail);
      if (id !== null) this.comments.set(c.id, id);
      this.progress('comments', ++done, all.length);
    }
  }

  private async importComment(item: WxrItem, c: WxrComment, byEmail: Map<string, number>): Promise<number | null> {
    const label = `by ${c.author || '(anonymous)'} on ${item.title || item.sourceId}`;
    const skip = (reason: string) => { this.tally('comment', 'skipped', { id: c.id, label, reason }); return null; };
    const already = this.known('comment', c.id);
    if (already !== undefined) { this.tally('comment', 'already'); return already; }
    const postId = this.contents.get(item.sourceId) ?? this.attachments.get(item.sourceId);
    if (postId === undefined) return skip(`its ${item.type} (${item.sourceId}) was not imported`);
    const parentId = c.parentId !== '0' ? this.comments.get(c.parentId) : 0;
    if (parentId === undefined) return skip(`the comment it replies to (${c.parentId}) was not imported`);
    const status = COMMENT_STATUS[c.approved];
    if (!status) return skip(`the status ${c.approved} is not a comment status`);
    if (this.dry) { this.tally('comment', 'imported'); return this.fake(); }
    const userId = c.userId !== '0' ? this.usersBySourceId.get(c.userId) ?? byEmail.get(c.authorEmail.toLowerCase()) ?? 0 : 0;
    const date = wallClock(c.date) ?? wallClock(c.dateGmt) ?? new Date(Math.floor(Date.now() / 1000) * 1000);
    const dateGmt = wallClock(c.dateGmt) ?? date;
    const trashedFrom = metaOfList(c.meta, '_wp_trash_meta_status');
    const id = await insertComment(this.ctx, this.source, c.id, {
      postId, parentId, userId: userId > 0 ? userId : 0, authorName: c.author, authorEmail: c.authorEmail, authorUrl: c.authorUrl,
      authorIp: c.authorIp, authorAgent: '', date, dateGmt, content: c.content, karma: c.karma, status, type: c.type || 'comment',
      trashedStatus: status === 'trash' || status === 'post-trashed' ? COMMENT_STATUS[trashedFrom ?? '1'] ?? 'approved' : '',
    });
    this.records.set(recordKey('comment', c.id), id);
    this.tally('comment', 'imported');
    return id;
  }
}

// ------------------------------------------------------------------ helpers

function metaOfList(meta: { key: string; value: string }[], key: string): string | undefined {
  return meta.find((m) => m.key === key)?.value;
}

function metaOf(item: WxrItem, key: string): string | undefined {
  return metaOfList(item.meta, key);
}

function parsedMeta(item: WxrItem, key: string): PhpValue | undefined {
  const raw = metaOf(item, key);
  if (raw === undefined || !isSerialized(raw)) return undefined;
  try { return unserialize(raw); } catch { return undefined; }
}

/** A menu item's classes or xfn: a serialised array's values, or a space-separated list. */
function listOf(raw: string): string[] {
  if (isSerialized(raw)) {
    try {
      const v = unserialize(raw);
      if (Array.isArray(v)) return v.map((x) => (x === null ? '' : String(x)));
      if (v && typeof v === 'object') return Object.values(v).map((x) => (x === null ? '' : String(x)));
      if (typeof v === 'string') return v.split(' ');
    } catch { /* read as written below */ }
  }
  return raw.split(' ');
}

/** The dates as saveContent takes them: the GMT instant when the export has one, else the wall clock. */
function dateInput(item: WxrItem): Pick<ContentInput, 'date' | 'dateGmt'> {
  if (item.dateGmt) return { dateGmt: toRestDate(item.dateGmt) };
  if (item.date) return { date: toRestDate(item.date) };
  return {};
}

function discussion(item: WxrItem): Pick<ContentInput, 'commentStatus' | 'pingStatus'> {
  return {
    ...(item.commentStatus === 'open' || item.commentStatus === 'closed' ? { commentStatus: item.commentStatus } : {}),
    ...(item.pingStatus === 'open' || item.pingStatus === 'closed' ? { pingStatus: item.pingStatus } : {}),
  };
}

type TxOf = Parameters<typeof writeRecord>[0];
type LinkRow = { id: number; type: string; status: string; slug: string; parentId: number | null };

/** The exporting site's own wall-clock date beside the GMT one; a draft without a GMT date floats, as in WordPress. */
function exactDates(item: WxrItem): Record<string, unknown> {
  const local = wallClock(item.date);
  const data: Record<string, unknown> = {};
  if (local && item.dateGmt) data.date = local;
  if (!item.dateGmt && FLOATING.has(item.status)) data.dateFloating = true;
  return data;
}

/** The item's post meta, less what WordPress keeps for itself or the import turned into columns; serialised values as JSON. */
async function copyMeta(tx: TxOf, id: number, item: WxrItem): Promise<void> {
  const rows = item.meta.filter((m) => !NOT_COPIED.has(m.key) && !m.key.startsWith('_menu_item_')).map((m) => ({ contentId: id, key: m.key, value: metaValueFromWxr(m.value) }));
  if (rows.length) await tx.postMeta.createMany({ data: rows });
}
