import { describe, expect, it } from 'vitest';
import { clampIntParams, INT32_MAX, INT32_MIN } from '../../gateway/int-range.js';

describe('clampIntParams', () => {
  it('clamps integers beyond 32 bits to the nearest bound, at any depth', () => {
    const params: Record<string, unknown> = {
      id: 99999999999,
      page: 1e40,
      include: [1, 2 ** 31, -(2 ** 31) - 1],
      categories: { terms: [5, 1e20], operator: 'AND', include_children: true },
      nested: [{ a: [-1e30] }],
    };
    clampIntParams(params);
    expect(params).toEqual({
      id: INT32_MAX,
      page: INT32_MAX,
      include: [1, INT32_MAX, INT32_MIN],
      categories: { terms: [5, INT32_MAX], operator: 'AND', include_children: true },
      nested: [{ a: [INT32_MIN] }],
    });
  });

  it('leaves values in range, fractions, strings and other types alone', () => {
    const params: Record<string, unknown> = {
      a: INT32_MAX, b: INT32_MIN, c: 0, d: 1.5e10 + 0.5, e: '99999999999', f: null, g: true, h: Number.NaN,
    };
    const before = { ...params };
    clampIntParams(params);
    expect(params).toEqual(before);
  });
});
