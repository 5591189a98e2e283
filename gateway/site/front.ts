// The site's public pages for anonymous readers: the lists of posts (the home page, term archives
// and author pages, each in pages), every permalink the REST `link` field prints, the embed card
// oEmbed points to, and an HTML 404 for the rest (docs/site-front.md). Every page advertises the
// REST API (Link header and <link>), as WordPress's front end does, so clients can discover it
// from the site's address; a term's or an author's page links its REST record too. Pages are the
// same for everyone (no cookies are read), so they share the anonymous response cache.
import type { Config } from '../../src/config.js';
import type { Db } from '../../src/db/client.js';
import { createContext, type Context, type MediaServices } from '../../src/context.js';
import type { SiteSettings } from '../../src/site/options.js';
import { contentTypeOf, permalink } from '../../src/resources/content-types.js';
import { ancestorSlugs } from '../../src/content/fields.js';
import { TAXONOMIES } from '../../src/resources/terms.js';
import type { ResponseCache } from '../cache.js';
import { ITEM_SELECT, LIST_ORDER, embedUrl, isProtected, pageLink, publiclyViewable, resolveAddress, type FoundItem, type ListResolution } from '../../src/site/resolve.js';
import { commentErrorPage, embedPage, listPage, methodNotAllowedPage, notFoundPage, singlePage, type ListSubject } from './html.js';
import { commentsSection } from './comments.js';
import { commentThread, submitCommentForm } from '../../src/comments/form.js';
import { RestError } from '../../src/errors.js';
import { featuredAttachment, fileUrl, pictureOf } from '../../src/site/media-urls.js';
import { buildHead, type HeadTarget } from '../../src/seo/head/head.js';

export interface SiteRequest {
  method: string;
  /** A full URL, or a path with its query. */
  url: string;
  /** The comment form's posted body (application/x-www-form-urlencoded), its sender's address and user agent. */
  body?: string;
  ip?: string;
  userAgent?: string;
}

/** Where the classic comment form posts, as WordPress's. */
export const COMMENT_FORM_PATH = '/wp-comments-post.php';

export interface SiteResponse { status: number; headers: Record<string, string>; body: string }

export interface SiteFrontOptions {
  config: Pick<Config, 'siteUrl' | 'restPrefix'>;
  db: Db;
  media: MediaServices | null;
  cache: ResponseCache | null;
  /** Deployment B: pages print the SEO head (src/seo/head) instead of their plain title. */
  seoHead?: boolean;
}

const lowerEscapes = (path: string) => path.replace(/%[0-9A-F]{2}/g, (m) => m.toLowerCase());

export function createSiteFront(o: SiteFrontOptions) {
  const apiRoot = `${o.config.siteUrl}${o.config.restPrefix}/`;
  const discovery = `<${apiRoot}>; rel="https://api.w.org/"`;

  function respond(status: number, body: string, extra: Record<string, string> = {}, links: string[] = []): SiteResponse {
    return {
      status,
      headers: {
        'Content-Type': 'text/html; charset=UTF-8',
        'Content-Length': String(Buffer.byteLength(body)),
        'X-Content-Type-Options': 'nosniff',
        Link: [discovery, ...links].join(', '),
        ...extra,
      },
      body,
    };
  }

  function redirect(site: SiteSettings, to: string): SiteResponse {
    const body = `<!doctype html>\n<title>Moved</title>\n<p><a href="${to.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`)}">Moved here</a>.</p>\n`;
    return respond(301, body, { Location: to });
  }

  /** The SEO head's HTML for the page, in deployment B. */
  const seo = async (ctx: Context, target: HeadTarget) => (o.seoHead ? (await buildHead(ctx, target)).html : undefined);
  /**
   * A list's SEO head, when the head knows its object: it has no archive of the content model's
   * taxonomies, nor of an author whose published items are no posts, and a page that exists keeps
   * its plain title rather than a "not found" head.
   */
  const listSeo = async (ctx: Context, target: HeadTarget) => {
    if (!o.seoHead) return undefined;
    const head = await buildHead(ctx, target);
    return head.status === 200 ? head.html : undefined;
  };

  const notFound = async (ctx: Context, site: SiteSettings) => respond(404, notFoundPage(site, apiRoot, await seo(ctx, { kind: '404' })));

  /**
   * A page of a list of posts. One statement for its rows (one more than a page, which tells
   * whether an older page follows), and none per post: the list prints no author, terms or counts.
   */
  async function list(ctx: Context, site: SiteSettings, found: ListResolution): Promise<SiteResponse> {
    const per = site.postsPerPage;
    const rows = await ctx.prisma.content.findMany({
      where: found.where, orderBy: LIST_ORDER, skip: (found.page - 1) * per, take: per + 1, select: { ...ITEM_SELECT, author: false },
    });
    const shown = rows.slice(0, per);
    // Items of a tree (the model's hierarchical types) link through their ancestors: one statement per level, not per item.
    const chains = await Promise.all(shown.map((row) => ancestorSlugs(ctx, row)));
    const posts = shown.map((row, i) => {
      const full = { ...row, author: { displayName: '', slug: '' } };
      return { row: full, permalink: permalink(site, row, chains[i]), isProtected: isProtected(full) };
    });
    let subject: ListSubject = { kind: 'home' };
    let restItem: string | undefined;
    if (found.kind === 'term') {
      const { term, taxonomy } = found;
      const singularLabel = TAXONOMIES.find((t) => t.taxonomy === taxonomy.taxonomy)?.singularName ?? taxonomy.taxonomy;
      subject = { kind: 'term', taxonomy: taxonomy.taxonomy, singularLabel, id: term.id, slug: term.slug, name: term.name };
      restItem = `${apiRoot}core/v2/${taxonomy.restBase}/${term.id}`;
    } else if (found.kind === 'author') {
      subject = { kind: 'author', id: found.user.id, slug: found.user.slug, name: found.user.displayName };
      restItem = `${apiRoot}core/v2/users/${found.user.id}`;
    }
    const h = {
      apiRoot, restItem,
      prev: found.page > 1 ? pageLink(found.base, found.page - 1) : undefined,
      next: rows.length > per ? pageLink(found.base, found.page + 1) : undefined,
      seo: await listSeo(ctx, found.kind === 'home' ? { kind: 'home' } : found.kind === 'term' ? { kind: 'term', id: found.term.id } : { kind: 'user', id: found.user.id }),
    };
    return respond(200, listPage(site, h, subject, found.page, posts), {}, restItem ? [`<${restItem}>; rel="alternate"; title="JSON"; type="application/json"`] : []);
  }

  async function single(ctx: Context, site: SiteSettings, item: FoundItem): Promise<SiteResponse> {
    const { row } = item;
    const storage = ctx.media?.storage;
    const locked = isProtected(row);
    const restItem = `${apiRoot}core/v2/${contentTypeOf(row.type).restBase}/${row.id}`;
    const h = { apiRoot, restItem, permalink: item.permalink, seo: item.embed || row.type === 'attachment' ? undefined : await seo(ctx, { kind: 'post', id: row.id }) };
    const featured = !locked && row.type !== 'attachment' && row.featuredMedia ? await featuredAttachment(ctx, row.featuredMedia) : null;
    const size = item.embed ? 'medium' : 'large';
    const picture = row.type === 'attachment' ? pictureOf(storage, row, size) : featured ? pictureOf(storage, featured, size) : null;
    // Approved comments in threads and the comment form, unless a password hides the item.
    const thread = item.embed || locked ? null : await commentThread(ctx, row.id);
    const comments = thread ? commentsSection({ postId: row.id, ...thread, formAction: `${o.config.siteUrl}${COMMENT_FORM_PATH}` }) : undefined;
    const html = item.embed
      ? embedPage(site, h, row, { isProtected: locked, picture })
      : singlePage(site, h, row, { isProtected: locked, picture, fileUrl: row.type === 'attachment' ? fileUrl(storage, row) : undefined, comments });
    return respond(200, html, {}, [`<${restItem}>; rel="alternate"; title="JSON"; type="application/json"`]);
  }

  async function page(ctx: Context, site: SiteSettings, url: URL): Promise<SiteResponse> {
    const found = await resolveAddress(ctx, site, url);
    if (found.kind === 'home' || found.kind === 'term' || found.kind === 'author') {
      // As WordPress's canonical redirect: a plain query (?cat=, ?author=, ?paged=) moves to the
      // list's pretty address, and so does a path spelled another way (a category without its
      // parents, /page/1/, no trailing slash).
      if (found.form === 'plain' || lowerEscapes(url.pathname) !== lowerEscapes(new URL(found.link).pathname)) return redirect(site, found.link);
      return list(ctx, site, found);
    }
    if (found.kind === 'none' || !(await publiclyViewable(ctx, found.item.row))) return notFound(ctx, site);
    const item = found.item;
    const canonical = item.embed ? embedUrl(item.permalink) : item.permalink;
    // A published post's or page's plain link moves to its pretty permalink, as WordPress's
    // canonical redirect does; a pretty path spelled another way (no trailing slash) moves too.
    if (item.form === 'plain' && !item.permalink.includes('?')) return redirect(site, canonical);
    if (item.form === 'path' && lowerEscapes(url.pathname) !== lowerEscapes(new URL(canonical).pathname)) return redirect(site, canonical);
    return single(ctx, site, item);
  }

  /**
   * The classic comment form's post (wp-comments-post.php): the comment is made by the comments
   * service, and the reader goes back to it on the item's page (302 to its anchor), or gets
   * WordPress's failure page with the reason and a 4xx status.
   */
  async function commentForm(ctx: Context, settings: SiteSettings, request: SiteRequest): Promise<SiteResponse> {
    ctx.client = { ip: request.ip ?? '', userAgent: request.userAgent ?? '' };
    const fields = Object.fromEntries(new URLSearchParams(request.body ?? ''));
    try {
      const { id, postId } = await submitCommentForm(ctx, fields);
      const post = await ctx.prisma.content.findUniqueOrThrow({ where: { id: postId }, select: { id: true, type: true, status: true, slug: true, parentId: true } });
      return respond(302, '', { Location: `${permalink(settings, post, await ancestorSlugs(ctx, post))}#comment-${id}` });
    } catch (err) {
      if (!(err instanceof RestError)) throw err;
      return respond(err.extensions.status, commentErrorPage(settings, apiRoot, err.message, `${settings.home}/`));
    }
  }

  /** GET and HEAD of any address outside the REST API, the admin pages and the uploads; the comment form's POST. */
  return async function site(request: SiteRequest): Promise<SiteResponse> {
    const method = request.method.toUpperCase();
    const url = new URL(request.url, o.config.siteUrl);
    const ctx = createContext(o.db, null, o.media);
    const settings = await ctx.site();
    if (method === 'POST' && url.pathname === COMMENT_FORM_PATH) return commentForm(ctx, settings, request);
    if (method !== 'GET' && method !== 'HEAD') {
      return respond(405, methodNotAllowedPage(settings, apiRoot), { Allow: 'GET, HEAD' });
    }
    const key = `site ${url.pathname}${url.search}`;
    const { generation, hit } = o.cache?.lookup(key) ?? { generation: 0, hit: undefined };
    let out = hit as SiteResponse | undefined;
    if (!out) {
      out = await page(ctx, settings, url);
      if (o.cache && (out.status === 200 || out.status === 301)) o.cache.set(key, out, generation);
    }
    return method === 'HEAD' ? { ...out, body: '' } : out;
  };
}

export type SiteFront = ReturnType<typeof createSiteFront>;
