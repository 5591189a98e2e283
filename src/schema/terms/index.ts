// Taxonomies (categories, tags and the site's own): variants of the Term model with their queries and mutations.
import { queryFromInfo } from '@pothos/plugin-prisma';
import { builder } from '../builder.js';
import { NodeRef } from '../node.js';
import { absOffset, cachedCount, keyColumns, type SortedList } from '../../db/list.js';
import { restError } from '../../errors.js';
import type { Prisma as PrismaNS, Term } from '../../generated/sqlite/client.js';
import type { Context } from '../../context.js';
import { TAXONOMIES } from '../../resources/terms.js';
import type { ListDef, ResourceDef } from '../../resources/define.js';
import { listArgs, listFilterInput, resourceFields, resourceInput } from '../resource-types.js';
import { connectionArgs, connectionType, keysetConnection, sortedConnection, type ConnectionArgs, type ConnectionShape } from '../connections.js';
import { checkPostForTerms, deleteTerm, findTerm, orderedTermIds, removeTerm, saveTerm, sortedTerms, termAncestorSlugs, termOrder, termWhere, type Taxonomy, type TermFilter, type TermInput } from '../../terms/service.js';

const termObject = (resource: ResourceDef) => builder.prismaObject('Term', {
  variant: resource.name,
  interfaces: [NodeRef],
  description: resource.description,
  fields: (t) => resourceFields(t, resource) as never,
});
type TermRef = ReturnType<typeof termObject>;
const refs = new Map<string, TermRef>();

/** The GraphQL object type of a taxonomy's terms. */
export function termRef(taxonomy: string): TermRef {
  const ref = refs.get(taxonomy);
  if (!ref) throw new Error(`no taxonomy ${taxonomy}`);
  return ref;
}

interface ListShape { where: PrismaNS.TermWhereInput; orderBy: PrismaNS.TermOrderByWithRelationInput[]; skip: number; take: number; ids: number[] | null; filter: TermFilter }

function defineTaxonomy(taxonomy: Taxonomy, name: string, plural: string, ref: TermRef, resource: ResourceDef, list: ListDef) {
  const lower = name[0].toLowerCase() + name.slice(1);
  const TermInputType = resourceInput(resource, { description: `Writable fields of a ${lower}; name is required on create.` });
  const List = builder.objectRef<ListShape>(`${name}List`).implement({
    description: `One page of ${plural} with the totals of the whole filtered list.`,
    fields: (t) => ({
      total: t.int({ description: 'Terms matching the filter.', resolve: (l, _a, ctx) => cachedCount(ctx, 'term', l.where) }),
      totalPages: t.int({ description: 'Pages of this size.', resolve: async (l, _a, ctx) => Math.ceil((await cachedCount(ctx, 'term', l.where)) / l.take) }),
      nodes: t.prismaField({
        type: [ref], description: `The ${plural} of this page.`,
        resolve: async (query, l, _a, ctx) => {
          // One post's terms (what _embed asks for, once per post): batched across the request.
          const only = l.filter;
          if (only.post != null && !l.ids && Object.values({ ...only, post: null, hideEmpty: null }).every((v) => v == null || (Array.isArray(v) && !v.length)) && !only.hideEmpty) {
            return ctx.loader<number, Term[]>(`termsOfPost:${taxonomy}:${JSON.stringify(query)}`, async (posts) => {
              const rows = await ctx.prisma.term.findMany({ ...query, where: { taxonomy, contents: { some: { contentId: { in: [...posts] } } } }, include: { ...(query as { include?: object }).include, contents: { where: { contentId: { in: [...posts] } }, select: { contentId: true } } }, orderBy: l.orderBy } as never) as unknown as (Term & { contents: { contentId: number }[] })[];
              return posts.map((p) => rows.filter((r) => r.contents.some((c) => c.contentId === p)).slice(l.skip, l.skip + l.take));
            }).load(only.post);
          }
          if (l.ids) {
            const rows = await ctx.prisma.term.findMany({ ...query, where: { id: { in: l.ids } } });
            return l.ids.map((id) => rows.find((r) => r.id === id)!).filter(Boolean);
          }
          return ctx.prisma.term.findMany({ ...query, where: l.where, orderBy: l.orderBy, skip: l.skip, take: l.take });
        },
      }),
    }),
  });

  const Connection = connectionType(name, ref, name, lower);

  builder.queryFields((t) => ({
    [`${plural}Connection`]: t.field({
      type: Connection,
      description: `${name} terms as a cursor connection: the same filters and orders as \`${plural}\` (and the REST collection), paged with first/after/last/before.`,
      args: { ...connectionArgs(t), ...listArgs(t, list, listFilterInput(list), { omit: ['page', 'per_page', 'offset'], filterArg: 'where' }) } as never,
      resolve: async (_r, rawArgs, ctx) => {
        const args = rawArgs as ConnectionArgs & { where?: TermFilter | null; order?: string; orderby?: string };
        const filter = (args.where ?? {}) as TermFilter;
        if (filter.post != null) await checkPostForTerms(ctx, filter.post);
        const where = termWhere(taxonomy, filter, ctx.db.provider);
        const total = () => cachedCount(ctx, 'term', where);
        const orderby = args.orderby ?? 'name';
        const dir = args.order === 'desc' ? 'desc' : 'asc';
        const order = `${taxonomy}:${orderby}:${dir}`;
        if ((orderby === 'include' && filter.include?.length) || (orderby === 'include_slugs' && filter.slug?.length)) {
          let sorted: Promise<SortedList> | undefined;
          const list = () => (sorted ??= sortedTerms(ctx, where, orderby, filter).then((l) => l!));
          return sortedConnection(args, order, list, { width: 2, total, readByIds: (query, ids) => ctx.prisma.term.findMany({ ...query, where: { id: { in: ids } } }) as Promise<Term[]> });
        }
        const orderBy = termOrder(orderby, dir) as object[];
        return keysetConnection<Term>(args, {
          order, orderBy, columns: keyColumns('Term', orderBy),
          read: (query, bound, by, take) => ctx.prisma.term.findMany({ ...query, where: { AND: [where, bound] }, orderBy: by, take } as never) as Promise<Term[]>,
        }, total) as ConnectionShape;
      },
    }),
    [lower]: t.prismaField({
      type: ref, description: `One ${lower} by id.`,
      args: {
        id: t.arg.int({ required: true, description: 'Id.' }),
      },
      resolve: async (query, _r, args, ctx) => {
        await findTerm(ctx, taxonomy, args.id);
        return ctx.prisma.term.findUniqueOrThrow({ ...query, where: { id: args.id } });
      },
    }),
    [plural]: t.field({
      type: List, description: `A page of ${plural}, by name by default.`,
      args: listArgs(t, list, listFilterInput(list)) as never,
      resolve: async (_r, rawArgs, ctx) => {
        const args = absOffset(rawArgs as { filter?: TermFilter | null; page?: number; perPage?: number; offset?: number | null; order?: string; orderby?: string });
        const filter = (args.filter ?? {}) as TermFilter;
        // As the terms controller: the post must exist, and its terms are shown only to those who may read it.
        if (filter.post != null) await checkPostForTerms(ctx, filter.post);
        const take = args.perPage ?? 10;
        const page = args.page ?? 1;
        const skip = args.offset ?? (page - 1) * take;
        const where = termWhere(taxonomy, filter, ctx.db.provider);
        if (page > 1) {
          const total = await cachedCount(ctx, 'term', where);
          if (total > 0 && page > Math.ceil(total / take)) throw restError('rest_term_invalid_page_number', 'The page number requested is larger than the number of pages available.', 400);
        }
        const order = args.order === 'desc' ? 'desc' : 'asc';
        const ids = await orderedTermIds(ctx, where, args.orderby ?? 'name', filter, skip, take);
        return { where, orderBy: termOrder(args.orderby ?? 'name', order), skip, take, ids, filter };
      },
    }),
  }));

  const DeleteResult = builder.objectRef<{ deleted: boolean; previous: unknown }>(`${name}DeleteResult`).implement({
    description: `A ${lower} deleted for good, with the record as it was.`,
    fields: (t) => ({
      deleted: t.boolean({ description: 'Always true.', resolve: (r) => r.deleted }),
      previous: t.field({ type: ref, description: 'The term before deletion.', resolve: (r) => r.previous as never }),
    }),
  });

  builder.mutationFields((t) => ({
    [`create${name}`]: t.prismaField({
      type: ref, description: `Creates a ${lower}.`,
      args: { input: t.arg({ type: TermInputType, required: true, description: 'Fields.' }) },
      resolve: async (query, _r, args, ctx) => {
        const id = await saveTerm(ctx, taxonomy, null, args.input as TermInput);
        return ctx.prisma.term.findUniqueOrThrow({ ...query, where: { id } });
      },
    }),
    [`update${name}`]: t.prismaField({
      type: ref, description: `Updates a ${lower}.`,
      args: { id: t.arg.int({ required: true, description: 'Id.' }), input: t.arg({ type: TermInputType, required: true, description: 'Fields to change.' }) },
      resolve: async (query, _r, args, ctx) => {
        const id = await saveTerm(ctx, taxonomy, args.id as number, args.input as TermInput);
        return ctx.prisma.term.findUniqueOrThrow({ ...query, where: { id } });
      },
    }),
    [`delete${name}`]: t.field({
      type: DeleteResult, description: `Deletes a ${lower} for good (terms have no trash: force must be true).`,
      args: { id: t.arg.int({ required: true, description: 'Id.' }), force: t.arg.boolean({ required: false, defaultValue: false, description: 'Must be true.' }) },
      resolve: async (_r, args, ctx, info) => {
        const term = await deleteTerm(ctx, taxonomy, args.id as number, !!args.force);
        const query = queryFromInfo({ context: ctx, info, path: ['previous'], typeName: name });
        const previous = await ctx.prisma.term.findUniqueOrThrow({ ...(query as object), where: { id: term.id } });
        await removeTerm(ctx, taxonomy, term.id);
        return { deleted: true, previous };
      },
    }),
  }));
}

// Categories, tags and the taxonomies of the site's content model, each from its descriptor.
for (const t of TAXONOMIES) {
  const ref = termObject(t.resource);
  refs.set(t.taxonomy, ref);
  defineTaxonomy(t.taxonomy, t.graphqlName, t.graphqlPlural, ref, t.resource, t.list);
}

export const CategoryRef = termRef('category');
export const TagRef = termRef('post_tag');
