// abilities/v1 over /graphql: the `abilities` and `ability` queries and the runAbility mutation
// answer what the REST routes answer on the same data, with the same refusals.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestSite, type TestSite } from '../helpers/app.js';
import { expectGqlError } from '../helpers/gql.js';

let site: TestSite;
let b: TestSite;
beforeAll(async () => { [site, b] = await Promise.all([createTestSite(), createTestSite({ deployment: 'B' })]); });
afterAll(async () => { await site?.close(); await b?.close(); });

const base = '/abilities/v1/abilities';
const run = (name: string) => `${base}/${name}/run`;
const RUN = 'mutation($n: String!, $i: JSON) { runAbility(name: $n, input: $i) }';
const FIELDS = 'name label description category inputSchema outputSchema annotations { readonly destructive idempotent }';
const fromRest = (r: any) => ({
  name: r.name, label: r.label, description: r.description, category: r.category,
  inputSchema: r.input_schema, outputSchema: r.output_schema, annotations: r.meta.annotations,
});

describe('abilities and ability', () => {
  it('list and describe the abilities as REST does, needing read', async () => {
    const res = await site.gql(`{ abilities { ${FIELDS} } }`, {}, { as: 'subscriber' });
    expect(res.errors).toBeUndefined();
    const rest = await site.req('GET', base, { as: 'subscriber' });
    expect(res.data.abilities).toEqual(rest.body.map(fromRest));
    const cat = await site.gql('{ abilities(category: "site") { name } }', {}, { as: 'author' });
    const restCat = await site.req('GET', `${base}?category=site`, { as: 'author' });
    expect(cat.data.abilities.map((a: any) => a.name)).toEqual(restCat.body.map((a: any) => a.name));
    expectGqlError(await site.gql('{ abilities { name } }'), 401, 'rest_forbidden');

    const one = await site.gql(`{ ability(name: "core/create-draft") { ${FIELDS} } }`, {}, { as: 'subscriber' });
    expect(one.data.ability).toEqual(fromRest((await site.req('GET', `${base}/core/create-draft`, { as: 'subscriber' })).body));
    expectGqlError(await site.gql('{ ability(name: "core/no-such-thing") { name } }', {}, { as: 'subscriber' }), 404, 'rest_ability_not_found');
    expectGqlError(await site.gql('{ ability(name: "core/create-draft") { name } }'), 401, 'rest_forbidden');
  });
});

describe('runAbility', () => {
  it('creates a draft as REST does, with the same refusals', async () => {
    const input = { title: 'Drafted over GraphQL', content: '<p>Body</p>' };
    const res = await site.gql(RUN, { n: 'core/create-draft', i: input }, { as: 'contributor' });
    expect(res.errors).toBeUndefined();
    const out = res.data.runAbility;
    const rest = await site.req('POST', run('core/create-draft'), { as: 'contributor', json: { input } });
    expect(rest.status).toBe(200);
    expect(out).toEqual({ ...rest.body, id: out.id, link: rest.body.link.replace(String(rest.body.id), String(out.id)) });
    const post = await site.req('GET', `/core/v2/posts/${out.id}?context=edit`, { as: 'administrator' });
    expect([post.body.status, post.body.title.raw, post.body.author]).toEqual(['draft', input.title, site.users.contributor.id]);

    for (const [as, status] of [[undefined, 401], ['subscriber', 403]] as const) {
      const restErr = await site.req('POST', run('core/create-draft'), { as, json: { input } });
      expect([restErr.status, restErr.body.code]).toEqual([status, 'rest_ability_cannot_execute']);
      expectGqlError(await site.gql(RUN, { n: 'core/create-draft', i: input }, { as }), status, 'rest_ability_cannot_execute');
    }
    for (const bad of [{ content: 'no title' }, { title: 5 }, { title: 'x', extra: 1 }, undefined]) {
      const restErr = await site.req('POST', run('core/create-draft'), { as: 'author', json: bad === undefined ? {} : { input: bad } });
      expect([restErr.status, restErr.body.code]).toEqual([400, 'ability_invalid_input']);
      const g = await site.gql(RUN, { n: 'core/create-draft', i: bad }, { as: 'author' });
      expectGqlError(g, 400, 'ability_invalid_input');
      expect(g.errors![0].message).toBe(restErr.body.message);
    }
    expectGqlError(await site.gql(RUN, { n: 'core/no-such-thing', i: input }, { as: 'administrator' }), 404, 'rest_ability_not_found');
  });

  it('runs read-only abilities with the same answer and rights as REST', async () => {
    const stats = await site.gql(RUN, { n: 'core/site-statistics' }, { as: 'contributor' });
    expect(stats.data.runAbility).toEqual((await site.req('GET', run('core/site-statistics'), { as: 'contributor' })).body);
    expectGqlError(await site.gql(RUN, { n: 'core/site-statistics' }, { as: 'subscriber' }), 403, 'rest_ability_cannot_execute');
    expectGqlError(await site.gql(RUN, { n: 'core/site-statistics' }), 401, 'rest_ability_cannot_execute');
    expectGqlError(await site.gql(RUN, { n: 'core/site-statistics', i: { extra: 1 } }, { as: 'administrator' }), 400, 'ability_invalid_input');

    const q = { query: 'Drafted', type: 'post', per_page: 5 };
    const search = await site.gql(RUN, { n: 'core/search-content', i: q }, { as: 'subscriber' });
    expect(search.data.runAbility).toEqual((await site.req('GET', `${run('core/search-content')}?input=${encodeURIComponent(JSON.stringify(q))}`, { as: 'subscriber' })).body);
    // JSON input is not coerced: a string count is refused (REST's POST body validates the same way).
    expectGqlError(await site.gql(RUN, { n: 'core/search-content', i: { query: 'x', per_page: '5' } }, { as: 'subscriber' }), 400, 'ability_invalid_input');

    for (const s of [site, b]) {
      const info = await s.gql(RUN, { n: 'core/get-site-info' }, { as: 'subscriber' });
      expect(info.data.runAbility).toEqual((await s.req('GET', run('core/get-site-info'), { as: 'subscriber' })).body);
    }
  });
});
