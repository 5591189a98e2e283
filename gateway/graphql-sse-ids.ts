// contentChanged over server-sent events: every event carries its log id as the SSE `id:` field
// (a browser's EventSource, or a graphql-sse client, keeps it and sends it back as Last-Event-ID
// when it connects again), and the request's Last-Event-ID reaches the subscription through the
// context. yoga writes each event as `event: next`, then `data: <the result, stringified>`, then
// a blank line; a result may bring its own stringifier, so the id goes in as a line after the JSON
// (which never holds a raw line break). Other results and other subscriptions keep their bytes.
// See docs/subscriptions.md.
import type { ExecutionResult } from 'graphql';
import type { Plugin } from 'graphql-yoga';
import { STREAM_STATE, streamStateOf, type StreamState } from '../src/schema/subscriptions/resume.js';

/**
 * Whether yoga answers a streamed result to this Accept header with server-sent events: it takes
 * the first streaming type the header names (multipart/mixed is the other one).
 */
function answersWithSse(accept: string | null): boolean {
  for (const part of (accept ?? '').split(',')) {
    const type = part.split(';')[0].trim().toLowerCase();
    if (type === 'text/event-stream') return true;
    if (type === 'multipart/mixed') return false;
  }
  return false;
}

export function sseEventIds(): Plugin {
  return {
    onContextBuilding({ context, extendContext }) {
      const request = (context as { request?: Request }).request;
      if (!request) return;
      const state: StreamState = { lastEventId: request.headers.get('last-event-id'), sse: answersWithSse(request.headers.get('accept')), ids: [] };
      extendContext({ [STREAM_STATE]: state } as Record<string, unknown>);
    },
    onSubscribe() {
      return {
        onSubscribeResult({ args }) {
          const state = streamStateOf(args.contextValue);
          if (!state?.sse) return undefined;
          return {
            onNext({ result, setResult }) {
              const id = state.ids.shift();
              if (id === undefined) return;
              setResult({ ...result, stringify: (r: ExecutionResult) => `${JSON.stringify(r)}\nid: ${id}` } as ExecutionResult);
            },
          };
        },
      };
    },
  };
}
