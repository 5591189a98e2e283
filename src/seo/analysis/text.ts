// Text extraction for the content analysis: HTML → blocks (paragraphs, headings), sentences, words
// and syllables. The HTML is parsed by sanitize-html's parser (htmlparser2) through its tag and
// text callbacks, so entities, comments (block delimiters), scripts and styles are handled by a
// real parser rather than by patterns.
import sanitizeHtml from 'sanitize-html';

export interface Block {
  /** `heading` for h1–h6, `text` for everything else that carries prose. */
  kind: 'text' | 'heading';
  text: string;
}

export interface ParsedHtml {
  blocks: Block[];
  images: { alt: string }[];
  links: { href: string; rel: string }[];
}

/** Elements that end the running text block (the browser would start a new box). */
const BLOCK_TAGS = new Set([
  'p', 'div', 'section', 'article', 'aside', 'header', 'footer', 'main', 'nav', 'blockquote', 'pre',
  'ul', 'ol', 'li', 'dl', 'dt', 'dd', 'table', 'thead', 'tbody', 'tfoot', 'tr', 'td', 'th', 'caption',
  'figure', 'figcaption', 'address', 'details', 'summary', 'hr', 'form', 'fieldset',
  'h1', 'h2', 'h3', 'h4', 'h5', 'h6',
]);
const HEADING = /^h[1-6]$/;
/** Whose text is not prose. */
const SKIPPED = new Set(['script', 'style', 'noscript', 'template', 'textarea', 'select', 'option', 'svg', 'math', 'iframe']);

/** sanitize-html hands text to `textFilter` escaped (`&`, `<`, `>`); undo exactly that. */
function unescapeText(s: string): string {
  return s.replace(/&lt;/g, '<').replace(/&gt;/g, '>').replace(/&amp;/g, '&');
}

export function parseHtml(html: string): ParsedHtml {
  const blocks: Block[] = [];
  const images: { alt: string }[] = [];
  const links: { href: string; rel: string }[] = [];
  let buffer = '';
  let headingDepth = 0;
  let skipDepth = 0;

  const flush = () => {
    // Outside explicit paragraphs, a blank line separates paragraphs (as autop would render them).
    const parts = headingDepth > 0 ? [buffer] : buffer.split(/\n[ \t\r]*\n/);
    for (const part of parts) {
      const text = part.replace(/\s+/g, ' ').trim();
      if (text) blocks.push({ kind: headingDepth > 0 ? 'heading' : 'text', text });
    }
    buffer = '';
  };

  sanitizeHtml(html, {
    allowedTags: false,
    allowedAttributes: false,
    allowVulnerableTags: true,
    onOpenTag(name: string, attribs: Record<string, string>) {
      const tag = name.toLowerCase();
      if (SKIPPED.has(tag)) { skipDepth++; return; }
      if (BLOCK_TAGS.has(tag)) flush();
      if (HEADING.test(tag)) headingDepth++;
      if (tag === 'img') images.push({ alt: (attribs.alt ?? '').trim() });
      if (tag === 'a' && attribs.href !== undefined) links.push({ href: attribs.href.trim(), rel: (attribs.rel ?? '').toLowerCase() });
      if (tag === 'br') buffer += ' ';
    },
    onCloseTag(name: string) {
      const tag = name.toLowerCase();
      if (SKIPPED.has(tag)) { skipDepth = Math.max(0, skipDepth - 1); return; }
      if (BLOCK_TAGS.has(tag)) flush();
      if (HEADING.test(tag)) headingDepth = Math.max(0, headingDepth - 1);
    },
    textFilter(text: string) {
      if (skipDepth === 0) buffer += unescapeText(text);
      return '';
    },
  } as sanitizeHtml.IOptions);
  flush();
  return { blocks, images, links };
}

/** A word: letters or digits, with inner apostrophes or hyphens ("don't", "well-known"). */
const WORD = /[\p{L}\p{N}]+(?:['’\-][\p{L}\p{N}]+)*/gu;

export function words(text: string): string[] {
  return text.match(WORD) ?? [];
}

/** Abbreviations whose period does not end a sentence (compared lower-cased, without the period). */
const ABBREVIATIONS = new Set([
  'mr', 'mrs', 'ms', 'dr', 'prof', 'sr', 'jr', 'st', 'mt', 'vs', 'etc', 'e.g', 'i.e', 'eg', 'ie', 'inc',
  'ltd', 'co', 'corp', 'fig', 'no', 'vol', 'approx', 'dept', 'est', 'jan', 'feb', 'mar', 'apr', 'jun',
  'jul', 'aug', 'sep', 'sept', 'oct', 'nov', 'dec', 'cf', 'al', 'gen', 'gov', 'rev', 'capt', 'col', 'lt',
  'sgt', 'u.s', 'a.m', 'p.m',
]);

/**
 * Splits a block's text into sentences at `.`, `!` or `?` (runs of them, and closing quotes or
 * brackets after them) followed by white space and then something that can start a sentence (a
 * capital, a digit, an opening quote or bracket). A period after a known abbreviation or a
 * single capital letter (an initial, "J. Smith") does not end a sentence. The end of the block
 * always ends one.
 */
export function sentences(text: string): string[] {
  const out: string[] = [];
  const boundary = /[.!?]+["'”’)\]]*(?=\s+["'“‘(\[]?[\p{Lu}\p{N}])/gu;
  let start = 0;
  let m: RegExpExecArray | null;
  while ((m = boundary.exec(text)) !== null) {
    const end = m.index + m[0].length;
    if (m[0].startsWith('.') && m[0].length === 1) {
      const before = text.slice(start, m.index).match(/([\p{L}.]+)$/u)?.[1] ?? '';
      const token = before.toLowerCase();
      if (ABBREVIATIONS.has(token) || /^\p{Lu}$/u.test(before)) continue;
    }
    const s = text.slice(start, end).trim();
    if (s) out.push(s);
    start = end;
  }
  const rest = text.slice(start).trim();
  if (rest) out.push(rest);
  return out.filter((s) => words(s).length > 0);
}

/**
 * English syllable estimate, by rule (no dictionary):
 *  1. keep the letters a–z of the lower-cased word; a word of three letters or fewer has one;
 *  2. endings: `le`/`les` after a consonant is a syllable of its own ("ta-ble", "ta-bles");
 *     otherwise a final `e` after a consonant is silent ("make"); a final `es` is silent except
 *     after s, x, z, c, g, ch or sh ("makes", "goes", but "box-es", "pag-es"); a final `ed` is
 *     silent except after t or d ("jumped", "played", but "want-ed");
 *  3. a leading `y` is a consonant ("yel-low");
 *  4. every run of vowels (a, e, i, o, u, y) is one syllable; at least one per word.
 * Good for ordinary prose; wrong on hiatus words ("cre-a-ted" counts 2) and some loanwords.
 */
export function syllables(word: string): number {
  let w = word.toLowerCase().replace(/[^a-z]/g, '');
  if (!w) return 0;
  if (w.length <= 3) return 1;
  if (/[^aeiouy]les?$/.test(w)) {
    // "table", "tables": the -le is its own syllable and its vowel group counts.
  } else if (/[^aeiouy]e$/.test(w)) {
    w = w.slice(0, -1);
  } else if (/es$/.test(w) && !/([sxzcg]|ch|sh)es$/.test(w)) {
    w = w.slice(0, -2);
  } else if (/ed$/.test(w) && !/[td]ed$/.test(w)) {
    w = w.slice(0, -2);
  }
  w = w.replace(/^y/, '');
  const groups = w.match(/[aeiouy]+/g);
  return Math.max(1, groups ? groups.length : 0);
}
