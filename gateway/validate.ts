// Validation and sanitisation of WordPress-style REST argument schemas.
//
// Behaviour follows rest_validate_value_from_schema() / rest_sanitize_value_from_schema() in
// wp-includes/rest-api.php (WordPress 6.x): the same type coercions, the same order of checks,
// the same error codes, English messages and error data. The implementation is our own.
//
// Values are modelled the way PHP sees a decoded request: JS arrays are PHP lists, plain JS
// objects are PHP associative arrays (so an object whose keys are all integers is also a list,
// and any list is also an object, exactly as with PHP arrays).
//
// Deliberate differences from WordPress, all at the edges:
//  - validateValue() also runs the sanitise step afterwards and returns its error, the way
//    rest_parse_request_arg() does. The only error the sanitiser adds is `rest_duplicate_items`
//    when items become equal once coerced (e.g. ["1", 1] for a uniqueItems integer array).
//    WordPress reports that from sanitize_params() with the same code, message and shape.
//    When this happens in a nested array, WordPress quietly stores a WP_Error object inside the
//    value. Here the error is passed up and reported instead.
//  - JS has one number type, so PHP's int/float difference is guessed: a number that is a safe
//    integer counts as an int. PHP would treat the float 1.0 differently from the int 1 in
//    rest_is_boolean() and in uniqueItems; here they are treated the same.
//  - The date-time format checks the same regular expression as rest_parse_date(). strtotime()
//    is replaced by range checks on the date fields (see isRfc3339Date).
//  - `pattern` / `patternProperties` are run as JavaScript regular expressions (with the `u`
//    flag when the pattern allows it) rather than PCRE.
//  - sanitize_text_field(), sanitize_textarea_field() and esc_url_raw() are simplified ports
//    (see the comments at their implementations).
//  - An object sanitised from "" or from a non-object gives {} (PHP gives an empty array,
//    which encodes as []).

import { escHtml } from '../src/content/escape.js';

export interface ArgSchema {            // JSON-schema subset WordPress uses in route args
  type?: string | string[];             // 'string'|'integer'|'number'|'boolean'|'array'|'object'|'null', or a list
  format?: string;                      // 'date-time'|'uri'|'email'|'ip'|'uuid'|'hex-color'|'text-field'|'textarea-field'
  enum?: unknown[];
  items?: ArgSchema;
  properties?: Record<string, ArgSchema>;
  additionalProperties?: boolean | ArgSchema;
  patternProperties?: Record<string, ArgSchema>;
  minProperties?: number; maxProperties?: number;
  minimum?: number; maximum?: number; exclusiveMinimum?: boolean; exclusiveMaximum?: boolean;
  multipleOf?: number;
  minLength?: number; maxLength?: number; pattern?: string;
  minItems?: number; maxItems?: number; uniqueItems?: boolean;
  anyOf?: ArgSchema[]; oneOf?: ArgSchema[];
  required?: boolean | string[];        // boolean at top level/nested (old style), string[] (draft-4 style) on objects
  default?: unknown;
  description?: string; title?: string; context?: string[]; readonly?: boolean;
  [key: string]: unknown;
}

export interface ArgError { code: string; message: string; data: unknown }

const ALLOWED_TYPES = ['array', 'object', 'string', 'number', 'integer', 'boolean', 'null'];

/** An internal WP_Error stand-in, distinguishable from any schema or sanitised value. */
class Failure {
  constructor(readonly error: ArgError) {}
}

// ---------------------------------------------------------------------------------------------
// Public API

/** Validate `value` against `schema`; `param` is the name used in messages. Returns null when valid. */
export function validateValue(value: unknown, schema: ArgSchema, param: string): ArgError | null {
  const checked = checkValue(value, schema, param);
  return 'error' in checked ? checked.error : null;
}

/**
 * Validates `value`, then sanitises it (WordPress's two steps for one argument): the error, or the
 * value as `sanitizeValue` would give it.
 */
export function checkValue(value: unknown, schema: ArgSchema, param: string): { error: ArgError } | { value: unknown } {
  const error = validate(value, schema, param);
  if (error) return { error };
  // The sanitise step may still refuse the value (uniqueItems after coercion).
  const sanitized = sanitize(value, schema, param);
  return sanitized instanceof Failure ? { error: sanitized.error } : { value: sanitized };
}

/** Sanitise an already-valid value, coercing it to the schema's type the way WordPress does. */
export function sanitizeValue(value: unknown, schema: ArgSchema, param: string): unknown {
  const sanitized = sanitize(value, schema, param);
  // Only reachable when the value was not validated first. Return it unchanged then.
  return sanitized instanceof Failure ? value : sanitized;
}

/** rest_is_boolean(): true, false, "true", "false", "1", "0" (any case), 1, 0. */
export function isBooleanLike(v: unknown): boolean {
  if (typeof v === 'boolean') return true;
  if (typeof v === 'string') {
    const lower = v.toLowerCase();
    return lower === 'false' || lower === 'true' || lower === '0' || lower === '1';
  }
  if (typeof v === 'number' && isPhpInt(v)) return v === 0 || v === 1;
  return false;
}

/** rest_sanitize_boolean(): "false"/"0" (any case) are false, everything else is PHP's (bool) cast. */
export function toBoolean(v: unknown): boolean {
  if (typeof v === 'string') {
    const lower = v.toLowerCase();
    if (lower === 'false' || lower === '0') return false;
    return lower !== '';
  }
  return phpTruthy(v);
}

/** wp_parse_list(): scalars are split on commas and whitespace; arrays keep their scalar items. */
export function parseList(v: unknown): unknown[] {
  if (Array.isArray(v)) return v.filter(isScalar);
  if (isPlainObject(v)) return Object.values(v).filter(isScalar);
  if (isNull(v)) return [];
  return phpToString(v).split(/[ \t\n\v\f\r,]+/).filter((s) => s !== '');
}

/**
 * rest_parse_date(): YYYY-MM-DD[Tt ]HH:MM:SS[.frac] with an optional Z or ±HH[:MM].
 * Beyond the regular expression, strtotime() also refuses impossible fields. This is
 * approximated with range checks: month 0-12, day 0-31, hour 0-24, minute 0-59, second 0-60.
 * Those are the ranges PHP's date parser accepts. A day past the end of its month rolls over
 * in PHP, and it is accepted here too.
 */
export function isRfc3339Date(v: string): boolean {
  if (typeof v !== 'string') return false;
  // The PCRE `$` of the original also matches before one trailing newline.
  const m = /^(\d{4})-(\d{2})-(\d{2})[Tt ](\d{2}):(\d{2}):(\d{2})(?:\.\d+)?(?:Z|[+-]\d{2}(?::\d{2})?)?\n?$/.exec(v);
  if (!m) return false;
  const [month, day, hour, minute, second] = [m[2], m[3], m[4], m[5], m[6]].map(Number);
  return month <= 12 && day <= 31 && hour <= 24 && minute <= 59 && second <= 60;
}

// ---------------------------------------------------------------------------------------------
// Validation (rest_validate_value_from_schema and helpers)

function error(code: string, message: string, data: unknown = null): ArgError {
  return { code, message, data };
}

function typeError(param: string, type: string): ArgError {
  return error('rest_invalid_type', `${param} is not of type ${type}.`, { param });
}

function validate(value: unknown, schema: ArgSchema, param: string): ArgError | null {
  let type: unknown = schema.type;

  if (isSet(schema.anyOf)) {
    const match = findAnyMatchingSchema(value, schema, param);
    if (match instanceof Failure) return match.error;
    if (!isSet(type) && isSet(match.type)) type = match.type;
  }

  if (isSet(schema.oneOf)) {
    const match = findOneMatchingSchema(value, schema, param);
    if (match instanceof Failure) return match.error;
    if (!isSet(type) && isSet(match.type)) type = match.type;
  }

  if (Array.isArray(type)) {
    const best = handleMultiTypeSchema(value, type);
    if (!best) return typeError(param, type.map(phpToString).join(','));
    type = best;
  }

  const args: ArgSchema = isSet(type) ? { ...schema, type: type as string } : schema;

  let result: ArgError | null = null;
  switch (type) {
    case 'null': result = isNull(value) ? null : typeError(param, 'null'); break;
    case 'boolean': result = isBooleanLike(value) ? null : typeError(param, 'boolean'); break;
    case 'object': result = validateObject(value, args, param); break;
    case 'array': result = validateArray(value, args, param); break;
    case 'number': result = validateNumber(value, args, param, 'number'); break;
    case 'string': result = validateString(value, args, param); break;
    case 'integer': result = validateInteger(value, args, param); break;
    default: result = null;
  }
  if (result) return result;

  if (!phpEmpty(args.enum)) {
    const enumError = validateEnum(value, args, param);
    if (enumError) return enumError;
  }

  // "format" only applies to strings, or (for back-compat) when the type is missing or unknown.
  if (isSet(args.format) && appliesFormat(type)) {
    switch (args.format) {
      case 'hex-color':
        if (!isHexColor(value)) return error('rest_invalid_hex_color', 'Invalid hex color.');
        break;
      case 'date-time':
        if (!isScalar(value) || !isRfc3339Date(phpToString(value))) return error('rest_invalid_date', 'Invalid date.');
        break;
      case 'email':
        if (!isScalar(value) || !isEmail(phpToString(value))) return error('rest_invalid_email', 'Invalid email address.');
        break;
      case 'ip':
        if (!isScalar(value) || !isIpAddress(phpToString(value))) return error('rest_invalid_ip', `${param} is not a valid IP address.`);
        break;
      case 'uuid':
        if (!isUuid(value)) return error('rest_invalid_uuid', `${param} is not a valid UUID.`);
        break;
      // 'uri', 'text-field' and 'textarea-field' are only sanitised, never validated.
    }
  }

  return null;
}

function appliesFormat(type: unknown): boolean {
  return !isSet(type) || type === 'string' || !ALLOWED_TYPES.includes(type as string);
}

function validateObject(value: unknown, args: ArgSchema, param: string): ArgError | null {
  if (!isObjectLike(value)) return typeError(param, 'object');
  const entries = objectEntries(value);
  const present = new Set(entries.map(([k]) => k));

  if (Array.isArray(args.required)) {
    for (const name of args.required) {
      const key = phpToString(name);
      if (!present.has(key)) return error('rest_property_required', `${key} is a required property of ${param}.`);
    }
  } else if (isSet(args.properties) && typeof args.properties === 'object') {
    for (const [name, property] of Object.entries(args.properties)) {
      if (isPlainObject(property) && property.required === true && !present.has(name)) {
        return error('rest_property_required', `${name} is a required property of ${param}.`);
      }
    }
  }

  for (const [key, v] of entries) {
    const childParam = `${param}[${key}]`;
    const propertySchema = ownSchema(args.properties, key);
    if (propertySchema) {
      const e = validate(v, propertySchema, childParam);
      if (e) return e;
      continue;
    }
    const patternSchema = findPatternPropertySchema(key, args);
    if (patternSchema) {
      const e = validate(v, patternSchema, childParam);
      if (e) return e;
      continue;
    }
    if (isSet(args.additionalProperties)) {
      if (args.additionalProperties === false) {
        return error('rest_additional_properties_forbidden', `${key} is not a valid property of Object.`);
      }
      if (typeof args.additionalProperties === 'object') {
        const e = validate(v, args.additionalProperties as ArgSchema, childParam);
        if (e) return e;
      }
    }
  }

  const count = entries.length;
  if (isSet(args.minProperties) && count < Number(args.minProperties)) {
    const n = args.minProperties;
    return error('rest_too_few_properties', `${param} must contain at least ${numberFormat(n)} ${plural(n, 'property', 'properties')}.`);
  }
  if (isSet(args.maxProperties) && count > Number(args.maxProperties)) {
    const n = args.maxProperties;
    return error('rest_too_many_properties', `${param} must contain at most ${numberFormat(n)} ${plural(n, 'property', 'properties')}.`);
  }
  return null;
}

function validateArray(value: unknown, args: ArgSchema, param: string): ArgError | null {
  if (!isArrayLike(value)) return typeError(param, 'array');
  const items = toList(value);

  if (isSet(args.items)) {
    for (let i = 0; i < items.length; i++) {
      const e = validate(items[i], args.items as ArgSchema, `${param}[${i}]`);
      if (e) return e;
    }
  }

  if (isSet(args.minItems) && items.length < Number(args.minItems)) {
    const n = args.minItems;
    return error('rest_too_few_items', `${param} must contain at least ${numberFormat(n)} ${plural(n, 'item', 'items')}.`);
  }
  if (isSet(args.maxItems) && items.length > Number(args.maxItems)) {
    const n = args.maxItems;
    return error('rest_too_many_items', `${param} must contain at most ${numberFormat(n)} ${plural(n, 'item', 'items')}.`);
  }
  if (!phpEmpty(args.uniqueItems) && !hasUniqueItems(items)) {
    return error('rest_duplicate_items', `${param} has duplicate items.`);
  }
  return null;
}

function validateNumber(value: unknown, args: ArgSchema, param: string, typeName: string): ArgError | null {
  if (!isPhpNumeric(value)) return typeError(param, typeName);
  const num = phpFloatCast(value);

  if (isSet(args.multipleOf) && num % Number(args.multipleOf) !== 0) {
    return error('rest_invalid_multiple', `${param} must be a multiple of ${phpToString(args.multipleOf)}.`);
  }

  const hasMin = isSet(args.minimum);
  const hasMax = isSet(args.maximum);
  const min = Number(args.minimum);
  const max = Number(args.maximum);
  const exMin = !phpEmpty(args.exclusiveMinimum);
  const exMax = !phpEmpty(args.exclusiveMaximum);
  const d = (n: unknown) => String(phpIntCast(n)); // sprintf's %d

  if (hasMin && !hasMax) {
    if (exMin && num <= min) return error('rest_out_of_bounds', `${param} must be greater than ${d(args.minimum)}`);
    if (!exMin && num < min) return error('rest_out_of_bounds', `${param} must be greater than or equal to ${d(args.minimum)}`);
  }
  if (hasMax && !hasMin) {
    if (exMax && num >= max) return error('rest_out_of_bounds', `${param} must be less than ${d(args.maximum)}`);
    if (!exMax && num > max) return error('rest_out_of_bounds', `${param} must be less than or equal to ${d(args.maximum)}`);
  }
  if (hasMin && hasMax) {
    const below = exMin ? num <= min : num < min;
    const above = exMax ? num >= max : num > max;
    if (below || above) {
      const lo = exMin ? 'exclusive' : 'inclusive';
      const hi = exMax ? 'exclusive' : 'inclusive';
      return error('rest_out_of_bounds', `${param} must be between ${d(args.minimum)} (${lo}) and ${d(args.maximum)} (${hi})`);
    }
  }
  return null;
}

function validateInteger(value: unknown, args: ArgSchema, param: string): ArgError | null {
  const numberError = validateNumber(value, args, param, 'integer');
  if (numberError) return numberError;
  if (!isIntegerLike(value)) return typeError(param, 'integer');
  return null;
}

function validateString(value: unknown, args: ArgSchema, param: string): ArgError | null {
  if (typeof value !== 'string') return typeError(param, 'string');
  const length = Array.from(value).length; // mb_strlen: code points
  if (isSet(args.minLength) && length < Number(args.minLength)) {
    const n = args.minLength;
    return error('rest_too_short', `${param} must be at least ${numberFormat(n)} ${plural(n, 'character', 'characters')} long.`);
  }
  if (isSet(args.maxLength) && length > Number(args.maxLength)) {
    const n = args.maxLength;
    return error('rest_too_long', `${param} must be at most ${numberFormat(n)} ${plural(n, 'character', 'characters')} long.`);
  }
  if (isSet(args.pattern) && !matchesPattern(phpToString(args.pattern), value)) {
    return error('rest_invalid_pattern', `${param} does not match pattern ${phpToString(args.pattern)}.`);
  }
  return null;
}

function validateEnum(value: unknown, args: ArgSchema, param: string): ArgError | null {
  const sanitized = sanitize(value, args, param);
  if (sanitized instanceof Failure) return sanitized.error;
  const options = args.enum as unknown[];
  if (!Array.isArray(options)) return null;
  if (options.some((option) => valuesEqual(sanitized, option))) return null;
  const shown = options.map((option) => (isScalar(option) ? phpToString(option) : phpJsonEncode(option)));
  if (shown.length === 1) return error('rest_not_in_enum', `${param} is not ${shown[0]}.`);
  return error('rest_not_in_enum', `${param} is not one of ${listJoin(shown)}.`);
}

// anyOf / oneOf ----------------------------------------------------------------------------------

interface CombiningFailure { error: ArgError; schema: ArgSchema; index: number }

function subSchemas(list: unknown): ArgSchema[] {
  return Array.isArray(list) ? list : isPlainObject(list) ? (Object.values(list) as ArgSchema[]) : [];
}

function withInheritedType(sub: ArgSchema, parent: ArgSchema): ArgSchema {
  const s: ArgSchema = isPlainObject(sub) ? sub : {};
  return !isSet(s.type) && isSet(parent.type) ? { ...s, type: parent.type } : s;
}

function findAnyMatchingSchema(value: unknown, args: ArgSchema, param: string): ArgSchema | Failure {
  const failures: CombiningFailure[] = [];
  const list = subSchemas(args.anyOf);
  for (let index = 0; index < list.length; index++) {
    const schema = withInheritedType(list[index], args);
    const e = validate(value, schema, param);
    if (!e) return schema;
    failures.push({ error: e, schema, index });
  }
  return new Failure(combiningOperationError(value, param, failures));
}

function findOneMatchingSchema(value: unknown, args: ArgSchema, param: string): ArgSchema | Failure {
  const matches: { schema: ArgSchema; index: number }[] = [];
  const failures: CombiningFailure[] = [];
  const list = subSchemas(args.oneOf);
  for (let index = 0; index < list.length; index++) {
    const schema = withInheritedType(list[index], args);
    const e = validate(value, schema, param);
    if (e) failures.push({ error: e, schema, index });
    else matches.push({ schema, index });
  }

  if (matches.length === 0) return new Failure(combiningOperationError(value, param, failures));

  if (matches.length > 1) {
    const positions = matches.map((m) => m.index);
    const titles = matches.filter((m) => isSet(m.schema.title)).map((m) => phpToString(m.schema.title));
    if (titles.length === matches.length) {
      return new Failure(error('rest_one_of_multiple_matches', `${param} matches ${listJoin(titles)}, but should match only one.`, { positions }));
    }
    return new Failure(error('rest_one_of_multiple_matches', `${param} matches more than one of the expected formats.`, { positions }));
  }

  return matches[0].schema;
}

function formatCombiningError(param: string, failure: CombiningFailure): ArgError {
  const reason = failure.error.message;
  if (isSet(failure.schema.title)) {
    return error('rest_no_matching_schema', `${param} is not a valid ${phpToString(failure.schema.title)}. Reason: ${reason}`, { position: failure.index });
  }
  return error('rest_no_matching_schema', `${param} does not match the expected format. Reason: ${reason}`, { position: failure.index });
}

function combiningOperationError(value: unknown, param: string, failures: CombiningFailure[]): ArgError {
  if (failures.length === 1) return formatCombiningError(param, failures[0]);

  // Type mismatches of the value itself say little; prefer any other reason.
  const meaningful = failures.filter((f) => {
    if (f.error.code !== 'rest_invalid_type') return true;
    const data = f.error.data as { param?: unknown } | null;
    return isPlainObject(data) && isSet(data.param) && data.param !== param;
  });
  if (meaningful.length === 1) return formatCombiningError(param, meaningful[0]);

  // Several object schemas failed: pick the one sharing the most property names with the value.
  if (meaningful.length > 1 && meaningful[0].schema.type === 'object') {
    let best: CombiningFailure | null = null;
    let bestCount = 0;
    const keys = isObjectLike(value) ? new Set(objectEntries(value).map(([k]) => k)) : new Set<string>();
    for (const failure of meaningful) {
      const properties = failure.schema.properties;
      if (!isSet(properties) || typeof properties !== 'object') continue;
      const n = Object.keys(properties).filter((k) => keys.has(k)).length;
      if (n > bestCount) { best = failure; bestCount = n; }
    }
    if (best) return formatCombiningError(param, best);
  }

  const titles = failures.filter((f) => isSet(f.schema.title)).map((f) => phpToString(f.schema.title));
  if (titles.length === failures.length) {
    // wp_sprintf's %l yields '' for an empty list, eating the trailing period with it.
    const list = titles.length ? `${listJoin(titles)}.` : '';
    return error('rest_no_matching_schema', `${param} is not a valid ${list}`);
  }
  return error('rest_no_matching_schema', `${param} does not match any of the expected formats.`);
}

// Multiple types -----------------------------------------------------------------------------

function bestTypeForValue(value: unknown, types: unknown[]): string {
  // "" converts to an empty array or object as well, but a string is the better answer.
  if (value === '' && types.includes('string')) return 'string';
  for (const type of types) {
    switch (type) {
      case 'array': if (isArrayLike(value)) return type; break;
      case 'object': if (isObjectLike(value)) return type; break;
      case 'integer': if (isIntegerLike(value)) return type; break;
      case 'number': if (isPhpNumeric(value)) return type; break;
      case 'boolean': if (isBooleanLike(value)) return type; break;
      case 'string': if (typeof value === 'string') return type; break;
      case 'null': if (isNull(value)) return type; break;
    }
  }
  return '';
}

function handleMultiTypeSchema(value: unknown, types: unknown[]): string {
  const best = bestTypeForValue(value, types);
  if (best) return best;
  // Back-compat: an unknown type in the list lets any value through.
  const unknown = types.find((t) => !ALLOWED_TYPES.includes(phpToString(t)));
  return unknown === undefined ? '' : phpToString(unknown);
}

// ---------------------------------------------------------------------------------------------
// Sanitisation (rest_sanitize_value_from_schema)

function sanitize(value: unknown, schema: ArgSchema, param: string): unknown {
  let type: unknown = schema.type;

  if (isSet(schema.anyOf)) {
    const match = findAnyMatchingSchema(value, schema, param);
    if (match instanceof Failure) return match;
    if (!isSet(type)) type = match.type;
    value = sanitize(value, match, param);
    if (value instanceof Failure) return value;
  }

  if (isSet(schema.oneOf)) {
    const match = findOneMatchingSchema(value, schema, param);
    if (match instanceof Failure) return match;
    if (!isSet(type)) type = match.type;
    value = sanitize(value, match, param);
    if (value instanceof Failure) return value;
  }

  if (Array.isArray(type)) {
    const best = handleMultiTypeSchema(value, type);
    if (!best) return null;
    type = best;
  }

  if (type === 'array') {
    let items = toList(value);
    if (!phpEmpty(schema.items)) {
      const out: unknown[] = [];
      for (let i = 0; i < items.length; i++) {
        const item = sanitize(items[i], schema.items as ArgSchema, `${param}[${i}]`);
        if (item instanceof Failure) return item;
        out.push(item);
      }
      items = out;
    }
    if (!phpEmpty(schema.uniqueItems) && !hasUniqueItems(items)) {
      return new Failure(error('rest_duplicate_items', `${param} has duplicate items.`));
    }
    return items;
  }

  if (type === 'object') return sanitizeObject(value, schema, param);
  if (type === 'null') return null;
  if (type === 'integer') return phpIntCast(value);
  if (type === 'number') return phpFloatCast(value);
  if (type === 'boolean') return toBoolean(value);

  if (isSet(schema.format) && appliesFormat(type)) {
    switch (schema.format) {
      case 'hex-color': return isHexColor(value) ? phpToString(value) : '';
      case 'date-time':
      case 'email': // WordPress deliberately avoids sanitize_email() here; nothing is lowercased.
      case 'ip':
      case 'uuid':
      case 'text-field':
        return sanitizeTextField(value, false);
      case 'textarea-field':
        return sanitizeTextField(value, true);
      case 'uri':
        return escUrlRaw(value);
    }
  }

  if (type === 'string') return phpToString(value);
  return value;
}

function sanitizeObject(value: unknown, schema: ArgSchema, param: string): unknown {
  if (!isObjectLike(value) || value === '') return {};
  const entries = objectEntries(value);
  const kept: [string, unknown][] = [];
  for (const [key, v] of entries) {
    const childParam = `${param}[${key}]`;
    const propertySchema = ownSchema(schema.properties, key);
    const target = propertySchema ?? findPatternPropertySchema(key, schema);
    if (target) {
      const s = sanitize(v, target, childParam);
      if (s instanceof Failure) return s;
      kept.push([key, s]);
      continue;
    }
    if (isSet(schema.additionalProperties)) {
      if (schema.additionalProperties === false) continue; // dropped
      if (typeof schema.additionalProperties === 'object') {
        const s = sanitize(v, schema.additionalProperties as ArgSchema, childParam);
        if (s instanceof Failure) return s;
        kept.push([key, s]);
        continue;
      }
    }
    kept.push([key, v]);
  }
  // A PHP list that stays a list keeps encoding as a JSON array.
  if (Array.isArray(value) && kept.every(([k], i) => k === String(i))) return kept.map(([, v]) => v);
  const out: Record<string, unknown> = {};
  for (const [k, v] of kept) setOwn(out, k, v);
  return out;
}

// ---------------------------------------------------------------------------------------------
// PHP-array model helpers

function isNull(v: unknown): v is null | undefined {
  return v === null || v === undefined;
}

function isSet(v: unknown): boolean {
  return !isNull(v);
}

function isPlainObject(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

/** A PHP array: a JS list or a plain object. */
function isPhpArray(v: unknown): v is unknown[] | Record<string, unknown> {
  return Array.isArray(v) || isPlainObject(v);
}

function isScalar(v: unknown): v is string | number | boolean {
  return typeof v === 'string' || typeof v === 'number' || typeof v === 'boolean';
}

/** A key PHP would store as an integer. */
function isIntKey(k: string): boolean {
  return /^(0|-?[1-9]\d*)$/.test(k) && Number.isSafeInteger(Number(k));
}

function isPhpInt(n: number): boolean {
  return Number.isSafeInteger(n);
}

/** PHP's empty(). */
function phpEmpty(v: unknown): boolean {
  if (isNull(v) || v === false || v === 0 || v === '' || v === '0') return true;
  if (typeof v === 'number' && Number.isNaN(v)) return false;
  if (Array.isArray(v)) return v.length === 0;
  if (isPlainObject(v)) return Object.keys(v).length === 0;
  return false;
}

function phpTruthy(v: unknown): boolean {
  if (typeof v === 'number') return v !== 0; // NaN is truthy in PHP
  return !phpEmpty(v);
}

/** rest_is_array(): scalars are lists once parsed; arrays only if every key is an integer. */
function isArrayLike(v: unknown): boolean {
  if (isScalar(v)) return true;
  if (Array.isArray(v)) return true;
  if (isPlainObject(v)) return Object.keys(v).every(isIntKey);
  return false;
}

/** rest_sanitize_array(). */
function toList(v: unknown): unknown[] {
  if (isScalar(v)) return parseList(v);
  if (Array.isArray(v)) return [...v];
  if (isPlainObject(v)) return Object.values(v);
  return [];
}

/** rest_is_object(): "" or any PHP array. */
function isObjectLike(v: unknown): boolean {
  return v === '' || isPhpArray(v);
}

function objectEntries(v: unknown): [string, unknown][] {
  if (Array.isArray(v)) return v.map((item, i) => [String(i), item]);
  if (isPlainObject(v)) return Object.entries(v);
  return [];
}

function ownSchema(map: unknown, key: string): ArgSchema | null {
  if (!isPlainObject(map) || !Object.prototype.hasOwnProperty.call(map, key)) return null;
  const s = map[key];
  return isSet(s) ? (isPlainObject(s) ? (s as ArgSchema) : {}) : null;
}

function findPatternPropertySchema(key: string, schema: ArgSchema): ArgSchema | null {
  if (!isPlainObject(schema.patternProperties)) return null;
  for (const [pattern, child] of Object.entries(schema.patternProperties)) {
    if (matchesPattern(pattern, key)) return isPlainObject(child) ? (child as ArgSchema) : {};
  }
  return null;
}

function setOwn(obj: Record<string, unknown>, key: string, value: unknown): void {
  Object.defineProperty(obj, key, { value, enumerable: true, writable: true, configurable: true });
}

const regexCache = new Map<string, RegExp | null>();

/** rest_validate_json_schema_pattern(), with a JS RegExp standing in for PCRE. */
function matchesPattern(pattern: string, subject: string): boolean {
  let re = regexCache.get(pattern);
  if (re === undefined) {
    re = null;
    for (const flags of ['u', '']) {
      try { re = new RegExp(pattern, flags); break; } catch { /* try without the u flag */ }
    }
    regexCache.set(pattern, re);
  }
  return re !== null && re.test(subject);
}

/** rest_are_values_equal(): PHP arrays compare key by key, everything else strictly. */
function valuesEqual(a: unknown, b: unknown): boolean {
  if (isPhpArray(a) && isPhpArray(b)) {
    const ea = objectEntries(a);
    const eb = new Map(objectEntries(b));
    if (ea.length !== eb.size) return false;
    return ea.every(([k, v]) => eb.has(k) && valuesEqual(v, eb.get(k)));
  }
  if (isNull(a) && isNull(b)) return true;
  return a === b;
}

/** rest_validate_array_contains_unique_items(): serialize() of each item with keys sorted. */
function hasUniqueItems(items: unknown[]): boolean {
  const seen = new Set<string>();
  for (const item of items) {
    const key = stableKey(item);
    if (seen.has(key)) return false;
    seen.add(key);
  }
  return true;
}

function stableKey(v: unknown): string {
  if (isNull(v)) return 'N';
  if (typeof v === 'boolean') return `b:${v ? 1 : 0}`;
  if (typeof v === 'number') return `${isPhpInt(v) ? 'i' : 'd'}:${String(v)}`;
  if (typeof v === 'string') return `s:${JSON.stringify(v)}`;
  if (isPhpArray(v)) {
    const entries = objectEntries(v).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    return `a:{${entries.map(([k, x]) => `${JSON.stringify(k)}=>${stableKey(x)}`).join(',')}}`;
  }
  return `o:${String(v)}`;
}

// ---------------------------------------------------------------------------------------------
// PHP scalar semantics

const PHP_WS = '[ \\t\\n\\r\\v\\f]*';
const NUMERIC_BODY = '[+-]?(?:\\d+(?:\\.\\d*)?|\\.\\d+)(?:[eE][+-]?\\d+)?';
const NUMERIC_STRING = new RegExp(`^${PHP_WS}${NUMERIC_BODY}${PHP_WS}$`);
const LEADING_NUMERIC = new RegExp(`^${PHP_WS}(${NUMERIC_BODY})`);

/** is_numeric() (PHP 8: leading and trailing whitespace allowed). */
function isPhpNumeric(v: unknown): boolean {
  if (typeof v === 'number') return true;
  return typeof v === 'string' && NUMERIC_STRING.test(v);
}

/** rest_is_integer(). */
function isIntegerLike(v: unknown): boolean {
  if (!isPhpNumeric(v)) return false;
  const f = phpFloatCast(v);
  return Number.isInteger(f) || f === Infinity || f === -Infinity;
}

/** (float) */
function phpFloatCast(v: unknown): number {
  if (typeof v === 'number') return v;
  if (typeof v === 'boolean') return v ? 1 : 0;
  if (typeof v === 'string') {
    const m = LEADING_NUMERIC.exec(v);
    return m ? Number(m[1]) : 0;
  }
  if (isPhpArray(v)) return phpEmpty(v) ? 0 : 1;
  return 0;
}

/** (int) */
function phpIntCast(v: unknown): number {
  const f = phpFloatCast(v);
  if (!Number.isFinite(f)) return 0;
  return Math.trunc(f) + 0; // + 0 turns -0 into 0
}

/** (string), including PHP's float formatting (precision 14). */
function phpToString(v: unknown): string {
  if (typeof v === 'string') return v;
  if (typeof v === 'boolean') return v ? '1' : '';
  if (isNull(v)) return '';
  if (typeof v === 'number') return isPhpInt(v) ? String(v) : phpFloatToString(v);
  if (isPhpArray(v)) return 'Array';
  return String(v);
}

function phpFloatToString(n: number): string {
  if (Number.isNaN(n)) return 'NAN';
  if (n === Infinity) return 'INF';
  if (n === -Infinity) return '-INF';
  if (n === 0) return Object.is(n, -0) ? '-0' : '0';
  const [mantissa, expPart] = n.toExponential(13).split('e');
  const exponent = Number(expPart);
  if (exponent < -4 || exponent >= 14) {
    let m = mantissa.replace(/\.?0+$/, '');
    if (!m.includes('.')) m += '.0';
    return `${m}E${exponent < 0 ? '-' : '+'}${Math.abs(exponent)}`;
  }
  const fixed = n.toFixed(Math.max(0, 13 - exponent));
  return fixed.includes('.') ? fixed.replace(/\.?0+$/, '') : fixed;
}

/** number_format_i18n() for English: rounded, with thousands separators. */
function numberFormat(v: unknown): string {
  const f = phpFloatCast(v);
  const rounded = Math.sign(f) * Math.round(Math.abs(f));
  const digits = String(Math.abs(rounded)).replace(/\B(?=(\d{3})+(?!\d))/g, ',');
  return rounded < 0 ? `-${digits}` : digits;
}

/** _n() with no translation loaded. */
function plural(n: unknown, one: string, many: string): string {
  return phpFloatCast(n) === 1 ? one : many;
}

/** wp_sprintf()'s %l in English: "a", "a and b", "a, b, and c". */
function listJoin(items: string[]): string {
  if (items.length <= 1) return items.join('');
  if (items.length === 2) return `${items[0]} and ${items[1]}`;
  return `${items.slice(0, -1).join(', ')}, and ${items[items.length - 1]}`;
}

/** wp_json_encode() with default flags: escaped slashes and \u escapes for non-ASCII. */
function phpJsonEncode(v: unknown): string {
  if (isNull(v)) return 'null';
  if (typeof v === 'boolean') return v ? 'true' : 'false';
  if (typeof v === 'number') return Number.isFinite(v) ? JSON.stringify(v) : '0';
  if (typeof v === 'string') {
    return JSON.stringify(v)
      .replace(/\//g, '\\/')
      .replace(/[\u007f-\uffff]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);
  }
  if (isPhpArray(v)) {
    const entries = objectEntries(v);
    const isList = entries.every(([k], i) => k === String(i));
    if (isList) return `[${entries.map(([, x]) => phpJsonEncode(x)).join(',')}]`;
    return `{${entries.map(([k, x]) => `${phpJsonEncode(k)}:${phpJsonEncode(x)}`).join(',')}}`;
  }
  return 'null';
}

// ---------------------------------------------------------------------------------------------
// Formats

/** rest_parse_hex_color(): #rgb or #rrggbb. */
function isHexColor(v: unknown): boolean {
  return isScalar(v) && /^#([A-Fa-f0-9]{3}){1,2}\n?$/.test(phpToString(v));
}

/** wp_is_uuid() without a version: lowercase hex only. */
function isUuid(v: unknown): boolean {
  return typeof v === 'string' && /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}\n?$/.test(v);
}

/** is_email(). */
function isEmail(email: string): boolean {
  if (Buffer.byteLength(email, 'utf8') < 6) return false;
  const at = email.indexOf('@', 1);
  if (at === -1) return false;
  const local = email.slice(0, at);
  const domain = email.slice(at + 1);
  if (!/^[a-zA-Z0-9!#$%&'*+/=?^_`{|}~.-]+\n?$/.test(local)) return false;
  if (/\.{2,}/.test(domain)) return false;
  if (phpTrim(domain, ' \t\n\r\0\x0B.') !== domain) return false;
  const subs = domain.split('.');
  if (subs.length < 2) return false;
  for (const sub of subs) {
    if (phpTrim(sub, ' \t\n\r\0\x0B-') !== sub) return false;
    if (!/^[a-z0-9-]+\n?$/i.test(sub)) return false;
  }
  return true;
}

/** rest_is_ip_address(): dotted IPv4, or IPv6 as the Requests library checks it. */
function isIpAddress(ip: string): boolean {
  if (/^(?:(?:25[0-5]|2[0-4][0-9]|[01]?[0-9][0-9]?)\.){3}(?:25[0-5]|2[0-4][0-9]|[01]?[0-9][0-9]?)\n?$/.test(ip)) return true;
  return isIpv6(ip);
}

function isIpv6(input: string): boolean {
  let ip = input;
  const countColons = (s: string) => s.split(':').length - 1;
  if (ip.split('::').length - 1 === 1) {
    const [left, right] = ip.split('::');
    const c1 = left === '' ? -1 : countColons(left);
    let c2 = right === '' ? -1 : countColons(right);
    if (right.includes('.')) c2++;
    let fill: string;
    if (c1 === -1 && c2 === -1) {
      ip = '0:0:0:0:0:0:0:0';
      fill = '';
    } else if (c1 === -1) {
      if (7 - c2 < 0) return false;
      fill = '0:'.repeat(7 - c2);
    } else if (c2 === -1) {
      if (7 - c1 < 0) return false;
      fill = ':0'.repeat(7 - c1);
    } else {
      if (6 - c2 - c1 < 0) return false;
      fill = ':' + '0:'.repeat(6 - c2 - c1);
    }
    if (ip !== '0:0:0:0:0:0:0:0') ip = ip.replace('::', fill);
  }

  let v6 = ip;
  let v4 = '';
  if (ip.includes('.')) {
    const pos = ip.lastIndexOf(':');
    if (pos === -1) return false;
    v6 = ip.slice(0, pos);
    v4 = ip.slice(pos + 1);
  }
  const v6Parts = v6.split(':');
  const v4Parts = v4.split('.');
  const shapeOk = (v6Parts.length === 8 && v4Parts.length === 1) || (v6Parts.length === 6 && v4Parts.length === 4);
  if (!shapeOk) return false;
  if (!v6Parts.every((p) => /^[0-9a-fA-F]{1,4}$/.test(p))) return false;
  if (v4Parts.length === 4 && !v4Parts.every((p) => /^(0|[1-9]\d{0,2})$/.test(p) && Number(p) <= 255)) return false;
  return true;
}

function phpTrim(s: string, chars: string): string {
  let start = 0;
  let end = s.length;
  while (start < end && chars.includes(s[start])) start++;
  while (end > start && chars.includes(s[end - 1])) end--;
  return s.slice(start, end);
}

/**
 * sanitize_text_field() / sanitize_textarea_field(), simplified: a lone "<" is escaped, script
 * and style blocks and tags are stripped with regular expressions instead of PHP's strip_tags()
 * state machine, whitespace runs collapse to one space (unless newlines are kept), the result
 * is trimmed, and percent-encoded octets are removed. Invalid-UTF-8 checks are left out.
 */
function sanitizeTextField(value: unknown, keepNewlines: boolean): string {
  if (isPhpArray(value)) return '';
  let s = phpToString(value);
  if (s.includes('<')) {
    // wp_pre_kses_less_than(): a "<" that never closes is text, so it is escaped.
    s = s.replace(/<[^>]*?(?:(?=<)|>|(?=\n?$))/g, (m) => (m.includes('>') ? m : escHtml(m)));
    s = s.replace(/<(script|style)[^>]*?>[\s\S]*?<\/\1>/gi, '');
    s = s.replace(/<!--[\s\S]*?-->/g, '').replace(/<(?![\s<])[^>]*>/g, '');
    s = phpTrim(s, ' \t\n\r\0\x0B');
    s = s.split('<\n').join('&lt;\n');
  }
  if (!keepNewlines) s = s.replace(/[\r\n\t ]+/g, ' ');
  s = phpTrim(s, ' \t\n\r\0\x0B');
  let found = false;
  for (let m = /%[a-f0-9]{2}/i.exec(s); m; m = /%[a-f0-9]{2}/i.exec(s)) {
    s = s.split(m[0]).join('');
    found = true;
  }
  if (found) s = phpTrim(s.replace(/ +/g, ' '), ' \t\n\r\0\x0B');
  return s;
}

const ALLOWED_PROTOCOLS = [
  'http', 'https', 'ftp', 'ftps', 'mailto', 'news', 'irc', 'irc6', 'ircs', 'gopher', 'nntp', 'feed',
  'telnet', 'mms', 'rtsp', 'sms', 'svn', 'tel', 'fax', 'xmpp', 'webcal', 'urn',
];

/**
 * esc_url_raw() / sanitize_url(), simplified: leading whitespace trimmed, spaces encoded,
 * characters outside the URL set removed, %0a/%0d stripped, "http://" added to scheme-less
 * URLs, and any scheme outside wp_allowed_protocols() gives "". The scheme is lowercased.
 * WordPress's special handling of "[" / "]" after the host and of HTML-entity colons is
 * not reproduced.
 */
function escUrlRaw(value: unknown): string {
  let url = phpToString(value);
  if (url === '') return url;
  url = url.replace(/^[ \t\n\r\0\x0B]+/, '').replace(/ /g, '%20');
  url = url.replace(/[^a-z0-9\-~+_.?#=!&;,/:%@$|*'()[\]\u0080-\uffff]/gi, '');
  if (url === '') return url;
  if (!url.toLowerCase().startsWith('mailto:')) {
    let previous: string;
    do {
      previous = url;
      for (const bad of ['%0d', '%0a', '%0D', '%0A']) url = url.split(bad).join('');
    } while (url !== previous);
  }
  url = url.split(';//').join('://');
  if (!url.includes(':') && !['/', '#', '?'].includes(url[0]) && !/^[a-z0-9-]+?\.php/i.test(url)) {
    url = 'http://' + url;
  }
  if (url[0] === '/') return url;
  const colon = url.indexOf(':');
  if (colon === -1) return url;
  const candidate = url.slice(0, colon);
  if (candidate.includes('/?')) return url;
  const scheme = candidate.replace(/\s/g, '').toLowerCase();
  if (!ALLOWED_PROTOCOLS.includes(scheme)) return '';
  const cleaned = scheme + url.slice(colon);
  return cleaned.toLowerCase() === url.toLowerCase() ? cleaned : '';
}
