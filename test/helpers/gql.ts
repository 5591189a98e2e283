// Assertions for /graphql answers (site.gql): WordPress refusals in the error extensions, and
// requests GraphQL itself rejects before any resolver runs.
import { expect } from 'vitest';
import type { GqlResult } from './app.js';

const print = (res: GqlResult) => JSON.stringify({ status: res.status, data: res.data, errors: res.errors }, null, 2);

/**
 * A refused operation: its first error carries the WordPress `code` and HTTP `status` in
 * `extensions`. An error raised by a field leaves that (nullable) root field null, and the
 * answer still has `data` for the fields beside it; one raised before execution (the caller's
 * credentials) leaves no data at all.
 */
export function expectGqlError(res: GqlResult, status: number, code: string): void {
  const first = res.errors?.[0];
  expect(first?.extensions, print(res)).toMatchObject({ code, status });
  const root = first?.path?.[0];
  if (root === undefined) expect(res.data ?? null, print(res)).toBeNull();
  else {
    expect(res.data !== null && typeof res.data === 'object', print(res)).toBe(true);
    expect(res.data[root], print(res)).toBeNull();
  }
}

/** A request GraphQL rejects (validation or variable coercion): no data at all, an error naming the problem. */
export function expectRejected(res: GqlResult, message: RegExp): void {
  expect(res.data, print(res)).toBeUndefined();
  expect(res.errors?.[0]?.message, print(res)).toMatch(message);
}
