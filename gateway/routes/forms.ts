// forms/v1: the contact-form plugin's routes. Records have the plugin's fixed shapes (no schema,
// no _links, no paging headers on the form list); permission failures are 403 `wpcf7_forbidden`
// even for anonymous callers, checked before the form is looked up. The feedback route takes
// multipart posts from the form's HTML (src/forms/html.ts) and answers 200 with the outcome.
import type { Endpoint, GatewayRequest, RouteEntry, RouteResult } from '../types.js';
import { WpError } from '../errors.js';
import { EDIT_FORMS_CAP, requireCap } from '../../src/forms/service.js';
import { feedbackSchema, refillData, submitFeedback } from '../../src/forms/submit.js';

const NS = 'forms/v1';
const base = `/${NS}/contact-forms`;
const item = `${base}/(?P<id>\\d+)`;

const idArg = { description: 'Unique identifier for the contact form.', type: 'integer' } as const;

/** Create/update bodies: the properties the plugin reads, JSON or form data with bracketed names. */
function writeInput(p: Record<string, unknown>): Record<string, unknown> {
  const input: Record<string, unknown> = {};
  if (p.title !== undefined) input.title = String(p.title);
  if (p.locale !== undefined) input.locale = String(p.locale);
  if (p.form !== undefined) input.form = typeof p.form === 'string' ? p.form : (p.form as Record<string, unknown>)?.content ?? (p.form as Record<string, unknown>)?.body ?? '';
  if (p.mail !== undefined) input.mail = p.mail;
  if (p.mail_2 !== undefined) input.mail2 = p.mail_2;
  if (p.messages !== undefined) input.messages = p.messages;
  if (p.additional_settings !== undefined) input.additionalSettings = p.additional_settings;
  return input;
}

/** `context=save` (body or query) stores; anything else is a dry run. */
const saving = (req: GatewayRequest) => req.params.context === 'save';

function writeAnswer(r: Record<string, unknown>): RouteResult {
  return { status: 200, body: { id: r.id, slug: r.slug, title: r.title, locale: r.locale, properties: r.properties, config_errors: r.configErrors } };
}

const writeArgs = { context: { description: '`save` stores the form; any other value is a dry run.', type: 'string' } } as const;

const list: Endpoint = {
  methods: ['GET'], permission: 'edit_posts', operation: 'ContactFormsList', args: {},
  async handler(req) {
    const p = req.params;
    const int = (v: unknown) => (v === undefined || v === '' ? undefined : Number.parseInt(String(v), 10) || undefined);
    const data = await req.run(undefined, {
      perPage: int(p.per_page), offset: int(p.offset), order: p.order === undefined ? undefined : String(p.order),
      orderby: p.orderby === undefined ? undefined : String(p.orderby), search: p.search === undefined || p.search === '' ? undefined : String(p.search),
    });
    return { status: 200, body: data.contactForms };
  },
};

const create: Endpoint = {
  methods: ['POST'], permission: EDIT_FORMS_CAP, operation: 'ContactFormCreate', args: writeArgs, formUpload: true,
  async handler(req) {
    requireCap(req.ctx, EDIT_FORMS_CAP, 'create a contact form');
    if (req.params.id !== undefined) throw new WpError('wpcf7_post_exists', 'Cannot create existing contact form.', 400);
    const data = await req.run(undefined, { input: writeInput(req.params), save: saving(req) });
    return writeAnswer(data.createContactForm);
  },
};

const get: Endpoint = {
  methods: ['GET'], permission: EDIT_FORMS_CAP, operation: 'ContactFormGet', args: { id: idArg },
  async handler(req) {
    const data = await req.run(undefined, { id: Number(req.params.id) });
    return { status: 200, body: data.contactForm };
  },
};

const update: Endpoint = {
  methods: ['POST', 'PUT', 'PATCH'], permission: EDIT_FORMS_CAP, operation: 'ContactFormUpdate', args: { id: idArg, ...writeArgs }, formUpload: true,
  async handler(req) {
    const data = await req.run(undefined, { id: Number(req.params.id), input: writeInput(req.params), save: saving(req) });
    return writeAnswer(data.updateContactForm);
  },
};

const remove: Endpoint = {
  methods: ['DELETE'], permission: EDIT_FORMS_CAP, operation: 'ContactFormDelete', args: { id: idArg },
  async handler(req) {
    const data = await req.run(undefined, { id: Number(req.params.id) });
    return { status: 200, body: data.deleteContactForm };
  },
};

const feedback: Endpoint = {
  methods: ['POST'], permission: 'public', args: { id: idArg }, formUpload: true,
  async handler(req) {
    // The content type first, even for an unknown form (JSON that does not parse was refused before).
    if (req.upload?.form !== 'multipart') throw new WpError('wpcf7_unsupported_media_type', 'The request payload format is not supported.', 415);
    const files = (req.upload.files ?? []).map((f) => ({ field: f.field, name: f.name ?? 'file', type: f.declaredType ?? '', size: f.size, path: f.path }));
    const result = await submitFeedback(req.ctx, Number(req.params.id), {
      fields: req.params, files, ip: req.ip ?? '', userAgent: req.headers.get('user-agent') ?? '',
    });
    return { status: 200, body: result };
  },
};

/** The meta-schema of the rules document (JSON Schema 2020-12), which OPTIONS shows. */
const SWV_META_SCHEMA = {
  $schema: 'https://json-schema.org/draft/2020-12/schema',
  title: 'Contact form validation schema',
  type: 'object',
  properties: {
    version: { type: 'string' },
    locale: { type: 'string' },
    rules: {
      type: 'array',
      items: {
        type: 'object',
        properties: {
          rule: { type: 'string' }, field: { type: 'string' }, error: { type: 'string' },
          accept: { type: 'array', items: { type: 'string' } }, threshold: { type: ['number', 'string'] },
          rules: { type: 'array' },
        },
        required: ['rule'],
      },
    },
  },
};

const schema: Endpoint = {
  methods: ['GET'], permission: 'public', args: { id: idArg },
  async handler(req) {
    return { status: 200, body: await feedbackSchema(req.ctx, Number(req.params.id)) };
  },
};

const refill: Endpoint = {
  methods: ['GET'], permission: 'public', args: { id: idArg },
  async handler(req) {
    return { status: 200, body: await refillData(req.ctx, Number(req.params.id)) };
  },
};

/** Not in the plugin: the accepted submissions of a form, newest first, for editors. */
const submissions: Endpoint = {
  methods: ['GET'], permission: EDIT_FORMS_CAP, operation: 'ContactFormSubmissions',
  args: {
    id: idArg,
    page: { description: 'Current page of the collection.', type: 'integer', default: 1, minimum: 1 },
    per_page: { description: 'Maximum number of items to be returned in result set.', type: 'integer', default: 10, minimum: 1, maximum: 100 },
  },
  async handler(req) {
    const perPage = Number(req.params.per_page);
    const data = await req.run(undefined, { id: Number(req.params.id), page: Number(req.params.page), perPage });
    const { total, nodes } = data.contactForm.submissions;
    return { status: 200, body: nodes, headers: { 'X-WP-Total': total, 'X-WP-TotalPages': Math.ceil(total / perPage) } };
  },
};

export const formRoutes = (): RouteEntry[] => [
  { namespace: NS, pattern: base, endpoints: [list, create] },
  { namespace: NS, pattern: item, endpoints: [get, update, remove] },
  { namespace: NS, pattern: `${item}/feedback`, endpoints: [feedback] },
  { namespace: NS, pattern: `${item}/feedback/schema`, endpoints: [schema], schema: () => SWV_META_SCHEMA },
  { namespace: NS, pattern: `${item}/refill`, endpoints: [refill] },
  { namespace: NS, pattern: `${item}/submissions`, endpoints: [submissions] },
];
