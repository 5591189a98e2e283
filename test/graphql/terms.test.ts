// Categories and tags over /graphql: the same rules as core/v2/categories and core/v2/tags
// (manage_categories to write, terms have no trash), term lists ordered by TermOrderBy values.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestSite, type TestSite } from '../helpers/app.js';
import { expectGqlError, expectRejected } from '../helpers/gql.js';

let site: TestSite;
beforeAll(async () => { site = await createTestSite(); });
afterAll(async () => { await site?.close(); });

const names = (nodes: { name: string }[]) => nodes.map((n) => n.name);

describe('categories: writes', () => {
  it('creates, updates and deletes a category for good, as REST sees it', async () => {
    const parent = await site.createTerm('categories', { name: 'Parent' });
    const created = await site.gql('mutation($i: CategoryInput!) { createCategory(input: $i) { databaseId name slug description parentDatabaseId count taxonomy link } }', {
      i: { name: 'Rock Music', description: 'Loud', parent: parent.id },
    }, { as: 'editor' });
    expect(created.errors).toBeUndefined();
    const cat = created.data.createCategory;
    expect(cat).toMatchObject({ name: 'Rock Music', slug: 'rock-music', description: 'Loud', parentDatabaseId: parent.id, count: 0, taxonomy: 'category', link: 'http://site.test/category/parent/rock-music/' });
    const rest = await site.req('GET', `/core/v2/categories/${cat.databaseId}`);
    expect(rest.body).toMatchObject({ id: cat.databaseId, name: 'Rock Music', slug: 'rock-music', parent: parent.id, taxonomy: 'category', link: cat.link });

    const updated = await site.gql('mutation($id: Int!) { updateCategory(id: $id, input: { name: "Jazz", slug: "jazz", parent: 0 }) { databaseId name slug parentDatabaseId } }', { id: cat.databaseId }, { as: 'editor' });
    expect(updated.data.updateCategory).toEqual({ databaseId: cat.databaseId, name: 'Jazz', slug: 'jazz', parentDatabaseId: 0 });
    expect((await site.req('GET', `/core/v2/categories/${cat.databaseId}`)).body).toMatchObject({ name: 'Jazz', slug: 'jazz', parent: 0 });

    // Terms have no trash: without force nothing happens.
    expectGqlError(await site.gql('mutation($id: Int!) { deleteCategory(id: $id) { deleted } }', { id: cat.databaseId }, { as: 'editor' }), 501, 'rest_trash_not_supported');
    expect((await site.gql('query($id: Int!) { category(id: $id) { name } }', { id: cat.databaseId })).data.category.name).toBe('Jazz');
    const deleted = await site.gql('mutation($id: Int!) { deleteCategory(id: $id, force: true) { deleted previous { databaseId name } } }', { id: cat.databaseId }, { as: 'editor' });
    expect(deleted.data.deleteCategory).toEqual({ deleted: true, previous: { databaseId: cat.databaseId, name: 'Jazz' } });
    expectGqlError(await site.gql('query($id: Int!) { category(id: $id) { databaseId } }', { id: cat.databaseId }), 404, 'rest_term_invalid');
    expect(await site.req('GET', `/core/v2/categories/${cat.databaseId}`)).toBeWpError(404, 'rest_term_invalid');
  });

  it('refuses writes without manage_categories, with 401 or 403', async () => {
    const cat = await site.createTerm('categories', { name: 'Guarded' });
    expectGqlError(await site.gql('mutation { createCategory(input: { name: "x" }) { databaseId } }'), 401, 'rest_cannot_create');
    expectGqlError(await site.gql('mutation { createCategory(input: { name: "x" }) { databaseId } }', {}, { as: 'author' }), 403, 'rest_cannot_create');
    const update = 'mutation($id: Int!) { updateCategory(id: $id, input: { name: "Taken" }) { databaseId } }';
    expectGqlError(await site.gql(update, { id: cat.id }), 401, 'rest_cannot_update');
    expectGqlError(await site.gql(update, { id: cat.id }, { as: 'contributor' }), 403, 'rest_cannot_update');
    expectGqlError(await site.gql('mutation($id: Int!) { deleteCategory(id: $id, force: true) { deleted } }', { id: cat.id }, { as: 'author' }), 403, 'rest_cannot_delete');
    expectGqlError(await site.gql('mutation($id: Int!) { deleteCategory(id: $id, force: true) { deleted } }', { id: cat.id }), 401, 'rest_cannot_delete');
    expect((await site.req('GET', `/core/v2/categories/${cat.id}`)).body.name).toBe('Guarded');
  });

  it('answers unknown terms, parents and duplicate names with the WordPress codes', async () => {
    expectGqlError(await site.gql('{ category(id: 99999) { databaseId } }'), 404, 'rest_term_invalid');
    expectGqlError(await site.gql('mutation { updateCategory(id: 99999, input: { name: "x" }) { databaseId } }', {}, { as: 'editor' }), 404, 'rest_term_invalid');
    expectGqlError(await site.gql('mutation { deleteCategory(id: 99999, force: true) { deleted } }', {}, { as: 'editor' }), 404, 'rest_term_invalid');
    expectGqlError(await site.gql('mutation { createCategory(input: { name: "Orphan", parent: 99999 }) { databaseId } }', {}, { as: 'editor' }), 400, 'rest_term_invalid');
    await site.createTerm('categories', { name: 'Once' });
    const twice = await site.gql('mutation { createCategory(input: { name: "Once" }) { databaseId } }', {}, { as: 'editor' });
    expectGqlError(twice, 400, 'term_exists');
  });
});

describe('tags: writes', () => {
  it('creates, updates and deletes a tag for good, as REST sees it', async () => {
    const created = await site.gql('mutation { createTag(input: { name: "Green Tea", description: "Leaves" }) { databaseId name slug description count taxonomy } }', {}, { as: 'editor' });
    expect(created.errors).toBeUndefined();
    const tag = created.data.createTag;
    expect(tag).toMatchObject({ name: 'Green Tea', slug: 'green-tea', description: 'Leaves', count: 0, taxonomy: 'post_tag' });
    expect((await site.req('GET', `/core/v2/tags/${tag.databaseId}`)).body).toMatchObject({ id: tag.databaseId, name: 'Green Tea', slug: 'green-tea', taxonomy: 'post_tag' });
    const updated = await site.gql('mutation($id: Int!) { updateTag(id: $id, input: { description: "Steeped" }) { name description } }', { id: tag.databaseId }, { as: 'administrator' });
    expect(updated.data.updateTag).toEqual({ name: 'Green Tea', description: 'Steeped' });
    expectGqlError(await site.gql('mutation($id: Int!) { deleteTag(id: $id) { deleted } }', { id: tag.databaseId }, { as: 'editor' }), 501, 'rest_trash_not_supported');
    const deleted = await site.gql('mutation($id: Int!) { deleteTag(id: $id, force: true) { deleted previous { databaseId slug } } }', { id: tag.databaseId }, { as: 'editor' });
    expect(deleted.data.deleteTag).toEqual({ deleted: true, previous: { databaseId: tag.databaseId, slug: 'green-tea' } });
    expectGqlError(await site.gql('query($id: Int!) { tag(id: $id) { databaseId } }', { id: tag.databaseId }), 404, 'rest_term_invalid');
  });

  it('refuses writes without manage_categories, with 401 or 403', async () => {
    const tag = await site.createTerm('tags', { name: 'Kept' });
    expectGqlError(await site.gql('mutation { createTag(input: { name: "x" }) { databaseId } }', {}, { as: 'author' }), 403, 'rest_cannot_create');
    expectGqlError(await site.gql('mutation { createTag(input: { name: "x" }) { databaseId } }'), 401, 'rest_cannot_create');
    expectGqlError(await site.gql('mutation($id: Int!) { updateTag(id: $id, input: { name: "y" }) { databaseId } }', { id: tag.id }, { as: 'subscriber' }), 403, 'rest_cannot_update');
    expectGqlError(await site.gql('mutation($id: Int!) { deleteTag(id: $id, force: true) { deleted } }', { id: tag.id }, { as: 'contributor' }), 403, 'rest_cannot_delete');
    expectGqlError(await site.gql('mutation { updateTag(id: 99999, input: { name: "y" }) { databaseId } }', {}, { as: 'editor' }), 404, 'rest_term_invalid');
    expect((await site.req('GET', `/core/v2/tags/${tag.id}`)).body.name).toBe('Kept');
  });
});

describe('term lists: filters, enum ordering and paging', () => {
  let science: number;
  let physics: number;
  let biology: number;
  let tags: Record<string, number>;
  let post: number;
  let draft: number;

  beforeAll(async () => {
    science = (await site.createTerm('categories', { name: 'Science' })).id;
    physics = (await site.createTerm('categories', { name: 'Physics', parent: science, description: 'b' })).id;
    biology = (await site.createTerm('categories', { name: 'Biology', parent: science, description: 'a' })).id;
    tags = {};
    for (const name of ['kiwi', 'apple', 'mango', 'fig', 'pear']) tags[name] = (await site.createTerm('tags', { name })).id;
    // Published posts counted: mango 4, fig 3, kiwi 2, apple 1, pear 0 (its post is a draft); physics 2, biology 1.
    post = (await site.createPost({ title: 'One', status: 'publish', categories: [physics], tags: [tags.mango, tags.fig, tags.kiwi] }, 'author')).id;
    await site.createPost({ title: 'Two', status: 'publish', categories: [physics, biology], tags: [tags.mango, tags.fig, tags.kiwi] }, 'author');
    await site.createPost({ title: 'Three', status: 'publish', tags: [tags.mango, tags.fig] }, 'author');
    await site.createPost({ title: 'Four', status: 'publish', tags: [tags.mango, tags.apple] }, 'author');
    draft = (await site.createPost({ title: 'Draft', status: 'draft', categories: [biology], tags: [tags.pear] }, 'author')).id;
  });

  it('orders tags by COUNT descending and pages with total and totalPages as REST does', async () => {
    const q = 'query($s: [String!], $page: Int) { tags(filter: { slug: $s }, orderby: COUNT, order: DESC, perPage: 2, page: $page) { total totalPages nodes { databaseId name count } } }';
    const slugs = ['kiwi', 'apple', 'mango', 'fig', 'pear'];
    const page1 = await site.gql(q, { s: slugs, page: 1 });
    expect(page1.errors).toBeUndefined();
    expect(page1.data.tags).toMatchObject({ total: 5, totalPages: 3 });
    expect(page1.data.tags.nodes.map((n: { name: string; count: number }) => [n.name, n.count])).toEqual([['mango', 4], ['fig', 3]]);
    const page2 = await site.gql(q, { s: slugs, page: 2 });
    expect(page2.data.tags.nodes.map((n: { name: string; count: number }) => [n.name, n.count])).toEqual([['kiwi', 2], ['apple', 1]]);
    const rest = await site.req('GET', `/core/v2/tags?slug=${slugs.join(',')}&orderby=count&order=desc&per_page=2&page=2`);
    expect(rest.body.map((t: { id: number }) => t.id)).toEqual(page2.data.tags.nodes.map((n: { databaseId: number }) => n.databaseId));
    expect([rest.headers.get('x-wp-total'), rest.headers.get('x-wp-totalpages')]).toEqual(['5', '3']);
  });

  it('orders by NAME by default, by SLUG, DESCRIPTION and INCLUDE on request, tags with an offset', async () => {
    const all = await site.gql('query($s: [String!]) { tags(filter: { slug: $s }) { nodes { name } } }', { s: Object.keys(tags) });
    expect(names(all.data.tags.nodes)).toEqual(['apple', 'fig', 'kiwi', 'mango', 'pear']);
    const offset = await site.gql('query($s: [String!]) { tags(filter: { slug: $s }, orderby: SLUG, order: DESC, offset: 3) { total nodes { name } } }', { s: Object.keys(tags) });
    expect(names(offset.data.tags.nodes)).toEqual(['fig', 'apple']);
    expect(offset.data.tags.total).toBe(5);
    const children = await site.gql('query($p: Int) { categories(filter: { parent: $p }, orderby: DESCRIPTION, order: DESC) { nodes { name } } }', { p: science });
    expect(names(children.data.categories.nodes)).toEqual(['Physics', 'Biology']);
    const included = await site.gql('query($i: [Int!]) { categories(filter: { include: $i }, orderby: INCLUDE) { nodes { databaseId } } }', { i: [physics, science, biology] });
    expect(included.data.categories.nodes.map((n: { databaseId: number }) => n.databaseId)).toEqual([physics, science, biology]);
  });

  it('filters by parent, hideEmpty, search, exclude and post', async () => {
    expect(names((await site.gql('query($p: Int) { categories(filter: { parent: $p }) { nodes { name } } }', { p: science })).data.categories.nodes)).toEqual(['Biology', 'Physics']);
    const topLevel = await site.gql('query($i: [Int!]) { categories(filter: { parent: 0, include: $i }) { nodes { name } } }', { i: [1, science, physics, biology] });
    expect(names(topLevel.data.categories.nodes)).toEqual(['Science', 'Uncategorized']);
    const nonEmpty = await site.gql('query($s: [String!]) { tags(filter: { slug: $s, hideEmpty: true }) { nodes { name } } }', { s: Object.keys(tags) });
    expect(names(nonEmpty.data.tags.nodes)).toEqual(['apple', 'fig', 'kiwi', 'mango']);
    expect(names((await site.gql('{ categories(filter: { search: "phys" }) { nodes { name } } }')).data.categories.nodes)).toEqual(['Physics']);
    const excluded = await site.gql('query($s: [String!], $e: [Int!]) { tags(filter: { slug: $s, exclude: $e }) { nodes { name } } }', { s: Object.keys(tags), e: [tags.apple, tags.pear] });
    expect(names(excluded.data.tags.nodes)).toEqual(['fig', 'kiwi', 'mango']);
    const ofPost = await site.gql('query($p: Int) { tags(filter: { post: $p }) { nodes { name } } categories(filter: { post: $p }) { nodes { databaseId } } }', { p: post });
    expect(names(ofPost.data.tags.nodes)).toEqual(['fig', 'kiwi', 'mango']);
    expect(ofPost.data.categories.nodes).toEqual([{ databaseId: physics }]);
  });

  it('lists the terms of a draft only for those who may read it (rest_forbidden_context otherwise)', async () => {
    const q = 'query($p: Int) { tags(filter: { post: $p }) { nodes { name } } }';
    expectGqlError(await site.gql(q, { p: draft }), 401, 'rest_forbidden_context');
    expectGqlError(await site.gql(q, { p: draft }, { as: 'subscriber' }), 403, 'rest_forbidden_context');
    expect(names((await site.gql(q, { p: draft }, { as: 'author' })).data.tags.nodes)).toEqual(['pear']);
    expectGqlError(await site.gql('{ categories(filter: { post: 99999 }) { total } }'), 400, 'rest_post_invalid_id');
  });

  it('rejects values outside the enums, and an offset on categories (hierarchical, as WordPress)', async () => {
    expectRejected(await site.gql('{ tags(orderby: count) { total } }'), /count.*TermOrderBy/);
    expectRejected(await site.gql('{ categories(orderby: MENU_ORDER) { total } }'), /MENU_ORDER.*TermOrderBy/);
    expectRejected(await site.gql('query($o: Order) { categories(order: $o) { total } }', { o: 'desc' }), /"desc".*Order/);
    expectRejected(await site.gql('{ categories(offset: 1) { total } }'), /Unknown argument "offset"/);
  });
});
