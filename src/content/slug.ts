/**
 * Post slugs as WordPress makes them: sanitize_title() in the 'save' context
 * (remove_accents + sanitize_title_with_dashes) and wp_unique_post_slug().
 */

import { stripTags } from './render.js';

const MAX_SLUG_LENGTH = 200;

// ---------------------------------------------------------------------------
// remove_accents
// ---------------------------------------------------------------------------

/** Characters WordPress folds whose plain letter is not simply their NFD base letter. */
const ACCENT_EXCEPTIONS: Readonly<Record<string, string>> = {
  'ª': 'a', 'º': 'o', 'Æ': 'AE', 'Ð': 'D', 'Ø': 'O', 'Þ': 'TH', 'ß': 's',
  'æ': 'ae', 'ð': 'd', 'ø': 'o', 'þ': 'th',
  'Đ': 'D', 'đ': 'd', 'Ħ': 'H', 'ħ': 'h', 'ı': 'i', 'Ĳ': 'IJ', 'ĳ': 'ij', 'ĸ': 'k',
  'Ŀ': 'L', 'ŀ': 'l', 'Ł': 'L', 'ł': 'l', 'ŉ': 'n', 'Ŋ': 'N', 'ŋ': 'n',
  'Œ': 'OE', 'œ': 'oe', 'Ŧ': 'T', 'ŧ': 't', 'ſ': 's',
  'Ə': 'E', 'ǝ': 'e', 'ɑ': 'a', '€': 'E', '£': '',
};

function codePointRange(from: number, to: number): string {
  let s = '';
  for (let cp = from; cp <= to; cp++) s += String.fromCodePoint(cp);
  return s;
}

/**
 * Every character remove_accents() knows in its default (English) table: the
 * Latin-1 letters, all of Latin Extended-A, a few Latin Extended-B letters, the
 * pinyin caron/diaeresis vowels, the Vietnamese letters U+1EA0–U+1EF9, € and £.
 * Anything else (Greek, Cyrillic, other accented letters) is left alone and
 * ends up percent-encoded in the slug.
 */
const ACCENTED =
  'ªºÀÁÂÃÄÅÆÇÈÉÊËÌÍÎÏÐÑÒÓÔÕÖØÙÚÛÜÝÞßàáâãäåæçèéêëìíîïðñòóôõöøùúûüýþÿ' +
  codePointRange(0x0100, 0x017f) +
  'ƏǝȘșȚțƠơƯư' +
  codePointRange(0x01cd, 0x01dc) +
  'ɑ€£' +
  codePointRange(0x1ea0, 0x1ef9);

function buildAccentTable(): Map<string, string> {
  const table = new Map<string, string>();
  for (const ch of ACCENTED) {
    const folded = ACCENT_EXCEPTIONS[ch] ?? ch.normalize('NFD').replace(/[\u0300-\u036f]/g, '');
    table.set(ch, folded);
  }
  return table;
}

const DEFAULT_ACCENTS = buildAccentTable();

/** Locale-specific overrides remove_accents() applies on top of the default table. */
function accentTableFor(locale: string): Map<string, string> {
  let overrides: Record<string, string> | null = null;
  if (locale.startsWith('de')) {
    overrides = { 'Ä': 'Ae', 'ä': 'ae', 'Ö': 'Oe', 'ö': 'oe', 'Ü': 'Ue', 'ü': 'ue', 'ß': 'ss' };
  } else if (locale === 'da_DK') {
    overrides = { 'Æ': 'Ae', 'æ': 'ae', 'Ø': 'Oe', 'ø': 'oe', 'Å': 'Aa', 'å': 'aa' };
  } else if (locale === 'sr_RS' || locale === 'bs_BA') {
    overrides = { 'Đ': 'DJ', 'đ': 'dj' };
  }
  if (!overrides) return DEFAULT_ACCENTS;
  const table = new Map(DEFAULT_ACCENTS);
  for (const [k, v] of Object.entries(overrides)) table.set(k, v);
  return table;
}

/**
 * remove_accents(): NFC-normalise, then fold the characters of WordPress's
 * table to ASCII (locale 'en_US' unless given; 'de*', 'da_DK', 'ca', 'sr_RS'
 * and 'bs_BA' have their own extra rules, e.g. ß → ss in German).
 */
export function removeAccents(text: string, locale = 'en_US'): string {
  if (!/[^\x00-\x7f]/.test(text)) return text;
  const table = accentTableFor(locale);
  const s = text.normalize('NFC');
  let out = '';
  for (let i = 0; i < s.length; ) {
    if (locale === 'ca' && s.startsWith('l·l', i)) {
      out += 'll';
      i += 3;
      continue;
    }
    const ch = String.fromCodePoint(s.codePointAt(i) as number);
    out += table.get(ch) ?? ch;
    i += ch.length;
  }
  return out;
}

// ---------------------------------------------------------------------------
// utf8_uri_encode
// ---------------------------------------------------------------------------

const encoder = new TextEncoder();

/** PHP rawurlencode() of one ASCII byte. */
function rawUrlEncodeByte(byte: number): string {
  const ch = String.fromCharCode(byte);
  return /[A-Za-z0-9\-_.~]/.test(ch) ? ch : `%${byte.toString(16).toUpperCase().padStart(2, '0')}`;
}

/**
 * utf8_uri_encode(): multi-byte characters become lower-case %xx octets, ASCII
 * stays (or is rawurlencoded when `encodeAscii`). With a `length`, stops before
 * the character that would make the output longer, so no octet group is split.
 */
function utf8UriEncode(bytes: Uint8Array, length = 0, encodeAscii = false): string {
  let out = '';
  let outLength = 0;
  let pending: number[] = [];
  let octets = 1;
  for (const byte of bytes) {
    if (byte < 128) {
      const piece = encodeAscii ? rawUrlEncodeByte(byte) : String.fromCharCode(byte);
      if (length && outLength + piece.length > length) break;
      out += piece;
      outLength += piece.length;
      continue;
    }
    if (pending.length === 0) octets = byte < 224 ? 2 : byte < 240 ? 3 : 4;
    pending.push(byte);
    if (length && outLength + octets * 3 > length) break;
    if (pending.length === octets) {
      for (const b of pending) out += `%${b.toString(16)}`;
      outLength += octets * 3;
      pending = [];
      octets = 1;
    }
  }
  return out;
}

// ---------------------------------------------------------------------------
// sanitize_title_with_dashes (context 'save')
// ---------------------------------------------------------------------------

/** Octets turned into a hyphen: NBSP, en/em dash and the other visible-width spaces. */
const OCTETS_TO_HYPHEN = [
  '%c2%a0', '%e2%80%93', '%e2%80%94',
];
const ENTITIES_TO_HYPHEN = ['&nbsp;', '&#160;', '&ndash;', '&#8211;', '&mdash;', '&#8212;'];
/** Octets removed outright: soft hyphen, ¡ ¿, angle and curly quotes, bullet, © ® ° … ™, stray accents, zero-width and bidi controls, BOM, U+FFFC. */
const OCTETS_TO_STRIP = [
  '%c2%ad', '%c2%a1', '%c2%bf', '%c2%ab', '%c2%bb', '%e2%80%b9', '%e2%80%ba',
  '%e2%80%98', '%e2%80%99', '%e2%80%9c', '%e2%80%9d', '%e2%80%9a', '%e2%80%9b', '%e2%80%9e', '%e2%80%9f',
  '%e2%80%a2', '%c2%a9', '%c2%ae', '%c2%b0', '%e2%80%a6', '%e2%84%a2',
  '%c2%b4', '%cb%8a', '%cc%81', '%cd%81', '%cc%80', '%cc%84', '%cc%8c',
  '%e2%80%8b', '%e2%80%8c', '%e2%80%8d', '%e2%80%8e', '%e2%80%8f',
  '%e2%80%aa', '%e2%80%ab', '%e2%80%ac', '%e2%80%ad', '%e2%80%ae', '%ef%bb%bf', '%ef%bf%bc',
];
/** En/em quads and spaces, thin/hair spaces, line/paragraph separators, narrow NBSP. */
const WIDE_SPACE_OCTETS = [
  '%e2%80%80', '%e2%80%81', '%e2%80%82', '%e2%80%83', '%e2%80%84', '%e2%80%85', '%e2%80%86',
  '%e2%80%87', '%e2%80%88', '%e2%80%89', '%e2%80%8a', '%e2%80%a8', '%e2%80%a9', '%e2%80%af',
];

function replaceEach(s: string, needles: readonly string[], replacement: string): string {
  let out = s;
  for (const needle of needles) if (out.includes(needle)) out = out.split(needle).join(replacement);
  return out;
}

function sanitizeTitleWithDashes(input: string): string {
  let title = stripTags(input);
  // Keep existing %xx octets, drop any other '%'.
  title = title.replace(/%([a-fA-F0-9][a-fA-F0-9])/g, '---$1---');
  title = title.split('%').join('');
  title = title.replace(/---([a-fA-F0-9][a-fA-F0-9])---/g, '%$1');

  // mb_strtolower, then utf8_uri_encode (which leaves nothing upper-case for strtolower).
  title = utf8UriEncode(encoder.encode(title.toLowerCase()), MAX_SLUG_LENGTH);

  title = replaceEach(title, OCTETS_TO_HYPHEN, '-');
  title = replaceEach(title, ENTITIES_TO_HYPHEN, '-');
  title = title.split('/').join('-');
  title = replaceEach(title, OCTETS_TO_STRIP, '');
  title = replaceEach(title, WIDE_SPACE_OCTETS, '-');
  title = title.split('%c3%97').join('x');

  title = title.replace(/&[^\n]+?;/g, '');
  title = title.split('.').join('-');
  title = title.replace(/[^%a-z0-9 _-]/g, '');
  title = title.replace(/[ \t\n\r\f\v]+/g, '-');
  title = title.replace(/-+/g, '-');
  return title.replace(/^-+|-+$/g, '');
}

/**
 * sanitize_title( $title ) as used for post slugs (context 'save'):
 * 'Hello World x!' → 'hello-world-x', 'Crème Brûlée' → 'creme-brulee',
 * '日本' → '%e6%97%a5%e6%9c%ac'. At most 200 characters, never splitting a
 * character's %xx octets. `locale` selects remove_accents()'s locale rules
 * (default 'en_US', where ß → s; pass 'de_DE' for ß → ss, ä → ae …).
 */
export function sanitizeTitle(title: string, locale = 'en_US'): string {
  return sanitizeTitleWithDashes(removeAccents(title, locale));
}

// ---------------------------------------------------------------------------
// wp_unique_post_slug
// ---------------------------------------------------------------------------

/** $wp_rewrite->feeds by default. */
const FEED_NAMES = ['feed', 'rdf', 'rss', 'rss2', 'atom'];

function isReservedSlug(slug: string, kind: SlugKind): boolean {
  if (slug === 'embed' || FEED_NAMES.includes(slug)) return true;
  // Hierarchical types clash with pagination: '2', 'page2'.
  return kind === 'page' && /^(?:page)?\d+$/.test(slug);
}

/** urldecode() on bytes: %xx → byte, '+' → space. */
function urlDecodeBytes(bytes: Uint8Array): Uint8Array {
  const out: number[] = [];
  const isHex = (b: number | undefined) =>
    b !== undefined && ((b >= 48 && b <= 57) || (b >= 65 && b <= 70) || (b >= 97 && b <= 102));
  for (let i = 0; i < bytes.length; i++) {
    const b = bytes[i];
    if (b === 0x25 && isHex(bytes[i + 1]) && isHex(bytes[i + 2])) {
      out.push(parseInt(String.fromCharCode(bytes[i + 1], bytes[i + 2]), 16));
      i += 2;
    } else {
      out.push(b === 0x2b ? 0x20 : b);
    }
  }
  return Uint8Array.from(out);
}

/** _truncate_post_slug(): shorten to `length` without splitting an encoded character, then drop trailing '-'. */
function truncateSlug(slug: string, length: number): string {
  const bytes = encoder.encode(slug);
  let out = slug;
  if (bytes.length > length) {
    const decoded = urlDecodeBytes(bytes);
    const unchanged = decoded.length === bytes.length && decoded.every((b, i) => b === bytes[i]);
    out = unchanged
      ? new TextDecoder().decode(bytes.subarray(0, length))
      : utf8UriEncode(decoded, length, true);
  }
  return out.replace(/-+$/, '');
}

/**
 * wp_unique_post_slug() for a published item: `wanted` if it is free and not
 * reserved, else wanted-2, wanted-3, … (the base shortened so the whole stays
 * within 200 characters). Reserved: 'embed' and the feed names for every kind,
 * plus all-digit and 'page<digits>' slugs for pages. `isTaken` must apply the
 * kind's own uniqueness scope (same post type — and same parent for pages —
 * or, for attachments, any post type).
 */
/** How a type's slugs are reserved: 'page' stands for every hierarchical type. */
export type SlugKind = 'post' | 'page' | 'attachment';

export async function uniqueSlug(
  wanted: string,
  kind: SlugKind,
  isTaken: (slug: string) => Promise<boolean>,
): Promise<string> {
  if (!isReservedSlug(wanted, kind) && !(await isTaken(wanted))) return wanted;
  for (let suffix = 2; ; suffix++) {
    const candidate = `${truncateSlug(wanted, MAX_SLUG_LENGTH - (String(suffix).length + 1))}-${suffix}`;
    if (!(await isTaken(candidate))) return candidate;
  }
}
