// The GraphQL API through the clients headless front ends use, over HTTP: Apollo Client 4 (a
// cursor walk merged by relayStylePagination while the list is written to, records normalised by
// their global id, the persisted-queries link, error policies) and graphql-request (the queries a
// site's pages send: the home page, a category archive by its address, a post by its address with
// its author's other posts, the signed-in viewer), each compared with what the REST API answers
// for the same thing and each within the default cost limit.
import { createHash } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { AddressInfo } from 'node:net';
import type { Server } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ApolloClient, CombinedGraphQLErrors, HttpLink, InMemoryCache, gql, type ApolloLink } from '@apollo/client/core';
import { relayStylePagination } from '@apollo/client/utilities';
import { PersistedQueryLink } from '@apollo/client/link/persisted-queries';
import { ClientError, GraphQLClient } from 'graphql-request';
import { createTestSite, service, type TestResponse, type TestSite } from '../helpers/app.js';

let site: TestSite;
let server: Server;
let uploadsDir: string;
/** The test site's own HTTP server (the production one) on a loopback port: what the clients call. */
let endpoint: string;
let news: { id: number; slug: string; link: string };
let image: { id: number; source_url: string; alt_text: string };
/** The author's published posts (newest first), the first of them with the featured image. */
let byAuthor: { id: number; link: string }[];

const PNG = Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAQAAAACCAIAAADwyuo0AAAACXBIWXMAAAPoAAAD6AG1e1JrAAAAEklEQVQImWP4z8AARwjWfwYGAG+qB/l/O6VpAAAAAElFTkSuQmCC', 'base64');
const day = (n: number, hour = 12) => new Date(Date.UTC(2022, 0, 1 + n, hour)).toISOString().slice(0, 19);

beforeAll(async () => {
  uploadsDir = await mkdtemp(join(tmpdir(), 'front-end-clients-'));
  site = await createTestSite({ uploadsDir });
  server = service.createHttpServer(site.app);
  await new Promise<void>((ready) => server.listen(0, '127.0.0.1', () => ready()));
  endpoint = `http://127.0.0.1:${(server.address() as AddressInfo).port}/graphql`;

  news = await site.createTerm('categories', { name: 'Front news', slug: 'front-news' });
  const media = await site.req('POST', '/core/v2/media?alt_text=A+red+square', {
    as: 'administrator', body: new Uint8Array(PNG), headers: { 'content-type': 'image/png', 'content-disposition': 'attachment; filename="front.png"' },
  });
  expect(media.status, media.text.slice(0, 2000)).toBe(201);
  image = media.body;
  // 50 posts two a day (so dates tie and the id orders them), every fifth in the news category.
  for (let i = 0; i < 50; i++) {
    await site.createPost({ title: `Seed ${String(i).padStart(2, '0')}`, excerpt: `Seed excerpt ${i}`, status: 'publish', date: day(Math.floor(i / 2)), ...(i % 5 === 0 ? { categories: [news.id] } : {}) });
  }
  // Six newer posts by the author, with the image on every other one, all in the news category.
  byAuthor = [];
  for (let i = 0; i < 6; i++) {
    byAuthor.unshift(await site.createPost({
      title: `By the author ${i}`, excerpt: `Author excerpt ${i}`, status: 'publish', date: day(400 + i), categories: [news.id],
      ...(i % 2 === 1 ? { featured_media: image.id } : {}),
    }, 'author'));
  }
});
afterAll(async () => {
  server?.closeAllConnections();
  if (server) await new Promise((done) => server.close(done));
  await site?.close();
  if (uploadsDir) await rm(uploadsDir, { recursive: true, force: true });
});

/** A REST read that must succeed. */
async function rest(path: string, o: { as?: 'editor'; headers?: Record<string, string> } = {}): Promise<any> {
  const res: TestResponse = await site.req('GET', path, o);
  expect(res.status, res.text.slice(0, 2000)).toBe(200);
  return res.body;
}
const pathOf = (link: string) => { const u = new URL(link); return u.pathname + u.search; };
const sha256 = (text: string) => createHash('sha256').update(text).digest('hex');

/** A fetch that records what it sent and what came back. */
function tracking(): { fetch: typeof fetch; sent: { method: string; withQuery: boolean; status: number }[] } {
  const sent: { method: string; withQuery: boolean; status: number }[] = [];
  return {
    sent,
    fetch: async (input, init) => {
      const res = await fetch(input, init);
      const body = typeof init?.body === 'string' ? JSON.parse(init.body) : null;
      sent.push({ method: init?.method ?? 'GET', withQuery: new URL(String(input)).searchParams.has('query') || typeof body?.query === 'string', status: res.status });
      return res;
    },
  };
}

function apollo(o: { link?: ApolloLink; fetch?: typeof fetch } = {}): ApolloClient {
  return new ApolloClient({
    link: o.link ?? new HttpLink({ uri: endpoint, fetch: o.fetch ?? fetch }),
    cache: new InMemoryCache({ typePolicies: { Query: { fields: { postsConnection: relayStylePagination(['filter', 'orderby', 'order']) } } } }),
  });
}

// ---------------------------------------------------------------------------------------------
// graphql-request: what a site's pages ask for, one request each

/**
 * Sends `document` with graphql-request and gives the HTTP status, the errors' codes and statuses
 * (none when it succeeded: graphql-request throws on any error, a cost refusal's 400
 * graphql_cost_limit included) and the data.
 */
async function ask(document: string, variables: Record<string, unknown> = {}, headers: Record<string, string> = {}): Promise<{ status: number; codes: unknown[]; statuses: unknown[]; data: any }> {
  const client = new GraphQLClient(endpoint, { headers });
  try {
    const res = await client.rawRequest<any>(document, variables);
    return { status: res.status, codes: [], statuses: [], data: res.data };
  } catch (e) {
    if (!(e instanceof ClientError)) throw e;
    const errors = e.response.errors ?? [];
    return { status: e.response.status, codes: errors.map((x) => x.extensions?.code), statuses: errors.map((x) => x.extensions?.status), data: e.response.data };
  }
}

const HOME = `query HomePage($first: Int = 10) {
  postsConnection(first: $first) {
    nodes {
      title { rendered }
      excerpt { rendered }
      uri
      date
      author { node { name } }
      featuredImage { node { sourceUrl altText } }
      categories { nodes { name uri } }
    }
  }
}`;

describe('graphql-request: the queries of a headless site\'s pages', () => {
  it('the home page: the latest ten posts with their author, featured image and categories, as REST lists them', async () => {
    const res = await ask(HOME);
    expect({ status: res.status, codes: res.codes }).toEqual({ status: 200, codes: [] });
    const listed = await rest('/core/v2/posts?per_page=10&_embed=author,wp:featuredmedia,wp:term');
    expect(res.data.postsConnection.nodes).toEqual(listed.map((p: any) => ({
      title: { rendered: p.title.rendered },
      excerpt: { rendered: p.excerpt.rendered },
      uri: pathOf(p.link),
      date: p.date,
      author: { node: { name: p._embedded.author[0].name } },
      featuredImage: p.featured_media ? { node: { sourceUrl: p._embedded['wp:featuredmedia'][0].source_url, altText: p._embedded['wp:featuredmedia'][0].alt_text } } : null,
      categories: { nodes: p._embedded['wp:term'][0].map((c: any) => ({ name: c.name, uri: pathOf(c.link) })) },
    })));
    // The fixtures are what the page shows: the author's posts first, every other one with the image.
    expect(res.data.postsConnection.nodes[0]).toMatchObject({
      uri: pathOf(byAuthor[0].link), author: { node: { name: expect.any(String) } },
      featuredImage: { node: { sourceUrl: image.source_url, altText: 'A red square' } }, categories: { nodes: [{ name: 'Front news', uri: '/category/front-news/' }] },
    });
    expect(res.data.postsConnection.nodes[1].featuredImage).toBeNull();
  });

  it('the home page costs the same SQL statements for 10 posts and for 50', async () => {
    const statements = async (first: number) => {
      const before = site.db.statements;
      const res = await ask(HOME, { first });
      expect({ status: res.status, codes: res.codes, shown: res.data.postsConnection.nodes.length }).toEqual({ status: 200, codes: [], shown: first });
      return site.db.statements - before;
    };
    await statements(3); // warms what is kept across requests (site settings)
    const ten = await statements(10);
    expect(ten, 'read from the database, not from the response cache').toBeGreaterThan(0);
    expect(await statements(50)).toBe(ten);
  });

  it('a category archive by its address, in one request, as REST lists the category\'s posts', async () => {
    const res = await ask(`query Archive($uri: String!) {
      nodeByUri(uri: $uri) { __typename ... on Category { databaseId name posts(first: 10) { nodes { title { rendered } uri } } } }
    }`, { uri: '/category/front-news/' });
    expect({ status: res.status, codes: res.codes }).toEqual({ status: 200, codes: [] });
    const [term] = await rest('/core/v2/categories?slug=front-news');
    expect(term.id).toBe(news.id);
    const listed = await rest(`/core/v2/posts?categories=${term.id}`);
    expect(listed).toHaveLength(10); // the category holds more: the archive's first page is cut at 10
    expect(res.data.nodeByUri).toEqual({
      __typename: 'Category', databaseId: term.id, name: term.name,
      posts: { nodes: listed.map((p: any) => ({ title: { rendered: p.title.rendered }, uri: pathOf(p.link) })) },
    });
  });

  it('a post by its address with its author\'s latest posts, as REST lists them by author', async () => {
    const post = byAuthor[2];
    const res = await ask(`query Single($uri: String!) {
      nodeByUri(uri: $uri) { __typename ... on Post { databaseId title { rendered } author { node { databaseId name posts(first: 5) { nodes { databaseId } } } } } }
    }`, { uri: pathOf(post.link) });
    expect({ status: res.status, codes: res.codes }).toEqual({ status: 200, codes: [] });
    const single = await rest(`/core/v2/posts/${post.id}`);
    const author = await rest(`/core/v2/users/${single.author}`);
    const others = await rest(`/core/v2/posts?author=${single.author}&per_page=5`);
    expect(others.map((p: any) => p.id)).toEqual(byAuthor.slice(0, 5).map((p) => p.id));
    expect(res.data.nodeByUri).toEqual({
      __typename: 'Post', databaseId: post.id, title: { rendered: single.title.rendered },
      author: { node: { databaseId: author.id, name: author.name, posts: { nodes: others.map((p: any) => ({ databaseId: p.id })) } } },
    });
  });

  it('the viewer signed in with an application password is who REST\'s users/me names', async () => {
    const made = await site.req('POST', '/core/v2/users/me/application-passwords', { as: 'editor', json: { name: 'Front end' } });
    expect(made.status, made.text).toBe(201);
    const authorization = 'Basic ' + Buffer.from(`${site.users.editor.login}:${made.body.password}`).toString('base64');
    const res = await ask('query Viewer { viewer { databaseId name } }', {}, { authorization });
    expect({ status: res.status, codes: res.codes }).toEqual({ status: 200, codes: [] });
    const me = await rest('/core/v2/users/me', { headers: { authorization } });
    expect(me.id).toBe(site.users.editor.id);
    expect(res.data.viewer).toEqual({ databaseId: me.id, name: me.name });
    // A wrong password is refused with REST's code and status, not read as an anonymous viewer.
    const wrong = await ask('query Viewer { viewer { databaseId name } }', {}, { authorization: 'Basic ' + Buffer.from(`${site.users.editor.login}:not-it`).toString('base64') });
    expect({ status: wrong.status, codes: wrong.codes, statuses: wrong.statuses, data: wrong.data ?? null }).toEqual({ status: 401, codes: ['incorrect_password'], statuses: [401], data: null });
    const restWrong = await site.req('GET', '/core/v2/users/me', { headers: { authorization: 'Basic ' + Buffer.from(`${site.users.editor.login}:not-it`).toString('base64') } });
    expect([restWrong.status, restWrong.body.code]).toEqual([401, 'incorrect_password']);
  });
});

// ---------------------------------------------------------------------------------------------
// Apollo Client 4

describe('Apollo Client', () => {
  const WALK = gql`query Walk($first: Int!, $after: String) {
    postsConnection(first: $first, after: $after) {
      edges { cursor node { id databaseId date title { rendered } } }
      pageInfo { hasNextPage endCursor }
    }
  }`;

  it('walks postsConnection with fetchMore while posts are published and deleted: every remaining post once, newest first', async () => {
    const start = await rest('/core/v2/posts?per_page=100');
    const original: number[] = start.map((p: { id: number }) => p.id);
    expect(original.length).toBeGreaterThanOrEqual(56);
    const client = apollo();
    let page = (await client.query<any>({ query: WALK, variables: { first: 7 } })).data!.postsConnection;
    // The page a component would watch, grown by fetchMore.
    const watched = client.watchQuery<any>({ query: WALK, variables: { first: 7 }, fetchPolicy: 'cache-first' });
    const subscription = watched.subscribe(() => {});
    try {
      const published: number[] = [];
      const deleted: number[] = [];
      let pages = 1;
      while (page.pageInfo.hasNextPage) {
        const shown = new Set(client.readQuery<any>({ query: WALK, variables: { first: 7 } })!.postsConnection.edges.map((e: any) => e.node.databaseId));
        // Between pages: an editor publishes a post (dated now, ahead of the walk) and deletes one still to come.
        published.push((await site.createPost({ title: `Published during the walk ${pages}`, status: 'publish' }, 'editor')).id);
        const doomed = original.find((id) => !shown.has(id) && !deleted.includes(id));
        if (doomed !== undefined) {
          const gone = await site.req('DELETE', `/core/v2/posts/${doomed}?force=true`, { as: 'editor' });
          expect(gone.status, gone.text).toBe(200);
          deleted.push(doomed);
        }
        page = (await watched.fetchMore({ variables: { after: page.pageInfo.endCursor } })).data!.postsConnection;
        pages++;
        expect(pages, 'the walk ends').toBeLessThan(20);
      }
      expect(deleted.length).toBeGreaterThan(3);
      const merged = client.readQuery<any>({ query: WALK, variables: { first: 7 } })!.postsConnection;
      const ids: number[] = merged.edges.map((e: any) => e.node.databaseId);
      expect(ids).toEqual(original.filter((id) => !deleted.includes(id)));
      expect(new Set(ids).size).toBe(ids.length);
      for (const id of published) expect(ids).not.toContain(id);
      // Newest first: dates never rise along the merged list.
      const dates: string[] = merged.edges.map((e: any) => e.node.date);
      expect(dates).toEqual([...dates].sort().reverse());
      expect(merged.pageInfo.hasNextPage).toBe(false);
      // A new read from the start shows the posts published meanwhile at the head.
      const fresh = await client.query<any>({ query: WALK, variables: { first: published.length }, fetchPolicy: 'network-only' });
      expect(fresh.data!.postsConnection.edges.map((e: any) => e.node.databaseId)).toEqual([...published].reverse());
    } finally {
      subscription.unsubscribe();
      client.stop();
    }
  });

  it('keys records by their global id: a post read through postsConnection, node(id) and post(id) is one cache entry', async () => {
    const client = apollo();
    try {
      const listed = await client.query<any>({ query: gql`query Latest { postsConnection(first: 3) { nodes { id databaseId title { rendered } } } }` });
      const first = listed.data!.postsConnection.nodes[0];
      const key = client.cache.identify(first);
      expect(key).toBe(`Post:${first.id}`);
      const byNode = await client.query<any>({ query: gql`query ByNode($id: ID!) { node(id: $id) { id ... on Post { databaseId slug } } }`, variables: { id: first.id } });
      expect(byNode.data!.node).toMatchObject({ __typename: 'Post', id: first.id, databaseId: first.databaseId });
      const byId = await client.query<any>({ query: gql`query ById($id: Int!) { post(id: $id) { id databaseId link } }`, variables: { id: first.databaseId } });
      expect(byId.data!.post.id).toBe(first.id);
      const store = client.cache.extract() as Record<string, any>;
      const entries = Object.keys(store).filter((k) => k.startsWith('Post:') && store[k].databaseId === first.databaseId);
      expect(entries).toEqual([key]);
      // The one entry holds what each query read.
      expect(store[key!]).toMatchObject({ id: first.id, databaseId: first.databaseId, slug: expect.any(String), link: expect.any(String) });
    } finally {
      client.stop();
    }
  });

  it('a category and a post with the same databaseId are two entries', async () => {
    // Ids are counted per table: add categories until one's id is a published post's.
    const postIds = new Set((await rest('/core/v2/posts?per_page=100')).map((p: { id: number }) => p.id));
    let shared: number | undefined;
    for (let n = 0; n < 100 && shared === undefined; n++) {
      const id = (await site.createTerm('categories', { name: `Same id ${n}` })).id as number;
      if (postIds.has(id)) shared = id;
    }
    expect(shared, 'a category id that is also a published post\'s').toBeDefined();
    const client = apollo();
    try {
      const res = await client.query<any>({ query: gql`query Same($id: Int!) { post(id: $id) { id databaseId } category(id: $id) { id databaseId } }`, variables: { id: shared } });
      const { post, category } = res.data!;
      expect(post.databaseId).toBe(shared);
      expect(category.databaseId).toBe(shared);
      expect(post.id).not.toBe(category.id);
      const postKey = client.cache.identify(post);
      const categoryKey = client.cache.identify(category);
      expect([postKey, categoryKey]).toEqual([`Post:${post.id}`, `Category:${category.id}`]);
      const store = client.cache.extract() as Record<string, any>;
      expect(store[postKey!]).toMatchObject({ __typename: 'Post', databaseId: shared });
      expect(store[categoryKey!]).toMatchObject({ __typename: 'Category', databaseId: shared });
    } finally {
      client.stop();
    }
  });

  it('runs the home page query unmodified through the persisted-queries link: registered once, then by hash over GET', async () => {
    const tracked = tracking();
    const link = new PersistedQueryLink({ sha256: (q: string) => sha256(q), useGETForHashedQueries: true })
      .concat(new HttpLink({ uri: endpoint, fetch: tracked.fetch }));
    const client = apollo({ link });
    try {
      const home = gql(HOME);
      const first = await client.query<any>({ query: home, fetchPolicy: 'network-only' });
      expect(first.data!.postsConnection.nodes).toHaveLength(10);
      // The hash alone by GET is unknown (404 PersistedQueryNotFound); the link sends the document with it.
      expect(tracked.sent).toEqual([{ method: 'GET', withQuery: false, status: 404 }, { method: 'POST', withQuery: true, status: 200 }]);
      const second = await client.query<any>({ query: home, fetchPolicy: 'network-only' });
      expect(second.data).toEqual(first.data);
      expect(tracked.sent.slice(2)).toEqual([{ method: 'GET', withQuery: false, status: 200 }]);
    } finally {
      client.stop();
    }
  });

  it('errorPolicy all: a missing post is null with rest_post_invalid_id (404) beside the data of the other fields', async () => {
    const tracked = tracking();
    const client = apollo({ fetch: tracked.fetch });
    try {
      const res = await client.query<any>({ query: gql`query Partial { site { name } post(id: 999999) { id } }`, errorPolicy: 'all' });
      expect(tracked.sent.map((s) => s.status)).toEqual([200]);
      const index = await rest('/');
      expect(res.data).toEqual({ site: { __typename: 'Site', name: index.name }, post: null });
      expect(CombinedGraphQLErrors.is(res.error)).toBe(true);
      const errors = (res.error as CombinedGraphQLErrors).errors;
      expect(errors.map((e) => ({ path: e.path, code: e.extensions?.code, status: e.extensions?.status }))).toEqual([{ path: ['post'], code: 'rest_post_invalid_id', status: 404 }]);
      // The default policy (none) turns the same answer into a rejection carrying the code.
      await expect(client.query<any>({ query: gql`query PartialNone { site { name } post(id: 999999) { id } }`, fetchPolicy: 'network-only' })).rejects.toSatisfy((e: unknown) =>
        CombinedGraphQLErrors.is(e) && e.errors[0].extensions?.code === 'rest_post_invalid_id');
    } finally {
      client.stop();
    }
  });

  it('the anonymous viewer is null without an error, so the default error policy does not throw', async () => {
    const tracked = tracking();
    const client = apollo({ fetch: tracked.fetch });
    try {
      const res = await client.query<any>({ query: gql`query Viewer { viewer { id name } }` });
      expect(res.error).toBeUndefined();
      expect(res.data).toEqual({ viewer: null });
      expect(tracked.sent.map((s) => s.status)).toEqual([200]);
    } finally {
      client.stop();
    }
  });
});
