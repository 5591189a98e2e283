// What the site's operator does from the command line (and test set-up does to build fixtures):
// the same user and application-password services the REST and GraphQL routes run, called with
// the operator's rights (an administrator's capabilities, no account of its own).
import type { Db } from '../db/client.js';
import { createContext, type Context } from '../context.js';
import { servicesOf } from '../services.js';
import { randomPassword } from '../auth/passwords.js';
import { createUserRecord } from '../users/service.js';
import { issueApplicationPassword } from '../users/application-passwords.js';

/** The operator's context. A command has no app: its handle gets the defaults (no write hooks among them) unless an app's are set. */
function operator(db: Db): Context {
  servicesOf(db);
  return createContext(db, { id: 0, login: '', role: 'administrator' });
}

export interface NewUser { login: string; email: string; role?: string; password?: string; displayName?: string }

/** Creates a user; a password is generated when none is given (it can be reset later). */
export async function createUser(db: Db, input: NewUser) {
  const id = await createUserRecord(operator(db), {
    username: input.login, email: input.email, roles: [input.role ?? 'subscriber'],
    password: input.password ?? randomPassword(24), name: input.displayName,
  });
  return db.prisma.user.findUniqueOrThrow({ where: { id }, select: { id: true, login: true, email: true, role: true } });
}

/** Issues an application password; the plain password is in the answer, once. */
export async function createApplicationPassword(db: Db, userId: number, name: string, appId = '') {
  const record = await issueApplicationPassword(operator(db), userId, { name, appId });
  return { ...record, password: record.password! };
}
