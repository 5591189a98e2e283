// HTML filtering on save for callers without `unfiltered_html` (authors, contributors), close to
// WordPress's kses: allowed elements and attributes only, event handlers dropped, a disallowed
// URL scheme cut off (the rest of the value kept), the text of removed elements kept. Markup
// that passes unchanged is stored as written (see onlyReserialised).
import sanitizeHtml from 'sanitize-html';

const COMMON = ['class', 'id', 'style', 'title', 'role', 'lang', 'dir', 'aria-*', 'data-*'];

/** WordPress's $allowedposttags, abridged to the elements editors produce. */
const POST_TAGS: Record<string, string[]> = {
  a: ['href', 'rel', 'rev', 'name', 'target', 'download', 'hreflang'],
  abbr: [], acronym: [], address: [], area: ['alt', 'coords', 'href', 'nohref', 'shape', 'target'],
  article: [], aside: [], audio: ['autoplay', 'controls', 'loop', 'muted', 'preload', 'src'], b: [], bdo: [], big: [],
  blockquote: ['cite'], br: [], button: ['disabled', 'name', 'type', 'value'], caption: ['align'], cite: [], code: [],
  col: ['align', 'span', 'valign', 'width'], colgroup: ['align', 'span', 'valign', 'width'], del: ['datetime'], dd: [],
  dfn: [], details: ['open'], div: ['align'], dl: [], dt: [], em: [], fieldset: [], figure: [], figcaption: [], font: ['color', 'face', 'size'],
  footer: [], h1: ['align'], h2: ['align'], h3: ['align'], h4: ['align'], h5: ['align'], h6: ['align'], header: [], hgroup: [],
  hr: ['align', 'noshade', 'size', 'width'], i: [], img: ['alt', 'align', 'border', 'height', 'hspace', 'loading', 'longdesc', 'vspace', 'src', 'usemap', 'width', 'srcset', 'sizes', 'decoding'],
  ins: ['datetime', 'cite'], kbd: [], label: ['for'], legend: [], li: ['align', 'value'], main: [], map: ['name'], mark: [], menu: ['type'], nav: [],
  object: ['data', 'type'], p: ['align'], pre: ['width'], q: ['cite'], rb: [], rp: [], rt: [], rtc: [], ruby: [], s: [], samp: [], span: ['align'], section: [],
  small: [], strike: [], strong: [], sub: [], summary: [], sup: [], table: ['align', 'bgcolor', 'border', 'cellpadding', 'cellspacing', 'rules', 'summary', 'width'],
  tbody: ['align', 'valign'], td: ['abbr', 'align', 'axis', 'bgcolor', 'colspan', 'headers', 'height', 'nowrap', 'rowspan', 'scope', 'valign', 'width'],
  textarea: ['cols', 'rows', 'disabled', 'name', 'readonly'], tfoot: ['align', 'valign'], th: ['abbr', 'align', 'axis', 'bgcolor', 'colspan', 'headers', 'height', 'nowrap', 'rowspan', 'scope', 'valign', 'width'],
  thead: ['align', 'valign'], time: ['datetime'], tr: ['align', 'bgcolor', 'valign'], track: ['default', 'kind', 'label', 'src', 'srclang'], tt: [], u: [], ul: ['type'], ol: ['start', 'type', 'reversed'], var: [],
  video: ['autoplay', 'controls', 'height', 'loop', 'muted', 'playsinline', 'poster', 'preload', 'src', 'width'],
};

/** The small inline set WordPress allows in titles. */
const TITLE_TAGS: Record<string, string[]> = {
  a: ['href', 'title'], abbr: ['title'], acronym: ['title'], b: [], blockquote: ['cite'], cite: [], code: [], del: ['datetime'], em: [], i: [], q: ['cite'], s: [], strike: [], strong: [],
};

const SCHEMES = ['http', 'https', 'ftp', 'ftps', 'mailto', 'news', 'irc', 'irc6', 'ircs', 'gopher', 'nntp', 'feed', 'telnet', 'mms', 'rtsp', 'sms', 'svn', 'tel', 'fax', 'xmpp', 'webcal', 'urn'];
const URL_ATTRS = ['href', 'src', 'cite', 'action', 'longdesc', 'usemap', 'poster', 'data'];

/**
 * A URL as a browser reads its scheme: character references decoded and the control characters
 * and blanks it skips removed (`&#106;avascript:`, `java&#x09;script:`), as kses normalises it.
 */
function schemeView(value: string): string {
  const decoded = value.replace(/&#(?:x([0-9a-f]+)|(\d+));?|&(colon|tab|newline);/gi, (_m, hex: string, dec: string, name: string) => {
    if (name) return ({ colon: ':', tab: '\t', newline: '\n' } as Record<string, string>)[name.toLowerCase()];
    const code = hex ? parseInt(hex, 16) : Number(dec);
    return code > 0 && code <= 0x10ffff ? String.fromCodePoint(code) : '';
  });
  // eslint-disable-next-line no-control-regex
  return decoded.replace(/[\u0000-\u0020]/g, '');
}

const SCHEME = /^([a-z][a-z0-9+.-]*):/i;

/** Whether a URL's scheme (as a browser reads it) is one kses allows; a URL without one (relative) is. */
export function hasAllowedScheme(url: string): boolean {
  const m = SCHEME.exec(schemeView(url));
  return !m || SCHEMES.includes(m[1].toLowerCase());
}

/** Named references a browser decodes in an attribute before CSS reads it (the punctuation CSS cares about). */
const CSS_ENTITIES: Record<string, string> = {
  lpar: '(', rpar: ')', bsol: '\\', colon: ':', sol: '/', semi: ';', comma: ',', period: '.', quot: '"', apos: "'", amp: '&',
  lt: '<', gt: '>', ast: '*', midast: '*', excl: '!', num: '#', equals: '=', plus: '+', commat: '@', tab: '\t', newline: '\n',
  lsqb: '[', rsqb: ']', lbrack: '[', rbrack: ']', lcub: '{', rcub: '}', lbrace: '{', rbrace: '}', percnt: '%', dollar: '$', lowbar: '_', hyphen: '-', dash: '-',
};

/** A style attribute as CSS sees it: character references decoded. */
function cssView(value: string): string {
  return value.replace(/&#(?:x([0-9a-f]+)|(\d+));?|&([a-z]+);/gi, (m, hex: string, dec: string, name: string) => {
    if (name) return CSS_ENTITIES[name.toLowerCase()] ?? m;
    const code = hex ? parseInt(hex, 16) : Number(dec);
    return code > 0 && code <= 0x10ffff ? String.fromCodePoint(code) : '';
  });
}

/**
 * Whether one declaration of a style attribute can run script or load what kses would not let
 * through, as WordPress's safecss_filter_attr() refuses it: CSS escapes (`\65`), `expression()`,
 * script schemes, bindings and behaviours, and url() with a scheme kses does not allow.
 */
function unsafeDeclaration(declaration: string): boolean {
  if (declaration.includes('\\')) return true;
  // Comments are dropped for the check (old engines joined `expr/**/ession` into one word).
  const flat = declaration.replace(/\/\*[\s\S]*?(\*\/|$)/g, '').replace(/[\s\u0000]+/g, '').toLowerCase();
  if (/expression\(|javascript:|vbscript:|livescript:|-moz-binding|^(-ms-)?behavior:/.test(flat)) return true;
  for (const m of declaration.matchAll(/url\(\s*(['"]?)(.*?)\1\s*\)/gi)) if (!hasAllowedScheme(m[2])) return true;
  return /url\(/i.test(flat) && !/url\(/i.test(declaration.replace(/\/\*[\s\S]*?(\*\/|$)/g, ''));
}

/**
 * A style attribute with its unsafe declarations dropped. Untouched when none is unsafe (kept as
 * written, byte for byte); otherwise the safe declarations, as CSS read them, joined by `;`.
 */
export function filterStyle(value: string): string {
  const declarations = cssView(value).split(';');
  if (!declarations.some(unsafeDeclaration)) return value;
  return declarations.filter((d) => d.trim() && !unsafeDeclaration(d)).map((d) => d.trim()).join('; ');
}

/** kses cuts a disallowed scheme off and keeps what follows: href="javascript:alert(3)" → href="alert(3)". */
function stripBadSchemes(_tag: string, attribs: sanitizeHtml.Attributes) {
  if (attribs.style !== undefined) {
    const style = filterStyle(attribs.style);
    if (style !== attribs.style) {
      if (style) attribs.style = style; else delete attribs.style;
    }
  }
  for (const name of URL_ATTRS) {
    const value = attribs[name];
    if (value === undefined) continue;
    let v = schemeView(value);
    let cut = false;
    for (let m = SCHEME.exec(v); m && !SCHEMES.includes(m[1].toLowerCase()); m = SCHEME.exec(v)) { v = v.slice(m[0].length); cut = true; }
    // Untouched values keep the author's spelling; a cut one is stored as the browser would read it.
    if (cut) attribs[name] = v;
  }
  return { tagName: _tag, attribs };
}

function options(tags: Record<string, string[]>): sanitizeHtml.IOptions {
  return {
    allowedTags: Object.keys(tags),
    allowedAttributes: Object.fromEntries(Object.entries(tags).map(([t, a]) => [t, [...a, ...COMMON]])),
    allowedSchemes: SCHEMES,
    allowedSchemesAppliedToAttributes: URL_ATTRS,
    allowProtocolRelative: true,
    // Style values are checked by filterStyle (in stripBadSchemes) and otherwise kept as written:
    // the sanitiser's own CSS parser would rewrite every one (`color: red` → `color:red`) and drop
    // those it cannot parse (`font-family:&quot;Arial&quot;`).
    parseStyleAttributes: false,
    // kses keeps an empty value (`title=""`) as written; the sanitiser drops it by default.
    nonBooleanAttributes: [],
    disallowedTagsMode: 'discard',
    nonTextTags: [],
    transformTags: { '*': stripBadSchemes },
    parser: { decodeEntities: false },
  };
}

const POST = options(POST_TAGS);
const TITLE = options(TITLE_TAGS);

/**
 * The same parser and serialiser with nothing filtered: every element, attribute, URL and style
 * value kept. Listing each start tag with its attribute names as parsed (before anything is
 * dropped) shows what even this pass drops: attributes with invalid names, unparseable srcset.
 */
function serialiseEverything(html: string): { html: string; tags: string[] } {
  const tags: string[] = [];
  const out = sanitizeHtml(html, {
    allowedTags: false,
    allowedAttributes: false,
    allowVulnerableTags: true,
    allowedSchemesAppliedToAttributes: [],
    parseStyleAttributes: false,
    nonBooleanAttributes: [],
    disallowedTagsMode: 'discard',
    nonTextTags: [],
    parser: { decodeEntities: false },
    transformTags: { '*': (tagName, attribs) => (tags.push(`${tagName} ${Object.keys(attribs).join(' ')}`), { tagName, attribs }) },
  });
  return { html: out, tags };
}

/**
 * Input the serialiser drops whatever the options (comments, `<!…>`/`<?…>` declarations, bogus
 * end tags): never kept as written, the filter's output is stored then, as it always was.
 */
const ALWAYS_DROPPED = /<[!?]|<\/(?![a-z])/i;

/**
 * The two passes print an empty attribute value differently (`title=""` unfiltered, `title` when
 * filtered): the same attribute either way, so they are compared in one spelling.
 */
function emptyValuesBare(html: string): string {
  return html.replace(/ ([^\s"'>/=]+)=""/g, ' $1');
}

/** Start and end tags as written, e.g. ['p', '/p']; a `<` inside an attribute value counts too. */
function tagTokens(html: string): string[] {
  return [...html.matchAll(/<(\/?[a-z][^\s/>]*)/gi)].map((m) => m[1].toLowerCase());
}

function isSubsequence(part: string[], whole: string[]): boolean {
  let i = 0;
  for (const item of whole) if (i < part.length && item === part[i]) i++;
  return i === part.length;
}

/**
 * Whether filtering removed nothing and only re-serialised the input (`<br>` → `<br />`, quotes,
 * escaped `<` and `&`, end tags the parser implies): then the input is stored as written.
 * `guarded` is the input as the filter saw it (block comments replaced by placeholders). Anything
 * also the unfiltered pass drops (attributes, stray end tags) or that browsers read differently
 * (NUL, which the placeholders use) counts as a change.
 */
function onlyReserialised(html: string, guarded: string, filtered: string): boolean {
  if (html.includes('\u0000') || ALWAYS_DROPPED.test(guarded)) return false;
  const everything = serialiseEverything(guarded);
  if (emptyValuesBare(everything.html) !== emptyValuesBare(filtered)) return false;
  if (!isSubsequence(tagTokens(guarded), tagTokens(filtered))) return false;
  const kept = serialiseEverything(filtered).tags;
  return kept.length === everything.tags.length && kept.every((t, i) => t === everything.tags[i]);
}

/** Keeps block comments (`<!-- wp:… -->`), which the sanitiser would drop with all comments. */
export function filterPostHtml(html: string): string {
  if (!html) return html;
  const comments: string[] = [];
  // A browser also ends a comment at `--!>`: a block comment holding one is not kept as it is.
  const guarded = html.replace(/<!--\s*\/?wp:(?:(?!--!?>)[\s\S])*?-->/g, (c) => `\u0000${comments.push(c) - 1}\u0000`);
  const filtered = sanitizeHtml(guarded, POST);
  if (onlyReserialised(html, guarded, filtered)) return html;
  return filtered.replace(/\u0000(\d+)\u0000/g, (_, i) => comments[Number(i)]);
}

export function filterTitleHtml(html: string): string {
  if (!html) return html;
  const filtered = sanitizeHtml(html, TITLE);
  return onlyReserialised(html, html, filtered) ? html : filtered;
}
