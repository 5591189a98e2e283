// The `html` of a fetched oEmbed object: made from the data as WordPress's data2html() makes it,
// then filtered. The filter is deliberately simple: every element and attribute is kept except
// <script> elements (with their content), event-handler attributes (on…), `srcdoc` (a document
// that would run in the embedding page's origin) and URLs whose scheme is not http, https,
// mailto or tel. Provider scripts (a tweet's widgets.js) therefore go too: the embed shows its
// plain blockquote unless the editor loads the provider's script itself.
import sanitizeHtml from 'sanitize-html';
import { escHtml } from '../content/escape.js';

/** Elements removed with their content. */
const DROPPED = new Set(['script']);
const URL_ATTRIBUTES = ['href', 'src', 'cite', 'action', 'formaction', 'data', 'poster', 'background', 'xlink:href'];

export function sanitizeEmbedHtml(html: string): string {
  return sanitizeHtml(html, {
    allowedTags: false,
    allowedAttributes: false,
    // Every tag is allowed except those dropped by exclusiveFilter below.
    allowVulnerableTags: true,
    allowedSchemes: ['http', 'https', 'mailto', 'tel'],
    allowedSchemesAppliedToAttributes: URL_ATTRIBUTES,
    allowProtocolRelative: true,
    exclusiveFilter: (frame) => DROPPED.has(frame.tag),
    transformTags: {
      '*': (tagName, attribs) => ({
        tagName,
        attribs: Object.fromEntries(Object.entries(attribs).filter(([name]) => !/^on/i.test(name) && name.toLowerCase() !== 'srcdoc')),
      }),
    },
  });
}

/**
 * The markup for oEmbed data (WordPress's WP_oEmbed::data2html): a photo becomes a linked image,
 * video and rich types carry their own html, a link becomes an anchor. False when the data
 * lacks what its type needs.
 */
export function dataToHtml(data: Record<string, unknown>, url: string): string | false {
  const str = (v: unknown) => (typeof v === 'string' || typeof v === 'number' ? String(v) : '');
  switch (data.type) {
    case 'photo': {
      const src = str(data.url);
      if (!src || !str(data.width) || !str(data.height)) return false;
      const title = str(data.title);
      return `<a href="${escHtml(url)}"><img src="${escHtml(src)}" alt="${escHtml(title)}" width="${escHtml(str(data.width))}" height="${escHtml(str(data.height))}" /></a>`;
    }
    case 'video':
    case 'rich':
      return typeof data.html === 'string' && data.html ? data.html : false;
    case 'link':
      return str(data.title) ? `<a href="${escHtml(url)}">${escHtml(str(data.title))}</a>` : false;
    default:
      return false;
  }
}
