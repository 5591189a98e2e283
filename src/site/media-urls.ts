// Attachments as the public pages and oEmbed show them: the file's URL, an image size that fits,
// and a featured image looked up in one statement.
import type { Context } from '../context.js';
import type { Storage } from '../media/storage.js';
import { ATTACHED_FILE, IMAGE_ALT, attachmentMeta, folderOf, mediaMetaSelect, metaValue } from '../media/metadata.js';

/** An image as the public pages show it. */
export interface Picture { src: string; width?: number; height?: number; alt: string; full: string }

export interface AttachmentLike { id: number; type: string; mimeType: string; meta?: { key: string; value: string }[] }

const urlOf = (storage: Storage | undefined, key: string) => (storage ? storage.url(key) : key);

/** The URL of the attached file ('' when it has none). */
export function fileUrl(storage: Storage | undefined, row: AttachmentLike): string {
  const file = metaValue(row.meta, ATTACHED_FILE);
  return file ? urlOf(storage, file) : '';
}

/** An image attachment at the named size when it was made (else the full file); null for other files. */
export function pictureOf(storage: Storage | undefined, row: AttachmentLike, size: string): Picture | null {
  if (row.type !== 'attachment' || !row.mimeType.startsWith('image/')) return null;
  const file = metaValue(row.meta, ATTACHED_FILE);
  if (!file) return null;
  const meta = attachmentMeta(row.meta);
  const sized = meta.sizes?.[size];
  const full = urlOf(storage, file);
  return {
    src: sized ? urlOf(storage, folderOf(file) + sized.file) : full,
    width: sized?.width ?? meta.width,
    height: sized?.height ?? meta.height,
    alt: metaValue(row.meta, IMAGE_ALT) ?? '',
    full,
  };
}

/**
 * The full image scaled down to at most `maxWidth` wide, as oEmbed's thumbnail: WordPress asks for
 * a size `maxWidth` × 99999, which no made size matches, so it answers the full file with its
 * dimensions constrained proportionally.
 */
export function thumbnailOf(storage: Storage | undefined, row: AttachmentLike, maxWidth: number): { url: string; width: number; height: number } | null {
  const picture = pictureOf(storage, row, 'full');
  if (!picture?.width || !picture.height) return null;
  if (picture.width <= maxWidth) return { url: picture.full, width: picture.width, height: picture.height };
  return { url: picture.full, width: maxWidth, height: Math.max(1, Math.round(picture.height * (maxWidth / picture.width))) };
}

/** The attachment a `featured_media` names, with its file meta; null when it is not one. */
export async function featuredAttachment(ctx: Context, id: number): Promise<AttachmentLike | null> {
  if (!id) return null;
  const row = await ctx.prisma.content.findUnique({ where: { id }, select: { id: true, type: true, mimeType: true, ...mediaMetaSelect } });
  return row?.type === 'attachment' ? row : null;
}
