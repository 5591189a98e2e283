// Matchers every test file gets (vitest.config.ts setupFiles).
import { expect } from 'vitest';

interface WpErrorMatchers<R = unknown> {
  /**
   * A WordPress error response: `status` is the HTTP status, and the body's `code` and
   * `data.status` are `code` and `status`. On failure, prints the status and the whole body.
   */
  toBeWpError(status: number, code: string): R;
}

declare module 'vitest' {
  interface Matchers<T = any> extends WpErrorMatchers<T> {}
}

/** The body as JSON (or text), cut to a few kilobytes. */
function printBody(body: unknown): string {
  let text: string;
  try { text = typeof body === 'string' ? body : JSON.stringify(body, null, 2) ?? String(body); } catch { text = String(body); }
  const limit = 4000;
  return text.length > limit ? `${text.slice(0, limit)}\n… (${text.length - limit} more characters)` : text;
}

expect.extend({
  toBeWpError(received: { status?: unknown; body?: any } | null | undefined, status: number, code: string) {
    const body = received?.body;
    const pass = received?.status === status && body?.code === code && body?.data?.status === status;
    const wanted = `a WordPress error with status ${status} and code ${JSON.stringify(code)} (data.status ${status})`;
    return {
      pass,
      message: () => pass
        ? `expected the response not to be ${wanted}`
        : `expected ${wanted}\n`
          + `received status ${String(received?.status)}, code ${JSON.stringify(body?.code)}, data.status ${JSON.stringify(body?.data?.status)}\n`
          + `body: ${printBody(body)}`,
    };
  },
});
