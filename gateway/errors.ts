// WordPress error bodies: {code, message, data: {status, ...}}, first error on top and the rest in
// additional_errors. GraphQL errors from the domain carry code and status in their extensions.
import type { GraphQLError } from 'graphql';
import { log } from '../src/log.js';
import { isRequestAborted } from '../src/db/abort.js';

export class WpError extends Error {
  constructor(public code: string, message: string, public status: number, public data: Record<string, unknown> = {}, public additional: WpError[] = []) {
    super(message);
  }
  body(): Record<string, unknown> {
    const body: Record<string, unknown> = { code: this.code, message: this.message, data: { status: this.status, ...this.data } };
    if (this.additional.length) body.additional_errors = this.additional.map((e) => ({ code: e.code, message: e.message, data: { status: e.status, ...e.data } }));
    return body;
  }
}

/**
 * The database's limit on values bound in one statement (Prisma's P2029: on SQLite about a
 * thousand) met by a request's id lists (`include`, `exclude`, `categories`…): the request asks
 * too much at once, which is the client's to change, not a server fault.
 */
export function tooManyValues(err: unknown): WpError | null {
  if ((err as { code?: unknown } | null)?.code !== 'P2029') return null;
  return new WpError('rest_invalid_param', 'Invalid parameter(s): the request\'s id lists hold more values than one query can take; send fewer.', 400, { params: {}, details: {} });
}

/**
 * A read stopped because its client left (src/db/abort.ts): not a fault, and nobody reads the
 * answer; 499 as proxies log a closed request.
 */
export function clientGone(err: unknown): WpError | null {
  return isRequestAborted(err) ? new WpError('http_request_aborted', 'The client closed the connection before the answer was ready.', 499) : null;
}

export function fromGraphQLError(error: GraphQLError): WpError {
  const ext = error.extensions as { code?: string; status?: number; data?: Record<string, unknown> } | undefined;
  if (ext?.code && typeof ext.status === 'number') return new WpError(ext.code, error.message, ext.status, ext.data ?? {});
  const limit = tooManyValues(error.originalError) ?? clientGone(error.originalError);
  if (limit) return limit;
  // Anything unexpected is masked: the client learns only that it failed.
  log.error({ err: error.originalError ?? error, path: error.path }, 'unexpected error');
  return new WpError('internal_server_error', 'The server could not answer this request.', 500);
}

export function fromGraphQLErrors(errors: readonly GraphQLError[]): WpError {
  const [first, ...rest] = errors.map(fromGraphQLError);
  first.additional = rest;
  return first;
}

/** A JSON or form body over BODY_MAX_BYTES (uploads have their own limit, UPLOAD_MAX_BYTES). */
export const bodyTooLarge = () => new WpError('rest_request_too_large', 'The request body is larger than this server accepts.', 413);

export const noRoute = () => new WpError('rest_no_route', 'No route was found matching the URL and request method.', 404);
