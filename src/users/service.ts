// Business rules of users, as WordPress's users controller: who may list, read, create, update
// and delete whom, list filters, and the transactional delete that hands content to another user.
import { afterWrite } from '../content/write-hooks.js';
import { createHash } from 'node:crypto';
import type { Prisma as PrismaNS } from '../generated/sqlite/client.js';
import type { Context } from '../context.js';
import type { Tx } from '../db/client.js';
import { columnOrder, sortByPosition, type SortedList } from '../db/list.js';
import { CONTENT_TYPES } from '../resources/content-types.js';
import type { SiteSettings } from '../site/options.js';
import { setOption } from '../site/options.js';
import { recountTermsLast } from '../content/term-counts.js';
import { authStatus, invalidParam, restError } from '../errors.js';
import { capabilitiesOf, isRole, ROLES } from '../auth/capabilities.js';
import { canDeleteUser, canEditUser } from '../auth/user-permissions.js';
import { hashLoginPassword } from '../auth/passwords.js';
import { sanitizeTitle } from '../content/slug.js';

type Where = PrismaNS.UserWhereInput;

/** Content types whose published items make their authors public (WordPress: types shown in REST). */
/** Types whose published items make their author public (WordPress: the public post types with REST routes). */
export const PUBLIC_AUTHOR_TYPES = CONTENT_TYPES.map((t) => t.type);

export interface UserRow { id: number; login: string; email: string; slug: string; displayName: string; role: string }

export function authorLink(site: SiteSettings, slug: string): string {
  return `${site.home}/author/${slug}/`;
}

/** Avatar addresses as WordPress 6.8 builds them (Gravatar, SHA-256 of the trimmed lower-case e-mail). */
export function avatarUrls(email: string): { size: number; url: string }[] {
  const hash = createHash('sha256').update(email.trim().toLowerCase()).digest('hex');
  return [24, 48, 96].map((size) => ({ size, url: `https://secure.gravatar.com/avatar/${hash}?s=${size}&d=mm&r=g` }));
}

/** `me` (null) is the caller; anonymous callers get WordPress's rest_not_logged_in. */
export function resolveUserId(ctx: Context, id: number | null | undefined): number {
  if (id === null || id === undefined) {
    if (!ctx.viewer) throw restError('rest_not_logged_in', 'You are not currently logged in.', 401);
    return ctx.viewer.id;
  }
  return id;
}

export async function findUser(ctx: Context, id: number) {
  const user = id > 0 ? await ctx.prisma.user.findUnique({ where: { id } }) : null;
  if (!user) throw restError('rest_user_invalid_id', 'Invalid user ID.', 404);
  return user;
}

async function hasPublishedContent(ctx: Context, userId: number): Promise<boolean> {
  const row = await ctx.prisma.content.findFirst({ where: { authorId: userId, type: { in: PUBLIC_AUTHOR_TYPES }, status: 'publish' }, select: { id: true } });
  return row !== null;
}

/** get_item_permissions_check of the users controller, in its order. */
export async function checkReadUser(ctx: Context, id: number) {
  const user = await findUser(ctx, id);
  if (ctx.viewer?.id === user.id) return user;
  if (!ctx.can('list_users') && !canEditUser(ctx, user.id) && !(await hasPublishedContent(ctx, user.id))) {
    throw restError('rest_user_cannot_view', 'Sorry, you are not allowed to list users.', authStatus(!!ctx.viewer));
  }
  return user;
}

// ---------------------------------------------------------------- lists

export interface UserListFilter {
  search?: string | null;
  include?: number[] | null;
  exclude?: number[] | null;
  slug?: string[] | null;
  roles?: string[] | null;
  capabilities?: string[] | null;
  who?: string | null;
  hasPublishedPosts?: string[] | null;
}

export interface UserListPaging { page: number; perPage: number; offset?: number | null; order: 'asc' | 'desc'; orderby: string }

/** get_items_permissions_check of the users controller, in its order. */
export function checkUserListAccess(ctx: Context, f: UserListFilter, orderby: string): void {
  const status = authStatus(!!ctx.viewer);
  if (f.roles?.length && !ctx.can('list_users')) throw restError('rest_user_cannot_view', 'Sorry, you are not allowed to filter users by role.', status);
  if (f.capabilities?.length && !ctx.can('list_users')) throw restError('rest_user_cannot_view', 'Sorry, you are not allowed to filter users by capability.', status);
  if ((orderby === 'email' || orderby === 'registered_date') && !ctx.can('list_users')) {
    throw restError('rest_forbidden_orderby', 'Sorry, you are not allowed to order users by this parameter.', status);
  }
  if (f.who === 'authors' && !ctx.can('edit_posts') && !ctx.can('edit_pages')) {
    throw restError('rest_forbidden_who', 'Sorry, you are not allowed to query users by this parameter.', status);
  }
}

export function userListWhere(ctx: Context, f: UserListFilter): Where {
  const and: Where[] = [];
  const listUsers = ctx.can('list_users');
  // Callers who may not list users see only authors of published content (WordPress forces
  // has_published_posts), except when asking for `who=authors`, which is itself guarded.
  const published = listUsers || f.who === 'authors' ? f.hasPublishedPosts : PUBLIC_AUTHOR_TYPES;
  if (published?.length) and.push({ contents: { some: { type: { in: published }, status: 'publish' } } });
  if (f.include?.length) and.push({ id: { in: f.include } });
  if (f.exclude?.length) and.push({ id: { notIn: f.exclude } });
  if (f.slug?.length) and.push({ slug: { in: f.slug } });
  if (f.roles?.length) and.push({ role: { in: f.roles.map((r) => r.toLowerCase()) } });
  if (f.capabilities?.length) {
    const caps = f.capabilities;
    and.push({ role: { in: ROLES.filter((role) => caps.every((cap) => cap === role || capabilitiesOf(role).has(cap))) } });
  }
  if (f.who === 'authors') and.push({ role: { in: ROLES.filter((role) => role !== 'subscriber') } });
  if (f.search) {
    const insensitive = ctx.db.provider === 'postgres' ? ({ mode: 'insensitive' } as const) : {};
    const term = f.search.replace(/^\*|\*$/g, '');
    // Without list_users the search looks only at public columns (WordPress narrows search_columns too).
    const columns = listUsers ? (['login', 'email', 'url', 'slug', 'displayName'] as const) : (['login', 'slug', 'displayName'] as const);
    const or: Where[] = columns.map((c) => ({ [c]: { contains: term, ...insensitive } }));
    if (/^\d+$/.test(term)) or.push({ id: Number(term) });
    and.push({ OR: or });
  }
  return { AND: and };
}

const ORDER_COLUMNS: Record<string, string> = {
  id: 'id', name: 'displayName', registered_date: 'registered', slug: 'slug', email: 'email', url: 'url',
};

export function userListOrder(paging: UserListPaging): PrismaNS.UserOrderByWithRelationInput[] {
  return columnOrder<string>(ORDER_COLUMNS, paging.orderby, paging.order, 'displayName');
}

/** For orderby include / include_slugs: every match in the order the list gave, with its key (SortedList). */
export async function sortedUsers(ctx: Context, where: Where, f: UserListFilter, paging: Pick<UserListPaging, 'order' | 'orderby'>): Promise<SortedList | null> {
  if (paging.orderby !== 'include' && paging.orderby !== 'include_slugs') return null;
  const rows = await ctx.prisma.user.findMany({ where, select: { id: true, slug: true } });
  const position = (r: { id: number; slug: string }) => {
    const i = paging.orderby === 'include' ? (f.include ?? []).indexOf(r.id) : (f.slug ?? []).indexOf(r.slug);
    return i < 0 ? undefined : i;
  };
  return sortByPosition(rows, position, paging.order === 'desc' && paging.orderby === 'include');
}

/** For orderby include / include_slugs: the ids of one page in the order the list gave. */
export async function orderedUserIds(ctx: Context, where: Where, f: UserListFilter, paging: UserListPaging, skip: number): Promise<number[] | null> {
  const sorted = await sortedUsers(ctx, where, f, paging);
  return sorted && sorted.rows.slice(skip, skip + paging.perPage).map((r) => r.id);
}

// ---------------------------------------------------------------- writes

export interface UserInput {
  username?: string | null;
  name?: string | null;
  firstName?: string | null;
  lastName?: string | null;
  email?: string | null;
  url?: string | null;
  description?: string | null;
  locale?: string | null;
  nickname?: string | null;
  slug?: string | null;
  roles?: string[] | null;
  password?: string | null;
}

/** The users controller's sanitize callbacks for username and password. */
function checkUsername(value: string): string {
  const username = value.trim();
  if (!username || !/^[A-Za-z0-9 _.\-@]+$/.test(username)) {
    invalidParam('username', 'rest_user_invalid_username', 'This username is invalid because it uses illegal characters. Please enter a valid username.');
  }
  if (username.length > 60) invalidParam('username', 'rest_user_invalid_username', 'Username may not be longer than 60 characters.');
  return username;
}

/** The args' `format: email` check, here too so GraphQL callers and the command line get it. */
function checkEmail(value: string): string {
  const email = value.trim();
  if (!/^[^\s@]+@[^\s@]+\.[^\s@]+$/.test(email)) invalidParam('email', 'rest_invalid_email', 'Invalid email address.');
  return email;
}

function checkPassword(value: string): string {
  if (!value.trim()) invalidParam('password', 'rest_user_invalid_password', 'Passwords cannot be empty.');
  if (value.includes('\\')) invalidParam('password', 'rest_user_invalid_password', 'Passwords cannot contain the "\\" character.');
  return value;
}

/** check_role_update: known roles, one per user here, and nobody removes their own right to manage users. */
function checkRoles(ctx: Context, userId: number | null, roles: string[]): string {
  for (const role of roles) {
    if (!isRole(role)) throw restError('rest_user_invalid_role', `The role ${role} does not exist.`, 400);
  }
  if (roles.length !== 1) throw restError('rest_user_invalid_role', 'A user holds exactly one role on this site.', 400);
  const role = roles[0];
  if (userId !== null && ctx.viewer?.id === userId && !capabilitiesOf(role).has('edit_users')) {
    throw restError('rest_user_invalid_role', 'Sorry, you are not allowed to give users that role.', authStatus(!!ctx.viewer));
  }
  if (!ctx.can('promote_users')) throw restError('rest_user_invalid_role', 'Sorry, you are not allowed to give users that role.', 403);
  return role;
}

async function uniqueUserSlug(ctx: Context, base: string, exceptId: number | null): Promise<string> {
  const root = sanitizeTitle(base) || 'user';
  let slug = root;
  for (let n = 2; ; n++) {
    const clash = await ctx.prisma.user.findFirst({ where: { slug, ...(exceptId ? { id: { not: exceptId } } : {}) }, select: { id: true } });
    if (!clash) return slug;
    slug = `${root}-${n}`;
  }
}

export async function createUserRecord(ctx: Context, input: UserInput, o: { within?: (tx: Tx, id: number) => Promise<void> } = {}): Promise<number> {
  if (!ctx.can('create_users')) throw restError('rest_cannot_create_user', 'Sorry, you are not allowed to create new users.', authStatus(!!ctx.viewer));
  const login = checkUsername(input.username ?? '');
  const password = checkPassword(input.password ?? '');
  const email = checkEmail(input.email ?? '');
  const role = input.roles?.length ? checkRoles(ctx, null, input.roles) : 'subscriber';
  const clash = await ctx.prisma.user.findFirst({ where: { OR: [{ login }, { email }] }, select: { login: true } });
  if (clash) {
    throw clash.login === login
      ? restError('existing_user_login', 'Sorry, that username already exists!', 400)
      : restError('existing_user_email', 'Sorry, that email address is already used!', 400);
  }
  if (input.slug) {
    const taken = await ctx.prisma.user.findFirst({ where: { slug: sanitizeTitle(input.slug) }, select: { id: true } });
    if (taken) throw restError('rest_user_invalid_slug', 'Invalid slug.', 400);
  }
  const slug = input.slug ? sanitizeTitle(input.slug) : await uniqueUserSlug(ctx, login, null);
  const data = {
    login, email, role, slug, passwordHash: await hashLoginPassword(password),
    displayName: input.name ?? login, url: input.url ?? '', description: input.description ?? '', locale: input.locale ?? '',
    firstName: input.firstName ?? '', lastName: input.lastName ?? '', nickname: input.nickname ?? '',
  };
  const within = o.within;
  if (!within) return (await ctx.prisma.user.create({ data, select: { id: true } })).id;
  // With work of the caller's, both in one transaction.
  return ctx.prisma.$transaction(async (tx) => {
    const { id } = await tx.user.create({ data, select: { id: true } });
    await within(tx, id);
    return id;
  });
}

export async function updateUserRecord(ctx: Context, id: number, input: UserInput): Promise<number> {
  const user = await findUser(ctx, id);
  const status = authStatus(!!ctx.viewer);
  if (input.roles?.length) {
    if (!ctx.can('promote_users')) throw restError('rest_cannot_edit_roles', 'Sorry, you are not allowed to edit roles of this user.', status);
  }
  const onlyRoles = input.roles?.length && Object.entries(input).every(([k, v]) => k === 'roles' || v === undefined || v === null);
  if (!onlyRoles && !canEditUser(ctx, user.id)) throw restError('rest_cannot_edit', 'Sorry, you are not allowed to edit this user.', status);

  if (input.username !== undefined && input.username !== null && input.username !== user.login) {
    throw restError('rest_user_invalid_argument', "Username isn't editable.", 400);
  }
  const data: PrismaNS.UserUpdateInput = {};
  if (input.email !== undefined && input.email !== null && input.email !== user.email) {
    const owner = await ctx.prisma.user.findFirst({ where: { email: input.email, id: { not: user.id } }, select: { id: true } });
    if (owner) throw restError('rest_user_invalid_email', 'Invalid email address.', 400);
    data.email = checkEmail(input.email);
  }
  if (input.slug !== undefined && input.slug !== null && input.slug !== user.slug) {
    const slug = sanitizeTitle(input.slug);
    const owner = await ctx.prisma.user.findFirst({ where: { slug, id: { not: user.id } }, select: { id: true } });
    if (owner || !slug) throw restError('rest_user_invalid_slug', 'Invalid slug.', 400);
    data.slug = slug;
  }
  if (input.roles?.length) data.role = checkRoles(ctx, user.id, input.roles);
  if (input.password !== undefined && input.password !== null) data.passwordHash = await hashLoginPassword(checkPassword(input.password));
  if (input.name !== undefined && input.name !== null) data.displayName = input.name;
  if (input.url !== undefined && input.url !== null) data.url = input.url;
  if (input.description !== undefined && input.description !== null) data.description = input.description;
  if (input.locale !== undefined && input.locale !== null) data.locale = input.locale === 'en_US' ? '' : input.locale;
  if (input.firstName != null) data.firstName = input.firstName;
  if (input.lastName != null) data.lastName = input.lastName;
  if (input.nickname != null) data.nickname = input.nickname === user.login ? '' : input.nickname;
  if (Object.keys(data).length) {
    await ctx.prisma.user.update({ where: { id: user.id }, data });
  }
  await afterWrite(ctx, { object: 'user', id: user.id, action: 'save' });
  return user.id;
}

/** delete_item of the users controller: permission, then force, then reassign, in WordPress's order. */
export async function checkDeleteUser(ctx: Context, id: number, force: boolean, reassign: number | false) {
  const user = await findUser(ctx, id);
  if (!canDeleteUser(ctx, user.id)) throw restError('rest_user_cannot_delete', 'Sorry, you are not allowed to delete this user.', authStatus(!!ctx.viewer));
  if (!force) throw restError('rest_trash_not_supported', "Users do not support trashing. Set 'force' to delete.", 501);
  if (reassign !== false) {
    const target = reassign === user.id ? null : await ctx.prisma.user.findUnique({ where: { id: reassign }, select: { id: true } });
    if (!target) throw restError('rest_user_invalid_reassign', 'Invalid user ID for reassignment.', 400);
  }
  return user;
}

/**
 * Deletes a user in one transaction. With `reassign` their content is handed to that user; with
 * `false` it is deleted with its revisions, as wp_delete_user does. Application passwords and
 * sessions go with the user.
 */
export async function deleteUserRecord(ctx: Context, id: number, reassign: number | false): Promise<void> {
  const site = await ctx.site();
  await ctx.prisma.$transaction(async (tx) => {
    let terms: number[] = [];
    if (reassign !== false) {
      await tx.content.updateMany({ where: { authorId: id }, data: { authorId: reassign } });
    } else {
      const owned = (await tx.content.findMany({ where: { authorId: id }, select: { id: true } })).map((r) => r.id);
      terms = (await tx.termRelationship.findMany({ where: { contentId: { in: owned } }, select: { termId: true } })).map((t) => t.termId);
      // Revisions of the deleted items go with them, whoever made them.
      await tx.content.deleteMany({ where: { parentId: { in: owned }, type: { in: ['revision', 'autosave'] } } });
      await tx.content.deleteMany({ where: { id: { in: owned } } });
      const sticky = site.stickyPosts.filter((s) => !owned.includes(s));
      if (sticky.length !== site.stickyPosts.length) await setOption(tx, 'sticky_posts', sticky);
    }
    await tx.user.delete({ where: { id } });
    // Last (with the COMMIT on PostgreSQL): the terms' rows stay locked until the commit.
    if (terms.length) await recountTermsLast(tx, ctx.db, terms);
  });
  await afterWrite(ctx, { object: 'user', id, action: 'delete' });
}
