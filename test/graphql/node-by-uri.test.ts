// nodeByUri over every public address the site front serves (items, term archives, author pages,
// the posts list at home), the same record through node(id), and contentNodes across types.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestSite, type GqlResult, type TestSite } from '../helpers/app.js';
import { expectGqlError } from '../helpers/gql.js';

let site: TestSite;
let post: { id: number; link: string };
let page: { id: number; link: string };
let parentCat: { id: number; link: string };
let childCat: { id: number; link: string };
let tag: { id: number; link: string };
let draft: { id: number };

beforeAll(async () => {
  site = await createTestSite();
  parentCat = await site.createTerm('categories', { name: 'Parent Topic', slug: 'parent-topic' });
  childCat = await site.createTerm('categories', { name: 'Child Topic', slug: 'child-topic', parent: parentCat.id });
  tag = await site.createTerm('tags', { name: 'Shiny', slug: 'shiny' });
  post = await site.createPost({ title: 'Addressed', status: 'publish', categories: [childCat.id], tags: [tag.id] }, 'editor');
  page = await site.createPage({ title: 'About us', slug: 'about-us', status: 'publish' });
  draft = await site.createPost({ title: 'Not yet', status: 'draft' });
});
afterAll(async () => { await site?.close(); });

const show = (res: GqlResult) => JSON.stringify(res, null, 2);
const BY_URI = `query($uri: String!) { nodeByUri(uri: $uri) { __typename id
  ... on Post { databaseId uri } ... on Page { databaseId uri } ... on Category { databaseId uri name }
  ... on Tag { databaseId uri } ... on User { databaseId uri name }
  ... on ContentType { name uri isFrontPage isPostsPage } } }`;

async function byUri(uri: string): Promise<Record<string, unknown> | null> {
  const res = await site.gql(BY_URI, { uri });
  expect(res.errors, show(res)).toBeUndefined();
  return res.data.nodeByUri;
}

const pathOf = (link: string) => new URL(link).pathname + new URL(link).search;

describe('nodeByUri', () => {
  it('names posts and pages by their pretty path and by their absolute link', async () => {
    expect(await byUri(pathOf(post.link))).toMatchObject({ __typename: 'Post', databaseId: post.id, uri: pathOf(post.link) });
    expect(await byUri(post.link)).toMatchObject({ __typename: 'Post', databaseId: post.id });
    expect(await byUri(pathOf(page.link))).toMatchObject({ __typename: 'Page', databaseId: page.id, uri: '/about-us/' });
  });

  it('names category archives (nested, plain ?cat= and a later page) and tag archives', async () => {
    expect(childCat.link).toMatch(/\/category\/parent-topic\/child-topic\/$/);
    expect(await byUri('/category/parent-topic/child-topic/')).toMatchObject({ __typename: 'Category', databaseId: childCat.id, name: 'Child Topic', uri: '/category/parent-topic/child-topic/' });
    expect(await byUri('/category/parent-topic/')).toMatchObject({ __typename: 'Category', databaseId: parentCat.id });
    expect(await byUri(`/?cat=${childCat.id}`)).toMatchObject({ __typename: 'Category', databaseId: childCat.id });
    expect(await byUri('/tag/shiny/')).toMatchObject({ __typename: 'Tag', databaseId: tag.id, uri: '/tag/shiny/' });
  });

  it('names an author page (pretty and ?author=) for a user with published posts', async () => {
    const editor = site.users.editor;
    const found = await byUri(`/?author=${editor.id}`);
    expect(found, 'the editor wrote a published post').toMatchObject({ __typename: 'User', databaseId: editor.id });
    const uri = found!.uri as string;
    expect(uri).toMatch(/^\/author\/[^/]+\/$/);
    expect(await byUri(uri)).toMatchObject({ __typename: 'User', databaseId: editor.id });
  });

  it('names the posts list at home as the post content type', async () => {
    expect(await byUri('/')).toMatchObject({ __typename: 'ContentType', name: 'post', uri: '/', isFrontPage: true, isPostsPage: true });
  });

  it('answers null for what names nothing, and for a draft an anonymous caller may not read', async () => {
    for (const uri of ['/category/no-such-topic/', '/tag/no-such-tag/', '/author/nobody-here/', '/no/such/path/', 'https://elsewhere.example/', `/?p=${draft.id}`]) {
      expect(await byUri(uri), uri).toBeNull();
    }
  });

  it('gives records whose global id node(id) reads back, the same record', async () => {
    for (const uri of [pathOf(post.link), '/category/parent-topic/', '/tag/shiny/', '/']) {
      const found = (await byUri(uri))!;
      const res = await site.gql('query($id: ID!) { node(id: $id) { __typename id } }', { id: found.id });
      expect(res.data.node, show(res)).toEqual({ __typename: found.__typename, id: found.id });
    }
  });
});

describe('contentNodes', () => {
  it('lists published posts and pages together, newest first, without drafts', async () => {
    const res = await site.gql('{ contentNodes(first: 50) { nodes { __typename ... on Post { databaseId } ... on Page { databaseId } } } }');
    expect(res.errors, show(res)).toBeUndefined();
    const nodes = res.data.contentNodes.nodes as { __typename: string; databaseId: number }[];
    expect(nodes).toEqual(expect.arrayContaining([{ __typename: 'Post', databaseId: post.id }, { __typename: 'Page', databaseId: page.id }]));
    expect(nodes.map((n) => n.databaseId)).not.toContain(draft.id);
    const rest = await site.req('GET', '/core/v2/posts?per_page=100');
    const restPosts = (rest.body as { id: number }[]).map((p) => p.id);
    expect(nodes.filter((n) => n.__typename === 'Post').map((n) => n.databaseId)).toEqual(restPosts.slice(0, nodes.filter((n) => n.__typename === 'Post').length));
  });

  it('narrows to some types, and refuses a type that is not one with rest_invalid_param (400)', async () => {
    const pages = await site.gql('{ contentNodes(first: 50, where: { contentTypes: ["page"] }) { nodes { __typename } } }');
    expect(new Set((pages.data.contentNodes.nodes as { __typename: string }[]).map((n) => n.__typename))).toEqual(new Set(['Page']));
    const bad = await site.gql('{ contentNodes(where: { contentTypes: ["attachment"] }) { nodes { __typename } } }');
    expectGqlError(bad, 400, 'rest_invalid_param');
  });
});
