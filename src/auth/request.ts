// Who is making a request: the single entry point REST (gateway/dispatch.ts) and GraphQL
// (gateway/app.ts) call. Two ways in, as WordPress:
//  - HTTP Basic with an application password (remote clients);
//  - the session cookie of the sign-in page plus a `wp_rest` nonce (`X-WP-Nonce` or `_wpnonce`),
//    for same-site browser code. A cookie without a nonce counts for nothing (anonymous), so a
//    page on another site cannot make a signed-in browser write (CSRF); a nonce that does not
//    verify is a 403 `rest_cookie_invalid_nonce`, also without a cookie (checked for user 0).
import type { Db } from '../db/client.js';
import { restError, type RestError } from '../errors.js';
import { authenticateBasic } from './authenticate.js';
import { createNonce, REST_NONCE_ACTION, verifyNonce } from './nonce.js';
import { readCookie, SESSION_COOKIE, sessionUser } from './sessions.js';
import { siteSettings } from '../site/options.js';

export interface RequestUser {
  id: number;
  login: string;
  role: string;
  /** The application password the request signed in with, if it used one. */
  appPasswordUuid?: string;
}

export interface RequestIdentity {
  user: RequestUser | null;
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
  const basic = await authenticateBasic(db, input.headers.get('authorization') ?? undefined, input.ip);
  if (basic && 'extensions' in basic) return basic;
  // Signed in another way: WordPress checks no nonce then (rest_cookie_check_errors).
  if (basic) return { user: { id: basic.id, login: basic.login, role: basic.role, appPasswordUuid: basic.appPasswordUuid } };

  const wpnonce = input.query?._wpnonce;
  const nonce = typeof wpnonce === 'string' ? wpnonce : input.headers.get('x-wp-nonce');
  if (nonce === null || nonce === undefined) return { user: null };

  const token = readCookie(input.headers.get('cookie'), SESSION_COOKIE);
  const user = await sessionUser(db, token);
  const owner = user ? { userId: user.id, token: token! } : { userId: 0, token: '' };
  const { siteKey } = await siteSettings(db);
  if (!verifyNonce(siteKey, nonce, REST_NONCE_ACTION, owner)) {
    return restError('rest_cookie_invalid_nonce', 'Cookie check failed', 403);
  }
  return { user, headers: { 'X-WP-Nonce': createNonce(siteKey, REST_NONCE_ACTION, owner) } };
}

/** The `wp_rest` nonce for a browser session (admin-ajax `rest-nonce`); null when not signed in. */
export async function restNonceForSession(db: Db, token: string | undefined): Promise<string | null> {
  const user = await sessionUser(db, token);
  if (!user) return null;
  const { siteKey } = await siteSettings(db);
  return createNonce(siteKey, REST_NONCE_ACTION, { userId: user.id, token: token! });
}
