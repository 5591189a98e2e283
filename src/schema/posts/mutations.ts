// Post mutations. Each write runs in one transaction in the service; the record returned is read
// afterwards with the selection the client asked for.
import { queryFromInfo } from '@pothos/plugin-prisma';
import { builder } from '../builder.js';
import { PostRef } from './types.js';
import { checkDelete, deleteContent, saveContent, trashContent, type ContentInput } from './service.js';

export const PostMetaInput = builder.inputType('PostMetaInput', {
  description: 'Registered meta values to set.',
  fields: (t) => ({ footnotes: t.string({ required: false }) }),
});

export const PostInput = builder.inputType('PostInput', {
  description: 'Writable fields of a post; omitted fields keep their value (or get their default on create).',
  fields: (t) => ({
    date: t.string({ required: false, description: 'Publication date in site time (or with an offset); null makes a draft float again.' }),
    dateGmt: t.string({ required: false, description: 'Publication date in UTC.' }),
    slug: t.string({ required: false }),
    status: t.string({ required: false, description: 'publish, future, draft, pending or private.' }),
    password: t.string({ required: false }),
    title: t.string({ required: false }),
    content: t.string({ required: false }),
    excerpt: t.string({ required: false }),
    author: t.int({ required: false }),
    featuredMedia: t.int({ required: false }),
    commentStatus: t.string({ required: false, description: 'open or closed.' }),
    pingStatus: t.string({ required: false, description: 'open or closed.' }),
    format: t.string({ required: false }),
    meta: t.field({ type: PostMetaInput, required: false }),
    sticky: t.boolean({ required: false }),
    template: t.string({ required: false }),
    categories: t.intList({ required: false }),
    tags: t.intList({ required: false }),
  }),
});

interface DeleteResult { deleted: boolean; previous: unknown }

export const PostDeleteResult = builder.objectRef<DeleteResult>('PostDeleteResult').implement({
  description: 'A post deleted for good, with the record as it was.',
  fields: (t) => ({
    deleted: t.boolean({ description: 'Always true.', resolve: (r) => r.deleted }),
    previous: t.field({ type: PostRef, description: 'The post before deletion.', resolve: (r) => r.previous as never }),
  }),
});

builder.mutationFields((t) => ({
  createPost: t.prismaField({
    type: PostRef,
    description: 'Creates a post (status draft unless given).',
    args: { input: t.arg({ type: PostInput, required: true }) },
    resolve: async (query, _root, args, ctx) => {
      const id = await saveContent(ctx, 'post', null, args.input as ContentInput);
      return ctx.prisma.content.findUniqueOrThrow({ ...query, where: { id } });
    },
  }),
  updatePost: t.prismaField({
    type: PostRef,
    description: 'Updates some fields of a post.',
    args: { id: t.arg.int({ required: true }), input: t.arg({ type: PostInput, required: true }) },
    resolve: async (query, _root, args, ctx) => {
      const id = await saveContent(ctx, 'post', args.id, args.input as ContentInput);
      return ctx.prisma.content.findUniqueOrThrow({ ...query, where: { id } });
    },
  }),
  trashPost: t.prismaField({
    type: PostRef,
    description: 'Moves a post to the trash and returns it.',
    args: { id: t.arg.int({ required: true }) },
    resolve: async (query, _root, args, ctx) => {
      const row = await checkDelete(ctx, 'post', args.id, false);
      await trashContent(ctx, row);
      return ctx.prisma.content.findUniqueOrThrow({ ...query, where: { id: row.id } });
    },
  }),
  deletePost: t.field({
    type: PostDeleteResult,
    description: 'Deletes a post, its revisions and its term assignments for good.',
    args: { id: t.arg.int({ required: true }) },
    resolve: async (_root, args, ctx, info) => {
      const row = await checkDelete(ctx, 'post', args.id, true);
      // The record as it was is read with the caller's selection before it goes.
      const query = queryFromInfo({ context: ctx, info, path: ['previous'], typeName: 'Post' });
      const previous = await ctx.prisma.content.findUniqueOrThrow({ ...(query as object), where: { id: row.id } });
      await deleteContent(ctx, row.id);
      return { deleted: true, previous };
    },
  }),
}));
