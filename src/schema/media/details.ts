// `MediaItem.mediaDetails` as GraphQL types: the same record as the REST `media_details` (made by
// `mediaDetails()` in src/media/metadata.ts, WordPress's keys), read field by field, so a client
// gets generated types for an image's sizes. The sizes, keyed by WordPress's size name in REST,
// are a list here with the name on each (as WPGraphQL's `mediaDetails { sizes { name … } }`).
import { builder } from '../builder.js';
import { IMAGE_SIZES } from '../../media/images.js';

type Details = Record<string, unknown>;
type Size = Record<string, unknown> & { name: string };
type ImageMeta = Record<string, unknown>;

/** An integer of the metadata, or null (WordPress keeps some as strings: "0" when unknown). */
function int(v: unknown): number | null {
  const n = typeof v === 'string' && v.trim() !== '' ? Number(v) : v;
  // GraphQL's Int is 32-bit: a value beyond it (a far timestamp) is null rather than an error.
  return typeof n === 'number' && Number.isInteger(n) && Math.abs(n) <= 0x7fffffff ? n : null;
}

function float(v: unknown): number | null {
  const n = typeof v === 'string' && v.trim() !== '' ? Number(v) : v;
  return typeof n === 'number' && Number.isFinite(n) ? n : null;
}

const str = (v: unknown): string | null => (typeof v === 'string' ? v : null);
const record = (v: unknown): Record<string, unknown> | null => (v && typeof v === 'object' && !Array.isArray(v) ? (v as Record<string, unknown>) : null);

/** The sizes of a details record, in its order (`full` last), each with its name. */
function sizesOf(d: Details): Size[] {
  return Object.entries(record(d.sizes) ?? {}).flatMap(([name, s]) => (record(s) ? [{ ...(s as Record<string, unknown>), name }] : []));
}

/** WordPress's size names (its registered sizes and `full`), with WPGraphQL's enum names. */
const SIZE_NAMES = [...IMAGE_SIZES.map((s) => s.name), 'full'];
export const MediaSizeName = builder.enumType('MediaSizeName', {
  description: 'An image size WordPress makes: the registered sub-sizes and `full`, the attached file itself.',
  values: Object.fromEntries(SIZE_NAMES.map((name) => [
    // A GraphQL name cannot start with a digit: 1536x1536 is _1536X1536, as WPGraphQL names it.
    (/^\d/.test(name) ? '_' : '') + name.toUpperCase(),
    { value: name, description: name === 'full' ? 'The attached file itself (the scaled or rotated copy, if one was made).' : `The \`${name}\` size (${sizeText(name)}).` },
  ])),
});

function sizeText(name: string): string {
  const s = IMAGE_SIZES.find((x) => x.name === name)!;
  const box = s.height ? `${s.width}×${s.height}` : `${s.width} wide`;
  return s.crop ? `cropped to ${box}` : `fit within ${box}`;
}

export const MediaSizeRef = builder.objectRef<Size>('MediaSize').implement({
  description: 'One size of an image: the original (`full`) or a sub-size WordPress made from it.',
  fields: (t) => ({
    name: t.string({ description: 'WordPress\'s name of the size (`thumbnail`, `medium`, `medium_large`, `large`, `1536x1536`, `2048x2048`, `full`): its key in the REST `media_details.sizes`.', resolve: (s) => s.name }),
    file: t.string({ description: 'File name of the size, in the folder of the attached file.', resolve: (s) => str(s.file) ?? '' }),
    width: t.int({ nullable: true, description: 'Width in pixels.', resolve: (s) => int(s.width) }),
    height: t.int({ nullable: true, description: 'Height in pixels.', resolve: (s) => int(s.height) }),
    filesize: t.int({ nullable: true, description: 'Size of the file in bytes; null for `full` (REST gives none there either: see `MediaDetails.filesize`).', resolve: (s) => int(s.filesize) }),
    mimeType: t.string({ nullable: true, description: 'MIME type of the file.', resolve: (s) => str(s.mime_type) }),
    sourceUrl: t.field({ type: 'URL', description: 'URL of the file.', resolve: (s) => String(s.source_url ?? '') }),
  }),
});

export const MediaImageMetaRef = builder.objectRef<ImageMeta>('MediaImageMeta').implement({
  description: 'What an image\'s embedded IPTC and EXIF data say, as WordPress reads it when the file is uploaded (its `image_meta`). Numbers WordPress stores as "0" when unknown are 0 here.',
  fields: (t) => ({
    aperture: t.float({ nullable: true, description: 'F-number of the aperture.', resolve: (m) => float(m.aperture) }),
    credit: t.string({ nullable: true, description: 'Credit or author (IPTC credit or by-line, else EXIF artist).', resolve: (m) => str(m.credit) }),
    camera: t.string({ nullable: true, description: 'Camera model.', resolve: (m) => str(m.camera) }),
    caption: t.string({ nullable: true, description: 'Caption embedded in the file.', resolve: (m) => str(m.caption) }),
    createdTimestamp: t.int({ nullable: true, description: 'When the picture was taken, in seconds since 1970 (UTC); 0 when unknown, null when beyond a 32-bit integer.', resolve: (m) => int(m.created_timestamp) }),
    copyright: t.string({ nullable: true, description: 'Copyright notice.', resolve: (m) => str(m.copyright) }),
    focalLength: t.float({ nullable: true, description: 'Focal length in millimetres.', resolve: (m) => float(m.focal_length) }),
    iso: t.int({ nullable: true, description: 'ISO speed.', resolve: (m) => int(m.iso) }),
    shutterSpeed: t.float({ nullable: true, description: 'Exposure time in seconds.', resolve: (m) => float(m.shutter_speed) }),
    title: t.string({ nullable: true, description: 'Title embedded in the file (IPTC headline or object name, else a short EXIF description).', resolve: (m) => str(m.title) }),
    orientation: t.int({ nullable: true, description: 'EXIF orientation (1–8) of the uploaded file; null when it has none.', resolve: (m) => int(m.orientation) }),
    keywords: t.stringList({ description: 'IPTC keywords; empty when there are none.', resolve: (m) => (Array.isArray(m.keywords) ? m.keywords.filter((k): k is string => typeof k === 'string') : []) }),
  }),
});

export const MediaDetailsRef = builder.objectRef<Details>('MediaDetails').implement({
  description: 'Details of a media file, as the REST `media_details` holds them: an image\'s dimensions, file, sizes and embedded data; only the file size for other files; nothing (nulls and no sizes) for an attachment without metadata.',
  fields: (t) => ({
    width: t.int({ nullable: true, description: 'Width in pixels of the attached file (an image\'s only).', resolve: (d) => int(d.width) }),
    height: t.int({ nullable: true, description: 'Height in pixels of the attached file (an image\'s only).', resolve: (d) => int(d.height) }),
    file: t.string({ nullable: true, description: 'Path of the attached file below the uploads folder (`2026/11/photo.jpg`; an image\'s only).', resolve: (d) => str(d.file) }),
    filesize: t.int({ nullable: true, description: 'Size of the attached file in bytes.', resolve: (d) => int(d.filesize) }),
    originalImage: t.string({ nullable: true, description: 'File name of the upload as sent, when the attached file is a scaled or rotated copy of it; else null.', resolve: (d) => str(d.original_image) }),
    sizes: t.field({ type: [MediaSizeRef], description: 'The image\'s sizes in the order REST lists them (the sub-sizes as they were made, `full` last); empty for other files.', resolve: sizesOf }),
    size: t.field({
      type: MediaSizeRef, nullable: true,
      description: 'One size of the image by name (`size(name: MEDIUM) { sourceUrl width height }`); null when the image has no such size (a small image has no larger sub-sizes) or is not an image.',
      args: { name: t.arg({ type: MediaSizeName, required: true, description: 'The size.' }) },
      resolve: (d, args) => sizesOf(d).find((s) => s.name === args.name) ?? null,
    }),
    imageMeta: t.field({ type: MediaImageMetaRef, nullable: true, description: 'The image\'s embedded data; null for other files.', resolve: (d) => record(d.image_meta) }),
  }),
});
