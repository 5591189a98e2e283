// One signed POST of a webhook body (Standard Webhooks): the dispatcher's deliveries and the ping.
import { Webhook as Signer } from 'standardwebhooks';
import { guardedFetch, GuardedFetchError } from '../http/guarded-client.js';

export interface SendSettings {
  /** Hosts that may resolve to private addresses (WEBHOOK_ALLOW_HOSTS). */
  allowHosts?: string[];
  /** The whole exchange (default 10 s). */
  timeoutMs?: number;
}

/** Kept of a receiver's answer or of an error. */
const MAX_ERROR = 500;

/**
 * Posts `body` to `url`, signed with `secret` under `messageId` at the time of sending (the
 * receiver checks it against its clock). Never throws: the status (null when no answer came) and,
 * unless it was a 2xx, why it failed (the start of the answer, or the network error). Redirects
 * are not followed (a 3xx fails).
 */
export async function sendSigned(url: string, secret: string, messageId: string, body: string, o: SendSettings = {}): Promise<{ status: number | null; ok: boolean; error: string }> {
  try {
    const sentAt = new Date();
    const signature = new Signer(secret).sign(messageId, sentAt, body);
    const res = await guardedFetch(url, {
      method: 'POST', body, anyStatus: true, maxRedirects: 0, maxBytes: 64 * 1024, truncate: true,
      allowHosts: o.allowHosts, timeoutMs: o.timeoutMs ?? 10_000,
      headers: {
        'content-type': 'application/json',
        'webhook-id': messageId,
        'webhook-timestamp': String(Math.floor(sentAt.getTime() / 1000)),
        'webhook-signature': signature,
      },
    });
    const ok = res.status >= 200 && res.status <= 299;
    return { status: res.status, ok, error: ok ? '' : res.text.slice(0, MAX_ERROR) || `HTTP ${res.status}` };
  } catch (err) {
    const error = err instanceof GuardedFetchError ? `${err.reason}: ${err.message}` : err instanceof Error ? err.message : String(err);
    return { status: null, ok: false, error: error.slice(0, MAX_ERROR) };
  }
}
