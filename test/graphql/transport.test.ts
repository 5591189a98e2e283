// How /graphql is reached over HTTP: automatic persisted queries (Apollo's protocol, and Apollo
// Client's own link), GET queries with Cache-Control, ETag and 304, mutations refused over GET,
// graphql-sse's single-connection mode refused with a reason, no "Did you mean" with introspection
// off, an extensions.code on every error, and GraphQL's argument names in GraphQL errors.
import { createHash } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { AddressInfo } from 'node:net';
import type { Server } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ApolloClient, HttpLink, InMemoryCache, gql as apolloGql } from '@apollo/client';
import { PersistedQueryLink } from '@apollo/client/link/persisted-queries';
import { createTestSite, service, SITE, type TestResponse, type TestSite } from '../helpers/app.js';
import type { Config } from '../../src/config.js';

let site: TestSite;
beforeAll(async () => {
  site = await createTestSite();
  await site.createPost({ title: 'Transport', content: 'Body', status: 'publish' });
});
afterAll(async () => { await site?.close(); });

const sha256 = (text: string) => createHash('sha256').update(text).digest('hex');
const persisted = (hash: string) => ({ persistedQuery: { version: 1, sha256Hash: hash } });
const JSON_ACCEPT = { accept: 'application/json' };

/** A GET of /graphql with these query parameters (objects as JSON), through the HTTP door. */
function get(params: Record<string, unknown>, headers: Record<string, string> = {}, as?: 'administrator'): Promise<TestResponse> {
  const search = new URLSearchParams(Object.entries(params).map(([k, v]) => [k, typeof v === 'string' ? v : JSON.stringify(v)]));
  return site.req('GET', `${SITE}/graphql?${search}`, { headers: { ...JSON_ACCEPT, ...headers }, as });
}
const post = (json: Record<string, unknown>, as?: 'administrator') => site.req('POST', `${SITE}/graphql`, { json, headers: JSON_ACCEPT, as });

/** Another app on the test site's database with some settings changed, asked in process. */
async function postTo(o: Partial<Config>, json: Record<string, unknown>): Promise<{ status: number; body: any }> {
  const app = service.createApp({ ...site.app.config, ...o, webhookDispatch: false }, site.db);
  const res = await app.fetch(new Request(`${SITE}/graphql`, { method: 'POST', headers: { 'content-type': 'application/json', ...JSON_ACCEPT }, body: JSON.stringify(json) }));
  return { status: res.status, body: await res.json() };
}

describe('automatic persisted queries', () => {
  const query = 'query Titles($n: Int) { posts(perPage: $n) { nodes { title { rendered } } } }';
  const hash = sha256(query);

  it('answers an unknown hash with the protocol\'s PersistedQueryNotFound, registers a document sent with its hash, then runs it by hash over POST and GET', async () => {
    const unknown = await post({ extensions: persisted(hash), variables: { n: 1 } });
    expect(unknown.status).toBe(404);
    expect(unknown.body).toEqual({ errors: [{ message: 'PersistedQueryNotFound', extensions: { code: 'PERSISTED_QUERY_NOT_FOUND' } }] });

    const registered = await post({ query, extensions: persisted(hash), variables: { n: 1 } });
    expect(registered.status).toBe(200);
    expect(registered.body.data.posts.nodes).toEqual([{ title: { rendered: 'Transport' } }]);

    const byPost = await post({ extensions: persisted(hash), variables: { n: 1 } });
    expect(byPost.status).toBe(200);
    expect(byPost.body).toEqual(registered.body);

    const byGet = await get({ extensions: persisted(hash), variables: { n: 1 } });
    expect(byGet.status).toBe(200);
    expect(byGet.body).toEqual(registered.body);
    expect(byGet.headers.get('cache-control')).toBe('public, max-age=5');
  });

  it('refuses a document whose hash is not the one sent, and does not register it', async () => {
    const other = '{ posts { nodes { databaseId } } }';
    const wrong = sha256('something else');
    const res = await post({ query: other, extensions: persisted(wrong) });
    expect(res.status).toBe(400);
    expect(res.body.errors[0]).toMatchObject({ message: 'PersistedQueryMismatch', extensions: { code: 'PERSISTED_QUERY_MISMATCH' } });
    expect((await post({ extensions: persisted(wrong) })).body.errors[0].extensions.code).toBe('PERSISTED_QUERY_NOT_FOUND');
  });

  it('a registered document is limited as any other', async () => {
    const deep = '{ posts { nodes { title { rendered } } } }';
    const res = await postTo({ graphqlMaxDepth: 3 }, { query: deep, extensions: persisted(sha256(deep)) });
    expect(res.status).toBe(400);
    expect(res.body.errors[0].extensions).toMatchObject({ code: 'graphql_depth_limit', status: 400 });
  });

  it('with the allow-list on (GRAPHQL_PERSISTED), the allow-list answers persisted queries and nothing is registered', async () => {
    const listed = '{ posts { nodes { databaseId } } }';
    const dir = mkdtempSync(join(tmpdir(), 'apq-'));
    try {
      const file = join(dir, 'list.json');
      writeFileSync(file, JSON.stringify({ [sha256(listed)]: listed }));
      const settings = { graphqlPersisted: 'allow' as const, graphqlPersistedFile: file };
      const doc = '{ posts { nodes { slug } } }';
      // A document with its hash runs (allow), but is not registered: its hash stays unknown to the list.
      expect((await postTo(settings, { query: doc, extensions: persisted(sha256(doc)) })).status).toBe(200);
      const byHash = await postTo(settings, { extensions: persisted(sha256(doc)) });
      expect(byHash.status).toBe(400);
      expect(byHash.body.errors[0].extensions).toMatchObject({ code: 'persisted_query_not_found', status: 400 });
      const listedRun = await postTo(settings, { extensions: persisted(sha256(listed)) });
      expect(listedRun.status).toBe(200);
      expect(listedRun.body.data.posts.nodes).toHaveLength(1);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('Apollo Client\'s persisted-queries link works unmodified, hashed queries over GET', async () => {
    const server: Server = service.createHttpServer(site.app);
    await new Promise<void>((ready) => server.listen(0, '127.0.0.1', () => ready()));
    const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    const sent: { method: string; withQuery: boolean; status: number }[] = [];
    const tracked: typeof fetch = async (input, init) => {
      const res = await fetch(input, init);
      const url = new URL(String(input));
      const body = typeof init?.body === 'string' ? JSON.parse(init.body) : null;
      sent.push({ method: init?.method ?? 'GET', withQuery: url.searchParams.has('query') || typeof body?.query === 'string', status: res.status });
      return res;
    };
    try {
      const link = new PersistedQueryLink({ sha256: (q: string) => sha256(q), useGETForHashedQueries: true })
        .concat(new HttpLink({ uri: `${origin}/graphql`, fetch: tracked }));
      const client = new ApolloClient({ link, cache: new InMemoryCache() });
      const document = apolloGql`query ApolloTitles { posts(perPage: 1) { nodes { databaseId title { rendered } } } }`;
      const first = await client.query({ query: document, fetchPolicy: 'network-only' });
      expect(first.data).toMatchObject({ posts: { nodes: [{ title: { rendered: 'Transport' } }] } });
      // Unknown hash by GET, then the document by POST.
      expect(sent).toEqual([{ method: 'GET', withQuery: false, status: 404 }, { method: 'POST', withQuery: true, status: 200 }]);
      const second = await client.query({ query: document, fetchPolicy: 'network-only' });
      expect(second.data).toEqual(first.data);
      expect(sent[2]).toEqual({ method: 'GET', withQuery: false, status: 200 });
      expect(sent).toHaveLength(3);
      client.stop();
    } finally {
      server.closeAllConnections();
      await new Promise((done) => server.close(done));
    }
  });
});

describe('GET queries', () => {
  const query = '{ posts(perPage: 2) { nodes { title { rendered } } } }';

  it('an anonymous query: Cache-Control public with a short max-age, a strong ETag of the body, 304 for a caller holding it', async () => {
    const res = await get({ query });
    expect(res.status).toBe(200);
    expect(res.headers.get('cache-control')).toBe('public, max-age=5');
    expect(res.headers.get('vary')).toMatch(/Accept, Authorization, X-WP-Nonce/);
    const etag = res.headers.get('etag')!;
    expect(etag).toBe(`"${createHash('sha1').update(res.text).digest('base64url')}"`);
    // Asked again (the second and third answers: the second is kept, the third comes from the lane): the same validator.
    for (let i = 0; i < 3; i++) {
      const again = await get({ query });
      expect(again.headers.get('etag')).toBe(etag);
      expect(again.text).toBe(res.text);
      const held = await get({ query }, { 'if-none-match': etag });
      expect(held.status).toBe(304);
      expect(held.text).toBe('');
      expect(held.headers.get('etag')).toBe(etag);
    }
    expect((await get({ query }, { 'if-none-match': '"something-else"' })).status).toBe(200);
  });

  it('GRAPHQL_GET_MAX_AGE sets max-age; 0 makes callers revalidate', async () => {
    const app = service.createApp({ ...site.app.config, graphqlGetMaxAge: 0, webhookDispatch: false }, site.db);
    const res = await app.fetch(new Request(`${SITE}/graphql?query=${encodeURIComponent(query)}`, { headers: JSON_ACCEPT }));
    expect(res.status).toBe(200);
    expect(res.headers.get('cache-control')).toBe('public, no-cache');
  });

  it('an authenticated query is private and not stored, and gets no validator', async () => {
    const res = await get({ query }, {}, 'administrator');
    expect(res.status).toBe(200);
    expect(res.headers.get('cache-control')).toBe('private, no-store');
    expect(res.headers.get('etag')).toBeNull();
  });

  it('an answer with errors is not cacheable', async () => {
    const res = await get({ query: '{ posts(perPage: 1000) { nodes { databaseId } } }' });
    expect(res.body.errors[0].extensions.code).toBe('rest_invalid_param');
    expect(res.headers.get('cache-control')).toBe('no-store');
    expect(res.headers.get('etag')).toBeNull();
  });

  it('a mutation over GET: 405 graphql_method_not_allowed with Allow: POST, and nothing written', async () => {
    const before = await post({ query: '{ posts(perPage: 100) { nodes { databaseId } } }' });
    const res = await get({ query: 'mutation { createPost(input: { title: "By GET", status: PUBLISH }) { databaseId } }' }, {}, 'administrator');
    expect(res.status).toBe(405);
    expect(res.headers.get('allow')).toBe('POST');
    expect(res.body.errors).toEqual([{ message: 'Mutations are sent with POST: a GET request runs queries only.', extensions: { code: 'graphql_method_not_allowed' } }]);
    expect((await post({ query: '{ posts(perPage: 100) { nodes { databaseId } } }' })).body).toEqual(before.body);
  });
});

describe('graphql-sse single-connection mode', () => {
  it('the stream reservation (PUT) is 405 with a reason and Allow; a request carrying a stream token is 400', async () => {
    const put = await site.req('PUT', `${SITE}/graphql`, { headers: { accept: 'text/plain' } });
    expect(put.status).toBe(405);
    expect(put.headers.get('allow')).toBe('GET, POST');
    expect(put.body.errors[0].extensions.code).toBe('graphql_sse_single_connection_unsupported');
    expect(put.body.errors[0].message).toMatch(/distinct-connections mode/);
    const withToken = await site.req('POST', `${SITE}/graphql`, { json: { query: 'subscription { contentChanged { action } }' }, headers: { 'x-graphql-event-stream-token': 'abc', ...JSON_ACCEPT } });
    expect(withToken.status).toBe(400);
    expect(withToken.body.errors[0].extensions.code).toBe('graphql_sse_single_connection_unsupported');
  });
});

describe('error codes and names', () => {
  const VARIABLE_ERRORS: [string, string, Record<string, unknown>][] = [
    ['an unknown enum value', 'query($o: Order) { posts(order: $o) { nodes { databaseId } } }', { o: 'UP' }],
    ['a wrong type', 'query($n: Int) { posts(perPage: $n) { nodes { databaseId } } }', { n: 'ten' }],
    ['a required variable missing', 'query($n: Int!) { posts(perPage: $n) { nodes { databaseId } } }', {}],
    ['an unknown input field', 'query($f: PostListFilter) { posts(filter: $f) { nodes { databaseId } } }', { f: { serch: 'x' } }],
  ];
  for (const [what, query, variables] of VARIABLE_ERRORS) {
    it(`a variable refused for ${what}: 400 graphql_bad_user_input`, async () => {
      const res = await post({ query, variables });
      expect(res.status).toBe(400);
      expect(res.body.errors).toHaveLength(1);
      expect(res.body.errors[0].extensions).toEqual({ code: 'graphql_bad_user_input' });
      expect(res.body.errors[0].message).toMatch(/^Variable "\$[nof]"/);
    });
  }

  it('an enum literal and an unknown argument: graphql_validation_failed', async () => {
    for (const query of ['{ posts(order: UP) { nodes { databaseId } } }', '{ posts(perPag: 1) { nodes { databaseId } } }']) {
      const res = await post({ query });
      expect(res.status).toBe(200);
      expect(res.body.errors[0].extensions).toEqual({ code: 'graphql_validation_failed' });
    }
  });

  it('no "Did you mean" with introspection off, in variable errors as in validation errors; suggestions while it is on', async () => {
    const enumVar = { query: 'query($o: Order) { posts(order: $o) { nodes { databaseId } } }', variables: { o: 'ASCC' } };
    const fieldVar = { query: 'query($f: PostListFilter) { posts(filter: $f) { nodes { databaseId } } }', variables: { f: { serch: 'x' } } };
    const arg = { query: '{ posts(perPag: 1) { nodes { databaseId } } }' };
    expect((await post(enumVar)).body.errors[0].message).toMatch(/Did you mean the enum value "ASC"\?$/);
    expect((await post(fieldVar)).body.errors[0].message).toMatch(/Did you mean "search"\?$/);
    for (const payload of [enumVar, fieldVar, arg]) {
      const res = await postTo({ graphqlIntrospection: false }, payload);
      expect(res.body.errors.length).toBeGreaterThan(0);
      for (const e of res.body.errors) {
        expect(e.message).not.toMatch(/Did you mean|ASC"|"search"|"perPage"/);
        expect(e.extensions.code).toMatch(/^graphql_(bad_user_input|validation_failed)$/);
      }
    }
  });

  it('perPage out of range: GraphQL names perPage in the message and data.params; REST keeps per_page', async () => {
    const res = await post({ query: '{ posts(perPage: 1000) { nodes { databaseId } } }' });
    expect(res.body.data).toEqual({ posts: null });
    expect(res.body.errors[0].message).toBe('Invalid parameter(s): perPage');
    expect(res.body.errors[0].extensions).toEqual({ code: 'rest_invalid_param', status: 400, data: { params: { perPage: 'perPage must be between 1 (inclusive) and 100 (inclusive)' } } });
    // Through a variable, and on the users list too.
    const byVariable = await post({ query: 'query($n: Int) { posts(perPage: $n) { nodes { databaseId } } }', variables: { n: 0 } });
    expect(byVariable.body.errors[0].message).toBe('Invalid parameter(s): perPage');
    const users = await post({ query: '{ users(perPage: 101) { nodes { databaseId } } }' }, 'administrator');
    expect(users.body.errors[0].message).toBe('Invalid parameter(s): perPage');
    expect(users.body.errors[0].extensions.data.params).toHaveProperty('perPage');

    const rest = await site.req('GET', '/core/v2/posts?per_page=1000');
    expect(rest.status).toBe(400);
    expect(rest.body.code).toBe('rest_invalid_param');
    expect(rest.body.message).toBe('Invalid parameter(s): per_page');
    expect(Object.keys(rest.body.data.params)).toEqual(['per_page']);
  });
});
