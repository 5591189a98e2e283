// core/v2/types, core/v2/statuses and core/v2/taxonomies: records per context, who may ask for
// the edit context, errors, links, and the `about` links of items that point at them.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestSite, API, type As, type TestSite } from '../helpers/app.js';

let site: TestSite;
beforeAll(async () => { site = await createTestSite(); });
afterAll(async () => { await site?.close(); });

const get = (path: string, as?: As) => site.req('GET', `/core/v2/${path}`, { as });
const ok = async (path: string, as?: As) => {
  const res = await get(path, as);
  expect(res.status, res.text).toBe(200);
  return res.body;
};
const keysOf = (o: Record<string, unknown>) => Object.keys(o).filter((k) => k !== '_links');

describe('types', () => {
  it('lists every content type, keyed by slug, with the view fields', async () => {
    const body = await ok('types');
    expect(Object.keys(body)).toEqual(['post', 'page', 'attachment']);
    expect(keysOf(body.post)).toEqual(['description', 'hierarchical', 'has_archive', 'name', 'slug', 'icon', 'taxonomies', 'rest_base', 'rest_namespace']);
    expect(body.post).toMatchObject({ slug: 'post', name: 'Posts', hierarchical: false, has_archive: false, taxonomies: ['category', 'post_tag'], rest_base: 'posts', rest_namespace: 'core/v2' });
    expect(body.page).toMatchObject({ slug: 'page', hierarchical: true, taxonomies: [], rest_base: 'pages' });
    expect(body.attachment).toMatchObject({ slug: 'attachment', rest_base: 'media', taxonomies: [] });
  });

  it('links a type to the collection and to its items (wp:items), with the curies', async () => {
    const post = await ok('types/post');
    expect(post._links.collection).toEqual([{ href: `${API}/core/v2/types` }]);
    expect(post._links['wp:items']).toEqual([{ href: `${API}/core/v2/posts` }]);
    expect(post._links.curies).toEqual([{ name: 'wp', href: 'https://api.w.org/{rel}', templated: true }]);
    expect((await ok('types/attachment'))._links['wp:items']).toEqual([{ href: `${API}/core/v2/media` }]);
  });

  it('prints the embed fields only in embed context', async () => {
    expect(keysOf(await ok('types/page?context=embed'))).toEqual(['name', 'slug', 'icon', 'rest_base', 'rest_namespace']);
  });

  it('shows the edit fields to whoever may edit items of the type', async () => {
    const page = await ok('types/page?context=edit', 'editor');
    expect(page.capabilities).toMatchObject({ edit_posts: 'edit_pages', publish_posts: 'publish_pages', edit_post: 'edit_page', read: 'read' });
    expect(page.supports).toMatchObject({ title: true, editor: true, 'page-attributes': true, revisions: true });
    expect(page.supports).not.toHaveProperty('post-formats');
    expect((await ok('types/post?context=edit', 'contributor')).supports).toMatchObject({ 'post-formats': true, excerpt: true });
    expect((await ok('types/attachment?context=edit', 'author')).capabilities.create_posts).toBe('upload_files');
    expect(page.labels).toMatchObject({ name: 'Pages', singular_name: 'Page' });
    expect(page.visibility).toEqual({ show_ui: true, show_in_nav_menus: true });
    expect(page.viewable).toBe(true);
  });

  it('refuses the edit context of a type the caller may not edit: 401 anonymous, 403 signed in', async () => {
    expect(await get('types/page?context=edit')).toBeWpError(401, 'rest_forbidden_context');
    expect(await get('types/page?context=edit', 'contributor')).toBeWpError(403, 'rest_forbidden_context');
    expect(await get('types/post?context=edit', 'subscriber')).toBeWpError(403, 'rest_forbidden_context');
  });

  it('lists in edit context only the types the caller may edit, and refuses callers who may edit none', async () => {
    expect(Object.keys(await ok('types?context=edit', 'contributor'))).toEqual(['post', 'attachment']);
    expect(Object.keys(await ok('types?context=edit', 'editor'))).toEqual(['post', 'page', 'attachment']);
    expect(await get('types?context=edit')).toBeWpError(401, 'rest_cannot_view');
    expect(await get('types?context=edit', 'subscriber')).toBeWpError(403, 'rest_cannot_view');
  });

  it('answers 404 rest_type_invalid for an unknown type, before the edit right', async () => {
    expect(await get('types/widget')).toBeWpError(404, 'rest_type_invalid');
    expect(await get('types/widget?context=edit')).toBeWpError(404, 'rest_type_invalid');
    expect(await get('types/bad.type')).toBeWpError(404, 'rest_no_route');
  });
});

describe('statuses', () => {
  it('shows anonymous callers and subscribers the public status only', async () => {
    for (const as of [undefined, 'subscriber'] as const) {
      const body = await ok('statuses', as);
      expect(Object.keys(body)).toEqual(['publish']);
      expect(keysOf(body.publish)).toEqual(['name', 'public', 'queryable', 'slug', 'date_floating']);
      expect(body.publish).toMatchObject({ name: 'Published', public: true, queryable: true, slug: 'publish', date_floating: false });
    }
  });

  it('shows those who may edit content every status a user can give, and trash', async () => {
    expect(Object.keys(await ok('statuses', 'contributor'))).toEqual(['publish', 'future', 'draft', 'pending', 'private', 'trash']);
    const edit = await ok('statuses?context=edit', 'editor');
    expect(keysOf(edit.draft)).toEqual(['name', 'private', 'protected', 'public', 'queryable', 'show_in_list', 'slug', 'date_floating']);
    expect(edit.draft).toMatchObject({ protected: true, public: false, date_floating: true, show_in_list: true });
    expect(edit.private).toMatchObject({ private: true, protected: false });
    expect(edit.trash).toMatchObject({ show_in_list: false });
  });

  it('links each status to its post list', async () => {
    const body = await ok('statuses', 'editor');
    expect(body.publish._links).toEqual({ archives: [{ href: `${API}/core/v2/posts` }] });
    expect(body.draft._links).toEqual({ archives: [{ href: `${API}/core/v2/posts?status=draft` }] });
  });

  it('refuses the edit context of the list to callers who may edit nothing', async () => {
    expect(await get('statuses?context=edit')).toBeWpError(401, 'rest_cannot_view');
    expect(await get('statuses?context=edit', 'subscriber')).toBeWpError(403, 'rest_cannot_view');
  });

  it('answers one status, refusing those the caller may not see', async () => {
    expect((await ok('statuses/publish')).slug).toBe('publish');
    expect((await ok('statuses/draft?context=embed', 'author'))).toEqual({ name: 'Draft', slug: 'draft', _links: { archives: [{ href: `${API}/core/v2/posts?status=draft` }] } });
    expect(await get('statuses/draft')).toBeWpError(401, 'rest_cannot_read_status');
    expect(await get('statuses/trash', 'subscriber')).toBeWpError(403, 'rest_cannot_read_status');
    // Internal statuses other than trash are seen by nobody.
    expect(await get('statuses/auto-draft', 'administrator')).toBeWpError(403, 'rest_cannot_read_status');
    expect(await get('statuses/archived')).toBeWpError(404, 'rest_status_invalid');
  });
});

describe('taxonomies', () => {
  it('lists every taxonomy, keyed by slug, with the view fields', async () => {
    const body = await ok('taxonomies');
    expect(Object.keys(body)).toEqual(['category', 'post_tag']);
    expect(keysOf(body.category)).toEqual(['name', 'slug', 'description', 'types', 'hierarchical', 'rest_base', 'rest_namespace']);
    expect(body.category).toMatchObject({ name: 'Categories', slug: 'category', types: ['post'], hierarchical: true, rest_base: 'categories', rest_namespace: 'core/v2' });
    expect(body.post_tag).toMatchObject({ slug: 'post_tag', hierarchical: false, rest_base: 'tags' });
    expect(body.post_tag._links).toEqual({
      collection: [{ href: `${API}/core/v2/taxonomies` }], 'wp:items': [{ href: `${API}/core/v2/tags` }],
      curies: [{ name: 'wp', href: 'https://api.w.org/{rel}', templated: true }],
    });
  });

  it('filters by content type: none for a type without taxonomies or an unknown one', async () => {
    expect(Object.keys(await ok('taxonomies?type=post'))).toEqual(['category', 'post_tag']);
    expect(await ok('taxonomies?type=page')).toEqual({});
    expect(await ok('taxonomies?type=nothing')).toEqual({});
  });

  it('shows the edit fields to those who may assign terms (edit_posts)', async () => {
    const cat = await ok('taxonomies/category?context=edit', 'contributor');
    expect(cat.capabilities).toEqual({ manage_terms: 'manage_categories', edit_terms: 'manage_categories', delete_terms: 'manage_categories', assign_terms: 'edit_posts' });
    expect(cat.labels).toMatchObject({ name: 'Categories', singular_name: 'Category', parent_item: 'Parent Category', popular_items: null });
    expect((await ok('taxonomies/post_tag?context=edit', 'author')).labels.popular_items).toBe('Popular Tags');
    expect(cat).toMatchObject({ show_cloud: true, visibility: { public: true, show_ui: true } });
    expect(Object.keys(await ok('taxonomies?context=edit', 'contributor'))).toEqual(['category', 'post_tag']);
  });

  it('refuses the edit context to those who may not assign terms', async () => {
    expect(await get('taxonomies?context=edit')).toBeWpError(401, 'rest_cannot_view');
    expect(await get('taxonomies?context=edit', 'subscriber')).toBeWpError(403, 'rest_cannot_view');
    expect(await get('taxonomies/category?context=edit')).toBeWpError(401, 'rest_forbidden_context');
    expect(await get('taxonomies/post_tag?context=edit', 'subscriber')).toBeWpError(403, 'rest_forbidden_context');
  });

  it('answers 404 rest_taxonomy_invalid for an unknown taxonomy', async () => {
    expect(await get('taxonomies/genre')).toBeWpError(404, 'rest_taxonomy_invalid');
    expect(await get('taxonomies/genre?context=edit')).toBeWpError(404, 'rest_taxonomy_invalid');
  });
});

describe('schemas and the links that point here', () => {
  it('answers each route\'s item schema on OPTIONS, made from the same definitions', async () => {
    const titles: Record<string, string> = { types: 'type', 'types/post': 'type', statuses: 'status', 'statuses/publish': 'status', taxonomies: 'taxonomy', 'taxonomies/category': 'taxonomy' };
    for (const [path, title] of Object.entries(titles)) {
      const res = await site.req('OPTIONS', `/core/v2/${path}`);
      expect(res.status, path).toBe(200);
      expect(res.body.schema.title, path).toBe(title);
    }
    const types = (await site.req('OPTIONS', '/core/v2/types')).body.schema.properties;
    expect(types.capabilities).toMatchObject({ type: 'object', context: ['edit'], readonly: true });
    expect(types.has_archive.type).toEqual(['string', 'boolean']);
    expect(types).not.toHaveProperty('can_edit');
    const taxonomies = await site.req('OPTIONS', '/core/v2/taxonomies');
    expect(taxonomies.body.endpoints[0].args.type).toMatchObject({ type: 'string' });
  });

  it('lets the `about` link of a post, a page and a term resolve to its type or taxonomy', async () => {
    const post = await site.createPost({ title: 'About', status: 'publish' });
    const page = await site.createPage({ title: 'About page', status: 'publish' });
    const tag = await site.createTerm('tags', { name: 'About tag' });
    const targets: [string, string][] = [
      [`posts/${post.id}`, 'post'], [`pages/${page.id}`, 'page'], [`tags/${tag.id}`, 'post_tag'],
    ];
    for (const [path, slug] of targets) {
      const item = await ok(path);
      const href: string = item._links.about[0].href;
      expect(href.startsWith(`${API}/core/v2/`), href).toBe(true);
      const target = await site.req('GET', href.slice(API.length));
      expect(target.status, href).toBe(200);
      expect(target.body.slug).toBe(slug);
    }
  });

  it('answers the same records through GraphQL', async () => {
    const res = await site.gql('{ contentTypes { slug restBase } taxonomy(taxonomy: "category") { types } }');
    expect(res.errors).toBeUndefined();
    expect(res.data.contentTypes.map((t: { restBase: string }) => t.restBase)).toEqual(['posts', 'pages', 'media']);
    expect(res.data.taxonomy.types).toEqual(['post']);
    const missing = await site.gql('{ status(status: "nope") { slug } }');
    expect(missing.errors?.[0].extensions).toMatchObject({ code: 'rest_status_invalid', status: 404 });
  });
});
