// core/v2/users, core/v2/users/me and the application-passwords routes under a user
// (WordPress's users and application-passwords controllers). Their arguments live here too: the
// shared sets in gateway/args/ belong to the content routes.
import type { ArgDef, Endpoint, GatewayRequest, Method, Params, RouteEntry, RouteResult } from '../types.js';
import type { Runner } from '../execute.js';
import type { RestContext } from '../operations.js';
import { WpError } from '../errors.js';
import { contextArg, pagingArgs } from '../args/common.js';
import { pagingHeaders } from '../shape/paging.js';

// ---------------------------------------------------------------- arguments, in WordPress's order

export function userCollectionArgs(): Record<string, ArgDef> {
  return {
    ...pagingArgs(),
    exclude: { description: 'Ensure result set excludes specific IDs.', type: 'array', items: { type: 'integer' }, default: [] },
    include: { description: 'Limit result set to specific IDs.', type: 'array', items: { type: 'integer' }, default: [] },
    offset: { description: 'Offset the result set by a specific number of items.', type: 'integer' },
    order: { default: 'asc', description: 'Order sort attribute ascending or descending.', enum: ['asc', 'desc'], type: 'string' },
    orderby: {
      default: 'name', description: 'Sort collection by user attribute.',
      enum: ['id', 'include', 'name', 'registered_date', 'slug', 'include_slugs', 'email', 'url'], type: 'string',
    },
    slug: { description: 'Limit result set to users with one or more specific slugs.', type: 'array', items: { type: 'string' } },
    roles: { description: 'Limit result set to users matching at least one specific role provided. Accepts csv list or single role.', type: 'array', items: { type: 'string' } },
    capabilities: { description: 'Limit result set to users matching at least one specific capability provided. Accepts csv list or single capability.', type: 'array', items: { type: 'string' } },
    who: { description: 'Limit result set to users who are considered authors.', type: 'string', enum: ['authors'] },
    has_published_posts: {
      description: 'Limit result set to users who have published posts.',
      type: ['boolean', 'array'], items: { type: 'string', enum: ['post', 'page', 'attachment'] },
    },
  };
}

/** Writable user fields; `create` adds WordPress's required flags. */
export function userWriteArgs(create: boolean): Record<string, ArgDef> {
  const required = create ? { required: true } : {};
  return {
    username: { description: 'Login name for the user.', type: 'string', ...required },
    name: { description: 'Display name for the user.', type: 'string' },
    first_name: { description: 'First name for the user.', type: 'string' },
    last_name: { description: 'Last name for the user.', type: 'string' },
    email: { description: 'The email address for the user.', type: 'string', format: 'email', ...required },
    url: { description: 'URL of the user.', type: 'string', format: 'uri' },
    description: { description: 'Description of the user.', type: 'string' },
    locale: { description: 'Locale for the user.', type: 'string', enum: ['', 'en_US'] },
    nickname: { description: 'The nickname for the user.', type: 'string' },
    slug: { description: 'An alphanumeric identifier for the user.', type: 'string' },
    roles: { description: 'Roles assigned to the user.', type: 'array', items: { type: 'string' } },
    password: { description: 'Password for the user (never included).', type: 'string', ...required },
    meta: { description: 'Meta fields.', type: 'object', properties: {} },
  };
}

export const userIdArg: ArgDef = { description: 'Unique identifier for the user.', type: 'integer' };

export function userDeleteArgs(): Record<string, ArgDef> {
  return {
    force: { type: 'boolean', default: false, description: 'Required to be true, as users do not support trashing.' },
    // WordPress validates this with its own sanitize callback (false, '' or a number), not the schema.
    reassign: { type: 'integer', description: "Reassign the deleted user's posts and links to this user ID.", required: true, skipValidation: true },
  };
}

export function appPasswordWriteArgs(create: boolean): Record<string, ArgDef> {
  return {
    app_id: { description: 'A UUID provided by the application to uniquely identify it. It is recommended to use an UUID v5 with the URL or DNS namespace.', type: 'string', format: 'uuid' },
    name: { description: 'The name of the application password.', type: 'string', minLength: 1, pattern: '.*\\S.*', ...(create ? { required: true } : {}) },
  };
}

export const viewContext = (): Record<string, ArgDef> => ({ context: contextArg() });

// ---------------------------------------------------------------- routes

type Item = Record<string, any>;

const contextOf = (p: Params) => (p.context as RestContext) ?? 'view';

/** Methods the caller may use on a user item (self.targetHints.allow and Allow). */
function userAllow(item: Item): Method[] {
  const allow: Method[] = ['GET'];
  if (item._can_edit) allow.push('POST', 'PUT', 'PATCH');
  if (item._can_delete) allow.push('DELETE');
  return allow;
}

/** A user record as WordPress prints it: avatar_urls keyed by size, meta `[]`, `_links`. */
export function shapeUser(root: string, item: Item, context: string): Item {
  const out: Item = {};
  for (const [key, value] of Object.entries(item)) {
    if (key === '_can_edit' || key === '_can_delete') continue;
    out[key] = key === 'avatar_urls' ? Object.fromEntries((value as { size: number; url: string }[]).map((a) => [String(a.size), a.url])) : value;
  }
  if (context !== 'embed') out.meta = [];
  out._links = {
    self: [{ href: `${root}core/v2/users/${item.id}`, ...(item._can_edit !== undefined ? { targetHints: { allow: userAllow(item) } } : {}) }],
    collection: [{ href: `${root}core/v2/users` }],
  };
  return out;
}

/** users/me and application-password routes take `me`; the domain reads a missing id as the caller. */
const userIdParam = (value: unknown): number | null => (value === 'me' || value === undefined ? null : Number(value));

/** The users controller's check_reassign(): a number, or false/''/'false' for "delete their content". */
function reassignParam(value: unknown): number | null {
  if (typeof value === 'number' && Number.isInteger(value)) return value;
  if (typeof value === 'string' && /^\d+$/.test(value.trim())) return Number(value);
  if (value === false || value === '' || value === 'false' || value === 0 || value === '0') return null;
  throw new WpError('rest_invalid_param', 'Invalid parameter(s): reassign', 400, {
    params: { reassign: 'Invalid user parameter(s).' },
    details: { reassign: { code: 'rest_invalid_param', message: 'Invalid user parameter(s).', data: { status: 400 } } },
  });
}

function userInput(p: Params): Record<string, unknown> {
  const input: Record<string, unknown> = {
    username: p.username, name: p.name, firstName: p.first_name, lastName: p.last_name, email: p.email, url: p.url,
    description: p.description, locale: p.locale, nickname: p.nickname, slug: p.slug, roles: p.roles, password: p.password,
  };
  for (const key of Object.keys(input)) if (input[key] === undefined) delete input[key];
  return input;
}

export function userRoutes(run: Runner): RouteEntry[] {
  const itemResult = (req: GatewayRequest, item: Item, status: number, context: string): RouteResult => ({
    status, body: shapeUser(req.root, item, context), allow: userAllow(item),
  });

  const list: Endpoint = {
    methods: ['GET'], allowBatch: true, permission: 'public', operation: 'UsersList',
    args: userCollectionArgs(),
    async handler(req) {
      const p = req.params;
      const context = contextOf(p);
      const published = p.has_published_posts;
      const filter = {
        search: p.search || undefined, include: p.include, exclude: p.exclude, slug: p.slug, roles: p.roles,
        capabilities: p.capabilities, who: p.who,
        hasPublishedPosts: published === true ? ['post', 'page'] : Array.isArray(published) ? published : undefined,
      };
      const data = await run('UsersList', context, {
        filter, context, page: p.page, perPage: p.per_page, offset: p.offset, order: p.order, orderby: p.orderby, withTotal: true,
      }, req.ctx);
      const { total, totalPages, nodes } = data.users;
      return {
        status: 200,
        body: nodes.map((n: Item) => shapeUser(req.root, n, context)),
        headers: pagingHeaders(`${req.root}core/v2/users`, req.query, p.page as number, total, totalPages),
      };
    },
  };

  const create: Endpoint = {
    methods: ['POST'], allowBatch: true, permission: 'create_users', operation: 'UserCreate',
    args: userWriteArgs(true),
    async handler(req) {
      if (req.params.id !== undefined) throw new WpError('rest_user_exists', 'Cannot create existing user.', 400);
      const data = await run('UserCreate', 'edit', { input: userInput(req.params) }, req.ctx);
      const item = data.createUser;
      return { ...itemResult(req, item, 201, 'edit'), headers: { Location: `${req.root}core/v2/users/${item.id}` } };
    },
  };

  const get = (me: boolean): Endpoint => ({
    methods: ['GET'], allowBatch: !me, permission: me ? 'read' : 'public', operation: 'UserGet',
    args: me ? { context: contextArg() } : { id: userIdArg, context: contextArg() },
    async handler(req) {
      const context = contextOf(req.params);
      const data = await run('UserGet', context, { id: me ? null : Number(req.params.id), context }, req.ctx);
      return itemResult(req, data.user, 200, context);
    },
  });

  const update = (me: boolean): Endpoint => ({
    methods: ['POST', 'PUT', 'PATCH'], allowBatch: !me, permission: me ? 'read' : 'edit_users', operation: 'UserUpdate',
    args: me ? userWriteArgs(false) : { id: userIdArg, ...userWriteArgs(false) },
    async handler(req) {
      const data = await run('UserUpdate', 'edit', { id: me ? null : Number(req.params.id), input: userInput(req.params) }, req.ctx);
      return itemResult(req, data.updateUser, 200, 'edit');
    },
  });

  const remove = (me: boolean): Endpoint => ({
    methods: ['DELETE'], allowBatch: !me, permission: 'delete_users', operation: 'UserDelete',
    args: me ? userDeleteArgs() : { id: userIdArg, ...userDeleteArgs() },
    async handler(req) {
      const reassign = reassignParam(req.params.reassign);
      const data = await run('UserDelete', 'edit', { id: me ? null : Number(req.params.id), force: req.params.force === true, reassign }, req.ctx);
      const { deleted, previous } = data.deleteUser;
      return { status: 200, body: { deleted, previous: shapeUser(req.root, previous, 'edit') } };
    },
  });

  return [
    { namespace: 'core/v2', pattern: '/core/v2/users', endpoints: [list, create] },
    { namespace: 'core/v2', pattern: '/core/v2/users/(?P<id>[\\d]+)', endpoints: [get(false), update(false), remove(false)] },
    { namespace: 'core/v2', pattern: '/core/v2/users/me', endpoints: [get(true), update(true), remove(true)] },
  ];
}

/** An application-password record as WordPress prints it, with its `self` link. */
function shapeAppPassword(root: string, item: Item): Item {
  const { _user, ...rest } = item;
  if (rest.password === null) delete rest.password;
  return { ...rest, _links: { self: [{ href: `${root}core/v2/users/${_user}/application-passwords/${item.uuid}` }] } };
}

export function applicationPasswordRoutes(run: Runner): RouteEntry[] {
  const base = '/core/v2/users/(?P<user_id>(?:[\\d]+|me))/application-passwords';
  const userId = (req: GatewayRequest) => userIdParam(req.pathParams.user_id);
  const input = (p: Params) => {
    const out: Record<string, unknown> = {};
    if (p.name !== undefined) out.name = p.name;
    if (p.app_id !== undefined) out.appId = p.app_id;
    return out;
  };

  const list: Endpoint = {
    methods: ['GET'], permission: 'read', operation: 'ApplicationPasswordsList', args: viewContext(),
    async handler(req) {
      const data = await run('ApplicationPasswordsList', contextOf(req.params), { userId: userId(req) }, req.ctx);
      return { status: 200, body: data.applicationPasswords.map((i: Item) => shapeAppPassword(req.root, i)) };
    },
  };
  const create: Endpoint = {
    methods: ['POST'], permission: 'read', operation: 'ApplicationPasswordCreate', args: appPasswordWriteArgs(true),
    async handler(req) {
      const data = await run('ApplicationPasswordCreate', undefined, { userId: userId(req), input: input(req.params) }, req.ctx);
      const body = shapeAppPassword(req.root, data.createApplicationPassword);
      return { status: 201, body, headers: { Location: (body._links as { self: { href: string }[] }).self[0].href } };
    },
  };
  const removeAll: Endpoint = {
    methods: ['DELETE'], permission: 'read', operation: 'ApplicationPasswordsDelete', args: {},
    async handler(req) {
      const data = await run('ApplicationPasswordsDelete', undefined, { userId: userId(req) }, req.ctx);
      return { status: 200, body: data.deleteApplicationPasswords };
    },
  };
  const introspect: Endpoint = {
    methods: ['GET'], permission: 'read', operation: 'ApplicationPasswordIntrospect', args: viewContext(),
    async handler(req) {
      const data = await run('ApplicationPasswordIntrospect', contextOf(req.params), { userId: userId(req) }, req.ctx);
      return { status: 200, body: shapeAppPassword(req.root, data.currentApplicationPassword) };
    },
  };
  const get: Endpoint = {
    methods: ['GET'], permission: 'read', operation: 'ApplicationPasswordGet', args: viewContext(),
    async handler(req) {
      const data = await run('ApplicationPasswordGet', contextOf(req.params), { userId: userId(req), uuid: req.pathParams.uuid }, req.ctx);
      return { status: 200, body: shapeAppPassword(req.root, data.applicationPassword) };
    },
  };
  const update: Endpoint = {
    methods: ['POST', 'PUT', 'PATCH'], permission: 'read', operation: 'ApplicationPasswordUpdate', args: appPasswordWriteArgs(false),
    async handler(req) {
      const data = await run('ApplicationPasswordUpdate', undefined, { userId: userId(req), uuid: req.pathParams.uuid, input: input(req.params) }, req.ctx);
      return { status: 200, body: shapeAppPassword(req.root, data.updateApplicationPassword) };
    },
  };
  const remove: Endpoint = {
    methods: ['DELETE'], permission: 'read', operation: 'ApplicationPasswordDelete', args: {},
    async handler(req) {
      const data = await run('ApplicationPasswordDelete', undefined, { userId: userId(req), uuid: req.pathParams.uuid }, req.ctx);
      const { deleted, previous } = data.deleteApplicationPassword;
      return { status: 200, body: { deleted, previous: shapeAppPassword(req.root, previous) } };
    },
  };

  return [
    { namespace: 'core/v2', pattern: base, endpoints: [list, create, removeAll] },
    // Registered before the uuid route, as WordPress does: `introspect` would match [\w\-]+ too.
    { namespace: 'core/v2', pattern: `${base}/introspect`, endpoints: [introspect] },
    { namespace: 'core/v2', pattern: `${base}/(?P<uuid>[\\w\\-]+)`, endpoints: [get, update, remove] },
  ];
}
