// A contact form's properties: defaults for a new form, how a written property replaces the
// stored one (each sent property replaces that property as a whole), and how the stored JSON
// reads back.
import { parseTemplate, type FormTag } from './parser.js';

export interface MailProperty {
  active: boolean;
  subject: string;
  sender: string;
  body: string;
  recipient: string;
  additional_headers: string;
  attachments: string;
  use_html: boolean;
  exclude_blank: boolean;
}

export interface AdditionalSettings {
  content: string;
  settings: [string, string | boolean][];
}

export interface FormProperties {
  form: string;
  mail: MailProperty;
  mail_2: MailProperty;
  messages: Record<string, string>;
  additional_settings: AdditionalSettings;
  /** Other keys modules add are kept as they were written. */
  [extra: string]: unknown;
}

/** The texts a form shows; a form's own `messages` override them key by key. */
export const DEFAULT_MESSAGES: Record<string, string> = {
  mail_sent_ok: 'Thanks, your message has been sent.',
  mail_sent_ng: 'Your message could not be sent. Please try again later.',
  validation_error: 'Some fields need your attention. Please correct them and send again.',
  spam: 'Your message could not be sent. Please try again later.',
  accept_terms: 'Please accept the terms before sending your message.',
  invalid_required: 'This field is required.',
  invalid_too_long: 'This input is too long.',
  invalid_too_short: 'This input is too short.',
  upload_failed: 'The file could not be uploaded.',
  upload_file_type_invalid: 'Files of this type are not accepted.',
  upload_file_too_large: 'The file is too large.',
  upload_failed_php_error: 'The file could not be received.',
  invalid_date: 'Enter a date as YYYY-MM-DD.',
  date_too_early: 'This date is too early.',
  date_too_late: 'This date is too late.',
  invalid_number: 'Enter a number.',
  number_too_small: 'This number is too small.',
  number_too_large: 'This number is too large.',
  quiz_answer_not_correct: 'That answer is not correct.',
  invalid_email: 'Enter an email address.',
  invalid_url: 'Enter a URL.',
  invalid_tel: 'Enter a telephone number.',
};

/** The error of an `enum` rule: a value the field does not offer. */
export const UNDEFINED_VALUE = 'Undefined value was submitted through this field.';

export const DEFAULT_TEMPLATE = `<label> Your name
    [text* your-name autocomplete:name] </label>

<label> Your email
    [email* your-email autocomplete:email] </label>

<label> Subject
    [text* your-subject] </label>

<label> Your message (optional)
    [textarea your-message] </label>

[submit "Submit"]`;

export function defaultMail(siteTitle: string, siteHost: string): MailProperty {
  return {
    active: true,
    subject: `[_site_title] "[your-subject]"`,
    sender: `[_site_title] <wordpress@${siteHost}>`,
    body: `From: [your-name] [your-email]\nSubject: [your-subject]\n\nMessage Body:\n[your-message]\n\n-- \nThis message was sent from a contact form on [_site_title] ([_site_url])`,
    recipient: '[_site_admin_email]',
    additional_headers: 'Reply-To: [your-email]',
    attachments: '',
    use_html: false,
    exclude_blank: false,
  };
}

export function defaultMail2(siteHost: string): MailProperty {
  return {
    active: false,
    subject: `[_site_title] "[your-subject]"`,
    sender: `[_site_title] <wordpress@${siteHost}>`,
    body: `Message Body:\n[your-message]\n\n-- \nThis message was sent from a contact form on [_site_title] ([_site_url])`,
    recipient: '[your-email]',
    additional_headers: 'Reply-To: [_site_admin_email]',
    attachments: '',
    use_html: false,
    exclude_blank: false,
  };
}

export function defaultProperties(site: { title: string; host: string }): FormProperties {
  return {
    form: DEFAULT_TEMPLATE,
    mail: defaultMail(site.title, site.host),
    mail_2: defaultMail2(site.host),
    messages: { ...DEFAULT_MESSAGES },
    additional_settings: { content: '', settings: [] },
  };
}

const truthy = (v: unknown): boolean => v === true || v === 1 || (typeof v === 'string' && ['1', 'true', 'on', 'yes'].includes(v.toLowerCase()));
const text = (v: unknown): string => (typeof v === 'string' ? v : typeof v === 'number' || typeof v === 'boolean' ? String(v) : '');

/** A `mail` object as written: keys left out become ''/false; sending one makes it active (mail, not mail_2). */
export function mailFrom(input: unknown, forceActive: boolean): MailProperty {
  const o = input && typeof input === 'object' ? (input as Record<string, unknown>) : {};
  return {
    active: forceActive || truthy(o.active),
    subject: text(o.subject),
    sender: text(o.sender),
    body: text(o.body),
    recipient: text(o.recipient),
    additional_headers: text(o.additional_headers),
    attachments: text(o.attachments),
    use_html: truthy(o.use_html),
    exclude_blank: truthy(o.exclude_blank),
  };
}

/** `name: value` lines; `on`/`true` read as true and `off`/`false` as false. */
export function parseAdditionalSettings(content: string): AdditionalSettings {
  const settings: [string, string | boolean][] = [];
  for (const line of content.split(/\r?\n/)) {
    const m = /^\s*([A-Za-z][0-9A-Za-z_]*)\s*:(.*)$/.exec(line);
    if (!m) continue;
    const raw = m[2].trim().replace(/^(["'])(.*)\1$/, '$2');
    const lower = raw.toLowerCase();
    settings.push([m[1], lower === 'on' || lower === 'true' ? true : lower === 'off' || lower === 'false' ? false : raw]);
  }
  return { content, settings };
}

export function additionalSettingsFrom(input: unknown): AdditionalSettings {
  if (typeof input === 'string') return parseAdditionalSettings(input);
  const o = input && typeof input === 'object' ? (input as Record<string, unknown>) : {};
  return parseAdditionalSettings(text(o.content));
}

/** The last value of an additional setting (`skip_mail`, `demo_mode` …). */
export function setting(props: FormProperties, name: string): string | boolean | undefined {
  let value: string | boolean | undefined;
  for (const [k, v] of props.additional_settings.settings) if (k === name) value = v;
  return value;
}

export const settingOn = (props: FormProperties, name: string): boolean => setting(props, name) === true;

/** The form's text for `key`: its own, else the default. */
export function message(props: FormProperties, key: string): string {
  const own = props.messages[key];
  return typeof own === 'string' && own !== '' ? own : (DEFAULT_MESSAGES[key] ?? '');
}

/** Stored JSON (everything but the template) → properties; missing keys read as defaults. */
export function readProperties(template: string, json: string, site: { title: string; host: string }): FormProperties {
  let stored: Record<string, unknown> = {};
  try { stored = JSON.parse(json) as Record<string, unknown>; } catch { /* a damaged row reads as defaults */ }
  const d = defaultProperties(site);
  return {
    ...stored,
    form: template,
    mail: (stored.mail as MailProperty) ?? d.mail,
    mail_2: (stored.mail_2 as MailProperty) ?? d.mail_2,
    messages: { ...DEFAULT_MESSAGES, ...((stored.messages as Record<string, string>) ?? {}) },
    additional_settings: (stored.additional_settings as AdditionalSettings) ?? d.additional_settings,
  };
}

/** Properties → the stored JSON (the template is its own column). */
export function storedJson(props: FormProperties): string {
  const { form: _form, ...rest } = props;
  return JSON.stringify(rest);
}

/** The fields of the record's `properties.form`. */
export function formFields(template: string): FormTag[] {
  return parseTemplate(template);
}
