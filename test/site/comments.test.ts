// Comments on the site's pages: an item's approved comments in threads (escaped), the classic
// comment form and its post to /wp-comments-post.php, which makes the comment through the same
// service as the REST route and sends the reader back to it, or answers a failure page.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestSite, SITE, type TestSite } from '../helpers/app.js';

let site: TestSite;
let post: any, closed: any;
let ip = 10;

const page = (url: string) => site.req('GET', url);
const submit = (fields: Record<string, string | number>) => site.req('POST', `${SITE}/wp-comments-post.php`, {
  body: new URLSearchParams(Object.entries(fields).map(([k, v]) => [k, String(v)])).toString(),
  headers: { 'content-type': 'application/x-www-form-urlencoded', 'x-forwarded-for': `198.51.100.${++ip}`, 'user-agent': 'form-tests' },
});

beforeAll(async () => {
  site = await createTestSite({ trustProxy: { hops: 1 } });
  post = await site.createPost({ title: 'Discuss', status: 'publish', content: 'Say something.' });
  closed = await site.createPost({ title: 'Quiet', status: 'publish', comment_status: 'closed' });
});
afterAll(async () => { await site?.close(); });

describe('comments on the site', () => {
  it('shows the form under an item that takes comments, and nothing under a closed one without comments', async () => {
    const open = await page(post.link);
    expect(open.status).toBe(200);
    expect(open.text).toContain(`<form action="${SITE}/wp-comments-post.php" method="post" id="commentform"`);
    expect(open.text).toContain(`name="comment_post_ID" value="${post.id}"`);
    const quiet = await page(closed.link);
    expect(quiet.text).not.toContain('id="comments"');
  });

  it('takes a comment from the form and sends the reader back to it; held ones stay off the page', async () => {
    const res = await submit({ comment_post_ID: post.id, comment_parent: 0, author: 'Ann <b>Reader</b>', email: 'ann@example.test', url: 'https://ann.example', comment: 'Nice <script>alert(1)</script>post' });
    expect(res.status, res.text.slice(0, 400)).toBe(302);
    const id = Number(/#comment-(\d+)$/.exec(res.headers.get('location') ?? '')?.[1]);
    expect(res.headers.get('location')).toBe(`${post.link}#comment-${id}`);
    // A first comment is held for moderation: not on the page yet.
    expect((await page(post.link)).text).not.toContain(`id="comment-${id}"`);
    const approved = await site.req('POST', `/core/v2/comments/${id}`, { as: 'editor', json: { status: 'approved' } });
    expect(approved.status).toBe(200);
    const shown = (await page(post.link)).text;
    expect(shown).toContain(`<li id="comment-${id}" class="comment depth-1">`);
    expect(shown).toContain('<a href="https://ann.example" rel="external nofollow ugc" class="url">Ann Reader</a>');
    expect(shown).toContain('Nice alert(1)post');
    expect(shown).not.toContain('<script>alert(1)</script>');
    expect(shown).toContain('One response');
    // A reply to it, threaded under it once approved.
    const reply = await submit({ comment_post_ID: post.id, comment_parent: id, author: 'Bob', email: 'bob@example.test', comment: 'And a follow-up' });
    expect(reply.status).toBe(302);
    const replyId = Number(/#comment-(\d+)$/.exec(reply.headers.get('location') ?? '')?.[1]);
    expect((await site.req('POST', `/core/v2/comments/${replyId}`, { as: 'editor', json: { status: 'approved' } })).status).toBe(200);
    const threaded = (await page(post.link)).text;
    expect(threaded).toMatch(new RegExp(`<li id="comment-${id}"[\\s\\S]*<ol class="children">\\s*<li id="comment-${replyId}" class="comment depth-2">`));
  });

  it('answers refusals with a failure page and a 4xx status', async () => {
    const refused = async (fields: Record<string, string | number>, status: number, message: string) => {
      const res = await submit(fields);
      expect(res.status, res.text.slice(0, 400)).toBe(status);
      expect(res.headers.get('content-type')).toBe('text/html; charset=UTF-8');
      expect(res.text).toContain('<h1>Comment Submission Failure</h1>');
      expect(res.text).toContain(message);
    };
    await refused({ comment_post_ID: closed.id, author: 'B', email: 'b@example.test', comment: 'Hello' }, 403, 'Sorry, comments are closed for this item.');
    await refused({ comment_post_ID: 999999, author: 'B', email: 'b@example.test', comment: 'Hello' }, 404, 'not found');
    await refused({ comment_post_ID: post.id, author: '', email: '', comment: 'Hello' }, 400, 'Please fill the required fields.');
    await refused({ comment_post_ID: post.id, author: 'B', email: 'nope', comment: 'Hello' }, 400, 'Please enter a valid email address.');
    await refused({ comment_post_ID: post.id, author: 'B', email: 'b@example.test', comment: '  ' }, 400, 'Please type your comment text.');
    await refused({ comment_post_ID: post.id, comment_parent: 999999, author: 'B', email: 'b@example.test', comment: 'Hello' }, 403, 'Sorry, replies to unapproved comments are not allowed.');
    expect((await submit({ comment_post_ID: post.id, author: 'Dee', email: 'dee@example.test', comment: 'Said twice' })).status).toBe(302);
    await refused({ comment_post_ID: post.id, author: 'Dee', email: 'dee@example.test', comment: 'Said twice' }, 409, 'Duplicate comment detected');
    // The same address again within 15 seconds, another text: WordPress's flood refusal (429 on the form).
    await refused({ comment_post_ID: post.id, author: 'Dee', email: 'dee@example.test', comment: 'Said thrice' }, 429, 'You are posting comments too quickly. Slow down.');
  });
});
