// What a `contentChanged` stream shares with the HTTP layer (gateway/graphql-sse-ids.ts): the
// request's Last-Event-ID, whether the answer is server-sent events, and the log ids of the events
// it yields, in order, for the layer to write as each SSE event's `id:` (docs/subscriptions.md).
import { restError } from '../../errors.js';

/** The key of the stream state in a GraphQL context. */
export const STREAM_STATE = 'contentEventStream';

export interface StreamState {
  /** The Last-Event-ID header as sent (null: none). */
  lastEventId: string | null;
  /** Whether the answer is server-sent events (only then do the events carry ids). */
  sse: boolean;
  /** Log ids of the events yielded and not yet written, oldest first. */
  ids: number[];
}

export function streamStateOf(ctx: unknown): StreamState | undefined {
  return (ctx as Record<string, StreamState | undefined> | null)?.[STREAM_STATE];
}

/**
 * The log id a Last-Event-ID names: a non-negative integer in decimal digits (what this service
 * writes); an empty header is none. Anything else is refused before the stream starts: 400
 * rest_invalid_param.
 */
export function parseLastEventId(header: string | null): number | null {
  const value = header?.trim() ?? '';
  if (value === '') return null;
  const id = /^\d{1,15}$/.test(value) ? Number(value) : NaN;
  if (!Number.isSafeInteger(id)) {
    const message = 'Last-Event-ID is not the id of an event of this stream (a non-negative integer).';
    const err = restError('rest_invalid_param', 'Invalid parameter(s): Last-Event-ID', 400, {
      params: { 'Last-Event-ID': message },
      details: { 'Last-Event-ID': { code: 'rest_invalid_type', message, data: null } },
    });
    err.extensions.http = { status: 400 };
    throw err;
  }
  return id;
}

/** `stream`, noting the log id of every event it yields in `state` (for the SSE writer). */
export function noteIds<T extends { logId?: number }>(stream: AsyncIterableIterator<T>, state: StreamState): AsyncIterableIterator<T> {
  return {
    next: async () => {
      const r = await stream.next();
      if (!r.done && r.value.logId !== undefined) state.ids.push(r.value.logId);
      return r;
    },
    return: () => stream.return ? stream.return() : Promise.resolve({ value: undefined, done: true }),
    throw: (err) => stream.throw ? stream.throw(err) : Promise.reject(err),
    [Symbol.asyncIterator]() { return this; },
  };
}
