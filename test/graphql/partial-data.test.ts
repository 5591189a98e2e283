// A failing root field costs that field only: it answers null with its WordPress error beside
// it, and the document's other fields keep their data (a client that blanks the page on
// `data: null` gets the rest of the page).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { isNonNullType, type GraphQLObjectType } from 'graphql';
import { createTestSite, type GqlResult, type TestSite } from '../helpers/app.js';
import { schema } from '../../src/schema/index.js';

let site: TestSite;
let siteName: string;
beforeAll(async () => {
  site = await createTestSite();
  siteName = (await site.req('GET', '/')).body.name;
});
afterAll(async () => { await site?.close(); });

const show = (res: GqlResult) => JSON.stringify(res, null, 2);

/** The one error at `path`, with the WordPress code and status in its extensions. */
function expectErrorAt(res: GqlResult, path: (string | number)[], status: number, code: string): void {
  const at = (res.errors ?? []).filter((e) => JSON.stringify(e.path) === JSON.stringify(path));
  expect(at, show(res)).toHaveLength(1);
  expect(at[0].extensions, show(res)).toMatchObject({ code, status });
}

describe('a failing root field beside others', () => {
  it('a missing post is null with its 404, and the site beside it is answered', async () => {
    const res = await site.gql('{ site { name } post(id: 999999) { databaseId } }');
    expect(res.status).toBe(200);
    expect(siteName).toBeTruthy();
    expect(res.data, show(res)).toEqual({ site: { name: siteName }, post: null });
    expect(res.errors, show(res)).toHaveLength(1);
    expectErrorAt(res, ['post'], 404, 'rest_post_invalid_id');
  });

  it('the viewer asked anonymously is null with its 401, and the site beside it is answered', async () => {
    const res = await site.gql('{ site { name } user { databaseId } }');
    expect(res.status).toBe(200);
    expect(res.data, show(res)).toEqual({ site: { name: siteName }, user: null });
    expect(res.errors, show(res)).toHaveLength(1);
    expectErrorAt(res, ['user'], 401, 'rest_not_logged_in');
  });

  it('a draft read anonymously is null with its 401, and a published post beside it is answered', async () => {
    const draft = await site.createPost({ title: 'Hidden draft', status: 'draft' }, 'author');
    const shown = await site.createPost({ title: 'Shown', status: 'publish' }, 'author');
    const rest = await site.req('GET', `/core/v2/posts/${draft.id}`);
    expect([rest.status, rest.body.code]).toEqual([401, 'rest_forbidden']);
    const res = await site.gql('query($d: Int!, $p: Int!) { draft: post(id: $d) { databaseId } shown: post(id: $p) { databaseId title { rendered } } }', { d: draft.id, p: shown.id });
    expect(res.data, show(res)).toEqual({ draft: null, shown: { databaseId: shown.id, title: { rendered: 'Shown' } } });
    expect(res.errors, show(res)).toHaveLength(1);
    expectErrorAt(res, ['draft'], 401, 'rest_forbidden');
  });

  it("another user's application password is null with its 403, and the caller's own list beside it is answered", async () => {
    const theirs = await site.gql('{ applicationPasswords { uuid } }', {}, { as: 'editor' });
    const uuid = theirs.data.applicationPasswords[0].uuid;
    const res = await site.gql('query($u: Int, $id: String!) { applicationPassword(userId: $u, uuid: $id) { name } applicationPasswords { name } }',
      { u: site.users.editor.id, id: uuid }, { as: 'subscriber' });
    expect(res.data, show(res)).toEqual({ applicationPassword: null, applicationPasswords: [{ name: 'tests' }] });
    expect(res.errors, show(res)).toHaveLength(1);
    expectErrorAt(res, ['applicationPassword'], 403, 'rest_cannot_read_application_password');
  });

  it('two missing items give two errors, each at its own path', async () => {
    const res = await site.gql('{ first: post(id: 999998) { databaseId } site { name } second: category(id: 999999) { databaseId } }');
    expect(res.status).toBe(200);
    expect(res.data, show(res)).toEqual({ first: null, site: { name: siteName }, second: null });
    expect(res.errors, show(res)).toHaveLength(2);
    expectErrorAt(res, ['first'], 404, 'rest_post_invalid_id');
    expectErrorAt(res, ['second'], 404, 'rest_term_invalid');
  });
});

describe('a failing mutation beside others', () => {
  it('is null with its error, and the mutation after it still runs and answers', async () => {
    const res = await site.gql('mutation { gone: deletePost(id: 999999) { deleted } made: createPost(input: { title: "After a failure" }) { databaseId title { raw } } }', {}, { as: 'author' });
    expect(res.status).toBe(200);
    expect(res.data?.gone, show(res)).toBeNull();
    expect(res.data?.made, show(res)).toMatchObject({ title: { raw: 'After a failure' } });
    expect(res.errors, show(res)).toHaveLength(1);
    expectErrorAt(res, ['gone'], 404, 'rest_post_invalid_id');
    const rest = await site.req('GET', `/core/v2/posts/${res.data.made.databaseId}?context=edit`, { as: 'author' });
    expect([rest.status, rest.body.title.raw]).toEqual([200, 'After a failure']);
  });

  it('a successful mutation keeps its answer when a later one fails', async () => {
    const res = await site.gql('mutation { made: createPost(input: { title: "Before a failure" }) { databaseId } gone: deletePost(id: 999999) { deleted } }', {}, { as: 'author' });
    expect(res.data?.gone, show(res)).toBeNull();
    expect(res.data?.made?.databaseId, show(res)).toEqual(expect.any(Number));
    expectErrorAt(res, ['gone'], 404, 'rest_post_invalid_id');
  });
});

describe('the schema', () => {
  const fieldsOf = (type: GraphQLObjectType | null | undefined) => Object.values(type!.getFields());

  it('has every query and mutation field nullable', () => {
    const required = [...fieldsOf(schema.getQueryType()), ...fieldsOf(schema.getMutationType())].filter((f) => isNonNullType(f.type)).map((f) => f.name);
    expect(required).toEqual([]);
  });

  it('keeps the nullability of the fields below the roots', () => {
    const post = schema.getType('Post') as GraphQLObjectType;
    expect(String(post.getFields().databaseId.type)).toBe('Int!');
    expect(String(post.getFields().id.type)).toBe('ID!');
    const deleted = schema.getType('PostDeleteResult') as GraphQLObjectType;
    expect(String(deleted.getFields().previous.type)).toBe('Post!');
    // Only the outer list is relaxed: its items keep theirs.
    expect(String(schema.getQueryType()!.getFields().applicationPasswords.type)).toBe('[ApplicationPassword!]');
  });
});
