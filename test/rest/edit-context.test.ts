// The order of the `context=edit` checks, which the gateway makes (gateway/edit-context.ts and the
// routes): each answer is the one WordPress's get_item(s)_permissions_check gives first, after the
// arguments are validated and sanitized (as WP_REST_Server::dispatch does before any permission check).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestSite, type As, type TestSite } from '../helpers/app.js';

let site: TestSite;
const get = (path: string, as?: As) => site.req('GET', `/core/v2/${path}`, { as });

let published: any;
let draft: any;
let protectedPost: any;
let page: any;
let draftPage: any;
let protectedPage: any;
let category: any;
let tag: any;

beforeAll(async () => {
  site = await createTestSite();
  published = await site.createPost({ title: 'Published by the author', status: 'publish', content: 'Open words' }, 'author');
  draft = await site.createPost({ title: 'Draft by the author', status: 'draft', content: 'Draft words' }, 'author');
  protectedPost = await site.createPost({ title: 'Protected', status: 'publish', content: 'Hidden words', password: 'secret' }, 'editor');
  page = await site.createPage({ title: 'Published page', status: 'publish', content: 'Page words' }, 'editor');
  draftPage = await site.createPage({ title: 'Draft page', status: 'draft', content: 'Draft page words' }, 'editor');
  protectedPage = await site.createPage({ title: 'Protected page', status: 'publish', content: 'Hidden page words', password: 'secret' }, 'editor');
  category = await site.createTerm('categories', { name: 'Edit context category', description: 'About it' });
  tag = await site.createTerm('tags', { name: 'Edit context tag' });
});
afterAll(async () => { await site?.close(); });

describe('posts: one post with context=edit', () => {
  it('answers 404 rest_post_invalid_id for an unknown id before any right is checked', async () => {
    expect(await get('posts/99999?context=edit')).toBeWpError(404, 'rest_post_invalid_id');
    expect(await get('posts/99999?context=edit', 'subscriber')).toBeWpError(404, 'rest_post_invalid_id');
  });

  it('refuses anonymous callers a published post with 401 rest_forbidden_context', async () => {
    expect(await get(`posts/${published.id}?context=edit`)).toBeWpError(401, 'rest_forbidden_context');
    // The same post in view context is public.
    expect((await get(`posts/${published.id}`)).status).toBe(200);
  });

  it("refuses a contributor someone else's draft with 403 rest_forbidden_context (the edit right before the read right)", async () => {
    expect(await get(`posts/${draft.id}?context=edit`, 'contributor')).toBeWpError(403, 'rest_forbidden_context');
    expect(await get(`posts/${draft.id}?context=edit`)).toBeWpError(401, 'rest_forbidden_context');
    // Without context=edit the read right is what fails.
    expect(await get(`posts/${draft.id}`, 'contributor')).toBeWpError(403, 'rest_forbidden');
  });

  it('refuses a contributor with a wrong password with rest_forbidden_context (the edit right before the password)', async () => {
    expect(await get(`posts/${protectedPost.id}?context=edit&password=wrong`, 'contributor')).toBeWpError(403, 'rest_forbidden_context');
    expect(await get(`posts/${protectedPost.id}?context=edit`, 'contributor')).toBeWpError(403, 'rest_forbidden_context');
    // In view context the wrong password is the answer.
    expect(await get(`posts/${protectedPost.id}?password=wrong`, 'contributor')).toBeWpError(403, 'rest_post_incorrect_password');
  });

  it('tells an editor with a wrong password 403 rest_post_incorrect_password', async () => {
    expect(await get(`posts/${protectedPost.id}?context=edit&password=wrong`, 'editor')).toBeWpError(403, 'rest_post_incorrect_password');
  });

  it('shows an editor a protected post without its password, raw content included', async () => {
    const res = await get(`posts/${protectedPost.id}?context=edit`, 'editor');
    expect(res.status).toBe(200);
    expect(res.body.content.raw).toBe('Hidden words');
    expect(res.body.content.protected).toBe(true);
    expect(res.body.password).toBe('secret');
    const withPassword = await get(`posts/${protectedPost.id}?context=edit&password=secret`, 'editor');
    expect(withPassword.status).toBe(200);
    expect(withPassword.body.content.raw).toBe('Hidden words');
  });

  it('gives the author their own draft and its raw fields', async () => {
    const res = await get(`posts/${draft.id}?context=edit`, 'author');
    expect(res.status).toBe(200);
    expect(res.body.title.raw).toBe('Draft by the author');
    expect(res.body.status).toBe('draft');
  });
});

describe('posts: the list with context=edit', () => {
  it('is open to those with edit_posts (an author) and refused to others', async () => {
    const author = await get('posts?context=edit', 'author');
    expect(author.status).toBe(200);
    expect(author.body.map((p: { title: { raw: string } }) => p.title.raw).sort()).toEqual(['Protected', 'Published by the author']);
    expect(await get('posts?context=edit', 'subscriber')).toBeWpError(403, 'rest_forbidden_context');
    expect(await get('posts?context=edit')).toBeWpError(401, 'rest_forbidden_context');
  });

  it('refuses a forbidden status first: 400 rest_invalid_param, as the status sanitizer runs before the permission check', async () => {
    const sub = await get('posts?context=edit&status=draft', 'subscriber');
    expect(sub).toBeWpError(400, 'rest_invalid_param');
    expect(sub.body.data.details.status).toEqual({ code: 'rest_forbidden_status', message: 'Status is forbidden.', data: { status: 403 } });
    const anon = await get('posts?context=edit&status=draft');
    expect(anon).toBeWpError(400, 'rest_invalid_param');
    expect(anon.body.data.details.status.data).toEqual({ status: 401 });
    // A status anyone may ask for leaves the edit right as the answer.
    expect(await get('posts?context=edit&status=publish', 'subscriber')).toBeWpError(403, 'rest_forbidden_context');
  });

  it('gives an editor the drafts with context=edit&status=draft', async () => {
    const res = await get('posts?context=edit&status=draft', 'editor');
    expect(res.status).toBe(200);
    expect(res.body.map((p: { id: number }) => p.id)).toEqual([draft.id]);
    expect(res.body[0].content.raw).toBe('Draft words');
  });
});

describe('pages: the same checks with edit_pages', () => {
  it('answers 404 rest_post_invalid_id for an unknown id', async () => {
    expect(await get('pages/99999?context=edit')).toBeWpError(404, 'rest_post_invalid_id');
    expect(await get('pages/99999?context=edit', 'subscriber')).toBeWpError(404, 'rest_post_invalid_id');
  });

  it('refuses a published page to anonymous callers (401) and to an author without edit_pages (403)', async () => {
    expect(await get(`pages/${page.id}?context=edit`)).toBeWpError(401, 'rest_forbidden_context');
    expect(await get(`pages/${page.id}?context=edit`, 'author')).toBeWpError(403, 'rest_forbidden_context');
    expect((await get(`pages/${page.id}`, 'author')).status).toBe(200);
  });

  it("refuses a contributor someone else's draft page with rest_forbidden_context", async () => {
    expect(await get(`pages/${draftPage.id}?context=edit`, 'contributor')).toBeWpError(403, 'rest_forbidden_context');
    expect(await get(`pages/${draftPage.id}`, 'contributor')).toBeWpError(403, 'rest_forbidden');
  });

  it('puts the edit right before the password, and the password before reading for an editor', async () => {
    expect(await get(`pages/${protectedPage.id}?context=edit&password=wrong`, 'contributor')).toBeWpError(403, 'rest_forbidden_context');
    expect(await get(`pages/${protectedPage.id}?context=edit&password=wrong`, 'editor')).toBeWpError(403, 'rest_post_incorrect_password');
    const res = await get(`pages/${protectedPage.id}?context=edit`, 'editor');
    expect(res.status).toBe(200);
    expect(res.body.content.raw).toBe('Hidden page words');
    expect(res.body.password).toBe('secret');
  });

  it('lists pages with context=edit only for those with edit_pages', async () => {
    expect(await get('pages?context=edit', 'author')).toBeWpError(403, 'rest_forbidden_context');
    expect(await get('pages?context=edit', 'contributor')).toBeWpError(403, 'rest_forbidden_context');
    expect(await get('pages?context=edit', 'subscriber')).toBeWpError(403, 'rest_forbidden_context');
    expect(await get('pages?context=edit')).toBeWpError(401, 'rest_forbidden_context');
    const editor = await get('pages?context=edit', 'editor');
    expect(editor.status).toBe(200);
    expect(editor.body.map((p: { title: { raw: string } }) => p.title.raw).sort()).toEqual(['Protected page', 'Published page']);
  });

  it('refuses a forbidden page status before the edit right', async () => {
    const author = await get('pages?context=edit&status=draft', 'author');
    expect(author).toBeWpError(400, 'rest_invalid_param');
    expect(author.body.data.details.status.code).toBe('rest_forbidden_status');
    expect(author.body.data.details.status.data).toEqual({ status: 403 });
    const editor = await get('pages?context=edit&status=draft', 'editor');
    expect(editor.body.map((p: { id: number }) => p.id)).toEqual([draftPage.id]);
  });
});

describe('terms: 404 before the edit right', () => {
  it('answers 404 rest_term_invalid for an unknown term, whoever asks', async () => {
    expect(await get('categories/99999?context=edit', 'subscriber')).toBeWpError(404, 'rest_term_invalid');
    expect(await get('categories/99999?context=edit')).toBeWpError(404, 'rest_term_invalid');
    expect(await get('tags/99999?context=edit', 'author')).toBeWpError(404, 'rest_term_invalid');
  });

  it('refuses an existing term to those without manage_categories, gives it to an editor', async () => {
    expect(await get(`categories/${category.id}?context=edit`, 'subscriber')).toBeWpError(403, 'rest_forbidden_context');
    expect(await get(`categories/${category.id}?context=edit`)).toBeWpError(401, 'rest_forbidden_context');
    expect(await get(`tags/${tag.id}?context=edit`, 'author')).toBeWpError(403, 'rest_forbidden_context');
    const editor = await get(`categories/${category.id}?context=edit`, 'editor');
    expect(editor.status).toBe(200);
    expect(editor.body).toMatchObject({ id: category.id, name: 'Edit context category', description: 'About it', taxonomy: 'category' });
  });

  it('refuses the list with context=edit to an author, gives it to an editor', async () => {
    expect(await get('categories?context=edit', 'author')).toBeWpError(403, 'rest_forbidden_context');
    expect(await get('tags?context=edit', 'author')).toBeWpError(403, 'rest_forbidden_context');
    expect(await get('tags?context=edit')).toBeWpError(401, 'rest_forbidden_context');
    const editor = await get('tags?context=edit', 'editor');
    expect(editor.status).toBe(200);
    expect(editor.body.map((t: { id: number }) => t.id)).toEqual([tag.id]);
  });
});

describe('users', () => {
  it('refuses the role filter before the edit context (rest_user_cannot_view)', async () => {
    expect(await get('users?context=edit&roles=author', 'author')).toBeWpError(403, 'rest_user_cannot_view');
    expect(await get('users?context=edit&roles=author')).toBeWpError(401, 'rest_user_cannot_view');
    expect(await get('users?context=edit&capabilities=read', 'author')).toBeWpError(403, 'rest_user_cannot_view');
  });

  it('refuses the edit context before the e-mail order (rest_forbidden_context, not rest_forbidden_orderby)', async () => {
    expect(await get('users?context=edit&orderby=email', 'author')).toBeWpError(403, 'rest_forbidden_context');
    expect(await get('users?orderby=email', 'author')).toBeWpError(403, 'rest_forbidden_orderby');
    expect(await get('users?context=edit', 'editor')).toBeWpError(403, 'rest_forbidden_context');
  });

  it('lists users with their e-mail addresses for an administrator', async () => {
    const res = await get('users?context=edit&per_page=100&orderby=email', 'administrator');
    expect(res.status).toBe(200);
    expect(res.body.map((u: { email: string }) => u.email)).toEqual([
      'admin@example.invalid', 'author1@example.test', 'contributor1@example.test', 'editor1@example.test', 'subscriber1@example.test',
    ]);
  });

  it("gives a subscriber its own record with context=edit, refuses someone else's", async () => {
    const own = await get(`users/${site.users.subscriber.id}?context=edit`, 'subscriber');
    expect(own.status).toBe(200);
    expect(own.body).toMatchObject({ id: site.users.subscriber.id, email: 'subscriber1@example.test', roles: ['subscriber'] });
    expect(await get(`users/${site.users.administrator.id}?context=edit`, 'subscriber')).toBeWpError(403, 'rest_user_cannot_view');
    // The author has published posts, so it is public in view context, but not in edit context.
    expect((await get(`users/${site.users.author.id}`, 'subscriber')).status).toBe(200);
    expect(await get(`users/${site.users.author.id}?context=edit`, 'subscriber')).toBeWpError(403, 'rest_user_cannot_view');
    expect(await get(`users/${site.users.author.id}?context=edit`)).toBeWpError(401, 'rest_user_cannot_view');
  });

  it('answers 404 rest_user_invalid_id for an unknown user before any right', async () => {
    expect(await get('users/99999?context=edit')).toBeWpError(404, 'rest_user_invalid_id');
    expect(await get('users/99999?context=edit', 'subscriber')).toBeWpError(404, 'rest_user_invalid_id');
  });
});
