// The public pages' markup: one small document per kind of page, no theme, no client-side code
// except the embed card's sizing script. Everything that is not rendered HTML goes through escHtml.
import type { SiteSettings } from '../../src/site/options.js';
import { escHtml } from '../../src/content/escape.js';
import { renderContent, renderExcerpt, renderTitle, stripAllTags } from '../../src/content/render.js';
import { cachedRender } from '../../src/content/render-cache.js';
import type { FrontRow } from '../../src/site/resolve.js';

/** What every page's <head> carries: the API root, and for one item its REST record and oEmbed links. */
export interface Head {
  title: string;
  /** API root with its trailing slash. */
  apiRoot: string;
  /** The item's REST URL (rel="alternate" type="application/json"). */
  restItem?: string;
  /** The item's permalink: canonical link and the oEmbed discovery links. */
  permalink?: string;
  robots?: string;
  /** A list's neighbouring pages (rel="prev": newer posts, rel="next": older ones). */
  prev?: string;
  next?: string;
  /** Deployment B: the SEO head (title, meta, canonical, JSON-LD) printed instead of the plain title, robots and canonical. */
  seo?: string;
}

/** An image ready for an <img>: the file, its size, its alternative text, and the full file to link to. */
export type { Picture } from '../../src/site/media-urls.js';
import type { Picture } from '../../src/site/media-urls.js';

const MONTHS = ['January', 'February', 'March', 'April', 'May', 'June', 'July', 'August', 'September', 'October', 'November', 'December'];

/** The site-clock date (its UTC fields are the wall clock) as "May 4, 2026". */
export function displayDate(local: Date): string {
  return `${MONTHS[local.getUTCMonth()]} ${local.getUTCDate()}, ${local.getUTCFullYear()}`;
}

export const oembedEndpoint = (apiRoot: string, permalink: string, xml = false) =>
  `${apiRoot}oembed/1.0/embed?url=${encodeURIComponent(permalink)}${xml ? '&format=xml' : ''}`;

/** The title as HTML (the REST `title.rendered`); a protected item says so, as WordPress does. */
export function titleHtml(row: FrontRow, isProtected: boolean): string {
  const title = renderTitle(row.title);
  return isProtected ? `Protected: ${title}` : title || 'Untitled';
}

/** The title as plain text for <title> and attributes. */
export const titleText = (html: string) => escHtml(stripAllTags(html));

const excerptHtml = (row: FrontRow) => cachedRender(`excerpt:55:${row.excerpt}`, row.content, () => renderExcerpt(row.excerpt, row.content));
const contentHtml = (row: FrontRow) => cachedRender('content', row.content, () => renderContent(row.content));

const LOCKED = '<p class="protected-notice">This content is protected by a password.</p>';

const STYLE = `body{margin:0;font:17px/1.6 system-ui,-apple-system,"Segoe UI",Roboto,sans-serif;color:#1e1e1e;background:#fff}
.site-header,main,.site-footer{max-width:42rem;margin:0 auto;padding:1rem 1.25rem}
.site-header{border-bottom:1px solid #ddd}.site-title{font-size:1.4rem;font-weight:700;margin:0}.site-title a{color:inherit;text-decoration:none}
.site-description{margin:.25rem 0 0;color:#555}.entry-meta{color:#555;font-size:.9rem}
article+article{border-top:1px solid #eee;margin-top:1.5rem}img{max-width:100%;height:auto}a{color:#0a58ca}`;

function head(h: Head): string {
  const lines = [
    '<meta charset="UTF-8">',
    '<meta name="viewport" content="width=device-width, initial-scale=1">',
    ...(h.seo ? [h.seo] : [`<title>${h.title}</title>`, ...(h.robots ? [`<meta name="robots" content="${escHtml(h.robots)}">`] : [])]),
    `<link rel="https://api.w.org/" href="${escHtml(h.apiRoot)}">`,
    ...(h.restItem ? [`<link rel="alternate" title="JSON" type="application/json" href="${escHtml(h.restItem)}">`] : []),
    ...(h.permalink ? [
      ...(h.seo ? [] : [`<link rel="canonical" href="${escHtml(h.permalink)}">`]),
      `<link rel="alternate" title="oEmbed (JSON)" type="application/json+oembed" href="${escHtml(oembedEndpoint(h.apiRoot, h.permalink))}">`,
      `<link rel="alternate" title="oEmbed (XML)" type="text/xml+oembed" href="${escHtml(oembedEndpoint(h.apiRoot, h.permalink, true))}">`,
    ] : []),
    ...(h.prev ? [`<link rel="prev" href="${escHtml(h.prev)}">`] : []),
    ...(h.next ? [`<link rel="next" href="${escHtml(h.next)}">`] : []),
  ];
  return lines.join('\n');
}

function document(h: Head, bodyClass: string, body: string, style = STYLE): string {
  return `<!doctype html>
<html lang="en-US">
<head>
${head(h)}
<style>${style}</style>
</head>
<body class="${bodyClass}">
${body}
</body>
</html>
`;
}

function chrome(site: SiteSettings, main: string): string {
  const description = site.description ? `\n<p class="site-description">${escHtml(site.description)}</p>` : '';
  return `<header class="site-header">
<p class="site-title"><a href="${escHtml(site.home)}/" rel="home">${escHtml(site.name)}</a></p>${description}
</header>
<main>
${main}
</main>
<footer class="site-footer"><a href="${escHtml(site.home)}/">${escHtml(site.name)}</a></footer>`;
}

const siteTitle = (site: SiteSettings) => escHtml(site.name);
const pageTitle = (title: string, site: SiteSettings) => `${title} &#8211; ${siteTitle(site)}`;

function timeTag(row: FrontRow): string {
  return `<time datetime="${row.dateGmt.toISOString().replace(/\.\d{3}Z$/, 'Z')}">${displayDate(row.date)}</time>`;
}

/** A post as a list shows it. */
export interface ListEntry { row: FrontRow; permalink: string; isProtected: boolean }

/** What a list page is about: the home page's posts, a term's, or an author's. Names are plain text. */
export type ListSubject =
  | { kind: 'home' }
  | { kind: 'term'; taxonomy: string; singularLabel: string; id: number; slug: string; name: string }
  | { kind: 'author'; id: number; slug: string; name: string };

/** The archive title prefix WordPress's get_the_archive_title() gives each kind. */
function archivePrefix(subject: Exclude<ListSubject, { kind: 'home' }>): string {
  if (subject.kind === 'author') return 'Author:';
  if (subject.taxonomy === 'category') return 'Category:';
  if (subject.taxonomy === 'post_tag') return 'Tag:';
  return `${subject.singularLabel}:`;
}

/** Body classes as WordPress's body_class() gives these pages (`archive category category-news category-3 paged paged-2 category-paged-2`). */
function listClasses(subject: ListSubject, page: number): string {
  const classes = subject.kind === 'home' ? ['home', 'blog'] : ['archive'];
  let kind = '';
  if (subject.kind === 'author') kind = 'author';
  else if (subject.kind === 'term') kind = subject.taxonomy === 'category' ? 'category' : subject.taxonomy === 'post_tag' ? 'tag' : '';
  if (subject.kind === 'term' && !kind) classes.push(`tax-${subject.taxonomy}`, `term-${subject.slug}`, `term-${subject.id}`);
  else if (subject.kind !== 'home') classes.push(kind, `${kind}-${subject.slug}`, `${kind}-${subject.id}`);
  if (page > 1) classes.push('paged', `paged-${page}`, ...(kind ? [`${kind}-paged-${page}`] : []));
  return escHtml(classes.join(' '));
}

/**
 * A page of a list of posts: the home page, a term's archive or an author's page. Each post shows
 * its title, date and excerpt (or the protected notice); newer and older pages are linked below
 * the list and in <head>, as rel="prev" and rel="next".
 */
export function listPage(site: SiteSettings, h: Omit<Head, 'title'>, subject: ListSubject, page: number, posts: ListEntry[]): string {
  const items = posts.map(({ row, permalink, isProtected }) => `<article class="post-${row.id} type-${escHtml(row.type)}">
<h2 class="entry-title"><a href="${escHtml(permalink)}" rel="bookmark">${titleHtml(row, isProtected)}</a></h2>
<p class="entry-meta">${timeTag(row)}</p>
<div class="entry-summary">${isProtected ? LOCKED : excerptHtml(row)}</div>
</article>`);
  const nav = h.prev || h.next
    ? [`<nav class="navigation posts-navigation" aria-label="Posts">`,
      ...(h.next ? [`<p class="nav-previous"><a href="${escHtml(h.next)}">Older posts</a></p>`] : []),
      ...(h.prev ? [`<p class="nav-next"><a href="${escHtml(h.prev)}">Newer posts</a></p>`] : []),
      '</nav>'].join('\n')
    : '';
  // The document title as wp_get_document_title(): what the page is, its page number, then the
  // site's description on the home page or the site's name elsewhere.
  const pageNumber = page > 1 ? [`Page ${page}`] : [];
  let title: string;
  let header = '';
  if (subject.kind === 'home') {
    title = [siteTitle(site), ...pageNumber, ...(site.description ? [escHtml(site.description)] : [])].join(' &#8211; ');
  } else {
    title = [escHtml(subject.name), ...pageNumber, siteTitle(site)].join(' &#8211; ');
    header = `<header class="page-header">\n<h1 class="page-title">${escHtml(archivePrefix(subject))} <span>${escHtml(subject.name)}</span></h1>\n</header>\n`;
  }
  const empty = subject.kind === 'home' ? '<p>Nothing has been published yet.</p>' : '<p>Nothing has been published here yet.</p>';
  const main = `${header}${items.length ? items.join('\n') : empty}${nav ? `\n${nav}` : ''}`;
  return document({ ...h, title }, listClasses(subject, page), chrome(site, main));
}

/** A post, a page or an attachment on its own. */
export function singlePage(site: SiteSettings, h: Omit<Head, 'title'>, row: FrontRow, o: { isProtected: boolean; picture?: Picture | null; fileUrl?: string; comments?: string }): string {
  const title = titleHtml(row, o.isProtected);
  let body: string;
  if (o.isProtected) body = LOCKED;
  else if (row.type === 'attachment') {
    const file = o.picture
      ? `<a href="${escHtml(o.picture.full)}">${img(o.picture)}</a>`
      : `<a href="${escHtml(o.fileUrl ?? '')}">${titleText(title) || 'Download the file'}</a>`;
    const caption = row.excerpt.trim() ? `\n<div class="wp-caption-text">${excerptHtml(row)}</div>` : '';
    body = `<p class="attachment">${file}</p>${caption}\n${row.content ? contentHtml(row) : ''}`;
  } else {
    const featured = o.picture ? `<p class="post-thumbnail">${img(o.picture)}</p>\n` : '';
    body = `${featured}${contentHtml(row)}`;
  }
  const meta = row.type === 'post' ? `\n<p class="entry-meta">${timeTag(row)} &middot; ${escHtml(row.author.displayName)}</p>` : '';
  const main = `<article class="post-${row.id} type-${row.type}">
<h1 class="entry-title">${title}</h1>${meta}
<div class="entry-content">
${body}
</div>
</article>${o.comments ? `\n${o.comments}` : ''}`;
  return document({ ...h, title: pageTitle(titleText(title), site) }, `single single-${row.type} postid-${row.id}`, chrome(site, main));
}

function img(p: Picture): string {
  const size = p.width && p.height ? ` width="${p.width}" height="${p.height}"` : '';
  return `<img src="${escHtml(p.src)}"${size} alt="${escHtml(p.alt)}" decoding="async">`;
}

const EMBED_STYLE = `body{margin:0;font:15px/1.5 system-ui,-apple-system,"Segoe UI",Roboto,sans-serif;color:#1e1e1e;background:transparent}
.embed-card{box-sizing:border-box;max-width:600px;padding:16px 20px;border:1px solid #ddd;border-radius:4px;background:#fff;overflow:hidden}
.embed-title{margin:0 0 8px;font-size:1.2rem;font-weight:700}.embed-title a{color:inherit;text-decoration:none}
.embed-image img{max-width:100%;height:auto}.embed-excerpt p{margin:0 0 8px}.embed-footer{margin-top:8px;color:#555;font-size:.85rem}
.embed-footer a{color:inherit}`;

// Runs inside the embedding page's iframe: reports the card's height (and clicked links, which a
// sandboxed frame may not follow itself) to the host page, tagged with the secret from the URL's
// fragment so the host knows which of its frames spoke.
const EMBED_SCRIPT = `(function(w,d){
var m=/secret=([A-Za-z0-9]{10})/.exec(w.location.hash),s=m&&m[1];
if(!s||w.parent===w)return;
function send(k,v){w.parent.postMessage({secret:s,message:k,value:v},'*');}
function size(){send('height',Math.ceil(d.documentElement.getBoundingClientRect().height));}
d.addEventListener('click',function(e){var a=e.target&&e.target.closest?e.target.closest('a[href]'):null;if(!a)return;e.preventDefault();send('link',a.href);});
w.addEventListener('load',size);w.addEventListener('resize',size);size();
})(window,document);`;

/** The card an oEmbed iframe shows: title, image, excerpt (or the protected notice), site name. */
export function embedPage(site: SiteSettings, h: Omit<Head, 'title'>, row: FrontRow, o: { isProtected: boolean; picture?: Picture | null }): string {
  const title = titleHtml(row, o.isProtected);
  const picture = o.picture && !o.isProtected ? `<p class="embed-image"><a href="${escHtml(h.permalink ?? '')}" target="_top">${img(o.picture)}</a></p>\n` : '';
  const text = o.isProtected ? LOCKED : excerptHtml(row);
  const body = `<div class="embed-card">
<p class="embed-title"><a href="${escHtml(h.permalink ?? '')}" target="_top">${title}</a></p>
${picture}<div class="embed-excerpt">${text}</div>
<div class="embed-footer"><a href="${escHtml(site.home)}/" target="_top">${escHtml(site.name)}</a></div>
</div>
<script>${EMBED_SCRIPT}</script>`;
  return document({ ...h, title: pageTitle(titleText(title), site), robots: 'noindex, follow' }, 'embed', body, EMBED_STYLE);
}

export function notFoundPage(site: SiteSettings, apiRoot: string, seo?: string): string {
  const main = `<h1>Page not found</h1>
<p>Nothing lives at this address. <a href="${escHtml(site.home)}/">Go to the home page</a>.</p>`;
  return document({ title: pageTitle('Page not found', site), apiRoot, seo }, 'error404', chrome(site, main));
}

/** A refused comment (WordPress's wp_die page for wp-comments-post.php): the reason, and the way back. */
export function commentErrorPage(site: SiteSettings, apiRoot: string, message: string, back: string): string {
  const main = `<h1>Comment Submission Failure</h1>\n<p>${escHtml(message)}</p>\n<p><a href="${escHtml(back)}">&laquo; Back</a></p>`;
  return document({ title: pageTitle('Comment Submission Failure', site), apiRoot, robots: 'noindex' }, 'wp-die-message', chrome(site, main));
}

export function methodNotAllowedPage(site: SiteSettings, apiRoot: string): string {
  return document({ title: pageTitle('Method not allowed', site), apiRoot }, 'error405', chrome(site, '<h1>Method not allowed</h1>\n<p>The pages of this site are read with GET or HEAD.</p>'));
}
