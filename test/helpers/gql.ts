// Assertions for /graphql answers (site.gql): WordPress refusals in the error extensions, and
// requests GraphQL itself rejects before any resolver runs.
import { expect } from 'vitest';
import type { GqlResult } from './app.js';

const print = (res: GqlResult) => JSON.stringify({ status: res.status, data: res.data, errors: res.errors }, null, 2);

/**
 * A refused operation: its first error carries the WordPress `code` and HTTP `status` in
 * `extensions`, and the (non-null) root field gave no data.
 */
export function expectGqlError(res: GqlResult, status: number, code: string): void {
  expect(res.errors?.[0]?.extensions, print(res)).toMatchObject({ code, status });
  expect(res.data ?? null, print(res)).toBeNull();
}

/** A request GraphQL rejects (validation or variable coercion): no data at all, an error naming the problem. */
export function expectRejected(res: GqlResult, message: RegExp): void {
  expect(res.data, print(res)).toBeUndefined();
  expect(res.errors?.[0]?.message, print(res)).toMatch(message);
}
