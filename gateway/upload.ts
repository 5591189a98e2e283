// Receiving an upload without holding it in memory: a raw body (the body is the file) or a
// multipart form (the `file` part, plus fields), streamed into a temporary file while it is
// counted against the size limit and hashed. Nothing is trusted from the client's names or
// types here; the media service sniffs the bytes.
import { createHash, randomUUID } from 'node:crypto';
import { createWriteStream } from 'node:fs';
import { mkdir, readdir, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Transform, type Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import busboy from 'busboy';
import { WpError } from './errors.js';
import { own, put } from './params.js';
import { tooBigMessage } from '../src/media/limits.js';
import { processAlive } from '../src/media/recovery.js';

/** The first bytes kept for sniffing (file-type reads at most this many). */
const HEAD_BYTES = 4100;

export interface ReceivedFile {
  /** Temporary file holding the bytes (removed by `discard`). */
  path: string;
  size: number;
  /** The name the client gave (Content-Disposition filename, or the part's filename). */
  name: string | null;
  /** The type the client claimed (Content-Type of the body or part). */
  declaredType: string | null;
  /** Hex MD5 of the bytes, for Content-MD5. */
  md5: string;
  /** The first bytes, for sniffing. */
  head: Buffer;
}

export interface ReceivedUpload {
  form: 'raw' | 'multipart';
  file: ReceivedFile | null;
  /** With `anyFiles`: every non-empty file part, with the field it was posted under. */
  files?: (ReceivedFile & { field: string })[];
  /** Multipart fields (`name[key]` becomes a nested object). */
  fields: Record<string, unknown>;
  /** Removes the temporary file. */
  discard(): Promise<void>;
}

export function tooBig(maxBytes: number): WpError {
  return new WpError('rest_upload_file_too_big', tooBigMessage(maxBytes), 400);
}

export const SPOOL_DIR = join(tmpdir(), 'content-service-uploads');
let swept = false;

/**
 * Temporary files are removed when their request ends. One left by a process that was killed
 * meanwhile is named after that process (`<pid>-<uuid>`): the next start removes it once no
 * process has that id; any file an hour old goes too (a pid taken again, or an older name).
 */
export async function sweepSpool(): Promise<number> {
  swept = true;
  const cutoff = Date.now() - 3600_000;
  let removed = 0;
  for (const name of await readdir(SPOOL_DIR).catch(() => [] as string[])) {
    const path = join(SPOOL_DIR, name);
    const owner = /^(\d+)-/.exec(name);
    const dead = owner !== null && !processAlive(Number(owner[1]));
    const info = dead ? null : await stat(path).catch(() => null);
    if (dead || (info && info.mtimeMs < cutoff)) { await rm(path, { force: true }); removed++; }
  }
  return removed;
}

/** Streams `source` into a temporary file, refusing more than `maxBytes`. */
async function spool(source: Readable, maxBytes: number): Promise<Omit<ReceivedFile, 'name' | 'declaredType'>> {
  const dir = SPOOL_DIR;
  await mkdir(dir, { recursive: true });
  if (!swept) void sweepSpool();
  const path = join(dir, `${process.pid}-${randomUUID()}`);
  const md5 = createHash('md5');
  const head: Buffer[] = [];
  let size = 0;
  let headSize = 0;
  const meter = new Transform({
    transform(chunk: Buffer, _enc, done) {
      size += chunk.length;
      if (size > maxBytes) return done(tooBig(maxBytes));
      md5.update(chunk);
      if (headSize < HEAD_BYTES) { head.push(chunk.subarray(0, HEAD_BYTES - headSize)); headSize += Math.min(chunk.length, HEAD_BYTES - headSize); }
      done(null, chunk);
    },
  });
  try {
    await pipeline(source, meter, createWriteStream(path));
  } catch (err) {
    await rm(path, { force: true });
    throw err;
  }
  return { path, size, md5: md5.digest('hex'), head: Buffer.concat(head) };
}

function setField(fields: Record<string, unknown>, name: string, value: string): void {
  const m = /^([^[\]]+)\[([^[\]]*)\]$/.exec(name);
  // Own keys only: a part named `__proto__[x]` is a field of that name, not a write to Object.prototype.
  if (!m) { put(fields, name, value); return; }
  const [, base, key] = m;
  const current = own(fields, base);
  if (key === '') {
    const list = Array.isArray(current) ? current : [];
    if (list !== current) put(fields, base, list);
    list.push(value);
    return;
  }
  const obj = current && typeof current === 'object' && !Array.isArray(current) ? (current as Record<string, unknown>) : {};
  if (obj !== current) put(fields, base, obj);
  put(obj, key, value);
}

/**
 * Reads the body of an upload. Multipart (`multipart/form-data`): the part named `file` is the
 * file, other parts are fields; anything else: the body is the file, named by
 * Content-Disposition. The size limit holds while the bytes arrive.
 */
export async function receiveUpload(body: Readable, headers: Headers, maxBytes: number, o: { anyFiles?: boolean } = {}): Promise<ReceivedUpload> {
  const type = headers.get('content-type') ?? '';
  if (o.anyFiles && /^multipart\/form-data/i.test(type)) return receiveForm(body, type, maxBytes);
  if (!/^multipart\/form-data/i.test(type)) {
    const spooled = await spool(body, maxBytes);
    const file = spooled.size ? { ...spooled, name: dispositionName(headers.get('content-disposition')), declaredType: type || null } : null;
    if (!file) await rm(spooled.path, { force: true });
    return { form: 'raw', file, fields: {}, discard: () => (file ? rm(file.path, { force: true }) : Promise.resolve()) };
  }

  // Media: the part named `file` is the file; other file parts are skipped.
  const { fields, files } = await readMultipart(body, type, maxBytes, { maxFiles: 1, accept: (name) => name === 'file' });
  const kept = files[0] ?? null;
  return { form: 'multipart', file: kept, fields, discard: () => (kept ? rm(kept.path, { force: true }) : Promise.resolve()) };
}

/** The filename of `Content-Disposition: attachment; filename="x.jpg"` (quotes optional; filename* too). */
export function dispositionName(header: string | null): string | null {
  if (!header) return null;
  const star = /filename\*\s*=\s*(?:UTF-8|utf-8)''([^;]+)/.exec(header);
  if (star) { try { return decodeURIComponent(star[1].trim()); } catch { /* fall through */ } }
  const m = /filename\s*=\s*(?:"([^"]*)"|([^;\s]+))/i.exec(header);
  const name = (m?.[1] ?? m?.[2] ?? '').trim();
  return name || null;
}

/**
 * A multipart form whose file parts may have any name (a contact form's file fields): each file
 * is spooled to a temporary file within `maxBytes`; fields with `name[]`/`name[key]` nest.
 */
async function receiveForm(body: Readable, type: string, maxBytes: number): Promise<ReceivedUpload> {
  const { fields, files } = await readMultipart(body, type, maxBytes, { maxFiles: 20, accept: () => true });
  return { form: 'multipart', file: null, files, fields, discard: () => Promise.all(files.map((f) => rm(f.path, { force: true }))).then(() => undefined) };
}

/**
 * Reads a multipart body: fields nest by their bracketed names; each accepted file part is
 * spooled to a temporary file, counted against `maxBytes` as it arrives. A part over the limit
 * stops the parser with its error. Empty files are dropped; on failure nothing is left on disk.
 */
async function readMultipart(
  body: Readable, type: string, maxBytes: number, o: { maxFiles: number; accept: (field: string) => boolean },
): Promise<{ fields: Record<string, unknown>; files: (ReceivedFile & { field: string })[] }> {
  const fields: Record<string, unknown> = {};
  const files: (ReceivedFile & { field: string })[] = [];
  const spools: Promise<unknown>[] = [];
  let failure: unknown = null;
  let parser: busboy.Busboy;
  try {
    parser = busboy({ headers: { 'content-type': type }, limits: { files: o.maxFiles, fields: 500, fieldSize: 1024 * 1024 } });
  } catch {
    throw new WpError('rest_upload_unknown_error', 'The multipart body could not be read.', 400);
  }
  parser.on('field', (name, value) => setField(fields, name, value));
  parser.on('file', (name, stream, info) => {
    if (!o.accept(name)) { stream.resume(); return; }
    spools.push(spool(stream, maxBytes).then(
      (s) => { files.push({ ...s, field: name.replace(/\[\]$/, ''), name: info.filename ?? null, declaredType: info.mimeType ?? null }); },
      (err) => { failure = err; parser.destroy(err instanceof Error ? err : new Error(String(err))); },
    ));
  });
  const removeAll = (list: ReceivedFile[]) => Promise.all(list.map((f) => rm(f.path, { force: true })));
  try {
    await pipeline(body, parser);
    await Promise.all(spools);
    if (failure) throw failure;
  } catch (err) {
    await Promise.allSettled(spools);
    await removeAll(files);
    if (failure instanceof WpError) throw failure;
    if (err instanceof WpError) throw err;
    throw new WpError('rest_upload_unknown_error', 'The multipart body could not be read.', 400);
  }
  await removeAll(files.filter((f) => !f.size));
  return { fields, files: files.filter((f) => f.size) };
}
