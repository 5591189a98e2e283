// oEmbed 1.0 answers for the site's own addresses: the object another site needs to embed one of
// our items (a link plus an iframe of its embed card), and its XML form.
import { randomInt } from 'node:crypto';
import { createContext, type Context } from '../context.js';
import { restError } from '../errors.js';
import type { SiteSettings } from '../site/options.js';
import { escHtml } from '../content/escape.js';
import { renderTitle, stripAllTags } from '../content/render.js';
import { authorLink } from '../users/service.js';
import { embedUrl, isProtected, publiclyViewable, resolveUrl, type FoundItem } from '../site/resolve.js';
import { featuredAttachment, thumbnailOf } from '../site/media-urls.js';

export const MIN_WIDTH = 200;
export const MAX_WIDTH = 600;

/** PHP's absint() of a request value: leading number, truncated, sign dropped; anything else 0. */
export function absint(value: unknown): number {
  if (typeof value === 'number') return Number.isFinite(value) ? Math.abs(Math.trunc(value)) : 0;
  if (typeof value === 'boolean') return value ? 1 : 0;
  if (Array.isArray(value)) return value.length ? 1 : 0;
  if (typeof value !== 'string') return 0;
  const m = /^\s*[+-]?(?:\d+(?:\.\d*)?|\.\d+)(?:[eE][+-]?\d+)?/.exec(value);
  const n = m ? Math.abs(Math.trunc(Number(m[0]))) : 0;
  return Number.isFinite(n) ? Math.min(n, Number.MAX_SAFE_INTEGER) : 0;
}

/** The width asked for, kept within 200–600, and the height that goes with it (16:9, at least 200). */
export function embedSize(maxwidth: unknown): { width: number; height: number } {
  const width = Math.min(Math.max(absint(maxwidth), MIN_WIDTH), MAX_WIDTH);
  return { width, height: Math.max(Math.ceil((width / 16) * 9), MIN_WIDTH) };
}

const ALNUM = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';

/** Ties an iframe to the messages its page sends back (several embeds may share a host page). */
export function embedSecret(): string {
  let s = '';
  for (let i = 0; i < 10; i++) s += ALNUM[randomInt(ALNUM.length)];
  return s;
}

// Runs on the host page: sizes the iframe whose secret a message carries (within 200–1000 px),
// hides the fallback quote once the frame speaks, and follows links clicked inside the frame when
// they stay on the frame's own host. Installed once per page however many embeds it holds.
const HOST_SCRIPT = `<script>(function(w,d){
if(w.siteEmbedHost)return;w.siteEmbedHost=1;
w.addEventListener('message',function(e){
var m=e.data||{};if(typeof m.secret!=='string'||!/^[A-Za-z0-9]{10}$/.test(m.secret))return;
var q='[data-secret="'+m.secret+'"]',f=d.querySelectorAll('iframe'+q),b=d.querySelectorAll('blockquote'+q),i,j;
for(i=0;i<f.length;i++){if(f[i].contentWindow!==e.source)continue;
if(m.message==='height'){f[i].height=String(Math.min(1000,Math.max(200,parseInt(m.value,10)||0)));for(j=0;j<b.length;j++)b[j].style.display='none';}
else if(m.message==='link'){try{var u=new URL(m.value),s=new URL(f[i].src);if(u.host===s.host&&/^https?:$/.test(u.protocol))w.top.location.href=u.href;}catch(x){}}}
});
})(window,document);</script>`;

/** The markup another site prints: a quote linking to the item, the iframe of its card, the sizing script. */
export function embedHtml(site: SiteSettings, item: FoundItem, size: { width: number; height: number }, secret = embedSecret()): string {
  const title = renderTitle(item.row.title);
  const frameTitle = escHtml(`\u201c${stripAllTags(title)}\u201d \u2014 ${site.name}`);
  return `<blockquote class="wp-embedded-content" data-secret="${secret}"><a href="${escHtml(item.permalink)}">${title}</a></blockquote>`
    + `<iframe sandbox="allow-scripts" security="restricted" src="${escHtml(`${embedUrl(item.permalink)}#?secret=${secret}`)}" width="${size.width}" height="${size.height}" title="${frameTitle}" data-secret="${secret}" frameborder="0" marginwidth="0" marginheight="0" scrolling="no" class="wp-embedded-content"></iframe>`
    + HOST_SCRIPT;
}

/** Whether an address is on the site's home host (any scheme: WordPress matches the host only). */
function isLocal(site: SiteSettings, url: URL): boolean {
  if (url.protocol !== 'http:' && url.protocol !== 'https:') return false;
  try {
    const home = new URL(site.home);
    const port = (u: URL) => u.port || (u.protocol === 'https:' ? '443' : '80');
    return url.hostname.toLowerCase() === home.hostname.toLowerCase() && (url.protocol !== home.protocol || port(url) === port(home));
  } catch {
    return false;
  }
}

/**
 * The item a URL names when anyone may embed it: a published post or page without a password, or
 * an attachment that anyone may read. Null otherwise (another host, no such item, not public).
 */
export async function embeddableItem(anonymous: Context, site: SiteSettings, address: string): Promise<FoundItem | null> {
  let url: URL;
  try { url = new URL(address); } catch { return null; }
  if (!isLocal(site, url)) return null;
  const found = await resolveUrl(anonymous, site, url);
  if (found.kind !== 'item') return null;
  const { row } = found.item;
  if (isProtected(row) || !(await publiclyViewable(anonymous, row))) return null;
  return found.item;
}

export type OembedData = Record<string, string | number>;

/** The oEmbed 1.0 object of an embeddable item, in WordPress's key order. */
export async function oembedData(anonymous: Context, site: SiteSettings, item: FoundItem, maxwidth: unknown): Promise<OembedData> {
  const { row } = item;
  const size = embedSize(maxwidth);
  const data: OembedData = {
    version: '1.0',
    provider_name: site.name,
    provider_url: site.home,
    author_name: row.author?.displayName ?? site.name,
    author_url: row.author ? authorLink(site, row.author.slug) : site.home,
    title: renderTitle(row.title),
    type: 'rich',
    width: size.width,
    height: size.height,
    html: embedHtml(site, item, size),
  };
  // An image attachment is its own thumbnail; a video attachment is typed as one and, like any
  // other item, shows its featured image.
  const storage = anonymous.media?.storage;
  let thumbnail: ReturnType<typeof thumbnailOf> = null;
  if (row.type === 'attachment' && row.mimeType.startsWith('image/')) thumbnail = thumbnailOf(storage, row, size.width);
  else {
    if (row.type === 'attachment' && row.mimeType.startsWith('video/')) data.type = 'video';
    const featured = row.featuredMedia ? await featuredAttachment(anonymous, row.featuredMedia) : null;
    if (featured) thumbnail = thumbnailOf(storage, featured, size.width);
  }
  if (thumbnail) {
    data.thumbnail_url = thumbnail.url;
    data.thumbnail_width = thumbnail.width;
    data.thumbnail_height = thumbnail.height;
  }
  return data;
}

const xmlText = (s: string) => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');

/** The XML form: one element per key; each value reads back as exactly the JSON string. */
export function oembedXml(data: OembedData): string {
  const children = Object.entries(data).map(([key, value]) => `<${key}>${xmlText(String(value))}</${key}>`).join('');
  return `<?xml version="1.0"?>\n<oembed>${children}</oembed>\n`;
}

/**
 * GET oembed/1.0/embed: the oEmbed data of an item of the site, decided as for an anonymous reader
 * whoever asks (404 oembed_invalid_url for what cannot be embedded).
 */
export async function oembedFor(ctx: Context, url: string, maxwidth: unknown): Promise<OembedData> {
  const anonymous = createContext(ctx.db, null, ctx.media);
  const site = await anonymous.site();
  const item = await embeddableItem(anonymous, site, url);
  if (!item) throw restError('oembed_invalid_url', 'Not Found', 404);
  return oembedData(anonymous, site, item, maxwidth);
}
