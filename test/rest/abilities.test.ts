// abilities/v1: the list (category filter, paging), one ability, and running each with the
// method its annotations call for; refusals in WordPress's order (404, 405, 400, 401/403),
// each with its code; every answer checked against the ability's output schema.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestSite, type TestSite } from '../helpers/app.js';
import { ABILITIES, findAbility } from '../../src/abilities/index.js';
import type { Role } from '../../src/auth/capabilities.js';

let site: TestSite;
const base = '/abilities/v1/abilities';
const run = (name: string) => `${base}/${name}/run`;
const expectError = (res: { status: number; body: any }, status: number, code: string) =>
  expect([res.status, res.body?.code, res.body?.data?.status], JSON.stringify(res.body)).toEqual([status, code, status]);
/** The output matches the ability's output schema. */
const expectOutput = (name: string, body: unknown) => {
  const validate = findAbility(name)!.validateOutput;
  expect(validate(body), JSON.stringify(validate.errors)).toBe(true);
};

beforeAll(async () => { site = await createTestSite(); });
afterAll(async () => { await site?.close(); });

describe('abilities/v1 list and item', () => {
  it('has valid input and output schemas for every ability (compiled on first use, the same validator after)', () => {
    for (const a of ABILITIES) {
      for (const v of [a.validateInput, a.validateQueryInput, a.validateOutput]) expect(typeof v).toBe('function');
      expect(a.validateOutput).toBe(a.validateOutput);
    }
  });

  it('lists every ability to signed-in callers, with paging headers; anonymous callers get 401 rest_forbidden', async () => {
    const res = await site.req('GET', base, { as: 'subscriber' });
    expect(res.status).toBe(200);
    expect(res.body.map((a: any) => a.name)).toEqual(ABILITIES.map((a) => a.name));
    expect(res.headers.get('x-wp-total')).toBe(String(ABILITIES.length));
    expect(res.headers.get('x-wp-totalpages')).toBe('1');
    const anon = await site.req('GET', base);
    expectError(anon, 401, 'rest_forbidden');
  });

  it('pages with page and per_page, and filters by category', async () => {
    const second = await site.req('GET', `${base}?per_page=3&page=2`, { as: 'author' });
    expect(second.status).toBe(200);
    expect(second.body.map((a: any) => a.name)).toEqual(ABILITIES.slice(3, 6).map((a) => a.name));
    expect(second.headers.get('x-wp-totalpages')).toBe(String(Math.ceil(ABILITIES.length / 3)));
    const site_ = await site.req('GET', `${base}?category=site`, { as: 'author' });
    expect(site_.body.map((a: any) => a.name)).toEqual(ABILITIES.filter((a) => a.category === 'site').map((a) => a.name));
    expect(site_.headers.get('x-wp-total')).toBe(String(ABILITIES.filter((a) => a.category === 'site').length));
    const tooMany = await site.req('GET', `${base}?per_page=101`, { as: 'author' });
    expectError(tooMany, 400, 'rest_invalid_param');
  });

  it('answers one ability with its schemas and annotations as defined; unknown names are 404 rest_ability_not_found', async () => {
    const def = findAbility('core/create-draft')!;
    const res = await site.req('GET', `${base}/core/create-draft`, { as: 'subscriber' });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({
      name: def.name, label: def.label, description: def.description, category: def.category,
      input_schema: def.inputSchema, output_schema: def.outputSchema, meta: { annotations: def.annotations, show_in_rest: true },
    });
    expect(res.body._links['wp:action-run'][0].href).toBe(`${site.app.root}abilities/v1/abilities/core/create-draft/run`);
    expectError(await site.req('GET', `${base}/core/no-such-thing`, { as: 'subscriber' }), 404, 'rest_ability_not_found');
    expectError(await site.req('GET', `${base}/core/create-draft`), 401, 'rest_forbidden');
  });
});

describe('abilities/v1 run', () => {
  it('core/create-draft: a contributor creates a draft through the posts service', async () => {
    const res = await site.req('POST', run('core/create-draft'), { as: 'contributor', json: { input: { title: 'Drafted by ability', content: '<p>Body</p>' } } });
    expect(res.status, res.text).toBe(200);
    expectOutput('core/create-draft', res.body);
    const post = await site.req('GET', `/core/v2/posts/${res.body.id}?context=edit`, { as: 'administrator' });
    expect(post.status).toBe(200);
    expect(post.body.status).toBe('draft');
    expect(post.body.title.raw).toBe('Drafted by ability');
    expect(post.body.content.raw).toBe('<p>Body</p>');
    expect(post.body.author).toBe(site.users.contributor.id);
    expect(res.body.link).toBe(post.body.link);
  });

  it('core/create-draft: refusals by status and code, in WordPress\'s order', async () => {
    const ok = { input: { title: 'x' } };
    // Not read-only: GET is the wrong method, for everyone (checked before input and rights).
    expectError(await site.req('GET', `${run('core/create-draft')}?input[title]=x`, { as: 'administrator' }), 405, 'rest_ability_invalid_method');
    expectError(await site.req('GET', run('core/create-draft')), 405, 'rest_ability_invalid_method');
    for (const input of [{}, { title: '' }, { title: 5 }, { title: 'x', extra: true }, 'text']) {
      expectError(await site.req('POST', run('core/create-draft'), { as: 'author', json: { input } }), 400, 'ability_invalid_input');
    }
    expectError(await site.req('POST', run('core/create-draft'), { as: 'author', json: {} }), 400, 'ability_invalid_input');
    expectError(await site.req('POST', run('core/create-draft'), { json: ok }), 401, 'rest_ability_cannot_execute');
    expectError(await site.req('POST', run('core/create-draft'), { as: 'subscriber', json: ok }), 403, 'rest_ability_cannot_execute');
    expectError(await site.req('POST', run('core/no-such-thing'), { as: 'administrator', json: ok }), 404, 'rest_ability_not_found');
  });

  it('core/create-draft: the message names the failing property', async () => {
    const res = await site.req('POST', run('core/create-draft'), { as: 'author', json: { input: { content: 'no title' } } });
    expectError(res, 400, 'ability_invalid_input');
    expect(res.body.message).toBe('Ability "core/create-draft" has invalid input. Reason: input/title is a required property.');
  });

  it('core/site-statistics: counts as the collections and tables do; writers only', async () => {
    await site.createPost({ title: 'Stat post', status: 'publish' });
    await site.createPost({ title: 'Stat draft', status: 'draft' });
    await site.createPage({ title: 'Stat page', status: 'publish' });
    await site.createTerm('tags', { name: 'Stat tag' });
    const res = await site.req('GET', run('core/site-statistics'), { as: 'contributor' });
    expect(res.status, res.text).toBe(200);
    expectOutput('core/site-statistics', res.body);
    const total = async (path: string) => Number((await site.req('GET', path)).headers.get('x-wp-total'));
    expect(res.body.posts).toBe(await total('/core/v2/posts'));
    expect(res.body.pages).toBe(await total('/core/v2/pages'));
    expect(res.body.media).toBe(await total('/core/v2/media'));
    expect(res.body.users).toBe(await site.db.prisma.user.count());
    expect(res.body.terms).toBe(await total('/core/v2/categories') + await total('/core/v2/tags'));
    expectError(await site.req('GET', run('core/site-statistics'), { as: 'subscriber' }), 403, 'rest_ability_cannot_execute');
    expectError(await site.req('GET', run('core/site-statistics')), 401, 'rest_ability_cannot_execute');
    expectError(await site.req('POST', run('core/site-statistics'), { as: 'administrator', json: {} }), 405, 'rest_ability_invalid_method');
    expectError(await site.req('GET', `${run('core/site-statistics')}?input[extra]=1`, { as: 'administrator' }), 400, 'ability_invalid_input');
  });

  it('core/search-content: published matches only, input in brackets or as JSON', async () => {
    const hit = await site.createPost({ title: 'Zyzzyva habits', status: 'publish' });
    await site.createPost({ title: 'Zyzzyva secrets', status: 'draft' });
    const page = await site.createPage({ title: 'About zyzzyva', status: 'publish' });
    const bracket = await site.req('GET', `${run('core/search-content')}?input[query]=zyzzyva`, { as: 'subscriber' });
    expect(bracket.status, bracket.text).toBe(200);
    expectOutput('core/search-content', bracket.body);
    expect(bracket.body).toEqual({ total: 1, results: [{ id: hit.id, title: 'Zyzzyva habits', type: 'post' }] });
    const json = await site.req('GET', `${run('core/search-content')}?input=${encodeURIComponent(JSON.stringify({ query: 'zyzzyva', type: 'page', per_page: 5 }))}`, { as: 'subscriber' });
    expect(json.status, json.text).toBe(200);
    expect(json.body.results.map((r: any) => r.id)).toEqual([page.id]);
    for (const q of ['input[query]=', 'input[query]=x&input[type]=media', 'input[query]=x&input[per_page]=0', 'input[per_page]=5', 'input=%7Bnot-json']) {
      expectError(await site.req('GET', `${run('core/search-content')}?${q}`, { as: 'subscriber' }), 400, 'ability_invalid_input');
    }
    // Input is checked before rights, as WordPress: anonymous callers with valid input are 401.
    expectError(await site.req('GET', `${run('core/search-content')}?input[query]=zyzzyva`), 401, 'rest_ability_cannot_execute');
  });

  it('core/get-site-info: the index\'s name, description, url and namespaces, for every role', async () => {
    const index = (await site.req('GET', '/')).body;
    for (const role of ['administrator', 'subscriber'] as Role[]) {
      const res = await site.req('GET', run('core/get-site-info'), { as: role });
      expect(res.status).toBe(200);
      expectOutput('core/get-site-info', res.body);
      expect(res.body).toEqual({ name: index.name, description: index.description, url: index.home, namespaces: index.namespaces });
    }
  });

  it('every ability\'s schemas are valid JSON Schemas with an object input', () => {
    for (const a of ABILITIES) {
      expect(a.inputSchema.type, a.name).toBe('object');
      expect(a.outputSchema.type, a.name).toBe('object');
    }
  });
});
