// A WordPress export (WXR 1.2, as WordPress's exporter writes it) of a made-up site of any size:
// authors, nested categories, tags, posts with terms, custom fields, threaded comments and links
// to each other, a few pages, and optional attachments at given URLs. Used by the import's
// benchmark (bench/import-wordpress.ts) and its tests.

export interface GeneratedWxrOptions {
  posts: number;
  /** Comments per post (every third one a reply), default 2. */
  comments?: number;
  categories?: number;
  tags?: number;
  pages?: number;
  /** The exporting site's address, default http://old.example. */
  base?: string;
  /** Attachments (unattached) whose files are at these URLs. */
  attachments?: string[];
  /** Authors' logins; default three of the generator's own. */
  authors?: string[];
}

const cdata = (s: string) => `<![CDATA[${s.replace(/]]>/g, ']]]]><![CDATA[>')}]]>`;
const pad = (n: number) => String(n).padStart(2, '0');

export function generateWxr(o: GeneratedWxrOptions): string {
  const base = (o.base ?? 'http://old.example').replace(/\/+$/, '');
  const authors = o.authors ?? ['gen-ana', 'gen-ben', 'gen-chloe'];
  const categories = Math.max(1, o.categories ?? 12);
  const tags = o.tags ?? 30;
  const pages = o.pages ?? 5;
  const commentsPer = o.comments ?? 2;
  const out: string[] = [];
  out.push(`<?xml version="1.0" encoding="UTF-8" ?>
<rss version="2.0" xmlns:excerpt="http://wordpress.org/export/1.2/excerpt/" xmlns:content="http://purl.org/rss/1.0/modules/content/" xmlns:wfw="http://wellformedweb.org/CommentAPI/" xmlns:dc="http://purl.org/dc/elements/1.1/" xmlns:wp="http://wordpress.org/export/1.2/">
<channel>
<title>Generated site</title>
<link>${base}</link>
<wp:wxr_version>1.2</wp:wxr_version>
<wp:base_site_url>${base}</wp:base_site_url>
<wp:base_blog_url>${base}</wp:base_blog_url>`);
  authors.forEach((login, i) => {
    out.push(`<wp:author><wp:author_id>${i + 1}</wp:author_id><wp:author_login>${cdata(login)}</wp:author_login><wp:author_email>${cdata(`${login}@generated.example`)}</wp:author_email><wp:author_display_name>${cdata(`Author ${i + 1}`)}</wp:author_display_name><wp:author_first_name>${cdata(`First${i + 1}`)}</wp:author_first_name><wp:author_last_name>${cdata(`Last${i + 1}`)}</wp:author_last_name></wp:author>`);
  });
  const cat = (i: number) => `gen-topic-${i}`;
  for (let i = 0; i < categories; i++) {
    // Every fourth category is a child of the one before it.
    const parent = i % 4 === 3 ? cat(i - 1) : '';
    out.push(`<wp:category><wp:term_id>${1000 + i}</wp:term_id><wp:category_nicename>${cdata(cat(i))}</wp:category_nicename><wp:category_parent>${cdata(parent)}</wp:category_parent><wp:cat_name>${cdata(`Topic ${i}`)}</wp:cat_name></wp:category>`);
  }
  for (let i = 0; i < tags; i++) {
    out.push(`<wp:tag><wp:term_id>${2000 + i}</wp:term_id><wp:tag_slug>${cdata(`gen-tag-${i}`)}</wp:tag_slug><wp:tag_name>${cdata(`Tag ${i}`)}</wp:tag_name></wp:tag>`);
  }
  let id = 10_000;
  let commentId = 50_000;
  const item = (f: { id: number; title: string; slug: string; type: string; status: string; parent?: number; content: string; author: string; terms?: string; meta?: [string, string][]; comments?: string; date: string; url?: string; order?: number }) =>
    `<item>
<title>${cdata(f.title)}</title>
<link>${base}/${f.slug}/</link>
<dc:creator>${cdata(f.author)}</dc:creator>
<guid isPermaLink="false">${base}/?p=${f.id}</guid>
<content:encoded>${cdata(f.content)}</content:encoded>
<excerpt:encoded>${cdata('')}</excerpt:encoded>
<wp:post_id>${f.id}</wp:post_id>
<wp:post_date>${cdata(f.date)}</wp:post_date>
<wp:post_date_gmt>${cdata(f.date)}</wp:post_date_gmt>
<wp:comment_status>${cdata('open')}</wp:comment_status>
<wp:ping_status>${cdata('closed')}</wp:ping_status>
<wp:post_name>${cdata(f.slug)}</wp:post_name>
<wp:status>${cdata(f.status)}</wp:status>
<wp:post_parent>${f.parent ?? 0}</wp:post_parent>
<wp:menu_order>${f.order ?? 0}</wp:menu_order>
<wp:post_type>${cdata(f.type)}</wp:post_type>
<wp:post_password>${cdata('')}</wp:post_password>
<wp:is_sticky>0</wp:is_sticky>
${f.url ? `<wp:attachment_url>${cdata(f.url)}</wp:attachment_url>` : ''}${f.terms ?? ''}
${(f.meta ?? []).map(([k, v]) => `<wp:postmeta><wp:meta_key>${cdata(k)}</wp:meta_key><wp:meta_value>${cdata(v)}</wp:meta_value></wp:postmeta>`).join('\n')}
${f.comments ?? ''}
</item>`;
  const dateOf = (n: number) => `2024-${pad(1 + (n % 12))}-${pad(1 + (n % 28))} ${pad(n % 24)}:${pad(n % 60)}:00`;
  for (const url of o.attachments ?? []) {
    const name = url.slice(url.lastIndexOf('/') + 1);
    out.push(item({ id: ++id, title: name, slug: name.replace(/\.[^.]+$/, ''), type: 'attachment', status: 'inherit', content: '', author: authors[0], date: dateOf(id), url }));
  }
  let parentPage = 0;
  for (let p = 0; p < pages; p++) {
    const pageId = ++id;
    out.push(item({ id: pageId, title: `Page ${p}`, slug: `gen-page-${p}`, type: 'page', status: 'publish', parent: p % 2 ? parentPage : 0, content: `<p>Page ${p}.</p>`, author: authors[p % authors.length], date: dateOf(p), order: p }));
    if (p % 2 === 0) parentPage = pageId;
  }
  for (let n = 0; n < o.posts; n++) {
    const postId = ++id;
    const terms = [
      `<category domain="category" nicename="${cat(n % categories)}">${cdata(`Topic ${n % categories}`)}</category>`,
      ...(tags ? [`<category domain="post_tag" nicename="gen-tag-${n % tags}">${cdata(`Tag ${n % tags}`)}</category>`, `<category domain="post_tag" nicename="gen-tag-${(n * 7) % tags}">${cdata(`Tag ${(n * 7) % tags}`)}</category>`] : []),
    ].join('\n');
    const linked = n > 0 ? `<p>See also <a href="${base}/gen-post-${n - 1}/">the post before</a>.</p>` : '';
    const comments: string[] = [];
    for (let c = 0; c < commentsPer; c++) {
      const cid = ++commentId;
      const parent = c % 3 === 2 ? cid - 1 : 0;
      comments.push(`<wp:comment><wp:comment_id>${cid}</wp:comment_id><wp:comment_author>${cdata(`Reader ${c}`)}</wp:comment_author><wp:comment_author_email>${cdata(`reader${c}@readers.example`)}</wp:comment_author_email><wp:comment_author_url></wp:comment_author_url><wp:comment_author_IP>${cdata('192.0.2.1')}</wp:comment_author_IP><wp:comment_date>${cdata(dateOf(n + c))}</wp:comment_date><wp:comment_date_gmt>${cdata(dateOf(n + c))}</wp:comment_date_gmt><wp:comment_content>${cdata(`Comment ${c} on post ${n}.`)}</wp:comment_content><wp:comment_approved>${cdata(c % 5 === 4 ? '0' : '1')}</wp:comment_approved><wp:comment_type>${cdata('comment')}</wp:comment_type><wp:comment_parent>${parent}</wp:comment_parent><wp:comment_user_id>0</wp:comment_user_id></wp:comment>`);
    }
    out.push(item({
      id: postId, title: `Post ${n}`, slug: `gen-post-${n}`, type: 'post', status: n % 10 === 9 ? 'draft' : 'publish',
      content: `<!-- wp:paragraph -->\n<p>Body of post ${n}.</p>\n<!-- /wp:paragraph -->${linked}`, author: authors[n % authors.length], terms,
      meta: [['rating', String(n % 5)], ['_edit_lock', '1700000000:1']], comments: comments.join('\n'), date: dateOf(n),
    }));
  }
  out.push('</channel>\n</rss>\n');
  return out.join('\n');
}
