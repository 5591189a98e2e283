// oEmbed discovery: the <link rel="alternate" type="application/json+oembed" href="…"> elements
// of a page's head. A small tolerant tokenizer reads tags in order (comments, doctype, raw-text
// elements such as <script> and <title> are stepped over, so markup quoted inside them is not
// taken for a tag) and stops where the head ends: at </head> or at the first <body>.

export interface OembedLinks {
  /** The JSON endpoint (absolute URL), if the page names one. */
  json?: string;
  /** The XML endpoint, if the page names one. */
  xml?: string;
}

/** Elements whose content is text, not markup, until their end tag. */
const RAW_TEXT = new Set(['script', 'style', 'title', 'textarea', 'noscript', 'template', 'xmp', 'iframe', 'noembed', 'noframes']);

/** The oEmbed links of `html`'s head; relative hrefs are resolved against `pageUrl`. */
export function findOembedLinks(html: string, pageUrl: string): OembedLinks {
  const links: OembedLinks = {};
  for (const tag of headTags(html)) {
    if (tag.name !== 'link') continue;
    const rel = (tag.attrs.rel ?? '').toLowerCase().split(/\s+/);
    const href = tag.attrs.href?.trim();
    if (!rel.includes('alternate') || !href) continue;
    const type = (tag.attrs.type ?? '').trim().toLowerCase();
    const kind = type === 'application/json+oembed' ? 'json' : type === 'text/xml+oembed' || type === 'application/xml+oembed' ? 'xml' : null;
    if (!kind || links[kind]) continue; // the first of each kind counts
    try { links[kind] = new URL(href, pageUrl).href; } catch { /* an href that is not a URL */ }
  }
  return links;
}

export interface Tag { name: string; attrs: Record<string, string> }

/** The start tags of the document up to the end of its head. */
export function* headTags(html: string): Generator<Tag> {
  const n = html.length;
  let i = 0;
  while (i < n) {
    const lt = html.indexOf('<', i);
    if (lt < 0) return;
    i = lt + 1;
    if (html.startsWith('!--', i)) {
      const end = html.indexOf('-->', i + 3);
      if (end < 0) return;
      i = end + 3;
      continue;
    }
    if (html[i] === '!' || html[i] === '?') { // doctype, CDATA, processing instruction
      const end = html.indexOf('>', i);
      if (end < 0) return;
      i = end + 1;
      continue;
    }
    const closing = html[i] === '/';
    if (closing) i++;
    const nameMatch = /^[a-zA-Z][^\s/>]*/.exec(html.slice(i, i + 64));
    if (!nameMatch) continue; // a lone '<' is text
    const name = nameMatch[0].toLowerCase();
    i += nameMatch[0].length;
    if (closing) {
      if (name === 'head' || name === 'html') return;
      const end = html.indexOf('>', i);
      if (end < 0) return;
      i = end + 1;
      continue;
    }
    const { attrs, next } = readAttributes(html, i);
    i = next;
    if (name === 'body') return;
    yield { name, attrs };
    if (RAW_TEXT.has(name)) {
      const endTag = new RegExp(`</${name}`, 'ig');
      endTag.lastIndex = i;
      const end = endTag.exec(html);
      if (!end) return;
      i = end.index;
    }
  }
}

/** Attributes from `start` to the end of the tag; `next` is just past its '>'. The first of a repeated name wins, as in HTML. */
function readAttributes(html: string, start: number): { attrs: Record<string, string>; next: number } {
  const attrs: Record<string, string> = {};
  const n = html.length;
  let i = start;
  const skipSpace = () => { while (i < n && /[\s/]/.test(html[i])) i++; };
  for (;;) {
    skipSpace();
    if (i >= n) return { attrs, next: n };
    if (html[i] === '>') return { attrs, next: i + 1 };
    let name = '';
    while (i < n && !/[\s/>=]/.test(html[i])) name += html[i++];
    while (i < n && /\s/.test(html[i])) i++;
    let value = '';
    if (html[i] === '=') {
      i++;
      while (i < n && /\s/.test(html[i])) i++;
      const quote = html[i];
      if (quote === '"' || quote === "'") {
        const end = html.indexOf(quote, i + 1);
        value = html.slice(i + 1, end < 0 ? n : end);
        i = end < 0 ? n : end + 1;
      } else {
        const startValue = i;
        while (i < n && !/[\s>]/.test(html[i])) i++;
        value = html.slice(startValue, i);
      }
    }
    if (!name) { i++; continue; } // a stray '=' or quote
    const key = name.toLowerCase();
    if (!(key in attrs)) attrs[key] = decodeEntities(value);
  }
}

const NAMED: Record<string, string> = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'", nbsp: '\u00a0' };

/** Character references in an attribute value: numeric ones and the few names URLs carry. */
export function decodeEntities(text: string): string {
  return text.replace(/&(#x[0-9a-f]+|#\d+|[a-z]+);?/gi, (whole, ref: string) => {
    if (ref[0] === '#') {
      const code = ref[1] === 'x' || ref[1] === 'X' ? parseInt(ref.slice(2), 16) : parseInt(ref.slice(1), 10);
      return code > 0 && code <= 0x10ffff ? String.fromCodePoint(code) : whole;
    }
    return NAMED[ref.toLowerCase()] ?? whole;
  });
}
