// REST integers are unbounded (PHP's are 64-bit), GraphQL's Int is 32-bit signed: a value the REST
// validator accepted, such as `include=99999999999`, would fail Int coercion and answer 500.
// Every id column is a 32-bit integer, so an id beyond the range cannot exist; clamping it to the
// nearest bound keeps it impossible, and the route answers what WordPress answers for an unknown
// id (an empty list, 404, or a page beyond the last).

export const INT32_MAX = 2147483647;
export const INT32_MIN = -2147483648;

/**
 * Clamps, in place, every integer outside the 32-bit signed range found in the params, at any
 * depth of arrays and plain objects, to the nearest bound. Strings and other values are left alone.
 */
export function clampIntParams(params: Record<string, unknown>): void {
  for (const key of Object.keys(params)) params[key] = clamp(params[key]);
}

/** One integer to the nearest bound of the 32-bit range (ids read from paths, not params, too). */
export function clampInt(n: number): number {
  return n > INT32_MAX ? INT32_MAX : n < INT32_MIN ? INT32_MIN : n;
}

function clamp(value: unknown): unknown {
  if (typeof value === 'number') return Number.isInteger(value) ? clampInt(value) : value;
  if (Array.isArray(value)) {
    for (let i = 0; i < value.length; i++) value[i] = clamp(value[i]);
    return value;
  }
  if (value !== null && typeof value === 'object' && [Object.prototype, null].includes(Object.getPrototypeOf(value))) {
    const record = value as Record<string, unknown>;
    for (const key of Object.keys(record)) record[key] = clamp(record[key]);
  }
  return value;
}
