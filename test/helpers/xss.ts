// The stored-XSS corpus (test/fixtures/xss-vectors.json) and a detector of what in a piece of HTML
// can run script, read with htmlparser2 as a browser would tokenise it.
import { readFileSync } from 'node:fs';
import { Parser } from 'htmlparser2';

export const XSS_VECTORS: string[] = JSON.parse(readFileSync(new URL('../fixtures/xss-vectors.json', import.meta.url), 'utf8'));

/** What a browser's URL parser drops before it reads the scheme: leading C0 controls and spaces, and tabs and newlines anywhere. */
// eslint-disable-next-line no-control-regex
const IGNORED = /^[\u0000-\u0020]+|[\t\n\r]/g;
const URL_ATTRS = new Set(['href', 'src', 'action', 'formaction', 'data', 'poster', 'xlink:href', 'background', 'lowsrc', 'dynsrc', 'cite', 'longdesc', 'usemap', 'codebase', 'to', 'from', 'values', 'ping']);
// <object> is in WordPress's allowed tags (its URL is checked like any other).
const FRAMES = new Set(['iframe', 'frame', 'frameset', 'embed', 'applet', 'base', 'isindex', 'portal']);

const badUrl = (value: string) => {
  const v = value.replace(IGNORED, '').toLowerCase();
  return /^(javascript|vbscript|livescript):/.test(v) || (/^data:/.test(v) && !/^data:image\/(png|gif|jpe?g|webp|avif);/.test(v));
};
/** CSS that runs script (old engines) or loads a script URL, after CSS escapes and comments are read away. */
const badStyle = (css: string) => {
  const read = css.replace(/\\([0-9a-f]{1,6})\s?/gi, (_m, hex: string) => String.fromCodePoint(Math.min(parseInt(hex, 16), 0x10ffff) || 0xfffd)).replace(/\\(.)/g, '$1')
    .replace(/\/\*[\s\S]*?(\*\/|$)/g, '').replace(/\s+/g, '').toLowerCase();
  return /expression\(|javascript:|vbscript:|-moz-binding|behavior:|url\(['"]?data:(?!image\/)/.test(read);
};

/** The executable parts of an HTML document or fragment, one signature each. */
export function executables(html: string): string[] {
  const found: string[] = [];
  let script: { type: string; text: string } | null = null;
  let style = '';
  let inStyle = false;
  const parser = new Parser({
    onopentag(name, attribs) {
      if (name === 'script') { script = { type: (attribs.type ?? '').toLowerCase(), text: '' }; found.push(`script type=${script.type} src=${attribs.src ? 'yes' : 'no'}`); }
      if (name === 'style') { inStyle = true; style = ''; }
      if (FRAMES.has(name)) found.push(name);
      if (name === 'meta' && /refresh/i.test(attribs['http-equiv'] ?? '')) found.push('meta refresh');
      for (const [attr, value] of Object.entries(attribs)) {
        if (attr.startsWith('on')) found.push(`${name}[${attr}]`);
        if (attr === 'srcdoc') found.push(`${name}[srcdoc]`);
        if (URL_ATTRS.has(attr) && badUrl(value)) found.push(`${name}[${attr}] url`);
        if (attr === 'srcset' && value.split(',').some((c) => badUrl(c.trim()))) found.push(`${name}[srcset] url`);
        if (attr === 'style' && badStyle(value)) found.push(`${name}[style]`);
      }
    },
    ontext(text) {
      if (script) script.text += text;
      if (inStyle) style += text;
    },
    onclosetag(name) {
      if (name === 'script' && script) {
        if (script.type === 'application/ld+json') {
          try { JSON.parse(script.text); } catch { found.push('script ld+json broken'); }
        }
        script = null;
      }
      if (name === 'style') { inStyle = false; if (badStyle(style)) found.push('style element'); }
    },
  }, { decodeEntities: true, lowerCaseTags: true, lowerCaseAttributeNames: true, recognizeSelfClosing: true });
  parser.write(html);
  parser.end();
  return found;
}

/** What `found` holds beyond `allowed` (multisets). */
export function beyond(found: string[], allowed: string[]): string[] {
  const left = new Map<string, number>();
  for (const a of allowed) left.set(a, (left.get(a) ?? 0) + 1);
  const extra: string[] = [];
  for (const f of found) {
    const n = left.get(f) ?? 0;
    if (n > 0) left.set(f, n - 1); else extra.push(f);
  }
  return extra;
}

