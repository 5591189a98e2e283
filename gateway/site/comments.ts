// The comments section of an item's page: its approved comments in threads, and WordPress's
// classic comment form when the item takes comments. Names, addresses and dates are escaped;
// the text was filtered when it was written (src/comments/service.ts) and is displayed as
// WordPress's comment_text displays it.
import { escHtml } from '../../src/content/escape.js';
import { renderCommentText } from '../../src/comments/read.js';
import type { ThreadNode } from '../../src/comments/form.js';
import { displayDate } from './html.js';

const webAddress = (url: string) => /^https?:\/\//i.test(url);

function commentHtml(node: ThreadNode, depth: number): string {
  const c = node.comment;
  const name = escHtml(c.authorName || 'Anonymous');
  const who = c.authorUrl && webAddress(c.authorUrl) ? `<a href="${escHtml(c.authorUrl)}" rel="external nofollow ugc" class="url">${name}</a>` : name;
  const when = `<time datetime="${c.dateGmt.toISOString().replace(/\.\d{3}Z$/, 'Z')}">${displayDate(c.date)}</time>`;
  const replies = node.replies.length ? `\n<ol class="children">\n${node.replies.map((r) => commentHtml(r, depth + 1)).join('\n')}\n</ol>` : '';
  return `<li id="comment-${c.id}" class="comment depth-${depth}">
<article class="comment-body">
<footer class="comment-meta"><b class="fn">${who}</b> <span class="says">says:</span> ${when}</footer>
<div class="comment-content">${renderCommentText(c.content)}</div>
</article>${replies}
</li>`;
}

/** The section under an item: nothing when it has no comments and takes none. */
export function commentsSection(o: { postId: number; open: boolean; threads: ThreadNode[]; formAction: string }): string {
  if (!o.threads.length && !o.open) return '';
  const count = (nodes: ThreadNode[]): number => nodes.reduce((n, t) => n + 1 + count(t.replies), 0);
  const total = count(o.threads);
  const list = total ? `<h2 class="comments-title">${total === 1 ? 'One response' : `${total} responses`}</h2>
<ol class="comment-list">
${o.threads.map((t) => commentHtml(t, 1)).join('\n')}
</ol>` : '';
  const form = o.open ? `<div id="respond" class="comment-respond">
<h2 class="comment-reply-title">Leave a Reply</h2>
<form action="${escHtml(o.formAction)}" method="post" id="commentform" class="comment-form">
<p class="comment-form-comment"><label for="comment">Comment</label> <textarea id="comment" name="comment" cols="45" rows="8" maxlength="65525" required></textarea></p>
<p class="comment-form-author"><label for="author">Name</label> <input id="author" name="author" type="text" maxlength="245" autocomplete="name" required></p>
<p class="comment-form-email"><label for="email">Email</label> <input id="email" name="email" type="email" maxlength="100" autocomplete="email" required></p>
<p class="comment-form-url"><label for="url">Website</label> <input id="url" name="url" type="url" maxlength="200" autocomplete="url"></p>
<p class="form-submit"><input name="submit" type="submit" id="submit" class="submit" value="Post Comment">
<input type="hidden" name="comment_post_ID" value="${o.postId}" id="comment_post_ID">
<input type="hidden" name="comment_parent" id="comment_parent" value="0"></p>
</form>
</div>` : '<p class="no-comments">Comments are closed.</p>';
  return `<section id="comments" class="comments-area">
${list}
${form}
</section>`;
}
