// WordPress's meta capabilities for users (map_meta_cap: edit_user, delete_user, promote_user,
// and the application-password caps, which all map to edit_user).
import type { Context } from '../context.js';

/** edit_user: everyone may edit themselves; others need edit_users. */
export function canEditUser(ctx: Context, userId: number): boolean {
  return ctx.viewer !== null && (ctx.viewer.id === userId || ctx.can('edit_users'));
}

export function canDeleteUser(ctx: Context, _userId: number): boolean {
  return ctx.can('delete_users');
}

/** Whether the caller may see a user's private fields (edit context): themselves, or list_users / edit_users. */
export function canSeeUserDetails(ctx: Context, userId: number): boolean {
  return ctx.viewer !== null && (ctx.viewer.id === userId || ctx.can('list_users') || ctx.can('edit_users'));
}

/** list_app_passwords, read_app_password, create_app_password, edit_app_password, delete_app_password(s). */
export const canManageApplicationPasswords = canEditUser;
