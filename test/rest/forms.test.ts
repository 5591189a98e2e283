// forms/v1: contact forms per role, dry runs and context=save, feedback for every field type,
// mail through a real SMTP server on loopback, stored submissions and their files, the feedback
// schema against the submit path, escaping, the shortcode in post content, and query counts.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { AddressInfo } from 'node:net';
import { SMTPServer } from 'smtp-server';
import { API, createTestSite, service, type As, type TestSite } from '../helpers/app.js';

interface Received { from: string; to: string[]; raw: string }

let site: TestSite;
let smtp: SMTPServer;
let smtpPort = 0;
const inbox: Received[] = [];
let files = '';

const TEMPLATE = `<label>Name [text* your-name id:the-name maxlength:20]</label>
[email* your-email] [url site] [tel phone] [number* n min:1 max:10] [date d min:2020-01-01 max:2030-12-31]
[textarea msg minlength:3] [select* menu "Red|red-team" "Blue"] [checkbox cb "a" "b"] [radio r "x" "y"]
[file up limit:100 filetypes:txt] [quiz q "One plus one?|2"] [acceptance ok] I agree [/acceptance] [submit "Send"]`;

const MAIL = {
  subject: 'Hello from [your-name]', sender: 'Site <site@example.com>', recipient: 'owner@example.com, [your-email]',
  body: 'Name: [your-name]\nMenu: [menu]\nRaw: [_raw_menu]', attachments: '[up]', additional_headers: 'Reply-To: [your-email]',
};

async function createForm(body: Record<string, unknown>, as: As = 'administrator'): Promise<any> {
  const res = await site.req('POST', '/forms/v1/contact-forms?context=save', { as, json: body });
  expect(res.status, res.text).toBe(200);
  return res.body;
}

function formData(fields: Record<string, string | string[]>, extra: { files?: [string, string, string][] } = {}): FormData {
  const fd = new FormData();
  for (const [k, v] of Object.entries(fields)) for (const one of Array.isArray(v) ? v : [v]) fd.append(k, one);
  for (const [field, name, content] of extra.files ?? []) fd.append(field, new File([content], name, { type: 'text/plain' }));
  return fd;
}

async function quizHash(id: number): Promise<string> {
  const res = await site.req('GET', `/forms/v1/contact-forms/${id}/refill`);
  expect(res.status).toBe(200);
  return res.body.quiz.q[1];
}

async function valid(id: number): Promise<Record<string, string | string[]>> {
  return {
    _wpcf7: String(id), _wpcf7_unit_tag: `wpcf7-f${id}-p0-o1`, _wpcf7_container_post: '0', _wpcf7_quiz_answer_q: await quizHash(id),
    'your-name': 'Ann', 'your-email': 'ann@example.net', site: 'https://example.org/', phone: '+1 (555) 010-0000', n: '5', d: '2024-02-29',
    msg: 'Hello there', menu: 'Red', 'cb[]': ['a', 'b'], r: 'x', q: ' 2 ', ok: '1',
  };
}

const feedback = (id: number, body: FormData, ua = 'test-agent/1.0') =>
  site.req('POST', `/forms/v1/contact-forms/${id}/feedback`, { body, headers: { 'user-agent': ua } });

beforeAll(async () => {
  smtp = new SMTPServer({
    authOptional: true, disabledCommands: ['STARTTLS'], logger: false,
    onData(stream, session, done) {
      const chunks: Buffer[] = [];
      stream.on('data', (c: Buffer) => chunks.push(c));
      stream.on('end', () => {
        inbox.push({ from: session.envelope.mailFrom ? session.envelope.mailFrom.address : '', to: session.envelope.rcptTo.map((r) => r.address), raw: Buffer.concat(chunks).toString('utf8') });
        done();
      });
    },
  });
  await new Promise<void>((resolve) => smtp.listen(0, '127.0.0.1', () => resolve()));
  smtpPort = (smtp.server.address() as AddressInfo).port;
  files = mkdtempSync(join(tmpdir(), 'form-files-'));
  site = await createTestSite({ smtpUrl: `smtp://127.0.0.1:${smtpPort}`, formFilesDir: files, formRateLimit: 1000 });
});
afterAll(async () => {
  await site?.close();
  await new Promise<void>((resolve) => smtp.close(() => resolve()));
  if (files) rmSync(files, { recursive: true, force: true });
});

describe('contact forms: records and permissions', () => {
  it('lists for contributors and up; 403 wpcf7_forbidden for subscribers and anonymous callers', async () => {
    await createForm({ title: 'Listed form' });
    for (const who of ['administrator', 'editor', 'author', 'contributor'] as const) {
      const res = await site.req('GET', '/forms/v1/contact-forms', { as: who });
      expect(res.status).toBe(200);
      expect(Object.keys(res.body[0]).sort()).toEqual(['hash', 'id', 'locale', 'slug', 'title']);
      expect(res.body[0].hash).toMatch(/^[0-9a-f]{7}$/);
      expect(res.headers.get('x-wp-total')).toBeNull();
    }
    for (const who of ['subscriber', undefined] as const) {
      const res = await site.req('GET', '/forms/v1/contact-forms', { as: who });
      expect([res.status, res.body.code]).toEqual([403, 'wpcf7_forbidden']);
    }
  });

  it('reads one form for editors only, checking the right before the lookup', async () => {
    const form = await createForm({ title: 'Read me' });
    const res = await site.req('GET', `/forms/v1/contact-forms/${form.id}`, { as: 'editor' });
    expect(res.status).toBe(200);
    expect(Object.keys(res.body)).toEqual(['id', 'slug', 'title', 'locale', 'properties']);
    expect(res.body.slug).toBe('read-me');
    expect(res.body.properties.form.fields.map((f: any) => f.name)).toEqual(['your-name', 'your-email', 'your-subject', 'your-message', '']);
    expect(res.body.properties.messages.mail_sent_ok).toBeTruthy();
    for (const who of ['contributor', 'author', 'subscriber', undefined] as const) {
      const r = await site.req('GET', `/forms/v1/contact-forms/${form.id}`, { as: who });
      expect([r.status, r.body.code]).toEqual([403, 'wpcf7_forbidden']);
      const unknown = await site.req('GET', '/forms/v1/contact-forms/999999', { as: who });
      expect([unknown.status, unknown.body.code]).toEqual([403, 'wpcf7_forbidden']);
    }
    const missing = await site.req('GET', '/forms/v1/contact-forms/999999', { as: 'editor' });
    expect([missing.status, missing.body.code]).toEqual([404, 'wpcf7_not_found']);
    const letters = await site.req('GET', '/forms/v1/contact-forms/abc', { as: 'editor' });
    expect([letters.status, letters.body.code]).toEqual([404, 'rest_no_route']);
  });

  it('creates and updates as dry runs unless context=save', async () => {
    const before = await site.db.prisma.contactForm.count();
    const dry = await site.req('POST', '/forms/v1/contact-forms', { as: 'editor', json: { title: 'Dry', form: '[text* a] [submit]' } });
    expect(dry.status).toBe(200);
    expect(dry.body).toMatchObject({ id: null, slug: null, title: 'Dry', config_errors: expect.anything() });
    expect(await site.db.prisma.contactForm.count()).toBe(before);
    const saved = await createForm({ title: 'Saved <b>form</b>', form: '[text* a] [submit]', mail: { sender: 'not an address', recipient: 'x@example.com', subject: '[a] [nope]', body: 'b' } }, 'editor');
    expect(saved.id).toBeGreaterThan(0);
    expect(saved.title).toBe('Saved form');
    expect(saved.properties.mail.active).toBe(true);
    expect(saved.properties.mail.use_html).toBe(false);
    expect(saved.config_errors['mail.sender'][0]).toMatchObject({ message: expect.any(String), link: '' });
    expect(saved.config_errors['mail.subject'][0].message).toContain('[nope]');
    expect(await site.db.prisma.contactForm.count()).toBe(before + 1);

    const dryUpdate = await site.req('POST', `/forms/v1/contact-forms/${saved.id}`, { as: 'editor', json: { title: 'Changed', context: 'dry-run' } });
    expect([dryUpdate.status, dryUpdate.body.title]).toEqual([200, 'Changed']);
    expect((await site.req('GET', `/forms/v1/contact-forms/${saved.id}`, { as: 'editor' })).body.title).toBe('Saved form');
    // Multipart with bracketed names, as the plugin's admin screen posts.
    const fd = formData({ context: 'save', title: 'Multipart', 'mail[sender]': 'Me <me@example.com>', 'mail[recipient]': 'you@example.com', 'mail[subject]': 's', 'mail[body]': 'b', 'messages[mail_sent_ok]': 'Got it' });
    const mp = await site.req('PATCH', `/forms/v1/contact-forms/${saved.id}`, { as: 'editor', body: fd });
    expect(mp.status, mp.text).toBe(200);
    expect(mp.body.config_errors).toEqual([]);
    expect(mp.body.properties.messages).toEqual({ mail_sent_ok: 'Got it' });
    const read = (await site.req('GET', `/forms/v1/contact-forms/${saved.id}`, { as: 'editor' })).body;
    expect(read.title).toBe('Multipart');
    expect(read.properties.messages.mail_sent_ok).toBe('Got it');
    expect(read.properties.messages.validation_error).toBeTruthy();
    // urlencoded too
    const ue = await site.req('POST', `/forms/v1/contact-forms/${saved.id}`, { as: 'editor', body: 'context=save&additional_settings=skip_mail%3A%20on', headers: { 'content-type': 'application/x-www-form-urlencoded' } });
    expect(ue.body.properties.additional_settings).toEqual({ content: 'skip_mail: on', settings: [['skip_mail', true]] });

    const exists = await site.req('POST', '/forms/v1/contact-forms', { as: 'editor', json: { id: saved.id } });
    expect([exists.status, exists.body.code]).toEqual([400, 'wpcf7_post_exists']);
    const authorCreate = await site.req('POST', '/forms/v1/contact-forms?context=save', { as: 'author', json: { title: 'x' } });
    expect([authorCreate.status, authorCreate.body.code]).toEqual([403, 'wpcf7_forbidden']);
    const badJson = await site.req('POST', '/forms/v1/contact-forms', { as: 'editor', body: '{bad', headers: { 'content-type': 'application/json' } });
    expect([badJson.status, badJson.body.code]).toEqual([400, 'rest_invalid_json']);

    const del = await site.req('DELETE', `/forms/v1/contact-forms/${saved.id}`, { as: 'editor' });
    expect([del.status, del.body]).toEqual([200, { deleted: true }]);
    const again = await site.req('DELETE', `/forms/v1/contact-forms/${saved.id}`, { as: 'editor' });
    expect([again.status, again.body.code]).toEqual([404, 'wpcf7_not_found']);
    const authorDel = await site.req('DELETE', `/forms/v1/contact-forms/999999`, { as: 'author' });
    expect([authorDel.status, authorDel.body.code]).toEqual([403, 'wpcf7_forbidden']);
  });

  it('parses every tag type with options, quoted values and pipes', async () => {
    const form = await createForm({ title: 'All tags', form: TEMPLATE, mail: MAIL });
    const fields = form.properties.form.fields;
    expect(fields.map((f: any) => f.type)).toEqual(['text*', 'email*', 'url', 'tel', 'number*', 'date', 'textarea', 'select*', 'checkbox', 'radio', 'file', 'quiz', 'acceptance', 'submit']);
    expect(fields[0]).toEqual({ type: 'text*', basetype: 'text', name: 'your-name', options: ['id:the-name', 'maxlength:20'], raw_values: [], labels: [], values: [], pipes: [], content: '' });
    expect(fields[7].pipes).toEqual([['Red', 'red-team'], ['Blue', 'Blue']]);
    expect(fields[7].values).toEqual(['Red', 'Blue']);
    expect(fields[12].content).toBe('I agree');
    expect(fields[13].name).toBe('');
    expect(form.config_errors).toEqual([]);
  });
});

describe('feedback', () => {
  let id = 0;
  beforeAll(async () => { id = (await createForm({ title: 'Feedback', form: TEMPLATE, mail: MAIL })).id; });

  it('refuses a body that is not multipart with 415 (even for an unknown form), then 404, then the unit tag', async () => {
    const json = await site.req('POST', `/forms/v1/contact-forms/${id}/feedback`, { json: { a: 1 } });
    expect([json.status, json.body.code]).toEqual([415, 'wpcf7_unsupported_media_type']);
    const unknownJson = await site.req('POST', '/forms/v1/contact-forms/999999/feedback', { body: 'a=1', headers: { 'content-type': 'application/x-www-form-urlencoded' } });
    expect([unknownJson.status, unknownJson.body.code]).toEqual([415, 'wpcf7_unsupported_media_type']);
    const badJson = await site.req('POST', `/forms/v1/contact-forms/${id}/feedback`, { body: '{', headers: { 'content-type': 'application/json' } });
    expect([badJson.status, badJson.body.code]).toEqual([400, 'rest_invalid_json']);
    const unknown = await feedback(999999, formData({ _wpcf7_unit_tag: 'wpcf7-f1-p0-o1' }));
    expect([unknown.status, unknown.body.code]).toEqual([404, 'wpcf7_not_found']);
    const noTag = await feedback(id, formData({ _wpcf7_unit_tag: '<>!' }));
    expect([noTag.status, noTag.body.code]).toEqual([400, 'wpcf7_unit_tag_not_found']);
  });

  it('sends the mail through SMTP with the right recipient, subject, body and attachment, and stores the submission first', async () => {
    inbox.length = 0;
    const res = await feedback(id, formData(await valid(id), { files: [['up', 'note.txt', 'file body']] }));
    expect(res.status).toBe(200);
    expect(Object.keys(res.body)).toEqual(['contact_form_id', 'status', 'message', 'posted_data_hash', 'into', 'invalid_fields']);
    expect(res.body).toMatchObject({ contact_form_id: id, status: 'mail_sent', into: `#wpcf7-f${id}-p0-o1`, invalid_fields: [] });
    expect(res.body.posted_data_hash).toMatch(/^[0-9a-f]{32}$/);
    expect(inbox).toHaveLength(1);
    expect(inbox[0].to.sort()).toEqual(['ann@example.net', 'owner@example.com']);
    expect(inbox[0].from).toBe('site@example.com');
    expect(inbox[0].raw).toContain('Subject: Hello from Ann');
    expect(inbox[0].raw).toContain('Name: Ann');
    expect(inbox[0].raw).toContain('Menu: red-team');
    expect(inbox[0].raw).toContain('Raw: Red');
    expect(inbox[0].raw).toContain('filename=note.txt');
    expect(inbox[0].raw).toContain(Buffer.from('file body').toString('base64'));
    const stored = await site.db.prisma.formSubmission.findFirst({ where: { formId: id }, orderBy: { id: 'desc' } });
    expect(stored).toMatchObject({ mailStatus: 'sent', postedDataHash: res.body.posted_data_hash });
    expect(JSON.parse(stored!.data)).toMatchObject({ 'your-name': 'Ann', cb: ['a', 'b'] });
  });

  const cases: [string, Record<string, string | string[] | undefined>, string, string][] = [
    ['required text', { 'your-name': '' }, 'your-name', 'invalid_required'],
    ['too long text', { 'your-name': 'x'.repeat(21) }, 'your-name', 'invalid_too_long'],
    ['email', { 'your-email': 'not-an-email' }, 'your-email', 'invalid_email'],
    ['url', { site: 'example' }, 'site', 'invalid_url'],
    ['tel', { phone: 'call me' }, 'phone', 'invalid_tel'],
    ['number', { n: 'five' }, 'n', 'invalid_number'],
    ['number min', { n: '0' }, 'n', 'number_too_small'],
    ['number max', { n: '11' }, 'n', 'number_too_large'],
    ['date', { d: '2024-02-30' }, 'd', 'invalid_date'],
    ['date min', { d: '2019-12-31' }, 'd', 'date_too_early'],
    ['date max', { d: '2031-01-01' }, 'd', 'date_too_late'],
    ['textarea minlength', { msg: 'hi' }, 'msg', 'invalid_too_short'],
    ['textarea default maxlength 2000', { msg: 'x'.repeat(2001) }, 'msg', 'invalid_too_long'],
    ['select enum', { menu: 'Green' }, 'menu', 'enum'],
    ['select required', { menu: undefined }, 'menu', 'invalid_required'],
    ['checkbox enum', { 'cb[]': ['a', 'zzz'] }, 'cb', 'enum'],
    ['radio required', { r: undefined }, 'r', 'invalid_required'],
    ['radio enum', { r: 'z' }, 'r', 'enum'],
    ['quiz', { q: '3' }, 'q', 'quiz_answer_not_correct'],
  ];
  for (const [label, change, field, key] of cases) {
    it(`rejects ${label}`, async () => {
      const fields = await valid(id);
      for (const [k, v] of Object.entries(change)) { if (v === undefined) delete fields[k]; else fields[k] = v; }
      const res = await feedback(id, formData(fields));
      expect(res.status).toBe(200);
      expect(res.body.status).toBe('validation_failed');
      expect(res.body.posted_data_hash).toBe('');
      const form = (await site.req('GET', `/forms/v1/contact-forms/${id}`, { as: 'editor' })).body;
      expect(res.body.message).toBe(form.properties.messages.validation_error);
      expect(res.body.invalid_fields).toHaveLength(1);
      const message = key === 'enum' ? 'Undefined value was submitted through this field.' : form.properties.messages[key];
      expect(res.body.invalid_fields[0]).toEqual({ field, message, idref: field === 'your-name' ? 'the-name' : null, error_id: `wpcf7-f${id}-p0-o1-ve-${field}` });
    });
  }

  it('rejects files of another type or over the limit, and a default text maxlength of 400', async () => {
    const type = await feedback(id, formData(await valid(id), { files: [['up', 'x.exe', 'x']] }));
    expect(type.body.invalid_fields.map((f: any) => f.field)).toEqual(['up']);
    const big = await feedback(id, formData(await valid(id), { files: [['up', 'x.txt', 'x'.repeat(101)]] }));
    expect(big.body.invalid_fields[0].message).toBe((await site.req('GET', `/forms/v1/contact-forms/${id}`, { as: 'editor' })).body.properties.messages.upload_file_too_large);
    const form = await createForm({ title: 'Default max', form: '[text t] [email e]', mail: { sender: 'a@example.com', recipient: 'b@example.com', subject: 's', body: 'b' } });
    const long = await feedback(form.id, formData({ _wpcf7_unit_tag: 'u1', t: 'x'.repeat(401), e: 'a@b.co' }));
    expect(long.body.invalid_fields.map((f: any) => f.field)).toEqual(['t']);
    const ok = await feedback(form.id, formData({ _wpcf7_unit_tag: 'u1', t: 'x'.repeat(400) }));
    expect(ok.body.status).toBe('mail_sent');
  });

  it('checks acceptance after validation, then spam (user agent, honeypot)', async () => {
    const both = await valid(id);
    delete both.ok;
    both['your-email'] = 'bad';
    const invalidFirst = await feedback(id, formData(both));
    expect(invalidFirst.body.status).toBe('validation_failed');
    expect(invalidFirst.body.invalid_fields.map((f: any) => f.field)).toEqual(['your-email']);
    const unaccepted = await valid(id);
    delete unaccepted.ok;
    const acc = await feedback(id, formData(unaccepted));
    expect([acc.body.status, acc.body.posted_data_hash, acc.body.invalid_fields]).toEqual(['acceptance_missing', '', []]);
    const ua = await feedback(id, formData(await valid(id)), 'x');
    expect([ua.body.status, ua.body.posted_data_hash]).toEqual(['spam', '']);
    const hp = await feedback(id, formData({ ...(await valid(id)), _wpcf7_hp: 'bot' }));
    expect(hp.body.status).toBe('spam');
  });

  it('skip_mail and demo_mode answer mail_sent without sending; demo_mode adds demo_mode: true', async () => {
    inbox.length = 0;
    const base = { form: '[text* a]', mail: { sender: 'a@example.com', recipient: 'b@example.com', subject: 's', body: '[a]' } };
    const skip = await createForm({ title: 'Skip', ...base, additional_settings: 'skip_mail: on' });
    const demo = await createForm({ title: 'Demo', ...base, additional_settings: 'demo_mode: on' });
    const s = await feedback(skip.id, formData({ _wpcf7_unit_tag: 'u', a: 'x' }));
    expect(s.body.status).toBe('mail_sent');
    expect(s.body.demo_mode).toBeUndefined();
    const d = await feedback(demo.id, formData({ _wpcf7_unit_tag: 'u', a: 'x' }));
    expect([d.body.status, d.body.demo_mode]).toEqual(['mail_sent', true]);
    expect(inbox).toHaveLength(0);
    expect(await site.db.prisma.formSubmission.count({ where: { formId: { in: [skip.id, demo.id] }, mailStatus: 'skipped' } })).toBe(2);
  });

  it('serves the rules the submit path enforces', async () => {
    const res = await site.req('GET', `/forms/v1/contact-forms/${id}/feedback/schema`);
    expect(res.status).toBe(200);
    expect(Object.keys(res.body)).toEqual(['version', 'locale', 'rules']);
    const gql = await site.gql('query($id: Int!) { contactForm(id: $id) { rules } }', { id }, { as: 'editor' });
    expect(res.body.rules).toEqual(gql.data.contactForm.rules);
    const byField = (f: string) => res.body.rules.filter((r: any) => r.field === f).map((r: any) => r.rule);
    expect(byField('your-name')).toEqual(['required', 'maxlength']);
    expect(byField('your-email')).toEqual(['required', 'email', 'maxlength']);
    expect(byField('msg')).toEqual(['minlength', 'maxlength']);
    expect(res.body.rules.find((r: any) => r.field === 'msg' && r.rule === 'maxlength').threshold).toBe(2000);
    expect(res.body.rules.find((r: any) => r.rule === 'enum' && r.field === 'menu').accept).toEqual(['Red', 'Blue']);
    expect(byField('ok')).toEqual([]);
    // Each rule, broken alone, is what the submit path reports for that field.
    const plainText = (f: string) => ['your-name', 'msg'].includes(f);
    for (const rule of res.body.rules.filter((r: any) => r.rule === 'enum' || r.rule === 'email' || (r.rule === 'maxlength' && plainText(r.field)))) {
      const fields = await valid(id);
      const key = rule.field === 'cb' ? 'cb[]' : rule.field;
      fields[key] = rule.rule === 'enum' ? 'not-offered' : rule.rule === 'email' ? 'nope' : 'x'.repeat(rule.threshold + 1);
      const out = await feedback(id, formData(fields));
      expect(out.body.invalid_fields, JSON.stringify(rule)).toEqual([expect.objectContaining({ field: rule.field, message: rule.error })]);
    }
    const refill = await site.req('GET', `/forms/v1/contact-forms/${id}/refill`);
    expect(refill.body.quiz.q[0]).toBe('One plus one?');
    const plain = await createForm({ title: 'No quiz', form: '[text a]' });
    expect((await site.req('GET', `/forms/v1/contact-forms/${plain.id}/refill`)).body).toEqual([]);
  });
});

describe('mail failures and submissions', () => {
  it('stores the submission with its files when the SMTP server is down, and answers mail_failed', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'form-files-down-'));
    const down = await createTestSite({ smtpUrl: 'smtp://127.0.0.1:1', formFilesDir: dir, formRateLimit: 1000 });
    try {
      const made = await down.req('POST', '/forms/v1/contact-forms?context=save', { as: 'administrator', json: { title: 'Down', form: '[text* a] [file f filetypes:txt]', mail: { sender: 'a@example.com', recipient: 'b@example.com', subject: 's', body: '[a]', attachments: '[f]' } } });
      const fd = formData({ _wpcf7_unit_tag: 'u', a: 'kept' }, { files: [['f', 'keep.txt', 'keep me']] });
      const res = await down.req('POST', `/forms/v1/contact-forms/${made.body.id}/feedback`, { body: fd, headers: { 'user-agent': 'agent' } });
      expect(res.body.status).toBe('mail_failed');
      expect(res.body.message).toBe(made.body.properties.messages.mail_sent_ng);
      expect(res.body.posted_data_hash).toMatch(/^[0-9a-f]{32}$/);
      const list = await down.req('GET', `/forms/v1/contact-forms/${made.body.id}/submissions`, { as: 'editor' });
      expect(list.status).toBe(200);
      expect(list.headers.get('x-wp-total')).toBe('1');
      expect(list.body[0]).toMatchObject({ mail_status: 'failed', data: { a: 'kept' }, files: [{ field: 'f', name: 'keep.txt', type: 'text/plain', size: 7 }] });
      expect(list.body[0].files[0].path).toBeUndefined();
      const folders = readdirSync(dir);
      expect(folders).toHaveLength(1);
      expect(readdirSync(join(dir, folders[0]))).toEqual(['0-keep.txt']);
      // With no SMTP configured at all: stored, mail_failed.
      const none = await createTestSite({ smtpUrl: null, formFilesDir: dir });
      try {
        const m = await none.req('POST', '/forms/v1/contact-forms?context=save', { as: 'administrator', json: { title: 'None', form: '[text a]', mail: { sender: 'a@example.com', recipient: 'b@example.com', subject: 's', body: 'b' } } });
        const r = await none.req('POST', `/forms/v1/contact-forms/${m.body.id}/feedback`, { body: formData({ _wpcf7_unit_tag: 'u' }), headers: { 'user-agent': 'agent' } });
        expect(r.body.status).toBe('mail_failed');
        expect(await none.db.prisma.formSubmission.count({ where: { formId: m.body.id, mailStatus: 'failed' } })).toBe(1);
      } finally { await none.close(); }
    } finally {
      await down.close();
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('limits submissions per address and form', async () => {
    const limited = await createTestSite({ smtpUrl: null, formFilesDir: files, formRateLimit: 2 });
    try {
      const m = await limited.req('POST', '/forms/v1/contact-forms?context=save', { as: 'administrator', json: { title: 'Limited', form: '[text a]', additional_settings: 'skip_mail: on' } });
      const statuses: string[] = [];
      for (let i = 0; i < 3; i++) statuses.push((await limited.req('POST', `/forms/v1/contact-forms/${m.body.id}/feedback`, { body: formData({ _wpcf7_unit_tag: 'u' }), headers: { 'user-agent': 'agent' } })).body.status);
      expect(statuses).toEqual(['mail_sent', 'mail_sent', 'spam']);
    } finally { await limited.close(); }
  });

  it('shares the limit between every app on the database, and opens a new window once the last has gone by', async () => {
    const limited = await createTestSite({ smtpUrl: null, formFilesDir: files, formRateLimit: 2 });
    // A second app over the same database, as a second process or instance would run.
    const db = await service.openDb(limited.app.config.databaseUrl);
    const other = service.createApp({ ...limited.app.config, webhookDispatch: false }, db);
    try {
      const m = await limited.req('POST', '/forms/v1/contact-forms?context=save', { as: 'administrator', json: { title: 'Shared', form: '[text a]', additional_settings: 'skip_mail: on' } });
      const through = async (app: typeof other) => {
        const res = await app.fetch(new Request(`${API}/forms/v1/contact-forms/${m.body.id}/feedback`, { method: 'POST', body: formData({ _wpcf7_unit_tag: 'u' }), headers: { 'user-agent': 'agent' } }), '198.51.100.7');
        return (await res.json()).status as string;
      };
      expect([await through(limited.app), await through(other), await through(other), await through(limited.app)]).toEqual(['mail_sent', 'mail_sent', 'spam', 'spam']);
      // Another form from the same address has a counter of its own.
      const n = await limited.req('POST', '/forms/v1/contact-forms?context=save', { as: 'administrator', json: { title: 'Other', form: '[text a]', additional_settings: 'skip_mail: on' } });
      expect((await (await other.fetch(new Request(`${API}/forms/v1/contact-forms/${n.body.id}/feedback`, { method: 'POST', body: formData({ _wpcf7_unit_tag: 'u' }), headers: { 'user-agent': 'agent' } }), '198.51.100.7')).json()).status).toBe('mail_sent');
      // The window is the forms' clock's: moved past it, the address may send again.
      const start = Date.now();
      limited.db.services!.forms.now = () => start + 61_000;
      expect(await through(limited.app)).toBe('mail_sent');
      expect(await through(limited.app)).toBe('mail_sent');
      expect(await through(limited.app)).toBe('spam');
    } finally { await db.close(); await limited.close(); }
  });

  it('lets editors read submissions (REST and GraphQL), not authors', async () => {
    const form = await createForm({ title: 'Subs', form: '[text a]', additional_settings: 'skip_mail: on' });
    for (let i = 0; i < 3; i++) await feedback(form.id, formData({ _wpcf7_unit_tag: 'u', a: `v${i}` }));
    const page = await site.req('GET', `/forms/v1/contact-forms/${form.id}/submissions?per_page=2`, { as: 'editor' });
    expect([page.status, page.headers.get('x-wp-total'), page.headers.get('x-wp-totalpages')]).toEqual([200, '3', '2']);
    expect(page.body.map((s: any) => s.data.a)).toEqual(['v2', 'v1']);
    const author = await site.req('GET', `/forms/v1/contact-forms/${form.id}/submissions`, { as: 'author' });
    expect([author.status, author.body.code]).toEqual([403, 'wpcf7_forbidden']);
    const gql = await site.gql('query($id: Int!) { contactForm(id: $id) { title submissions(perPage: 5) { total nodes { data mailStatus } } } }', { id: form.id }, { as: 'editor' });
    expect(gql.data.contactForm.submissions.total).toBe(3);
    expect(gql.data.contactForm.submissions.nodes[0]).toEqual({ data: { a: 'v2' }, mailStatus: 'skipped' });
    const refused = await site.gql('query($id: Int!) { contactForm(id: $id) { title } }', { id: form.id }, { as: 'author' });
    expect(refused.errors?.[0].extensions).toMatchObject({ code: 'wpcf7_forbidden', status: 403 });
  });

  it('saves forms through GraphQL mutations', async () => {
    const created = await site.gql('mutation { createContactForm(input: { title: "GQL", form: "[text* a]" }) { databaseId slug saved configErrors } }', {}, { as: 'editor' });
    expect(created.data.createContactForm).toMatchObject({ slug: 'gql', saved: true });
    const dry = await site.gql('mutation($id: Int!) { updateContactForm(id: $id, input: { title: "Other" }, save: false) { title saved } }', { id: created.data.createContactForm.databaseId }, { as: 'editor' });
    expect(dry.data.updateContactForm).toEqual({ title: 'Other', saved: false });
    const list = await site.gql('{ contactForms { title } }', {}, { as: 'contributor' });
    expect(list.data.contactForms.map((f: any) => f.title)).toContain('GQL');
  });
});

describe('escaping, HTML and the shortcode', () => {
  it('neutralises script in tag values (HTML), titles and submitted data', async () => {
    const form = await createForm({ title: '<script>alert(1)</script>Evil', form: '[text a "<script>alert(2)</script>"] [select s "<img src=x onerror=alert(3)>"] [submit "\\"><script>x</script>"]', additional_settings: 'skip_mail: on' });
    expect(form.title).toBe('Evil');
    const post = await site.createPost({ title: 'Has form', status: 'publish', content: `<p>Before</p>\n[contact-form-7 id="${form.id}" title="x"]\n<p>After</p>` });
    const html = post.content.rendered as string;
    expect(html).toContain(`id="wpcf7-f${form.id}-p${post.id}-o1"`);
    expect(html).not.toMatch(/<script>alert/);
    expect(html).not.toMatch(/<img src=x/);
    expect(html).toContain('&lt;script&gt;alert(2)&lt;/script&gt;');
    const sent = await feedback(form.id, formData({ _wpcf7_unit_tag: 'u', a: '<script>alert(4)</script>hi <b>there</b>' }));
    expect(sent.body.status).toBe('mail_sent');
    const subs = await site.req('GET', `/forms/v1/contact-forms/${form.id}/submissions`, { as: 'editor' });
    expect(subs.body[0].data.a).toBe('hi there');
    const list = await site.req('GET', '/forms/v1/contact-forms', { as: 'editor' });
    expect(JSON.stringify(list.body)).not.toContain('<script>');
  });

  it('renders [contact-form id] in post content with hidden fields posting to the feedback route', async () => {
    const form = await createForm({ title: 'Embedded', form: '[email* e] [submit "Go"]' });
    const post = await site.createPost({ title: 'Contact', status: 'publish', content: `[contact-form id="${form.id}"]\n\n[contact-form id="${form.id}"]\n\n[contact-form id="987654"]` });
    const html = (await site.req('GET', `/core/v2/posts/${post.id}`)).body.content.rendered as string;
    expect(html).toContain(`action="${'http'}`);
    expect(html).toContain(`/wp-json/forms/v1/contact-forms/${form.id}/feedback"`);
    for (const [name, value] of [['_wpcf7', String(form.id)], ['_wpcf7_version', ''], ['_wpcf7_locale', 'en_US'], ['_wpcf7_unit_tag', `wpcf7-f${form.id}-p${post.id}-o1`], ['_wpcf7_container_post', String(post.id)]]) {
      expect(html).toMatch(new RegExp(`name="${name}" value="${value}`));
    }
    expect(html).toContain(`wpcf7-f${form.id}-p${post.id}-o2`);
    expect(html).toContain('enctype="multipart/form-data"');
    expect(html).not.toContain('[contact-form id="987654"]');
    // The rendered form is a working form: its hidden fields submit.
    const tag = /name="_wpcf7_unit_tag" value="([^"]+)"/.exec(html)![1];
    const res = await feedback(form.id, formData({ _wpcf7_unit_tag: tag, e: 'a@b.co' }));
    expect(res.body.into).toBe(`#${tag}`);
  });

  it('lists posts with and without shortcodes in a constant number of SQL statements', async () => {
    const form = await createForm({ title: 'Counted', form: '[text a]' });
    for (let i = 0; i < 4; i++) await site.createPost({ title: `Counted ${i}`, status: 'publish', content: `x [contact-form id="${form.id}"]` });
    const count = async (perPage: number) => {
      const before = site.db.statements;
      const res = await site.req('GET', `/core/v2/posts?per_page=${perPage}&search=Counted`, { as: 'editor' });
      expect(res.status).toBe(200);
      return site.db.statements - before;
    };
    await count(1);
    const two = await count(2);
    const four = await count(4);
    expect(four).toBe(two);
    const formsList = async () => {
      const before = site.db.statements;
      const res = await site.req('GET', '/forms/v1/contact-forms', { as: 'editor' });
      expect(res.status).toBe(200);
      return site.db.statements - before;
    };
    await formsList();
    const a = await formsList();
    await createForm({ title: 'One more' });
    await formsList();
    expect(await formsList()).toBe(a);
    expect(a).toBeLessThanOrEqual(3);
  });
});
