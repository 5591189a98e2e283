// User queries: one user (or the caller), and a page of a filtered list with its totals.
import { builder } from '../builder.js';
import { restError } from '../../errors.js';
import type { Prisma as PrismaNS, User } from '../../generated/sqlite/client.js';
import { UserRef } from './types.js';
import { absOffset, cachedCount, keyColumns, type SortedList } from '../../db/list.js';
import { listArgs, listFilterInput } from '../resource-types.js';
import { connectionArgs, connectionType, keysetConnection, sortedConnection, type ConnectionArgs, type ConnectionShape } from '../connections.js';
import { UserList as UserListDef } from '../../resources/users.js';
import {
  checkReadUser, checkUserListAccess, orderedUserIds, resolveUserId, sortedUsers, userListOrder, userListWhere,
  type UserListFilter as Filter, type UserListPaging,
} from '../../users/service.js';

interface UserListShape { where: PrismaNS.UserWhereInput; paging: UserListPaging; skip: number; ids: number[] | null }

const countUsers = (ctx: Parameters<typeof userListWhere>[0], where: PrismaNS.UserWhereInput) => cachedCount(ctx, 'user', where);

const UserList = builder.objectRef<UserListShape>('UserList').implement({
  description: 'One page of users with the totals of the whole filtered list.',
  fields: (t) => ({
    total: t.int({ description: 'Users matching the filter.', resolve: (l, _a, ctx) => countUsers(ctx, l.where) }),
    totalPages: t.int({ description: 'Pages of this size.', resolve: async (l, _a, ctx) => Math.ceil((await countUsers(ctx, l.where)) / l.paging.perPage) }),
    nodes: t.prismaField({
      type: [UserRef],
      description: 'The users of this page.',
      resolve: async (query, l, _a, ctx) => {
        if (l.ids) {
          const rows = await ctx.prisma.user.findMany({ ...query, where: { id: { in: l.ids } } });
          return l.ids.map((id) => rows.find((r) => r.id === id)!).filter(Boolean);
        }
        return ctx.prisma.user.findMany({ ...query, where: l.where, orderBy: userListOrder(l.paging), skip: l.skip, take: l.paging.perPage });
      },
    }),
  }),
});

const UserConnection = connectionType('User', UserRef, 'User', 'user');

builder.queryFields((t) => ({
  usersConnection: t.field({
    type: UserConnection,
    description: 'Users as a cursor connection: the same filters, orders and access rules as `users` (and the REST collection), paged with first/after/last/before.',
    args: { ...connectionArgs(t), ...listArgs(t, UserListDef, listFilterInput(UserListDef), { omit: ['page', 'per_page', 'offset'], filterArg: 'where' }) } as never,
    resolve: async (_root, rawArgs, ctx) => {
      const args = rawArgs as ConnectionArgs & { where?: Filter | null; order?: string; orderby?: string };
      const filter = (args.where ?? {}) as Filter;
      const orderby = args.orderby ?? 'name';
      checkUserListAccess(ctx, filter, orderby);
      const where = userListWhere(ctx, filter);
      const total = () => countUsers(ctx, where);
      const paging = { order: args.order === 'desc' ? 'desc' : 'asc', orderby } as const;
      const order = `user:${orderby}:${paging.order}`;
      if (orderby === 'include' || orderby === 'include_slugs') {
        let sorted: Promise<SortedList> | undefined;
        const list = () => (sorted ??= sortedUsers(ctx, where, filter, paging).then((l) => l!));
        return sortedConnection(args, order, list, { width: 2, total, readByIds: (query, ids) => ctx.prisma.user.findMany({ ...query, where: { id: { in: ids } } }) as Promise<User[]> });
      }
      const orderBy = userListOrder({ ...paging, page: 1, perPage: 1 }) as object[];
      return keysetConnection<User>(args, {
        order, orderBy, columns: keyColumns('User', orderBy),
        read: (query, bound, by, take) => ctx.prisma.user.findMany({ ...query, where: { AND: [where, bound] }, orderBy: by, take } as never) as Promise<User[]>,
      }, total) as ConnectionShape;
    },
  }),
  user: t.prismaField({
    type: UserRef,
    description: 'One user by id; without an id, the signed-in caller ("me").',
    args: {
      id: t.arg.int({ required: false, description: 'User id; omit for the caller.' }),
    },
    resolve: async (query, _root, args, ctx) => {
      const id = resolveUserId(ctx, args.id);
      const user = await checkReadUser(ctx, id);
      return ctx.prisma.user.findUniqueOrThrow({ ...query, where: { id: user.id } });
    },
  }),
  users: t.field({
    type: UserList,
    description: 'A page of users, by name by default. Callers who may not list users see only authors of published content.',
    args: listArgs(t, UserListDef, listFilterInput(UserListDef)) as never,
    resolve: async (_root, rawArgs, ctx) => {
      const args = absOffset(rawArgs as { filter?: Filter | null; page?: number; perPage?: number; offset?: number | null; order?: string; orderby?: string });
      const filter = (args.filter ?? {}) as Filter;
      const orderby = args.orderby ?? 'name';
      checkUserListAccess(ctx, filter, orderby);
      const page = args.page ?? 1;
      const perPage = args.perPage ?? 10;
      if (page < 1 || perPage < 1 || perPage > 100) throw restError('rest_invalid_param', 'Invalid parameter(s): per_page', 400);
      const paging: UserListPaging = { page, perPage, offset: args.offset, order: args.order === 'desc' ? 'desc' : 'asc', orderby };
      const where = userListWhere(ctx, filter);
      const skip = args.offset ?? (page - 1) * perPage;
      return { where, paging, skip, ids: await orderedUserIds(ctx, where, filter, paging, skip) };
    },
  }),
}));
