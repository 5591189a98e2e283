// Contact forms and their submissions: the fields GraphQL shows. The plugin's REST routes publish
// no item schema, so these definitions feed the GraphQL types (and the REST answers are the
// plugin's fixed shapes, made in gateway/routes/forms.ts from the same records).
import { ALL_CONTEXTS, EDIT, defineResource } from './define.js';
import { formatWpDate } from '../content/dates.js';
import type { ContactFormRecord } from '../forms/store.js';
import type { SubmissionRecord } from '../forms/service.js';

export const ContactFormResource = defineResource({
  name: 'ContactForm', title: 'contact-form',
  description: 'A contact form: its template of [tags], mail settings, messages and additional settings.',
  fields: {
    databaseId: { kind: 'integer', rest: 'id', column: 'id', graphqlDescription: 'Id of the contact form (REST: `id`).', description: 'Unique identifier for the contact form.', contexts: ALL_CONTEXTS, readonly: true },
    hash: {
      kind: 'string', description: 'The first 7 hex digits of the form\'s hash, which shortcodes may name it by.', contexts: ALL_CONTEXTS, readonly: true,
      resolve: (f: ContactFormRecord) => f.hash.slice(0, 7),
    },
    slug: { kind: 'string', description: 'An alphanumeric identifier for the form, made from its title.', contexts: ALL_CONTEXTS, readonly: true },
    title: { kind: 'string', description: 'The title of the form (plain text).', contexts: ALL_CONTEXTS },
    locale: { kind: 'string', description: 'The locale of the form, e.g. en_US.', contexts: ALL_CONTEXTS },
    properties: {
      kind: 'json', description: 'form {content, fields}, mail, mail_2, messages and additional_settings {content, settings}.', contexts: EDIT, readonly: true,
      resolve: (f: ContactFormRecord) => f.properties,
    },
  },
});

export const FormSubmissionResource = defineResource({
  name: 'ContactFormSubmission', title: 'contact-form-submission',
  description: 'A submission a contact form accepted (it passed validation, acceptance and the spam check), stored before its mail was sent.',
  fields: {
    databaseId: { kind: 'integer', rest: 'id', column: 'id', graphqlDescription: 'Id of the submission (REST: `id`).', description: 'Unique identifier for the submission.', contexts: ALL_CONTEXTS, readonly: true },
    formId: { kind: 'integer', rest: 'contact_form_id', description: 'The contact form it was sent with.', contexts: ALL_CONTEXTS, readonly: true },
    date: { kind: 'date-time', description: 'When it was received, in UTC.', contexts: ALL_CONTEXTS, readonly: true, resolve: (s: SubmissionRecord) => formatWpDate(s.created) },
    data: { kind: 'json', description: 'The posted fields, by name (text with its markup removed; lists for multiple choices).', contexts: ALL_CONTEXTS, readonly: true },
    files: { kind: 'json', description: 'The uploaded files: [{field, name, type, size}] (kept privately, never served).', contexts: ALL_CONTEXTS, readonly: true },
    postedDataHash: { kind: 'string', description: 'The hash the submitter was answered with.', contexts: ALL_CONTEXTS, readonly: true },
    unitTag: { kind: 'string', description: 'The unit tag of the form on the page it was sent from.', contexts: ALL_CONTEXTS, readonly: true },
    containerPost: { kind: 'integer', description: 'The post or page the form was embedded in (0: none).', contexts: ALL_CONTEXTS, readonly: true },
    remoteIp: { kind: 'string', description: 'The address it came from.', contexts: ALL_CONTEXTS, readonly: true },
    userAgent: { kind: 'string', description: 'The submitter\'s User-Agent.', contexts: ALL_CONTEXTS, readonly: true },
    mailStatus: { kind: 'string', description: 'pending, sent, failed or skipped (skip_mail, demo_mode).', contexts: ALL_CONTEXTS, readonly: true },
    mailError: { kind: 'string', description: 'Why the mail failed, when it did.', contexts: ALL_CONTEXTS, readonly: true },
  },
});
