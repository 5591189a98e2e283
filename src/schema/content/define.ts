// Queries and mutations of a post-like type, from one definition: posts, pages, attachments and
// the types of the site's content model.
import { queryFromInfo } from '@pothos/plugin-prisma';
import { builder } from '../builder.js';
import { restError } from '../../errors.js';
import type { Prisma as PrismaNS } from '../../generated/sqlite/client.js';
import { listArgs, listFilterInput, resourceInput } from '../resource-types.js';
import { connectionArgs, connectionType, keysetConnection, positionConnection, sortedConnection, type ConnectionArgs, type ConnectionShape } from '../connections.js';
import type { ListDef, ResourceDef } from '../../resources/define.js';
import type { ContentTypeDescriptor } from '../../resources/content-types.js';
import type { PrismaObjectRef } from '@pothos/plugin-prisma';
import { absOffset, keyColumns, type SortedList } from '../../db/list.js';
import { ANSWER_ROWS, contentRows } from '../../db/content-read.js';
import type { Content } from '../../generated/sqlite/client.js';
import type { Context } from '../../context.js';
import type PrismaTypes from '../../generated/pothos-types.js';

export type ContentRef = PrismaObjectRef<typeof builder extends { $inferSchemaTypes: infer T } ? T : never, PrismaTypes['Content']>;
import {
  checkDelete, checkReadItem, checkStatusFilter, countContent, deleteContent, listOrder, listWhere,
  orderedPageIds, ordersInMemory, readableRows, saveContent, sortedInMemory, trashContent, createdAsRead,
  type ContentInput, type ListFilter, type ListPaging, type WrittenContent,
} from '../../content/service.js';
import { primeNoRevisions, primeTermSlugs } from '../../content/fields.js';

interface ListShape { where: PrismaNS.ContentWhereInput; paging: ListPaging; skip: number; ids: number[] | null; total?: number }

export interface ContentTypeDefinition {
  /** The type's descriptor: names, capabilities, what it supports. */
  descriptor: ContentTypeDescriptor;
  /** Its fields. */
  resource: ResourceDef;
  /** The variant's object ref (every variant of Content has the same shape). */
  ref: ContentRef;
  /** Its collection parameters. */
  list: ListDef;
  /** Its update, when not the content service's own (attachments keep their alternative text). */
  update?: (ctx: Context, id: number, input: never) => Promise<number>;
  /** Deleting for good, when more than the record goes (an attachment's files). */
  remove?: (ctx: Context, id: number) => Promise<void>;
  /** Whether `create<Name>` takes the input alone (attachments are made from a file instead). */
  create?: boolean;
}

type ListArgs = { filter?: ListFilter | null; page?: number; perPage?: number; offset?: number | null; order?: string; orderby?: string; ignoreSticky?: boolean };

/** REST paging parameters a connection replaces with cursors. */
const PAGING_PARAMS = ['page', 'per_page', 'offset'];

/** The checks and the query of a list, shared by the paged list and the connection. */
async function prepareList(ctx: Context, args: ListArgs, o: { page: number; perPage: number }, def: { type: string; defaultStatus: string }) {
  const filter = (args.filter ?? {}) as ListFilter;
  checkStatusFilter(ctx, def.type, filter.status ?? [], def.defaultStatus);
  if (args.orderby === 'relevance' && !filter.search) throw restError('rest_no_search_term_defined', 'You need to define a search term to order by relevance.', 400);
  if (args.orderby === 'include' && !filter.include?.length) throw restError('rest_orderby_include_missing_include', 'You need to define an include parameter to order by include.', 400);
  const paging: ListPaging = { page: o.page, perPage: o.perPage, offset: args.offset, order: args.order === 'asc' ? 'asc' : 'desc', orderby: args.orderby ?? 'date', ignoreSticky: args.ignoreSticky ?? true };
  const site = await ctx.site();
  const q = await listWhere(ctx, site, def.type, filter);
  return { filter, site, q, paging };
}

/** Defines the type's queries and mutations; returns its write input (autosaves take it too). */
export function defineContentType(def: ContentTypeDefinition): { input: unknown } {
  const d = { ...def, type: def.descriptor.type, name: def.descriptor.graphqlName, plural: def.descriptor.graphqlPlural, input: resourceInput(def.resource) };
  const lower = d.name[0].toLowerCase() + d.name.slice(1);
  const List = builder.objectRef<ListShape>(`${d.name}List`).implement({
    description: `One page of ${d.plural} with the totals of the whole filtered list.`,
    fields: (t) => ({
      total: t.int({ description: `${d.name}s matching the filter (before per-item visibility is applied).`, resolve: (l, _a, ctx) => l.total ?? countContent(ctx, l.where) }),
      totalPages: t.int({ description: 'Pages of this size.', resolve: async (l, _a, ctx) => Math.ceil((l.total ?? (await countContent(ctx, l.where))) / l.paging.perPage) }),
      nodes: t.prismaField({
        type: [d.ref],
        description: `The ${d.plural} of this page that the caller may read.`,
        resolve: async (query, l, _a, ctx) => {
          if (l.ids) {
            const rows = await contentRows<Content>(ctx, { ...query, where: { id: { in: l.ids } } }, ANSWER_ROWS);
            const byId = new Map(rows.map((r) => [r.id, r]));
            return await readableRows(ctx, l.ids.map((id) => byId.get(id)!).filter(Boolean));
          }
          return await readableRows(ctx, await contentRows<Content>(ctx, { ...query, where: l.where, orderBy: listOrder(l.paging), skip: l.skip, take: l.paging.perPage }, ANSWER_ROWS));
        },
      }),
    }),
  });

  const Connection = connectionType(d.name, d.ref, d.name, lower);
  const listType = { type: d.type, defaultStatus: def.descriptor.defaultStatus };

  builder.queryFields((t) => ({
    [lower]: t.prismaField({
      type: d.ref,
      description: `One ${lower} by id.`,
      args: {
        id: t.arg.int({ required: true, description: 'Id.' }),
        password: t.arg.string({ required: false, description: `The ${lower} password, to see protected content.` }),
      },
      resolve: async (query, _root, args, ctx) => {
        // The selection asks for whole rows plus relations (Pothos include mode): the row the
        // checks read, relations included, is the answer. A `select` (fewer columns than the
        // checks need) is read again after them.
        const q = query as { include?: object; select?: object };
        if (!q.select) return checkReadItem(ctx, d.type, args.id, args.password, q.include, ANSWER_ROWS);
        const row = await checkReadItem(ctx, d.type, args.id, args.password);
        return ctx.prisma.content.findUniqueOrThrow({ ...query, where: { id: row.id } });
      },
    }),
    [d.plural]: t.field({
      type: List,
      description: `A page of ${d.plural}, newest first by default.`,
      args: listArgs(t, def.list, listFilterInput(def.list)) as never,
      resolve: async (_root, rawArgs, ctx) => {
        const args = absOffset(rawArgs as ListArgs);
        const page = args.page ?? 1;
        const perPage = args.perPage ?? 10;
        if (page < 1 || perPage < 1 || perPage > 100) throw restError('rest_invalid_param', 'Invalid parameter(s): per_page', 400);
        const { filter, site, q, paging } = await prepareList(ctx, args, { page, perPage }, listType);
        const skip = args.offset ?? (page - 1) * perPage;
        const ordered = await orderedPageIds(ctx, site, q, paging, filter, skip);
        if (page > 1) {
          const total = ordered?.total ?? (await countContent(ctx, q.where));
          if (total > 0 && page > Math.ceil(total / perPage)) {
            throw restError('rest_post_invalid_page_number', 'The page number requested is larger than the number of pages available.', 400);
          }
        }
        return { where: q.where, paging, skip, ids: ordered?.ids ?? null, total: ordered?.total };
      },
    }),
    [`${d.plural}Connection`]: t.field({
      type: Connection,
      description: `${d.name} items as a cursor connection: the same filters and orders as \`${d.plural}\` (and the REST collection), paged with first/after/last/before.`,
      args: { ...connectionArgs(t), ...listArgs(t, def.list, listFilterInput(def.list), { omit: PAGING_PARAMS, filterArg: 'where' }) } as never,
      resolve: async (_root, rawArgs, ctx) => {
        const { where, ...rest } = rawArgs as ListArgs & ConnectionArgs & { where?: ListFilter | null };
        const args: ListArgs & ConnectionArgs = { ...rest, filter: where };
        const { filter, site, q, paging } = await prepareList(ctx, args, { page: 1, perPage: 1 }, listType);
        const order = `${d.type}:${paging.orderby}:${paging.order}`;
        const readByIds = async (query: object, ids: number[]) => readableRows(ctx, await contentRows<Content>(ctx, { ...query, where: { id: { in: ids } } }));
        if (ordersInMemory(q, paging, filter)) {
          let sorted: Promise<SortedList> | undefined;
          const list = () => (sorted ??= sortedInMemory(ctx, q, paging, filter).then((l) => l!));
          return sortedConnection(args, order, list, { width: 2, total: () => countContent(ctx, q.where), readByIds });
        }
        const sticky = paging.ignoreSticky === false && site.stickyPosts.length > 0;
        if (q.search || q.matchesInMemory || (paging.orderby === 'relevance' && q.scores) || sticky) {
          // No key follows these orders: positions, cut by the list code as a REST page is.
          let counted: Promise<number> | undefined;
          // A full-text list is counted by the statement that cuts its page.
          const total = () => (counted ??= q.search || q.matchesInMemory
            ? orderedPageIds(ctx, site, q, paging, filter, 0).then((o) => o!.total!)
            : countContent(ctx, q.where));
          return positionConnection(args, `${order}:${q.search || q.matchesInMemory ? 'search' : sticky ? 'sticky' : 'relevance'}`, {
            total, readByIds,
            page: async (start, size) => {
              const ordered = (await orderedPageIds(ctx, site, q, { ...paging, perPage: size }, filter, start))!;
              if (ordered.total !== undefined) counted ??= Promise.resolve(ordered.total);
              return ordered.ids;
            },
          });
        }
        const orderBy = listOrder(paging) as object[];
        return keysetConnection<Content>(args, {
          order, orderBy, columns: keyColumns('Content', orderBy),
          read: (query, bound, by, take) => contentRows<Content>(ctx, { ...query, where: { AND: [q.where, bound] }, orderBy: by, take }),
          readable: (rows) => readableRows(ctx, rows),
        }, () => countContent(ctx, q.where)) as ConnectionShape;
      },
    }),
  }));

  const DeleteResult = builder.objectRef<{ deleted: boolean; previous: unknown }>(`${d.name}DeleteResult`).implement({
    description: `A ${lower} deleted for good, with the record as it was.`,
    fields: (t) => ({
      deleted: t.boolean({ description: 'Always true.', resolve: (r) => r.deleted }),
      previous: t.field({ type: d.ref, description: `The ${lower} before deletion.`, resolve: (r) => r.previous as never }),
    }),
  });

  const update = def.update ?? ((ctx: Context, id: number, input: ContentInput) => saveContent(ctx, d.type, id, input));
  const remove = def.remove ?? deleteContent;
  const trash = def.descriptor.supports.trash;
  builder.mutationFields((t) => ({
    ...(def.create === false ? {} : { [`create${d.name}`]: t.prismaField({
      type: d.ref,
      description: `Creates a ${lower} (status draft unless given).`,
      args: { input: t.arg({ type: d.input, required: true, description: 'Fields.' }) },
      resolve: async (query, _root, args, ctx) => {
        // The answer is made from what was written when that is all it shows (no read back).
        const written: { row?: WrittenContent } = {};
        const id = await saveContent(ctx, d.type, null, args.input as ContentInput, { written });
        const row = written.row && createdAsRead(query as never, written.row);
        if (row) {
          primeNoRevisions(ctx, id);
          primeTermSlugs(ctx, written.row!.termSlugs);
          return row as never;
        }
        return ctx.prisma.content.findUniqueOrThrow({ ...query, where: { id } });
      },
    }) }),
    [`update${d.name}`]: t.prismaField({
      type: d.ref,
      description: `Updates some fields of a ${lower}.`,
      args: { id: t.arg.int({ required: true, description: 'Id.' }), input: t.arg({ type: d.input, required: true, description: 'Fields to change.' }) },
      resolve: async (query, _root, args, ctx) => {
        const id = await update(ctx, args.id as number, args.input as never);
        return ctx.prisma.content.findUniqueOrThrow({ ...query, where: { id } });
      },
    }),
    ...(!trash ? {} : { [`trash${d.name}`]: t.prismaField({
      type: d.ref,
      description: `Moves a ${lower} to the trash and returns it.`,
      args: { id: t.arg.int({ required: true, description: 'Id.' }) },
      resolve: async (query, _root, args, ctx) => {
        const row = await checkDelete(ctx, d.type, args.id as number, false);
        await trashContent(ctx, row);
        return ctx.prisma.content.findUniqueOrThrow({ ...query, where: { id: row.id } });
      },
    }) }),
    [`delete${d.name}`]: t.field({
      type: DeleteResult,
      description: trash ? `Deletes a ${lower}, its revisions and its term assignments for good.` : `Deletes a ${lower} for good (there is no trash for it).`,
      args: {
        id: t.arg.int({ required: true, description: 'Id.' }),
        ...(trash ? {} : { force: t.arg.boolean({ required: false, defaultValue: true, description: 'Must be true: there is no trash (kept for parity with the REST route).' }) }),
      },
      resolve: async (_root, args, ctx, info) => {
        const row = await checkDelete(ctx, d.type, args.id as number, true);
        if (!trash && (args as { force?: boolean | null }).force === false) throw restError('rest_trash_not_supported', "The post does not support trashing. Set 'force=true' to delete.", 501);
        // The record as it was is read with the caller's selection before it goes.
        const query = queryFromInfo({ context: ctx, info, path: ['previous'], typeName: d.name });
        const previous = await ctx.prisma.content.findUniqueOrThrow({ ...(query as object), where: { id: row.id } });
        await remove(ctx, row.id);
        return { deleted: true, previous };
      },
    }),
  }));
  return { input: d.input };
}
