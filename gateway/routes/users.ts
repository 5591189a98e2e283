// core/v2/users, core/v2/users/me and the application-passwords routes under a user
// (WordPress's users and application-passwords controllers). Their arguments live here too: the
// shared sets in gateway/args/ belong to the content routes.
import type { ArgDef, Endpoint, GatewayRequest, Params, RouteEntry, RouteResult } from '../types.js';
import type { RestContext } from '../operations.js';
import { WpError } from '../errors.js';
import { clampInt } from '../int-range.js';
import { contextArg } from '../args/common.js';
import { pagingHeaders } from '../shape/paging.js';
import { editCheckAfter, forbiddenContext } from '../edit-context.js';
import { ApplicationPasswordResource, UserList, UserResource } from '../../src/resources/users.js';
import { itemSchema } from '../../src/resources/json-schema.js';
import { collectionArgs, inputOf, listVariables, restItem, writeArgs as resourceWriteArgs } from '../resources.js';
import { itemAllow, selfLink } from '../shape/links.js';

const userSchema = () => itemSchema(UserResource);
const USERS = { kind: 'user', subtype: 'user' } as const;

// ---------------------------------------------------------------- arguments, in WordPress's order

/** Writable user fields, from the user definition; `create` adds WordPress's required flags. */
export const userWriteArgs = (create: boolean) => resourceWriteArgs(UserResource, { create });

export const userIdArg: ArgDef = { description: 'Unique identifier for the user.', type: 'integer' };

export function userDeleteArgs(): Record<string, ArgDef> {
  return {
    force: { type: 'boolean', default: false, description: 'Required to be true, as users do not support trashing.' },
    // WordPress validates this with its own sanitize callback (false, '' or a number), not the schema.
    reassign: { type: 'integer', description: "Reassign the deleted user's posts and links to this user ID.", required: true, skipValidation: true },
  };
}

export const viewContext = (): Record<string, ArgDef> => ({ context: contextArg() });

// ---------------------------------------------------------------- routes

type Item = Record<string, any>;

const contextOf = (p: Params) => (p.context as RestContext) ?? 'view';

const userItem = restItem(UserResource);
const appPasswordItem = restItem(ApplicationPasswordResource);

/** A user record as WordPress prints it: avatar_urls keyed by size, `_links`. */
export function shapeUser(root: string, item: Item): Item {
  if (Array.isArray(item.avatar_urls)) item.avatar_urls = Object.fromEntries((item.avatar_urls as { size: number; url: string }[]).map((a) => [String(a.size), a.url]));
  return userItem(item, {
    self: [selfLink(`${root}core/v2/users/${item.id}`, item)],
    collection: [{ href: `${root}core/v2/users` }],
  });
}

/** users/me and application-password routes take `me`; the domain reads a missing id as the caller. */
const userIdParam = (value: unknown): number | null => (value === 'me' || value === undefined ? null : clampInt(Number(value)));

/** The users controller's check_reassign(): a number, or false/''/'false' for "delete their content". */
function reassignParam(value: unknown): number | null {
  if (typeof value === 'number' && Number.isInteger(value)) return clampInt(value);
  if (typeof value === 'string' && /^\d+$/.test(value.trim())) return clampInt(Number(value));
  if (value === false || value === '' || value === 'false' || value === 0 || value === '0') return null;
  throw new WpError('rest_invalid_param', 'Invalid parameter(s): reassign', 400, {
    params: { reassign: 'Invalid user parameter(s).' },
    details: { reassign: { code: 'rest_invalid_param', message: 'Invalid user parameter(s).', data: { status: 400 } } },
  });
}

const userInput = (p: Params) => inputOf(UserResource, p);

export function userRoutes(): RouteEntry[] {
  const itemResult = (req: GatewayRequest, item: Item, status: number, context: string): RouteResult => ({
    status, body: shapeUser(req.root, item), allow: itemAllow(item),
  });

  const list: Endpoint = {
    methods: ['GET'], allowBatch: true, permission: 'public', operation: 'UsersList',
    args: collectionArgs(UserList),
    async handler(req) {
      const p = req.params;
      const context = contextOf(p);
      // As the users controller: the role and capability filters are refused before the edit context.
      const data = await editCheckAfter(req.ctx, context, req.ctx.can('list_users'), ['rest_user_cannot_view'],
        () => forbiddenContext(req.ctx, 'Sorry, you are not allowed to list users.'),
        () => req.run(context, { ...listVariables(UserList, p), withTotal: true }));
      const { total, totalPages, nodes } = data.users;
      return {
        status: 200,
        body: nodes.map((n: Item) => shapeUser(req.root, n)),
        headers: pagingHeaders(`${req.root}core/v2/users`, req.query, p.page as number, total, totalPages),
      };
    },
  };

  const create: Endpoint = {
    methods: ['POST'], allowBatch: true, permission: 'create_users', operation: 'UserCreate',
    args: userWriteArgs(true),
    async handler(req) {
      if (req.params.id !== undefined) throw new WpError('rest_user_exists', 'Cannot create existing user.', 400);
      const data = await req.run('edit', { input: userInput(req.params) });
      const item = data.createUser;
      return { ...itemResult(req, item, 201, 'edit'), headers: { Location: `${req.root}core/v2/users/${item.id}` } };
    },
  };

  const get = (me: boolean): Endpoint => ({
    methods: ['GET'], allowBatch: !me, permission: me ? 'read' : 'public', operation: 'UserGet',
    args: me ? { context: contextArg() } : { id: userIdArg, context: contextArg() },
    async handler(req) {
      const context = contextOf(req.params);
      const data = await req.run(context, { id: me ? null : Number(req.params.id) });
      // As the users controller: 404, then one's own record, then the edit context needs list_users.
      if (context === 'edit' && data.user.id !== req.ctx.viewer?.id && !req.ctx.can('list_users')) {
        throw forbiddenContext(req.ctx, 'Sorry, you are not allowed to list users.', 'rest_user_cannot_view');
      }
      return itemResult(req, data.user, 200, context);
    },
  });

  const update = (me: boolean): Endpoint => ({
    methods: ['POST', 'PUT', 'PATCH'], allowBatch: !me, permission: me ? 'read' : 'edit_users', operation: 'UserUpdate',
    args: me ? userWriteArgs(false) : { id: userIdArg, ...userWriteArgs(false) },
    async handler(req) {
      const data = await req.run('edit', { id: me ? null : Number(req.params.id), input: userInput(req.params) });
      return itemResult(req, data.updateUser, 200, 'edit');
    },
  });

  const remove = (me: boolean): Endpoint => ({
    methods: ['DELETE'], allowBatch: !me, permission: 'delete_users', operation: 'UserDelete',
    args: me ? userDeleteArgs() : { id: userIdArg, ...userDeleteArgs() },
    async handler(req) {
      const reassign = reassignParam(req.params.reassign);
      const data = await req.run('edit', { id: me ? null : Number(req.params.id), force: req.params.force === true, reassign });
      const { deleted, previous } = data.deleteUser;
      return { status: 200, body: { deleted, previous: shapeUser(req.root, previous) } };
    },
  });

  return [
    { namespace: 'core/v2', pattern: '/core/v2/users', endpoints: [list, create], schema: userSchema, records: USERS },
    { namespace: 'core/v2', pattern: '/core/v2/users/(?P<id>[\\d]+)', endpoints: [get(false), update(false), remove(false)], schema: userSchema, records: USERS },
    { namespace: 'core/v2', pattern: '/core/v2/users/me', endpoints: [get(true), update(true), remove(true)], schema: userSchema, records: USERS },
  ];
}

/** An application-password record as WordPress prints it, with its `self` link. */
function shapeAppPassword(root: string, item: Item): Item {
  if (item.password === null) delete item.password;
  return appPasswordItem(item, { self: [{ href: `${root}core/v2/users/${item._user}/application-passwords/${item.uuid}` }] });
}

export function applicationPasswordRoutes(): RouteEntry[] {
  const base = '/core/v2/users/(?P<user_id>(?:[\\d]+|me))/application-passwords';
  const userId = (req: GatewayRequest) => userIdParam(req.pathParams.user_id);
  const input = (p: Params) => inputOf(ApplicationPasswordResource, p);
  const appPasswordWriteArgs = (create: boolean) => resourceWriteArgs(ApplicationPasswordResource, { create });
  const schema = () => itemSchema(ApplicationPasswordResource);

  const list: Endpoint = {
    methods: ['GET'], permission: 'read', operation: 'ApplicationPasswordsList', args: viewContext(),
    async handler(req) {
      const data = await req.run(contextOf(req.params), { userId: userId(req) });
      return { status: 200, body: data.applicationPasswords.map((i: Item) => shapeAppPassword(req.root, i)) };
    },
  };
  const create: Endpoint = {
    methods: ['POST'], permission: 'read', operation: 'ApplicationPasswordCreate', args: appPasswordWriteArgs(true),
    async handler(req) {
      const data = await req.run(undefined, { userId: userId(req), input: input(req.params) });
      const body = shapeAppPassword(req.root, data.createApplicationPassword);
      return { status: 201, body, headers: { Location: (body._links as { self: { href: string }[] }).self[0].href } };
    },
  };
  const removeAll: Endpoint = {
    methods: ['DELETE'], permission: 'read', operation: 'ApplicationPasswordsDelete', args: {},
    async handler(req) {
      const data = await req.run(undefined, { userId: userId(req) });
      return { status: 200, body: data.deleteApplicationPasswords };
    },
  };
  const introspect: Endpoint = {
    methods: ['GET'], permission: 'read', operation: 'ApplicationPasswordIntrospect', args: viewContext(),
    async handler(req) {
      const data = await req.run(contextOf(req.params), { userId: userId(req) });
      return { status: 200, body: shapeAppPassword(req.root, data.currentApplicationPassword) };
    },
  };
  const get: Endpoint = {
    methods: ['GET'], permission: 'read', operation: 'ApplicationPasswordGet', args: viewContext(),
    async handler(req) {
      const data = await req.run(contextOf(req.params), { userId: userId(req), uuid: req.pathParams.uuid });
      return { status: 200, body: shapeAppPassword(req.root, data.applicationPassword) };
    },
  };
  const update: Endpoint = {
    methods: ['POST', 'PUT', 'PATCH'], permission: 'read', operation: 'ApplicationPasswordUpdate', args: appPasswordWriteArgs(false),
    async handler(req) {
      const data = await req.run(undefined, { userId: userId(req), uuid: req.pathParams.uuid, input: input(req.params) });
      return { status: 200, body: shapeAppPassword(req.root, data.updateApplicationPassword) };
    },
  };
  const remove: Endpoint = {
    methods: ['DELETE'], permission: 'read', operation: 'ApplicationPasswordDelete', args: {},
    async handler(req) {
      const data = await req.run(undefined, { userId: userId(req), uuid: req.pathParams.uuid });
      const { deleted, previous } = data.deleteApplicationPassword;
      return { status: 200, body: { deleted, previous: shapeAppPassword(req.root, previous) } };
    },
  };

  return [
    { namespace: 'core/v2', pattern: base, endpoints: [list, create, removeAll], schema },
    // Registered before the uuid route, as WordPress does: `introspect` would match [\w\-]+ too.
    { namespace: 'core/v2', pattern: `${base}/introspect`, endpoints: [introspect], schema },
    { namespace: 'core/v2', pattern: `${base}/(?P<uuid>[\\w\\-]+)`, endpoints: [get, update, remove], schema },
  ];
}
