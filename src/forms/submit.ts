// A feedback submission, in the plugin's order: field validation, acceptance, spam, then mail.
// Every submission that passes the first three is stored (its row, then its files, in a private
// directory) before mail is tried, and the mail's outcome is recorded on it: a mail failure loses
// nothing.
import { createHash, randomUUID } from 'node:crypto';
import { copyFile, mkdir, rm } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';
import type { Context } from '../context.js';
import { restError } from '../errors.js';
import { formatWpDate } from '../content/dates.js';
import { fieldKey, hasFlag, option, parseTemplate, type FormTag } from './parser.js';
import { message, settingOn, type FormProperties } from './properties.js';
import { passes, tagRules, type PostedFile } from './rules.js';
import { pickQuestion, quizPasses } from './quiz.js';
import { composeMail, sendMail, type MailFile, type TagValues } from './mail.js';
import { loadForm, siteInfo, type ContactFormRecord } from './store.js';
import type { FormServices } from './services.js';
import { log } from '../log.js';

export interface UploadedFile extends PostedFile {
  /** The form field it was posted under. */
  field: string;
  /** Temporary file holding the bytes. */
  path: string;
}

export interface FeedbackInput {
  /** Every posted field (`_wpcf7*` included); `name[]` values are lists. */
  fields: Record<string, unknown>;
  files: UploadedFile[];
  ip: string;
  userAgent: string;
}

export interface InvalidField { field: string; message: string; idref: string | null; error_id: string }

export interface FeedbackResult {
  contact_form_id: number;
  status: string;
  message: string;
  posted_data_hash?: string;
  into: string;
  invalid_fields: InvalidField[];
  demo_mode?: true;
}

/** The unit tag reduced to `[A-Za-z0-9_-]`; its format is not checked. */
export const reduceUnitTag = (raw: unknown): string => String(raw ?? '').replace(/[^A-Za-z0-9_-]/g, '');

/** A posted value as the rules see it: text with NULs and tags removed; lists for `name[]`. */
function cleanValue(v: unknown): string | string[] | undefined {
  const one = (s: unknown) => (typeof s === 'string' || typeof s === 'number' ? stripMarkup(String(s)) : '');
  if (v === undefined || v === null) return undefined;
  if (Array.isArray(v)) return v.map(one);
  if (typeof v === 'object') return Object.values(v as Record<string, unknown>).map(one);
  return one(v);
}

/** Submitted text keeps no markup: script and style elements go whole, other tags are removed. */
export function stripMarkup(s: string): string {
  return s.replace(/\0/g, '').replace(/<(script|style)\b[^>]*>[\s\S]*?<\/\1\s*>/gi, '').replace(/<\/?[A-Za-z!?][^>]*>?/g, '');
}

/**
 * Whether this submission goes past the limit of its form and address: a counter per key in the
 * database (RateLimit), so every process and instance on it counts the same submissions. A fixed
 * window: the first hit after `rateWindowMs` has gone by starts a new one. Two statements: the
 * increment inside the running window (an UPDATE that returns the count), else the window's start.
 */
async function overRateLimit(ctx: Context, s: FormServices, formId: number, ip: string): Promise<boolean> {
  if (s.rateLimit <= 0) return false;
  const key = `form:${formId}|${ip}`;
  const now = new Date(s.now());
  const since = new Date(now.getTime() - s.rateWindowMs);
  const counted = await ctx.prisma.rateLimit.updateMany({ where: { key, windowStart: { gt: since } }, data: { hits: { increment: 1 } } });
  if (!counted.count) {
    await ctx.prisma.rateLimit.upsert({ where: { key }, create: { key, hits: 1, windowStart: now }, update: { hits: 1, windowStart: now } });
    return 1 > s.rateLimit;
  }
  const row = await ctx.prisma.rateLimit.findUnique({ where: { key }, select: { hits: true } });
  return (row?.hits ?? 0) > s.rateLimit;
}

/** The validation of one submission: the invalid fields in template order (one message per field). */
export function validateSubmission(tags: FormTag[], props: FormProperties, posted: Map<string, string | string[] | undefined>, files: UploadedFile[], quiz: { siteKey: string; formHash: string; carried: (name: string) => string }): { tag: FormTag; message: string }[] {
  const invalid: { tag: FormTag; message: string }[] = [];
  const seen = new Set<string>();
  for (const tag of tags) {
    if (!tag.name || seen.has(tag.name)) continue;
    seen.add(tag.name);
    const value = posted.get(tag.name);
    const own = files.filter((f) => f.field === tag.name);
    const failed = tagRules(tag, props).find((r) => !passes(r, value, own));
    if (failed) { invalid.push({ tag, message: failed.error }); continue; }
    if (tag.basetype === 'quiz') {
      const given = typeof value === 'string' ? value : '';
      if (!quizPasses(tag, quiz.siteKey, quiz.formHash, given, quiz.carried(tag.name))) invalid.push({ tag, message: message(props, 'quiz_answer_not_correct') });
    }
    if (tag.basetype === 'acceptance' && settingOn(props, 'acceptance_as_validation') && !accepted(tag, value)) {
      invalid.push({ tag, message: message(props, 'accept_terms') });
    }
  }
  return invalid;
}

function accepted(tag: FormTag, value: string | string[] | undefined): boolean {
  if (hasFlag(tag, 'optional')) return true;
  const checked = (Array.isArray(value) ? value.join('') : value ?? '') !== '';
  return hasFlag(tag, 'invert') ? !checked : checked;
}

/**
 * Handles `POST …/{id}/feedback` once the body is known to be multipart: form (404), unit tag
 * (400), then the checks. `files` are temporary files; the caller removes them afterwards.
 */
export async function submitFeedback(ctx: Context, formId: number, input: FeedbackInput): Promise<FeedbackResult> {
  const form = await loadForm(ctx, formId);
  if (!form) throw restError('wpcf7_not_found', 'The requested contact form was not found.', 404);
  const unit = reduceUnitTag(input.fields._wpcf7_unit_tag);
  if (!unit) throw restError('wpcf7_unit_tag_not_found', 'There is no valid unit tag.', 400);
  const props = form.properties;
  const base = { contact_form_id: form.id, into: `#${unit}` };
  const answer = (status: string, messageKey: string, hash: string | undefined, invalid: InvalidField[] = []): FeedbackResult => {
    const r: FeedbackResult = { contact_form_id: form.id, status, message: message(props, messageKey), ...(hash === undefined ? {} : { posted_data_hash: hash }), into: base.into, invalid_fields: invalid };
    if (settingOn(props, 'demo_mode')) r.demo_mode = true;
    return r;
  };

  if (settingOn(props, 'subscribers_only') && !ctx.viewer) {
    const r: FeedbackResult = { contact_form_id: form.id, status: 'error', message: 'This contact form is available only for logged in users.', into: base.into, invalid_fields: [] };
    return r;
  }

  const tags = parseTemplate(props.form);
  const posted = new Map<string, string | string[] | undefined>();
  for (const tag of tags) if (tag.name && !posted.has(tag.name)) posted.set(tag.name, cleanValue(input.fields[tag.name]));
  const site = await ctx.site();
  const files = input.files.filter((f) => tags.some((t) => t.basetype === 'file' && t.name === f.field));

  const invalid = validateSubmission(tags, props, posted, files, {
    siteKey: site.siteKey, formHash: form.hash, carried: (name) => String(input.fields[`_wpcf7_quiz_answer_${name}`] ?? ''),
  });
  if (invalid.length) {
    return answer('validation_failed', 'validation_error', '', invalid.map(({ tag, message: m }) => ({
      field: fieldKey(tag.name), message: m, idref: option(tag, 'id') ?? null, error_id: `${unit}-ve-${fieldKey(tag.name)}`,
    })));
  }
  if (tags.some((t) => t.basetype === 'acceptance' && !accepted(t, posted.get(t.name)))) return answer('acceptance_missing', 'accept_terms', '');

  const services = ctx.services.forms;
  const honeypot = input.fields[services.honeypot];
  const spam = input.userAgent.length < 2
    || (honeypot !== undefined && String(honeypot) !== '')
    || (await overRateLimit(ctx, services, form.id, input.ip));
  if (spam) return answer('spam', 'spam', '');

  // Accepted: stored, with its files, before any mail is tried.
  const data: Record<string, string | string[]> = {};
  for (const [name, value] of posted) {
    const tag = tags.find((t) => t.name === name)!;
    if (tag.basetype === 'file') continue;
    data[name] = value ?? '';
  }
  const hash = createHash('md5').update(JSON.stringify([form.id, data, input.ip])).digest('hex');
  const containerPost = Math.max(0, Math.min(2147483647, Number.parseInt(String(input.fields._wpcf7_container_post ?? '0'), 10) || 0));
  // The row first, naming the files it is about to get, then the files (each in a folder of its
  // own): a file never exists without its committed row. A failure while copying removes the
  // files copied so far, then the row; a process killed in between leaves a row (mail pending)
  // whose files are missing, never an orphan file in the private directory.
  const kept = planFiles(files);
  const submissionId = (await ctx.prisma.formSubmission.create({
    data: {
      formId: form.id, data: JSON.stringify(data), files: JSON.stringify(kept.map(({ field, name, type, size, stored }) => ({ field, name, type, size, path: stored }))),
      postedDataHash: hash, unitTag: unit, containerPost, remoteIp: input.ip.slice(0, 100), userAgent: input.userAgent.slice(0, 500),
    },
    select: { id: true },
  })).id;
  try {
    await keepFiles(services, kept);
  } catch (err) {
    await removeFiles(services, kept);
    await ctx.prisma.formSubmission.deleteMany({ where: { id: submissionId } });
    log.error({ err, form: form.id }, 'keeping the files of a contact-form submission failed');
    throw restError('wpcf7_upload_failed', 'There was an unknown error uploading the file.', 500);
  }

  if (settingOn(props, 'skip_mail') || settingOn(props, 'demo_mode')) {
    await ctx.prisma.formSubmission.update({ where: { id: submissionId }, data: { mailStatus: 'skipped' } });
    return answer('mail_sent', 'mail_sent_ok', hash);
  }

  const values = await tagValues(ctx, form, tags, posted, files, input, containerPost, submissionId);
  const mailFiles: MailFile[] = kept.map((f) => ({ field: f.field, name: f.name, type: f.type, path: join(services.privateDir, f.stored) }));
  let error = '';
  try {
    await sendMail(services.smtpUrl, composeMail(props.mail, values, mailFiles));
    if (props.mail_2?.active) await sendMail(services.smtpUrl, composeMail(props.mail_2, values, mailFiles));
  } catch (err) {
    error = err instanceof Error ? err.message : String(err);
  }
  await ctx.prisma.formSubmission.update({ where: { id: submissionId }, data: { mailStatus: error ? 'failed' : 'sent', mailError: error.slice(0, 1000) } });
  return error ? answer('mail_failed', 'mail_sent_ng', hash) : answer('mail_sent', 'mail_sent_ok', hash);
}

type KeptFile = UploadedFile & { stored: string };

/** Where each accepted file will be kept: `<random folder>/<n>-<safe name>` under the private directory. */
function planFiles(files: UploadedFile[]): KeptFile[] {
  const folder = randomUUID();
  return files.map((f, i) => {
    const safe = basename(f.name).replace(/[^A-Za-z0-9._-]/g, '_').replace(/^\.+/, '') || 'file';
    return { ...f, stored: join(folder, `${i}-${safe}`) };
  });
}

/** Copies accepted files to their planned places in the private directory. */
async function keepFiles(s: FormServices, files: KeptFile[]): Promise<void> {
  if (!files.length) return;
  await mkdir(join(s.privateDir, dirname(files[0].stored)), { recursive: true });
  for (const f of files) await copyFile(f.path, join(s.privateDir, f.stored));
}

/** Removes a submission's folder of files (what was copied of it). */
async function removeFiles(s: FormServices, files: KeptFile[]): Promise<void> {
  if (!files.length) return;
  await rm(join(s.privateDir, dirname(files[0].stored)), { recursive: true, force: true }).catch(() => undefined);
}

async function tagValues(ctx: Context, form: ContactFormRecord, tags: FormTag[], posted: Map<string, string | string[] | undefined>, files: UploadedFile[], input: FeedbackInput, containerPost: number, serial: number): Promise<TagValues> {
  const fields: TagValues['fields'] = new Map();
  for (const tag of tags) {
    if (!tag.name || fields.has(tag.name)) continue;
    if (tag.basetype === 'file') {
      const names = files.filter((f) => f.field === tag.name).map((f) => f.name);
      fields.set(tag.name, { tag, value: names, raw: names });
      continue;
    }
    const v = posted.get(tag.name);
    const raw = v === undefined ? [] : Array.isArray(v) ? v : [v];
    // A piped value mails the part after the pipe.
    const value = raw.map((r) => tag.pipes.find(([before]) => before === r)?.[1] ?? r);
    fields.set(tag.name, { tag, value: tag.basetype === 'quiz' ? raw : value, raw });
  }
  const site = await siteInfo(ctx);
  const settings = await ctx.site();
  const admin = await ctx.prisma.user.findFirst({ where: { role: 'administrator' }, orderBy: { id: 'asc' }, select: { email: true } });
  const now = new Date();
  const post = containerPost ? await ctx.prisma.content.findUnique({ where: { id: containerPost }, select: { title: true, slug: true, status: true } }) : null;
  const published = post && post.status === 'publish' ? post : null;
  return {
    fields,
    special: {
      _site_title: site.title, _site_description: settings.description, _site_url: site.url, _site_admin_email: admin?.email ?? '',
      _remote_ip: input.ip, _user_agent: input.userAgent, _url: '', _date: formatWpDate(now).slice(0, 10), _time: formatWpDate(now).slice(11, 16),
      _post_id: published ? String(containerPost) : '', _post_name: published?.slug ?? '', _post_title: published?.title ?? '', _post_url: '',
      _serial_number: String(serial), _contact_form_title: form.title, _invalid_fields: '0',
    },
  };
}

/** `version` of the feedback schema document. */
export const SCHEMA_VERSION = 'Contact Forms SWV Schema 2024-10';

/** `GET …/feedback/schema`: the rules the submit path runs (the same `tagRules`), public. */
export async function feedbackSchema(ctx: Context, formId: number): Promise<{ version: string; locale: string; rules: ReturnType<typeof tagRules> }> {
  const form = await loadForm(ctx, formId);
  if (!form) throw restError('wpcf7_not_found', 'The requested contact form was not found.', 404);
  const tags = parseTemplate(form.properties.form);
  return { version: SCHEMA_VERSION, locale: form.locale || 'en_US', rules: tags.flatMap((t) => tagRules(t, form.properties)) };
}

/** `GET …/refill`: a fresh quiz question per quiz field (`{quiz: {name: [question, answer hash]}}`), else []. */
export async function refillData(ctx: Context, formId: number): Promise<Record<string, unknown> | []> {
  const form = await loadForm(ctx, formId);
  if (!form) throw restError('wpcf7_not_found', 'The requested contact form was not found.', 404);
  const site = await ctx.site();
  const quiz: Record<string, [string, string]> = {};
  for (const tag of parseTemplate(form.properties.form)) {
    if (tag.basetype !== 'quiz' || !tag.name) continue;
    const picked = pickQuestion(tag, site.siteKey, form.hash);
    if (picked) quiz[tag.name] = [picked.question, picked.hash];
  }
  return Object.keys(quiz).length ? { quiz } : [];
}
