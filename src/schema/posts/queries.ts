// Post queries: one item, and a page of a filtered list with its totals.
import { queryFromInfo } from '@pothos/plugin-prisma';
import { builder } from '../builder.js';
import { PostRef } from './types.js';
import {
  checkListContext, checkReadItem, checkStatusFilter, countContent, listOrder, listWhere, readableRows,
  type ListFilter, type ListPaging,
} from './service.js';
import { restError } from '../../errors.js';
import type { Prisma as PrismaNS } from '../../generated/sqlite/client.js';

export const ContentListFilter = builder.inputType('ContentListFilter', {
  description: 'Filters of a content list; every one optional.',
  fields: (t) => ({
    search: t.string({ required: false, description: 'Words that must appear in the title, excerpt or content; -word excludes.' }),
    after: t.string({ required: false, description: 'Published after this date (ISO 8601; site time without an offset).' }),
    before: t.string({ required: false, description: 'Published before this date.' }),
    modifiedAfter: t.string({ required: false, description: 'Modified after this date.' }),
    modifiedBefore: t.string({ required: false, description: 'Modified before this date.' }),
    author: t.intList({ required: false, description: 'Only items by these authors.' }),
    authorExclude: t.intList({ required: false, description: 'No items by these authors.' }),
    include: t.intList({ required: false, description: 'Only these ids.' }),
    exclude: t.intList({ required: false, description: 'Not these ids.' }),
    slug: t.stringList({ required: false, description: 'Only items with one of these slugs.' }),
    status: t.stringList({ required: false, description: 'Statuses to include (default publish; "any" for all but trash).' }),
  }),
});

interface PostListShape { where: PrismaNS.ContentWhereInput; paging: ListPaging; skip: number }

const PostList = builder.objectRef<PostListShape>('PostList').implement({
  description: 'One page of posts with the totals of the whole filtered list.',
  fields: (t) => ({
    total: t.int({ description: 'Posts matching the filter (before per-item visibility is applied).', resolve: (l, _a, ctx) => countContent(ctx, l.where) }),
    totalPages: t.int({ description: 'Pages of this size.', resolve: async (l, _a, ctx) => Math.ceil((await countContent(ctx, l.where)) / l.paging.perPage) }),
    nodes: t.prismaField({
      type: [PostRef],
      description: 'The posts of this page that the caller may read.',
      resolve: async (query, l, _a, ctx) =>
        readableRows(ctx, await ctx.prisma.content.findMany({ ...query, where: l.where, orderBy: listOrder(l.paging), skip: l.skip, take: l.paging.perPage })),
    }),
  }),
});

builder.queryFields((t) => ({
  post: t.prismaField({
    type: PostRef,
    description: 'One post by id.',
    args: {
      id: t.arg.int({ required: true }),
      context: t.arg.string({ required: false, defaultValue: 'view', description: 'view, embed or edit (edit needs the right to edit the post).' }),
      password: t.arg.string({ required: false, description: 'The post password, to see protected content.' }),
    },
    resolve: async (query, _root, args, ctx) => {
      const row = await checkReadItem(ctx, 'post', args.id, args.context ?? 'view', args.password);
      return ctx.prisma.content.findUniqueOrThrow({ ...query, where: { id: row.id } });
    },
  }),
  posts: t.field({
    type: PostList,
    description: 'A page of posts, newest first by default.',
    args: {
      filter: t.arg({ type: ContentListFilter, required: false }),
      context: t.arg.string({ required: false, defaultValue: 'view' }),
      page: t.arg.int({ required: false, defaultValue: 1 }),
      perPage: t.arg.int({ required: false, defaultValue: 10 }),
      offset: t.arg.int({ required: false }),
      order: t.arg.string({ required: false, defaultValue: 'desc', description: 'asc or desc.' }),
      orderby: t.arg.string({ required: false, defaultValue: 'date', description: 'author, date, id, modified, parent, slug or title.' }),
    },
    resolve: async (_root, args, ctx) => {
      const filter = (args.filter ?? {}) as ListFilter;
      checkListContext(ctx, 'post', args.context ?? 'view');
      checkStatusFilter(ctx, 'post', filter.status ?? [], 'publish');
      const page = args.page ?? 1;
      const perPage = args.perPage ?? 10;
      if (page < 1 || perPage < 1 || perPage > 100) throw restError('rest_invalid_param', 'Invalid parameter(s): per_page', 400);
      const paging: ListPaging = { page, perPage, offset: args.offset, order: args.order === 'asc' ? 'asc' : 'desc', orderby: args.orderby ?? 'date' };
      const where = listWhere(ctx, await ctx.site(), 'post', filter);
      const skip = args.offset ?? (page - 1) * perPage;
      if (page > 1) {
        const total = await countContent(ctx, where);
        if (total > 0 && page > Math.ceil(total / perPage)) {
          throw restError('rest_post_invalid_page_number', 'The page number requested is larger than the number of pages available.', 400);
        }
      }
      return { where, paging, skip };
    },
  }),
}));

export { queryFromInfo };
