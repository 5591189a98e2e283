// A WordPress schema says what a field means and what a write may send; what an answer carries
// differs in ways PHP and WordPress's REST server decide, not the schema. These rewrites make
// the document describe the bytes: answers as they are sent, inputs as they are accepted.

type Schema = Record<string, unknown>;

/**
 * WordPress sends post, comment and password times as `Y-m-d\TH:i:s`, without an offset
 * (mysql_to_rfc3339); a user's registration date carries one (`+00:00`).
 */
export const WP_DATE = '^\\d{4}-\\d{2}-\\d{2}T\\d{2}:\\d{2}:\\d{2}([+-]\\d{2}:\\d{2})?$';
/** rest_parse_date takes RFC 3339 with the offset optional, and fractions of a second. */
const INPUT_DATE = '^\\d{4}-\\d{2}-\\d{2}[Tt ]\\d{2}:\\d{2}:\\d{2}(\\.\\d+)?([Zz]|[+-]\\d{2}:?\\d{2})?$';
const HEX_COLOR = '^#([A-Fa-f0-9]{3}){1,2}$';

/**
 * Statuses a post-like item may be read back in. A write takes only the schema's enum; a read may
 * also meet the states WordPress sets itself (revisions and attachments `inherit`, the trash,
 * unsaved drafts).
 */
const READ_STATUSES = ['publish', 'future', 'draft', 'pending', 'private', 'trash', 'auto-draft', 'inherit'];

/** Formats JSON Schema defines; WordPress's own (`ip`, `hex-color`, `text-field`, …) are not. */
const STANDARD_FORMATS = new Set(['date-time', 'date', 'time', 'email', 'uri', 'uuid', 'hostname', 'ipv4', 'ipv6', 'regex']);

/** Fields WordPress sends as null though their schema names one type: an unattached attachment's `post`. */
const SENT_NULL = new Set(['post']);

const typesOf = (s: Schema): string[] => (s.type === undefined ? [] : [s.type as string | string[]].flat());

function mapChildren(s: Schema, f: (x: Schema, name?: string) => Schema): Schema {
  const out: Schema = { ...s };
  if (s.items && typeof s.items === 'object' && !Array.isArray(s.items)) out.items = f(s.items as Schema);
  for (const key of ['anyOf', 'oneOf', 'allOf'] as const) if (Array.isArray(s[key])) out[key] = (s[key] as Schema[]).map((x) => f(x));
  if (s.additionalProperties && typeof s.additionalProperties === 'object') out.additionalProperties = f(s.additionalProperties as Schema);
  if (s.patternProperties && typeof s.patternProperties === 'object') {
    out.patternProperties = Object.fromEntries(Object.entries(s.patternProperties as Record<string, Schema>).map(([k, v]) => [k, f(v)]));
  }
  if (s.properties && typeof s.properties === 'object') {
    out.properties = Object.fromEntries(Object.entries(s.properties as Record<string, Schema>).map(([k, v]) => [k, f(v, k)]));
  }
  return out;
}

/** A default that fails its own schema is dropped, or a single value made the list its array type wants. */
function fittingDefault(s: Schema): Schema {
  if (!('default' in s)) return s;
  const types = typesOf(s);
  const out = { ...s };
  if (out.default === null && types.length && !types.includes('null')) delete out.default;
  else if (types.length === 1 && types[0] === 'array' && !Array.isArray(out.default)) {
    out.default = typeof out.default === 'string' && out.default !== '' ? out.default.split(/[\s,]+/) : [out.default];
  }
  return out;
}

/**
 * The parent's `required` repeated in each `oneOf` branch that is an object: the same meaning (the
 * parent's list applies to every branch anyway), and each branch then says itself which property
 * tells it apart (an image edit's `type`), as generators and linters read a `oneOf`.
 */
function requiredInBranches(s: Schema): Schema {
  if (!Array.isArray(s.oneOf) || !Array.isArray(s.required) || !s.required.length) return s;
  const names = s.required as string[];
  const oneOf = (s.oneOf as Schema[]).map((b) => {
    const props = (b.properties ?? {}) as Schema;
    if (!names.every((n) => n in props)) return b;
    return { ...b, required: [...new Set([...names, ...((b.required as string[] | undefined) ?? [])])] };
  });
  return { ...s, oneOf };
}

/** An input field: the forms WordPress accepts, in standard keywords. */
export function accepted(s: Schema): Schema {
  let out = requiredInBranches(fittingDefault(mapChildren(s, accepted)));
  if (typeof out.format === 'string') {
    const format = out.format;
    out = { ...out };
    delete out.format;
    if (format === 'date-time') out.pattern = INPUT_DATE;
    else if (format === 'hex-color') out.pattern = HEX_COLOR;
    else if (STANDARD_FORMATS.has(format)) out.format = format;
  }
  return out;
}

/**
 * A field of an answer, as sent: dates in WordPress's form (and null where WordPress has none, as
 * for a draft's GMT date), free text without format checks (empty strings are sent for an unset
 * URL or id), maps that may arrive as `[]` (PHP encodes an empty array as a list), read-side
 * statuses, and no `required` or defaults, which speak of writes.
 */
export function answered(s: Schema, name?: string): Schema {
  let out: Schema = mapChildren(s, answered);
  delete out.default;
  delete out.required;
  if (typeof out.format === 'string') {
    const format = out.format;
    delete out.format;
    if (format === 'date-time') {
      out.pattern = WP_DATE;
      out.type = [...new Set([...typesOf(out), 'string', 'null'])];
    }
  }
  if (name !== undefined && SENT_NULL.has(name) && out.type !== undefined) out.type = [...new Set([...typesOf(out), 'null'])];
  if (name === 'status' && Array.isArray(out.enum) && (out.enum as unknown[]).includes('publish')) {
    out.enum = [...new Set([...(out.enum as string[]), ...READ_STATUSES])];
  }
  const types = typesOf(out);
  const isMap = types.includes('object') && (!out.properties || Object.keys(out.properties as Schema).length === 0 || out.additionalProperties !== undefined || name === 'meta');
  if (isMap && name !== undefined) {
    const { description, title, readOnly, ...rest } = out;
    out = {
      ...(title !== undefined ? { title } : {}), ...(description !== undefined ? { description } : {}), ...(readOnly ? { readOnly } : {}),
      anyOf: [rest, { type: 'array', maxItems: 0, description: 'An empty map, as PHP encodes it.' }],
    };
  }
  return out;
}
