// Browser sessions (the authorize-application page, cookie + nonce REST calls). The cookie holds
// a random token; only its SHA-256 is stored, so a copy of the database signs nobody in.
import { createHash, randomBytes } from 'node:crypto';
import type { Db } from '../db/client.js';

/** Name of the session cookie. */
export const SESSION_COOKIE = 'site_session';
/** Two days, as WordPress's login cookie without "remember me". */
export const SESSION_SECONDS = 2 * 24 * 60 * 60;

export interface SessionUser { id: number; login: string; role: string }

const hashToken = (token: string) => createHash('sha256').update(token).digest('hex');

export async function createSession(db: Db, userId: number): Promise<string> {
  const token = randomBytes(32).toString('base64url');
  await db.prisma.session.create({ data: { tokenHash: hashToken(token), userId, expires: new Date(Date.now() + SESSION_SECONDS * 1000) } });
  // Expired sessions of this user go when a new one starts; nothing else needs to sweep them.
  await db.prisma.session.deleteMany({ where: { userId, expires: { lt: new Date() } } });
  return token;
}

/** The user a session token belongs to, or null when it is unknown or expired. */
export async function sessionUser(db: Db, token: string | undefined): Promise<SessionUser | null> {
  if (!token || token.length > 200) return null;
  const row = await db.prisma.session.findUnique({
    where: { tokenHash: hashToken(token) },
    select: { expires: true, user: { select: { id: true, login: true, role: true } } },
  });
  if (!row || row.expires.getTime() <= Date.now()) return null;
  return row.user;
}

export async function destroySession(db: Db, token: string | undefined): Promise<void> {
  if (!token) return;
  await db.prisma.session.deleteMany({ where: { tokenHash: hashToken(token) } });
}

/** Reads one cookie from a Cookie header. */
export function readCookie(header: string | null | undefined, name: string): string | undefined {
  if (!header) return undefined;
  for (const part of header.split(';')) {
    const eq = part.indexOf('=');
    if (eq < 0) continue;
    if (part.slice(0, eq).trim() === name) {
      const value = part.slice(eq + 1).trim();
      try { return decodeURIComponent(value); } catch { return value; }
    }
  }
  return undefined;
}
