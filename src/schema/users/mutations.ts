// User mutations; each write is one transaction in the service, and the record returned is read
// afterwards with the caller's selection.
import { queryFromInfo } from '@pothos/plugin-prisma';
import { builder } from '../builder.js';
import { UserRef } from './types.js';
import { UserResource } from '../../resources/users.js';
import { resourceInput } from '../resource-types.js';
import { checkDeleteUser, createUserRecord, deleteUserRecord, resolveUserId, updateUserRecord, type UserInput as Input } from '../../users/service.js';

export const UserInput = resourceInput(UserResource, { description: 'Writable fields of a user; on create username, email and password are required.' });

interface DeleteResult { deleted: boolean; previous: unknown }

const UserDeleteResult = builder.objectRef<DeleteResult>('UserDeleteResult').implement({
  description: 'A user deleted, with the record as it was.',
  fields: (t) => ({
    deleted: t.boolean({ description: 'Always true.', resolve: (r) => r.deleted }),
    previous: t.field({ type: UserRef, description: 'The user before deletion.', resolve: (r) => r.previous as never }),
  }),
});

builder.mutationFields((t) => ({
  createUser: t.prismaField({
    type: UserRef,
    description: 'Creates a user (role subscriber unless given); needs create_users.',
    args: { input: t.arg({ type: UserInput, required: true, description: 'The new user\'s fields: username, email and password are required.' }) },
    resolve: async (query, _root, args, ctx) => {
      const id = await createUserRecord(ctx, args.input as Input);
      return ctx.prisma.user.findUniqueOrThrow({ ...query, where: { id } });
    },
  }),
  updateUser: t.prismaField({
    type: UserRef,
    description: 'Updates some fields of a user; without an id, the caller.',
    args: { id: t.arg.int({ required: false, description: 'User id; omit for the caller.' }), input: t.arg({ type: UserInput, required: true, description: 'The fields to change; the others are kept.' }) },
    resolve: async (query, _root, args, ctx) => {
      const id = await updateUserRecord(ctx, resolveUserId(ctx, args.id), args.input as Input);
      return ctx.prisma.user.findUniqueOrThrow({ ...query, where: { id } });
    },
  }),
  deleteUser: t.field({
    type: UserDeleteResult,
    description: 'Deletes a user for good (users have no trash: force must be true). Their content goes to `reassign`, or is deleted when reassign is null.',
    args: {
      id: t.arg.int({ required: false, description: 'User id; omit for the caller.' }),
      force: t.arg.boolean({ required: false, defaultValue: false, description: 'Must be true.' }),
      reassign: t.arg.int({ required: false, description: 'User who receives the content; null deletes it.' }),
    },
    resolve: async (_root, args, ctx, info) => {
      const reassign = args.reassign ?? false;
      const user = await checkDeleteUser(ctx, resolveUserId(ctx, args.id), args.force ?? false, reassign);
      const query = queryFromInfo({ context: ctx, info, path: ['previous'], typeName: 'User' });
      const previous = await ctx.prisma.user.findUniqueOrThrow({ ...(query as object), where: { id: user.id } });
      await deleteUserRecord(ctx, user.id, reassign);
      return { deleted: true, previous };
    },
  }),
}));
