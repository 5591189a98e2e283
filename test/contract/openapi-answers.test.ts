// The OpenAPI document as a contract: every GET operation it lists, in every `context` it allows,
// asked once as the administrator with a request built from the document alone (path parameters
// filled from the collections it also lists, required query parameters from their schemas), and
// every answer checked against the operation's responses. And the checker itself: it must refuse
// an answer that breaks the document, saying where.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestSite, SITE, type TestResponse, type TestSite } from '../helpers/app.js';
import { Contract, contractEnabled, contractFor, ContractViolation, describeViolation, type Violation } from '../helpers/contract.js';

type Doc = Record<string, any>;

/** Records of every kind the routes serve, so each collection has an item to point at. */
async function seed(site: TestSite): Promise<{ link: string }> {
  const category = await site.createTerm('categories', { name: 'Contract category' });
  const tag = await site.createTerm('tags', { name: 'Contract tag' });
  const post = await site.createPost({ title: 'Contract post', content: 'Body', status: 'publish', categories: [category.id], tags: [tag.id] });
  await site.req('POST', `/core/v2/posts/${post.id}`, { as: 'administrator', json: { content: 'Body, revised' } });
  await site.req('POST', `/core/v2/posts/${post.id}/autosaves`, { as: 'administrator', json: { content: 'Body, autosaved' } });
  const page = await site.createPage({ title: 'Contract page', content: 'Page', status: 'publish' });
  await site.req('POST', `/core/v2/pages/${page.id}`, { as: 'administrator', json: { content: 'Page, revised' } });
  await site.req('POST', `/core/v2/comments`, { as: 'administrator', json: { post: post.id, content: 'A comment' } });
  await site.req('POST', `/core/v2/users/me/application-passwords`, { as: 'administrator', json: { name: 'contract' } });
  await site.req('POST', '/core/v2/media', {
    as: 'administrator',
    body: Buffer.from('GIF89a\x01\x00\x01\x00\x80\x00\x00\x00\x00\x00\xff\xff\xff!\xf9\x04\x01\x00\x00\x00\x00,\x00\x00\x00\x00\x01\x00\x01\x00\x00\x02\x02D\x01\x00;', 'latin1'),
    headers: { 'content-type': 'image/gif', 'content-disposition': 'attachment; filename=contract.gif' },
  });
  return { link: post.link };
}

/** A value for a required query parameter, from its schema alone (URLs point at the seeded post). */
function queryValue(name: string, schema: Doc, seeded: { link: string }): string {
  if (schema.example !== undefined) return String(schema.example);
  if (schema.default !== undefined && schema.default !== null) return [schema.default].flat().join(',');
  if (Array.isArray(schema.enum)) return String(schema.enum[0]);
  const type = [schema.type].flat()[0];
  if (schema.format === 'uri' || /url/i.test(name)) return seeded.link;
  if (type === 'integer' || type === 'number') return String(schema.minimum ?? 1);
  if (type === 'boolean') return 'true';
  return 'contract';
}

describe.each(['A', 'B'] as const)('every GET operation of deployment %s keeps the document', (deployment) => {
  let site: TestSite;
  let doc: Doc;
  let contract: Contract;
  let seeded: { link: string };

  beforeAll(async () => {
    site = await createTestSite({ deployment });
    const res = await site.req('GET', '/openapi.json');
    expect(res.status).toBe(200);
    doc = res.body;
    contract = new Contract(doc, '/wp-json');
    seeded = await seed(site);
  });
  afterAll(() => site?.close());

  /** One request, checked here whether or not the helper checks every answer itself. */
  async function ask(path: string, violations: Violation[]): Promise<TestResponse | null> {
    try {
      const res = await site.req('GET', path, { as: 'administrator' });
      violations.push(...contract.check('GET', `${SITE}/wp-json${path}`, new Headers(), res));
      return res;
    } catch (e) {
      if (!(e instanceof ContractViolation)) throw e;
      violations.push(...e.violations);
      return null;
    }
  }

  /** An id for each path parameter: the first item of the collection the path extends. */
  async function fill(path: string, params: Doc[], violations: Violation[]): Promise<string | null> {
    let filled = path;
    for (const m of path.matchAll(/\{([^}]+)\}/g)) {
      const name = m[1];
      const schema = params.find((p) => p.in === 'path' && p.name === name)?.schema ?? {};
      const collection = filled.slice(0, filled.indexOf(m[0])).replace(/\/$/, '');
      let value: string | undefined;
      if (doc.paths[collection]?.get && !/\{/.test(collection)) {
        const res = await ask(collection, violations);
        const body = res?.body;
        const first = Array.isArray(body) ? body[0] : undefined;
        if (first && typeof first === 'object') value = String(first[name] ?? first.id ?? first.slug ?? first.name);
        else if (body && typeof body === 'object' && !Array.isArray(body)) value = Object.keys(body)[0];
      }
      value ??= schema.example !== undefined ? String(schema.example) : Array.isArray(schema.enum) ? String(schema.enum[0]) : undefined;
      if (value === undefined) {
        const pattern = String(schema.pattern ?? '');
        value = /\\d/.test(pattern) ? String(site.users.administrator.id) : 'contract';
      }
      filled = filled.replace(m[0], encodeURIComponent(value).replace(/%2F/g, '/'));
    }
    return filled;
  }

  it('answers as documented, in every context', async () => {
    const violations: Violation[] = [];
    let asked = 0;
    for (const [path, item] of Object.entries<Doc>(doc.paths)) {
      const op = item.get;
      if (!op) continue;
      const params = (op.parameters ?? []) as Doc[];
      const filled = await fill(path, params, violations);
      if (filled === null) continue;
      const query = new URLSearchParams();
      for (const p of params) {
        if (p.in === 'query' && p.required && p.name !== 'context') query.set(p.name, queryValue(p.name, p.schema ?? {}, seeded));
      }
      const contexts = params.find((p) => p.in === 'query' && p.name === 'context')?.schema?.enum as string[] | undefined;
      for (const context of contexts ?? [null]) {
        const q = new URLSearchParams(query);
        if (context) q.set('context', context);
        await ask(`${filled}${q.size ? `?${q}` : ''}`, violations);
        asked++;
      }
    }
    expect(asked).toBeGreaterThan(30);
    expect(violations.map(describeViolation)).toEqual([]);
  });
});

describe('the contract check', () => {
  let site: TestSite;
  let doc: Doc;
  let post: any;

  beforeAll(async () => {
    site = await createTestSite();
    doc = (await site.req('GET', '/openapi.json')).body;
    post = await site.createPost({ title: 'Checked', status: 'publish' });
  });
  afterAll(() => site?.close());

  const url = (path: string) => `${SITE}/wp-json${path}`;
  const json = new Headers({ 'content-type': 'application/json; charset=UTF-8' });

  it('refuses a body that breaks the schema, naming the operation and the place', async () => {
    const contract = new Contract(doc, '/wp-json');
    const res = await site.req('GET', `/core/v2/posts/${post.id}?context=edit`, { as: 'administrator' });
    expect(contract.check('GET', url(`/core/v2/posts/${post.id}?context=edit`), new Headers(), res)).toEqual([]);

    const wrong = { ...res, body: { ...res.body, id: String(res.body.id) } };
    const [v, ...more] = contract.check('GET', url(`/core/v2/posts/${post.id}?context=edit`), new Headers(), wrong);
    expect(more).toEqual([]);
    expect(v).toMatchObject({ method: 'GET', status: 200, operation: 'getCoreV2PostsId', kind: 'body breaks its schema' });
    expect(describeViolation(v)).toMatch(/^contract: GET \/wp-json\/core\/v2\/posts\/\d+\?context=edit \(getCoreV2PostsId\) answered 200: body breaks its schema at \/id: must be integer/);
  });

  it('reports only the closest view when an answer matches none: the one with the fewest errors, per item of a list', async () => {
    const contract = new Contract(doc, '/wp-json');
    const one = await site.req('GET', `/core/v2/posts/${post.id}`);
    expect(contract.check('GET', url(`/core/v2/posts/${post.id}`), new Headers(), one)).toEqual([]);
    // The view answer with a wrong id also lacks the edit view's raw fields; only the id is said.
    const wrong = { ...one, body: { ...one.body, id: 'one' } };
    expect(contract.check('GET', url(`/core/v2/posts/${post.id}`), new Headers(), wrong).map((v) => [v.instancePath, v.message.split(' (')[0]]))
      .toEqual([['/id', 'must be integer {"type":"integer"}']]);
    const list = await site.req('GET', '/core/v2/posts');
    expect(list.body.length).toBeGreaterThan(0);
    const broken = { ...list, body: list.body.map((p: any, i: number) => (i === 0 ? { ...p, slug: 7 } : p)) };
    expect(contract.check('GET', url('/core/v2/posts'), new Headers(), broken).map((v) => [v.instancePath, v.message.split(' (')[0]]))
      .toEqual([['/0/slug', 'must be string {"type":"string"}']]);
    // Nothing closer to say: a body that is not an item at all still fails.
    expect(contract.check('GET', url(`/core/v2/posts/${post.id}`), new Headers(), { ...one, body: 42 }).length).toBeGreaterThan(0);
  });

  it('checks `_embedded` by relation: the author as a user, the terms as terms, an error as WP_Error', async () => {
    const contract = new Contract(doc, '/wp-json');
    const embedded = doc.components.schemas.Embedded;
    expect(Object.keys(embedded.properties)).toEqual(expect.arrayContaining(['author', 'wp:featuredmedia', 'up', 'wp:term']));
    expect(JSON.stringify(embedded.properties.author)).toContain('#/components/schemas/UserEmbed');
    const path = `/core/v2/posts/${post.id}?_embed=1`;
    const res = await site.req('GET', path);
    expect(Object.keys(res.body._embedded)).toEqual(expect.arrayContaining(['author', 'wp:term']));
    expect(contract.check('GET', url(path), new Headers(), res)).toEqual([]);
    const messages = (body: any) => contract.check('GET', url(path), new Headers(), { ...res, body }).map((v) => [v.instancePath, v.message.split(' (')[0]]);
    // A user without its name, a term with a text id: each is reported where it is (beside what
    // the other branch of the relation, a WordPress error, would have needed).
    const author = { ...res.body._embedded.author[0] };
    delete author.name;
    expect(messages({ ...res.body, _embedded: { ...res.body._embedded, author: [author] } }))
      .toContainEqual(['/_embedded/author/0', 'must have required property \'name\' {"missingProperty":"name"}']);
    const terms = res.body._embedded['wp:term'].map((list: any[], i: number) => (i === 0 ? list.map((t) => ({ ...t, id: 'x' })) : list));
    expect(messages({ ...res.body, _embedded: { ...res.body._embedded, 'wp:term': terms } }))
      .toContainEqual(['/_embedded/wp:term/0/0/id', 'must be integer {"type":"integer"}']);
    // What a refused link answers is an item of its own: a WordPress error.
    const refused = { code: 'rest_user_invalid_id', message: 'Invalid user ID.', data: { status: 404 } };
    expect(messages({ ...res.body, _embedded: { ...res.body._embedded, author: [refused] } })).toEqual([]);
    expect(messages({ ...res.body, _embedded: { ...res.body._embedded, author: [{ code: 'x' }] } }).length).toBeGreaterThan(0);
  });

  it('refuses a real answer against a schema changed under it', async () => {
    const changed = structuredClone(doc);
    for (const view of ['PostView', 'PostEdit', 'PostEmbed']) changed.components.schemas[view].properties.title.type = 'string';
    const contract = new Contract(changed, '/wp-json');
    const res = await site.req('GET', `/core/v2/posts/${post.id}?context=edit`, { as: 'administrator' });
    const found = contract.check('GET', url(`/core/v2/posts/${post.id}?context=edit`), new Headers(), res);
    expect(found.map((v) => [v.instancePath, v.message.split(' (')[0]])).toEqual([['/title', 'must be string {"type":"string"}']]);
    expect(new Contract(doc, '/wp-json').check('GET', url(`/core/v2/posts/${post.id}?context=edit`), new Headers(), res)).toEqual([]);
    expect(() => { throw new ContractViolation(found); }).toThrow(/getCoreV2PostsId\) answered 200: body breaks its schema at \/title/);
  });

  it.skipIf(!contractEnabled)('fails the request in the helper, with the document loaded once', async () => {
    const changed = structuredClone(doc);
    for (const view of ['PostView', 'PostEdit', 'PostEmbed']) changed.components.schemas[view].properties.id.type = 'string';
    let loads = 0;
    const check = contractFor(async () => { loads++; return changed; }, '/wp-json');
    const res = await site.req('GET', `/core/v2/posts/${post.id}?context=edit`, { as: 'administrator' });
    await expect(check('GET', url(`/core/v2/posts/${post.id}?context=edit`), new Headers(), res)).rejects.toThrow(ContractViolation);
    await expect(check('GET', url(`/core/v2/posts/${post.id}?context=edit`), new Headers(), res)).rejects.toThrow(/at \/id: must be string/);
    await expect(check('GET', `${SITE}/graphql`, new Headers(), res)).resolves.toBeUndefined();
    expect(loads).toBe(1);
  });

  it('refuses an undocumented status and an undocumented content type', () => {
    // Every operation declares a `default` error; without it, a status it does not list is refused.
    const changed = structuredClone(doc);
    delete changed.paths['/core/v2/posts'].get.responses.default;
    const contract = new Contract(changed, '/wp-json');
    const teapot = contract.check('GET', url('/core/v2/posts'), new Headers(), { status: 418, headers: json, body: { code: 'x' }, text: '{"code":"x"}' });
    expect(teapot).toMatchObject([{ kind: 'undocumented status', operation: 'getCoreV2Posts' }]);
    const totals = { 'x-wp-total': '1', 'x-wp-totalpages': '1' };
    const csv = contract.check('GET', url('/core/v2/posts'), new Headers(), { status: 200, headers: new Headers({ 'content-type': 'text/csv', ...totals }), body: 'a,b', text: 'a,b' });
    expect(csv).toMatchObject([{ kind: 'undocumented content type', message: expect.stringContaining('text/csv') }]);
    const untold = contract.check('GET', url('/core/v2/posts'), new Headers(), { status: 200, headers: json, body: [], text: '[]' });
    expect(untold.map((v) => [v.kind, v.message])).toEqual([
      ['missing header', 'the required header X-WP-Total is not sent'],
      ['missing header', 'the required header X-WP-TotalPages is not sent'],
    ]);
  });

  it('checks an enveloped answer: a 200 envelope, and what it holds as the answer it stands for', async () => {
    const contract = new Contract(doc, '/wp-json');
    const list = await site.req('GET', '/core/v2/posts?_envelope');
    expect(list.body.status).toBe(200);
    expect(contract.check('GET', url('/core/v2/posts?_envelope'), new Headers(), list)).toEqual([]);
    const missing = await site.req('GET', '/core/v2/posts/987654?_envelope=1');
    expect(missing.body.status).toBe(404);
    expect(contract.check('GET', url('/core/v2/posts/987654?_envelope=1'), new Headers(), missing)).toEqual([]);

    const asked = `/core/v2/posts/${post.id}?context=edit&_envelope`;
    const item = await site.req('GET', asked, { as: 'administrator' });
    expect(contract.check('GET', url(asked), new Headers(), item)).toEqual([]);
    const broken = { ...item, body: { ...item.body, body: { ...item.body.body, id: 'one' } } };
    expect(contract.check('GET', url(asked), new Headers(), broken).map((v) => [v.kind, v.instancePath]))
      .toEqual([['enveloped body breaks its schema', '/id']]);
    const bare = { ...item, body: item.body.body };
    expect(contract.check('GET', url(asked), new Headers(), bare).map((v) => v.kind))
      .toEqual(expect.arrayContaining(['body breaks its schema']));
    const untotalled = { ...list, body: { ...list.body, headers: {} } };
    expect(contract.check('GET', url('/core/v2/posts?_envelope'), new Headers(), untotalled).map((v) => v.message))
      .toContain('the required header X-WP-Total is not sent');
    const undeclared = structuredClone(doc);
    undeclared.paths['/core/v2/posts'].get.parameters = undeclared.paths['/core/v2/posts'].get.parameters.filter((p: any) => p.$ref !== '#/components/parameters/_envelope');
    expect(new Contract(undeclared, '/wp-json').check('GET', url('/core/v2/posts?_envelope'), new Headers(), list).map((v) => v.kind)).toEqual(['undeclared parameter']);
  });

  it('checks OPTIONS against the route description and HEAD against its own statuses and headers', async () => {
    const contract = new Contract(doc, '/wp-json');
    const options = await site.req('OPTIONS', `/core/v2/posts/${post.id}`);
    expect(options.status).toBe(200);
    expect(contract.check('OPTIONS', url(`/core/v2/posts/${post.id}`), new Headers(), options)).toEqual([]);
    const wrong = { ...options, body: { ...options.body, endpoints: 'none' } };
    expect(contract.check('OPTIONS', url(`/core/v2/posts/${post.id}`), new Headers(), wrong))
      .toMatchObject([{ operation: 'optionsCoreV2PostsId', kind: 'body breaks its schema', instancePath: '/endpoints' }]);
    const head = await site.req('HEAD', '/core/v2/posts');
    expect(head.status).toBe(200);
    expect(head.text).toBe('');
    expect(contract.check('HEAD', url('/core/v2/posts'), new Headers(), head)).toEqual([]);
    const untotalled = { ...head, headers: new Headers({ 'content-type': 'application/json' }) };
    expect(contract.check('HEAD', url('/core/v2/posts'), new Headers(), untotalled).map((v) => [v.operation, v.kind]))
      .toEqual([['headCoreV2Posts', 'missing header'], ['headCoreV2Posts', 'missing header']]);
    const refused = { status: 418, headers: json, body: null, text: '' };
    expect(contract.check('HEAD', url(`/core/v2/posts/${post.id}`), new Headers(), refused)).toEqual([]);
    const strict = structuredClone(doc);
    delete strict.paths['/core/v2/posts/{id}'].head.responses.default;
    expect(new Contract(strict, '/wp-json').check('HEAD', url(`/core/v2/posts/${post.id}`), new Headers(), refused))
      .toMatchObject([{ operation: 'headCoreV2PostsId', kind: 'undocumented status' }]);
  });

  it('finds operations as the dispatcher does, and leaves other paths alone', () => {
    const contract = new Contract(doc, '/wp-json');
    expect(contract.routePath(new URL(`${SITE}/wp-json/core/v2/posts/`))).toBe('/core/v2/posts');
    expect(contract.routePath(new URL(`${SITE}/?rest_route=/core/v2/posts`))).toBe('/core/v2/posts');
    expect(contract.routePath(new URL(`${SITE}/graphql`))).toBeNull();
    expect(contract.operation('GET', `/core/v2/posts/${post.id}`)?.id).toBe('getCoreV2PostsId');
    expect(contract.operation('GET', '/core/v2/users/me')?.id).toBe('getCoreV2UsersMe');
    expect(contract.operation('OPTIONS', '/core/v2/users/me')?.id).toBe('optionsCoreV2UsersMe');
    expect(contract.operation('HEAD', `/core/v2/posts/${post.id}`)?.id).toBe('headCoreV2PostsId');
    expect(contract.check('GET', `${SITE}/hello-world/`, new Headers(), { status: 418, headers: json, body: null, text: '' })).toEqual([]);
  });
});
