// The contact-form feedback submission over GraphQL: the service POST forms/v1/contact-forms/{id}/feedback
// runs (src/forms/submit.ts), with the same checks, statuses and answer. Uploaded files are
// written to temporary files for the service, as the REST route's multipart parser does, and
// removed afterwards.
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { builder } from '../builder.js';
import { submitFeedback, type FeedbackResult, type InvalidField, type UploadedFile } from '../../forms/submit.js';

const InvalidFieldRef = builder.objectRef<InvalidField>('ContactFormInvalidField').implement({
  description: 'A field whose value was refused.',
  fields: (t) => ({
    field: t.exposeString('field', { description: 'The field name.' }),
    message: t.exposeString('message', { description: 'Why the value was refused.' }),
    idref: t.string({ nullable: true, description: 'The id of the field\'s element, when it has one.', resolve: (r) => r.idref }),
    errorId: t.string({ description: 'The id of the element that shows the error.', resolve: (r) => r.error_id }),
  }),
});

const FeedbackRef = builder.objectRef<FeedbackResult>('ContactFormFeedback').implement({
  description: 'The outcome of a submission, as the feedback REST route answers it.',
  fields: (t) => ({
    contactFormId: t.int({ description: 'The form.', resolve: (r) => r.contact_form_id }),
    status: t.string({ description: '`mail_sent`, `mail_failed`, `validation_failed`, `acceptance_missing`, `spam`, `aborted` or `error`.', resolve: (r) => r.status }),
    message: t.string({ description: 'The form\'s message for this outcome.', resolve: (r) => r.message }),
    postedDataHash: t.string({ nullable: true, description: 'The hash of the submitted data, for the outcomes that have one.', resolve: (r) => r.posted_data_hash ?? null }),
    into: t.string({ description: 'The unit the answer is for (`#` and the unit tag).', resolve: (r) => r.into }),
    invalidFields: t.field({ type: [InvalidFieldRef], description: 'The refused fields, in template order.', resolve: (r) => r.invalid_fields }),
    demoMode: t.boolean({ nullable: true, description: 'True when the form is in demo mode (no mail is sent); null otherwise.', resolve: (r) => r.demo_mode ?? null }),
  }),
});

const FileFieldInput = builder.inputType('ContactFormFileInput', {
  description: 'A file posted under a field of the form.',
  fields: (t) => ({
    field: t.string({ required: true, description: 'The form field (a file tag\'s name).' }),
    file: t.field({ type: 'File', required: true, description: 'The file.' }),
  }),
});

builder.mutationFields((t) => ({
  submitContactForm: t.field({
    type: FeedbackRef,
    description: 'Submits a contact form, as POST forms/v1/contact-forms/{id}/feedback (public; an unknown form is 404 wpcf7_not_found, no valid unit tag is 400 wpcf7_unit_tag_not_found; refused values answer status `validation_failed` and the invalid fields).',
    args: {
      id: t.arg.int({ required: true, description: 'The contact form.' }),
      unitTag: t.arg.string({ required: false, description: 'The unit tag of the form on the page (`_wpcf7_unit_tag`); given, it replaces the one in `fields`.' }),
      fields: t.arg({ type: 'JSON', required: true, description: 'The posted fields by name, `_wpcf7*` included; lists for `name[]` fields.' }),
      files: t.arg({ type: [FileFieldInput], required: false, description: 'The uploaded files.' }),
    },
    resolve: async (_r, a, ctx) => {
      const posted = a.fields && typeof a.fields === 'object' && !Array.isArray(a.fields) ? { ...(a.fields as Record<string, unknown>) } : {};
      if (a.unitTag != null) posted._wpcf7_unit_tag = a.unitTag;
      const dir = a.files?.length ? await mkdtemp(join(tmpdir(), 'form-feedback-')) : null;
      try {
        const files: UploadedFile[] = [];
        for (const [i, f] of (a.files ?? []).entries()) {
          const file = f.file as File;
          const path = join(dir!, String(i));
          const bytes = Buffer.from(await file.arrayBuffer());
          await writeFile(path, bytes);
          files.push({ field: f.field, name: file.name || 'file', type: file.type ?? '', size: bytes.length, path });
        }
        return await submitFeedback(ctx, a.id, { fields: posted, files, ip: ctx.client?.ip ?? '', userAgent: ctx.client?.userAgent ?? '' });
      } finally {
        if (dir) await rm(dir, { recursive: true, force: true });
      }
    },
  }),
}));
