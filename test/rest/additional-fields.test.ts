// Fields added to the records of resources by kind (gateway/additional-fields.ts), as WordPress's
// register_rest_field(): a toy field on post records joins the posts' answers and schema, is
// worked out once per answer, not at all when `_fields` leaves it out, and stays off other records.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestSite, type TestSite } from '../helpers/app.js';
import { applyAdditionalFields, type AdditionalField } from '../../gateway/additional-fields.js';

let site: TestSite;
const calls: number[] = [];
const titleLength: AdditionalField = {
  name: 'title_length',
  schema: { description: 'Characters in the raw title.', type: 'integer', context: ['view', 'edit'], readonly: true },
  appliesTo: (r) => r.kind === 'post' && r.subtype === 'post',
  async values(_req, records) {
    calls.push(records.length);
    return records.map((r) => String((r.title as { rendered: string }).rendered).length);
  },
};

beforeAll(async () => {
  site = await createTestSite({ cacheEntries: 0 });
  applyAdditionalFields(site.app.table, [titleLength]);
  await site.createPost({ title: 'Four', status: 'publish' });
  await site.createPost({ title: 'Seventeen letters', status: 'publish' });
});
afterAll(async () => { await site?.close(); });

describe('additional fields', () => {
  it('joins the records of the routes whose kind it names, worked out once per answer', async () => {
    calls.length = 0;
    const list = await site.req('GET', '/core/v2/posts?per_page=2&orderby=id&order=asc');
    expect(list.body.map((p: any) => p.title_length)).toEqual(list.body.map((p: any) => p.title.rendered.length));
    expect(calls).toEqual([2]);
    const one = await site.req('GET', `/core/v2/posts/${list.body[0].id}`);
    expect(one.body.title_length).toBe(list.body[0].title.rendered.length);
  });

  it('is not worked out when _fields leaves it out', async () => {
    calls.length = 0;
    const res = await site.req('GET', '/core/v2/posts?_fields=id');
    expect(res.body.every((p: any) => !('title_length' in p))).toBe(true);
    expect(calls).toEqual([]);
  });

  it('shows in the schema of those routes only', async () => {
    expect((await site.req('OPTIONS', '/core/v2/posts')).body.schema.properties.title_length).toMatchObject({ type: 'integer' });
    expect((await site.req('OPTIONS', '/core/v2/pages')).body.schema.properties.title_length).toBeUndefined();
    const pages = await site.req('GET', '/core/v2/pages');
    expect(pages.body.every((p: any) => !('title_length' in p))).toBe(true);
  });
});
