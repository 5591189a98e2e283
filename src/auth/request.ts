// Who is making a request: the single entry point REST (gateway/dispatch.ts) and GraphQL
// (gateway/app.ts) call. Today: HTTP Basic with an application password.
import type { Db } from '../db/client.js';
import type { RestError } from '../errors.js';
import { authenticateBasic } from './authenticate.js';

export interface RequestIdentity {
  user: { id: number; login: string; role: string } | null;
  /** Headers the response must carry because of how the caller signed in (e.g. a fresh nonce). */
  headers?: Record<string, string>;
}

export interface AuthInput {
  headers: Headers;
  /** Query parameters (for `_wpnonce`). */
  query?: Record<string, unknown>;
  /** Client address, for throttling and last_ip. */
  ip?: string;
}

export async function authenticateRequest(db: Db, input: AuthInput): Promise<RequestIdentity | RestError> {
  const basic = await authenticateBasic(db, input.headers.get('authorization') ?? undefined);
  if (basic && 'extensions' in basic) return basic;
  return { user: basic };
}
