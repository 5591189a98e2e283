// HTTP Basic with `login:application password`. Credentials that do not verify are refused with
// WordPress's 401 codes on every route (stricter than stock WordPress, which falls back to anonymous).
import type { Db } from '../db/client.js';
import { restError, type RestError } from '../errors.js';
import { hashApplicationPassword } from './passwords.js';
import { siteSettings } from '../site/options.js';

export interface AuthenticatedUser { id: number; login: string; role: string; appPasswordId: number }

/** Returns the user, null when no Basic credentials were sent, or the error to answer with. */
export async function authenticateBasic(db: Db, authorization: string | undefined): Promise<AuthenticatedUser | null | RestError> {
  if (!authorization) return null;
  const match = /^Basic\s+(.+)$/i.exec(authorization.trim());
  if (!match) return null; // other schemes are ignored: the request runs anonymously
  const decoded = Buffer.from(match[1], 'base64').toString('utf8');
  const colon = decoded.indexOf(':');
  if (colon < 0) return null;
  const login = decoded.slice(0, colon);
  const password = decoded.slice(colon + 1);
  const { siteKey } = await siteSettings(db);
  const found = await db.prisma.appPassword.findUnique({
    where: { hash: hashApplicationPassword(siteKey, password) },
    select: { id: true, user: { select: { id: true, login: true, email: true, role: true } } },
  });
  if (found && (found.user.login === login || found.user.email.toLowerCase() === login.toLowerCase())) {
    return { id: found.user.id, login: found.user.login, role: found.user.role, appPasswordId: found.id };
  }
  const byEmail = login.includes('@');
  const user = await db.prisma.user.findFirst({ where: byEmail ? { email: login } : { login }, select: { id: true } });
  if (!user) {
    return byEmail
      ? restError('invalid_email', 'Unknown email address. Check again or try your username.', 401)
      : restError('invalid_username', `<strong>Error:</strong> The username <strong>${escapeHtml(login)}</strong> is not registered on this site. If you are unsure of your username, try your email address instead.`, 401);
  }
  return restError('incorrect_password', 'The provided password is an invalid application password.', 401);
}

function escapeHtml(s: string): string {
  return s.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}
