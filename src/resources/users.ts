// Users and their application passwords. Private user fields (WordPress shows them in edit
// context) resolve to null unless the caller is that user or may list or edit users, so GraphQL
// clients see no more than REST clients.
import type { Context } from '../context.js';
import { ALL_CONTEXTS, EDIT, VIEW_EDIT, collectionParams, defineResource, type FieldDef, type ListDef } from './define.js';
import { Order, UserOrderBy, UserWho } from './enums.js';
import { capabilitiesOf } from '../auth/capabilities.js';
import { canDeleteUser, canEditUser, canSeeUserDetails } from '../auth/user-permissions.js';
import { authorLink, avatarUrls } from '../users/service.js';
import { formatWpDate } from '../content/dates.js';
import type { AppPasswordRecord } from '../users/application-passwords.js';

interface UserRow { id: number; login: string; email: string; slug: string; role: string; locale: string; registered: Date; firstName: string; lastName: string; nickname: string }

/** ISO 8601 with an explicit UTC offset, as WordPress prints registered_date (PHP date 'c'). */
const isoWithOffset = (d: Date) => d.toISOString().replace(/\.\d{3}Z$/, '+00:00');

const detail = <T>(resolve: (u: UserRow) => T) => (u: UserRow, _a: unknown, ctx: Context): T | null => (canSeeUserDetails(ctx, u.id) ? resolve(u) : null);

const PRIVATE = '; null unless the caller may see private details.';

const privateField = (f: Omit<FieldDef, 'nullable' | 'contexts'> & { contexts?: FieldDef['contexts'] }, gql: string, resolve: (u: UserRow) => unknown): FieldDef => ({
  contexts: EDIT, ...f, nullable: true, graphqlDescription: gql + PRIVATE, resolve: detail(resolve),
});

export const UserResource = defineResource({
  name: 'User', title: 'user', description: 'A person who can sign in, author content and hold application passwords.',
  fields: {
    databaseId: { kind: 'integer', rest: 'id', column: 'id', graphqlDescription: 'The id REST uses (in its routes and `id` fields); `id` is the global id.', description: 'Unique identifier for the user.', contexts: ALL_CONTEXTS, readonly: true },
    username: privateField({ kind: 'string', description: 'Login name for the user.', required: true }, 'Login name; set on create, never changed', (u) => u.login),
    name: { kind: 'string', description: 'Display name for the user.', contexts: ALL_CONTEXTS, column: 'displayName' },
    firstName: privateField({ kind: 'string', description: 'First name for the user.' }, 'Given name', (u) => u.firstName),
    lastName: privateField({ kind: 'string', description: 'Last name for the user.' }, 'Family name', (u) => u.lastName),
    email: privateField({ kind: 'email', description: 'The email address for the user.', required: true }, 'E-mail address, unique', (u) => u.email),
    url: { kind: 'uri', graphqlScalar: 'String', description: 'URL of the user.', contexts: ALL_CONTEXTS },
    description: { kind: 'string', description: 'Description of the user.', contexts: ALL_CONTEXTS },
    link: {
      kind: 'uri', description: 'Author URL of the user.', contexts: ALL_CONTEXTS, readonly: true,
      resolve: async (u: UserRow, _a: unknown, ctx: Context) => authorLink(await ctx.site(), u.slug),
    },
    locale: privateField({ kind: 'string', description: 'Locale for the user.', schema: { enum: ['', 'en_US'] } }, 'Locale, en_US by default', (u) => u.locale || 'en_US'),
    nickname: privateField({ kind: 'string', description: 'The nickname for the user.' }, 'Nickname (the login name unless set)', (u) => u.nickname || u.login),
    slug: { kind: 'string', description: 'An alphanumeric identifier for the user.', contexts: ALL_CONTEXTS },
    roles: privateField({ kind: 'string[]', description: 'Roles assigned to the user.' }, 'Roles held (one here; promote_users to change)', (u) => [u.role]),
    registeredDate: privateField({ kind: 'date-time', graphqlScalar: 'String', description: 'Registration date for the user.', readonly: true }, 'Registration time, ISO 8601 in UTC with offset', (u) => isoWithOffset(u.registered)),
    password: { kind: 'string', description: 'Password for the user (never included).', contexts: [], writeOnly: true, required: true, graphqlDescription: 'New login password (never returned).' },
    capabilities: privateField({ kind: 'json', description: 'All capabilities assigned to the user.', readonly: true }, 'Every capability held, and the role, mapped to true', (u) => Object.fromEntries([...capabilitiesOf(u.role), u.role].map((c) => [c, true]))),
    extraCapabilities: privateField({ kind: 'json', description: 'Any extra capabilities assigned to the user.', readonly: true }, 'Capabilities granted to the user directly (the role), mapped to true', (u) => ({ [u.role]: true })),
    avatarUrls: {
      kind: 'object', graphqlType: ['Avatar'], selection: '{ size url }', readonly: true, contexts: ALL_CONTEXTS,
      description: 'Avatar URLs for the user.', graphqlDescription: 'Avatar addresses at 24, 48 and 96 pixels.',
      properties: Object.fromEntries([24, 48, 96].map((size) => [String(size), { kind: 'uri' as const, description: `Avatar URL with image size of ${size} pixels.`, contexts: ALL_CONTEXTS }])),
      resolve: (u: UserRow) => avatarUrls(u.email),
    },
    meta: { kind: 'json', description: 'Meta fields.', contexts: VIEW_EDIT, properties: {}, graphqlInput: false, graphqlDescription: 'Registered meta values (none are registered: an empty list).', resolve: () => [] },
    viewerCanEdit: { kind: 'boolean', rest: false, linkData: '_can_edit', linkContexts: VIEW_EDIT, readonly: true, description: 'Whether the caller may update this user.', resolve: (u: UserRow, _a: unknown, ctx: Context) => canEditUser(ctx, u.id) },
    viewerCanDelete: { kind: 'boolean', rest: false, linkData: '_can_delete', linkContexts: VIEW_EDIT, readonly: true, description: 'Whether the caller may delete this user.', resolve: (u: UserRow, _a: unknown, ctx: Context) => canDeleteUser(ctx, u.id) },
  },
});

export const ApplicationPasswordResource = defineResource({
  name: 'ApplicationPassword', title: 'application-password',
  description: 'An application password of a user: a secret for HTTP Basic sign-in by one application.',
  fields: {
    uuid: { kind: 'uuid', graphqlScalar: 'String', description: 'The unique identifier for the application password.', contexts: ALL_CONTEXTS, readonly: true },
    appId: {
      kind: 'uuid', graphqlScalar: 'String', description: 'A UUID provided by the application to uniquely identify it. It is recommended to use an UUID v5 with the URL or DNS namespace.', contexts: ALL_CONTEXTS,
      graphqlDescription: "The application's own UUID, as it gave it (create only); empty when none.",
    },
    name: {
      kind: 'string', description: 'The name of the application password.', contexts: ALL_CONTEXTS, required: true, schema: { minLength: 1, pattern: '.*\\S.*' },
      graphqlDescription: 'Name of the application, unique per user (required on create).',
    },
    created: { kind: 'date-time', description: 'The GMT date the application password was created.', contexts: ALL_CONTEXTS, readonly: true, resolve: (p: AppPasswordRecord) => formatWpDate(p.created) },
    lastUsed: {
      kind: 'date-time', nullable: true, acceptsNull: true, description: 'The GMT date the application password was last used.', contexts: VIEW_EDIT, readonly: true,
      graphqlDescription: 'Last use in UTC, recorded at most once a day; null when never used.', resolve: (p: AppPasswordRecord) => (p.lastUsed ? formatWpDate(p.lastUsed) : null),
    },
    lastIp: {
      kind: 'string', nullable: true, acceptsNull: true, description: 'The IP address the application password was last used by.', contexts: VIEW_EDIT, readonly: true, schema: { format: 'ip' },
      graphqlDescription: 'Client address of the last recorded use; null when never used.', resolve: (p: AppPasswordRecord) => p.lastIp ?? null,
    },
    password: {
      kind: 'string', nullable: true, description: 'The generated password. Only available after adding an application.', contexts: EDIT, readonly: true,
      sentOnly: 'in the answer that created the application password',
      graphqlDescription: 'The password itself, in groups of four: only in the answer that issued it, null afterwards.', resolve: (p: AppPasswordRecord) => p.password ?? null,
    },
    userId: { kind: 'integer', rest: false, linkData: '_user', readonly: true, description: 'Id of the user it belongs to.' },
  },
});

// ---------------------------------------------------------------- collections

export const UserList: ListDef = {
  filterName: 'UserListFilter', description: 'Filters of the user list; every one optional.',
  params: {
    ...collectionParams({ perPageDefault: 10 }),
    exclude: { in: 'filter', kind: 'integer[]', description: 'Ensure result set excludes specific IDs.', default: [] },
    include: { in: 'filter', kind: 'integer[]', description: 'Limit result set to specific IDs.', default: [] },
    offset: { in: 'arg', kind: 'integer', description: 'Offset the result set by a specific number of items.' },
    order: { in: 'arg', kind: 'enum', enum: Order, description: 'Order sort attribute ascending or descending.', default: 'asc' },
    orderby: { in: 'arg', kind: 'enum', enum: UserOrderBy, description: 'Sort collection by user attribute.', default: 'name' },
    slug: { in: 'filter', kind: 'string[]', description: 'Limit result set to users with one or more specific slugs.' },
    roles: { in: 'filter', kind: 'string[]', description: 'Limit result set to users matching at least one specific role provided. Accepts csv list or single role.' },
    capabilities: { in: 'filter', kind: 'string[]', description: 'Limit result set to users matching at least one specific capability provided. Accepts csv list or single capability.' },
    who: { in: 'filter', kind: 'enum', enum: UserWho, description: 'Limit result set to users who are considered authors.' },
    has_published_posts: {
      in: 'filter', kind: 'string[]', description: 'Limit result set to users who have published posts.',
      graphqlDescription: 'Only users with published content of these types. Callers who may not list users always get this filter, for posts and pages.',
      argSchema: { type: ['boolean', 'array'], items: { type: 'string', enum: ['post', 'page', 'attachment'] } },
      // true stands for every public type, as WordPress's get_post_types(['show_in_rest' => true]).
      fromRest: (v) => (v === true ? ['post', 'page'] : Array.isArray(v) ? v : undefined),
    },
  },
};
