// Signing in with the account's login password (the authorize-application page), with failed
// attempts throttled per account and per client address in the LoginAttempt table.
import type { Db } from '../db/client.js';
import { decoyHash, hashLoginPassword, needsRehash, verifyLoginPassword } from './passwords.js';

/** Failures allowed within the window before the key is locked. */
export const LOGIN_LIMITS = { perUser: 5, perIp: 20, windowMs: 15 * 60_000, lockMs: 15 * 60_000 };

export type LoginResult =
  | { ok: true; user: { id: number; login: string; role: string } }
  | { ok: false; reason: 'invalid' }
  | { ok: false; reason: 'locked'; retryAfterSeconds: number };

const userKey = (login: string) => `user:${login.trim().toLowerCase()}`;
const ipKey = (ip: string) => `ip:${ip}`;

async function lockedFor(db: Db, keys: string[], now: Date): Promise<number> {
  const rows = await db.prisma.loginAttempt.findMany({ where: { key: { in: keys } }, select: { lockedUntil: true } });
  const until = Math.max(0, ...rows.map((r) => r.lockedUntil?.getTime() ?? 0));
  return until > now.getTime() ? Math.ceil((until - now.getTime()) / 1000) : 0;
}

async function recordFailure(db: Db, key: string, limit: number, now: Date): Promise<void> {
  await db.prisma.$transaction(async (tx) => {
    const row = await tx.loginAttempt.findUnique({ where: { key } });
    const fresh = !row || now.getTime() - row.windowStart.getTime() > LOGIN_LIMITS.windowMs;
    const failures = fresh ? 1 : row!.failures + 1;
    const data = {
      failures,
      windowStart: fresh ? now : row!.windowStart,
      lockedUntil: failures >= limit ? new Date(now.getTime() + LOGIN_LIMITS.lockMs) : fresh ? null : row!.lockedUntil,
    };
    await tx.loginAttempt.upsert({ where: { key }, create: { key, ...data }, update: data });
  });
}

/**
 * Checks a login name (or e-mail) and password. Unknown logins cost the same hash as known ones
 * and count against the same limits, so neither timing nor throttling tells which logins exist.
 */
export async function signIn(db: Db, login: string, password: string, ip = 'unknown', now = new Date()): Promise<LoginResult> {
  const keys = [userKey(login), ipKey(ip)];
  const wait = await lockedFor(db, keys, now);
  if (wait) return { ok: false, reason: 'locked', retryAfterSeconds: wait };

  const name = login.trim();
  const user = name
    ? await db.prisma.user.findFirst({
      where: name.includes('@') ? { OR: [{ email: name }, { login: name }] } : { login: name },
      select: { id: true, login: true, role: true, passwordHash: true },
    })
    : null;
  const stored = user?.passwordHash || (await decoyHash());
  const valid = (await verifyLoginPassword(password, stored)) && !!user?.passwordHash;

  if (!user || !valid) {
    await recordFailure(db, keys[0], LOGIN_LIMITS.perUser, now);
    await recordFailure(db, keys[1], LOGIN_LIMITS.perIp, now);
    const after = await lockedFor(db, keys, now);
    return after ? { ok: false, reason: 'locked', retryAfterSeconds: after } : { ok: false, reason: 'invalid' };
  }
  await db.prisma.loginAttempt.deleteMany({ where: { key: keys[0] } });
  if (needsRehash(user.passwordHash)) {
    await db.prisma.user.update({ where: { id: user.id }, data: { passwordHash: await hashLoginPassword(password) } });
  }
  return { ok: true, user: { id: user.id, login: user.login, role: user.role } };
}
