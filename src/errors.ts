// Expected failures carry WordPress's error code and HTTP status through GraphQL's extensions,
// so REST and GraphQL clients see the same code for the same rule.
import { GraphQLError } from 'graphql';

export interface RestErrorExtensions {
  code: string;
  status: number;
  /** Extra members of WordPress's `data` object (params, details, …). */
  data?: Record<string, unknown>;
}

export class RestError extends GraphQLError {
  declare extensions: RestErrorExtensions & Record<string, unknown>;
  constructor(code: string, message: string, status: number, data?: Record<string, unknown>) {
    super(message, { extensions: { code, status, ...(data ? { data } : {}) } });
  }
}

export function restError(code: string, message: string, status: number, data?: Record<string, unknown>): RestError {
  return new RestError(code, message, status, data);
}

/** WordPress's rest_authorization_required_code(): 401 for anonymous callers, 403 otherwise. */
export function authStatus(loggedIn: boolean): number {
  return loggedIn ? 403 : 401;
}

/**
 * WordPress's 400 for one bad argument, named as GraphQL names it (`modifiedAfter`); the REST
 * gateway reports it under the REST name (`modified_after`): `rest_invalid_param` with the reason under `params` and
 * the inner error (`code`, e.g. rest_invalid_date) under `details`.
 */
export function invalidParam(param: string, code: string, message: string, innerData: unknown = null): never {
  throw restError('rest_invalid_param', `Invalid parameter(s): ${param}`, 400, {
    params: { [param]: message },
    details: { [param]: { code, message, data: innerData } },
  });
}
