// The 201 answer of a create is made from the values written, not read back: it must hold the
// same bytes a read of the new item (context=edit) gives, whatever the input, and the create
// must not read the item back.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestSite, type TestSite } from '../helpers/app.js';

let site: TestSite;
let category: number;
let other: number;
let tag: number;
let secondTag: number;
let parent: number;
beforeAll(async () => {
  site = await createTestSite();
  category = (await site.createTerm('categories', { name: 'Answers' })).id;
  other = (await site.createTerm('categories', { name: 'Other answers' })).id;
  tag = (await site.createTerm('tags', { name: 'answer-tag' })).id;
  secondTag = (await site.createTerm('tags', { name: 'second-answer-tag' })).id;
  parent = (await site.createPage({ title: 'Parent page', status: 'publish' })).id;
});
afterAll(async () => { await site?.close(); });

async function sameAsRead(path: string, json: Record<string, unknown>, as: 'administrator' | 'editor' | 'author' | 'contributor' = 'administrator') {
  const created = await site.req('POST', path, { as, json });
  expect(created.status).toBe(201);
  const read = await site.req('GET', `${path}/${created.body.id}?context=edit`, { as });
  expect(read.status).toBe(200);
  expect(created.text).toBe(read.text);
  return created.body;
}

describe('create answers', () => {
  // Functions: the term ids exist once beforeAll ran.
  const cases: [string, () => Record<string, unknown>][] = [
    ['a draft with defaults', () => ({ title: 'Answer draft', content: 'Body' })],
    ['a published post', () => ({ title: 'Answer published', content: '<p>Hi</p>', status: 'publish' })],
    ['categories in a given order', () => ({ title: 'Two categories', status: 'publish', categories: [other, category] })],
    ['categories and tags', () => ({ title: 'Both taxonomies', status: 'publish', categories: [category], tags: [tag] })],
    ['tags only', () => ({ title: 'Tags only', status: 'publish', tags: [tag] })],
    ['footnotes', () => ({ title: 'Footnoted', content: 'Text', meta: { footnotes: '[{"content":"A note","id":"n1"}]' } })],
    ['astral characters', () => ({ title: 'Emoji 😀 title', content: 'Body 🎉', excerpt: 'Short 🙂', status: 'publish' })],
    ['a lone surrogate', () => ({ title: 'Broken \ud800 text', content: 'Body \udc00', status: 'publish' })],
    ['a NUL character', () => ({ title: 'Nul \u0000 title', content: 'Body \u0000 here', status: 'publish' })],
    ['a date in the future', () => ({ title: 'Scheduled', status: 'publish', date: '2099-01-02T03:04:05' })],
    ['a date with an offset', () => ({ title: 'Dated', status: 'publish', date_gmt: '2020-05-06T07:08:09' })],
    ['a password, sticky off, closed comments', () => ({ title: 'Locked', status: 'publish', password: 'secret', comment_status: 'closed', ping_status: 'closed', format: 'aside' })],
    ['sticky', () => ({ title: 'Sticky answer', status: 'publish', sticky: true })],
    ['a private post', () => ({ title: 'Private answer', status: 'private', password: 'dropped' })],
    ['a taken slug', () => ({ title: 'Answer published', status: 'publish', slug: 'answer-published' })],
  ];
  for (const [name, json] of cases) {
    it(`post: ${name}`, async () => { await sameAsRead('/core/v2/posts', json()); });
  }

  it('post by an author (filtered HTML)', async () => {
    const body = await sameAsRead('/core/v2/posts', { title: '<script>x</script>Filtered', content: '<p onclick="x()">Hi</p>', status: 'publish' }, 'author');
    expect(body.content.raw).toBe('<p>Hi</p>');
  });

  it('page: top level and under a parent', async () => {
    await sameAsRead('/core/v2/pages', { title: 'Answer page', status: 'publish', menu_order: 3 });
    const child = await sameAsRead('/core/v2/pages', { title: 'Answer child', status: 'publish', parent });
    expect(child.parent).toBe(parent);
  });

  it('through batch/v1, atomic or not', async () => {
    for (const atomic of [false, true]) {
      const requests = [
        { path: '/core/v2/posts', body: { title: `Batch answer ${atomic}`, status: 'publish' } },
        { path: '/core/v2/posts', body: { title: `Batch answer ${atomic} tagged`, status: 'publish', tags: [tag] } },
      ];
      const res = await site.req('POST', '/batch/v1', { as: 'administrator', json: { requests, atomic } });
      expect(res.status).toBe(207);
      for (const item of res.body.responses) {
        expect(item.status).toBe(201);
        const read = await site.req('GET', `/core/v2/posts/${item.body.id}?context=edit`, { as: 'administrator' });
        expect(JSON.stringify(item.body)).toBe(read.text);
      }
    }
  });

  // Either list given empty must leave the other one in the answer; categories given empty (or not
  // at all on a create) hold the default category, as WordPress's wp_set_post_categories does.
  describe('term lists in the answer of a write, whichever is empty', () => {
    const roles = ['administrator', 'editor', 'author', 'contributor'] as const;
    const combinations: [string, () => { categories: number[]; tags: number[] }][] = [
      ['categories set, tags empty', () => ({ categories: [other], tags: [] })],
      ['tags set, categories empty', () => ({ categories: [], tags: [tag] })],
      ['both set', () => ({ categories: [other], tags: [tag] })],
      ['both empty', () => ({ categories: [], tags: [] })],
    ];
    let defaultCategory: number;
    beforeAll(async () => {
      const option = await site.db.prisma.option.findUniqueOrThrow({ where: { name: 'default_category' } });
      defaultCategory = Number(JSON.parse(option.value));
      expect(defaultCategory).toBeGreaterThan(0);
    });
    const expected = (terms: { categories: number[]; tags: number[] }) => ({
      categories: terms.categories.length ? terms.categories : [defaultCategory], tags: terms.tags,
    });
    // A contributor cannot publish: their items are pending.
    const status = (as: (typeof roles)[number]) => (as === 'contributor' ? 'pending' : 'publish');

    for (const as of roles) {
      for (const [name, terms] of combinations) {
        it(`create by ${as}: ${name}`, async () => {
          const body = await sameAsRead('/core/v2/posts', { title: `Terms ${as} ${name}`, status: status(as), ...terms() }, as);
          expect(body.status).toBe(status(as));
          expect({ categories: body.categories, tags: body.tags }).toEqual(expected(terms()));
        });

        it(`update by ${as}: ${name}`, async () => {
          // Starts with terms of both taxonomies, so an emptied list has something to drop.
          const made = await site.req('POST', '/core/v2/posts', { as, json: { title: `Terms update ${as} ${name}`, status: status(as), categories: [category], tags: [secondTag] } });
          expect(made.status).toBe(201);
          const updated = await site.req('POST', `/core/v2/posts/${made.body.id}`, { as, json: terms() });
          expect(updated.status).toBe(200);
          expect({ categories: updated.body.categories, tags: updated.body.tags }).toEqual(expected(terms()));
          const read = await site.req('GET', `/core/v2/posts/${made.body.id}?context=edit`, { as });
          expect(read.status).toBe(200);
          expect(updated.text).toBe(read.text);
        });
      }
    }
  });

  it('reads nothing back after the write', async () => {
    const create = () => site.req('POST', '/core/v2/posts', { as: 'administrator', json: { title: 'Counted', status: 'publish' } });
    await create();
    const before = site.db.statements;
    expect((await create()).status).toBe(201);
    // Sign-in (1) and the transaction: BEGIN, slug, row, guid, category link, event, count (which
    // returns the slug class_list shows; last, it locks the term's row until COMMIT), COMMIT. On
    // PostgreSQL the row and its guid are one statement (the id drawn first), several terms are
    // locked in id order within the count's statement, and the count carries the COMMIT.
    expect(site.db.statements - before).toBe(site.db.provider === 'postgres' ? 7 : 9);
    // The guid holds the new id, stored as answered.
    const made = await create();
    const stored = await site.db.prisma.content.findUniqueOrThrow({ where: { id: made.body.id }, select: { guid: true } });
    expect(stored.guid).toBe(made.body.guid.rendered);
    expect(stored.guid).toMatch(new RegExp(`^http://[^/]+/\\?p=${made.body.id}$`));
  });
});
