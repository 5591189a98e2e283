// core/v2/comments: creating (anonymous and signed in), the author data, closed and unknown items,
// duplicates and floods, moderation by role, what readers see, threads, the collection's
// parameters and its cost, trash and delete, an item's trash taking its comments along, `_embed`
// of an item's replies, and the filtering of comment HTML.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestSite, API, type As, type TestSite } from '../helpers/app.js';
import { setOption } from '../../src/site/options.js';

let site: TestSite;
let serial = 0;
/** Anonymous requests come from an address of their own each (the site trusts one proxy hop), so floods are the tests' choice. */
const addr = () => `203.0.113.${++serial % 250}`;

const comment = (json: Record<string, unknown>, as?: As, ip = addr()) => site.req('POST', '/core/v2/comments', { as, json, headers: { 'x-forwarded-for': ip, 'user-agent': 'comment-tests/1.0' } });
const anon = (json: Record<string, unknown>, ip?: string) => comment({ author_name: `Reader ${++serial}`, author_email: `reader${serial}@example.test`, ...json }, undefined, ip);
const get = (path: string, as?: As) => site.req('GET', `/core/v2/${path}`, { as });
const ids = (res: { status: number; body: any }) => {
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return (res.body as { id: number }[]).map((c) => c.id);
};

let post: any, authorsPost: any, closed: any, draft: any, secret: any;
beforeAll(async () => {
  site = await createTestSite({ trustProxy: { hops: 1 } });
  post = await site.createPost({ title: 'Open for comments', status: 'publish' });
  authorsPost = await site.createPost({ title: 'An author writes', status: 'publish' }, 'author');
  closed = await site.createPost({ title: 'Closed', status: 'publish', comment_status: 'closed' });
  draft = await site.createPost({ title: 'Not yet', status: 'draft' });
  secret = await site.createPost({ title: 'Behind a password', status: 'publish', password: 'open sesame' });
});
afterAll(async () => { await site?.close(); });

describe('creating', () => {
  it('refuses anonymous comments unless the site allows them (rest_allow_anonymous_comments)', async () => {
    expect(await anon({ post: post.id, content: 'Hello?' })).toBeWpError(401, 'rest_comment_login_required');
    await setOption(site.db.prisma, 'rest_allow_anonymous_comments', true);
  });

  it('takes an anonymous comment with a name and e-mail, held for moderation the first time', async () => {
    const res = await anon({ post: post.id, content: 'First!' });
    expect(res.status, res.text).toBe(201);
    const c = res.body;
    expect(res.headers.get('location')).toBe(`${API}/core/v2/comments/${c.id}`);
    expect(c).toMatchObject({ post: post.id, parent: 0, author: 0, status: 'hold', type: 'comment', link: `${post.link}#comment-${c.id}` });
    expect(c.content.rendered).toBe('<p>First!</p>\n');
    // The view context: no e-mail, address or raw text for the commenter.
    expect(c.author_email).toBeUndefined();
    expect(c.author_ip).toBeUndefined();
    expect(c.content.raw).toBeUndefined();
    expect(Object.keys(c.author_avatar_urls)).toEqual(['24', '48', '96']);
    expect(c._links.up).toEqual([{ embeddable: true, post_type: 'post', href: `${API}/core/v2/posts/${post.id}` }]);
    // The editor sees what was stored: the address the proxy forwarded and the user agent.
    const edit = (await get(`comments/${c.id}?context=edit`, 'editor')).body;
    expect(edit.author_ip).toMatch(/^203\.0\.113\./);
    expect(edit.author_user_agent).toBe('comment-tests/1.0');
    expect(edit.author_email).toMatch(/^reader\d+@example\.test$/);
  });

  it('requires an anonymous author\'s name and e-mail (require_name_email)', async () => {
    expect(await comment({ post: post.id, content: 'Who am I?' })).toBeWpError(400, 'rest_comment_author_data_required');
    expect(await comment({ post: post.id, content: 'No e-mail', author_name: 'Nameless' })).toBeWpError(400, 'rest_comment_author_data_required');
    expect(await comment({ post: post.id, content: 'Bad e-mail', author_name: 'X', author_email: 'not an address' })).toBeWpError(400, 'rest_invalid_param');
  });

  it('refuses a missing, unknown, draft, trashed or closed item, and empty text', async () => {
    expect(await anon({ content: 'Where?' })).toBeWpError(403, 'rest_comment_invalid_post_id');
    expect(await anon({ post: 999999, content: 'Where?' })).toBeWpError(403, 'rest_comment_invalid_post_id');
    expect(await anon({ post: draft.id, content: 'Early' })).toBeWpError(403, 'rest_comment_draft_post');
    expect(await anon({ post: closed.id, content: 'Let me in' })).toBeWpError(403, 'rest_comment_closed');
    expect(await anon({ post: post.id, content: '   ' })).toBeWpError(400, 'rest_comment_content_invalid');
    expect(await site.req('POST', '/core/v2/comments', { as: 'editor', json: { post: post.id, content: 'x', id: 5 } })).toBeWpError(400, 'rest_comment_exists');
    const gone = await site.createPost({ title: 'Soon trashed', status: 'publish' });
    await site.req('DELETE', `/core/v2/posts/${gone.id}`, { as: 'administrator' });
    expect(await anon({ post: gone.id, content: 'Hello?' })).toBeWpError(403, 'rest_comment_trash_post');
  });

  it('refuses comments on a protected item to readers who cannot edit it', async () => {
    expect(await anon({ post: secret.id, content: 'Let me read' })).toBeWpError(401, 'rest_cannot_read_post');
    expect((await comment({ post: secret.id, content: 'Editors may' }, 'editor')).status).toBe(201);
  });

  it('signs a signed-in caller\'s comment with their name; moderators get the edit view, approved', async () => {
    const res = await comment({ post: post.id, content: 'Editor here' }, 'editor');
    expect(res.status, res.text).toBe(201);
    expect(res.body).toMatchObject({ author: site.users.editor.id, status: 'approved' });
    expect(res.body.author_email).toBe(`${site.users.editor.login}@example.test`);
    expect(res.body._links.author).toEqual([{ embeddable: true, href: `${API}/core/v2/users/${site.users.editor.id}` }]);
  });

  it('approves the item\'s author on their own item and holds a subscriber\'s first comment', async () => {
    const own = await comment({ post: authorsPost.id, content: 'Thanks for reading' }, 'author');
    expect(own.status, own.text).toBe(201);
    expect(own.body.status).toBe('approved');
    expect(own.body.author_email).toBeUndefined();
    const sub = await comment({ post: post.id, content: 'A subscriber speaks' }, 'subscriber');
    expect(sub.status, sub.text).toBe(201);
    expect(sub.body.status).toBe('hold');
  });

  it('keeps the fields moderators set from everyone else', async () => {
    expect(await comment({ post: post.id, content: 'Approve me', status: 'approved' }, 'contributor')).toBeWpError(403, 'rest_comment_invalid_status');
    expect(await comment({ post: post.id, content: 'As someone else', author: site.users.editor.id }, 'contributor')).toBeWpError(403, 'rest_comment_invalid_author');
    expect(await anon({ post: post.id, content: 'From elsewhere', author_ip: '198.51.100.7' })).toBeWpError(401, 'rest_comment_invalid_author_ip');
    const set = await comment({ post: post.id, content: 'Set by a moderator', status: 'hold', author_ip: '198.51.100.9' }, 'administrator');
    expect(set.status, set.text).toBe(201);
    expect(set.body).toMatchObject({ status: 'hold', author_ip: '198.51.100.9' });
    expect(await comment({ post: post.id, content: 'Nobody', author: 999999 }, 'administrator')).toBeWpError(400, 'rest_comment_author_invalid');
  });

  it('refuses a duplicate (409) and a flood (400)', async () => {
    expect((await comment({ post: post.id, content: 'Said once' }, 'editor')).status).toBe(201);
    expect(await comment({ post: post.id, content: 'Said once' }, 'editor')).toBeWpError(409, 'comment_duplicate');
    // Anonymous, from one address, twice within 15 seconds.
    const ip = '198.51.100.20';
    expect((await anon({ post: post.id, content: 'Quick one' }, ip)).status).toBe(201);
    expect(await anon({ post: post.id, content: 'Quick two' }, ip)).toBeWpError(400, 'comment_flood');
  });

  it('filters HTML with WordPress\'s comment tags for callers without unfiltered_html', async () => {
    const res = await anon({ post: post.id, content: '<strong>Bold</strong> <script>alert(1)</script><a href="javascript:alert(2)" onclick="x()">link</a> <img src=x onerror=alert(3)>' });
    expect(res.status, res.text).toBe(201);
    const raw = (await get(`comments/${res.body.id}?context=edit`, 'editor')).body.content.raw as string;
    expect(raw).toContain('<strong>Bold</strong>');
    expect(raw).not.toMatch(/<script|onclick|onerror|javascript:|<img/i);
    expect(res.body.content.rendered).not.toMatch(/<script|onclick|onerror|javascript:/i);
    const trusted = await comment({ post: post.id, content: '<div class="note">Kept</div>' }, 'editor');
    expect(trusted.body.content.raw).toBe('<div class="note">Kept</div>');
  });
});

describe('reading and moderating', () => {
  let held: any, approved: any, onAuthors: any;
  beforeAll(async () => {
    held = (await anon({ post: post.id, content: 'Waiting for a moderator' })).body;
    approved = (await comment({ post: post.id, content: 'Out in the open', status: 'approved' }, 'administrator')).body;
    onAuthors = (await anon({ post: authorsPost.id, content: 'On the author\'s post' })).body;
  });

  it('shows readers approved comments only', async () => {
    expect((await get(`comments/${approved.id}`)).status).toBe(200);
    expect(await get(`comments/${held.id}`)).toBeWpError(401, 'rest_cannot_read');
    expect(await get(`comments/${held.id}`, 'subscriber')).toBeWpError(403, 'rest_cannot_read');
    expect((await get(`comments/${held.id}`, 'editor')).body.status).toBe('hold');
    const listed = ids(await get(`comments?post=${post.id}&per_page=100`));
    expect(listed).toContain(approved.id);
    expect(listed).not.toContain(held.id);
    expect(ids(await get(`comments?post=${post.id}&status=hold&per_page=100`, 'editor'))).toContain(held.id);
    expect(await get(`comments?status=hold`)).toBeWpError(401, 'rest_forbidden_param');
    expect(await get(`comments?author=1&author_email=a@example.test`, 'subscriber')).toBeWpError(403, 'rest_forbidden_param');
    expect((await get('comments?author=1&author_email=a@example.test', 'subscriber')).body.message).toBe('Query parameter not permitted: author, author_email');
    expect(await get('comments?context=edit', 'author')).toBeWpError(403, 'rest_forbidden_context');
    expect(await get(`comments/${approved.id}?context=edit`)).toBeWpError(401, 'rest_forbidden_context');
    expect(await get('comments/999999?context=edit')).toBeWpError(404, 'rest_comment_invalid_id');
  });

  it('hides the comments of a protected item without its password', async () => {
    expect(await get(`comments?post=${secret.id}`)).toBeWpError(401, 'rest_cannot_read_post');
    expect((await get(`comments?post=${secret.id}&password=open%20sesame`)).status).toBe(200);
  });

  it('lets moderators moderate everything, authors their own items\' comments, and nobody else', async () => {
    const set = (id: number, json: Record<string, unknown>, as?: As) => site.req('POST', `/core/v2/comments/${id}`, { as, json });
    expect(await set(held.id, { status: 'approved' }, 'contributor')).toBeWpError(403, 'rest_cannot_edit');
    expect(await set(held.id, { status: 'approved' }, 'author')).toBeWpError(403, 'rest_cannot_edit');
    expect(await set(held.id, { status: 'approved' })).toBeWpError(401, 'rest_cannot_edit');
    const byEditor = await set(held.id, { status: 'approve' }, 'editor');
    expect(byEditor.status, byEditor.text).toBe(200);
    expect(byEditor.body.status).toBe('approved');
    expect((await get(`comments/${held.id}`)).status).toBe(200);
    const byAuthor = await set(onAuthors.id, { status: 'spam' }, 'author');
    expect(byAuthor.status, byAuthor.text).toBe(200);
    expect(byAuthor.body.status).toBe('spam');
    expect((await set(onAuthors.id, { status: 'unspam' }, 'author')).body.status).toBe('hold');
    const edited = await set(onAuthors.id, { content: 'Edited by the author of the post' }, 'author');
    expect(edited.body.content.raw).toBe('Edited by the author of the post');
    expect(await set(999999, { status: 'hold' }, 'editor')).toBeWpError(404, 'rest_comment_invalid_id');
  });

  it('threads replies through parent', async () => {
    const reply = await comment({ post: post.id, parent: approved.id, content: 'A reply' }, 'administrator');
    expect(reply.status, reply.text).toBe(201);
    expect(reply.body.parent).toBe(approved.id);
    expect(reply.body._links['in-reply-to']).toEqual([{ embeddable: true, href: `${API}/core/v2/comments/${approved.id}` }]);
    const parent = (await get(`comments/${approved.id}`)).body;
    expect(parent._links.children).toEqual([{ embeddable: true, href: `${API}/core/v2/comments?parent=${approved.id}` }]);
    expect(ids(await get(`comments?parent=${approved.id}`))).toEqual([reply.body.id]);
    expect(ids(await get(`comments?post=${post.id}&parent_exclude=0&per_page=100`))).toEqual([reply.body.id]);
    const embedded = (await get(`comments/${reply.body.id}?_embed=in-reply-to,up`)).body._embedded;
    expect(embedded['in-reply-to'][0].id).toBe(approved.id);
    expect(embedded.up[0].id).toBe(post.id);
    const elsewhere = (await comment({ post: authorsPost.id, content: 'Elsewhere', status: 'approved' }, 'administrator')).body;
    expect(await comment({ post: post.id, parent: elsewhere.id, content: 'Crossed threads' }, 'administrator')).toBeWpError(400, 'rest_invalid_param');
  });
});

describe('the collection', () => {
  let listPost: any;
  const made: number[] = [];
  beforeAll(async () => {
    listPost = await site.createPost({ title: 'Many comments', status: 'publish' });
    for (let i = 0; i < 5; i++) {
      const res = await comment({ post: listPost.id, content: `Comment ${i} about ${i % 2 ? 'apples' : 'pears'}`, status: 'approved', date: `2026-01-0${i + 1}T10:00:00` }, 'administrator');
      expect(res.status, res.text).toBe(201);
      made.push(res.body.id);
    }
  });

  it('lists newest first and pages with X-WP-Total, X-WP-TotalPages and Link', async () => {
    const res = await get(`comments?post=${listPost.id}&per_page=2&page=2`);
    expect(ids(res)).toEqual([made[2], made[1]]);
    expect(res.headers.get('x-wp-total')).toBe('5');
    expect(res.headers.get('x-wp-totalpages')).toBe('3');
    expect(res.headers.get('link')).toContain('rel="prev"');
    expect(res.headers.get('link')).toContain('rel="next"');
    expect(ids(await get(`comments?post=${listPost.id}&order=asc`))).toEqual(made);
    expect(ids(await get(`comments?post=${listPost.id}&orderby=id&order=asc&offset=3`))).toEqual(made.slice(3));
    expect(await get('comments?per_page=101')).toBeWpError(400, 'rest_invalid_param');
    expect(await get('comments?orderby=title')).toBeWpError(400, 'rest_invalid_param');
  });

  it('filters by include, exclude, search, dates, author and type', async () => {
    expect(ids(await get(`comments?include=${made[3]},${made[0]}&orderby=include&order=asc`))).toEqual([made[3], made[0]]);
    expect(ids(await get(`comments?post=${listPost.id}&exclude=${made[4]},${made[3]}`))).toEqual([made[2], made[1], made[0]]);
    expect(ids(await get(`comments?post=${listPost.id}&search=APPLES`))).toEqual([made[3], made[1]]);
    expect(ids(await get(`comments?post=${listPost.id}&after=2026-01-02T12:00:00&before=2026-01-05T00:00:00`))).toEqual([made[3], made[2]]);
    expect(ids(await get(`comments?post=${listPost.id}&author=${site.users.administrator.id}`, 'editor'))).toHaveLength(5);
    expect(ids(await get(`comments?post=${listPost.id}&author_exclude=${site.users.administrator.id}`, 'editor'))).toEqual([]);
    expect(ids(await get(`comments?post=${listPost.id}&type=pingback`, 'editor'))).toEqual([]);
    expect(ids(await get(`comments?post=${listPost.id}&post=${post.id}&orderby=post&order=asc&per_page=1`))).toHaveLength(1);
  });

  it('costs the same number of SQL statements for 1 and 5 comments', async () => {
    const cost = async (perPage: number) => {
      // A write retires the response cache, so the request reaches the database.
      await site.createPost({ title: `cache buster ${++serial}`, status: 'draft' });
      const before = site.db.statements;
      const res = await get(`comments?post=${listPost.id}&per_page=${perPage}`, 'editor');
      expect(ids(res)).toHaveLength(perPage);
      return site.db.statements - before;
    };
    const one = await cost(1);
    expect(one).toBeGreaterThan(0);
    expect(await cost(5)).toBe(one);
  });
});

describe('trash and delete', () => {
  it('trashes, refuses a second trash, then deletes for good with force', async () => {
    const c = (await comment({ post: post.id, content: `To the bin ${++serial}`, status: 'approved' }, 'administrator')).body;
    const trashed = await site.req('DELETE', `/core/v2/comments/${c.id}`, { as: 'editor' });
    expect(trashed.status, trashed.text).toBe(200);
    expect(trashed.body.status).toBe('trash');
    expect(await site.req('DELETE', `/core/v2/comments/${c.id}`, { as: 'editor' })).toBeWpError(410, 'rest_already_trashed');
    const untrashed = await site.req('POST', `/core/v2/comments/${c.id}`, { as: 'editor', json: { status: 'untrash' } });
    expect(untrashed.body.status).toBe('approved');
    const gone = await site.req('DELETE', `/core/v2/comments/${c.id}?force=true`, { as: 'editor' });
    expect(gone.status, gone.text).toBe(200);
    expect(gone.body.deleted).toBe(true);
    expect(gone.body.previous).toMatchObject({ id: c.id, status: 'approved' });
    expect(await get(`comments/${c.id}`, 'editor')).toBeWpError(404, 'rest_comment_invalid_id');
    expect(await site.req('DELETE', `/core/v2/comments/${c.id}?force=true`, { as: 'editor' })).toBeWpError(404, 'rest_comment_invalid_id');
  });

  it('refuses deleting to those who may not edit the comment, and trash when the site keeps none', async () => {
    const c = (await comment({ post: post.id, content: `Keep me ${++serial}`, status: 'approved' }, 'administrator')).body;
    expect(await site.req('DELETE', `/core/v2/comments/${c.id}`, { as: 'author' })).toBeWpError(403, 'rest_cannot_delete');
    expect(await site.req('DELETE', `/core/v2/comments/${c.id}`)).toBeWpError(401, 'rest_cannot_delete');
    await setOption(site.db.prisma, 'empty_trash_days', 0);
    try {
      expect(await site.req('DELETE', `/core/v2/comments/${c.id}`, { as: 'editor' })).toBeWpError(501, 'rest_trash_not_supported');
    } finally { await setOption(site.db.prisma, 'empty_trash_days', 30); }
  });

  it('takes an item\'s comments to the trash with it and back, and deletes them with it', async () => {
    const item = await site.createPost({ title: 'Trashed with its comments', status: 'publish' });
    const a = (await comment({ post: item.id, content: 'Approved one', status: 'approved' }, 'administrator')).body;
    const h = (await comment({ post: item.id, content: 'Held one', status: 'hold' }, 'administrator')).body;
    await site.req('DELETE', `/core/v2/posts/${item.id}`, { as: 'administrator' });
    expect((await get(`comments/${a.id}`, 'editor')).body.status).toBe('post-trashed');
    expect(ids(await get(`comments?post=${item.id}&status=post-trashed`, 'editor')).sort()).toEqual([a.id, h.id].sort());
    expect(await get(`comments/${a.id}`)).toBeWpError(401, 'rest_cannot_read');
    await site.req('POST', `/core/v2/posts/${item.id}`, { as: 'administrator', json: { status: 'publish' } });
    expect((await get(`comments/${a.id}`)).body.status).toBe('approved');
    expect((await get(`comments/${h.id}`, 'editor')).body.status).toBe('hold');
    await site.req('DELETE', `/core/v2/posts/${item.id}?force=true`, { as: 'administrator' });
    expect(await get(`comments/${a.id}`, 'editor')).toBeWpError(404, 'rest_comment_invalid_id');
  });

  it('records each write in the event log, inside its transaction', async () => {
    const c = (await comment({ post: post.id, content: `Logged ${++serial}` }, 'editor')).body;
    await site.req('POST', `/core/v2/comments/${c.id}`, { as: 'editor', json: { status: 'hold' } });
    await site.req('DELETE', `/core/v2/comments/${c.id}`, { as: 'editor' });
    await site.req('DELETE', `/core/v2/comments/${c.id}?force=true`, { as: 'editor' });
    const events = await site.db.prisma.contentEvent.findMany({ where: { kind: 'comment', contentId: c.id }, orderBy: { id: 'asc' } });
    expect(events.map((e) => [e.action, e.status, e.previousStatus])).toEqual([
      ['created', 'approved', ''], ['updated', 'hold', 'approved'], ['trashed', 'trash', 'hold'], ['deleted', 'trash', 'trash'],
    ]);
    expect(events[0]).toMatchObject({ type: 'comment', authorId: site.users.editor.id, parentId: post.id });
    expect(JSON.parse(events[0].data)).toEqual({ post: post.id, parent: 0, status: 'approved' });
  });
});

describe('replies of an item', () => {
  it('links an item\'s comments as `replies` and embeds the approved ones', async () => {
    const item = await site.createPost({ title: 'With replies', status: 'publish' });
    const a = (await comment({ post: item.id, content: 'Embedded', status: 'approved' }, 'administrator')).body;
    await comment({ post: item.id, content: 'Not embedded', status: 'hold' }, 'administrator');
    const res = await get(`posts/${item.id}?_embed=replies`);
    expect(res.body._links.replies).toEqual([{ embeddable: true, href: `${API}/core/v2/comments?post=${item.id}` }]);
    expect(res.body._embedded.replies).toHaveLength(1);
    expect(res.body._embedded.replies[0].map((c: any) => c.id)).toEqual([a.id]);
    // The embed context: no date_gmt, no status, no post.
    expect(res.body._embedded.replies[0][0].status).toBeUndefined();
    // An item without approved comments embeds no `replies` (WordPress leaves out empty embeds).
    const quiet = await site.createPost({ title: 'No replies yet', status: 'publish' });
    const bare = await get(`posts/${quiet.id}?_embed`);
    expect(bare.body._links.replies).toHaveLength(1);
    expect(bare.body._embedded?.replies).toBeUndefined();
  });

  it('embeds the replies of a page of items in a constant number of SQL statements', async () => {
    const cat = (await site.req('POST', '/core/v2/categories', { as: 'editor', json: { name: 'Replied' } })).body.id;
    for (let i = 0; i < 5; i++) {
      const item = await site.createPost({ title: `Replied ${i}`, status: 'publish', categories: [cat] });
      await comment({ post: item.id, content: `Reply to ${i}`, status: 'approved' }, 'administrator');
    }
    const cost = async (perPage: number) => {
      await site.createPost({ title: `cache buster ${++serial}`, status: 'draft' });
      const before = site.db.statements;
      const res = await get(`posts?categories=${cat}&per_page=${perPage}&_embed=replies`);
      expect(res.body.map((p: any) => p._embedded.replies[0].length)).toEqual(Array(perPage).fill(1));
      return site.db.statements - before;
    };
    const one = await cost(1);
    expect(await cost(5)).toBe(one);
  });
});
