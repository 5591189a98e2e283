// Creating users and application passwords: shared by the CLI now and the users routes later.
import { randomUUID } from 'node:crypto';
import type { Db } from '../db/client.js';
import { restError } from '../errors.js';
import { isRole, ROLES } from './capabilities.js';
import { hashApplicationPassword, hashLoginPassword, newApplicationPassword, randomPassword } from './passwords.js';
import { siteSettings } from '../site/options.js';
import { sanitizeTitle } from '../content/slug.js';

export interface NewUser { login: string; email: string; role?: string; password?: string; displayName?: string }

export async function createUser(db: Db, input: NewUser) {
  const role = input.role ?? 'subscriber';
  if (!isRole(role)) throw restError('rest_invalid_param', `Invalid parameter(s): roles`, 400, { params: { roles: `Role must be one of ${ROLES.join(', ')}.` } });
  if (!/^[A-Za-z0-9 _.\-@]{1,60}$/.test(input.login)) throw restError('rest_invalid_param', 'Invalid parameter(s): username', 400, { params: { username: 'This username is invalid because it uses illegal characters. Please enter a valid username.' } });
  if (!/^[^\s@]+@[^\s@]+$/.test(input.email)) throw restError('rest_invalid_param', 'Invalid parameter(s): email', 400, { params: { email: 'Invalid email address.' } });
  const clash = await db.prisma.user.findFirst({ where: { OR: [{ login: input.login }, { email: input.email }] }, select: { login: true } });
  if (clash) {
    throw clash.login === input.login
      ? restError('existing_user_login', 'Sorry, that username already exists!', 400)
      : restError('existing_user_email', 'Sorry, that email address is already used!', 400);
  }
  const passwordHash = await hashLoginPassword(input.password ?? randomPassword(24));
  let slug = sanitizeTitle(input.login) || `user-${Date.now()}`;
  for (let n = 2; await db.prisma.user.findUnique({ where: { slug }, select: { id: true } }); n++) slug = `${sanitizeTitle(input.login)}-${n}`;
  const user = await db.prisma.user.create({
    data: { login: input.login, email: input.email, role, passwordHash, slug, displayName: input.displayName ?? input.login },
    select: { id: true, login: true, email: true, role: true },
  });
  db.changed();
  return user;
}

/** Issues an application password; the plain password is returned once and never stored. */
export async function createApplicationPassword(db: Db, userId: number, name: string, appId = '') {
  if (!name.trim()) throw restError('application_password_empty_name', 'An application name is required to create an application password.', 400);
  const { siteKey } = await siteSettings(db);
  const password = newApplicationPassword();
  const row = await db.prisma.appPassword.create({
    data: { uuid: randomUUID(), userId, name: name.trim(), appId, hash: hashApplicationPassword(siteKey, password) },
    select: { uuid: true, appId: true, name: true, created: true },
  });
  db.changed();
  return { ...row, password };
}
