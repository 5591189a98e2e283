// GraphQL of a content type's revisions and autosaves, from their definitions
// (src/resources/revisions.ts): the types, the root queries and mutations the REST routes run,
// and `revisions` / `autosave` on the parent type.
import { queryFromInfo } from '@pothos/plugin-prisma';
import { builder } from '../builder.js';
import { NodeRef } from '../node.js';
import { listArgs, listFilterInput, resourceFields } from '../resource-types.js';
import type { ListDef } from '../../resources/define.js';
import type { ContentTypeDescriptor } from '../../resources/content-types.js';
import type { RevisionResources } from '../../resources/revisions.js';
import type { ContentInput } from '../../content/service.js';
import {
  NEWEST_FIRST, autosaveContent, autosaveWhere, checkDeleteRevision, checkReadRevision, latestAutosave, listRevisions,
  removeRevision, restoreRevision, viewerAutosave, type RevisionListArgs, type RevisionPage,
} from '../../revisions/service.js';

// eslint-disable-next-line @typescript-eslint/no-explicit-any
type AnyRef = any;

export interface RevisionsDefinition {
  descriptor: ContentTypeDescriptor;
  resources: RevisionResources;
  list: ListDef;
  /** The parent type's object and write input (autosaves take the parent's fields). */
  parentRef: AnyRef;
  parentInput: AnyRef;
}

const filters = new Map<ListDef, AnyRef>();
/** One filter input per list definition, shared by every type that lists revisions. */
function filterOf(list: ListDef): AnyRef {
  if (!filters.has(list)) filters.set(list, listFilterInput(list));
  return filters.get(list);
}

export function defineRevisions(def: RevisionsDefinition): void {
  const d = def.descriptor;
  const name = d.graphqlName;
  const lower = name[0].toLowerCase() + name.slice(1);
  const { revision, autosave } = def.resources;
  const filter = filterOf(def.list);

  const RevisionRef = builder.prismaObject('Content', {
    variant: revision.name, interfaces: [NodeRef], description: revision.description, fields: (t) => resourceFields(t, revision) as never,
  });
  const AutosaveRef = builder.prismaObject('Content', {
    variant: autosave.name, interfaces: [NodeRef], description: autosave.description, fields: (t) => resourceFields(t, autosave) as never,
  });

  const List = builder.objectRef<RevisionPage>(`${revision.name}List`).implement({
    description: `Revisions (autosaves included) of one ${d.type}, with the totals of the whole filtered list.`,
    fields: (t) => ({
      total: t.int({ description: 'Revisions matching the filter.', resolve: (l) => l.total }),
      totalPages: t.int({ description: 'Pages of this size (1 when no page size is given and there are revisions).', resolve: (l) => l.totalPages }),
      nodes: t.prismaField({
        type: [RevisionRef],
        description: 'The revisions of this page.',
        resolve: async (query, l, _a, ctx) => {
          if (l.ids) {
            const rows = await ctx.prisma.content.findMany({ ...query, where: { id: { in: l.ids } } });
            const byId = new Map(rows.map((r) => [r.id, r]));
            return l.ids.map((id) => byId.get(id)!).filter(Boolean);
          }
          return ctx.prisma.content.findMany({ ...query, where: l.where, orderBy: l.orderBy, skip: l.skip, ...(l.take ? { take: l.take } : {}) });
        },
      }),
    }),
  });

  const DeleteResult = builder.objectRef<{ deleted: boolean; previous: unknown }>(`${revision.name}DeleteResult`).implement({
    description: `A ${d.type} revision deleted for good, with the record as it was.`,
    fields: (t) => ({
      deleted: t.boolean({ description: 'Always true.', resolve: (r) => r.deleted }),
      previous: t.field({ type: RevisionRef, description: 'The revision before deletion.', resolve: (r) => r.previous as never }),
    }),
  });

  const parentArg = (t: AnyRef) => t.arg.int({ required: true, description: `Id of the ${d.type}.` });
  const idArg = (t: AnyRef, what: string) => t.arg.int({ required: true, description: `Id of the ${what}.` });
  const list = (t: AnyRef): Record<string, AnyRef> => listArgs(t, def.list, filter);

  builder.queryFields((t) => ({
    [`${lower}Revisions`]: t.field({
      type: List,
      description: `Revisions of a ${d.type} (its autosaves too), newest first; every one unless perPage is given. Needs the right to edit the ${d.type}.`,
      args: { parent: parentArg(t), ...list(t) },
      resolve: (_root, args, ctx) => listRevisions(ctx, d.type, args.parent as number, args as RevisionListArgs),
    }),
    [`${lower}Revision`]: t.prismaField({
      type: RevisionRef,
      description: `One revision (or autosave) of a ${d.type}.`,
      args: { parent: parentArg(t), id: idArg(t, 'revision') },
      resolve: async (query, _root, args, ctx) => {
        const id = await checkReadRevision(ctx, d.type, args.parent as number, args.id as number);
        return ctx.prisma.content.findUniqueOrThrow({ ...query, where: { id } });
      },
    }),
    [`${lower}Autosaves`]: t.prismaField({
      type: [AutosaveRef],
      description: `Every user's autosave of a ${d.type}, newest first.`,
      args: { parent: parentArg(t) },
      resolve: async (query, _root, args, ctx) => ctx.prisma.content.findMany({ ...query, where: await autosaveWhere(ctx, d.type, args.parent as number), orderBy: NEWEST_FIRST }),
    }),
    [`${lower}Autosave`]: t.prismaField({
      type: AutosaveRef,
      description: `The newest autosave of a ${d.type}, whoever made it.`,
      args: { parent: parentArg(t) },
      resolve: async (query, _root, args, ctx) => {
        const id = await latestAutosave(ctx, d.type, args.parent as number);
        return ctx.prisma.content.findUniqueOrThrow({ ...query, where: { id } });
      },
    }),
  }));

  builder.prismaObjectFields(def.parentRef, (t: AnyRef) => ({
    revisions: t.field({
      type: List,
      nullable: true,
      description: `Revisions of this ${d.type} (autosaves included); null, with an error, unless the caller may edit it.`,
      args: list(t),
      resolve: (p: { id: number }, args: RevisionListArgs, ctx: AnyRef) => listRevisions(ctx, d.type, p.id, args),
    }),
    autosave: t.prismaField({
      type: AutosaveRef,
      nullable: true,
      description: `The caller's own autosave of this ${d.type}, if there is one.`,
      resolve: async (query: object, p: { id: number; type: string; status: string; authorId: number }, _a: unknown, ctx: AnyRef) => {
        const id = await viewerAutosave(ctx, p);
        return id ? ctx.prisma.content.findUnique({ ...query, where: { id } }) : null;
      },
    }),
  }));

  builder.mutationFields((t) => ({
    [`autosave${name}`]: t.prismaField({
      type: AutosaveRef,
      description: `Autosaves a ${d.type}: its author's draft is updated in place; otherwise the caller's autosave of it is stored (one per user).`,
      args: { id: t.arg.int({ required: true, description: `Id of the ${d.type}.` }), input: t.arg({ type: def.parentInput, required: true, description: 'Fields; omitted ones keep the current value.' }) },
      resolve: async (query, _root, args, ctx) => {
        const id = await autosaveContent(ctx, d.type, args.id as number, args.input as ContentInput);
        return ctx.prisma.content.findUniqueOrThrow({ ...query, where: { id } });
      },
    }),
    [`delete${name}Revision`]: t.field({
      type: DeleteResult,
      description: `Deletes a revision (or autosave) of a ${d.type} for good; the ${d.type} is untouched. Needs the right to delete the ${d.type}.`,
      args: {
        parent: parentArg(t), id: idArg(t, 'revision'),
        force: t.arg.boolean({ required: false, defaultValue: true, description: 'Must be true: revisions have no trash (kept for parity with the REST route).' }),
      },
      resolve: async (_root, args, ctx, info) => {
        const id = await checkDeleteRevision(ctx, d.type, args.parent as number, args.id as number, args.force !== false);
        const query = queryFromInfo({ context: ctx, info, path: ['previous'], typeName: revision.name });
        const previous = await ctx.prisma.content.findUniqueOrThrow({ ...(query as object), where: { id } });
        await removeRevision(ctx, id);
        return { deleted: true, previous };
      },
    }),
    [`restore${name}Revision`]: t.prismaField({
      type: def.parentRef,
      description: `Makes a revision's title, content and excerpt the ${d.type}'s again (an update: a new revision records it). Needs the right to edit the ${d.type}.`,
      args: { parent: parentArg(t), id: idArg(t, 'revision') },
      resolve: async (query: object, _root: unknown, args: { parent: number; id: number }, ctx: AnyRef) => {
        const id = await restoreRevision(ctx, d.type, args.parent, args.id);
        return ctx.prisma.content.findUniqueOrThrow({ ...query, where: { id } });
      },
    } as never),
  }));
}
