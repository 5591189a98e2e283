// GraphQL of the media library: the MediaItem type and its list, update and delete from the
// content type definition; upload (GraphQL multipart request), sub-sizes and image edits here.
import { builder } from '../builder.js';
import { NodeRef } from '../node.js';
import './details.js';
import { defineContentType } from '../content/define.js';
import { resourceFields } from '../resource-types.js';
import { MediaList, MediaResource } from '../../resources/media.js';
import { MEDIA_TYPE } from '../../resources/content-types.js';
import { restError } from '../../errors.js';
import { createAttachment, deleteAttachment, editAttachment, postProcess, updateAttachment, type EditInput, type MediaInput } from '../../media/service.js';
import { tooBigMessage } from '../../media/limits.js';

export const MediaRef = builder.prismaObject('Content', {
  variant: MediaResource.name,
  interfaces: [NodeRef],
  description: MediaResource.description,
  fields: (t) => resourceFields(t, MediaResource) as never,
});

const { input } = defineContentType({
  descriptor: MEDIA_TYPE, resource: MediaResource, ref: MediaRef, list: MediaList, create: false,
  update: (ctx, id, fields: MediaInput) => updateAttachment(ctx, id, fields),
  remove: deleteAttachment,
});

/** A file of a GraphQL multipart request (the `map`/`operations` form yoga reads). */
const FileScalar = builder.scalarType('File', {
  description: 'A file sent with the GraphQL multipart request specification.',
  serialize: () => { throw new Error('File is an input type only'); },
  // yoga hands over its own File implementation: anything that reads like one is taken.
  parseValue: (value) => {
    const file = value as Partial<File> | null;
    if (!file || typeof file.arrayBuffer !== 'function') throw restError('rest_upload_no_data', 'No data supplied.', 400);
    return file as File;
  },
});

const EditInputType = builder.inputType('MediaEditInput', {
  description: 'An image edit: rotate, flip and crop steps applied in order (or the older rotation and crop percentages).',
  fields: (t) => ({
    src: t.string({ required: true, description: 'URL of the edited image file (the attachment or one of its sizes).' }),
    modifiers: t.field({ type: 'JSON', required: false, description: 'Steps: {type: "rotate", args: {angle}}, {type: "flip", args: {flip: {horizontal, vertical}}}, {type: "crop", args: {left, top, width, height}} (percentages).' }),
    rotation: t.int({ required: false, description: 'Deprecated: degrees clockwise, above 0 and below 360.' }),
    x: t.float({ required: false, description: 'Deprecated: crop start, percent of the width.' }),
    y: t.float({ required: false, description: 'Deprecated: crop start, percent of the height.' }),
    width: t.float({ required: false, description: 'Deprecated: crop width, percent.' }),
    height: t.float({ required: false, description: 'Deprecated: crop height, percent.' }),
  }),
});

builder.mutationFields((t) => ({
  uploadMediaItem: t.prismaField({
    type: MediaRef,
    description: 'Uploads a file as a new attachment (its type is read from its bytes); images get their sub-sizes.',
    args: {
      file: t.arg({ type: FileScalar, required: true, description: 'The file.' }),
      input: t.arg({ type: input as never, required: false, description: 'Fields of the attachment.' }),
    },
    resolve: async (query, _root, args, ctx) => {
      const file = args.file as File;
      const max = ctx.media?.maxUploadBytes ?? Infinity;
      if (file.size > max) throw restError('rest_upload_file_too_big', tooBigMessage(max), 400);
      if (!file.size) throw restError('rest_upload_no_data', 'No data supplied.', 400);
      const buffer = Buffer.from(await file.arrayBuffer());
      const id = await createAttachment(ctx, { buffer, name: file.name || 'upload', size: buffer.length, head: buffer.subarray(0, 4100) }, (args.input ?? {}) as MediaInput, file.type || null);
      return ctx.prisma.content.findUniqueOrThrow({ ...query, where: { id } });
    },
  }),
  createMediaItemSubsizes: t.prismaField({
    type: MediaRef,
    description: 'Makes the image sizes an attachment lacks (after an upload whose sizes failed).',
    args: { id: t.arg.int({ required: true, description: 'Id.' }) },
    resolve: async (query, _root, args, ctx) => {
      const id = await postProcess(ctx, args.id);
      return ctx.prisma.content.findUniqueOrThrow({ ...query, where: { id } });
    },
  }),
  editMediaItem: t.prismaField({
    type: MediaRef,
    description: 'Edits an image into a NEW attachment (name-edited.ext) with the original\'s title, caption, description and alternative text.',
    args: {
      id: t.arg.int({ required: true, description: 'Id of the image.' }),
      edit: t.arg({ type: EditInputType, required: true, description: 'The edit.' }),
      input: t.arg({ type: input as never, required: false, description: 'Fields of the new attachment (default: the original\'s).' }),
    },
    resolve: async (query, _root, args, ctx) => {
      const id = await editAttachment(ctx, args.id, { ...((args.input ?? {}) as MediaInput), ...(args.edit as unknown as EditInput) });
      return ctx.prisma.content.findUniqueOrThrow({ ...query, where: { id } });
    },
  }),
}));
