// Where uploaded files live: a local directory (the default, laid out as WordPress's
// wp-content/uploads) or an S3-compatible bucket. Both sit behind one small interface so the
// media routes never care which one is configured.
import { randomBytes } from 'node:crypto';
import { createReadStream } from 'node:fs';
import { copyFile, mkdir, open, rename, stat, unlink } from 'node:fs/promises';
import { dirname, extname, resolve, sep } from 'node:path';
import { Readable } from 'node:stream';
import type { S3Client } from '@aws-sdk/client-s3';
import { removeAccents } from '../content/slug.js';
import type { S3Settings } from '../config.js';

export interface StoredInfo {
  size: number;
  etag: string;
  lastModified: Date;
  contentType: string;
}

export interface Storage {
  readonly kind: 'local' | 's3';
  /** Stores bytes under a key like "2026/11/photo.jpg" (from a Buffer, or a local file path to stream from). Overwrites. */
  put(key: string, body: Buffer | { path: string }, contentType: string): Promise<void>;
  /** Metadata, or null when there is no such object. */
  head(key: string): Promise<StoredInfo | null>;
  /** A byte stream of the object (the inclusive range when given), or null when missing. */
  read(key: string, range?: { start: number; end: number }): Promise<(StoredInfo & { stream: NodeJS.ReadableStream }) | null>;
  /** Removes objects; missing ones are not an error. */
  delete(keys: string[]): Promise<void>;
  /** The public URL of a key: local → `${siteUrl}/wp-content/uploads/${key}`; s3 → `${publicUrl}/${key}`. */
  url(key: string): string;
  /** Whether a key is taken (for unique names). */
  exists(key: string): Promise<boolean>;
}

/**
 * Under the local root: in-flight temporary files (named `<pid>-<random>`), and the write notes of
 * earlier versions (`.pending/<pid>-…`; pending writes are in the database now, src/media/intents.ts:
 * the start-up recovery still reads notes left by an older version once).
 */
export const TEMP_FOLDER = '.tmp';
export const PENDING_FOLDER = '.pending';

export interface StorageConfig {
  /** Public base of the site, no trailing slash. */
  siteUrl: string;
  /** Local root directory. */
  uploadsDir: string;
  s3?: S3Settings;
}

export function createStorage(config: StorageConfig): Storage {
  return config.s3 ? new S3Storage(config.s3) : new LocalStorage(config.uploadsDir, config.siteUrl);
}

const trimSlashes = (s: string) => s.replace(/\/+$/, '');

// ---------------------------------------------------------------------------
// Keys
// ---------------------------------------------------------------------------

export class InvalidKeyError extends Error {
  constructor(key: string) {
    super(`invalid storage key: ${JSON.stringify(key)}`);
    this.name = 'InvalidKeyError';
  }
}

/**
 * Whether a key is a plain relative path of file names: no absolute paths, no empty, '.' or
 * '..' segments, no backslashes or control characters. Segments may not start with '.' either:
 * sanitized names never do, and it keeps dotfiles (.htaccess) and in-flight temp files
 * unaddressable.
 */
export function isValidKey(key: string): boolean {
  if (typeof key !== 'string' || key.length === 0 || key.length > 1024) return false;
  if (/[\x00-\x1f\x7f\\]/.test(key)) return false;
  return key.split('/').every((segment) => segment !== '' && !segment.startsWith('.'));
}

function checkKey(key: string): string {
  if (!isValidKey(key)) throw new InvalidKeyError(key);
  return key;
}

/** Percent-encodes each segment, so a key with non-ASCII letters still makes a valid URL. */
function encodeKey(key: string): string {
  return key.split('/').map(encodeURIComponent).join('/');
}

// ---------------------------------------------------------------------------
// Content types by extension (WordPress's wp_get_mime_types())
// ---------------------------------------------------------------------------

const MIME_TYPES: Record<string, string> = {
  'jpg|jpeg|jpe': 'image/jpeg',
  gif: 'image/gif',
  png: 'image/png',
  bmp: 'image/bmp',
  'tiff|tif': 'image/tiff',
  webp: 'image/webp',
  avif: 'image/avif',
  ico: 'image/x-icon',
  heic: 'image/heic',
  heif: 'image/heif',
  heics: 'image/heic-sequence',
  heifs: 'image/heif-sequence',
  'asf|asx': 'video/x-ms-asf',
  wmv: 'video/x-ms-wmv',
  wmx: 'video/x-ms-wmx',
  wm: 'video/x-ms-wm',
  avi: 'video/avi',
  divx: 'video/divx',
  flv: 'video/x-flv',
  'mov|qt': 'video/quicktime',
  'mpeg|mpg|mpe': 'video/mpeg',
  'mp4|m4v': 'video/mp4',
  ogv: 'video/ogg',
  webm: 'video/webm',
  mkv: 'video/x-matroska',
  '3gp|3gpp': 'video/3gpp',
  '3g2|3gp2': 'video/3gpp2',
  'txt|asc|c|cc|h|srt': 'text/plain',
  csv: 'text/csv',
  tsv: 'text/tab-separated-values',
  ics: 'text/calendar',
  rtx: 'text/richtext',
  css: 'text/css',
  'htm|html': 'text/html',
  vtt: 'text/vtt',
  dfxp: 'application/ttaf+xml',
  'mp3|m4a|m4b': 'audio/mpeg',
  aac: 'audio/aac',
  'ra|ram': 'audio/x-realaudio',
  wav: 'audio/wav',
  'ogg|oga': 'audio/ogg',
  flac: 'audio/flac',
  'mid|midi': 'audio/midi',
  wma: 'audio/x-ms-wma',
  wax: 'audio/x-ms-wax',
  mka: 'audio/x-matroska',
  rtf: 'application/rtf',
  js: 'application/javascript',
  pdf: 'application/pdf',
  swf: 'application/x-shockwave-flash',
  class: 'application/java',
  tar: 'application/x-tar',
  zip: 'application/zip',
  'gz|gzip': 'application/x-gzip',
  rar: 'application/rar',
  '7z': 'application/x-7z-compressed',
  exe: 'application/x-msdownload',
  psd: 'application/octet-stream',
  xcf: 'application/octet-stream',
  doc: 'application/msword',
  'pot|pps|ppt': 'application/vnd.ms-powerpoint',
  wri: 'application/vnd.ms-write',
  'xla|xls|xlt|xlw': 'application/vnd.ms-excel',
  mdb: 'application/vnd.ms-access',
  mpp: 'application/vnd.ms-project',
  docx: 'application/vnd.openxmlformats-officedocument.wordprocessingml.document',
  docm: 'application/vnd.ms-word.document.macroEnabled.12',
  dotx: 'application/vnd.openxmlformats-officedocument.wordprocessingml.template',
  dotm: 'application/vnd.ms-word.template.macroEnabled.12',
  xlsx: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
  xlsm: 'application/vnd.ms-excel.sheet.macroEnabled.12',
  xlsb: 'application/vnd.ms-excel.sheet.binary.macroEnabled.12',
  xltx: 'application/vnd.openxmlformats-officedocument.spreadsheetml.template',
  xltm: 'application/vnd.ms-excel.template.macroEnabled.12',
  xlam: 'application/vnd.ms-excel.addin.macroEnabled.12',
  pptx: 'application/vnd.openxmlformats-officedocument.presentationml.presentation',
  pptm: 'application/vnd.ms-powerpoint.presentation.macroEnabled.12',
  ppsx: 'application/vnd.openxmlformats-officedocument.presentationml.slideshow',
  ppsm: 'application/vnd.ms-powerpoint.slideshow.macroEnabled.12',
  potx: 'application/vnd.openxmlformats-officedocument.presentationml.template',
  potm: 'application/vnd.ms-powerpoint.template.macroEnabled.12',
  ppam: 'application/vnd.ms-powerpoint.addin.macroEnabled.12',
  sldx: 'application/vnd.openxmlformats-officedocument.presentationml.slide',
  sldm: 'application/vnd.ms-powerpoint.slide.macroEnabled.12',
  'onetoc|onetoc2|onetmp|onepkg': 'application/onenote',
  oxps: 'application/oxps',
  xps: 'application/vnd.ms-xpsdocument',
  odt: 'application/vnd.oasis.opendocument.text',
  odp: 'application/vnd.oasis.opendocument.presentation',
  ods: 'application/vnd.oasis.opendocument.spreadsheet',
  odg: 'application/vnd.oasis.opendocument.graphics',
  odc: 'application/vnd.oasis.opendocument.chart',
  odb: 'application/vnd.oasis.opendocument.database',
  odf: 'application/vnd.oasis.opendocument.formula',
  'wp|wpd': 'application/wordperfect',
  key: 'application/vnd.apple.keynote',
  numbers: 'application/vnd.apple.numbers',
  pages: 'application/vnd.apple.pages',
};

const TYPE_BY_EXTENSION = new Map<string, string>(
  Object.entries(MIME_TYPES).flatMap(([exts, type]) => exts.split('|').map((ext) => [ext, type] as [string, string])),
);

/**
 * Extensions an intermediate name part may carry without an underscore appended: WordPress's
 * allowed types for an author without unfiltered_html (no html, js, swf or exe), so that
 * "shell.php.jpg" cannot be run by a server that honours every extension.
 */
const ALLOWED_INNER_EXTENSIONS = new Set(
  [...TYPE_BY_EXTENSION.keys()].filter((ext) => !['htm', 'html', 'js', 'swf', 'exe'].includes(ext)),
);

/**
 * A stored content type, unless it is missing or the generic default a store fills in when
 * none was given; then the extension's.
 */
export function typeOrGuess(stored: string | undefined, fileName: string): string {
  const type = stored?.trim();
  return type && type !== 'application/octet-stream' && type !== 'binary/octet-stream' ? type : contentTypeFor(fileName);
}

/** The content type for a file name's extension; application/octet-stream when unknown. */
export function contentTypeFor(fileName: string): string {
  const ext = extname(fileName).slice(1).toLowerCase();
  return TYPE_BY_EXTENSION.get(ext) ?? 'application/octet-stream';
}

// ---------------------------------------------------------------------------
// File names
// ---------------------------------------------------------------------------

const SPECIAL_CHARS = /[?[\]/\\=<>:;,'"&$#*()|~`!{}%+’«»”“]/g;
// Directional overrides make "photo\u202Egpj.exe" display as "photoexe.jpg".
const BIDI_CONTROLS = /[\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]/g;
/** Leaves room under common 255-byte file-name limits for "-12" and sub-size suffixes. */
const MAX_NAME_BYTES = 200;

/** WordPress's sanitize_file_name(), plus dropping any directory part and a length cap. */
export function sanitizeFileName(name: string): string {
  // The last path segment only, whichever separator the client's OS used.
  let s = String(name).split(/[/\\]/).pop() ?? '';
  // WordPress's accent table first; then any Latin letter it missed loses its marks too.
  s = removeAccents(s).normalize('NFD').replace(/([A-Za-z])\p{M}+/gu, '$1').normalize('NFC');
  s = s.replace(/\s/g, ' ').replace(/[\x00-\x1f\x7f]/g, '').replace(BIDI_CONTROLS, '');
  s = s.replace(SPECIAL_CHARS, '');
  s = s.replace(/\.{2,}/g, '.');
  s = s.replace(/[ -]+/g, '-');
  s = s.replace(/^[.\-_]+|[.\-_]+$/g, '');
  if (s === '') return 'unnamed-file';
  // A bare extension ("jpg", from ".jpg") would otherwise be a name with no extension.
  if (!s.includes('.') && TYPE_BY_EXTENSION.has(s.toLowerCase())) return `unnamed-file.${s}`;

  const parts = s.split('.');
  if (parts.length > 2) {
    const extension = parts.pop() as string;
    let out = parts.shift() as string;
    for (const part of parts) {
      out += '.' + part;
      if (/^[a-zA-Z]{2,5}\d?$/.test(part) && !ALLOWED_INNER_EXTENSIONS.has(part.toLowerCase())) out += '_';
    }
    s = `${out}.${extension}`;
  }
  return capLength(s);
}

function capLength(name: string): string {
  const bytes = (t: string) => Buffer.byteLength(t, 'utf8');
  if (bytes(name) <= MAX_NAME_BYTES) return name;
  const ext = extname(name);
  // A long run after the last dot is not an extension worth keeping whole.
  const keep = bytes(ext) <= 16 ? ext : '';
  const chars = Array.from(keep ? name.slice(0, -keep.length) : name);
  while (chars.length > 0 && bytes(chars.join('')) + bytes(keep) > MAX_NAME_BYTES) chars.pop();
  const base = chars.join('').replace(/[.\-_]+$/, '');
  return (base || 'unnamed-file') + keep;
}

/** WordPress's wp_unique_filename() numbering within a folder: name.jpg, name-1.jpg, name-2.jpg … */
export async function uniqueKey(
  storage: Storage,
  folder: string,
  fileName: string,
  reserved?: (key: string) => boolean,
): Promise<string> {
  const prefix = folder.replace(/^\/+|\/+$/g, '');
  const keyOf = (name: string) => (prefix ? `${prefix}/${name}` : name);
  const ext = extname(fileName);
  const base = ext ? fileName.slice(0, -ext.length) : fileName;
  const taken = async (key: string) => (reserved?.(key) ?? false) || (await storage.exists(key));

  let key = keyOf(fileName);
  for (let n = 1; await taken(key); n++) {
    // A runaway loop here would mean something answers "taken" for everything.
    if (n > 100_000) throw new Error(`no free name for ${fileName} in ${folder}`);
    key = keyOf(`${base}-${n}${ext}`);
  }
  return key;
}

/** "YYYY/MM" of a date (UTC), WordPress's uploads sub-folder. */
export function monthFolder(date: Date): string {
  return `${date.getUTCFullYear()}/${String(date.getUTCMonth() + 1).padStart(2, '0')}`;
}

// ---------------------------------------------------------------------------
// Local directory
// ---------------------------------------------------------------------------

function checkRange(range: { start: number; end: number }): void {
  if (!Number.isSafeInteger(range.start) || !Number.isSafeInteger(range.end) || range.start < 0) {
    throw new RangeError(`invalid byte range ${range.start}-${range.end}`);
  }
}

class LocalStorage implements Storage {
  readonly kind = 'local' as const;
  private readonly root: string;

  constructor(
    uploadsDir: string,
    private readonly siteUrl: string,
  ) {
    this.root = resolve(uploadsDir);
  }

  /** The file path of a key, always inside the root; throws for a bad key. */
  private pathOf(key: string): string {
    checkKey(key);
    const path = resolve(this.root, key);
    if (!path.startsWith(this.root + sep)) throw new InvalidKeyError(key);
    return path;
  }

  async put(key: string, body: Buffer | { path: string }, _contentType: string): Promise<void> {
    const path = this.pathOf(key);
    await mkdir(dirname(path), { recursive: true });
    // Written in full in the root's .tmp folder (same file system), flushed, then renamed over
    // the target: readers see the old file or the new one, never a partial one, even after a
    // crash. The name carries the process id, so the next start can sweep a killed process's.
    const temp = resolve(this.root, TEMP_FOLDER);
    await mkdir(temp, { recursive: true });
    const tmp = resolve(temp, `${process.pid}-${randomBytes(8).toString('hex')}`);
    try {
      if (Buffer.isBuffer(body)) {
        const handle = await open(tmp, 'wx', 0o644);
        try {
          await handle.writeFile(body);
          await handle.sync();
        } finally {
          await handle.close();
        }
      } else {
        await copyFile(body.path, tmp);
        const handle = await open(tmp, 'r+');
        try {
          await handle.sync();
        } finally {
          await handle.close();
        }
      }
      await rename(tmp, path);
    } catch (err) {
      await unlink(tmp).catch(() => {});
      throw err;
    }
  }

  private info(key: string, st: { size: number; mtime: Date; mtimeMs: number }): StoredInfo {
    return {
      size: st.size,
      // Like nginx's: strong, from mtime and size; every overwrite renames a new file in, so
      // the mtime moves whenever the bytes do.
      etag: `"${Math.floor(st.mtimeMs).toString(16)}-${st.size.toString(16)}"`,
      lastModified: st.mtime,
      // A directory has nowhere to keep the type given to put(); the extension decides, as it
      // does for a web server in front of wp-content/uploads.
      contentType: contentTypeFor(key),
    };
  }

  async head(key: string): Promise<StoredInfo | null> {
    const path = this.pathOf(key);
    try {
      const st = await stat(path);
      return st.isFile() ? this.info(key, st) : null;
    } catch (err) {
      if (isMissing(err)) return null;
      throw err;
    }
  }

  async read(key: string, range?: { start: number; end: number }): Promise<(StoredInfo & { stream: NodeJS.ReadableStream }) | null> {
    const path = this.pathOf(key);
    if (range) checkRange(range);
    let handle;
    try {
      handle = await open(path, 'r');
    } catch (err) {
      if (isMissing(err) || (err as NodeJS.ErrnoException).code === 'EISDIR') return null;
      throw err;
    }
    try {
      // Size and bytes both from the open file, so a concurrent overwrite cannot mix them.
      const st = await handle.stat();
      if (!st.isFile()) {
        await handle.close();
        return null;
      }
      const info = this.info(key, st);
      const start = range?.start ?? 0;
      const end = Math.min(range?.end ?? st.size - 1, st.size - 1);
      if (start > end) {
        await handle.close();
        return { ...info, stream: Readable.from([]) };
      }
      return { ...info, stream: handle.createReadStream({ start, end, autoClose: true }) };
    } catch (err) {
      await handle.close().catch(() => {});
      throw err;
    }
  }

  async delete(keys: string[]): Promise<void> {
    const paths = keys.map((key) => this.pathOf(key));
    await Promise.all(
      paths.map((path) =>
        unlink(path).catch((err) => {
          if (!isMissing(err)) throw err;
        }),
      ),
    );
  }

  url(key: string): string {
    return `${this.siteUrl}/wp-content/uploads/${encodeKey(checkKey(key))}`;
  }

  async exists(key: string): Promise<boolean> {
    try {
      // Anything there (a directory too) blocks the name.
      await stat(this.pathOf(key));
      return true;
    } catch (err) {
      if (isMissing(err)) return false;
      throw err;
    }
  }
}

function isMissing(err: unknown): boolean {
  const code = (err as NodeJS.ErrnoException)?.code;
  return code === 'ENOENT' || code === 'ENOTDIR';
}

// ---------------------------------------------------------------------------
// S3-compatible object storage
// ---------------------------------------------------------------------------

/** DeleteObjects takes at most this many keys per request. */
const DELETE_BATCH = 1000;

interface S3ErrorShape {
  name?: string;
  Code?: string;
  $metadata?: { httpStatusCode?: number };
}

function s3Status(err: unknown): number | undefined {
  return (err as S3ErrorShape)?.$metadata?.httpStatusCode;
}

function isS3Missing(err: unknown): boolean {
  const e = err as S3ErrorShape;
  return e?.name === 'NotFound' || e?.name === 'NoSuchKey' || s3Status(err) === 404;
}

/** ETags are quoted on the wire; a few S3-compatible services drop the quotes. */
function quoteEtag(etag: string | undefined): string {
  if (!etag) return '""';
  return etag.startsWith('"') || etag.startsWith('W/"') ? etag : `"${etag}"`;
}

// The S3 SDK (half a second to load) is imported when the first S3 storage is made, so a site on
// local storage never loads it, and one on S3 loads it once, before its first request needs it.
type S3Sdk = typeof import('@aws-sdk/client-s3');
let sdk: Promise<S3Sdk> | undefined;
const loadSdk = () => (sdk ??= import('@aws-sdk/client-s3'));

class S3Storage implements Storage {
  readonly kind = 's3' as const;
  private readonly sdk: Promise<{ client: S3Client; sdk: S3Sdk }>;
  private readonly bucket: string;
  private readonly publicUrl: string;

  constructor(config: NonNullable<StorageConfig['s3']>) {
    this.bucket = config.bucket;
    this.publicUrl = trimSlashes(config.publicUrl);
    this.sdk = loadSdk().then((sdk) => ({ sdk, client: this.makeClient(sdk, config) }));
    // A failed load is reported by the first call that needs the SDK, not as an unhandled rejection.
    this.sdk.catch(() => {});
  }

  private makeClient({ S3Client }: S3Sdk, config: NonNullable<StorageConfig['s3']>): S3Client {
    return new S3Client({
      region: config.region,
      endpoint: config.endpoint,
      forcePathStyle: config.forcePathStyle,
      credentials:
        config.accessKeyId && config.secretAccessKey
          ? { accessKeyId: config.accessKeyId, secretAccessKey: config.secretAccessKey }
          : undefined,
      // The SDK's default checksums (CRC trailers, aws-chunked uploads) are not understood by
      // every S3-compatible service; send them only where the API requires one.
      requestChecksumCalculation: 'WHEN_REQUIRED',
      responseChecksumValidation: 'WHEN_REQUIRED',
    });
  }

  private async run<T>(call: (client: S3Client, s3: S3Sdk) => Promise<T>): Promise<T> {
    const { client, sdk } = await this.sdk;
    return call(client, sdk);
  }

  async put(key: string, body: Buffer | { path: string }, contentType: string): Promise<void> {
    checkKey(key);
    if (Buffer.isBuffer(body)) {
      await this.run((client, s3) => client.send(
        new s3.PutObjectCommand({ Bucket: this.bucket, Key: key, Body: body, ContentLength: body.length, ContentType: contentType }),
      ));
      return;
    }
    // A stream has no length of its own, and PutObject needs one up front.
    const { size } = await stat(body.path);
    await this.run((client, s3) => client.send(
      new s3.PutObjectCommand({
        Bucket: this.bucket,
        Key: key,
        Body: createReadStream(body.path),
        ContentLength: size,
        ContentType: contentType,
      }),
    ));
  }

  async head(key: string): Promise<StoredInfo | null> {
    checkKey(key);
    try {
      const out = await this.run((client, s3) => client.send(new s3.HeadObjectCommand({ Bucket: this.bucket, Key: key })));
      return {
        size: out.ContentLength ?? 0,
        etag: quoteEtag(out.ETag),
        lastModified: out.LastModified ?? new Date(0),
        contentType: typeOrGuess(out.ContentType, key),
      };
    } catch (err) {
      if (isS3Missing(err)) return null;
      throw err;
    }
  }

  async read(key: string, range?: { start: number; end: number }): Promise<(StoredInfo & { stream: NodeJS.ReadableStream }) | null> {
    checkKey(key);
    if (range) checkRange(range);
    if (range && range.start > range.end) {
      const info = await this.head(key);
      return info && { ...info, stream: Readable.from([]) };
    }
    try {
      const out = await this.run((client, s3) => client.send(
        new s3.GetObjectCommand({ Bucket: this.bucket, Key: key, Range: range ? `bytes=${range.start}-${range.end}` : undefined }),
      ));
      // With a range, ContentLength is the slice; the whole size is after the '/' of Content-Range.
      const total = out.ContentRange ? Number(/\/(\d+)\s*$/.exec(out.ContentRange)?.[1]) : NaN;
      return {
        size: Number.isFinite(total) ? total : (out.ContentLength ?? 0),
        etag: quoteEtag(out.ETag),
        lastModified: out.LastModified ?? new Date(0),
        contentType: typeOrGuess(out.ContentType, key),
        stream: out.Body as unknown as NodeJS.ReadableStream,
      };
    } catch (err) {
      if (isS3Missing(err)) return null;
      // A start past the end: answered as locally, with no bytes.
      if (s3Status(err) === 416 || (err as S3ErrorShape)?.name === 'InvalidRange') {
        const info = await this.head(key);
        return info && { ...info, stream: Readable.from([]) };
      }
      throw err;
    }
  }

  async delete(keys: string[]): Promise<void> {
    keys.forEach(checkKey);
    const unique = [...new Set(keys)];
    for (let i = 0; i < unique.length; i += DELETE_BATCH) {
      const batch = unique.slice(i, i + DELETE_BATCH);
      const out = await this.run((client, s3) => client.send(
        new s3.DeleteObjectsCommand({
          Bucket: this.bucket,
          Delete: { Objects: batch.map((Key) => ({ Key })), Quiet: true },
        }),
      ));
      // DeleteObjects answers 200 even when some keys failed; those come back listed.
      const failed = (out.Errors ?? []).filter((e) => e.Code !== 'NoSuchKey');
      if (failed.length > 0) {
        const first = failed[0];
        throw new Error(`could not delete ${failed.length} object(s), first ${first.Key}: ${first.Code} ${first.Message ?? ''}`.trim());
      }
    }
  }

  url(key: string): string {
    return `${this.publicUrl}/${encodeKey(checkKey(key))}`;
  }

  async exists(key: string): Promise<boolean> {
    return (await this.head(key)) !== null;
  }
}
