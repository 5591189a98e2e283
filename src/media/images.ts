// WordPress's image handling on sharp: reading dimensions and image_meta, the size arithmetic of
// image_resize_dimensions(), the "-scaled"/"-rotated" original, sub-sizes, and the REST edit modifiers.
// Everything here works on bytes or file paths; storage and attachment records belong to the callers.
import { createRequire } from 'node:module';
import type SharpLib from 'sharp';
import type { Channels, Metadata, Sharp } from 'sharp';
import exifReader from 'exif-reader';

// sharp (libvips, a few hundred milliseconds to load) is loaded on the first image a process
// handles, not at start-up: most processes serve reads and never touch an image.
const require = createRequire(import.meta.url);
let loaded: typeof SharpLib | undefined;
function lib(): typeof SharpLib {
  if (!loaded) {
    loaded = require('sharp') as typeof SharpLib;
    // libvips caches loaded files by path; an upload rewritten at the same path could otherwise be
    // served from the cache, so caching is off for the whole process.
    loaded.cache(false);
    // One libvips thread per image operation: the processes already share the cores, and each
    // extra thread keeps its own malloc arena (tens of MB of resident memory after a large image).
    loaded.concurrency(1);
  }
  return loaded;
}
const sharp = (...args: Parameters<typeof SharpLib>): Sharp => lib()(...args);

export interface SizeSpec {
  name: string;
  width: number;
  height: number;
  crop: boolean;
}

/** WordPress's default sub-sizes in its order (0 = unbounded on that side). */
export const IMAGE_SIZES: SizeSpec[] = [
  { name: 'thumbnail', width: 150, height: 150, crop: true },
  { name: 'medium', width: 300, height: 300, crop: false },
  { name: 'medium_large', width: 768, height: 0, crop: false },
  { name: 'large', width: 1024, height: 1024, crop: false },
  { name: '1536x1536', width: 1536, height: 1536, crop: false },
  { name: '2048x2048', width: 2048, height: 2048, crop: false },
];

export const BIG_IMAGE_THRESHOLD = 2560;

/** Encoder quality per output type, as WordPress's image editors default it. */
export const JPEG_QUALITY = 82;
export const WEBP_QUALITY = 86;
export const AVIF_QUALITY = 82;

let editable: ReadonlySet<string> | undefined;
/** Image MIME types this module can read and write (asking loads sharp). */
export const EDITABLE_TYPES: Pick<ReadonlySet<string>, 'has'> = {
  has(mime: string): boolean {
    if (!editable) {
      // AVIF needs an AV1 encoder in the bundled libvips; HEIC (HEVC) never has one, so it stays read-only.
      const canWriteAvif = Boolean(lib().format.heif?.output?.buffer && lib().versions.aom);
      editable = new Set(['image/jpeg', 'image/png', 'image/gif', 'image/webp', ...(canWriteAvif ? ['image/avif'] : [])]);
    }
    return editable.has(mime);
  },
};

export interface ImageMeta {
  aperture: string;
  credit: string;
  camera: string;
  caption: string;
  created_timestamp: string;
  copyright: string;
  focal_length: string;
  iso: string;
  shutter_speed: string;
  title: string;
  orientation: string;
  keywords: string[];
}

export interface ImageInfo {
  width: number;
  height: number;
  /** EXIF orientation 1–8 (1 when none) */
  orientation: number;
  mime: string;
  imageMeta: ImageMeta;
}

/** An edit failure carrying WordPress's REST error code and the HTTP status WordPress answers with. */
export class ImageEditError extends Error {
  readonly code: string;
  readonly status: number;
  constructor(code: string, message: string, status: number, options?: { cause?: unknown }) {
    super(message, options);
    this.name = 'ImageEditError';
    this.code = code;
    this.status = status;
  }
}

// ---------------------------------------------------------------------------------------------
// Arithmetic

/**
 * PHP's round() for the sizes WordPress computes: halves go away from zero, and the value is first
 * cut to 15 significant digits so a product such as 168.49999999999997 that is "really" .5 rounds up.
 */
export function phpRound(value: number): number {
  if (!Number.isFinite(value)) return value;
  const magnitude = Number(Math.abs(value).toPrecision(15));
  const rounded = Math.floor(magnitude + 0.5);
  return value < 0 ? -rounded : rounded;
}

/**
 * WordPress's wp_constrain_dimensions(): scale width×height down to fit maxW×maxH (0 = no limit on
 * that side), never up, at least 1 px a side, and a side that ends one pixel short of its limit
 * through rounding is given that pixel back.
 */
export function constrainDimensions(width: number, height: number, maxW = 0, maxH = 0): [number, number] {
  if (!maxW && !maxH) return [width, height];
  let widthRatio = 1;
  let heightRatio = 1;
  let didWidth = false;
  let didHeight = false;
  if (maxW > 0 && width > 0 && width > maxW) {
    widthRatio = maxW / width;
    didWidth = true;
  }
  if (maxH > 0 && height > 0 && height > maxH) {
    heightRatio = maxH / height;
    didHeight = true;
  }
  const smaller = Math.min(widthRatio, heightRatio);
  const larger = Math.max(widthRatio, heightRatio);
  // The larger ratio is the snugger fit, unless it would overflow a side. An unlimited side counts
  // as 0 here, exactly as WordPress compares it, which sends such boxes to the smaller ratio.
  const ratio = phpRound(width * larger) > maxW || phpRound(height * larger) > maxH ? smaller : larger;
  let w = Math.max(1, phpRound(width * ratio));
  let h = Math.max(1, phpRound(height * ratio));
  if (didWidth && w === maxW - 1) w = maxW;
  if (didHeight && h === maxH - 1) h = maxH;
  return [w, h];
}

export interface ResizePlan {
  width: number;
  height: number;
  /** The region of the source that is scaled to width×height. */
  src: { left: number; top: number; width: number; height: number };
}

/**
 * WordPress's image_resize_dimensions(): the size a source of origW×origH becomes for a box
 * destW×destH (0 = no limit on that side), cropping (centre) or fitting. Null when WordPress makes
 * no such size: a zero dimension, a box larger than the image on its limited sides, or a result
 * within a pixel of the original on both sides.
 */
export function resizeDimensions(
  origW: number,
  origH: number,
  destW: number,
  destH: number,
  crop: boolean,
): ResizePlan | null {
  if (!(origW > 0) || !(origH > 0)) return null;
  const boxW = destW > 0 ? destW : 0;
  const boxH = destH > 0 ? destH : 0;
  if (!boxW && !boxH) return null;

  // No upscaling: a box bigger than the image on the sides it limits makes no size.
  if (!boxH) {
    if (origW < boxW) return null;
  } else if (!boxW) {
    if (origH < boxH) return null;
  } else if (origW < boxW && origH < boxH) {
    return null;
  }

  let width: number;
  let height: number;
  let src: ResizePlan['src'];
  if (crop) {
    // Each side is the box capped by the image; an unlimited side follows the aspect ratio. The
    // source region is the largest centred one with the result's proportions.
    const aspect = origW / origH;
    width = Math.min(boxW, origW);
    height = Math.min(boxH, origH);
    if (!width) width = phpRound(height * aspect);
    if (!height) height = phpRound(width / aspect);
    const scale = Math.max(width / origW, height / origH);
    const cropW = Math.min(origW, phpRound(width / scale));
    const cropH = Math.min(origH, phpRound(height / scale));
    src = {
      left: Math.floor((origW - cropW) / 2),
      top: Math.floor((origH - cropH) / 2),
      width: cropW,
      height: cropH,
    };
  } else {
    [width, height] = constrainDimensions(origW, origH, boxW, boxH);
    src = { left: 0, top: 0, width: origW, height: origH };
  }

  // WordPress treats a 1 px difference as rounding and skips such a "copy" of the original.
  if (Math.abs(width - origW) <= 1 && Math.abs(height - origH) <= 1) return null;
  return { width, height, src };
}

/** The suffix WordPress gives a sub-size file: `150x150`. */
export function sizeSuffix(width: number, height: number): string {
  return `${width}x${height}`;
}

/** Size file name as WordPress names them: `photo.jpg` + `150x150` → `photo-150x150.jpg`. */
export function sizedName(fileName: string, suffix: string): string {
  const slash = fileName.lastIndexOf('/');
  const dot = fileName.lastIndexOf('.');
  // A leading dot starts a name, not an extension.
  if (dot > slash + 1) return `${fileName.slice(0, dot)}-${suffix}${fileName.slice(dot)}`;
  return `${fileName}-${suffix}`;
}

// ---------------------------------------------------------------------------------------------
// Formats

function mimeOf(meta: Metadata): string {
  switch (meta.format) {
    case 'jpeg':
      return 'image/jpeg';
    case 'png':
      return 'image/png';
    case 'gif':
      return 'image/gif';
    case 'webp':
      return 'image/webp';
    case 'heif':
      return meta.compression === 'av1' ? 'image/avif' : 'image/heic';
    case 'tiff':
      return 'image/tiff';
    case 'svg':
      return 'image/svg+xml';
    case 'jp2':
      return 'image/jp2';
    case 'jxl':
      return 'image/jxl';
    default:
      return `image/${meta.format ?? 'unknown'}`;
  }
}

function open(input: Buffer | string): Sharp {
  return sharp(input);
}

/** Encodes in the given type with WordPress's quality; sharp writes no metadata unless asked. */
function encode(pipeline: Sharp, mime: string, palette: boolean): Sharp {
  switch (mime) {
    case 'image/jpeg':
      return pipeline.jpeg({ quality: JPEG_QUALITY });
    case 'image/png':
      // An indexed PNG stays indexed, as WordPress's editors keep it, rather than growing to truecolour.
      return pipeline.png(palette ? { palette: true } : {});
    case 'image/gif':
      return pipeline.gif();
    case 'image/webp':
      return pipeline.webp({ quality: WEBP_QUALITY });
    case 'image/avif':
      return pipeline.avif({ quality: AVIF_QUALITY });
    default:
      throw new Error(`Cannot write ${mime} images`);
  }
}

function uprightSize(meta: Metadata): { width: number; height: number } {
  if (meta.autoOrient) return { width: meta.autoOrient.width, height: meta.autoOrient.height };
  const width = meta.width ?? 0;
  const height = meta.height ?? 0;
  return (meta.orientation ?? 1) >= 5 ? { width: height, height: width } : { width, height };
}

function orientationOf(meta: Metadata): number {
  const o = meta.orientation;
  return typeof o === 'number' && Number.isInteger(o) && o >= 1 && o <= 8 ? o : 1;
}

// ---------------------------------------------------------------------------------------------
// image_meta

function emptyImageMeta(): ImageMeta {
  return {
    aperture: '0',
    credit: '',
    camera: '',
    caption: '',
    created_timestamp: '0',
    copyright: '',
    focal_length: '0',
    iso: '0',
    shutter_speed: '0',
    title: '',
    orientation: '0',
    keywords: [],
  };
}

/** PHP's trim(): spaces, tabs, line breaks, NUL and vertical tab. */
function phpTrim(s: string): string {
  return s.replace(/^[ \t\n\r\0\x0B]+|[ \t\n\r\0\x0B]+$/g, '');
}

/** Text of unknown encoding: UTF-8 when it is valid UTF-8, else Latin-1 (WordPress's utf8_encode fallback). */
function decodeText(bytes: Uint8Array): string {
  try {
    return new TextDecoder('utf-8', { fatal: true }).decode(bytes);
  } catch {
    return Buffer.from(bytes).toString('latin1');
  }
}

/** How PHP prints a float: 14 significant digits, no trailing zeros. */
function phpNumber(n: number): string {
  if (!Number.isFinite(n)) return '0';
  return String(Number(n.toPrecision(14)));
}

function exifText(value: unknown): string {
  if (typeof value === 'string') return phpTrim(value);
  if (Buffer.isBuffer(value)) return phpTrim(decodeText(value));
  if (typeof value === 'number') return String(value);
  return '';
}

/** EXIF UserComment: an 8-byte character-code header, then the text. */
function userComment(value: unknown, bigEndian: boolean): string {
  if (!Buffer.isBuffer(value) || value.length < 8) return exifText(value);
  const header = value.subarray(0, 8).toString('latin1').replace(/\0+$/, '');
  const body = value.subarray(8);
  if (header === 'UNICODE') {
    const swapped = Buffer.from(body.subarray(0, body.length & ~1));
    if (bigEndian) swapped.swap16();
    return phpTrim(swapped.toString('utf16le'));
  }
  return phpTrim(decodeText(body));
}

function firstNumber(value: unknown): number | undefined {
  const v = Array.isArray(value) ? value[0] : value;
  return typeof v === 'number' && Number.isFinite(v) ? v : undefined;
}

/** Bytes of a string in UTF-8, which is what WordPress's strlen() measures. */
function byteLength(s: string): number {
  return Buffer.byteLength(s, 'utf8');
}

/** IPTC-IIM datasets ("2#025" → values), from a Photoshop APP13 block or bare IIM. */
export function parseIptc(block: Buffer): Map<string, string[]> {
  const out = new Map<string, string[]>();
  let iim = findIimResource(block);
  if (!iim) {
    // No Photoshop resource wrapper: start at the first dataset marker, as PHP's iptcparse() does.
    const start = block.findIndex((b, i) => b === 0x1c && (block[i + 1] === 1 || block[i + 1] === 2));
    if (start < 0) return out;
    iim = block.subarray(start);
  }
  const raw: Array<[string, Buffer]> = [];
  let utf8 = false;
  let pos = 0;
  while (pos + 5 <= iim.length && iim[pos] === 0x1c) {
    const record = iim[pos + 1];
    const dataset = iim[pos + 2];
    let length = iim.readUInt16BE(pos + 3);
    pos += 5;
    if (length & 0x8000) {
      // Extended dataset: the low bits say how many bytes hold the real length.
      const lengthBytes = length & 0x7fff;
      if (lengthBytes > 4 || pos + lengthBytes > iim.length) break;
      length = 0;
      for (let i = 0; i < lengthBytes; i++) length = length * 256 + iim[pos + i];
      pos += lengthBytes;
    }
    if (pos + length > iim.length) break;
    const data = iim.subarray(pos, pos + length);
    pos += length;
    // 1#090 is the coded character set; ESC % G declares UTF-8.
    if (record === 1 && dataset === 90 && data.includes(Buffer.from([0x1b, 0x25, 0x47]))) utf8 = true;
    raw.push([`${record}#${String(dataset).padStart(3, '0')}`, data]);
  }
  for (const [key, data] of raw) {
    const text = utf8 ? data.toString('utf8') : decodeText(data);
    const list = out.get(key);
    if (list) list.push(text);
    else out.set(key, [text]);
  }
  return out;
}

function findIimResource(block: Buffer): Buffer | null {
  let pos = block.indexOf('8BIM', 0, 'latin1');
  while (pos >= 0 && pos + 12 <= block.length) {
    const id = block.readUInt16BE(pos + 4);
    // The resource name is a Pascal string padded to an even length.
    const nameLength = block[pos + 6];
    let p = pos + 6 + nameLength + 1;
    if ((nameLength + 1) % 2) p++;
    if (p + 4 > block.length) return null;
    const size = block.readUInt32BE(p);
    p += 4;
    if (id === 0x0404) return block.subarray(p, Math.min(block.length, p + size));
    pos = p + size + (size % 2);
    if (block.toString('latin1', pos, pos + 4) !== '8BIM') return null;
  }
  return null;
}

/** IPTC date (CCYYMMDD) and time (HHMMSS, optional ±HHMM) as unix seconds; UTC when no offset is given. */
function iptcTimestamp(date: string, time: string): number | null {
  const d = /^(\d{4})(\d{2})(\d{2})$/.exec(date.trim());
  const t = /^(\d{2})(\d{2})(\d{2})(?:([+-])(\d{2})(\d{2}))?$/.exec(time.trim());
  if (!d || !t) return null;
  let ms = Date.UTC(+d[1], +d[2] - 1, +d[3], +t[1], +t[2], +t[3]);
  if (t[4]) ms -= (t[4] === '-' ? -1 : 1) * (+t[5] * 60 + +t[6]) * 60_000;
  return Number.isFinite(ms) ? Math.floor(ms / 1000) : null;
}

/**
 * WordPress's wp_read_image_metadata(): IPTC first (title, caption, credit, date, copyright,
 * keywords), then EXIF fills what is still empty and adds the camera settings. Numbers become strings
 * as WordPress stores them ('0' when absent).
 */
function readImageMeta(meta: Metadata): ImageMeta {
  const out = emptyImageMeta();

  if (meta.iptc && meta.iptc.length) {
    const iptc = parseIptc(meta.iptc);
    const first = (key: string): string => phpTrim(iptc.get(key)?.[0] ?? '');
    // Headline, else the object name.
    out.title = first('2#105') || first('2#005');
    const caption = first('2#120');
    if (caption) {
      if (!out.title && byteLength(caption) < 80) out.title = caption;
      out.caption = caption;
    }
    out.credit = first('2#110') || first('2#080');
    const date = iptc.get('2#055')?.[0];
    const time = iptc.get('2#060')?.[0];
    if (date && time) {
      const ts = iptcTimestamp(date, time);
      if (ts !== null) out.created_timestamp = String(ts);
    }
    out.copyright = first('2#116');
    const keywords = iptc.get('2#025');
    if (keywords?.length) out.keywords = [...keywords];
  }

  if (meta.exif && meta.exif.length) {
    let exif: ReturnType<typeof exifReader> | null = null;
    try {
      exif = exifReader(meta.exif);
    } catch {
      // Unreadable EXIF leaves the IPTC values and defaults.
    }
    if (exif) {
      const image = exif.Image ?? {};
      const photo = exif.Photo ?? {};
      const description = exifText(image.ImageDescription);
      if (description) {
        if (!out.title && byteLength(description) < 80) out.title = description;
        if (!out.caption) out.caption = userComment(photo.UserComment, exif.bigEndian);
        if (!out.caption) out.caption = description;
      }
      if (!out.credit) out.credit = exifText(image.Artist);
      if (!out.credit && Buffer.isBuffer(image.XPAuthor)) {
        // Windows' author field is UTF-16LE whatever the file's byte order.
        out.credit = phpTrim(image.XPAuthor.toString('utf16le'));
      }
      if (!out.copyright) out.copyright = exifText(image.Copyright);
      const fNumber = firstNumber(photo.FNumber);
      if (fNumber) out.aperture = phpNumber(Math.round(fNumber * 100) / 100);
      const model = exifText(image.Model);
      if (model) out.camera = model;
      // WordPress reads the digitised time; the original time stands in when only it is present.
      if (out.created_timestamp === '0') {
        const when = photo.DateTimeDigitized instanceof Date ? photo.DateTimeDigitized : photo.DateTimeOriginal;
        if (when instanceof Date && Number.isFinite(when.getTime())) {
          out.created_timestamp = String(Math.floor(when.getTime() / 1000));
        }
      }
      const focal = firstNumber(photo.FocalLength);
      if (focal) out.focal_length = phpNumber(focal);
      const iso = firstNumber(photo.ISOSpeedRatings);
      if (iso) out.iso = String(iso);
      const exposure = firstNumber(photo.ExposureTime);
      if (exposure) out.shutter_speed = phpNumber(exposure);
      const orientation = firstNumber(image.Orientation);
      if (orientation) out.orientation = String(orientation);
    }
  }
  return out;
}

// ---------------------------------------------------------------------------------------------
// Reading, normalising and sizing

/**
 * Dimensions as displayed (EXIF orientation 5–8 swap width and height), orientation, MIME type and
 * WordPress's image_meta. Rejects when the input is not an image sharp can read.
 */
export async function probeImage(input: Buffer | string): Promise<ImageInfo> {
  const meta = await open(input).metadata();
  const { width, height } = uprightSize(meta);
  return { width, height, orientation: orientationOf(meta), mime: mimeOf(meta), imageMeta: readImageMeta(meta) };
}

/**
 * The original made ready, as wp_create_image_subsizes() does: EXIF orientation applied, and an
 * image whose longer side exceeds BIG_IMAGE_THRESHOLD scaled to fit 2560×2560 ("-scaled"). PNGs are
 * never scaled (WordPress skips them: the scaled copy is often larger). Null when nothing applies or
 * the type cannot be written, so the upload is used as is. Same format, metadata stripped.
 */
export async function normalizeOriginal(
  input: Buffer | string,
  info: ImageInfo,
): Promise<{ buffer: Buffer; width: number; height: number; rotated: boolean; scaled: boolean } | null> {
  if (!EDITABLE_TYPES.has(info.mime)) return null;
  const rotated = info.orientation > 1;
  const big = info.mime !== 'image/png' && (info.width > BIG_IMAGE_THRESHOLD || info.height > BIG_IMAGE_THRESHOLD);
  const plan = big ? resizeDimensions(info.width, info.height, BIG_IMAGE_THRESHOLD, BIG_IMAGE_THRESHOLD, false) : null;
  if (!rotated && !plan) return null;

  const meta = await open(input).metadata();
  let pipeline = open(input).autoOrient();
  if (plan) pipeline = pipeline.resize(plan.width, plan.height, { fit: 'fill' });
  const { data, info: out } = await encode(pipeline, info.mime, meta.isPalette).toBuffer({ resolveWithObject: true });
  return { buffer: data, width: out.width, height: out.height, rotated, scaled: plan !== null };
}

/**
 * One sub-size of an image (normally the normalised original; any EXIF orientation is applied
 * first), or null when resizeDimensions() says WordPress makes none. Same format, metadata stripped;
 * an animated GIF or WebP gives its first frame.
 */
export async function makeSize(
  input: Buffer | string,
  spec: SizeSpec,
): Promise<{ buffer: Buffer; width: number; height: number } | null> {
  const meta = await open(input).metadata();
  const mime = mimeOf(meta);
  if (!EDITABLE_TYPES.has(mime)) throw new Error(`Cannot make sizes of ${mime} images`);
  const { width, height } = uprightSize(meta);
  const plan = resizeDimensions(width, height, spec.width, spec.height, spec.crop);
  if (!plan) return null;

  let pipeline = open(input).autoOrient();
  const { src } = plan;
  if (src.left !== 0 || src.top !== 0 || src.width !== width || src.height !== height) {
    pipeline = pipeline.extract(src);
  }
  pipeline = pipeline.resize(plan.width, plan.height, { fit: 'fill' });
  const { data, info } = await encode(pipeline, mime, meta.isPalette).toBuffer({ resolveWithObject: true });
  return { buffer: data, width: info.width, height: info.height };
}

// ---------------------------------------------------------------------------------------------
// Editing

export type Modifier =
  | { type: 'rotate'; args: { angle: number } }
  | { type: 'flip'; args: { flip: { horizontal: boolean; vertical: boolean } } }
  | { type: 'crop'; args: { left: number; top: number; width: number; height: number } };

interface RawImage {
  data: Buffer;
  width: number;
  height: number;
  channels: Channels;
}

/** One operation on decoded pixels. Each modifier is its own pass so they apply strictly in order. */
async function pass(image: RawImage, op: (s: Sharp) => Sharp): Promise<RawImage> {
  const input = sharp(image.data, { raw: { width: image.width, height: image.height, channels: image.channels } });
  const { data, info } = await op(input).raw({ depth: 'uchar' }).toBuffer({ resolveWithObject: true });
  return { data, width: info.width, height: info.height, channels: info.channels };
}

function rotationFailed(cause?: unknown): ImageEditError {
  return new ImageEditError('rest_image_rotation_failed', 'Unable to rotate this image.', 500, { cause });
}

function cropFailed(status: number, cause?: unknown): ImageEditError {
  return new ImageEditError('rest_image_crop_failed', 'Unable to crop this image.', status, { cause });
}

async function rotate(image: RawImage, angle: unknown, alpha: boolean): Promise<RawImage> {
  if (typeof angle !== 'number' || !Number.isFinite(angle)) throw rotationFailed();
  const degrees = ((angle % 360) + 360) % 360;
  if (degrees === 0) return image;
  try {
    if (degrees % 90 === 0) return await pass(image, (s) => s.rotate(degrees));
    // Other angles grow the canvas; the new corners are transparent where the format can say so,
    // white in a JPEG.
    let source = image;
    if (alpha && (image.channels === 1 || image.channels === 3)) source = await pass(image, (s) => s.ensureAlpha());
    const background = alpha ? { r: 255, g: 255, b: 255, alpha: 0 } : { r: 255, g: 255, b: 255, alpha: 1 };
    return await pass(source, (s) => s.rotate(degrees, { background }));
  } catch (error) {
    throw rotationFailed(error);
  }
}

async function flip(image: RawImage, args: { horizontal?: unknown; vertical?: unknown } | undefined): Promise<RawImage> {
  const horizontal = Boolean(args?.horizontal);
  const vertical = Boolean(args?.vertical);
  if (!horizontal && !vertical) return image;
  try {
    // sharp's flop() mirrors left↔right, flip() top↔bottom.
    return await pass(image, (s) => {
      let out = s;
      if (horizontal) out = out.flop();
      if (vertical) out = out.flip();
      return out;
    });
  } catch (error) {
    throw new ImageEditError('rest_image_flip_failed', 'Unable to flip this image.', 500, { cause: error });
  }
}

async function crop(
  image: RawImage,
  args: { left?: unknown; top?: unknown; width?: unknown; height?: unknown } | undefined,
): Promise<RawImage> {
  const values = [args?.left, args?.top, args?.width, args?.height];
  if (!values.every((v): v is number => typeof v === 'number' && Number.isFinite(v))) throw cropFailed(400);
  const [left, top, width, height] = values as number[];
  const W = image.width;
  const H = image.height;
  // Percentages of the current size, each rounded as WordPress rounds them.
  const x = phpRound((W * left) / 100);
  const y = phpRound((H * top) / 100);
  const w = phpRound((W * width) / 100);
  const h = phpRound((H * height) / 100);
  // Whatever of the requested rectangle lies inside the image.
  const x0 = Math.min(Math.max(x, 0), W);
  const y0 = Math.min(Math.max(y, 0), H);
  const x1 = Math.min(Math.max(x + w, 0), W);
  const y1 = Math.min(Math.max(y + h, 0), H);
  if (x1 - x0 < 1 || y1 - y0 < 1) throw cropFailed(400);
  if (x0 === 0 && y0 === 0 && x1 === W && y1 === H) return image;
  try {
    return await pass(image, (s) => s.extract({ left: x0, top: y0, width: x1 - x0, height: y1 - y0 }));
  } catch (error) {
    throw cropFailed(500, error);
  }
}

/**
 * Applies modifiers in order, as WordPress's edit_media_item does, to the image as displayed (EXIF
 * orientation applied first). Returns the result encoded in the input's format. Throws
 * ImageEditError: rest_image_rotation_failed, rest_image_flip_failed, rest_image_crop_failed (400
 * for an empty or malformed crop), rest_unknown_image_file_type when the input cannot be edited,
 * rest_invalid_param for an unknown modifier type.
 */
export async function applyModifiers(
  input: Buffer | string,
  modifiers: Modifier[],
): Promise<{ buffer: Buffer; width: number; height: number }> {
  let meta: Metadata;
  let image: RawImage;
  try {
    meta = await open(input).metadata();
  } catch (error) {
    throw new ImageEditError('rest_unknown_image_file_type', 'Unable to edit this image.', 500, { cause: error });
  }
  const mime = mimeOf(meta);
  if (!EDITABLE_TYPES.has(mime)) {
    throw new ImageEditError('rest_unknown_image_file_type', 'Unable to edit this image.', 500);
  }
  try {
    const { data, info } = await open(input).autoOrient().raw({ depth: 'uchar' }).toBuffer({ resolveWithObject: true });
    image = { data, width: info.width, height: info.height, channels: info.channels };
  } catch (error) {
    throw new ImageEditError('rest_unknown_image_file_type', 'Unable to edit this image.', 500, { cause: error });
  }

  const alpha = mime !== 'image/jpeg';
  for (const modifier of modifiers) {
    // Read loosely: the modifiers come from a request body and may not match their type.
    const args = (modifier as { args?: Record<string, unknown> }).args;
    switch (modifier.type) {
      case 'rotate':
        image = await rotate(image, args?.angle, alpha);
        break;
      case 'flip':
        image = await flip(image, args?.flip as { horizontal?: unknown; vertical?: unknown } | undefined);
        break;
      case 'crop':
        image = await crop(image, args);
        break;
      default:
        throw new ImageEditError(
          'rest_invalid_param',
          `Unknown image modifier: ${String((modifier as { type?: unknown }).type)}`,
          400,
        );
    }
  }

  const raw = sharp(image.data, { raw: { width: image.width, height: image.height, channels: image.channels } });
  const { data, info } = await encode(raw, mime, meta.isPalette).toBuffer({ resolveWithObject: true });
  return { buffer: data, width: info.width, height: info.height };
}
