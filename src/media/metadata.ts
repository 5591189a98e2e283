// What an attachment stores beside its row, as WordPress keeps it in post meta: the file's key in
// storage, its metadata (dimensions, sub-sizes, image meta) and its alternative text. The REST
// `media_details`, `source_url` and `missing_image_sizes` are read from these.
import type { Storage } from './storage.js';
import { IMAGE_SIZES, resizeDimensions } from './images.js';

export const ATTACHED_FILE = '_wp_attached_file';
export const ATTACHMENT_METADATA = '_wp_attachment_metadata';
export const IMAGE_ALT = '_wp_attachment_image_alt';
/**
 * The parent (`post`) an attachment was given by an update when no item has that id: WordPress
 * stores such an id as given, but the parent column here is a foreign key, so it is kept in this
 * meta row (the column then holds none). Read through attachmentParent.
 */
export const MISSING_PARENT = '_missing_post_parent';
export const MEDIA_META_KEYS = [ATTACHED_FILE, ATTACHMENT_METADATA, IMAGE_ALT, MISSING_PARENT];

export interface SizeMeta { file: string; width: number; height: number; mime_type: string; filesize: number }

/** Stored metadata; `file` is the storage key of the attached file (the scaled or rotated one, if made). */
export interface AttachmentMeta {
  width?: number;
  height?: number;
  file?: string;
  filesize?: number;
  sizes?: Record<string, SizeMeta>;
  image_meta?: Record<string, unknown>;
  /** The untouched upload's file name, when the attached file is a scaled or rotated copy. */
  original_image?: string;
}

/** The meta rows of an attachment, as the media fields select them (one selection for all). */
export const mediaMetaSelect = { meta: { where: { key: { in: MEDIA_META_KEYS } }, select: { key: true, value: true } } };

type MetaRow = { key: string; value: string };

export function metaValue(rows: MetaRow[] | undefined, key: string): string | undefined {
  return rows?.find((r) => r.key === key)?.value;
}

/** An attachment's parent id as WordPress would hold it: the column's, or one with nothing behind it (MISSING_PARENT); null when unattached. */
export function attachmentParent(row: { parentId: number | null; meta?: MetaRow[] }): number | null {
  if (row.parentId) return row.parentId;
  const kept = Number(metaValue(row.meta, MISSING_PARENT));
  return Number.isInteger(kept) && kept > 0 ? kept : null;
}

export function attachmentMeta(rows: MetaRow[] | undefined): AttachmentMeta {
  const raw = metaValue(rows, ATTACHMENT_METADATA);
  if (!raw) return {};
  try { return JSON.parse(raw) as AttachmentMeta; } catch { return {}; }
}

/** The folder part of a key ("2026/11/photo.jpg" → "2026/11/"). */
export function folderOf(key: string): string {
  const at = key.lastIndexOf('/');
  return at < 0 ? '' : key.slice(0, at + 1);
}

export const baseName = (key: string) => key.slice(key.lastIndexOf('/') + 1);

/** Every storage key an attachment occupies: the file, its sizes, and the untouched original. */
export function keysOf(file: string | undefined, meta: AttachmentMeta): string[] {
  if (!file) return [];
  const folder = folderOf(file);
  const keys = new Set([file]);
  for (const size of Object.values(meta.sizes ?? {})) keys.add(folder + size.file);
  if (meta.original_image) keys.add(folder + meta.original_image);
  return [...keys];
}

/** WordPress's `media_details`: sizes with their URLs, `full` last; `{}` without metadata. */
export function mediaDetails(storage: Storage | undefined, file: string | undefined, meta: AttachmentMeta, mime: string): Record<string, unknown> {
  if (!Object.keys(meta).length) return {};
  const url = (key: string) => (storage ? storage.url(key) : key);
  const folder = file ? folderOf(file) : '';
  const out: Record<string, unknown> = { ...meta };
  if (meta.width && meta.height && file) {
    const sizes: Record<string, unknown> = {};
    for (const [name, size] of Object.entries(meta.sizes ?? {})) sizes[name] = { ...size, source_url: url(folder + size.file) };
    sizes.full = { file: baseName(file), width: meta.width, height: meta.height, mime_type: mime, source_url: url(file) };
    out.sizes = sizes;
  } else {
    out.sizes = {};
  }
  // The file of a non-image is kept for deleting; WordPress's metadata of such files has none.
  if (!meta.width) delete out.file;
  return out;
}

/** Sub-sizes an image of this size should have but does not (edit context's missing_image_sizes). */
export function missingSizes(meta: AttachmentMeta, mime: string): string[] {
  if (!mime.startsWith('image/') || !meta.width || !meta.height) return [];
  const have = meta.sizes ?? {};
  return IMAGE_SIZES.filter((s) => !have[s.name] && resizeDimensions(meta.width!, meta.height!, s.width, s.height, s.crop)).map((s) => s.name);
}
