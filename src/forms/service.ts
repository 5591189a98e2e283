// Contact forms as the plugin manages them: who may list, read, edit and delete them, writes that
// are dry runs unless asked to save, and the stored submissions.
import { createHash, randomBytes } from 'node:crypto';
import type { Context } from '../context.js';
import { restError } from '../errors.js';
import { stripAllTags } from '../content/render.js';
import { sanitizeTitle } from '../content/slug.js';
import { parseTemplate } from './parser.js';
import {
  additionalSettingsFrom, defaultProperties, mailFrom, readProperties, storedJson, type FormProperties,
} from './properties.js';
import { configErrors, type ConfigErrors } from './mail.js';
import { FORM_SELECT, siteInfo, toRecord, type ContactFormRecord } from './store.js';

/** Listing forms: edit_posts (contributors up). Reading one, editing, deleting: publish_pages (editors up). */
export const READ_FORMS_CAP = 'edit_posts';
export const EDIT_FORMS_CAP = 'publish_pages';

/** The plugin answers 403 even to anonymous callers, and checks before looking the form up. */
export function requireCap(ctx: Context, cap: string, action: string): void {
  if (!ctx.can(cap)) throw restError('wpcf7_forbidden', `You are not allowed to ${action}.`, 403);
}

export const notFound = () => restError('wpcf7_not_found', 'The requested contact form was not found.', 404);

/** A list item: `{id, hash, slug, title, locale}`; `hash` is the first 7 hex digits. */
export interface FormSummary { id: number; hash: string; slug: string; title: string; locale: string }

export interface ListOptions { perPage?: number; offset?: number; order?: string; orderby?: string; search?: string }

export async function listForms(ctx: Context, o: ListOptions = {}): Promise<FormSummary[]> {
  requireCap(ctx, READ_FORMS_CAP, 'access contact forms');
  const field = o.orderby === 'title' ? 'title' : o.orderby === 'date' ? 'created' : o.orderby === 'modified' ? 'modified' : 'id';
  const dir = String(o.order ?? '').toLowerCase() === 'desc' ? 'desc' : 'asc';
  const rows = await ctx.prisma.contactForm.findMany({
    where: o.search ? { title: { contains: o.search } } : undefined,
    select: { id: true, hash: true, slug: true, title: true, locale: true },
    orderBy: field === 'id' ? [{ id: dir }] : [{ [field]: dir }, { id: dir }],
    skip: o.offset && o.offset > 0 ? o.offset : undefined,
    take: o.perPage && o.perPage > 0 ? o.perPage : undefined,
  });
  return rows.map((r) => ({ ...r, hash: r.hash.slice(0, 7) }));
}

export async function getForm(ctx: Context, id: number): Promise<ContactFormRecord> {
  requireCap(ctx, EDIT_FORMS_CAP, 'edit this contact form');
  const row = await findRow(ctx, id);
  if (!row) throw notFound();
  return toRecord(ctx, row);
}

async function findRow(ctx: Context, id: number) {
  if (!Number.isSafeInteger(id) || id <= 0 || id > 2147483647) return null;
  return ctx.prisma.contactForm.findUnique({ where: { id }, select: FORM_SELECT });
}

/** What a create or update may carry; each property sent replaces that property whole. */
export interface FormInput {
  title?: unknown;
  locale?: unknown;
  form?: unknown;
  mail?: unknown;
  mail_2?: unknown;
  messages?: unknown;
  additional_settings?: unknown;
}

export interface WriteResult {
  /** null for a dry-run create. */
  id: number | null;
  slug: string | null;
  title: string;
  locale: string;
  properties: FormProperties;
  configErrors: ConfigErrors | never[];
  saved: boolean;
}

const str = (v: unknown): string => (typeof v === 'string' ? v : typeof v === 'number' ? String(v) : '');

/** Titles are plain text, as the plugin stores them. */
export const cleanTitle = (title: string): string => stripAllTags(title).replace(/[\r\n\t]+/g, ' ').trim();

function messagesFrom(input: unknown): Record<string, string> {
  const out: Record<string, string> = {};
  if (input && typeof input === 'object' && !Array.isArray(input)) {
    for (const [k, v] of Object.entries(input as Record<string, unknown>)) if (/^[a-z0-9_]+$/i.test(k)) out[k] = str(v);
  }
  return out;
}

/** `form` as written: the template text, or `{content}` / `{body}`. */
function templateFrom(input: unknown): string {
  if (typeof input === 'string') return input;
  if (input && typeof input === 'object') {
    const o = input as Record<string, unknown>;
    return str(o.content ?? o.body);
  }
  return '';
}

async function uniqueSlug(ctx: Context, base: string, self: number | null): Promise<string> {
  const root = base || 'untitled';
  const taken = new Set((await ctx.prisma.contactForm.findMany({
    where: { slug: { startsWith: root }, ...(self ? { id: { not: self } } : {}) }, select: { slug: true },
  })).map((r) => r.slug));
  if (!taken.has(root)) return root;
  for (let n = 2; ; n++) if (!taken.has(`${root}-${n}`)) return `${root}-${n}`;
}

/**
 * Creates (`id` null) or updates a form. Without `save` nothing is stored: the answer is the record
 * as it would be, with its configuration errors (the plugin's admin screen works this way).
 */
export async function writeForm(ctx: Context, id: number | null, input: FormInput, save: boolean): Promise<WriteResult> {
  requireCap(ctx, EDIT_FORMS_CAP, id === null ? 'create a contact form' : 'edit this contact form');
  const site = await siteInfo(ctx);
  let current: { title: string; locale: string; slug: string; hash: string; properties: FormProperties };
  if (id === null) {
    current = { title: '', locale: '', slug: '', hash: '', properties: defaultProperties(site) };
  } else {
    const row = await findRow(ctx, id);
    if (!row) throw notFound();
    current = { title: row.title, locale: row.locale, slug: row.slug, hash: row.hash, properties: readProperties(row.form, row.properties, site) };
  }
  const props: FormProperties = { ...current.properties };
  let echoedMessages: Record<string, string> | null = null;
  if (input.form !== undefined) props.form = templateFrom(input.form);
  if (input.mail !== undefined) props.mail = mailFrom(input.mail, true);
  if (input.mail_2 !== undefined) props.mail_2 = mailFrom(input.mail_2, false);
  if (input.messages !== undefined) props.messages = echoedMessages = messagesFrom(input.messages);
  if (input.additional_settings !== undefined) props.additional_settings = additionalSettingsFrom(input.additional_settings);
  const title = input.title !== undefined ? cleanTitle(str(input.title)) : current.title || (id === null ? 'Untitled' : '');
  const locale = input.locale !== undefined ? str(input.locale).replace(/[^A-Za-z0-9_@-]/g, '') : current.locale || 'en_US';
  const errors = configErrors(props, parseTemplate(props.form));
  const configErrorsOut = Object.keys(errors).length ? errors : [];
  const shown = echoedMessages ? { ...props, messages: echoedMessages } : props;
  if (!save) return { id, slug: id === null ? null : current.slug, title, locale, properties: shown, configErrors: configErrorsOut, saved: false };

  const slug = title === current.title && current.slug ? current.slug : await uniqueSlug(ctx, sanitizeTitle(title), id);
  const data = { title, locale, slug, form: props.form, properties: storedJson(props), modified: new Date() };
  let saved: { id: number; slug: string };
  try {
    saved = id === null
      ? await ctx.prisma.contactForm.create({ data: { ...data, hash: createHash('sha1').update(randomBytes(32)).digest('hex') }, select: { id: true, slug: true } })
      : await ctx.prisma.contactForm.update({ where: { id }, data, select: { id: true, slug: true } });
  } catch (err) {
    if ((err as { code?: string }).code === 'P2025') throw notFound();
    throw restError('wpcf7_cannot_save', 'There was an error saving the contact form.', 500);
  }
  return { id: saved.id, slug: saved.slug, title, locale, properties: shown, configErrors: configErrorsOut, saved: true };
}

export async function deleteForm(ctx: Context, id: number): Promise<{ deleted: true }> {
  requireCap(ctx, EDIT_FORMS_CAP, 'delete this contact form');
  const row = await findRow(ctx, id);
  if (!row) throw notFound();
  const { count } = await ctx.prisma.contactForm.deleteMany({ where: { id } });
  if (!count) throw restError('wpcf7_cannot_delete', 'There was an error deleting the contact form.', 500);
  return { deleted: true };
}

// ------------------------------------------------------------------ submissions

export interface SubmissionRecord {
  id: number;
  formId: number;
  created: Date;
  data: Record<string, unknown>;
  files: { field: string; name: string; type: string; size: number }[];
  postedDataHash: string;
  unitTag: string;
  containerPost: number;
  remoteIp: string;
  userAgent: string;
  mailStatus: string;
  mailError: string;
}

const SUBMISSION_SELECT = {
  id: true, formId: true, created: true, data: true, files: true, postedDataHash: true, unitTag: true, containerPost: true,
  remoteIp: true, userAgent: true, mailStatus: true, mailError: true,
} as const;

const parse = <T>(s: string, fallback: T): T => { try { return JSON.parse(s) as T; } catch { return fallback; } };

/** Stored file entries without their private path. */
function publicFiles(json: string): SubmissionRecord['files'] {
  return parse<{ field: string; name: string; type: string; size: number }[]>(json, []).map(({ field, name, type, size }) => ({ field, name, type, size }));
}

/** A form's submissions, newest first, for editors (publish_pages). */
export async function listSubmissions(ctx: Context, formId: number, page = 1, perPage = 10): Promise<{ total: number; nodes: SubmissionRecord[] }> {
  requireCap(ctx, EDIT_FORMS_CAP, 'read the submissions of this contact form');
  const form = await findRow(ctx, formId);
  if (!form) throw notFound();
  const take = Math.min(Math.max(1, perPage), 100);
  const skip = (Math.max(1, page) - 1) * take;
  const [total, rows] = await Promise.all([
    ctx.prisma.formSubmission.count({ where: { formId } }),
    ctx.prisma.formSubmission.findMany({ where: { formId }, orderBy: [{ created: 'desc' }, { id: 'desc' }], skip, take, select: SUBMISSION_SELECT }),
  ]);
  return { total, nodes: rows.map((r) => ({ ...r, data: parse(r.data, {}), files: publicFiles(r.files) })) };
}
