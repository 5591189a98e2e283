// The one rule list of a form: `formRules` reads it from the template's tags; the feedback
// schema route prints it and the validator (validate.ts) runs exactly it. A rule here is what
// the plugin's schema ("SWV") calls a rule: {rule, field, error, …its keys}.
import { isRequired, option, type FormTag } from './parser.js';
import { message, UNDEFINED_VALUE, type FormProperties } from './properties.js';

export type Rule =
  | { rule: 'required' | 'requiredfile' | 'email' | 'url' | 'tel' | 'number' | 'date'; field: string; error: string }
  | { rule: 'minlength' | 'maxlength' | 'minnumber' | 'maxnumber' | 'maxfilesize'; field: string; threshold: number; error: string }
  | { rule: 'mindate' | 'maxdate'; field: string; threshold: string; error: string }
  | { rule: 'enum' | 'file'; field: string; accept: string[]; error: string };

/** A text-like field without `maxlength:` may hold this many characters (a textarea more). */
export const DEFAULT_MAXLENGTH = 400;
export const DEFAULT_TEXTAREA_MAXLENGTH = 2000;
/** The largest file a file field takes without `limit:`. */
export const DEFAULT_FILE_LIMIT = 1024 * 1024;
/** The extensions a file field takes without `filetypes:`. */
export const DEFAULT_FILETYPES = ['jpg', 'jpeg', 'png', 'gif', 'pdf', 'doc', 'docx', 'ppt', 'pptx', 'odt', 'avi', 'ogg', 'm4a', 'mov', 'mp3', 'mp4', 'mpg', 'wav', 'wmv'];

const TEXT_LIKE = new Set(['text', 'email', 'url', 'tel', 'textarea']);

const int = (v: string | undefined): number | undefined => (v !== undefined && /^\d+$/.test(v) ? Number(v) : undefined);

/** `minlength:`/`maxlength:` of a text-like tag, with the default maximum. */
export function lengthLimits(tag: FormTag): { min: number | undefined; max: number | undefined } {
  if (!TEXT_LIKE.has(tag.basetype)) return { min: undefined, max: undefined };
  const min = int(option(tag, 'minlength'));
  const max = int(option(tag, 'maxlength')) ?? (tag.basetype === 'textarea' ? DEFAULT_TEXTAREA_MAXLENGTH : DEFAULT_MAXLENGTH);
  return { min, max };
}

/** `limit:2mb`, `limit:500kb`, `limit:1000` (bytes). */
export function fileLimit(tag: FormTag): number {
  const m = /^(\d+)(kb|mb)?$/i.exec(option(tag, 'limit') ?? '');
  if (!m) return DEFAULT_FILE_LIMIT;
  const unit = (m[2] ?? '').toLowerCase();
  return Number(m[1]) * (unit === 'mb' ? 1024 * 1024 : unit === 'kb' ? 1024 : 1);
}

/** `filetypes:jpg|png|audio/*` as the accept list (`.jpg`, `.png`, `audio/*`). */
export function fileAccept(tag: FormTag): string[] {
  const given = option(tag, 'filetypes');
  const types = given ? given.split('|') : DEFAULT_FILETYPES;
  const accept: string[] = [];
  for (const t of types) {
    const v = t.trim().toLowerCase();
    if (!v) continue;
    const item = v.includes('/') ? v : `.${v.replace(/^\.+/, '')}`;
    if (/^[.a-z0-9*/+-]+$/.test(item) && !accept.includes(item)) accept.push(item);
  }
  return accept;
}

const DATE = /^\d{4}-\d{2}-\d{2}$/;
const NUMBER = /^[-+]?(?:\d+\.?\d*|\.\d+)(?:e[-+]?\d+)?$/i;

/** The rules of one tag, in the order they are checked. */
export function tagRules(tag: FormTag, props: FormProperties): Rule[] {
  const field = tag.name;
  if (!field) return [];
  const msg = (key: string) => message(props, key);
  const rules: Rule[] = [];
  const b = tag.basetype;
  // A radio group always has a choice in the plugin's markup, so it is checked as required.
  if (b === 'file') {
    if (isRequired(tag)) rules.push({ rule: 'requiredfile', field, error: msg('invalid_required') });
  } else if ((isRequired(tag) || b === 'radio') && b !== 'acceptance' && b !== 'quiz' && b !== 'hidden' && b !== 'submit') {
    rules.push({ rule: 'required', field, error: msg('invalid_required') });
  }
  switch (b) {
    case 'email': case 'url': case 'tel':
      rules.push({ rule: b, field, error: msg(`invalid_${b}`) });
      break;
    case 'number': case 'range': {
      rules.push({ rule: 'number', field, error: msg('invalid_number') });
      const min = option(tag, 'min');
      const max = option(tag, 'max');
      if (min !== undefined && NUMBER.test(min)) rules.push({ rule: 'minnumber', field, threshold: Number(min), error: msg('number_too_small') });
      if (max !== undefined && NUMBER.test(max)) rules.push({ rule: 'maxnumber', field, threshold: Number(max), error: msg('number_too_large') });
      break;
    }
    case 'date': {
      rules.push({ rule: 'date', field, error: msg('invalid_date') });
      const min = option(tag, 'min');
      const max = option(tag, 'max');
      if (min !== undefined && DATE.test(min)) rules.push({ rule: 'mindate', field, threshold: min, error: msg('date_too_early') });
      if (max !== undefined && DATE.test(max)) rules.push({ rule: 'maxdate', field, threshold: max, error: msg('date_too_late') });
      break;
    }
    case 'select': case 'checkbox': case 'radio': {
      const values = tag.options.includes('first_as_label') ? tag.values.slice(1) : tag.values;
      rules.push({ rule: 'enum', field, accept: [...values], error: UNDEFINED_VALUE });
      break;
    }
    case 'file':
      rules.push({ rule: 'file', field, accept: fileAccept(tag), error: msg('upload_file_type_invalid') });
      rules.push({ rule: 'maxfilesize', field, threshold: fileLimit(tag), error: msg('upload_file_too_large') });
      break;
  }
  if (TEXT_LIKE.has(b)) {
    const { min, max } = lengthLimits(tag);
    if (min !== undefined) rules.push({ rule: 'minlength', field, threshold: min, error: msg('invalid_too_short') });
    if (max !== undefined) rules.push({ rule: 'maxlength', field, threshold: max, error: msg('invalid_too_long') });
  }
  return rules;
}

/** Every rule of the form, in template order. */
export function formRules(tags: FormTag[], props: FormProperties): Rule[] {
  return tags.flatMap((t) => tagRules(t, props));
}

// ------------------------------------------------------------------ checking one rule

/** A posted file as the rules see it. */
export interface PostedFile { name: string; size: number; type: string }
export type PostedValue = string | string[] | undefined;

const isEmail = (s: string) => /^[A-Za-z0-9.!#$%&'*+/=?^_`{|}~-]+@[A-Za-z0-9](?:[A-Za-z0-9-]*[A-Za-z0-9])?(?:\.[A-Za-z0-9](?:[A-Za-z0-9-]*[A-Za-z0-9])?)+$/.test(s) && s.length <= 254;
const isUrl = (s: string) => { if (!/^[a-z][a-z0-9+.-]*:/i.test(s)) return false; try { return !!new URL(s); } catch { return false; } };
const isTel = (s: string) => /^[+]?[0-9() -]*[0-9][0-9() -]*$/.test(s);
const isDate = (s: string) => {
  if (!DATE.test(s)) return false;
  const d = new Date(`${s}T00:00:00Z`);
  return !Number.isNaN(d.getTime()) && d.toISOString().slice(0, 10) === s;
};

const listOf = (v: PostedValue): string[] => (v === undefined ? [] : Array.isArray(v) ? v : [v]);
const nonEmpty = (v: PostedValue): string[] => listOf(v).filter((s) => s !== '');
/** Lengths count UTF-16 code units, as the plugin's script does. */
const lengthOf = (v: PostedValue): number => listOf(v).reduce((n, s) => n + s.length, 0);

/** Whether `value` (and `files`, for file rules) passes `rule`. Empty values pass every rule but required. */
export function passes(rule: Rule, value: PostedValue, files: PostedFile[]): boolean {
  const values = nonEmpty(value);
  switch (rule.rule) {
    case 'required': return values.length > 0;
    case 'requiredfile': return files.length > 0;
    case 'email': return values.every(isEmail);
    case 'url': return values.every(isUrl);
    case 'tel': return values.every(isTel);
    case 'number': return values.every((s) => NUMBER.test(s));
    case 'date': return values.every(isDate);
    case 'minnumber': return values.every((s) => !NUMBER.test(s) || Number(s) >= rule.threshold);
    case 'maxnumber': return values.every((s) => !NUMBER.test(s) || Number(s) <= rule.threshold);
    case 'mindate': return values.every((s) => !isDate(s) || s >= rule.threshold);
    case 'maxdate': return values.every((s) => !isDate(s) || s <= rule.threshold);
    case 'minlength': return values.length === 0 || lengthOf(value) >= rule.threshold;
    case 'maxlength': return values.length === 0 || lengthOf(value) <= rule.threshold;
    case 'enum': return values.every((s) => rule.accept.includes(s));
    case 'file': return files.every((f) => rule.accept.some((a) => acceptsFile(a, f)));
    case 'maxfilesize': return files.every((f) => f.size <= rule.threshold);
  }
}

function acceptsFile(accept: string, f: PostedFile): boolean {
  if (accept.startsWith('.')) return f.name.toLowerCase().endsWith(accept);
  if (accept.endsWith('/*')) return f.type.toLowerCase().startsWith(accept.slice(0, -1));
  return f.type.toLowerCase() === accept;
}
