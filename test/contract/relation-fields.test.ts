// The fields of a post that read a relation (terms, footnotes) resolve without plugin-prisma's
// per-row wrapper; the relation is still read with the rows when a query asks for them, and a row
// that comes without it still answers, through one batched read per request. Both databases.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestSite, type TestSite } from '../helpers/app.js';
import { createContext } from '../../src/context.js';
import { withFootnotes, withTerms } from '../../src/content/fields.js';
import { PostResource } from '../../src/resources/content.js';
import { schema } from '../../src/schema/index.js';
import { isObjectType } from 'graphql';

let site: TestSite;
let ids: number[];
let category: number;
let tag: number;
beforeAll(async () => {
  site = await createTestSite();
  category = (await site.createTerm('categories', { name: 'Included' })).id;
  tag = (await site.createTerm('tags', { name: 'Also included' })).id;
  ids = [
    (await site.createPost({ title: 'With terms', status: 'publish', categories: [category], tags: [tag], meta: { footnotes: '[{"id":"a","content":"Note"}]' } })).id,
    (await site.createPost({ title: 'Plain', status: 'publish' })).id,
  ];
});
afterAll(async () => { await site?.close(); });

describe('relations read with every post', () => {
  it('the fields resolve with their own resolvers, and read the relation with the rows only when asked for', async () => {
    const post = schema.getType('Post');
    expect(isObjectType(post)).toBe(true);
    const fields = isObjectType(post) ? post.getFields() : {};
    for (const name of ['categoryDatabaseIds', 'tagDatabaseIds', 'classList', 'meta']) expect(fields[name].resolve, name).toBe(PostResource.fields[name].resolve);
    const sent: string[] = [];
    const cost = async (selection: string) => {
      site.db.changed();
      sent.length = 0;
      const read = site.db.read.bind(site.db);
      site.db.read = (sql, args) => { sent.push(sql); return read(sql, args); };
      const before = site.db.statements;
      try {
        const res = await site.gql(`{ posts(perPage: 5) { nodes { ${selection} } } }`);
        expect(res.errors).toBeUndefined();
      } finally { site.db.read = read; }
      return site.db.statements - before;
    };
    const plain = await cost('databaseId');
    expect(sent.some((sql) => sql.includes('"rel_terms"'))).toBe(false);
    // No statement more: the terms are a column of the rows' statement, there only when asked for.
    expect(await cost('databaseId categoryDatabaseIds tagDatabaseIds')).toBe(plain);
    expect(sent.some((sql) => sql.includes('"rel_terms"'))).toBe(true);
  });

  it('a row read without them gets them in one batched read per relation', async () => {
    const ctx = createContext(site.db, null);
    const before = site.db.statements;
    const [terms, none, meta] = await Promise.all([
      withTerms(ctx, { id: ids[0] }, (t) => t.map((r) => [r.taxonomy, r.termId])),
      withTerms(ctx, { id: ids[1] }, (t) => t.map((r) => [r.taxonomy, r.termId])),
      withFootnotes(ctx, { id: ids[0] }, (m) => m.map((r) => r.value)),
    ]);
    expect(terms).toEqual([['category', category], ['post_tag', tag]]);
    expect(none).toEqual([['category', 1]]);
    expect(meta).toEqual(['[{"id":"a","content":"Note"}]']);
    expect(site.db.statements - before).toBe(2);
    // A row that came with them is answered at once, without a statement.
    expect(withTerms(ctx, { id: ids[0], terms: [{ termId: 7, taxonomy: 'category' }] }, (t) => t.length)).toBe(1);
    expect(site.db.statements - before).toBe(2);
  });

  it('the fields answer the same through REST and GraphQL', async () => {
    const rest = await site.req('GET', `/core/v2/posts/${ids[0]}`);
    expect(rest.status).toBe(200);
    expect([rest.body.categories, rest.body.tags, rest.body.meta]).toEqual([[category], [tag], { footnotes: '[{"id":"a","content":"Note"}]' }]);
    expect(rest.body.class_list).toEqual(expect.arrayContaining(['category-included', 'tag-also-included']));
    const gql = await site.gql(`query($id: Int!) { post(id: $id) { categoryDatabaseIds tagDatabaseIds meta { footnotes } classList } }`, { id: ids[0] });
    expect(gql.errors).toBeUndefined();
    expect(gql.data.post).toEqual({ categoryDatabaseIds: [category], tagDatabaseIds: [tag], meta: { footnotes: '[{"id":"a","content":"Note"}]' }, classList: rest.body.class_list });
  });
});
