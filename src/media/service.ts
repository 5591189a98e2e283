// The media library's rules: what may be uploaded (sniffed from the bytes), where the files go,
// the image sizes made with them, image edits, and deleting with every file. Records are
// attachments written through the content service, so the posts' rules apply to them too.
import { fileTypeFromBuffer } from 'file-type';
import type { Context } from '../context.js';
import type { Tx } from '../db/client.js';
import { restError, authStatus } from '../errors.js';
import { canEditContent } from '../auth/content-permissions.js';
import { MEDIA_TYPE } from '../resources/content-types.js';
import { checkWriteRights, deleteContent, findContent, saveContent, type ContentInput } from '../content/service.js';
import { monthFolder, sanitizeFileName, uniqueKey, type Storage } from './storage.js';
import { journalOf, type WriteIntent } from './intents.js';
import {
  EDITABLE_TYPES, IMAGE_SIZES, ImageEditError, applyModifiers, makeSize, normalizeOriginal, probeImage, sizedName, type Modifier,
} from './images.js';
import {
  ATTACHED_FILE, ATTACHMENT_METADATA, IMAGE_ALT, attachmentMeta, baseName, folderOf, keysOf, mediaMetaSelect, metaValue,
  type AttachmentMeta, type SizeMeta,
} from './metadata.js';
import { ALLOWED_TYPES, TEXT_EXTENSIONS, sameType } from './types.js';
import { log } from '../log.js';

const TYPE = MEDIA_TYPE.type;

/** The writable fields of an attachment as GraphQL (and the REST mapping) give them. */
export interface MediaInput extends Omit<ContentInput, 'content' | 'excerpt' | 'meta'> {
  description?: string | null;
  caption?: string | null;
  altText?: string | null;
  meta?: unknown;
}

/** A file on local disk to become an attachment (an upload's temporary file, or an edit's result). */
export interface IncomingFile {
  path?: string;
  buffer?: Buffer;
  /** The name given by the client (or made for an edit). */
  name: string;
  size: number;
  /** The first bytes, for sniffing. */
  head: Buffer;
}

function storageOf(ctx: Context): Storage {
  if (!ctx.media) throw restError('rest_upload_unknown_error', 'The media library has no storage here.', 500);
  return ctx.media.storage;
}

function toContentInput(input: MediaInput): ContentInput {
  const { description, caption, altText: _alt, meta: _meta, ...rest } = input;
  return { ...rest, ...(description != null ? { content: description } : {}), ...(caption != null ? { excerpt: caption } : {}) };
}

const refused = () => restError('rest_upload_sideload_error', 'Sorry, you are not allowed to upload this file type.', 400);

/**
 * The type of an upload, from its bytes: the extension must be one WordPress allows, and the
 * sniffed type must be that extension's (a PNG named .jpg is refused). Types without a
 * signature (text, CSV …) are accepted by extension when the bytes look like text.
 */
export async function sniffType(name: string, head: Buffer, declared: string | null): Promise<{ mime: string; ext: string }> {
  const ext = (/\.([^./]+)$/.exec(name)?.[1] ?? '').toLowerCase();
  const allowed = ALLOWED_TYPES.get(ext);
  if (!allowed) throw refused();
  const sniffed = await fileTypeFromBuffer(head);
  if (sniffed) {
    if (!sameType(sniffed.mime, allowed)) throw refused();
  } else if (!TEXT_EXTENSIONS.has(ext) || head.includes(0)) {
    throw refused();
  }
  // A declared media type that names another kind of file than the bytes is a lie: refused too.
  // (Other declared types are guesses clients make from names, e.g. CSV as a spreadsheet.)
  const claimed = declared?.split(';')[0].trim().toLowerCase();
  if (claimed && /^(image|audio|video)\/|^application\/pdf$/.test(claimed) && !sameType(claimed, allowed)) throw refused();
  return { mime: allowed, ext };
}

async function bytesOf(storage: Storage, key: string): Promise<Buffer> {
  const got = await storage.read(key);
  if (!got) throw restError('rest_upload_unknown_error', 'The file of this attachment is missing.', 500);
  const chunks: Buffer[] = [];
  for await (const chunk of got.stream as AsyncIterable<Buffer>) chunks.push(Buffer.from(chunk));
  return Buffer.concat(chunks);
}

/**
 * Makes the sub-sizes an image lacks (thumbnail, medium …), stores them and records them in its
 * metadata. Other files have none. Returns the updated metadata.
 */
export async function createSubsizes(ctx: Context, id: number): Promise<AttachmentMeta> {
  const storage = storageOf(ctx);
  const row = await ctx.prisma.content.findUniqueOrThrow({ where: { id }, select: { mimeType: true, ...mediaMetaSelect } });
  const file = metaValue(row.meta, ATTACHED_FILE);
  const meta = attachmentMeta(row.meta);
  if (!file || !EDITABLE_TYPES.has(row.mimeType) || !meta.width) return meta;
  // As WordPress: sizes are made from the upload itself (upright, full resolution) and named
  // after it, also when the attachment's file is a -scaled or -rotated copy.
  const original = meta.original_image ?? baseName(file);
  const source = await bytesOf(storage, folderOf(file) + original);
  const sizes: Record<string, SizeMeta> = { ...(meta.sizes ?? {}) };
  // Each size's file is noted before it is stored and owned once the metadata names it: a
  // process killed in between leaves files a sweep removes (src/media/intents.ts).
  const intent = journalOf(storage).begin(ctx);
  const made: string[] = [];
  try {
    for (const spec of IMAGE_SIZES) {
      if (sizes[spec.name]) continue;
      const size = await makeSize(source, spec);
      if (!size) continue;
      const name = sizedName(original, `${size.width}x${size.height}`);
      await intent.add(folderOf(file) + name);
      made.push(folderOf(file) + name);
      await storage.put(folderOf(file) + name, size.buffer, row.mimeType);
      sizes[spec.name] = { file: name, width: size.width, height: size.height, mime_type: row.mimeType, filesize: size.buffer.length };
    }
    const updated = { ...meta, sizes };
    await ctx.prisma.$transaction(async (tx) => {
      await tx.postMeta.deleteMany({ where: { contentId: id, key: ATTACHMENT_METADATA } });
      await tx.postMeta.create({ data: { contentId: id, key: ATTACHMENT_METADATA, value: JSON.stringify(updated) } });
      await intent.commit(tx);
    });
    made.length = 0;
    return updated;
  } finally {
    // Sizes the metadata does not name are removed, then forgotten (left to a sweep if that fails).
    await settle(storage, made, intent);
  }
}

/**
 * A new attachment from a file: its type sniffed, the file stored under YYYY/MM with a unique
 * name, an image normalised (EXIF orientation applied, huge ones scaled) and given its sizes, the
 * record written with the caller's fields. A failure before the record exists removes every file
 * it stored; sub-sizes that fail leave the attachment with those sizes missing (post-process
 * makes them later), as WordPress.
 */
export interface CreateAttachmentOptions {
  /** The uploads folder (`YYYY/MM`) instead of this month's: an import keeps the exporting site's. */
  folder?: string;
  /** Written in the record's transaction (an import's record of where the attachment came from). */
  within?: (tx: Tx, id: number) => Promise<void>;
}

export async function createAttachment(ctx: Context, file: IncomingFile, input: MediaInput, declaredType: string | null = null, options: CreateAttachmentOptions = {}): Promise<number> {
  const storage = storageOf(ctx);
  checkWriteRights(ctx, TYPE, null, toContentInput(input));
  const name = sanitizeFileName(file.name);
  const { mime } = await sniffType(name, file.head, declaredType);
  const isImage = mime.startsWith('image/');
  if (isImage && !EDITABLE_TYPES.has(mime)) {
    throw restError('rest_upload_image_type_not_supported', 'The web server cannot generate responsive image sizes for this image. Convert it to JPEG or PNG before uploading.', 400);
  }
  const now = new Date();
  const stored: string[] = [];
  // Every file is noted before it is stored (in the database, src/media/intents.ts), and the note
  // dropped in the transaction that commits the record (or once they are removed): a process
  // killed in between leaves files a sweep removes, from whichever instance runs it.
  const intent = journalOf(storage).begin(ctx);
  try {
    const folder = options.folder && /^\d{4}\/\d{2}$/.test(options.folder) ? options.folder : monthFolder(now);
    const key = await uniqueKey(storage, folder, name);
    const body = file.path ? { path: file.path } : file.buffer!;
    await intent.add(key);
    stored.push(key);
    await storage.put(key, body, mime);
    let meta: AttachmentMeta = { filesize: file.size, file: key };
    let attached = key;
    let title = input.title;
    let caption = input.caption;
    if (isImage) {
      const source = file.path ?? file.buffer!;
      const info = await probeImage(source);
      const ready = await normalizeOriginal(source, info);
      if (ready) {
        attached = sizedName(key, ready.scaled ? 'scaled' : 'rotated');
        await intent.add(attached);
        stored.push(attached);
        await storage.put(attached, ready.buffer, mime);
        meta = { width: ready.width, height: ready.height, file: attached, filesize: ready.buffer.length, sizes: {}, image_meta: { ...info.imageMeta }, original_image: baseName(key) };
      } else {
        meta = { width: info.width, height: info.height, file: key, filesize: file.size, sizes: {}, image_meta: { ...info.imageMeta } };
      }
      title ??= info.imageMeta.title || undefined;
      caption ??= info.imageMeta.caption || undefined;
    }
    title ??= name.replace(/\.[^.]+$/, '');
    const id = await saveContent(ctx, TYPE, null, toContentInput({ ...input, title, caption }), {
      within: async (tx, savedId) => {
        await tx.content.update({ where: { id: savedId }, data: { mimeType: mime, guid: storage.url(attached) } });
        await tx.postMeta.createMany({
          data: [
            { contentId: savedId, key: ATTACHED_FILE, value: attached },
            { contentId: savedId, key: ATTACHMENT_METADATA, value: JSON.stringify(meta) },
            ...(input.altText ? [{ contentId: savedId, key: IMAGE_ALT, value: input.altText }] : []),
          ],
        });
        await options.within?.(tx, savedId);
        await intent.commit(tx);
      },
    });
    stored.length = 0; // the record owns them now
    await intent.done().catch(() => undefined);
    if (isImage) {
      try { await createSubsizes(ctx, id); } catch (err) { log.error({ err, attachment: id }, 'sub-sizes of an attachment failed'); }
    }
    return id;
  } finally {
    await settle(storage, stored, intent);
  }
}

/** After a write: its files no record owns are removed, then the write forgotten; left to a sweep when removing fails. */
async function settle(storage: Storage, unowned: string[], intent: WriteIntent): Promise<void> {
  if (unowned.length && !(await storage.delete(unowned).then(() => true, () => false))) return intent.abandon();
  await intent.done().catch(() => undefined);
}

/** Updates an attachment's fields (its file stays). */
export async function updateAttachment(ctx: Context, id: number, input: MediaInput): Promise<number> {
  return saveContent(ctx, TYPE, id, toContentInput(input), {
    within: async (tx, savedId) => {
      if (input.altText == null) return;
      await tx.postMeta.deleteMany({ where: { contentId: savedId, key: IMAGE_ALT } });
      if (input.altText !== '') await tx.postMeta.create({ data: { contentId: savedId, key: IMAGE_ALT, value: input.altText } });
    },
  });
}

/** Deletes an attachment for good with every file it has (sizes and untouched original). */
export async function deleteAttachment(ctx: Context, id: number): Promise<void> {
  const row = await ctx.prisma.content.findUniqueOrThrow({ where: { id }, select: mediaMetaSelect });
  const keys = keysOf(metaValue(row.meta, ATTACHED_FILE), attachmentMeta(row.meta));
  await deleteContent(ctx, id);
  // The record is gone first: a file left by a failed delete is unreachable, never a record without its file.
  if (keys.length) await storageOf(ctx).delete(keys).catch((err) => log.error({ err, attachment: id }, 'deleting the files of an attachment failed'));
}

/** post-process `create-image-subsizes`: the right to edit the attachment, then the missing sizes. */
export async function postProcess(ctx: Context, id: number): Promise<number> {
  const row = await findContent(ctx, TYPE, id);
  if (!canEditContent(ctx, row)) throw restError('rest_cannot_edit', 'Sorry, you are not allowed to edit this post.', authStatus(!!ctx.viewer));
  await createSubsizes(ctx, id);
  return id;
}

export interface EditInput extends MediaInput {
  src: string;
  modifiers?: Modifier[] | null;
  rotation?: number | null;
  x?: number | null;
  y?: number | null;
  width?: number | null;
  height?: number | null;
}

/**
 * WordPress's image edit: rotate, flip and crop (or the older rotation/x/y/width/height) applied to
 * the untouched original, saved as a NEW attachment `<name>-edited.<ext>` that copies the title,
 * caption, description and alternative text (fields given in the request win).
 */
export async function editAttachment(ctx: Context, id: number, input: EditInput): Promise<number> {
  const storage = storageOf(ctx);
  if (!ctx.can('upload_files')) throw restError('rest_cannot_edit_image', 'Sorry, you are not allowed to upload media on this site.', authStatus(!!ctx.viewer));
  const row = await findContent(ctx, TYPE, id);
  if (!canEditContent(ctx, row)) throw restError('rest_cannot_edit', 'Sorry, you are not allowed to edit this post.', authStatus(!!ctx.viewer));
  const full = await ctx.prisma.content.findUniqueOrThrow({ where: { id }, select: mediaMetaSelect });
  const file = metaValue(full.meta, ATTACHED_FILE);
  const meta = attachmentMeta(full.meta);
  if (!file || !meta.width || !srcMatches(input.src, file, meta)) throw restError('rest_unknown_attachment', 'Unable to get meta information for file.', 404);
  if (!EDITABLE_TYPES.has(row.mimeType)) throw restError('rest_cannot_edit_file_type', 'This type of file cannot be edited.', 400);

  let modifiers: Modifier[] = input.modifiers ?? [];
  if (!input.modifiers) {
    if (input.rotation) modifiers.push({ type: 'rotate', args: { angle: input.rotation } });
    if (input.x != null && input.y != null && input.width != null && input.height != null) {
      modifiers.push({ type: 'crop', args: { left: input.x, top: input.y, width: input.width, height: input.height } });
    }
  }
  modifiers = modifiers.filter(Boolean);
  if (!modifiers.length) throw restError('rest_image_not_edited', 'The image was not edited. Edit the image before applying the changes.', 400);

  const originalKey = meta.original_image ? folderOf(file) + meta.original_image : file;
  const source = await bytesOf(storage, originalKey);
  let edited: { buffer: Buffer };
  try {
    edited = await applyModifiers(source, modifiers);
  } catch (err) {
    if (err instanceof ImageEditError) throw restError(err.code, err.message, err.status);
    throw err;
  }
  const original = baseName(originalKey);
  const stem = original.replace(/\.[^.]+$/, '').replace(/-(scaled|rotated)$/, '').replace(/-edited(-\d+)?$/, '');
  const ext = original.slice(stem.length).replace(/^.*(\.[^.]+)$/, '$1');
  const altText = metaValue((await ctx.prisma.content.findUniqueOrThrow({ where: { id }, select: mediaMetaSelect })).meta, IMAGE_ALT);
  const { src: _src, modifiers: _m, rotation: _r, x: _x, y: _y, width: _w, height: _h, ...fields } = input;
  return createAttachment(ctx, { buffer: edited.buffer, name: `${stem}-edited${ext}`, size: edited.buffer.length, head: edited.buffer.subarray(0, 4100) }, {
    title: row.title, caption: row.excerpt, description: row.content, altText: altText ?? undefined, ...definedOnly(fields),
  });
}

function definedOnly<T extends object>(o: T): Partial<T> {
  return Object.fromEntries(Object.entries(o).filter(([, v]) => v !== undefined && v !== null)) as Partial<T>;
}

/** Whether `src` names this attachment's file or one of its sizes (wp_image_file_matches_image_meta). */
function srcMatches(src: string, file: string, meta: AttachmentMeta): boolean {
  let path: string;
  try { path = decodeURIComponent(new URL(src, 'http://x').pathname); } catch { return false; }
  const name = baseName(path);
  const names = new Set([baseName(file), ...Object.values(meta.sizes ?? {}).map((s) => s.file), ...(meta.original_image ? [meta.original_image] : [])]);
  return names.has(name);
}
