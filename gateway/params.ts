// Request parameters as PHP and WordPress see them: query strings and form bodies with
// `a[]=1&a[]=2` and `a[b]=1` brackets, JSON bodies for JSON content types.
import { WpError } from './errors.js';

type Bag = Record<string, unknown>;

/** PHP's parse_str: brackets build arrays and objects; later keys win. */
export function parseQueryString(qs: string | URLSearchParams): Bag {
  const out: Bag = {};
  const entries = typeof qs === 'string' ? new URLSearchParams(qs) : qs;
  for (const [rawKey, value] of entries) {
    const m = /^([^[]+)((?:\[[^\]]*\])*)$/.exec(rawKey);
    if (!m || !m[2]) { out[rawKey] = value; continue; }
    const keys = [m[1], ...[...m[2].matchAll(/\[([^\]]*)\]/g)].map((k) => k[1])];
    let node: Bag | unknown[] = out;
    for (let i = 0; i < keys.length; i++) {
      const last = i === keys.length - 1;
      const key = keys[i];
      if (Array.isArray(node)) {
        if (key === '') {
          if (last) node.push(value);
          else { const child = {}; node.push(child); node = child as Bag; }
          continue;
        }
        // A named key under a list turns it into an object, as PHP arrays are both.
        const asObject: Bag = Object.fromEntries(node.map((v, idx) => [String(idx), v]));
        node.length = 0;
        node = asObject;
      }
      const bag = node as Bag;
      if (last) {
        if (key === '') continue;
        bag[key] = value;
      } else {
        const nextIsList = keys[i + 1] === '';
        if (typeof bag[key] !== 'object' || bag[key] === null) bag[key] = nextIsList ? [] : {};
        node = bag[key] as Bag;
      }
    }
  }
  return out;
}

export function isJsonType(contentType: string | null): boolean {
  if (!contentType) return false;
  const type = contentType.split(';')[0].trim().toLowerCase();
  return type === 'application/json' || type.endsWith('+json');
}

/** The JSON body, or WordPress's rest_invalid_json error. An empty body is no parameters. */
export function parseJsonBody(body: Buffer | null): Bag {
  if (!body || body.length === 0) return {};
  const text = body.toString('utf8');
  if (!text.trim()) return {};
  try {
    const value = JSON.parse(text);
    return value && typeof value === 'object' && !Array.isArray(value) ? value : {};
  } catch (err) {
    throw new WpError('rest_invalid_json', 'Invalid JSON body passed.', 400, { json_error_code: 4, json_error_message: 'Syntax error' });
  }
}
