// What guards /graphql for outside clients: depth, cost, alias and field limits, persisted operations,
// introspection and GraphiQL; and the REST routes, which run their own documents, untouched by them.
import { createHash } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestSite, SITE, type TestSite } from '../helpers/app.js';
import { createApp } from '../../gateway/app.js';
import type { Config } from '../../src/config.js';

let site: TestSite;
const dir = mkdtempSync(join(tmpdir(), 'persisted-'));
beforeAll(async () => {
  site = await createTestSite();
  await site.createPost({ title: 'Limits', content: 'Body', status: 'publish' });
});
afterAll(async () => { await site?.close(); rmSync(dir, { recursive: true, force: true }); });

/** Another app on the test site's database with some settings changed. */
// Without a webhook dispatcher: these apps are never closed, and the site's own app dispatches.
const appWith = (o: Partial<Config>) => createApp({ ...site.app.config, ...o, webhookDispatch: false }, site.db);

interface Answer { status: number; contentType: string; body: any }
async function post(app: { fetch(r: Request): Promise<Response> }, payload: Record<string, unknown>): Promise<Answer> {
  const res = await app.fetch(new Request(`${SITE}/graphql`, { method: 'POST', headers: { 'content-type': 'application/json', accept: 'application/json' }, body: JSON.stringify(payload) }));
  const text = await res.text();
  return { status: res.status, contentType: res.headers.get('content-type') ?? '', body: text.startsWith('{') ? JSON.parse(text) : text };
}

function expectRefused(res: Answer, code: string) {
  expect(res.status, JSON.stringify(res.body)).toBe(400);
  expect(res.body.data ?? null).toBeNull();
  expect(res.body.errors?.[0]?.extensions, JSON.stringify(res.body)).toMatchObject({ code, status: 400 });
}

// Depth counts fields from the root: posts (1) → nodes (2) → title (3) → rendered (4).
const DEPTH_3 = '{ posts { nodes { id } } }';
const DEPTH_4 = '{ posts { nodes { id title { rendered } } } }';

describe('depth limit', () => {
  it('runs a query at the limit and refuses one deeper with graphql_depth_limit, naming both depths', async () => {
    const app = appWith({ graphqlMaxDepth: 3 });
    const ok = await post(app, { query: DEPTH_3 });
    expect(ok.status).toBe(200);
    expect(ok.body.data.posts.nodes).toHaveLength(1);
    const deep = await post(app, { query: DEPTH_4 });
    expectRefused(deep, 'graphql_depth_limit');
    expect(deep.body.errors[0].message).toMatch(/limit of 3 exceeded, found 4/);
  });

  it('counts the fields inside fragments, not the fragment itself', async () => {
    const app = appWith({ graphqlMaxDepth: 3 });
    expect((await post(app, { query: '{ posts { ...P } } fragment P on PostList { nodes { id } }' })).status).toBe(200);
    expectRefused(await post(app, { query: '{ posts { ...P } } fragment P on PostList { nodes { title { rendered } } }' }), 'graphql_depth_limit');
  });

  it('allows 12 levels by default', async () => {
    expect(site.app.config.graphqlMaxDepth).toBe(12);
    expect((await post(site.app, { query: DEPTH_4 })).status).toBe(200);
  });
});

describe('cost limit', () => {
  it('refuses an operation over GRAPHQL_MAX_COST with graphql_cost_limit and runs a cheaper one', async () => {
    const app = appWith({ graphqlMaxCost: 20 });
    expect((await post(app, { query: DEPTH_3 })).status).toBe(200);
    const wide = `{ posts { nodes { id slug status date modified link title { raw rendered } content { raw rendered } excerpt { raw rendered } } } }`;
    const res = await post(app, { query: wide });
    expectRefused(res, 'graphql_cost_limit');
    // 10 posts (the list's default page) × 15 fields, and posts and nodes.
    expect(res.body.errors[0].message).toBe('Query cost limit of 20 exceeded, found 152.');
  });
});

describe('the REST routes are not limited', () => {
  it('serves lists, items and writes with limits far below their documents', async () => {
    const app = appWith({ graphqlMaxDepth: 1, graphqlMaxCost: 1, graphqlMaxAliases: 1, graphqlMaxFields: 1, graphqlIntrospection: false, graphqlPersisted: 'off' });
    const auth = site.users.administrator.auth;
    const list = await app.fetch(new Request(`${SITE}/wp-json/core/v2/posts?_embed=1`));
    expect(list.status).toBe(200);
    const posts = await list.json() as { id: number; title: { rendered: string } }[];
    expect(posts.map((p) => p.title.rendered)).toContain('Limits');
    const created = await app.fetch(new Request(`${SITE}/wp-json/core/v2/posts`, { method: 'POST', headers: { authorization: auth, 'content-type': 'application/json' }, body: JSON.stringify({ title: 'Through REST', status: 'publish' }) }));
    expect(created.status).toBe(201);
    expect(((await created.json()) as { title: { raw: string } }).title.raw).toBe('Through REST');
    // …while /graphql on the same app refuses a document of three fields, before even its depth is looked at.
    expectRefused(await post(app, { query: DEPTH_3 }), 'graphql_field_limit');
    expectRefused(await post(appWith({ graphqlMaxDepth: 1, graphqlMaxCost: 1 }), { query: DEPTH_3 }), 'graphql_depth_limit');
    expectRefused(await post(appWith({ graphqlMaxCost: 1 }), { query: DEPTH_3 }), 'graphql_cost_limit');
  });
});

describe('introspection', () => {
  const INTROSPECT = '{ __schema { queryType { name } } }';

  it('is answered by default', async () => {
    const res = await post(site.app, { query: INTROSPECT });
    expect(res.status).toBe(200);
    expect(res.body.data.__schema.queryType.name).toBe('Query');
  });

  it('is refused with graphql_introspection_disabled when turned off (__schema and __type); __typename still answers', async () => {
    const app = appWith({ graphqlIntrospection: false });
    expectRefused(await post(app, { query: INTROSPECT }), 'graphql_introspection_disabled');
    expectRefused(await post(app, { query: '{ __type(name: "Post") { name } }' }), 'graphql_introspection_disabled');
    const plain = await post(app, { query: '{ __typename posts { nodes { id } } }' });
    expect(plain.status).toBe(200);
    expect(plain.body.data.__typename).toBe('Query');
  });
});

describe('syntax and validation errors', () => {
  const MISSPELT = '{ posts { nodes { titel { rendered } } } }';

  it('carry a code, and the status yoga gives them (200 for a plain JSON client, as before)', async () => {
    const invalid = await post(site.app, { query: MISSPELT });
    expect(invalid.status).toBe(200);
    expect(invalid.body.errors).toHaveLength(1);
    expect(invalid.body.errors[0].extensions).toMatchObject({ code: 'graphql_validation_failed' });
    const broken = await post(site.app, { query: '{ posts { nodes { id ' });
    expect(broken.body.errors[0].extensions).toMatchObject({ code: 'graphql_parse_failed' });
    expect(broken.body.errors[0].message).toMatch(/^Syntax Error: /);
  });

  it('suggest names while introspection is on, and never when it is off', async () => {
    const on = await post(site.app, { query: MISSPELT });
    expect(on.body.errors[0].message).toMatch(/^Cannot query field "titel" on type "Post"\. Did you mean "title"[^?]*\?$/);
    const off = await post(appWith({ graphqlIntrospection: false }), { query: MISSPELT });
    expect(off.body.errors[0].message).toBe('Cannot query field "titel" on type "Post".');
    expect(off.body.errors[0].extensions).toMatchObject({ code: 'graphql_validation_failed' });
    // An argument and a type misspelt: no names either.
    const args = await post(appWith({ graphqlIntrospection: false }), { query: 'query($n: Intt) { posts(perPag: 1) { nodes { id } } }' });
    expect(args.body.errors.length).toBeGreaterThan(0);
    for (const e of args.body.errors) {
      expect(e.message).not.toMatch(/Did you mean/);
      expect(e.extensions.code).toBe('graphql_validation_failed');
    }
  });
});

describe('GraphiQL', () => {
  const open = (app: { fetch(r: Request): Promise<Response> }) => app.fetch(new Request(`${SITE}/graphql`, { headers: { accept: 'text/html,application/xhtml+xml' } }));

  it('is served at GET /graphql to a browser by default', async () => {
    const res = await open(site.app);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/^text\/html/);
    expect(await res.text()).toMatch(/graphiql/i);
  });

  it('is not served when GRAPHIQL=0', async () => {
    const res = await open(appWith({ graphiql: false }));
    expect(res.headers.get('content-type') ?? '').not.toMatch(/text\/html/);
    expect(await res.text()).not.toMatch(/graphiql/i);
  });
});

describe('persisted operations', () => {
  const doc = '{ posts { nodes { title { rendered } } } }';
  const hash = createHash('sha256').update(doc).digest('hex');
  const byHash = (id: string) => ({ extensions: { persistedQuery: { version: 1, sha256Hash: id } } });
  const unknown = createHash('sha256').update('nothing').digest('hex');
  let file: string;
  beforeAll(() => {
    file = join(dir, 'operations.json');
    writeFileSync(file, JSON.stringify({ [hash]: doc }));
  });

  it('off (the default): documents run', async () => {
    expect(site.app.config.graphqlPersisted).toBe('off');
    const res = await post(site.app, { query: doc });
    expect(res.status).toBe(200);
    expect(res.body.data.posts.nodes.map((n: { title: { rendered: string } }) => n.title.rendered)).toContain('Limits');
  });

  it('allow: a listed id runs its document, any document runs, an unknown id is persisted_query_not_found', async () => {
    const app = appWith({ graphqlPersisted: 'allow', graphqlPersistedFile: file });
    const listed = await post(app, byHash(hash));
    expect(listed.status).toBe(200);
    expect(listed.body.data.posts.nodes.map((n: { title: { rendered: string } }) => n.title.rendered)).toContain('Limits');
    expect((await post(app, { query: DEPTH_3 })).status).toBe(200);
    expectRefused(await post(app, byHash(unknown)), 'persisted_query_not_found');
  });

  it('only: a listed id runs, any other document is persisted_query_only, an unknown id persisted_query_not_found', async () => {
    const app = appWith({ graphqlPersisted: 'only', graphqlPersistedFile: file });
    const listed = await post(app, byHash(hash));
    expect(listed.status).toBe(200);
    expect(listed.body.data.posts.nodes.length).toBeGreaterThan(0);
    expectRefused(await post(app, { query: DEPTH_3 }), 'persisted_query_only');
    // The listed text sent as a document is still a document, not an id.
    expectRefused(await post(app, { query: doc }), 'persisted_query_only');
    expectRefused(await post(app, byHash(unknown)), 'persisted_query_not_found');
    expectRefused(await post(app, {}), 'persisted_query_missing');
  });

  it('a persisted document is held to the depth limit too', async () => {
    const app = appWith({ graphqlPersisted: 'only', graphqlPersistedFile: file, graphqlMaxDepth: 3 });
    expectRefused(await post(app, byHash(hash)), 'graphql_depth_limit');
  });

  it('a file that is not an object of documents stops the start with its name', () => {
    const bad = join(dir, 'bad.json');
    writeFileSync(bad, JSON.stringify({ x: '{ posts {' }));
    expect(() => appWith({ graphqlPersisted: 'only', graphqlPersistedFile: bad })).toThrow(/bad\.json: the document of x does not parse/);
    expect(() => appWith({ graphqlPersisted: 'allow', graphqlPersistedFile: join(dir, 'missing.json') })).toThrow(/missing\.json/);
  });
});
