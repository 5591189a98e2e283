// Every field of the post and page definitions that is stored in a column of its own and written
// as given (no resolver: `slug`, `status`, `author`, `featured_media`, `comment_status` …) is
// written through REST, then read back: in the create's answer (built from the written values
// where it can be), and by a fresh read in the edit context. The fields come from the real
// definitions (src/resources/content.ts), so a column added to the model and its field to the
// definition is covered here with no edit of this file: the write path copies such fields to
// their columns itself (`storedInputs`, src/content/service.ts).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import sharp from 'sharp';
import { createTestSite, type TestSite } from '../helpers/app.js';
import { PageResource, PostResource, storedInputs } from '../../src/resources/content.js';
import { restKey, type FieldDef, type ResourceDef } from '../../src/resources/define.js';

let site: TestSite;
let imageId = 0;
beforeAll(async () => {
  site = await createTestSite();
  const png = await sharp({ create: { width: 2, height: 2, channels: 3, background: '#000' } }).png().toBuffer();
  const up = await site.req('POST', '/core/v2/media', { as: 'administrator', body: png, headers: { 'content-type': 'image/png', 'content-disposition': 'attachment; filename="f.png"' } });
  expect(up.status, up.text).toBe(201);
  imageId = up.body.id;
});
afterAll(async () => { await site?.close(); });

/** The fields read straight from a column and writable: what this file writes. */
const storedWritable = (r: ResourceDef): [string, string, FieldDef][] =>
  Object.entries(r.fields).filter(([, f]) => !f.resolve && !f.readonly && f.rest !== false && f.contexts?.includes('edit')).map(([name, f]) => [name, restKey(name, f), f]);

/**
 * A valid value unlike the field's default: fields whose values must name something (a user, an
 * attachment) or are limited (an empty template) are given here; any other gets one by its kind,
 * so a new plain field needs nothing here.
 */
function sample(rest: string, f: FieldDef): unknown {
  const known: Record<string, unknown> = {
    slug: 'a-stored-slug', status: 'private', author: site.users.editor.id, featured_media: imageId,
    comment_status: 'closed', ping_status: 'closed', template: '', menu_order: 7,
  };
  if (rest in known) return known[rest];
  if (f.enum) return f.enum.values[f.enum.values.length - 1];
  return f.kind === 'integer' || f.kind === 'number' ? 7 : f.kind === 'boolean' ? true : `sample ${rest}`;
}

describe.each([['posts', PostResource, 'post'], ['pages', PageResource, 'page']] as const)('stored fields of %s', (base, resource, type) => {
  it('finds the stored fields in the definition, and the write path knows each one not written by a rule of its own', () => {
    const fields = storedWritable(resource).map(([, rest]) => rest);
    expect(fields).toEqual(expect.arrayContaining(['slug', 'status', 'author', 'featured_media', 'comment_status', 'ping_status', 'template']));
    // Those the content service has no rule for are copied by storedInputs: every stored input is a field here.
    // (by their input name: `author`, the input of `authorDatabaseId`).
    const inputNames = Object.entries(resource.fields).map(([name, f]) => f.inputName ?? name);
    for (const input of storedInputs(type)) expect(inputNames).toContain(input.name);
  });

  it('writes each one and reads it back, in the create answer and from storage', async () => {
    const json: Record<string, unknown> = { title: `Stored fields of ${base}` };
    const fields = storedWritable(resource);
    for (const [, rest, f] of fields) json[rest] = sample(rest, f);
    const created = await site.req('POST', `/core/v2/${base}`, { as: 'administrator', json });
    expect(created.status, created.text).toBe(201);
    const read = await site.req('GET', `/core/v2/${base}/${created.body.id}?context=edit`, { as: 'administrator' });
    expect(read.status).toBe(200);
    for (const [, rest] of fields) {
      expect(created.body[rest], `${rest} in the create answer`).toEqual(json[rest]);
      expect(read.body[rest], `${rest} read back`).toEqual(json[rest]);
    }
    // And an update of each changes it alone.
    const update: Record<string, unknown> = { comment_status: 'open', slug: 'another-stored-slug' };
    const updated = await site.req('POST', `/core/v2/${base}/${created.body.id}`, { as: 'administrator', json: update });
    expect(updated.status, updated.text).toBe(200);
    expect(updated.body).toMatchObject({ ...update, author: json.author, featured_media: json.featured_media, status: 'private' });
  });
});
