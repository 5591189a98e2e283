// Application-password queries and mutations. `userId` omitted means the signed-in caller ("me").
import { builder } from '../builder.js';
import { ApplicationPasswordResource } from '../../resources/users.js';
import { resourceInput } from '../resource-types.js';
import { ApplicationPasswordDeleteResult, ApplicationPasswordRef, ApplicationPasswordsDeleteResult } from './types.js';
import {
  checkOwner, currentApplicationPassword, findApplicationPassword, issueApplicationPassword, listApplicationPasswords,
  renameApplicationPassword, revokeAllApplicationPasswords, revokeApplicationPassword,
} from '../../users/application-passwords.js';

const ApplicationPasswordInput = resourceInput(ApplicationPasswordResource, { description: 'Fields of an application password a client may set (appId on create only).' });

builder.queryFields((t) => ({
  applicationPasswords: t.field({
    type: [ApplicationPasswordRef],
    description: "A user's application passwords, oldest first (the user themself or an administrator).",
    args: { userId: t.arg.int({ required: false, description: 'User id; omit for the caller.' }) },
    resolve: async (_root, args, ctx) => listApplicationPasswords(ctx, await checkOwner(ctx, args.userId, 'list')),
  }),
  applicationPassword: t.field({
    type: ApplicationPasswordRef,
    description: 'One application password of a user.',
    args: { userId: t.arg.int({ required: false, description: 'User id; omit for the caller.' }), uuid: t.arg.string({ required: true, description: 'UUID of the application password.' }) },
    resolve: async (_root, args, ctx) => findApplicationPassword(ctx, await checkOwner(ctx, args.userId, 'read'), args.uuid),
  }),
  currentApplicationPassword: t.field({
    type: ApplicationPasswordRef,
    description: 'The application password this request signed in with (introspection).',
    args: { userId: t.arg.int({ required: false, description: 'User id (must be the caller); omit for the caller.' }) },
    resolve: (_root, args, ctx) => currentApplicationPassword(ctx, args.userId),
  }),
}));

builder.mutationFields((t) => ({
  createApplicationPassword: t.field({
    type: ApplicationPasswordRef,
    description: 'Issues an application password; the answer is the only time the password is shown.',
    args: { userId: t.arg.int({ required: false, description: 'User id; omit for the caller.' }), input: t.arg({ type: ApplicationPasswordInput, required: true, description: 'Its name (required) and the client\'s app id.' }) },
    resolve: async (_root, args, ctx) => issueApplicationPassword(ctx, await checkOwner(ctx, args.userId, 'create'), args.input),
  }),
  updateApplicationPassword: t.field({
    type: ApplicationPasswordRef,
    description: 'Renames an application password.',
    args: { userId: t.arg.int({ required: false, description: 'User id; omit for the caller.' }), uuid: t.arg.string({ required: true, description: 'UUID of the application password.' }), input: t.arg({ type: ApplicationPasswordInput, required: true, description: 'The new name.' }) },
    resolve: async (_root, args, ctx) => renameApplicationPassword(ctx, await checkOwner(ctx, args.userId, 'edit'), args.uuid, args.input.name),
  }),
  deleteApplicationPassword: t.field({
    type: ApplicationPasswordDeleteResult,
    description: 'Revokes one application password.',
    args: { userId: t.arg.int({ required: false, description: 'User id; omit for the caller.' }), uuid: t.arg.string({ required: true, description: 'UUID of the application password.' }) },
    resolve: async (_root, args, ctx) => ({ deleted: true, previous: await revokeApplicationPassword(ctx, await checkOwner(ctx, args.userId, 'delete'), args.uuid) }),
  }),
  deleteApplicationPasswords: t.field({
    type: ApplicationPasswordsDeleteResult,
    description: "Revokes all of a user's application passwords.",
    args: { userId: t.arg.int({ required: false, description: 'User id; omit for the caller.' }) },
    resolve: async (_root, args, ctx) => ({ deleted: true, count: await revokeAllApplicationPasswords(ctx, await checkOwner(ctx, args.userId, 'deleteAll')) }),
  }),
}));
