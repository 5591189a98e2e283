// User queries: one user (or the caller), and a page of a filtered list with its totals.
import { builder } from '../builder.js';
import { restError } from '../../errors.js';
import type { Prisma as PrismaNS } from '../../generated/sqlite/client.js';
import { UserRef } from './types.js';
import { cachedCount } from '../../db/list.js';
import { enumRef } from '../resource-types.js';
import { Order, UserOrderBy, UserWho } from '../../resources/enums.js';
import {
  checkReadUser, checkUserListAccess, orderedUserIds, resolveUserId, userListOrder, userListWhere,
  type UserListFilter as Filter, type UserListPaging,
} from './service.js';

export const UserListFilter = builder.inputType('UserListFilter', {
  description: 'Filters of the user list; every one optional.',
  fields: (t) => ({
    search: t.string({ required: false, description: 'Text in the login, name or slug (also e-mail and URL for callers who may list users).' }),
    include: t.intList({ required: false, description: 'Only these ids.' }),
    exclude: t.intList({ required: false, description: 'Not these ids.' }),
    slug: t.stringList({ required: false, description: 'Only users with one of these slugs.' }),
    roles: t.stringList({ required: false, description: 'Only users holding one of these roles (needs list_users).' }),
    capabilities: t.stringList({ required: false, description: 'Only users holding every one of these capabilities (needs list_users).' }),
    who: t.field({ type: enumRef(UserWho), required: false, description: 'AUTHORS: only users who can author content (needs the right to edit posts or pages).' }),
    hasPublishedPosts: t.stringList({ required: false, description: 'Only users with published content of these types. Callers who may not list users always get this filter, for posts and pages.' }),
  }),
});

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

builder.queryFields((t) => ({
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
    args: {
      filter: t.arg({ type: UserListFilter, required: false }),
      page: t.arg.int({ required: false, defaultValue: 1 }),
      perPage: t.arg.int({ required: false, defaultValue: 10 }),
      offset: t.arg.int({ required: false }),
      order: t.arg({ type: enumRef(Order), required: false, defaultValue: 'asc', description: 'Order sort attribute ascending or descending.' }),
      orderby: t.arg({ type: enumRef(UserOrderBy), required: false, defaultValue: 'name', description: 'Sort collection by user attribute.' }),
    },
    resolve: async (_root, args, ctx) => {
      const filter = (args.filter ?? {}) as Filter;
      const orderby = (args.orderby as string) ?? 'name';
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
