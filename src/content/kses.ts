// HTML filtering on save for callers without `unfiltered_html` (authors, contributors), close to
// WordPress's kses: allowed elements and attributes only, event handlers dropped, a disallowed
// URL scheme cut off (the rest of the value kept), the text of removed elements kept. Markup
// that passes unchanged is stored as written (see onlyReserialised); otherwise each allowed tag
// is kept as written, or rebuilt as kses rebuilds it when something in it was removed (see
// keepTagsAsWritten).
import { Parser } from 'htmlparser2';
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

/** An attribute of a start tag as written: its name's spelling, its value's source text, its quote (null: unquoted, undefined: no value). */
interface WrittenAttribute { name: string; lower: string; value: string; quote: string | null | undefined }
interface StartTag { name: string; start: number; end: number; attributes: WrittenAttribute[] }

/**
 * The start tags of a document in the order the parser opens them, each with its span in the
 * text (`end` at its `>`) and its attributes; of two with one name the first counts, as for a
 * browser. A start tag the parser only implies (`</p>`, `</br>`) has the span of that end tag.
 */
function startTags(html: string): StartTag[] {
  const tags: StartTag[] = [];
  let attributes: WrittenAttribute[] = [];
  const parser = new Parser({
    onopentagname() { attributes = []; },
    onattribute(name, value, quote) {
      const lower = name.toLowerCase();
      if (!attributes.some((a) => a.lower === lower)) attributes.push({ name, lower, value, quote });
    },
    onopentag(name) {
      tags.push({ name, start: parser.startIndex, end: parser.endIndex, attributes });
      attributes = [];
    },
  }, { decodeEntities: false, lowerCaseAttributeNames: false });
  parser.write(html);
  parser.end();
  return tags;
}

/** An attribute value as the sanitiser writes it between double quotes (parsed without decoding). */
function escapedValue(value: string): string {
  return value.replace(/&(?![a-zA-Z0-9#]{1,20};)/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');
}

/**
 * An attribute kept as kses writes it (wp_kses_hair's "whole"): the name as written, a quoted
 * value in its own quotes, an unquoted one put in double quotes, a valueless one bare.
 */
function keptAttribute(a: WrittenAttribute): string {
  if (a.quote === undefined) return a.name;
  if (a.quote === "'") return `${a.name}='${a.value}'`;
  // An unquoted value may hold a double quote (the browser reads it as part of the value).
  return `${a.name}="${a.quote === '"' ? a.value : escapedValue(a.value)}"`;
}

/**
 * One start tag of the output: as the author wrote it when the filter kept every attribute with
 * its value, else rebuilt as wp_kses_attr() rebuilds a tag: the element name as written, the
 * kept attributes in their order (a value the filter changed in double quotes), and ` /` before
 * the `>` only when the written tag ended with a slash (its "xhtml_slash"), so no slash is added
 * to a `<img …>` written without one.
 */
function tagAsWritten(input: string, written: StartTag, output: string, served: StartTag): string {
  const source = input.slice(written.start, written.end + 1);
  const sanitised = output.slice(served.start, served.end + 1);
  // An implied tag (from `</p>` or `</br>`) has no text of its own to keep.
  if (!/^<[a-z]/i.test(source) || !source.endsWith('>') || source.slice(1, 1 + served.name.length).toLowerCase() !== served.name) return sanitised;
  // A value holding `<` or `>` is never kept as written: text processed after the filter (the
  // rendering's regular expressions) could take them for markup; the sanitiser's escaped form is
  // kept instead (wp_kses_attr removes them for the same reason).
  const unchanged = (a: StartTag['attributes'][number], w: WrittenAttribute | undefined) => !!w && !/[<>]/.test(w.value) && escapedValue(w.value) === a.value;
  const byName = new Map(written.attributes.map((w) => [w.lower, w]));
  if (served.attributes.length === written.attributes.length
    && served.attributes.every((a, i) => a.lower === written.attributes[i].lower && unchanged(a, written.attributes[i]))) return source;
  let tag = `<${source.slice(1, 1 + served.name.length)}`;
  for (const a of served.attributes) {
    const w = byName.get(a.lower);
    if (unchanged(a, w)) tag += ` ${keptAttribute(w!)}`;
    else tag += a.quote === undefined ? ` ${w?.name ?? a.name}` : ` ${w?.name ?? a.name}="${a.value}"`;
  }
  return `${tag}${/\/\s*$/.test(source.slice(0, -1)) ? ' /' : ''}>`;
}

/** What a browser reads from a document: elements with their attributes (decoded), text, end tags. */
function markupEvents(html: string): string {
  const events: unknown[] = [];
  let text = '';
  const flush = () => { if (text) events.push(text); text = ''; };
  const parser = new Parser({
    onopentag(name, attribs) { flush(); events.push(['<', name, Object.entries(attribs)]); },
    onclosetag(name) { flush(); events.push(['/', name]); },
    ontext(t) { text += t; },
  }, { decodeEntities: true });
  parser.write(html);
  parser.end();
  flush();
  return JSON.stringify(events);
}

/**
 * The filtered document with each allowed start tag as the author wrote it, or rebuilt as kses
 * does when something in it was removed (see tagAsWritten): the sanitiser writes every tag anew
 * (`<br>` → `<br />`, `class=a` → `class="a"`), where WordPress's kses keeps what it does not
 * remove. Text and end tags stay as the sanitiser wrote them. The output tag j is the input's
 * j-th start tag of an allowed element (the sanitiser drops the others and adds none); if that
 * does not hold, or the result does not read exactly as the sanitiser's output, that is kept.
 */
function keepTagsAsWritten(input: string, output: string, allowed: Set<string>): string {
  const written = startTags(input).filter((t) => allowed.has(t.name));
  const served = startTags(output);
  if (written.length !== served.length || written.some((t, i) => t.name !== served[i].name)) return output;
  let result = '';
  let at = 0;
  served.forEach((tag, i) => {
    result += output.slice(at, tag.start) + tagAsWritten(input, written[i], output, tag);
    at = tag.end + 1;
  });
  result += output.slice(at);
  return result === output || markupEvents(result) === markupEvents(output) ? result : output;
}

const POST_ALLOWED = new Set(Object.keys(POST_TAGS));
const TITLE_ALLOWED = new Set(Object.keys(TITLE_TAGS));

/** Keeps block comments (`<!-- wp:… -->`), which the sanitiser would drop with all comments. */
export function filterPostHtml(html: string): string {
  if (!html) return html;
  const comments: string[] = [];
  // A browser also ends a comment at `--!>`: a block comment holding one is not kept as it is.
  const guarded = html.replace(/<!--\s*\/?wp:(?:(?!--!?>)[\s\S])*?-->/g, (c) => `\u0000${comments.push(c) - 1}\u0000`);
  const filtered = sanitizeHtml(guarded, POST);
  if (onlyReserialised(html, guarded, filtered)) return html;
  return keepTagsAsWritten(guarded, filtered, POST_ALLOWED).replace(/\u0000(\d+)\u0000/g, (_, i) => comments[Number(i)]);
}

export function filterTitleHtml(html: string): string {
  if (!html) return html;
  const filtered = sanitizeHtml(html, TITLE);
  return onlyReserialised(html, html, filtered) ? html : keepTagsAsWritten(html, filtered, TITLE_ALLOWED);
}
