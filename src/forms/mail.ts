// Mail tags (`[your-name]`, `[_raw_your-menu]`, `[_site_title]`), the configuration errors of a
// form's mail settings, and composing and sending the mail of a submission (nodemailer over SMTP).
import { escHtml } from '../content/escape.js';
import type { FormTag } from './parser.js';
import type { FormProperties, MailProperty } from './properties.js';

/** Tags every mail may use besides the form's fields. */
export const SPECIAL_TAGS = new Set([
  '_site_title', '_site_description', '_site_url', '_site_admin_email', '_remote_ip', '_user_agent', '_url', '_date', '_time',
  '_post_id', '_post_name', '_post_title', '_post_url', '_serial_number', '_contact_form_title', '_invalid_fields',
]);

const MAIL_TAG = /\[\s*(_raw_|_format_)?([A-Za-z_][-A-Za-z0-9_:.]*)(?:\s+"[^"]*")*\s*\]/g;

/** Values for replacing tags: a field's posted value (pipes applied), or a special tag's. */
export interface TagValues {
  fields: Map<string, { tag: FormTag; value: string[]; raw: string[] }>;
  special: Record<string, string>;
}

/** Replaces every mail tag it knows; others stay as written. `html` escapes the replaced values. */
export function replaceTags(text: string, v: TagValues, html = false): string {
  return text.replace(MAIL_TAG, (whole, prefix: string | undefined, name: string) => {
    let value: string | undefined;
    const field = v.fields.get(name);
    if (field) value = (prefix === '_raw_' ? field.raw : field.value).join(', ');
    else if (!prefix && name in v.special) value = v.special[name];
    if (value === undefined) return whole;
    return html ? escHtml(value).replace(/\n/g, '<br />\n') : value;
  });
}

/** The names a text uses as mail tags. */
function tagNames(text: string): string[] {
  return [...text.matchAll(MAIL_TAG)].map((m) => m[2]);
}

const MAILBOX = /^\s*(?:(?:"[^"]*"|[^<>"]*?)\s*<\s*([^<>\s]+@[^<>\s]+)\s*>|([^<>\s]+@[^<>\s]+))\s*$/;
const ADDRESS = /^[A-Za-z0-9.!#$%&'*+/=?^_`{|}~-]+@[A-Za-z0-9](?:[A-Za-z0-9-]*[A-Za-z0-9])?(?:\.[A-Za-z0-9](?:[A-Za-z0-9-]*[A-Za-z0-9])?)+$/;

/** The address of `Name <a@b.c>` or `a@b.c`; null when it is no mailbox. */
export function mailboxAddress(s: string): string | null {
  const m = MAILBOX.exec(s);
  const address = m ? m[1] ?? m[2] : null;
  return address && ADDRESS.test(address) ? address : null;
}

export type ConfigErrors = Record<string, { message: string; link: string }[]>;

/**
 * What is wrong with a form's mail settings, by property path (`mail.sender`): a sender that is
 * no mailbox, a recipient that is no list of mailboxes, a tag naming no field. Field tags in
 * addresses are read with a sample address when the field is an email field.
 */
export function configErrors(props: FormProperties, tags: FormTag[]): ConfigErrors {
  const errors: ConfigErrors = {};
  const add = (path: string, message: string) => { (errors[path] ??= []).push({ message, link: '' }); };
  const fields = new Map(tags.filter((t) => t.name).map((t) => [t.name, t]));
  const sample = (text: string) => text.replace(MAIL_TAG, (whole, prefix: string | undefined, name: string) => {
    const t = fields.get(name);
    if (t) return t.basetype === 'email' ? 'someone@example.com' : 'not an address';
    if (name === '_site_admin_email') return 'admin@example.com';
    if (name === '_site_title') return 'Site';
    return SPECIAL_TAGS.has(name) && !prefix ? 'x' : whole;
  });
  for (const key of ['mail', 'mail_2'] as const) {
    const mail = props[key] as MailProperty;
    if (!mail || (key === 'mail_2' && !mail.active)) continue;
    if (!mailboxAddress(sample(mail.sender))) add(`${key}.sender`, 'The sender is not a mailbox: write an address, or Name <address>.');
    const recipients = sample(mail.recipient).split(',').map((s) => s.trim()).filter(Boolean);
    if (!recipients.length || recipients.some((r) => !mailboxAddress(r))) add(`${key}.recipient`, 'A recipient is not a mailbox: write addresses separated by commas.');
    for (const part of ['subject', 'sender', 'recipient', 'body', 'additional_headers', 'attachments'] as const) {
      const unknown = [...new Set(tagNames(mail[part] ?? ''))].filter((n) => !fields.has(n) && !SPECIAL_TAGS.has(n));
      for (const n of unknown) add(`${key}.${part}`, `[${n}] names no field of this form.`);
    }
    for (const line of (mail.additional_headers ?? '').split(/\r?\n/)) {
      if (line.trim() && !/^[A-Za-z0-9-]+:/.test(line)) add(`${key}.additional_headers`, 'Each additional header is a line "Name: value".');
    }
  }
  return errors;
}

// ------------------------------------------------------------------ sending

export interface MailFile { field: string; name: string; type: string; path: string }

export interface ComposedMail {
  from: string;
  to: string;
  subject: string;
  text?: string;
  html?: string;
  replyTo?: string;
  cc?: string;
  bcc?: string;
  headers: Record<string, string>;
  attachments: { filename: string; path: string; contentType: string }[];
}

/** One mail of a submission, its tags replaced; files attached when `attachments` names their fields. */
export function composeMail(mail: MailProperty, v: TagValues, files: MailFile[]): ComposedMail {
  const plain = (s: string) => replaceTags(s, v).replace(/[\r\n]+/g, ' ').trim();
  let body = mail.body;
  if (mail.exclude_blank) {
    // A line whose every tag is empty is left out.
    body = body.split('\n').filter((line) => {
      const names = tagNames(line).filter((n) => v.fields.has(n));
      return !names.length || names.some((n) => v.fields.get(n)!.value.join('') !== '');
    }).join('\n');
  }
  const headers: Record<string, string> = {};
  const out: ComposedMail = {
    from: plain(mail.sender), to: plain(mail.recipient), subject: plain(mail.subject), headers, attachments: [],
  };
  if (mail.use_html) out.html = replaceTags(body, v, true);
  else out.text = replaceTags(body, v);
  for (const line of replaceTags(mail.additional_headers, v).split(/\r?\n/)) {
    const m = /^([A-Za-z0-9-]+):\s*(.*)$/.exec(line.trim());
    if (!m || !m[2]) continue;
    const name = m[1].toLowerCase();
    const value = m[2].replace(/[\r\n]+/g, ' ');
    if (name === 'reply-to') out.replyTo = value;
    else if (name === 'cc') out.cc = value;
    else if (name === 'bcc') out.bcc = value;
    else if (!['from', 'to', 'subject', 'content-type', 'mime-version', 'content-transfer-encoding'].includes(name)) headers[m[1]] = value;
  }
  const wanted = new Set(tagNames(mail.attachments));
  for (const f of files) if (wanted.has(f.field)) out.attachments.push({ filename: f.name, path: f.path, contentType: f.type || 'application/octet-stream' });
  return out;
}

/** Sends through `smtpUrl`; throws when there is none or the server refuses. */
export async function sendMail(smtpUrl: string | null, mail: ComposedMail): Promise<void> {
  if (!smtpUrl) throw new Error('no SMTP server is configured (SMTP_URL)');
  // Imported on the first mail, not at start-up: most processes never send one.
  const { default: nodemailer } = await import('nodemailer');
  const transport = nodemailer.createTransport(smtpUrl, { connectionTimeout: 10_000, greetingTimeout: 10_000, socketTimeout: 20_000 } as never);
  try {
    await transport.sendMail({
      from: mail.from, to: mail.to, subject: mail.subject, text: mail.text, html: mail.html,
      replyTo: mail.replyTo, cc: mail.cc, bcc: mail.bcc, headers: mail.headers, attachments: mail.attachments,
    });
  } finally {
    transport.close();
  }
}
