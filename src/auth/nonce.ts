// WordPress's nonces (wp_create_nonce / wp_verify_nonce): an HMAC over (tick, action, user id,
// session token) with the site key, cut to 10 hex characters. A tick is 12 hours and a nonce is
// accepted in its own tick and the one before, so it lives 12 to 24 hours.
import { createHmac } from 'node:crypto';
import { safeEqual } from './passwords.js';

const NONCE_LIFE_SECONDS = 24 * 60 * 60;

export interface NonceOwner {
  /** 0 for anonymous callers. */
  userId: number;
  /** The session token the nonce is tied to ('' without a session). */
  token: string;
}

export function nonceTick(now = Date.now()): number {
  return Math.ceil(now / 1000 / (NONCE_LIFE_SECONDS / 2));
}

function nonceAt(siteKey: string, tick: number, action: string, owner: NonceOwner): string {
  const mac = createHmac('sha256', `${siteKey}nonce`).update(`${tick}|${action}|${owner.userId}|${owner.token}`).digest('hex');
  return mac.slice(-12, -2);
}

export function createNonce(siteKey: string, action: string, owner: NonceOwner, now = Date.now()): string {
  return nonceAt(siteKey, nonceTick(now), action, owner);
}

/** 1 when made in this tick, 2 in the previous one, false otherwise (as wp_verify_nonce). */
export function verifyNonce(siteKey: string, nonce: string, action: string, owner: NonceOwner, now = Date.now()): 1 | 2 | false {
  if (!nonce) return false;
  const tick = nonceTick(now);
  if (safeEqual(nonce, nonceAt(siteKey, tick, action, owner))) return 1;
  if (safeEqual(nonce, nonceAt(siteKey, tick - 1, action, owner))) return 2;
  return false;
}

/** The REST API's nonce action. */
export const REST_NONCE_ACTION = 'wp_rest';
