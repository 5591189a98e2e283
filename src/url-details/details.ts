// What the block editor shows of a link it previews: the page's title, icon, description and
// image, read from the <head> the way WordPress's URL-details controller reads them. The page is
// parsed by htmlparser2 (entities decoded, <script>/<style> text never taken for markup); reading
// stops where the head ends (at </head> or the first <body>), as WordPress only looks there.
import { Parser } from 'htmlparser2';

export interface UrlDetails {
  title: string;
  /** Absolute URL of the page's icon, '' when it names none. */
  icon: string;
  description: string;
  /** Absolute URL of the page's Open Graph image, '' when it names none. */
  image: string;
}

/** `rel` tokens that name an icon (`shortcut icon` has the `icon` token). */
const ICON_RELS = new Set(['icon', 'apple-touch-icon', 'apple-touch-icon-precomposed']);

export function readUrlDetails(html: string, pageUrl: string): UrlDetails {
  let title: string | null = null;
  let inTitle = false;
  let titleText = '';
  let icon = '';
  let nameDescription = '';
  let ogDescription = '';
  let image = '';
  let done = false;

  const parser = new Parser({
    onopentag(name, attrs) {
      if (done) return;
      if (name === 'body') { done = true; return; }
      if (name === 'title' && title === null) { inTitle = true; titleText = ''; return; }
      if (name === 'link' && !icon) {
        const rel = (attrs.rel ?? '').toLowerCase().split(/\s+/);
        const href = (attrs.href ?? '').trim();
        if (href && rel.some((r) => ICON_RELS.has(r))) icon = absolute(href, pageUrl);
        return;
      }
      if (name === 'meta') {
        const content = (attrs.content ?? '').trim();
        if (!content) return;
        const key = (attrs.property ?? attrs.name ?? '').trim().toLowerCase();
        const metaName = (attrs.name ?? '').trim().toLowerCase();
        if (metaName === 'description' && !nameDescription) nameDescription = content;
        else if (key === 'og:description' && !ogDescription) ogDescription = content;
        else if ((key === 'og:image' || key === 'og:image:url') && !image) image = absolute(content, pageUrl);
      }
    },
    ontext(text) {
      if (inTitle && !done) titleText += text;
    },
    onclosetag(name) {
      if (name === 'title' && inTitle) { inTitle = false; title = titleText; }
      if (name === 'head') done = true;
    },
  }, { decodeEntities: true, lowerCaseTags: true, lowerCaseAttributeNames: true });
  parser.write(html);
  parser.end();
  if (title === null && inTitle) title = titleText; // an unclosed <title> at the end of a cut page

  return {
    title: squash(title ?? ''),
    icon,
    // As WordPress: the description meta first, the Open Graph one when there is none.
    description: squash(nameDescription || ogDescription),
    image,
  };
}

/** Whitespace runs (line breaks in a <title>) as one space, trimmed. */
function squash(s: string): string {
  return s.replace(/\s+/g, ' ').trim();
}

/** `href` made absolute against the page; only http(s) results are kept ('' otherwise). */
function absolute(href: string, base: string): string {
  try {
    const url = new URL(href, base);
    return url.protocol === 'http:' || url.protocol === 'https:' ? url.href : '';
  } catch {
    return '';
  }
}
