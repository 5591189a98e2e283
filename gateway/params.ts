// Request parameters as PHP and WordPress see them: query strings and form bodies with
// `a[]=1&a[]=2` and `a[b]=1` brackets, JSON bodies for JSON content types.
import { WpError } from './errors.js';

type Bag = Record<string, unknown>;

/**
 * A key of a bag as PHP has it: `__proto__`, `constructor` and the like are ordinary names, never
 * a way to the object's prototype (`__proto__[x]=1` would otherwise write to Object.prototype).
 */
export function own(bag: Bag, key: string): unknown {
  return Object.hasOwn(bag, key) ? bag[key] : undefined;
}
export function put(bag: Bag, key: string, value: unknown): void {
  Object.defineProperty(bag, key, { value, enumerable: true, writable: true, configurable: true });
}

/** PHP's max_input_nesting_level default. */
const MAX_NESTING = 64;

/** PHP's parse_str: brackets build arrays and objects; later keys win. */
export function parseQueryString(qs: string | URLSearchParams): Bag {
  const out: Bag = {};
  const entries = typeof qs === 'string' ? new URLSearchParams(qs) : qs;
  for (const [rawKey, value] of entries) {
    const m = /^([^[]+)((?:\[[^\]]*\])*)$/.exec(rawKey);
    if (!m || !m[2]) { put(out, rawKey, value); continue; }
    const keys = [m[1], ...[...m[2].matchAll(/\[([^\]]*)\]/g)].map((k) => k[1])];
    // PHP drops a variable nested deeper than max_input_nesting_level (64) altogether.
    if (keys.length - 1 > MAX_NESTING) continue;
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
        put(bag, key, value);
      } else {
        const nextIsList = keys[i + 1] === '';
        const child = own(bag, key);
        if (typeof child !== 'object' || child === null) put(bag, key, nextIsList ? [] : {});
        node = own(bag, key) as Bag;
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

/** PHP's json_decode() default depth: a body nested deeper is refused, as WordPress's is. */
export const JSON_MAX_DEPTH = 512;

/** How deeply arrays and objects nest in JSON text (brackets inside strings do not count). */
function jsonDepth(text: string): number {
  let depth = 0;
  let max = 0;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (inString) {
      if (c === 0x5c) i++; // backslash: skip the escaped character
      else if (c === 0x22) inString = false;
    } else if (c === 0x22) inString = true;
    else if (c === 0x5b || c === 0x7b) { if (++depth > max) max = depth; }
    else if (c === 0x5d || c === 0x7d) depth--;
  }
  return max;
}

/** The JSON body, or WordPress's rest_invalid_json error. An empty body is no parameters. */
export function parseJsonBody(body: Buffer | null): Bag {
  if (!body || body.length === 0) return {};
  const text = body.toString('utf8');
  if (!text.trim()) return {};
  // Checked before parsing: every later step (validation, clamping, cloning) walks the value recursively.
  if (jsonDepth(text) > JSON_MAX_DEPTH) {
    throw new WpError('rest_invalid_json', 'Invalid JSON body passed.', 400, { json_error_code: 1, json_error_message: 'Maximum stack depth exceeded' });
  }
  try {
    const value = JSON.parse(text);
    return value && typeof value === 'object' && !Array.isArray(value) ? value : {};
  } catch (err) {
    throw new WpError('rest_invalid_json', 'Invalid JSON body passed.', 400, { json_error_code: 4, json_error_message: 'Syntax error' });
  }
}
