// The SQL statement budget of a /graphql query (GRAPHQL_MAX_STATEMENTS): the backstop behind the
// cost limit. A query that needs more statements than the budget gets the fields it could answer
// and one error naming the limit; one within it is untouched; mutations are not limited.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestSite, type GqlResult, type TestSite } from '../helpers/app.js';

let site: TestSite;
let tight: TestSite;
beforeAll(async () => {
  site = await createTestSite();
  tight = await createTestSite({ graphqlMaxStatements: 4 });
  const cats = [];
  for (const name of ['Budget one', 'Budget two']) cats.push((await tight.createTerm('categories', { name })).id);
  for (let i = 0; i < 3; i++) await tight.createPost({ title: `Budgeted ${i}`, status: 'publish', categories: cats }, 'editor');
});
afterAll(async () => { await site?.close(); await tight?.close(); });

const show = (res: GqlResult) => JSON.stringify(res, null, 2);
// The list, its authors, their posts, those posts' categories and those categories' posts: a
// statement or two a level, more than four in all.
const DEEP = `{ posts(perPage: 3) { nodes { databaseId author { node { name posts(first: 3) { nodes {
  categories { nodes { name posts(first: 3) { nodes { databaseId } } } } } } } } } } }`;

describe('the statement budget of a query', () => {
  it('is on by default at 500', () => {
    expect(site.app.config.graphqlMaxStatements).toBe(500);
  });

  it('answers a query past it with the limit as its error (graphql_statement_limit, 400) and no other error', async () => {
    const res = await tight.gql(DEEP);
    // As the other refusals of /graphql's limits, the answer is a 400.
    expect(res.status).toBe(400);
    expect(res.errors, show(res)).toHaveLength(1);
    expect(res.errors![0]).toMatchObject({ message: 'SQL statement limit of 4 exceeded.', extensions: { code: 'graphql_statement_limit', status: 400 } });
  });

  it('leaves a query within it alone, and the same query on a site with the default budget answers in full', async () => {
    const small = await tight.gql('{ posts(perPage: 3) { nodes { databaseId title { rendered } } } }');
    expect(small.errors, show(small)).toBeUndefined();
    expect(small.data.posts.nodes).toHaveLength(3);
    const full = await site.gql(DEEP);
    expect(full.errors, show(full)).toBeUndefined();
  });

  it('counts each request on its own: the budget is not spent by the one before', async () => {
    for (let i = 0; i < 3; i++) {
      const res = await tight.gql('{ posts(perPage: 2) { nodes { databaseId } } }');
      expect(res.errors, show(res)).toBeUndefined();
    }
  });

  it('does not limit mutations', async () => {
    const res = await tight.gql('mutation($input: PostInput!) { createPost(input: $input) { databaseId categories { nodes { name } } author { node { name } } } }',
      { input: { title: 'Written past a tight budget', status: 'PUBLISH' } }, { as: 'administrator' });
    expect(res.errors, show(res)).toBeUndefined();
    expect(res.data.createPost.databaseId).toBeGreaterThan(0);
  });
});
