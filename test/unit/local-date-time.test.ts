// The LocalDateTime scalar's quick check of its output (src/schema/builder.ts): it may only take
// a shortcut for values graphql-scalars' own check accepts, and must send every other value there.
import { describe, expect, it } from 'vitest';
import { GraphQLLocalDateTime } from 'graphql-scalars';
import { plainLocalDateTime } from '../../src/schema/builder.js';
import { schema } from '../../src/schema/index.js';
import type { GraphQLScalarType } from 'graphql';

const accepted = (v: unknown) => { try { GraphQLLocalDateTime.serialize(v); return true; } catch { return false; } };
const pad = (n: number, width = 2) => String(n).padStart(width, '0');

describe('the LocalDateTime scalar', () => {
  it('takes the shortcut only for values the full check accepts, over every month and day edge', () => {
    let taken = 0;
    for (const year of [1900, 1999, 2000, 2023, 2024, 2100]) {
      for (let month = 0; month <= 13; month++) {
        for (let day = 0; day <= 32; day++) {
          for (const time of ['00:00:00', '23:59:59', '24:00:00', '12:60:00', '12:00:60', '1a:00:00']) {
            const v = `${pad(year, 4)}-${pad(month)}-${pad(day)}T${time}`;
            if (plainLocalDateTime(v)) { taken++; expect(accepted(v), v).toBe(true); }
          }
        }
      }
    }
    // 2 times of day on each real date of six years (two of them leap years: 1900 is not one).
    expect(taken).toBe(2 * (365 * 4 + 366 * 2));
  });

  it('does not shortcut February 29 of a year that is not a leap year, nor other shapes', () => {
    expect(plainLocalDateTime('2024-02-29T10:00:00')).toBe(true);
    for (const v of ['2023-02-29T10:00:00', '1900-02-29T10:00:00', '2024-02-30T10:00:00', '2024-04-31T10:00:00', '2024-01-01 10:00:00', '2024-01-01T10:00:00Z', '2024-01-01T10:00:00.5', 20240101, null]) {
      expect(plainLocalDateTime(v), String(v)).toBe(false);
    }
  });

  it('serializes as graphql-scalars does: the value itself, and the same errors for bad ones', () => {
    const scalar = schema.getType('LocalDateTime') as GraphQLScalarType;
    expect(scalar.serialize('2024-02-29T10:00:00')).toBe('2024-02-29T10:00:00');
    expect(scalar.serialize('2024-01-01T10:00:00Z')).toBe('2024-01-01T10:00:00Z');
    // Not a real date, yet accepted by graphql-scalars (its Date rolls over): the same here.
    expect(scalar.serialize('2023-02-29T10:00:00')).toBe('2023-02-29T10:00:00');
    const errorOf = (v: unknown) => { try { GraphQLLocalDateTime.serialize(v); } catch (err) { return (err as Error).message; } return null; };
    for (const v of ['2024-13-01T10:00:00', 'yesterday', 5]) {
      const message = errorOf(v);
      expect(message, String(v)).not.toBeNull();
      expect(() => scalar.serialize(v)).toThrow(message!);
    }
  });
});
