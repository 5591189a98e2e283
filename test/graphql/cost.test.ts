// The cost of a /graphql operation is measured with its variables (gateway/graphql-cost.ts): the
// same request costs the same written with literals or with variables, lists count the sizes they
// ask for (first, last, perPage and their defaults, within the server's caps), fragments count
// where they are spread; aliases and fields have limits of their own. Realistic front-end queries
// run under the default limits.
import { createHash } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import fc from 'fast-check';
import { parse } from 'graphql';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestSite, SITE, type TestSite } from '../helpers/app.js';
import { createApp } from '../../gateway/app.js';
import { operationCost, UNSIZED_LIST } from '../../gateway/graphql-cost.js';
import { schema } from '../../src/schema/index.js';
import type { Config } from '../../src/config.js';

let site: TestSite;
const dir = mkdtempSync(join(tmpdir(), 'graphql-cost-'));
const ids = { news: 0, world: 0, europe: 0, sport: 0, tag: 0, writer: 0, story: 0 };

beforeAll(async () => {
  site = await createTestSite();
  ids.news = (await site.createTerm('categories', { name: 'News' })).id;
  ids.world = (await site.createTerm('categories', { name: 'World', parent: ids.news })).id;
  ids.europe = (await site.createTerm('categories', { name: 'Europe', parent: ids.world })).id;
  ids.sport = (await site.createTerm('categories', { name: 'Sport' })).id;
  ids.tag = (await site.createTerm('tags', { name: 'Analysis' })).id;
  ids.writer = (await site.createUser({ username: 'writer', name: 'Wendy Writer', roles: ['author'] })).id;
  for (let i = 1; i <= 12; i++) {
    const post = await site.createPost({
      title: `Story ${i}`, content: `<p>Body of story ${i}.</p>`, excerpt: `Summary ${i}`, status: 'publish',
      date: `2024-01-${String(i).padStart(2, '0')}T10:00:00`,
      author: i <= 7 ? ids.writer : site.users.administrator.id,
      categories: i % 3 === 0 ? [ids.sport] : [ids.europe, ids.news], tags: i % 2 ? [ids.tag] : [],
    });
    if (i === 7) ids.story = post.id;
  }
});
afterAll(async () => { await site?.close(); rmSync(dir, { recursive: true, force: true }); });

const apps = new Map<string, ReturnType<typeof createApp>>();
/** An app on the test site's database with some limits changed (one per setting, kept; no webhook dispatcher of its own: nothing stops it). */
function appWith(o: Partial<Config>) {
  const key = JSON.stringify(o);
  let app = apps.get(key);
  if (!app) apps.set(key, (app = createApp({ ...site.app.config, ...o, webhookDispatch: false }, site.db)));
  return app;
}

interface Answer { status: number; body: any }
async function post(app: { fetch(r: Request): Promise<Response> }, payload: Record<string, unknown>): Promise<Answer> {
  const res = await app.fetch(new Request(`${SITE}/graphql`, { method: 'POST', headers: { 'content-type': 'application/json', accept: 'application/json' }, body: JSON.stringify(payload) }));
  const text = await res.text();
  return { status: res.status, body: text.startsWith('{') ? JSON.parse(text) : text };
}

function expectRefused(res: Answer, code: string, message?: string) {
  expect(res.status, JSON.stringify(res.body).slice(0, 2000)).toBe(400);
  expect(res.body.data ?? null).toBeNull();
  expect(res.body.errors?.[0]?.extensions, JSON.stringify(res.body).slice(0, 2000)).toMatchObject({ code, status: 400 });
  if (message) expect(res.body.errors[0].message).toBe(message);
}

function expectRan(res: Answer) {
  expect(res.status, JSON.stringify(res.body).slice(0, 2000)).toBe(200);
  expect(res.body.errors, JSON.stringify(res.body.errors)).toBeUndefined();
  expect(res.body.data).toBeTruthy();
}

const cost = (query: string, variables?: Record<string, unknown>) => operationCost(schema, parse(query), variables);

describe('list sizes come from the variables as from literals', () => {
  const NESTED_VARS = 'query($n: Int! = 100) { postsConnection(first: $n) { nodes { categories { nodes { posts(first: $n) { nodes { content { rendered } } } } } } } }';
  const NESTED_LITERALS = '{ postsConnection(first: 100) { nodes { categories { nodes { posts(first: 100) { nodes { content { rendered } } } } } } } }';

  it('refuses a nested connection sized by a variable (its default or a value sent) as it refuses it written with literals', async () => {
    // 100 posts × 5 categories (what a list without a size counts) × 100 posts × 2 fields, and the fields around them.
    const message = 'Query cost limit of 25000 exceeded, found 101202.';
    expectRefused(await post(site.app, { query: NESTED_LITERALS }), 'graphql_cost_limit', message);
    expectRefused(await post(site.app, { query: NESTED_VARS }), 'graphql_cost_limit', message);
    expectRefused(await post(site.app, { query: NESTED_VARS, variables: { n: 100 } }), 'graphql_cost_limit', message);
    // A value above the cap counts as the cap: the server answers no more than 100.
    expectRefused(await post(site.app, { query: NESTED_VARS, variables: { n: 5000 } }), 'graphql_cost_limit', message);
    // Small sizes run, however they are written.
    expectRan(await post(site.app, { query: NESTED_VARS, variables: { n: 3 } }));
    expectRan(await post(site.app, { query: NESTED_LITERALS.replaceAll('100', '3') }));
    expect(site.app.config.graphqlMaxCost).toBe(25_000);
  });

  it('counts perPage: a page of 100 costs 100 items, a page of 90 runs under a limit between them', async () => {
    const app = appWith({ graphqlMaxCost: 1000 });
    const literal = (n: number) => `{ posts(perPage: ${n}) { nodes { id slug link date title { rendered } content { rendered } excerpt { rendered } } } }`;
    const vars = 'query($n: Int = 100) { posts(perPage: $n) { nodes { id slug link date title { rendered } content { rendered } excerpt { rendered } } } }';
    const message = 'Query cost limit of 1000 exceeded, found 1002.';
    expectRefused(await post(app, { query: literal(100) }), 'graphql_cost_limit', message);
    expectRefused(await post(app, { query: vars }), 'graphql_cost_limit', message);
    expectRefused(await post(app, { query: vars, variables: { n: 100 } }), 'graphql_cost_limit', message);
    // Unsized, the list's own default page (10).
    expect(cost('{ posts { nodes { id } } }')).toBe(cost('{ posts(perPage: 10) { nodes { id } } }'));
    const ran = await post(app, { query: vars, variables: { n: 90 } });
    expectRan(ran);
    expect(ran.body.data.posts.nodes.length).toBeGreaterThanOrEqual(12);
    expectRan(await post(app, { query: literal(90) }));
  });

  it('holds a persisted document to the limit with the variables it is sent with', async () => {
    const doc = 'query List($n: Int) { posts(perPage: $n) { nodes { id title { rendered } } } }';
    const hash = createHash('sha256').update(doc).digest('hex');
    const file = join(dir, 'operations.json');
    writeFileSync(file, JSON.stringify({ [hash]: doc }));
    const app = appWith({ graphqlPersisted: 'only', graphqlPersistedFile: file, graphqlMaxCost: 100 });
    const byHash = (variables: Record<string, unknown>) => ({ variables, extensions: { persistedQuery: { version: 1, sha256Hash: hash } } });
    expectRan(await post(app, byHash({ n: 5 })));
    expectRefused(await post(app, byHash({ n: 50 })), 'graphql_cost_limit', 'Query cost limit of 100 exceeded, found 152.');
  });
});

describe('subscriptions', () => {
  it('are held to the limit with their variables when they start: the refusal is the stream\'s one event, on a 400', async () => {
    const app = appWith({ graphqlMaxCost: 50 });
    const query = 'subscription Changes($n: Int = 100) { contentChanged { action node { ... on Post { categories { nodes { posts(first: $n) { nodes { id } } } } } } } }';
    const open = (variables: Record<string, unknown>) => app.fetch(new Request(`${SITE}/graphql`, {
      method: 'POST', headers: { 'content-type': 'application/json', accept: 'text/event-stream' }, body: JSON.stringify({ query, variables }),
    }));
    const refused = await open({});
    expect(refused.status).toBe(400);
    const events = (await refused.text()).split('\n').filter((l) => l.startsWith('data: {')).map((l) => JSON.parse(l.slice(6)));
    expect(events).toEqual([{ errors: [{ message: 'Query cost limit of 50 exceeded, found 515.', extensions: { code: 'graphql_cost_limit', status: 400 } }] }]);
    const started = await open({ n: 1 });
    expect(started.status).toBe(200);
    expect(started.headers.get('content-type')).toMatch(/^text\/event-stream/);
    // The stream is open (its first bytes, a keep-alive comment, have come); close it as a client would.
    const reader = started.body!.getReader();
    expect(new TextDecoder().decode((await reader.read()).value)).toMatch(/^:/);
    await reader.cancel();
  });
});

describe('aliases and fields', () => {
  it('refuses 500 aliases of posts(perPage: 1) and 5,000 aliases of __typename with graphql_alias_limit', async () => {
    const posts = `{ ${Array.from({ length: 500 }, (_, i) => `p${i}: posts(perPage: 1) { nodes { id } }`).join(' ')} }`;
    const many = await post(site.app, { query: posts });
    expectRefused(many, 'graphql_alias_limit', 'Aliases limit of 30 exceeded, found 500.');
    expect(many.body.errors[1]).toMatchObject({ message: 'Field limit of 500 exceeded, found 1500.', extensions: { code: 'graphql_field_limit', status: 400 } });
    const names = `{ ${Array.from({ length: 5000 }, (_, i) => `t${i}: __typename`).join(' ')} }`;
    const res = await post(site.app, { query: names });
    expect(res.status).toBe(400);
    expect(res.body.errors.map((e: { extensions: { code: string } }) => e.extensions.code)).toEqual(['graphql_alias_limit', 'graphql_field_limit']);
    expect(res.body.errors[0].message).toBe('Aliases limit of 30 exceeded, found 5000.');
    expect(res.body.errors[1].message).toBe('Field limit of 500 exceeded, found 5000.');
    // 30 aliases run.
    const thirty = await post(site.app, { query: `{ ${Array.from({ length: 30 }, (_, i) => `t${i}: __typename`).join(' ')} }` });
    expectRan(thirty);
    expect(thirty.body.data.t29).toBe('Query');
    expect(site.app.config.graphqlMaxAliases).toBe(30);
  });

  it('counts the aliases and fields of a fragment each time it is spread', async () => {
    const query = '{ posts { nodes { ...P } } postsConnection { nodes { ...P } } } fragment P on Post { a: id b: slug c: link }';
    // 6 aliases; fields: posts, nodes, 3, postsConnection, nodes, 3.
    expectRefused(await post(appWith({ graphqlMaxAliases: 5 }), { query }), 'graphql_alias_limit', 'Aliases limit of 5 exceeded, found 6.');
    expectRan(await post(appWith({ graphqlMaxAliases: 6 }), { query }));
    expectRefused(await post(appWith({ graphqlMaxFields: 9 }), { query }), 'graphql_field_limit', 'Field limit of 9 exceeded, found 10.');
    expectRan(await post(appWith({ graphqlMaxFields: 10 }), { query }));
  });

  it('measures a document whose fragments multiply (each spreads the next twice) without expanding it', async () => {
    const levels = 40;
    const fragments = Array.from({ length: levels }, (_, i) => `fragment C${i + 1} on Category { p: parent { node { ...C${i} } } q: parent { node { ...C${i} } } }`);
    const query = `{ category(id: ${ids.europe}) { ...C${levels} } } fragment C0 on Category { id } ${fragments.join(' ')}`;
    // Each level doubles what the one below holds and adds its two aliased fields, each with its `node`.
    const aliases = 2 ** (levels + 1) - 2;
    const fields = 1 + (5 * 2 ** levels - 4);
    const res = await post(site.app, { query });
    expectRefused(res, 'graphql_alias_limit', `Aliases limit of 30 exceeded, found ${aliases}.`);
    expect(res.body.errors[1].message).toBe(`Field limit of 500 exceeded, found ${fields}.`);
  });

  it('refuses before validating: a document over the alias limit gets that refusal alone, not its validation errors', async () => {
    const query = `{ ${Array.from({ length: 31 }, (_, i) => `x${i}: noSuchField`).join(' ')} }`;
    const refused = await post(site.app, { query });
    expectRefused(refused, 'graphql_alias_limit', 'Aliases limit of 30 exceeded, found 31.');
    expect(refused.body.errors).toHaveLength(1);
    // Under the limit, validation answers as before.
    const invalid = await post(site.app, { query: '{ x: noSuchField }' });
    expect(invalid.body.errors.map((e: { message: string }) => e.message)).toEqual(['Cannot query field "noSuchField" on type "Query".']);
  });
});

// What a front end asks for, written as it would be: variables for what changes.
const REALISTIC = {
  home: {
    query: `query Home($perPage: Int = 10) {
      posts(perPage: $perPage) { totalPages nodes {
        id title { rendered } excerpt { rendered } link date
        author { node { name } } featuredImage { node { sourceUrl altText } } categories { nodes { name link } } } } }`,
    variables: () => ({}),
  },
  archive: {
    query: `query Archive($category: Int!, $page: Int = 1) {
      category(id: $category) { name description }
      posts(perPage: 10, page: $page, filter: { categories: { terms: [$category] } }) { total totalPages nodes {
        id title { rendered } excerpt { rendered } link date author { node { name } }
        categories { nodes { name link } } tags { nodes { name link } } } } }`,
    variables: () => ({ category: ids.europe }),
  },
  post: {
    query: `query Post($id: Int!) {
      post(id: $id) { id title { rendered } content { rendered } date link
        categories { nodes { name link } } tags { nodes { name link } } featuredImage { node { sourceUrl altText } }
        author { node { name description posts(first: 5, where: { exclude: [$id] }) { nodes { id title { rendered } link date } } } } } }`,
    variables: () => ({ id: ids.story }),
  },
  tree: {
    query: `query Tree($top: Int = 100) {
      categoriesConnection(first: $top, where: { parent: 0 }) { nodes {
        id name slug link children { nodes { id name slug link children { nodes { id name slug link } } } } } } }`,
    variables: () => ({}),
  },
};

/** The same request with its variables written in as literals. */
function withLiterals(query: string, variables: Record<string, unknown>): string {
  const body = query.slice(query.indexOf('{'));
  return body.replace(/\$(\w+)/g, (_, name: string) => JSON.stringify(variables[name] ?? { perPage: 10, page: 1, top: 100 }[name]));
}

describe('realistic front-end queries', () => {
  it('run under the default limits: a home page, a category archive, a post with its author\'s other posts, a three-level category tree of 100', async () => {
    const home = await post(site.app, { query: REALISTIC.home.query, variables: REALISTIC.home.variables() });
    expectRan(home);
    expect(home.body.data.posts.nodes).toHaveLength(10);
    expect(home.body.data.posts.nodes[0]).toMatchObject({ title: { rendered: 'Story 12' }, author: { node: { name: expect.any(String) } }, categories: { nodes: [{ name: 'Sport' }] } });

    const archive = await post(site.app, { query: REALISTIC.archive.query, variables: REALISTIC.archive.variables() });
    expectRan(archive);
    expect(archive.body.data.category.name).toBe('Europe');
    expect(archive.body.data.posts.total).toBe(8);
    expect(archive.body.data.posts.nodes[0].categories.nodes.map((c: { name: string }) => c.name)).toEqual(['Europe', 'News']);

    const single = await post(site.app, { query: REALISTIC.post.query, variables: REALISTIC.post.variables() });
    expectRan(single);
    expect(single.body.data.post.author.node.name).toBe('Wendy Writer');
    expect(single.body.data.post.author.node.posts.nodes.map((p: { title: { rendered: string } }) => p.title.rendered)).toEqual(['Story 6', 'Story 5', 'Story 4', 'Story 3', 'Story 2']);

    for (const query of [REALISTIC.tree.query, withLiterals(REALISTIC.tree.query, {})]) {
      const tree = await post(site.app, { query });
      expectRan(tree);
      const news = tree.body.data.categoriesConnection.nodes.find((c: { name: string }) => c.name === 'News');
      expect(news.children.nodes.map((c: { name: string }) => c.name)).toEqual(['World']);
      expect(news.children.nodes[0].children.nodes.map((c: { name: string }) => c.name)).toEqual(['Europe']);
    }
    expect(site.app.config).toMatchObject({ graphqlMaxCost: 25_000, graphqlMaxAliases: 30, graphqlMaxFields: 500 });
  });

  it('cost the same written with literals or variables: each runs at a limit of its cost and is refused one below, naming it', async () => {
    const costs: Record<string, number> = {};
    for (const [name, { query, variables }] of Object.entries(REALISTIC)) {
      const vars = variables();
      const literal = withLiterals(query, vars);
      const c = cost(query, vars)!;
      expect(cost(literal), name).toBe(c);
      costs[name] = c;
      for (const payload of [{ query, variables: vars }, { query: literal }]) {
        expectRan(await post(appWith({ graphqlMaxCost: c }), payload));
        expectRefused(await post(appWith({ graphqlMaxCost: c - 1 }), payload), 'graphql_cost_limit', `Query cost limit of ${c - 1} exceeded, found ${c}.`);
      }
    }
    expect(costs).toEqual({ home: 263, archive: 347, post: 67, tree: 13602 });
  });
});

// ---------------------------------------------------------------- random nested queries

type Kind = 'connection' | 'paged' | 'nested' | 'unsized' | 'object';
interface Rel { field: string; kind: Kind; to: string }
const REL = (field: string, kind: Kind, to: string): Rel => ({ field, kind, to });
const ROOTS: Rel[] = [
  REL('postsConnection', 'connection', 'Post'), REL('posts', 'paged', 'Post'), REL('categoriesConnection', 'connection', 'Category'),
  REL('categories', 'paged', 'Category'), REL('tagsConnection', 'connection', 'Tag'), REL('tags', 'paged', 'Tag'),
  REL('usersConnection', 'connection', 'User'), REL('users', 'paged', 'User'), REL('pagesConnection', 'connection', 'Page'), REL('pages', 'paged', 'Page'),
];
const RELATIONS: Record<string, Rel[]> = {
  Post: [REL('categories', 'unsized', 'Category'), REL('tags', 'unsized', 'Tag'), REL('author', 'object', 'User')],
  Category: [REL('posts', 'nested', 'Post'), REL('children', 'unsized', 'Category'), REL('parent', 'object', 'Category')],
  Tag: [REL('posts', 'nested', 'Post')],
  User: [REL('posts', 'nested', 'Post'), REL('pages', 'nested', 'Page')],
  Page: [REL('children', 'nested', 'Page'), REL('ancestors', 'unsized', 'Page'), REL('author', 'object', 'User'), REL('parent', 'object', 'Page')],
};
const LEAVES: Record<string, string[]> = {
  Post: ['id', 'slug', 'link', 'date', '__typename'], Category: ['id', 'name', 'slug', 'count'], Tag: ['id', 'name', 'slug'],
  User: ['id', 'name', 'slug'], Page: ['id', 'slug', 'link', 'menuOrder'],
};

/** A size argument: absent, null, or a number (outside the server's range too, unless `valid`). */
type Size = number | null | undefined;
interface QNode { rel: Rel; args: Record<string, Size>; leaves: string[]; children: QNode[]; wrap: 'plain' | 'inline' | 'fragment' }

function sizeArb(kind: Kind, valid: boolean): fc.Arbitrary<Size> {
  const low = kind === 'paged' ? 1 : 0;
  return valid
    ? fc.oneof(fc.constant(undefined), fc.integer({ min: low, max: 100 }))
    : fc.oneof(fc.constant(undefined), fc.constant(null), fc.integer({ min: -3, max: 130 }));
}

function nodeArb(rel: Rel, depth: number, valid: boolean): fc.Arbitrary<QNode> {
  const args: fc.Arbitrary<Record<string, Size>> =
    rel.kind === 'connection' ? fc.record({ first: sizeArb(rel.kind, valid), last: sizeArb(rel.kind, valid) })
      : rel.kind === 'paged' ? fc.record({ perPage: sizeArb(rel.kind, valid) })
        : rel.kind === 'nested' ? fc.record({ first: sizeArb(rel.kind, valid) })
          : fc.constant({});
  const children: fc.Arbitrary<QNode[]> = depth >= 3 ? fc.constant([])
    : fc.subarray(RELATIONS[rel.to], { maxLength: Math.min(2, RELATIONS[rel.to].length) }).chain((rels) => fc.tuple(...rels.map((r) => nodeArb(r, depth + 1, valid))));
  return fc.record({
    rel: fc.constant(rel), args, children,
    leaves: fc.subarray(LEAVES[rel.to], { minLength: 1 }),
    wrap: fc.constantFrom('plain' as const, 'inline' as const, 'fragment' as const),
  });
}

const queryArb = (valid: boolean) => fc.subarray(ROOTS, { minLength: 1, maxLength: 2 }).chain((roots) => fc.tuple(...roots.map((r) => nodeArb(r, 1, valid))));

/** What the cost is by the rules the server documents, from the generated tree. */
function expectedCost(nodes: QNode[]): number {
  const clamp = (n: number) => Math.min(Math.max(n, 0), 100);
  const one = (q: QNode): number => {
    const body = q.leaves.length + q.children.reduce((s, c) => s + one(c), 0);
    const items = (n: number) => (n > 0 ? n * body : 0);
    switch (q.rel.kind) {
      case 'connection': {
        const given = [q.args.first, q.args.last].filter((v): v is number => v != null).map(clamp);
        return 2 + items(given.length ? Math.min(...given) : 10);
      }
      case 'paged': {
        const n = q.args.perPage ?? 10;
        return 2 + items(n < 1 ? 100 : Math.min(n, 100));
      }
      // A relation is a connection (`{ nodes }`) or an edge (`{ node }`): one field more than its records.
      case 'nested': return 2 + items(clamp(q.args.first ?? 10));
      case 'unsized': return 2 + items(UNSIZED_LIST);
      case 'object': return 2 + body;
    }
  };
  return nodes.reduce((s, q) => s + one(q), 0);
}

type Form = 'literals' | 'variables' | 'defaults';
/** The tree as a document: sizes as literals, as variables sent, or as variables' defaults; bodies plain, in inline fragments or named ones. */
function render(nodes: QNode[], form: Form): { query: string; variables: Record<string, unknown> } {
  const defs: string[] = [];
  const fragments: string[] = [];
  const variables: Record<string, unknown> = {};
  let n = 0;
  const argText = (args: Record<string, Size>) => {
    const parts: string[] = [];
    for (const [name, v] of Object.entries(args)) {
      if (form === 'literals') {
        if (v !== undefined) parts.push(`${name}: ${v === null ? 'null' : v}`);
        continue;
      }
      // As variables an absent size is a variable declared and never given a value.
      const id = `v${n++}`;
      parts.push(`${name}: $${id}`);
      if (form === 'variables') {
        defs.push(`$${id}: Int`);
        if (v !== undefined) variables[id] = v;
      } else {
        defs.push(v === undefined ? `$${id}: Int` : `$${id}: Int = ${v === null ? 'null' : v}`);
      }
    }
    return parts.length ? `(${parts.join(', ')})` : '';
  };
  const body = (q: QNode): string => {
    const inner = [...q.leaves, ...q.children.map(field)].join(' ');
    if (form === 'literals' || q.wrap === 'plain') return inner;
    if (form === 'defaults' || q.wrap === 'inline') return `... on ${q.rel.to} { ${inner} }`;
    const name = `F${fragments.length}`;
    fragments.push(`fragment ${name} on ${q.rel.to} { ${inner} }`);
    return `...${name}`;
  };
  const field = (q: QNode): string => {
    const head = `${q.rel.field}${argText(q.args)}`;
    return q.rel.kind === 'object' ? `${head} { node { ${body(q)} } }` : `${head} { nodes { ${body(q)} } }`;
  };
  const selection = nodes.map(field).join(' ');
  const query = `query${defs.length ? `(${defs.join(', ')})` : ''} { ${selection} } ${fragments.join(' ')}`;
  return { query, variables };
}

const SEED = Number(process.env.GRAPHQL_COST_SEED ?? 20_240_601);

describe('random nested queries over the list fields', () => {
  it('cost the same written with literals, with variables or with variables\' defaults, in fragments or not, as the documented rules give; /graphql refuses exactly those over the limit', async () => {
    fc.assert(fc.property(queryArb(false), (nodes) => {
      const expected = expectedCost(nodes);
      for (const form of ['literals', 'variables', 'defaults'] as const) {
        const { query, variables } = render(nodes, form);
        expect(operationCost(schema, parse(query), variables), `${form}: ${query} ${JSON.stringify(variables)}`).toBe(expected);
      }
    }), { seed: SEED, numRuns: Number(process.env.GRAPHQL_COST_RUNS ?? 400) });

    // A few, with sizes the server accepts, sent: each runs at a limit of its cost and is refused one below, however written.
    const samples = fc.sample(queryArb(true), { seed: SEED, numRuns: 6 });
    for (const nodes of samples) {
      const c = expectedCost(nodes);
      for (const form of ['literals', 'variables', 'defaults'] as const) {
        const { query, variables } = render(nodes, form);
        expectRan(await post(appWith({ graphqlMaxCost: c }), { query, variables }));
        expectRefused(await post(appWith({ graphqlMaxCost: c - 1 }), { query, variables }), 'graphql_cost_limit', `Query cost limit of ${c - 1} exceeded, found ${c}.`);
      }
    }
  });
});
