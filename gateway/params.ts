// Request parameters as PHP and WordPress see them: query strings and form bodies with
// `a[]=1&a[]=2` and `a[b]=1` brackets, JSON bodies for JSON content types.
import { WpError } from './errors.js';

type Bag = Record<string, unknown>;

/** PHP's max_input_nesting_level: a name with more brackets than this is dropped, as PHP drops it. */
export const MAX_INPUT_NESTING = 64;

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

/** PHP's parse_str: brackets build arrays and objects; later keys win. */
export function parseQueryString(qs: string | URLSearchParams): Bag {
  const out: Bag = {};
  const entries = typeof qs === 'string' ? new URLSearchParams(qs) : qs;
  for (const [rawKey, value] of entries) {
    const m = /^([^[]+)((?:\[[^\]]*\])*)$/.exec(rawKey);
    if (!m || !m[2]) { put(out, rawKey, value); continue; }
    const keys = [m[1], ...[...m[2].matchAll(/\[([^\]]*)\]/g)].map((k) => k[1])];
    if (keys.length - 1 > MAX_INPUT_NESTING) continue;
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

/** The JSON body, or WordPress's rest_invalid_json error. An empty body is no parameters. */
export function parseJsonBody(body: Buffer | null): Bag {
  if (!body || body.length === 0) return {};
  const text = body.toString('utf8');
  if (!text.trim()) return {};
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (err) {
    throw new WpError('rest_invalid_json', 'Invalid JSON body passed.', 400, { json_error_code: 4, json_error_message: 'Syntax error' });
  }
  // WordPress decodes with PHP's default depth: deeper nesting is its JSON_ERROR_DEPTH (1). Checked
  // here so nothing after (validation, sanitizing, GraphQL variables) recurses that deep.
  if (nestedDeeper(value, JSON_MAX_DEPTH)) {
    throw new WpError('rest_invalid_json', 'Invalid JSON body passed.', 400, { json_error_code: 1, json_error_message: 'Maximum stack depth exceeded' });
  }
  return value && typeof value === 'object' && !Array.isArray(value) ? (value as Bag) : {};
}

/** json_decode's default depth in PHP, which WordPress uses: arrays and objects nested more than this are refused. */
export const JSON_MAX_DEPTH = 512;

/** Whether arrays and objects nest more than `max` levels in a parsed JSON value (walked without recursion). */
export function nestedDeeper(value: unknown, max: number): boolean {
  if (!value || typeof value !== 'object') return false;
  const stack: [object, number][] = [[value, 1]];
  while (stack.length) {
    const [node, depth] = stack.pop()!;
    if (depth > max) return true;
    for (const child of Array.isArray(node) ? node : Object.values(node)) {
      if (child && typeof child === 'object') stack.push([child, depth + 1]);
    }
  }
  return false;
}
