// Reads whose client has gone stop their work: the HTTP server runs each read request (GET, HEAD)
// with the signal of its connection (`withAbortSignal`), and every statement the request would
// still send checks it first (the adapter wrap in ./client.ts counts every statement): once the
// client has left, the next one throws RequestAborted instead, so the rest of the handler is
// skipped. On PostgreSQL a direct read already running is cancelled on the server as well
// (pg_cancel_backend of the connection running it). Writes are not cut short: a write's
// transaction runs to its end whether or not anyone waits for the answer.
import { AsyncLocalStorage } from 'node:async_hooks';

const scopes = new AsyncLocalStorage<AbortSignal>();

/** What a statement of a request whose client has left throws, before it is sent. */
export class RequestAborted extends Error {
  readonly code = 'request_aborted';
  constructor() {
    super('The client closed the connection before the answer was ready.');
    this.name = 'RequestAborted';
  }
}

/** Runs `fn` (and all the async work it starts) under the request's abort signal. */
export function withAbortSignal<T>(signal: AbortSignal, fn: () => T): T {
  return scopes.run(signal, fn);
}

/** The running request's abort signal, when it has one. */
export function currentAbortSignal(): AbortSignal | undefined {
  return scopes.getStore();
}

/** Throws RequestAborted when the running request's client has left. */
export function throwIfAborted(): void {
  if (scopes.getStore()?.aborted) throw new RequestAborted();
}

/** Whether an error is (or wraps) a RequestAborted. */
export function isRequestAborted(err: unknown): boolean {
  for (let e = err as { originalError?: unknown; cause?: unknown } | null | undefined, i = 0; e && i < 5; i++) {
    if (e instanceof RequestAborted) return true;
    e = (e.originalError ?? e.cause) as typeof e;
  }
  return false;
}
