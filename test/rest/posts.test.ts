import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestSite, API, SITE, type TestSite } from '../helpers/app.js';

let site: TestSite;
beforeAll(async () => { site = await createTestSite(); });
afterAll(async () => { await site?.close(); });

type As = NonNullable<Parameters<TestSite['req']>[2]>['as'];
const create = (json: Record<string, unknown>, as: As = 'administrator') =>
  site.req('POST', '/core/v2/posts', { as, json });

describe('PostCreate', () => {
  it('creates a draft by default with WordPress defaults, 201 and Location', async () => {
    const res = await create({ title: 'Hello "World"', content: 'Body' });
    expect(res.status).toBe(201);
    expect(res.headers.get('location')).toBe(`${API}/core/v2/posts/${res.body.id}`);
    const p = res.body;
    expect(p.status).toBe('draft');
    expect(p.slug).toBe('');
    expect(p.generated_slug).toBe('hello-world');
    expect(p.title).toEqual({ raw: 'Hello "World"', rendered: 'Hello &#8220;World&#8221;' });
    expect(p.content).toEqual({ raw: 'Body', rendered: '<p>Body</p>\n', protected: false, block_version: 0 });
    expect(p.excerpt.rendered).toBe('<p>Body</p>\n');
    expect(p.author).toBe(site.users.administrator.id);
    expect(p.comment_status).toBe('open');
    expect(p.format).toBe('standard');
    expect(p.categories).toHaveLength(1);
    expect(p.meta).toEqual({ footnotes: '' });
    expect(p.link).toBe(`${SITE}/?p=${p.id}`);
    expect(p.date).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d$/);
    expect(p.guid.raw).toBe(`${SITE}/?p=${p.id}`);
    expect(p._links['version-history'][0].count).toBe(0);
    expect(p._links.self[0].targetHints.allow).toEqual(['GET', 'POST', 'PUT', 'PATCH', 'DELETE']);
  });

  it('publishes with a unique slug from the title', async () => {
    const a = await create({ title: 'Same Title!', status: 'publish' });
    const b = await create({ title: 'Same Title!', status: 'publish' });
    expect(a.body.slug).toBe('same-title');
    expect(b.body.slug).toBe('same-title-2');
    expect(a.body.link).toBe(`${SITE}/same-title/`);
  });

  it('stores a publish date in the future as future, and a past future as publish', async () => {
    const future = await create({ title: 'Later', status: 'publish', date_gmt: '2099-01-01T00:00:00' });
    expect(future.body.status).toBe('future');
    const past = await create({ title: 'Earlier', status: 'future', date: '2001-02-03T04:05:06' });
    expect(past.body.status).toBe('publish');
    expect(past.body.date).toBe('2001-02-03T04:05:06');
    expect(past.body.date_gmt).toBe('2001-02-03T04:05:06');
  });

  it('converts a date with an offset to site time', async () => {
    const res = await create({ title: 'Zoned', status: 'publish', date: '2020-06-01T12:00:00+02:00' });
    expect(res.body.date_gmt).toBe('2020-06-01T10:00:00');
  });

  it('refuses content-free posts, impossible dates and bad fields with WordPress codes', async () => {
    expect(await create({})).toBeWpError(400, 'empty_content');
    expect(await create({ title: 'x', date: '2021-02-30T10:00:00' })).toBeWpError(400, 'invalid_date');
    const badDate = await create({ title: 'x', date: 'yesterday' });
    expect(badDate).toBeWpError(400, 'rest_invalid_param');
    expect(badDate.body.data.details.date.code).toBe('rest_invalid_date');
    const badStatus = await create({ title: 'x', status: 'bogus' });
    expect(badStatus).toBeWpError(400, 'rest_invalid_param');
    expect(badStatus.body.data.params.status).toBeTruthy();
    expect(await create({ title: 'x', author: 9999 })).toBeWpError(400, 'rest_invalid_author');
    expect(await create({ title: 'x', featured_media: 9999 })).toBeWpError(400, 'rest_invalid_featured_media');
    expect(await create({ title: 'x', template: 'nope.php' })).toBeWpError(400, 'rest_invalid_param');
    expect(await create({ title: 'x', id: 5 })).toBeWpError(400, 'rest_post_exists');
    expect(await create({ title: 'x', sticky: true, password: 'pw' })).toBeWpError(400, 'rest_invalid_field');
  });

  it('writes nothing when a write fails', async () => {
    const before = await site.db.prisma.content.count();
    await create({ title: 'x', categories: [424242] });
    expect(await site.db.prisma.content.count()).toBe(before);
  });

  it('drops the slug of a pending post saved by someone who cannot publish', async () => {
    const pending = await create({ title: 'Waiting', slug: 'waiting', status: 'pending' }, 'contributor');
    expect(pending.body.slug).toBe('');
    const byEditor = await create({ title: 'Waiting', slug: 'waiting-too', status: 'pending' }, 'editor');
    expect(byEditor.body.slug).toBe('waiting-too');
  });

  it('applies the 401/403 rule to create and publish rights', async () => {
    expect(await site.req('POST', '/core/v2/posts', { json: { title: 'x' } })).toBeWpError(401, 'rest_cannot_create');
    expect(await create({ title: 'x' }, 'subscriber')).toBeWpError(403, 'rest_cannot_create');
    expect(await create({ title: 'x', status: 'publish' }, 'contributor')).toBeWpError(403, 'rest_cannot_publish');
    expect((await create({ title: 'x', status: 'pending' }, 'contributor')).status).toBe(201);
    expect(await create({ title: 'x', author: site.users.editor.id }, 'author')).toBeWpError(403, 'rest_cannot_edit_others');
  });

  it('answers malformed JSON with rest_invalid_json', async () => {
    const res = await site.req('POST', '/core/v2/posts', { as: 'administrator', body: '{"title":', headers: { 'content-type': 'application/json' } });
    expect(res).toBeWpError(400, 'rest_invalid_json');
    expect(res.body.data.json_error_code).toBe(4);
  });

  it('accepts form bodies and string forms of booleans', async () => {
    const res = await site.req('POST', '/core/v2/posts', {
      as: 'administrator', body: 'title=Form+post&status=publish&sticky=false', headers: { 'content-type': 'application/x-www-form-urlencoded' },
    });
    expect(res.status).toBe(201);
    expect(res.body.title.raw).toBe('Form post');
    expect(res.body.sticky).toBe(false);
  });
});

describe('PostGet', () => {
  let id: number;
  beforeAll(async () => {
    id = (await create({ title: 'Readable', content: 'Some text here', status: 'publish', excerpt: '' })).body.id;
  });

  it('serves the three contexts with their field sets', async () => {
    const view = (await site.req('GET', `/core/v2/posts/${id}`)).body;
    expect(Object.keys(view)).toEqual(expect.arrayContaining(['id', 'date', 'date_gmt', 'guid', 'modified', 'slug', 'status', 'type', 'link', 'title', 'content', 'excerpt', 'author', 'featured_media', 'comment_status', 'ping_status', 'sticky', 'template', 'format', 'meta', 'categories', 'tags', 'class_list', '_links']));
    expect(view.title.raw).toBeUndefined();
    expect(view.password).toBeUndefined();
    expect(view.guid).toEqual({ rendered: `${SITE}/?p=${id}` });

    const embed = (await site.req('GET', `/core/v2/posts/${id}?context=embed`)).body;
    expect(Object.keys(embed).sort()).toEqual(['_links', 'author', 'date', 'excerpt', 'featured_media', 'id', 'link', 'slug', 'title', 'type']);

    const edit = await site.req('GET', `/core/v2/posts/${id}?context=edit`, { as: 'editor' });
    expect(edit.status).toBe(200);
    expect(edit.body.title.raw).toBe('Readable');
    expect(edit.body.password).toBe('');
    expect(edit.body.permalink_template).toBe(`${SITE}/%postname%/`);
    expect(edit.body._links['wp:action-publish']).toBeDefined();
  });

  it('refuses edit context without the right, with 401/403', async () => {
    expect(await site.req('GET', `/core/v2/posts/${id}?context=edit`)).toBeWpError(401, 'rest_forbidden_context');
    expect(await site.req('GET', `/core/v2/posts/${id}?context=edit`, { as: 'contributor' })).toBeWpError(403, 'rest_forbidden_context');
  });

  it('answers unknown ids and bad contexts', async () => {
    expect(await site.req('GET', '/core/v2/posts/987654')).toBeWpError(404, 'rest_post_invalid_id');
    const bad = await site.req('GET', `/core/v2/posts/${id}?context=bogus`);
    expect(bad).toBeWpError(400, 'rest_invalid_param');
    expect(bad.body.data.details.context.code).toBe('rest_not_in_enum');
  });

  it('hides drafts from those who cannot edit them', async () => {
    const draft = (await create({ title: 'Secret draft' }, 'author')).body.id;
    expect(await site.req('GET', `/core/v2/posts/${draft}`)).toBeWpError(401, 'rest_forbidden');
    expect(await site.req('GET', `/core/v2/posts/${draft}`, { as: 'contributor' })).toBeWpError(403, 'rest_forbidden');
    expect((await site.req('GET', `/core/v2/posts/${draft}`, { as: 'author' })).status).toBe(200);
    expect((await site.req('GET', `/core/v2/posts/${draft}`, { as: 'editor' })).status).toBe(200);
  });

  it('protects content behind a password', async () => {
    const locked = (await create({ title: 'Locked', content: 'Hidden words', excerpt: 'Hidden excerpt', status: 'publish', password: 'sesame' })).body.id;
    const anon = (await site.req('GET', `/core/v2/posts/${locked}`)).body;
    expect(anon.content).toEqual({ rendered: '', protected: true });
    expect(anon.excerpt).toEqual({ rendered: '', protected: true });
    const opened = (await site.req('GET', `/core/v2/posts/${locked}?password=sesame`)).body;
    expect(opened.content.rendered).toBe('<p>Hidden words</p>\n');
    expect(await site.req('GET', `/core/v2/posts/${locked}?password=wrong`)).toBeWpError(403, 'rest_post_incorrect_password');
  });

  it('trims a built excerpt to excerpt_length words', async () => {
    const words = Array.from({ length: 70 }, (_, i) => `w${i}`).join(' ');
    const long = (await create({ title: 'Long', content: words, status: 'publish' })).body.id;
    const full = (await site.req('GET', `/core/v2/posts/${long}`)).body;
    expect(full.excerpt.rendered).toBe(`<p>${words.split(' ').slice(0, 55).join(' ')} [&hellip;]</p>\n`);
    const short = (await site.req('GET', `/core/v2/posts/${long}?excerpt_length=3`)).body;
    expect(short.excerpt.rendered).toBe('<p>w0 w1 w2 [&hellip;]</p>\n');
  });

  it('sends the alternate link for a published item', async () => {
    const res = await site.req('GET', `/core/v2/posts/${id}`);
    expect(res.headers.get('link')).toContain('rel="alternate"; type=text/html');
  });
});

describe('PostUpdate', () => {
  it('updates partially with POST, PUT and PATCH and stores revisions when text changes', async () => {
    const id = (await create({ title: 'Original', content: 'One', status: 'publish' })).body.id;
    const put = await site.req('PUT', `/core/v2/posts/${id}`, { as: 'administrator', json: { title: 'Changed' } });
    expect(put.status).toBe(200);
    expect(put.body.title.raw).toBe('Changed');
    expect(put.body.content.raw).toBe('One');
    expect(put.body._links['version-history'][0].count).toBe(1);
    const patch = await site.req('PATCH', `/core/v2/posts/${id}`, { as: 'administrator', json: { comment_status: 'closed' } });
    expect(patch.body.comment_status).toBe('closed');
    expect(patch.body._links['version-history'][0].count).toBe(1);
    const post = await site.req('POST', `/core/v2/posts/${id}`, { as: 'administrator', json: { content: { raw: 'Two' } } });
    expect(post.body.content.raw).toBe('Two');
    expect(post.body._links['version-history'][0].count).toBe(2);
    expect(post.body._links['predecessor-version'][0].id).toBeGreaterThan(id);
  });

  it('enforces edit rights: others, published, anonymous', async () => {
    const mine = (await create({ title: 'Authors own', status: 'publish' }, 'author')).body.id;
    expect(await site.req('POST', `/core/v2/posts/${mine}`, { json: { title: 'x' } })).toBeWpError(401, 'rest_cannot_edit');
    expect(await site.req('POST', `/core/v2/posts/${mine}`, { as: 'contributor', json: { title: 'x' } })).toBeWpError(403, 'rest_cannot_edit');
    expect((await site.req('POST', `/core/v2/posts/${mine}`, { as: 'author', json: { title: 'y' } })).status).toBe(200);
    expect((await site.req('POST', `/core/v2/posts/${mine}`, { as: 'editor', json: { title: 'z' } })).status).toBe(200);
    expect(await site.req('POST', '/core/v2/posts/987654', { as: 'editor', json: { title: 'z' } })).toBeWpError(404, 'rest_post_invalid_id');
  });

  it('keeps sticky posts in the sticky_posts option', async () => {
    const id = (await create({ title: 'Sticky', status: 'publish', sticky: true })).body.id;
    const option = await site.db.prisma.option.findUnique({ where: { name: 'sticky_posts' } });
    expect(JSON.parse(option!.value)).toContain(id);
    const res = await site.req('POST', `/core/v2/posts/${id}`, { as: 'administrator', json: { sticky: 'false' } });
    expect(res.body.sticky).toBe(false);
  });
});

describe('PostDelete', () => {
  it('trashes, refuses a second trash, restores on status, then deletes for good', async () => {
    const id = (await create({ title: 'Bin me', status: 'publish' })).body.id;
    const trashed = await site.req('DELETE', `/core/v2/posts/${id}`, { as: 'administrator' });
    expect(trashed.status).toBe(200);
    expect(trashed.body.status).toBe('trash');
    expect(trashed.body.slug).toBe('bin-me__trashed');
    expect(await site.req('DELETE', `/core/v2/posts/${id}`, { as: 'administrator' })).toBeWpError(410, 'rest_already_trashed');
    const restored = await site.req('POST', `/core/v2/posts/${id}`, { as: 'administrator', json: { status: 'draft' } });
    expect(restored.body.slug).toBe('bin-me');
    const gone = await site.req('DELETE', `/core/v2/posts/${id}?force=true`, { as: 'administrator' });
    expect(gone.status).toBe(200);
    expect(gone.body.deleted).toBe(true);
    expect(gone.body.previous.id).toBe(id);
    expect(gone.body.previous.title.raw).toBe('Bin me');
    expect(await site.req('GET', `/core/v2/posts/${id}`, { as: 'administrator' })).toBeWpError(404, 'rest_post_invalid_id');
  });

  it('applies delete rights', async () => {
    const id = (await create({ title: 'Keep', status: 'publish' })).body.id;
    expect(await site.req('DELETE', `/core/v2/posts/${id}`)).toBeWpError(401, 'rest_cannot_delete');
    expect(await site.req('DELETE', `/core/v2/posts/${id}`, { as: 'author' })).toBeWpError(403, 'rest_cannot_delete');
  });
});
