// The files of contact-form submissions: a file is never kept without its submission's row. The
// row commits first and the files follow; a failure while copying them removes what was copied
// and the row, and a failure writing the row leaves no file.
import { mkdtemp, readdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestSite, type TestSite } from '../helpers/app.js';
import { createContext } from '../../src/context.js';
import { RestError } from '../../src/errors.js';
import { submitFeedback, type UploadedFile } from '../../src/forms/submit.js';
import { FORM_SELECT, type FormRow } from '../../src/forms/store.js';

let site: TestSite;
let privateDir: string;
let temp: string;

beforeAll(async () => {
  privateDir = await mkdtemp(join(tmpdir(), 'form-files-kept-'));
  temp = await mkdtemp(join(tmpdir(), 'form-files-temp-'));
  site = await createTestSite({ smtpUrl: null, formFilesDir: privateDir, formRateLimit: 1000 });
});
afterAll(async () => {
  await site?.close();
  for (const dir of [privateDir, temp]) if (dir) await rm(dir, { recursive: true, force: true });
});

async function createForm(title: string): Promise<number> {
  const res = await site.req('POST', '/forms/v1/contact-forms?context=save', {
    as: 'administrator',
    json: { title, form: '[text* a] [file f1 filetypes:txt] [file f2 filetypes:txt]', mail: { sender: 'a@example.com', recipient: 'b@example.com', subject: 's', body: '[a]' } },
  });
  expect(res.status, res.text).toBe(200);
  return res.body.id;
}

async function upload(field: string, name: string, body: string | null): Promise<UploadedFile> {
  const path = join(temp, `${field}-${name}`);
  if (body !== null) await writeFile(path, body);
  return { field, name, path, type: 'text/plain', size: body?.length ?? 4 } as UploadedFile;
}

/** Every file under the private directory, as paths relative to it. */
async function keptFiles(): Promise<string[]> {
  const out: string[] = [];
  for (const folder of await readdir(privateDir)) for (const f of await readdir(join(privateDir, folder))) out.push(`${folder}/${f}`);
  return out.sort();
}

const input = (files: UploadedFile[]) => ({ fields: { _wpcf7_unit_tag: 'u1', a: 'hello' }, files, ip: '192.0.2.7', userAgent: 'agent/1.0' });

describe('contact-form submission files', () => {
  it('keeps the files of an accepted submission in the folder its row names', async () => {
    const id = await createForm('Kept files');
    const before = await keptFiles();
    const fd = new FormData();
    fd.append('_wpcf7_unit_tag', 'u1');
    fd.append('a', 'hello');
    fd.append('f1', new File(['first'], 'one.txt', { type: 'text/plain' }));
    fd.append('f2', new File(['second'], 'two.txt', { type: 'text/plain' }));
    const res = await site.req('POST', `/forms/v1/contact-forms/${id}/feedback`, { body: fd, headers: { 'user-agent': 'agent/1.0' } });
    expect(res.status, res.text).toBe(200);
    expect(res.body.status).toBe('mail_failed');
    const row = await site.db.prisma.formSubmission.findFirstOrThrow({ where: { formId: id }, select: { files: true } });
    const named = (JSON.parse(row.files) as { path: string }[]).map((f) => f.path.split(/[\\/]/).join('/')).sort();
    expect(named).toHaveLength(2);
    const added = (await keptFiles()).filter((f) => !before.includes(f));
    expect(added).toEqual(named);
  });

  it('removes the files already copied, and the row, when copying a later file fails', async () => {
    const id = await createForm('Copy fails');
    const before = await keptFiles();
    const rows = await site.db.prisma.formSubmission.count();
    // The second file's temporary file is gone when its turn comes: the first one is copied by then.
    const files = [await upload('f1', 'present.txt', 'bytes'), await upload('f2', 'vanished.txt', null)];
    const ctx = createContext(site.db, null, null);
    const err = await submitFeedback(ctx, id, input(files)).then(() => null, (e: unknown) => e);
    expect(err).toBeInstanceOf(RestError);
    expect([(err as RestError).extensions.status, (err as RestError).extensions.code]).toEqual([500, 'wpcf7_upload_failed']);
    expect(await keptFiles()).toEqual(before);
    expect(await site.db.prisma.formSubmission.count()).toBe(rows);
    // The same submission with both files there is stored with both.
    const ok = await submitFeedback(createContext(site.db, null, null), id, input([files[0], await upload('f2', 'now-there.txt', 'more')]));
    expect(ok.status).toBe('mail_failed');
    expect((await keptFiles()).filter((f) => !before.includes(f))).toHaveLength(2);
    expect(await site.db.prisma.formSubmission.count()).toBe(rows + 1);
  });

  it('writes no file when the row cannot be written (its form deleted meanwhile)', async () => {
    const id = await createForm('Deleted meanwhile');
    const form = await site.db.prisma.contactForm.findUniqueOrThrow({ where: { id }, select: FORM_SELECT });
    await site.db.prisma.contactForm.delete({ where: { id } });
    const before = await keptFiles();
    // The request had read the form before another one deleted it.
    const ctx = createContext(site.db, null, null);
    ctx.loader<number, FormRow | null>('contactForm', async (ids) => ids.map(() => form)).prime(id, form);
    const files = [await upload('f1', 'orphan.txt', 'bytes')];
    await expect(submitFeedback(ctx, id, input(files))).rejects.toThrow();
    expect(await keptFiles()).toEqual(before);
    expect(await site.db.prisma.formSubmission.count({ where: { formId: id } })).toBe(0);
  });
});
