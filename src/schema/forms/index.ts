// Contact forms in GraphQL: the forms, one form with its accepted submissions, and the writes.
// The rules (who may do what, dry runs) are the same functions the REST routes use.
import { builder } from '../builder.js';
import { ContactFormResource, FormSubmissionResource } from '../../resources/forms.js';
import { resourceFields } from '../resource-types.js';
import type { ContactFormRecord } from '../../forms/store.js';
import { deleteForm, getForm, listForms, listSubmissions, writeForm, type FormSummary, type SubmissionRecord, type WriteResult } from '../../forms/service.js';
import { parseTemplate } from '../../forms/parser.js';
import { formRules } from '../../forms/rules.js';

const SubmissionRef = builder.objectRef<SubmissionRecord>('ContactFormSubmission').implement({
  description: FormSubmissionResource.description,
  fields: (t) => resourceFields(t, FormSubmissionResource) as never,
});

const SubmissionPage = builder.objectRef<{ total: number; nodes: SubmissionRecord[] }>('ContactFormSubmissionPage').implement({
  description: 'One page of a form\'s submissions, newest first, with the total.',
  fields: (t) => ({
    total: t.int({ description: 'All submissions of the form.', resolve: (p) => p.total }),
    nodes: t.field({ type: [SubmissionRef], description: 'This page.', resolve: (p) => p.nodes }),
  }),
});

/** The full record; `properties.form.fields` comes from the one template parser. */
const withFields = (f: ContactFormRecord) => ({
  ...f,
  properties: { ...f.properties, form: { content: f.properties.form, fields: parseTemplate(f.properties.form) } },
});

const ContactFormRef = builder.objectRef<ContactFormRecord>('ContactForm').implement({
  description: ContactFormResource.description,
  fields: (t) => ({
    ...(resourceFields(t, ContactFormResource) as object),
    properties: t.field({ type: 'JSON', description: ContactFormResource.fields.properties.description, resolve: (f) => withFields(f).properties }),
    rules: t.field({ type: 'JSON', description: 'The validation rules a feedback submission is checked against (the feedback schema\'s `rules`).', resolve: (f) => formRules(parseTemplate(f.properties.form), f.properties) }),
    submissions: t.field({
      type: SubmissionPage,
      description: 'Accepted submissions, newest first (editors: publish_pages).',
      args: { page: t.arg.int({ required: false, defaultValue: 1, description: 'Page of the submissions, from 1.' }), perPage: t.arg.int({ required: false, defaultValue: 10, description: 'Submissions a page, 1 to 100 (larger is taken as 100).' }) },
      resolve: (f, a, ctx) => listSubmissions(ctx, f.id, a.page ?? 1, a.perPage ?? 10),
    }),
  }),
});

const ContactFormSummaryRef = builder.objectRef<FormSummary>('ContactFormSummary').implement({
  description: 'A contact form in a list: id, short hash, slug, title, locale.',
  fields: (t) => ({
    databaseId: t.int({ description: 'Id of the contact form (REST: `id`).', resolve: (f) => f.id }),
    hash: t.string({ description: 'First 7 hex digits of the form\'s hash.', resolve: (f) => f.hash }),
    slug: t.string({ description: 'The form\'s slug, made from its title.', resolve: (f) => f.slug }),
    title: t.string({ description: 'The title of the form.', resolve: (f) => f.title }),
    locale: t.string({ description: 'The locale of the form.', resolve: (f) => f.locale }),
  }),
});

const WriteResultRef = builder.objectRef<WriteResult>('ContactFormWriteResult').implement({
  description: 'A form as written (or, in a dry run, as it would be), with its configuration errors.',
  fields: (t) => ({
    databaseId: t.int({ nullable: true, description: 'Id of the form (REST: `id`); null for a dry-run create.', resolve: (r) => r.id }),
    slug: t.string({ nullable: true, description: 'The stored slug; null for a dry-run create.', resolve: (r) => r.slug }),
    title: t.string({ description: 'The title as written.', resolve: (r) => r.title }),
    locale: t.string({ description: 'The locale as written.', resolve: (r) => r.locale }),
    properties: t.field({ type: 'JSON', description: 'The properties as written (form with its parsed fields, mail, mail_2, messages as sent, additional_settings).', resolve: (r) => ({ ...r.properties, form: { content: r.properties.form, fields: parseTemplate(r.properties.form) } }) }),
    configErrors: t.field({ type: 'JSON', description: 'Property path → [{message, link}]; [] when none.', resolve: (r) => r.configErrors }),
    saved: t.boolean({ description: 'Whether it was stored (save: true).', resolve: (r) => r.saved }),
  }),
});

const ContactFormInput = builder.inputType('ContactFormInput', {
  description: 'Properties of a contact form; each one given replaces that property whole.',
  fields: (t) => ({
    title: t.string({ required: false, description: 'The title of the form; its slug is made from it.' }),
    locale: t.string({ required: false, description: 'The locale of the form, e.g. en_US.' }),
    form: t.string({ required: false, description: 'The template with its [tags].' }),
    mail: t.field({ type: 'JSON', required: false, description: '{subject, sender, body, recipient, additional_headers, attachments, use_html, exclude_blank}; makes the mail active.' }),
    mail2: t.field({ type: 'JSON', required: false, description: 'The second mail, as mail (plus active).' }),
    messages: t.field({ type: 'JSON', required: false, description: 'Message key → text.' }),
    additionalSettings: t.field({ type: 'JSON', required: false, description: '"name: value" lines, or {content}.' }),
  }),
});

type Input = { title?: string | null; locale?: string | null; form?: unknown; mail?: unknown; mail2?: unknown; messages?: unknown; additionalSettings?: unknown };
const restInput = (i: Input) => {
  const out: Record<string, unknown> = {};
  if (i.title != null) out.title = i.title;
  if (i.locale != null) out.locale = i.locale;
  if (i.form != null) out.form = i.form;
  if (i.mail != null) out.mail = i.mail;
  if (i.mail2 != null) out.mail_2 = i.mail2;
  if (i.messages != null) out.messages = i.messages;
  if (i.additionalSettings != null) out.additional_settings = i.additionalSettings;
  return out;
};

builder.queryFields((t) => ({
  contactForms: t.field({
    type: [ContactFormSummaryRef],
    description: 'Contact forms (edit_posts), oldest first unless ordered otherwise.',
    args: {
      perPage: t.arg.int({ required: false, description: 'Forms to return at most; all when omitted.' }),
      offset: t.arg.int({ required: false, description: 'Forms to skip first.' }),
      order: t.arg.string({ required: false, description: '`asc` (the default) or `desc`.' }),
      orderby: t.arg.string({ required: false, description: '`title`, `date` or `modified`; anything else orders by id.' }),
      search: t.arg.string({ required: false, description: 'Only forms whose title contains this text.' }),
    },
    resolve: (_r, a, ctx) => listForms(ctx, { perPage: a.perPage ?? undefined, offset: a.offset ?? undefined, order: a.order ?? undefined, orderby: a.orderby ?? undefined, search: a.search ?? undefined }),
  }),
  contactForm: t.field({
    type: ContactFormRef,
    description: 'One contact form (publish_pages).',
    args: { id: t.arg.int({ required: true, description: 'Id of the form.' }) },
    resolve: (_r, a, ctx) => getForm(ctx, a.id),
  }),
}));

builder.mutationFields((t) => ({
  createContactForm: t.field({
    type: WriteResultRef,
    description: 'Creates a form; with save: false nothing is stored (a dry run that reports configuration errors).',
    args: { input: t.arg({ type: ContactFormInput, required: true, description: 'The form\'s properties; those not given get their defaults.' }), save: t.arg.boolean({ required: false, defaultValue: true, description: 'false: a dry run that stores nothing.' }) },
    resolve: (_r, a, ctx) => writeForm(ctx, null, restInput(a.input as Input), a.save ?? true),
  }),
  updateContactForm: t.field({
    type: WriteResultRef,
    description: 'Updates a form; with save: false nothing is stored.',
    args: { id: t.arg.int({ required: true, description: 'Id of the form.' }), input: t.arg({ type: ContactFormInput, required: true, description: 'The properties to replace; the others are kept.' }), save: t.arg.boolean({ required: false, defaultValue: true, description: 'false: a dry run that stores nothing.' }) },
    resolve: (_r, a, ctx) => writeForm(ctx, a.id, restInput(a.input as Input), a.save ?? true),
  }),
  deleteContactForm: t.field({
    type: builder.objectRef<{ deleted: true }>('ContactFormDeleteResult').implement({ description: 'A contact form deleted for good.', fields: (u) => ({ deleted: u.boolean({ description: 'Always true.', resolve: (r) => r.deleted }) }) }),
    description: 'Deletes a form for good, with its submissions.',
    args: { id: t.arg.int({ required: true, description: 'Id of the form.' }) },
    resolve: (_r, a, ctx) => deleteForm(ctx, a.id),
  }),
}));
