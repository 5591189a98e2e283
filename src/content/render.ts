/**
 * Rendering of stored post fields the way WordPress's REST API renders them
 * (content.rendered, title.rendered, excerpt.rendered).
 *
 * Scope: content without shortcodes and without dynamic blocks. The filter
 * chains reproduced are WordPress's defaults:
 *   the_content:  do_blocks (9) → wptexturize (10) → wpautop (10, skipped when the
 *                 content has blocks) → capital_P_dangit (11)
 *   the_title:    wptexturize → convert_chars → trim → capital_P_dangit (11)
 *   the_excerpt:  wptexturize → convert_chars → wpautop
 *   get_the_excerpt: wp_trim_excerpt (generates from content when the excerpt is empty)
 * Left out: convert_smilies, shortcodes (do_shortcode / strip_shortcodes /
 * shortcode_unautop), wp_filter_content_tags (img loading/srcset attributes),
 * prepend_attachment, dynamic block render callbacks, the <!--more--> tag.
 *
 * Regular expressions below emulate PCRE without the /u flag, which is how
 * WordPress runs them: `\s` is ASCII whitespace only, `.` excludes only "\n",
 * `$` also matches before a final "\n" and `\Z` is "end, or before a final \n".
 */

// ---------------------------------------------------------------------------
// Shared helpers
// ---------------------------------------------------------------------------

/** Character-class body of PCRE's non-UTF `\s`. */
const WSC = ' \\t\\n\\r\\f\\v';
/** PCRE `\s` (ASCII whitespace). */
const WS = `[${WSC}]`;
/** PCRE `\Z`, usable inside a lookahead. */
const END_Z = '\\n?$';
/** wp_spaces_regexp() default: ASCII spaces, a raw NBSP, or the &nbsp; entity. */
const SPACES = '[\\r\\n\\t ]|\\u00a0|&nbsp;';

/** PHP trim() with its default character list. */
export function phpTrim(s: string): string {
  return s.replace(/^[ \t\n\r\0\x0B]+|[ \t\n\r\0\x0B]+$/g, '');
}

function replaceAll(s: string, from: string, to: string): string {
  return s.includes(from) ? s.split(from).join(to) : s;
}

function countOf(haystack: string, needle: string): number {
  return haystack.split(needle).length - 1;
}

/** PHP substr() for the (start >= 0, any length) cases used here. */
function phpSubstr(s: string, start: number, length: number): string {
  if (start >= s.length) return '';
  const end = length < 0 ? s.length + length : start + length;
  return end <= start ? '' : s.slice(start, end);
}

/**
 * PHP strip_tags() without allowed tags: drops tags (quotes inside a tag protect
 * '>'), comments and NUL bytes; a '<' followed by whitespace is kept as text;
 * an unterminated tag swallows the rest of the input.
 */
export function stripTags(input: string): string {
  const isWs = (c: string | undefined) => c !== undefined && /[ \t\n\r\f\v]/.test(c);
  let out = '';
  let i = 0;
  const n = input.length;
  while (i < n) {
    const c = input[i];
    if (c === '\0') {
      i++;
      continue;
    }
    if (c !== '<') {
      out += c;
      i++;
      continue;
    }
    if (isWs(input[i + 1])) {
      out += c;
      i++;
      continue;
    }
    if (input.startsWith('<!--', i)) {
      const close = input.indexOf('-->', i + 4);
      i = close === -1 ? n : close + 3;
      continue;
    }
    let depth = 0;
    let quote: string | null = null;
    let j = i + 1;
    for (; j < n; j++) {
      const d = input[j];
      if (quote !== null) {
        if (d === quote) quote = null;
        continue;
      }
      if (d === '"' || d === "'") {
        quote = d;
      } else if (d === '<') {
        if (!isWs(input[j + 1])) depth++;
      } else if (d === '>') {
        if (depth === 0) break;
        depth--;
      }
    }
    i = j + 1;
  }
  return out;
}

/** wp_strip_all_tags() (without $remove_breaks): script/style bodies go too, then trim. */
export function stripAllTags(text: string): string {
  const noScripts = text.replace(/<(script|style)[^>]*?>[\s\S]*?<\/\1>/gi, '');
  return phpTrim(stripTags(noScripts));
}

/** convert_chars(): a lone '&' not starting an entity becomes &#038;. */
function convertChars(content: string): string {
  if (!content.includes('&')) return content;
  return content.replace(/&([^#])(?![a-z1-4]{1,8};)/gi, '&#038;$1');
}

/** capital_P_dangit() as run on the_content / the_excerpt. */
function capitalPDangit(text: string): string {
  if (!text.includes('Wordpress')) return text;
  let out = text;
  for (const prefix of [' ', '&#8216;', '&#8220;', '>', '(']) {
    out = replaceAll(out, `${prefix}Wordpress`, `${prefix}WordPress`);
  }
  return out;
}

// ---------------------------------------------------------------------------
// wptexturize
// ---------------------------------------------------------------------------

const OPEN_Q_FLAG = '<!--oq-->';
const OPEN_SQ_FLAG = '<!--osq-->';
const APOS_FLAG = '<!--apos-->';
const PRIME_OR_QUOTE_FLAG = '<!--wp-prime-or-quote-->';

const APOS = '&#8217;';
const PRIME = '&#8242;';
const DOUBLE_PRIME = '&#8243;';
const OPENING_QUOTE = '&#8220;';
const CLOSING_QUOTE = '&#8221;';
const OPENING_SINGLE_QUOTE = '&#8216;';
const CLOSING_SINGLE_QUOTE = '&#8217;';
const EN_DASH = '&#8211;';
const EM_DASH = '&#8212;';

const NO_TEXTURIZE_TAGS = ['pre', 'code', 'kbd', 'style', 'script', 'tt'];

/** Plain substring replacements, applied one after the other (English defaults). */
const STATIC_REPLACEMENTS: ReadonlyArray<readonly [string, string]> = [
  ['...', '&#8230;'],
  ['``', OPENING_QUOTE],
  ["''", CLOSING_QUOTE],
  [' (tm)', ' &#8482;'],
  ...["'tain't", "'twere", "'twas", "'tis", "'twill", "'til", "'bout", "'nuff", "'round", "'cause", "'em"].map(
    (word) => [word, word.replace(/'/g, APOS)] as const,
  ),
];

/** Lookahead body: what may follow a closing quote. */
const AFTER_CLOSER = `${END_Z}|[.,:;!?)}\\-\\]]|&gt;|${SPACES}`;

type Rule = readonly [RegExp, string];

const APOS_RULES: Rule[] = [
  // '99' and '99" : abbreviated year at the end of a quotation.
  [new RegExp(`'(\\d\\d)'(?=${AFTER_CLOSER})`, 'g'), `${APOS_FLAG}$1${CLOSING_SINGLE_QUOTE}`],
  [new RegExp(`'(\\d\\d)"(?=${AFTER_CLOSER})`, 'g'), `${APOS_FLAG}$1${CLOSING_QUOTE}`],
  // '99 '99s '99's, but not '9, '99%, '999 or '99.0
  [new RegExp(`'(?=\\d\\d(?:${END_Z}|(?![%\\d]|[.,]\\d)))`, 'g'), APOS_FLAG],
  // quoted numbers like '0.42'
  [new RegExp(`(?<=^|${SPACES})'(\\d[.,\\d]*)'`, 'g'), `${OPEN_SQ_FLAG}$1${CLOSING_SINGLE_QUOTE}`],
  // opening single quote: at the start or after ( { [ " - &lt; or a space
  [new RegExp(`(?<=^|[([{"\\-]|&lt;|${SPACES})'`, 'g'), OPEN_SQ_FLAG],
  // apostrophe inside a word
  [new RegExp(`(?<!${SPACES})'(?!${END_Z}|[.,:;!?"'(){}[\\]\\-]|&[lg]t;|${SPACES})`, 'g'), APOS_FLAG],
];

const QUOTE_RULES: Rule[] = [
  [new RegExp(`(?<=^|${SPACES})"(\\d[.,\\d]*)"`, 'g'), `${OPEN_Q_FLAG}$1${CLOSING_QUOTE}`],
  [new RegExp(`(?<=^|[([{\\-]|&lt;|${SPACES})"(?!${SPACES})`, 'g'), OPEN_Q_FLAG],
];

const DASH_RULES: Rule[] = [
  [/---/g, EM_DASH],
  [new RegExp(`(?<=^|${SPACES})--(?=$|${SPACES})`, 'g'), EM_DASH],
  [/(?<!xn)--/g, EN_DASH],
  [new RegExp(`(?<=^|${SPACES})-(?=$|${SPACES})`, 'g'), EN_DASH],
];

/** A '&' that does not already start an entity. */
const BARE_AMP = /&(?!#(?:\d+|x[a-f0-9]+);|[a-z1-4]{1,8};)/gi;

/** Splits text into HTML comments / elements (captured) and the text between them. */
const TEXTURIZE_SPLIT = /(<(?:(?=!--)!(?:-(?!->)[^-]*)*(?:-->)?|(?!!--)[^>]*>?))/;

function applyRules(s: string, rules: Rule[]): string {
  let out = s;
  for (const [re, to] of rules) out = out.replace(re, to);
  return out;
}

/** wptexturize_primes(): decides between primes and closing quotes for ' or ". */
function resolvePrimes(haystack: string, needle: "'" | '"', prime: string, openFlag: string, closeQuote: string): string {
  const quotePattern = new RegExp(`${needle}(?=${AFTER_CLOSER})`, 'g');
  const primePattern = new RegExp(`(?<=\\d)${needle}`, 'g');
  const flagAfterDigit = new RegExp(`(?<=\\d)${PRIME_OR_QUOTE_FLAG}`, 'g');
  const flagNoDigit = new RegExp(`(?<!\\d)${PRIME_OR_QUOTE_FLAG}`, 'g');

  const sentences = haystack.split(openFlag);
  for (let key = 0; key < sentences.length; key++) {
    let s = sentences[key];
    if (!s.includes(needle)) continue;
    if (key !== 0 && countOf(s, closeQuote) === 0) {
      // Inside an opened quotation: find the most plausible closing quote.
      let candidates = 0;
      s = s.replace(quotePattern, () => {
        candidates++;
        return PRIME_OR_QUOTE_FLAG;
      });
      if (candidates > 1) {
        let closedAfterNonDigit = 0;
        s = s.replace(flagNoDigit, () => {
          closedAfterNonDigit++;
          return closeQuote;
        });
        if (closedAfterNonDigit === 0) {
          const withPeriod = `${PRIME_OR_QUOTE_FLAG}.`;
          const pos = s.includes(withPeriod) ? s.lastIndexOf(withPeriod) : s.lastIndexOf(PRIME_OR_QUOTE_FLAG);
          s = s.slice(0, pos) + closeQuote + s.slice(pos + PRIME_OR_QUOTE_FLAG.length);
        }
        s = s.replace(primePattern, prime);
        s = s.replace(flagAfterDigit, prime);
        s = replaceAll(s, PRIME_OR_QUOTE_FLAG, closeQuote);
      } else if (candidates === 1) {
        s = replaceAll(s, PRIME_OR_QUOTE_FLAG, closeQuote);
        s = s.replace(primePattern, prime);
      } else {
        s = s.replace(primePattern, prime);
      }
    } else {
      s = s.replace(primePattern, prime);
      s = s.replace(quotePattern, closeQuote);
    }
    if (needle === '"' && s.includes('"')) s = replaceAll(s, '"', closeQuote);
    sentences[key] = s;
  }
  return sentences.join(openFlag);
}

/** Texturizes one run of plain text (no tags in it). */
function texturizeText(text: string): string {
  let s = text;
  for (const [from, to] of STATIC_REPLACEMENTS) s = replaceAll(s, from, to);

  if (s.includes("'")) {
    s = applyRules(s, APOS_RULES);
    s = resolvePrimes(s, "'", PRIME, OPEN_SQ_FLAG, CLOSING_SINGLE_QUOTE);
    s = replaceAll(s, APOS_FLAG, APOS);
    s = replaceAll(s, OPEN_SQ_FLAG, OPENING_SINGLE_QUOTE);
  }
  if (s.includes('"')) {
    s = applyRules(s, QUOTE_RULES);
    s = resolvePrimes(s, '"', DOUBLE_PRIME, OPEN_Q_FLAG, CLOSING_QUOTE);
    s = replaceAll(s, OPEN_Q_FLAG, OPENING_QUOTE);
  }
  if (s.includes('-')) s = applyRules(s, DASH_RULES);

  // 9x9 → 9&#215;9, but never 0x9999 (a leading 0 needs more digits before the x)
  if (/(?<=\d)x\d/.test(s)) {
    s = s.replace(/\b(0[\d.,]+|[1-9][\d.,]*)x(\d[\d.,]*)\b/g, '$1&#215;$2');
  }
  return s.replace(BARE_AMP, '&#038;');
}

/** Tracks entry into / exit from elements whose content must stay untouched. */
function trackNoTexturize(tag: string, stack: string[]): void {
  let opening: boolean;
  let offset: number;
  if (tag.length > 1 && tag[1] !== '/') {
    opening = true;
    offset = 1;
  } else if (stack.length === 0) {
    return;
  } else {
    opening = false;
    offset = 2;
  }
  const space = tag.indexOf(' ');
  const name = space === -1 ? phpSubstr(tag, offset, -1) : phpSubstr(tag, offset, space - offset);
  if (!NO_TEXTURIZE_TAGS.includes(name)) return;
  if (opening) stack.push(name);
  else if (stack[stack.length - 1] === name) stack.pop();
}

/**
 * wptexturize(): curly quotes, apostrophes, primes, dashes, ellipsis, ' (tm)',
 * 9x9 and bare '&' → &#038;, outside tags and outside pre/code/kbd/style/script/tt.
 * Tags only get their bare '&' encoded; comments are left alone.
 * Registered shortcodes are not recognised (none are assumed to be present).
 */
export function texturize(text: string): string {
  if (text === '' || text === '0') return text;
  const pieces = text.split(TEXTURIZE_SPLIT).filter((p) => p !== '');
  const stack: string[] = [];
  for (let i = 0; i < pieces.length; i++) {
    const piece = pieces[i];
    if (piece[0] === '<') {
      if (piece.startsWith('<!--')) continue;
      pieces[i] = piece.replace(BARE_AMP, '&#038;');
      trackNoTexturize(pieces[i], stack);
    } else if (phpTrim(piece) === '') {
      continue;
    } else if (stack.length === 0) {
      pieces[i] = texturizeText(piece);
    }
  }
  return pieces.join('');
}

// ---------------------------------------------------------------------------
// wpautop
// ---------------------------------------------------------------------------

const ALLBLOCKS =
  '(?:table|thead|tfoot|caption|col|colgroup|tbody|tr|td|th|div|dl|dd|dt|ul|ol|li|pre|form|map|area|blockquote|address|math|style|p|h[1-6]|hr|fieldset|legend|section|article|aside|hgroup|header|footer|nav|figure|figcaption|details|menu|summary)';

/** get_html_split_regex(): comments, CDATA sections and elements (captured). */
const HTML_SPLIT = new RegExp(
  '(<(?:' +
    '(?=!--)!(?:-(?!->)[^-]*)*(?:-->)?' +
    '|(?=!\\[CDATA\\[)!\\[CDATA\\[[^\\]]*(?:\\](?!\\]>)[^\\]]*)*(?:\\]\\]>)?' +
    '|(?!!--|!\\[CDATA\\[)[^>]*>?' +
    '))',
);

const re = (source: string, flags = 'g') => new RegExp(source, flags);

const AUTOP = {
  doubleBr: re(`<br${WS}*/?>${WS}*<br${WS}*/?>`),
  blockOpen: re(`(<${ALLBLOCKS}[${WSC}/>])`),
  blockClose: re(`(</${ALLBLOCKS}>)`),
  hr: re(`(<hr${WS}*?/?>)`),
  optionBefore: re(`${WS}*<option`),
  optionAfter: re(`</option>${WS}*`),
  objectOpen: re(`(<object[^>]*>)${WS}*`),
  objectClose: re(`${WS}*</object>`),
  paramEmbed: re(`${WS}*(</?(?:param|embed)[^>]*>)${WS}*`),
  mediaOpen: re(`([<\\[](?:audio|video)[^>\\]]*[>\\]])${WS}*`),
  mediaClose: re(`${WS}*([<\\[]/(?:audio|video)[>\\]])`),
  sourceTrack: re(`${WS}*(<(?:source|track)[^>]*>)${WS}*`),
  figcaptionOpen: re(`${WS}*(<figcaption[^>]*>)`),
  figcaptionClose: re(`</figcaption>${WS}*`),
  paragraphSplit: re(`\\n${WS}*\\n`, ''),
  emptyP: re(`<p>${WS}*</p>`),
  unclosedP: /<p>([^<]+)<\/(div|address|form)>/g,
  wrappedBlock: re(`<p>${WS}*(</?${ALLBLOCKS}[^>]*>)${WS}*</p>`),
  wrappedLi: /<p>(<li[^\n]+?)<\/p>/g,
  pBlockquote: /<p><blockquote([^>]*)>/gi,
  pBeforeBlock: re(`<p>${WS}*(</?${ALLBLOCKS}[^>]*>)`),
  pAfterBlock: re(`(</?${ALLBLOCKS}[^>]*>)${WS}*</p>`),
  preserveNewlines: /<(script|style|svg|math)[\s\S]*?<\/\1>/g,
  newlineToBr: re(`(?<!<br />)${WS}*\\n`),
  brAfterBlock: re(`(</?${ALLBLOCKS}[^>]*>)${WS}*<br />`),
  brBeforeBlock: re(`<br />(${WS}*</?(?:p|li|div|dl|dd|dt|th|pre|td|ul|ol)[^>]*>)`),
  finalNewline: /\n<\/p>(?=\n?$)/,
};

/** wp_replace_in_html_tags() for a single needle. */
function replaceInHtmlTags(haystack: string, needle: string, replacement: string): string {
  const parts = haystack.split(HTML_SPLIT);
  let changed = false;
  for (let i = 1; i < parts.length; i += 2) {
    if (parts[i].includes(needle)) {
      parts[i] = replaceAll(parts[i], needle, replacement);
      changed = true;
    }
  }
  return changed ? parts.join('') : haystack;
}

/**
 * wpautop(): double line breaks become paragraphs, remaining single ones <br />.
 * Every paragraph is `<p>…</p>` followed by "\n"; blank input gives ''.
 *
 * This is a port of WordPress's PHP wpautop() rather than a call into
 * @wordpress/autop: that package agrees on ordinary text but differs from the
 * PHP function on `<hr>` (no line breaks added after it, which leaves an
 * unbalanced </p>), on second and later <figcaption> elements, and on Unicode
 * whitespace such as NBSP (JavaScript's `\s` matches it, PHP's does not).
 */
export function autop(text: string, br = true): string {
  if (phpTrim(text) === '') return '';

  let t = `${text}\n`;

  // Set <pre> elements aside so nothing below touches them.
  const preTags: Array<[string, string]> = [];
  if (t.includes('<pre')) {
    const parts = t.split('</pre>');
    const last = parts.pop() as string;
    t = '';
    for (const part of parts) {
      const start = part.indexOf('<pre');
      if (start === -1) {
        t += part; // malformed: the closing tag is dropped, as WordPress does
        continue;
      }
      const name = `<pre wp-pre-tag-${preTags.length}></pre>`;
      preTags.push([name, `${part.slice(start)}</pre>`]);
      t += part.slice(0, start) + name;
    }
    t += last;
  }

  t = t.replace(AUTOP.doubleBr, '\n\n');
  t = t.replace(AUTOP.blockOpen, '\n\n$1');
  t = t.replace(AUTOP.blockClose, '$1\n\n');
  t = t.replace(AUTOP.hr, '$1\n\n');
  t = t.replace(/\r\n|\r/g, '\n');
  t = replaceInHtmlTags(t, '\n', ' <!-- wpnl --> ');

  if (t.includes('<option')) {
    t = t.replace(AUTOP.optionBefore, '<option');
    t = t.replace(AUTOP.optionAfter, '</option>');
  }
  if (t.includes('</object>')) {
    t = t.replace(AUTOP.objectOpen, '$1');
    t = t.replace(AUTOP.objectClose, '</object>');
    t = t.replace(AUTOP.paramEmbed, '$1');
  }
  if (t.includes('<source') || t.includes('<track')) {
    t = t.replace(AUTOP.mediaOpen, '$1');
    t = t.replace(AUTOP.mediaClose, '$1');
    t = t.replace(AUTOP.sourceTrack, '$1');
  }
  if (t.includes('<figcaption')) {
    t = t.replace(AUTOP.figcaptionOpen, '$1');
    t = t.replace(AUTOP.figcaptionClose, '</figcaption>');
  }

  t = t.replace(/\n\n+/g, '\n\n');
  t = t
    .split(AUTOP.paragraphSplit)
    .filter((p) => p !== '')
    .map((p) => `<p>${p.replace(/^\n+|\n+$/g, '')}</p>\n`)
    .join('');

  t = t.replace(AUTOP.emptyP, '');
  t = t.replace(AUTOP.unclosedP, '<p>$1</p></$2>');
  t = t.replace(AUTOP.wrappedBlock, '$1');
  t = t.replace(AUTOP.wrappedLi, '$1');
  t = t.replace(AUTOP.pBlockquote, '<blockquote$1><p>');
  t = replaceAll(t, '</blockquote></p>', '</p></blockquote>');
  t = t.replace(AUTOP.pBeforeBlock, '$1');
  t = t.replace(AUTOP.pAfterBlock, '$1');

  if (br) {
    t = t.replace(AUTOP.preserveNewlines, (m) => replaceAll(m, '\n', '<WPPreserveNewline />'));
    t = replaceAll(t, '<br>', '<br />');
    t = replaceAll(t, '<br/>', '<br />');
    t = t.replace(AUTOP.newlineToBr, '<br />\n');
    t = replaceAll(t, '<WPPreserveNewline />', '\n');
  }

  t = t.replace(AUTOP.brAfterBlock, '$1');
  t = t.replace(AUTOP.brBeforeBlock, '$1');
  t = t.replace(AUTOP.finalNewline, '</p>');

  for (const [name, original] of preTags) t = replaceAll(t, name, original);

  if (t.includes('<!-- wpnl -->')) {
    t = replaceAll(t, ' <!-- wpnl --> ', '\n');
    t = replaceAll(t, '<!-- wpnl -->', '\n');
  }
  return t;
}

// ---------------------------------------------------------------------------
// Blocks
// ---------------------------------------------------------------------------

/** A block comment delimiter: <!-- wp:name {"attrs"} -->, <!-- /wp:name -->, <!-- wp:name /--> */
const BLOCK_DELIMITER = re(
  `<!--${WS}+/?wp:(?:[a-z][a-z0-9_-]*/)?[a-z][a-z0-9_-]*${WS}+(?:\\{[\\s\\S]*?\\}${WS}+)?/?-->`,
);

/** has_blocks(). */
export function hasBlocks(raw: string): boolean {
  return raw.includes('<!-- wp:');
}

/**
 * Static-block rendering: the serialized block markup minus its comment
 * delimiters (what render_block() returns for blocks without a render callback).
 */
function renderStaticBlocks(raw: string): string {
  return raw.replace(BLOCK_DELIMITER, '');
}

// ---------------------------------------------------------------------------
// Public renderers
// ---------------------------------------------------------------------------

/**
 * content.rendered: the_content for content without shortcodes.
 * Block content (has `<!-- wp:`): delimiters stripped and no wpautop, as do_blocks() arranges.
 */
export function renderContent(raw: string): string {
  if (hasBlocks(raw)) return capitalPDangit(texturize(renderStaticBlocks(raw)));
  return capitalPDangit(autop(texturize(raw)));
}

/** title.rendered: the_title (texturize, convert_chars, trim, Wordpress → WordPress). No <p>. */
export function renderTitle(raw: string): string {
  return replaceAll(phpTrim(convertChars(texturize(raw))), 'Wordpress', 'WordPress');
}

/** The default excerpt_more. */
export const EXCERPT_MORE = ' [&hellip;]';

/**
 * wp_trim_words() with English word counting: strip tags, split on
 * [\n\r\t ]+, keep `numWords` words and append `more` only when words were dropped.
 */
export function trimWords(text: string, numWords = 55, more = '&hellip;'): string {
  const words = stripAllTags(text)
    .split(/[\n\r\t ]+/)
    .filter((w) => w !== '');
  // PHP's preg_split limit semantics: a negative count means "no limit", which
  // always leaves one piece to drop.
  const cut = numWords >= 0 ? words.length > numWords : true;
  if (!cut) return words.join(' ');
  const kept = numWords >= 0 ? words.slice(0, numWords) : words.slice(0, -1);
  return kept.join(' ') + more;
}

/** wp_trim_excerpt() for an empty excerpt: the content run through the_content, then trimmed. */
function generateExcerpt(rawContent: string, words: number, renderedContent?: () => string): string {
  // excerpt_remove_blocks() renders the blocks, and the_content then runs with
  // do_blocks unhooked, so wpautop is not skipped here even for block content.
  // Without blocks that is renderContent's own work: its result is taken when the caller has it.
  const blocks = hasBlocks(rawContent);
  let text = !blocks && renderedContent ? renderedContent() : capitalPDangit(autop(texturize(blocks ? renderStaticBlocks(rawContent) : rawContent)));
  text = replaceAll(text, ']]>', ']]&gt;');
  return trimWords(text, words, EXCERPT_MORE);
}

/**
 * excerpt.rendered: get_the_excerpt + the_excerpt. A non-blank raw excerpt is
 * used as is; otherwise one is generated from the content (`words` words,
 * default 55, plus ' [&hellip;]' when cut). Either way it is then texturized,
 * convert_chars'ed and wpautop'ed, e.g. '<p>w0 … w54 [&hellip;]</p>\n'.
 * `renderedContent`, when given, must answer renderContent(rawContent) (a cached copy).
 */
export function renderExcerpt(rawExcerpt: string, rawContent: string, words = 55, renderedContent?: () => string): string {
  const excerpt = phpTrim(rawExcerpt) === '' ? generateExcerpt(rawContent, words, renderedContent) : rawExcerpt;
  return autop(convertChars(texturize(excerpt)));
}
