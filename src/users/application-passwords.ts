// Application passwords, as WordPress's application-passwords controller and
// WP_Application_Passwords: only the user themself or someone who may edit them (edit_user)
// manages a user's passwords; names are unique per user; the password is shown once, at creation.
import { randomUUID } from 'node:crypto';
import type { Context } from '../context.js';
import { authStatus, invalidParam, restError } from '../errors.js';
import { canManageApplicationPasswords } from '../auth/user-permissions.js';
import { hashApplicationPassword, newApplicationPassword } from '../auth/passwords.js';
import { findUser, resolveUserId } from './service.js';

export interface AppPasswordRecord {
  uuid: string;
  userId: number;
  appId: string;
  name: string;
  created: Date;
  lastUsed: Date | null;
  lastIp: string | null;
  /** The plain password: only in the answer to a create. */
  password?: string;
}

const SELECT = { uuid: true, userId: true, appId: true, name: true, created: true, lastUsed: true, lastIp: true } as const;

type Action = 'list' | 'read' | 'create' | 'edit' | 'delete' | 'deleteAll';

const REFUSALS: Record<Action, [string, string]> = {
  list: ['rest_cannot_list_application_passwords', 'Sorry, you are not allowed to list application passwords for this user.'],
  read: ['rest_cannot_read_application_password', 'Sorry, you are not allowed to read this application password.'],
  create: ['rest_cannot_create_application_passwords', 'Sorry, you are not allowed to create application passwords for this user.'],
  edit: ['rest_cannot_edit_application_password', 'Sorry, you are not allowed to edit this application password.'],
  delete: ['rest_cannot_delete_application_password', 'Sorry, you are not allowed to delete this application password.'],
  deleteAll: ['rest_cannot_delete_application_passwords', 'Sorry, you are not allowed to delete application passwords for this user.'],
};

/** The controller's get_user() and then the action's permission check. */
export async function checkOwner(ctx: Context, userId: number | null | undefined, action: Action): Promise<number> {
  const user = await findUser(ctx, resolveUserId(ctx, userId));
  if (!canManageApplicationPasswords(ctx, user.id)) {
    const [code, message] = REFUSALS[action];
    throw restError(code, message, authStatus(!!ctx.viewer));
  }
  return user.id;
}

export async function listApplicationPasswords(ctx: Context, userId: number): Promise<AppPasswordRecord[]> {
  return ctx.prisma.appPassword.findMany({ where: { userId }, select: SELECT, orderBy: [{ created: 'asc' }, { id: 'asc' }] });
}

export async function findApplicationPassword(ctx: Context, userId: number, uuid: string): Promise<AppPasswordRecord> {
  const row = await ctx.prisma.appPassword.findFirst({ where: { userId, uuid }, select: SELECT });
  if (!row) throw restError('rest_application_password_not_found', 'Application password not found.', 404);
  return row;
}

/** get_current_item: the password this request signed in with, for the caller only. */
export async function currentApplicationPassword(ctx: Context, userId: number | null | undefined): Promise<AppPasswordRecord> {
  const user = await findUser(ctx, resolveUserId(ctx, userId));
  if (ctx.viewer?.id !== user.id) {
    throw restError('rest_cannot_introspect_app_password_for_non_authenticated_user', 'The authenticated application password can only be introspected for the current user.', authStatus(!!ctx.viewer));
  }
  const uuid = ctx.viewer.appPasswordUuid;
  if (!uuid) throw restError('rest_no_authenticated_app_password', 'Cannot introspect application password.', 404);
  return findApplicationPassword(ctx, user.id, uuid);
}

function cleanName(name: string | null | undefined): string {
  // sanitize_text_field: tags stripped, whitespace collapsed.
  return (name ?? '').replace(/<[^>]*>/g, '').replace(/\s+/g, ' ').trim();
}

async function checkNameFree(ctx: Context, userId: number, name: string, exceptUuid?: string): Promise<void> {
  const clash = await ctx.prisma.appPassword.findFirst({ where: { userId, name, ...(exceptUuid ? { uuid: { not: exceptUuid } } : {}) }, select: { id: true } });
  if (clash) throw restError('application_password_duplicate_name', 'Each application name should be unique.', 409);
}

/** WP_Application_Passwords::create_new_application_password. The plain password is returned once. */
export async function issueApplicationPassword(ctx: Context, userId: number, input: { name?: string | null; appId?: string | null }): Promise<AppPasswordRecord> {
  // The REST validator checks the format first; GraphQL callers meet the same rule here.
  if (input.appId && !/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/.test(input.appId)) {
    invalidParam('appId', 'rest_invalid_uuid', 'appId is not a valid UUID.');
  }
  const name = cleanName(input.name);
  if (!name) throw restError('application_password_empty_name', 'An application name is required to create an application password.', 400);
  await checkNameFree(ctx, userId, name);
  const { siteKey } = await ctx.site();
  const password = newApplicationPassword();
  const row = await ctx.prisma.appPassword.create({
    data: { uuid: randomUUID(), userId, name, appId: input.appId ?? '', hash: hashApplicationPassword(siteKey, password) },
    select: SELECT,
  });
  return { ...row, password };
}

export async function renameApplicationPassword(ctx: Context, userId: number, uuid: string, name: string | null | undefined): Promise<AppPasswordRecord> {
  const row = await findApplicationPassword(ctx, userId, uuid);
  const clean = cleanName(name);
  if (clean && clean !== row.name) {
    await checkNameFree(ctx, userId, clean, uuid);
    await ctx.prisma.appPassword.updateMany({ where: { userId, uuid }, data: { name: clean } });
    return { ...row, name: clean };
  }
  return row;
}

export async function revokeApplicationPassword(ctx: Context, userId: number, uuid: string): Promise<AppPasswordRecord> {
  const row = await findApplicationPassword(ctx, userId, uuid);
  await ctx.prisma.appPassword.deleteMany({ where: { userId, uuid } });
  return row;
}

export async function revokeAllApplicationPasswords(ctx: Context, userId: number): Promise<number> {
  const { count } = await ctx.prisma.appPassword.deleteMany({ where: { userId } });
  return count;
}
