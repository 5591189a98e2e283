// core/v2/media: the content routes of the attachment type, with an upload for create, and the
// post-process and image-edit routes.
import { openAsBlob } from 'node:fs';
import type { ArgDef, Endpoint, RouteEntry } from '../types.js';
import { MediaList, MediaResource } from '../../src/resources/media.js';
import { MEDIA_TYPE } from '../../src/resources/content-types.js';
import { itemSchema } from '../../src/resources/json-schema.js';
import { inputOf, writeArgs } from '../resources.js';
import { idArg } from '../args/common.js';
import { WpError } from '../errors.js';
import { dispositionName } from '../upload.js';
import { contentItemResult, contentRoutes } from './content.js';

const d = MEDIA_TYPE;
const itemResult = contentItemResult(d, MediaResource);
const base = `/core/v2/${d.restBase}`;

/**
 * POST /media: the body is the file (Content-Type and Content-Disposition name it) or a multipart
 * form with a `file` part; WordPress's checks of a raw body come first, in its order.
 */
const upload: Endpoint = {
  methods: ['POST'], permission: d.createCap!, operation: 'MediaItemUpload', upload: true,
  args: writeArgs(MediaResource, { create: true }),
  async handler(req) {
    if (req.params.id !== undefined) throw new WpError('rest_post_exists', 'Cannot create existing post.', 400);
    const received = req.upload!;
    const file = received.file;
    if (!file) throw new WpError('rest_upload_no_data', 'No data supplied.', 400);
    let name = file.name;
    if (received.form === 'raw') {
      if (!file.declaredType) throw new WpError('rest_upload_no_content_type', 'No Content-Type supplied.', 400);
      const disposition = req.headers.get('content-disposition');
      if (!disposition) throw new WpError('rest_upload_no_content_disposition', 'No Content-Disposition supplied.', 400);
      name = dispositionName(disposition);
      if (!name) throw new WpError('rest_upload_invalid_disposition', 'Invalid Content-Disposition supplied. Content-Disposition needs to be formatted as `attachment; filename="image.png"` or similar.', 400);
    }
    const md5 = req.headers.get('content-md5');
    if (md5 && md5.toLowerCase() !== file.md5) throw new WpError('rest_upload_hash_mismatch', 'Content hash did not match expected.', 412);
    // The temporary file as a File whose bytes are read from disk when the operation asks for them.
    const blob = new File([await openAsBlob(file.path)], name ?? 'upload', { type: file.declaredType ?? '' });
    const data = await req.run('edit', { file: blob, input: inputOf(MediaResource, req.params) });
    const item = data.uploadMediaItem;
    const result = itemResult(req, item, 201, 'edit');
    result.headers = { Location: `${req.root}core/v2/${d.restBase}/${item.id}`, 'X-WP-Upload-Attachment-ID': item.id };
    return result;
  },
};

const postProcess: Endpoint = {
  methods: ['POST'], permission: d.caps.edit_posts, operation: 'MediaItemPostProcess',
  args: {
    id: { description: 'Unique identifier for the attachment.', type: 'integer' },
    action: { type: 'string', enum: ['create-image-subsizes'], required: true },
  },
  async handler(req) {
    const data = await req.run('edit', { id: Number(req.params.id) });
    return itemResult(req, data.createMediaItemSubsizes, 200, 'edit');
  },
};

const number = (description: string): ArgDef => ({ description, type: 'number', minimum: 0, maximum: 100 });
const modifierItem = (title: string, type: string, description: string, args: Record<string, unknown>) => ({
  title,
  properties: {
    type: { description, type: 'string', enum: [type] },
    args: { description: `${title} arguments.`, type: 'object', ...args },
  },
});

/** POST /media/{id}/edit: the edit arguments of WordPress, then the writable fields for the new attachment. */
const edit: Endpoint = {
  methods: ['POST'], permission: 'upload_files', operation: 'MediaItemEdit',
  args: {
    id: idArg,
    src: { description: 'URL to the edited image file.', type: 'string', format: 'uri', required: true },
    modifiers: {
      description: 'Array of image edits.', type: 'array', minItems: 1,
      items: {
        description: 'Image edit.', type: 'object', required: ['type', 'args'],
        oneOf: [
          modifierItem('Flip', 'flip', 'Flip type.', {
            required: ['flip'],
            properties: {
              flip: {
                description: 'Flip direction.', type: 'object', required: ['horizontal', 'vertical'],
                properties: {
                  horizontal: { description: 'Whether to flip in the horizontal direction.', type: 'boolean' },
                  vertical: { description: 'Whether to flip in the vertical direction.', type: 'boolean' },
                },
              },
            },
          }),
          modifierItem('Rotation', 'rotate', 'Rotation type.', {
            required: ['angle'],
            properties: { angle: { description: 'Angle to rotate clockwise in degrees.', type: 'number' } },
          }),
          modifierItem('Crop', 'crop', 'Crop type.', {
            required: ['left', 'top', 'width', 'height'],
            properties: {
              left: { description: 'Horizontal position from the left to begin the crop as a percentage of the image width.', type: 'number' },
              top: { description: 'Vertical position from the top to begin the crop as a percentage of the image height.', type: 'number' },
              width: { description: 'Width of the crop as a percentage of the image width.', type: 'number' },
              height: { description: 'Height of the crop as a percentage of the image height.', type: 'number' },
            },
          }),
        ],
      },
    },
    rotation: { description: 'The amount to rotate the image clockwise in degrees. DEPRECATED: Use `modifiers` instead.', type: 'integer', minimum: 0, exclusiveMinimum: true, maximum: 360, exclusiveMaximum: true },
    x: number('As a percentage of the image, the x position to start the crop from. DEPRECATED: Use `modifiers` instead.'),
    y: number('As a percentage of the image, the y position to start the crop from. DEPRECATED: Use `modifiers` instead.'),
    width: number('As a percentage of the image, the width to crop the image to. DEPRECATED: Use `modifiers` instead.'),
    height: number('As a percentage of the image, the height to crop the image to. DEPRECATED: Use `modifiers` instead.'),
    ...writeArgs(MediaResource, { create: false }),
  },
  async handler(req) {
    const p = req.params;
    const editInput = { src: p.src, modifiers: p.modifiers, rotation: p.rotation, x: p.x, y: p.y, width: p.width, height: p.height };
    const data = await req.run('edit', { id: Number(p.id), edit: editInput, input: inputOf(MediaResource, p) });
    const item = data.editMediaItem;
    const result = itemResult(req, item, 201, 'edit');
    result.headers = { Location: `${req.root}core/v2/${d.restBase}/${item.id}` };
    return result;
  },
};

/** WordPress's batch route takes every post type but attachments. */
const unbatched = (routes: RouteEntry[]): RouteEntry[] => routes.map((r) => ({ ...r, endpoints: r.endpoints.map((e) => ({ ...e, allowBatch: false })) }));

export const mediaRoutes = (): RouteEntry[] => [
  ...unbatched(contentRoutes({ descriptor: d, resource: MediaResource, list: MediaList, create: upload })),
  { namespace: 'core/v2', pattern: `${base}/(?P<id>[\\d]+)/post-process`, endpoints: [postProcess], schema: () => itemSchema(MediaResource) },
  { namespace: 'core/v2', pattern: `${base}/(?P<id>[\\d]+)/edit`, endpoints: [edit], schema: () => itemSchema(MediaResource) },
];
