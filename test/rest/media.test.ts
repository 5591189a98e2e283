// The media library over REST: uploads (raw body and multipart), the types allowed and how they
// are told from the bytes, the size limit, who may upload, where files go and how they are named,
// the attachment record in its three contexts, image sub-sizes (scaled and rotated originals),
// serving the stored files, updates, lists, deletes with every file, featured media, post-process
// and image edits.
import { createHash } from 'node:crypto';
import { mkdtemp, readdir, rm, stat, readFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestSite, API, SITE, type As, type TestResponse, type TestSite } from '../helpers/app.js';

let site: TestSite;
let uploadsDir: string;
/** The largest upload this site accepts. */
const MAX_BYTES = 1024 * 1024;

beforeAll(async () => {
  uploadsDir = await mkdtemp(join(tmpdir(), 'media-rest-'));
  site = await createTestSite({ uploadsDir, uploadMaxBytes: MAX_BYTES });
});
afterAll(async () => {
  await site?.close();
  if (uploadsDir) await rm(uploadsDir, { recursive: true, force: true });
});

const now = new Date();
/** The month folder uploads go to (UTC). */
const FOLDER = `${now.getUTCFullYear()}/${String(now.getUTCMonth() + 1).padStart(2, '0')}`;
const UPLOADS_URL = `${SITE}/wp-content/uploads`;

const EDIT_KEYS = [
  'id', 'date', 'date_gmt', 'guid', 'modified', 'modified_gmt', 'slug', 'status', 'type', 'link', 'title', 'author',
  'featured_media', 'comment_status', 'ping_status', 'template', 'meta', 'permalink_template', 'generated_slug', 'class_list',
  'description', 'caption', 'alt_text', 'media_type', 'mime_type', 'media_details', 'post', 'source_url', 'missing_image_sizes',
];
const EDIT_ONLY = ['permalink_template', 'generated_slug', 'missing_image_sizes'];
const VIEW_KEYS = EDIT_KEYS.filter((k) => !EDIT_ONLY.includes(k));
const EMBED_KEYS = ['id', 'date', 'slug', 'type', 'link', 'title', 'author', 'featured_media', 'caption', 'alt_text', 'media_type', 'mime_type', 'media_details', 'source_url'];
const EMPTY_IMAGE_META = {
  aperture: '0', credit: '', camera: '', caption: '', created_timestamp: '0', copyright: '', focal_length: '0', iso: '0',
  shutter_speed: '0', title: '', orientation: '0', keywords: [],
};

// ---------------------------------------------------------------------------------------------
// Bytes

const solid = (width: number, height: number, background = '#ff0000') => sharp({ create: { width, height, channels: 3, background } });
const png = (width: number, height: number, background?: string) => solid(width, height, background).png().toBuffer();
const jpeg = (width: number, height: number, background?: string) => solid(width, height, background).jpeg().toBuffer();
/** A PNG whose left half is red and right half blue. */
const halves = (width: number, height: number) => solid(width, height, '#0000ff')
  .composite([{ input: { create: { width: width / 2, height, channels: 3, background: '#ff0000' } }, left: 0, top: 0 }])
  .png().toBuffer();
const text = (n: number) => Buffer.from('x'.repeat(Math.max(0, n - 1)) + '\n');
const PDF = Buffer.from('%PDF-1.4\n1 0 obj\n<< /Type /Catalog >>\nendobj\ntrailer\n<< /Root 1 0 R >>\n%%EOF\n');
/** Bytes no sniffer recognises, with NUL bytes (so not text either). */
const BINARY = Buffer.from(Array.from({ length: 1024 }, (_, i) => (i * 37) % 256));

function crc32(buf: Buffer): number {
  let crc = 0xffffffff;
  for (const byte of buf) {
    let c = (crc ^ byte) & 0xff;
    for (let k = 0; k < 8; k++) c = c & 1 ? (c >>> 1) ^ 0xedb88320 : c >>> 1;
    crc = (crc >>> 8) ^ c;
  }
  return (crc ^ 0xffffffff) >>> 0;
}

/** A zip archive of stored (uncompressed) entries. */
function zip(entries: [string, string][]): Buffer {
  const parts: Buffer[] = [];
  const central: Buffer[] = [];
  let offset = 0;
  for (const [entry, content] of entries) {
    const name = Buffer.from(entry);
    const data = Buffer.from(content);
    const local = Buffer.alloc(30);
    local.writeUInt32LE(0x04034b50, 0);
    local.writeUInt16LE(20, 4);
    local.writeUInt32LE(crc32(data), 14);
    local.writeUInt32LE(data.length, 18);
    local.writeUInt32LE(data.length, 22);
    local.writeUInt16LE(name.length, 26);
    parts.push(local, name, data);
    const dir = Buffer.alloc(46);
    dir.writeUInt32LE(0x02014b50, 0);
    dir.writeUInt16LE(20, 4);
    dir.writeUInt16LE(20, 6);
    dir.writeUInt32LE(crc32(data), 16);
    dir.writeUInt32LE(data.length, 20);
    dir.writeUInt32LE(data.length, 24);
    dir.writeUInt16LE(name.length, 28);
    dir.writeUInt32LE(offset, 42);
    central.push(dir, name);
    offset += local.length + name.length + data.length;
  }
  const directory = Buffer.concat(central);
  const end = Buffer.alloc(22);
  end.writeUInt32LE(0x06054b50, 0);
  end.writeUInt16LE(entries.length, 8);
  end.writeUInt16LE(entries.length, 10);
  end.writeUInt32LE(directory.length, 12);
  end.writeUInt32LE(offset, 16);
  return Buffer.concat([...parts, directory, end]);
}

const DOCX = zip([
  ['[Content_Types].xml', '<?xml version="1.0"?><Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types"><Override PartName="/word/document.xml" ContentType="application/vnd.openxmlformats-officedocument.wordprocessingml.document.main+xml"/></Types>'],
  ['word/document.xml', '<w:document xmlns:w="http://schemas.openxmlformats.org/wordprocessingml/2006/main"/>'],
]);
const MP3 = Buffer.concat([Buffer.from('ID3'), Buffer.from([3, 0, 0, 0, 0, 0, 0]), Buffer.from([0xff, 0xfb, 0x90, 0x64]), Buffer.alloc(413)]);
const MP4 = Buffer.concat([Buffer.from([0, 0, 0, 0x18]), Buffer.from('ftypisom'), Buffer.from([0, 0, 2, 0]), Buffer.from('isomiso2'), Buffer.from([0, 0, 0, 8]), Buffer.from('free')]);

// ---------------------------------------------------------------------------------------------
// Requests

/** Who sends a request: a role or user, or null for an anonymous caller. */
type Caller = As | null;

interface RawOptions { as?: Caller; query?: string; type?: string | null; disposition?: string | null; headers?: Record<string, string> }

/** A raw-body upload: the body is the file, named by Content-Disposition. */
function uploadRaw(bytes: Buffer, name: string, o: RawOptions = {}): Promise<TestResponse> {
  const headers: Record<string, string> = { ...o.headers };
  const type = o.type === undefined ? 'image/png' : o.type;
  if (type !== null) headers['content-type'] = type;
  const disposition = o.disposition === undefined ? `attachment; filename="${name}"` : o.disposition;
  if (disposition !== null) headers['content-disposition'] = disposition;
  return site.req('POST', `/core/v2/media${o.query ? `?${o.query}` : ''}`, { as: o.as === undefined ? 'administrator' : o.as ?? undefined, body: new Uint8Array(bytes), headers });
}

/** A multipart upload: the `file` part and fields. */
function uploadForm(bytes: Buffer | null, name: string, type: string, fields: Record<string, string | number> = {}, as: Caller = 'administrator'): Promise<TestResponse> {
  const form = new FormData();
  if (bytes) form.append('file', new File([new Uint8Array(bytes)], name, { type }));
  for (const [k, v] of Object.entries(fields)) form.append(k, String(v));
  return site.req('POST', '/core/v2/media', { as: as ?? undefined, body: form });
}

/** Uploads (raw) and expects 201; returns the edit record. */
async function upload(bytes: Buffer, name: string, o: RawOptions = {}): Promise<any> {
  const res = await uploadRaw(bytes, name, o);
  expect(res.status, `upload ${name}: ${res.text.slice(0, 2000)}`).toBe(201);
  return res.body;
}

const get = (id: number, query = '', as: Caller = 'administrator') => site.req('GET', `/core/v2/media/${id}${query}`, { as: as ?? undefined });

/** A stored file's bytes, answer and headers, through the app. */
async function fetchFile(url: string, headers: Record<string, string> = {}) {
  const res = await site.app.fetch(new Request(url, { headers }));
  return { status: res.status, headers: res.headers, bytes: Buffer.from(await res.arrayBuffer()) };
}

/** Every file under the uploads directory, relative to it. */
async function filesOnDisk(): Promise<string[]> {
  const out: string[] = [];
  async function walk(dir: string) {
    for (const entry of await readdir(dir, { withFileTypes: true })) {
      const path = join(dir, entry.name);
      if (entry.isDirectory()) await walk(path);
      else out.push(relative(uploadsDir, path).split('\\').join('/'));
    }
  }
  await walk(uploadsDir);
  return out.sort();
}

const onDisk = (key: string) => join(uploadsDir, ...key.split('/'));
const exists = async (key: string) => stat(onDisk(key)).then(() => true, () => false);

/** Pixel dimensions and metadata of a stored file. */
const imageOnDisk = async (key: string) => sharp(await readFile(onDisk(key))).metadata();

/** The RGB pixel at (x, y) of a stored image. */
async function pixel(key: string, x: number, y: number): Promise<[number, number, number]> {
  const { data, info } = await sharp(await readFile(onDisk(key))).removeAlpha().raw().toBuffer({ resolveWithObject: true });
  const at = (y * info.width + x) * info.channels;
  return [data[at], data[at + 1], data[at + 2]];
}

/** The storage key of a served URL. */
const keyOf = (url: string) => {
  expect(url.startsWith(`${UPLOADS_URL}/`), url).toBe(true);
  return url.slice(UPLOADS_URL.length + 1);
};

const md5 = (b: Buffer) => createHash('md5').update(b).digest('hex');
const ids = (res: TestResponse): number[] => {
  expect(res.status, res.text.slice(0, 2000)).toBe(200);
  return (res.body as { id: number }[]).map((r) => r.id);
};

// ---------------------------------------------------------------------------------------------

describe('upload with a raw body', () => {
  it('answers 201 with Location, the attachment id header and the edit record', async () => {
    const bytes = await png(100, 80);
    const res = await uploadRaw(bytes, 'My Photo.png');
    expect(res.status).toBe(201);
    const a = res.body;
    expect(res.headers.get('location')).toBe(`${API}/core/v2/media/${a.id}`);
    expect(res.headers.get('x-wp-upload-attachment-id')).toBe(String(a.id));
    const keys = Object.keys(a);
    expect(keys.filter((k) => EDIT_KEYS.includes(k))).toEqual(EDIT_KEYS);
    expect(keys[keys.length - 1]).toBe('_links');
    expect(a.status).toBe('inherit');
    expect(a.type).toBe('attachment');
    expect(a.author).toBe(site.users.administrator.id);
    expect(a.featured_media).toBe(0);
    expect(a.template).toBe('');
    expect(a.meta).toEqual([]);
    expect(a.title).toEqual({ raw: 'My-Photo', rendered: 'My-Photo' });
    expect(a.slug).toBe('my-photo');
    expect(a.caption).toEqual({ raw: '', rendered: '' });
    expect(a.description.raw).toBe('');
    expect(a.description.rendered).toContain('<p class="attachment">');
    expect(a.alt_text).toBe('');
    expect(a.media_type).toBe('image');
    expect(a.mime_type).toBe('image/png');
    expect(a.post).toBeNull();
    expect(a.source_url).toBe(`${UPLOADS_URL}/${FOLDER}/My-Photo.png`);
    expect(a.guid.rendered).toBe(a.source_url);
    expect(a.link.startsWith(SITE)).toBe(true);
    expect(a.class_list).toEqual(expect.arrayContaining([`post-${a.id}`, 'attachment', 'type-attachment', 'status-inherit', 'hentry']));
    expect(a.missing_image_sizes).toEqual([]);
    expect(a.media_details).toEqual({
      width: 100, height: 80, file: `${FOLDER}/My-Photo.png`, filesize: bytes.length,
      sizes: { full: { file: 'My-Photo.png', width: 100, height: 80, mime_type: 'image/png', source_url: a.source_url } },
      image_meta: EMPTY_IMAGE_META,
    });
    expect(await readFile(onDisk(`${FOLDER}/My-Photo.png`))).toEqual(bytes);
  });

  it('names files uniquely within the month folder', async () => {
    const first = await upload(await png(20, 20, '#00ff00'), 'Twice Named.png');
    const second = await upload(await png(20, 20, '#0000ff'), 'Twice Named.png');
    expect(first.media_details.file).toBe(`${FOLDER}/Twice-Named.png`);
    expect(second.media_details.file).toBe(`${FOLDER}/Twice-Named-1.png`);
    expect(second.source_url).toBe(`${UPLOADS_URL}/${FOLDER}/Twice-Named-1.png`);
    expect(second.title.raw).toBe('Twice-Named');
    expect(second.slug).not.toBe(first.slug);
    expect(await exists(`${FOLDER}/Twice-Named.png`)).toBe(true);
    expect(await exists(`${FOLDER}/Twice-Named-1.png`)).toBe(true);
  });

  it('takes the other fields from the query string', async () => {
    const a = await upload(await png(10, 10), 'query.png', { query: 'title=From+query&alt_text=An+alt&caption=A+caption&description=Described' });
    expect(a.title.raw).toBe('From query');
    expect(a.alt_text).toBe('An alt');
    expect(a.caption).toEqual({ raw: 'A caption', rendered: '<p>A caption</p>\n' });
    expect(a.description.raw).toBe('Described');
    expect(a.description.rendered).toContain('<p>Described</p>');
  });

  it('checks the body, its type, its disposition and its hash in WordPress\'s order', async () => {
    const bytes = await png(10, 10);
    expect(await uploadRaw(Buffer.alloc(0), 'empty.png')).toBeWpError(400, 'rest_upload_no_data');
    expect(await uploadRaw(Buffer.alloc(0), 'empty.png', { type: null, disposition: null })).toBeWpError(400, 'rest_upload_no_data');
    expect(await uploadRaw(bytes, 'a.png', { type: null })).toBeWpError(400, 'rest_upload_no_content_type');
    expect(await uploadRaw(bytes, 'a.png', { type: null, disposition: null })).toBeWpError(400, 'rest_upload_no_content_type');
    expect(await uploadRaw(bytes, 'a.png', { disposition: null })).toBeWpError(400, 'rest_upload_no_content_disposition');
    expect(await uploadRaw(bytes, 'a.png', { disposition: 'attachment' })).toBeWpError(400, 'rest_upload_invalid_disposition');
    expect(await uploadRaw(bytes, 'a.png', { disposition: 'attachment; filename=""' })).toBeWpError(400, 'rest_upload_invalid_disposition');
    expect(await uploadRaw(bytes, 'a.png', { headers: { 'content-md5': md5(Buffer.from('other bytes')) } })).toBeWpError(412, 'rest_upload_hash_mismatch');
    const matching = await uploadRaw(bytes, 'hashed.png', { headers: { 'content-md5': md5(bytes) } });
    expect(matching.status).toBe(201);
    expect(matching.body.media_details.file).toBe(`${FOLDER}/hashed.png`);
  });

  it('takes a JSON body for a file without a disposition', async () => {
    const res = await site.req('POST', '/core/v2/media', { as: 'administrator', json: { title: 'x' } });
    expect(res).toBeWpError(400, 'rest_upload_no_content_disposition');
  });

  it('reads unquoted and RFC 5987 file names', async () => {
    const bytes = await png(10, 10);
    const plain = await upload(bytes, '', { disposition: 'attachment; filename=plain-name.png' });
    expect(plain.media_details.file).toBe(`${FOLDER}/plain-name.png`);
    const star = await upload(bytes, '', { disposition: "attachment; filename*=UTF-8''caf%C3%A9%20au%20lait.png" });
    expect(star.media_details.file).toBe(`${FOLDER}/cafe-au-lait.png`);
  });
});

describe('upload with a multipart form', () => {
  it('takes the file part and the fields', async () => {
    const post = await site.createPost({ title: 'Parent of a form upload', status: 'publish' });
    const bytes = await png(40, 30);
    const res = await uploadForm(bytes, 'form upload.png', 'image/png', {
      title: 'Form title', alt_text: 'Form alt', caption: 'Form caption', description: 'Form description', post: post.id,
    });
    expect(res.status).toBe(201);
    expect(res.headers.get('location')).toBe(`${API}/core/v2/media/${res.body.id}`);
    expect(res.headers.get('x-wp-upload-attachment-id')).toBe(String(res.body.id));
    const a = res.body;
    expect(a.title.raw).toBe('Form title');
    expect(a.alt_text).toBe('Form alt');
    expect(a.caption.raw).toBe('Form caption');
    expect(a.description.raw).toBe('Form description');
    expect(a.post).toBe(post.id);
    expect(a.media_details.file).toBe(`${FOLDER}/form-upload.png`);
    expect(a.media_details.width).toBe(40);
    expect(await readFile(onDisk(`${FOLDER}/form-upload.png`))).toEqual(bytes);
  });

  it('refuses a form without a file part', async () => {
    expect(await uploadForm(null, '', '', { title: 'No file' })).toBeWpError(400, 'rest_upload_no_data');
    const otherPart = new FormData();
    otherPart.append('attachment', new File([new Uint8Array(await png(10, 10))], 'a.png', { type: 'image/png' }));
    expect(await site.req('POST', '/core/v2/media', { as: 'administrator', body: otherPart })).toBeWpError(400, 'rest_upload_no_data');
  });
});

describe('upload types, read from the bytes', () => {
  it.each([
    { name: 'photo.jpg', bytes: () => jpeg(30, 20), declared: 'image/jpeg', mime: 'image/jpeg', mediaType: 'image' },
    { name: 'photo.jpeg', bytes: () => jpeg(30, 20), declared: 'image/jpeg', mime: 'image/jpeg', mediaType: 'image' },
    { name: 'anim.gif', bytes: () => solid(30, 20).gif().toBuffer(), declared: 'image/gif', mime: 'image/gif', mediaType: 'image' },
    { name: 'pic.webp', bytes: () => solid(30, 20).webp().toBuffer(), declared: 'image/webp', mime: 'image/webp', mediaType: 'image' },
    { name: 'pic.avif', bytes: () => solid(30, 20).avif().toBuffer(), declared: 'image/avif', mime: 'image/avif', mediaType: 'image' },
    { name: 'doc.pdf', bytes: async () => PDF, declared: 'application/pdf', mime: 'application/pdf', mediaType: 'file' },
    { name: 'notes.txt', bytes: async () => Buffer.from('Some notes\nwith two lines\n'), declared: 'text/plain', mime: 'text/plain', mediaType: 'file' },
    { name: 'table.csv', bytes: async () => Buffer.from('a,b\n1,2\n'), declared: 'text/csv', mime: 'text/csv', mediaType: 'file' },
    { name: 'letter.docx', bytes: async () => DOCX, declared: 'application/octet-stream', mime: 'application/vnd.openxmlformats-officedocument.wordprocessingml.document', mediaType: 'file' },
    { name: 'song.mp3', bytes: async () => MP3, declared: 'audio/mpeg', mime: 'audio/mpeg', mediaType: 'file' },
    { name: 'clip.mp4', bytes: async () => MP4, declared: 'video/mp4', mime: 'video/mp4', mediaType: 'file' },
  ])('accepts $name as $mime', async ({ name, bytes, declared, mime, mediaType }) => {
    const content = await bytes();
    const a = await upload(content, name, { type: declared });
    expect(a.mime_type).toBe(mime);
    expect(a.media_type).toBe(mediaType);
    if (mediaType === 'file') {
      expect(a.media_details).toEqual({ filesize: content.length, sizes: {} });
      expect(a.missing_image_sizes).toEqual([]);
    }
    expect(a.source_url).toBe(`${UPLOADS_URL}/${FOLDER}/${name}`);
    expect(await readFile(onDisk(keyOf(a.source_url)))).toEqual(content);
  });

  it('stores a text file as a file with its metadata', async () => {
    const bytes = Buffer.from('Plain text notes.\n');
    const res = await uploadForm(bytes, 'plain notes.txt', 'text/plain');
    expect(res.status).toBe(201);
    expect(res.body.mime_type).toBe('text/plain');
    expect(res.body.media_type).toBe('file');
    expect(res.body.media_details).toEqual({ filesize: bytes.length, sizes: {} });
    expect(res.body.source_url).toBe(`${UPLOADS_URL}/${FOLDER}/plain-notes.txt`);
    expect(res.body.title.raw).toBe('plain-notes');
  });

  it('refuses bytes that are not what the name says, and names WordPress does not allow', async () => {
    const before = await filesOnDisk();
    const pngBytes = await png(10, 10);
    const jpegBytes = await jpeg(10, 10);
    expect(await uploadRaw(pngBytes, 'x.jpg', { type: 'image/jpeg' })).toBeWpError(400, 'rest_upload_sideload_error');
    expect(await uploadForm(pngBytes, 'x.jpg', 'image/jpeg')).toBeWpError(400, 'rest_upload_sideload_error');
    expect(await uploadRaw(Buffer.concat([Buffer.from('MZ'), Buffer.alloc(200)]), 'setup.exe', { type: 'application/octet-stream' })).toBeWpError(400, 'rest_upload_sideload_error');
    expect(await uploadRaw(Buffer.from('<?php echo "hi"; ?>\n'), 'shell.php', { type: 'text/plain' })).toBeWpError(400, 'rest_upload_sideload_error');
    expect(await uploadRaw(Buffer.from('<!doctype html><p>hi</p>\n'), 'page.html', { type: 'text/html' })).toBeWpError(400, 'rest_upload_sideload_error');
    expect(await uploadRaw(Buffer.from('<svg xmlns="http://www.w3.org/2000/svg"/>'), 'logo.svg', { type: 'image/svg+xml' })).toBeWpError(400, 'rest_upload_sideload_error');
    expect(await uploadRaw(BINARY, 'x.txt', { type: 'text/plain' })).toBeWpError(400, 'rest_upload_sideload_error');
    expect(await uploadRaw(pngBytes, 'no-extension', { type: 'image/png' })).toBeWpError(400, 'rest_upload_sideload_error');
    // The declared type may not name another kind of file than the bytes either.
    expect(await uploadRaw(jpegBytes, 'x.png', { type: 'image/png' })).toBeWpError(400, 'rest_upload_sideload_error');
    expect(await uploadForm(jpegBytes, 'x.png', 'image/png')).toBeWpError(400, 'rest_upload_sideload_error');
    expect(await filesOnDisk()).toEqual(before);
  });
});

/** The answer, or a failure naming the request when none comes within `ms`. */
async function within<T>(ms: number, what: string, answer: Promise<T>): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => { timer = setTimeout(() => reject(new Error(`${what}: no answer within ${ms} ms`)), ms); });
  try { return await Promise.race([answer, timeout]); } finally { clearTimeout(timer); }
}

describe('upload size limit', () => {
  it('accepts a raw body of exactly the limit and refuses one byte more, leaving no file', async () => {
    const atLimit = await upload(text(MAX_BYTES), 'at-limit.txt', { type: 'text/plain' });
    expect(atLimit.media_details.filesize).toBe(MAX_BYTES);
    const before = await filesOnDisk();
    const tooBig = await uploadRaw(text(MAX_BYTES + 1), 'too-big.txt', { type: 'text/plain' });
    expect(tooBig).toBeWpError(400, 'rest_upload_file_too_big');
    expect(tooBig.body.message).toBe(`This file is too big. Files must be less than ${MAX_BYTES / 1024} KB in size.`);
    expect(await uploadRaw(text(3 * MAX_BYTES), 'much-too-big.txt', { type: 'text/plain' })).toBeWpError(400, 'rest_upload_file_too_big');
    expect(await filesOnDisk()).toEqual(before);
  });

  it('refuses a multipart file part over the limit, leaving no file', async () => {
    const before = await filesOnDisk();
    const res = await within(10_000, 'multipart upload over the limit', uploadForm(text(MAX_BYTES + 1), 'too-big.txt', 'text/plain', { title: 'Big' }));
    expect(res).toBeWpError(400, 'rest_upload_file_too_big');
    expect(await filesOnDisk()).toEqual(before);
  });
});

describe('upload rights', () => {
  it('needs upload_files: 401 anonymous, 403 subscriber and contributor, 201 author, editor and administrator', async () => {
    const bytes = await png(10, 10);
    const before = await filesOnDisk();
    expect(await uploadRaw(bytes, 'anon.png', { as: null })).toBeWpError(401, 'rest_cannot_create');
    expect(await uploadRaw(bytes, 'sub.png', { as: 'subscriber' })).toBeWpError(403, 'rest_cannot_create');
    expect(await uploadRaw(bytes, 'contrib.png', { as: 'contributor' })).toBeWpError(403, 'rest_cannot_create');
    expect(await uploadForm(bytes, 'contrib.png', 'image/png', {}, 'contributor')).toBeWpError(403, 'rest_cannot_create');
    expect(await uploadForm(bytes, 'anon.png', 'image/png', {}, null)).toBeWpError(401, 'rest_cannot_create');
    expect(await filesOnDisk()).toEqual(before);
    for (const role of ['author', 'editor', 'administrator'] as const) {
      const a = await upload(bytes, `by-${role}.png`, { as: role });
      expect(a.author).toBe(site.users[role].id);
    }
  });

  // WordPress asks edit_post on the parent, which no one has over an id with nothing behind it.
  it('attaches to a post only for who may edit it (so only to one that exists), never to an attachment', async () => {
    const bytes = await png(10, 10);
    const adminPost = await site.createPost({ title: 'Admin post', status: 'publish' });
    const ownPost = await site.createPost({ title: 'Author post', status: 'publish' }, 'author');
    const attachment = await upload(bytes, 'not-a-parent.png');
    expect(await uploadRaw(bytes, 'x.png', { as: 'author', query: `post=${adminPost.id}` })).toBeWpError(403, 'rest_cannot_edit');
    expect(await uploadForm(bytes, 'x.png', 'image/png', { post: adminPost.id }, 'author')).toBeWpError(403, 'rest_cannot_edit');
    expect(await uploadRaw(bytes, 'x.png', { query: `post=${attachment.id}` })).toBeWpError(400, 'rest_invalid_param');
    expect(await uploadRaw(bytes, 'x.png', { query: 'post=987654' })).toBeWpError(403, 'rest_cannot_edit');
    expect((await upload(bytes, 'own.png', { as: 'author', query: `post=${ownPost.id}` })).post).toBe(ownPost.id);
    expect((await upload(bytes, 'editor.png', { as: 'editor', query: `post=${adminPost.id}` })).post).toBe(adminPost.id);
  });
});

describe('the record in its contexts', () => {
  let a: any;
  beforeAll(async () => { a = await upload(await png(60, 40), 'contexts.png', { query: 'caption=Cap&alt_text=Alt' }); });

  it('view: rendered values only, no edit fields', async () => {
    const res = await get(a.id, '', null);
    expect(res.status).toBe(200);
    const keys = Object.keys(res.body);
    expect(keys.filter((k) => k !== '_links')).toEqual(VIEW_KEYS);
    expect(keys[keys.length - 1]).toBe('_links');
    expect(res.body.title).toEqual({ rendered: 'contexts' });
    expect(res.body.caption).toEqual({ rendered: '<p>Cap</p>\n' });
    expect(res.body.description.raw).toBeUndefined();
    expect(res.body.guid).toEqual({ rendered: a.source_url });
    expect(res.body.alt_text).toBe('Alt');
    expect(res.body.media_details).toEqual(a.media_details);
    expect(res.body.source_url).toBe(a.source_url);
  });

  it('edit: raw values and the edit fields, for who may edit it', async () => {
    const res = await get(a.id, '?context=edit');
    expect(res.status).toBe(200);
    expect(Object.keys(res.body).filter((k) => k !== '_links')).toEqual(EDIT_KEYS);
    expect(res.body.caption).toEqual({ raw: 'Cap', rendered: '<p>Cap</p>\n' });
    expect(res.body.generated_slug).toBe('contexts');
    expect(res.body.missing_image_sizes).toEqual([]);
    expect(await get(a.id, '?context=edit', 'subscriber')).toBeWpError(403, 'rest_forbidden_context');
    expect(await get(a.id, '?context=edit', null)).toBeWpError(401, 'rest_forbidden_context');
  });

  it('embed: the embed fields only', async () => {
    const res = await get(a.id, '?context=embed', null);
    expect(res.status).toBe(200);
    expect(Object.keys(res.body).filter((k) => k !== '_links').sort()).toEqual([...EMBED_KEYS].sort());
    expect(res.body.source_url).toBe(a.source_url);
    expect(res.body.caption).toEqual({ rendered: '<p>Cap</p>\n' });
  });

  it('answers 404 for an id that is not an attachment', async () => {
    const post = await site.createPost({ title: 'Not media', status: 'publish' });
    expect(await get(post.id)).toBeWpError(404, 'rest_post_invalid_id');
    expect(await get(987654)).toBeWpError(404, 'rest_post_invalid_id');
  });
});

describe('image sizes', () => {
  it('makes every WordPress size smaller than a 1920×1080 image, with the file on disk', async () => {
    const bytes = await png(1920, 1080);
    const a = await upload(bytes, 'wide.png');
    const d = a.media_details;
    expect(d.width).toBe(1920);
    expect(d.height).toBe(1080);
    expect(d.file).toBe(`${FOLDER}/wide.png`);
    expect(d.filesize).toBe(bytes.length);
    expect(d.image_meta).toEqual(EMPTY_IMAGE_META);
    expect(d.original_image).toBeUndefined();
    const expected: Record<string, [number, number]> = {
      thumbnail: [150, 150], medium: [300, 169], medium_large: [768, 432], large: [1024, 576], '1536x1536': [1536, 864],
    };
    expect(Object.keys(d.sizes).sort()).toEqual([...Object.keys(expected), 'full'].sort());
    for (const [name, [width, height]] of Object.entries(expected)) {
      const size = d.sizes[name];
      expect(size, name).toEqual({
        file: `wide-${width}x${height}.png`, width, height, mime_type: 'image/png', filesize: expect.any(Number),
        source_url: `${UPLOADS_URL}/${FOLDER}/wide-${width}x${height}.png`,
      });
      const key = `${FOLDER}/${size.file}`;
      const meta = await imageOnDisk(key);
      expect([meta.width, meta.height, meta.format], name).toEqual([width, height, 'png']);
      expect((await stat(onDisk(key))).size, name).toBe(size.filesize);
    }
    expect(d.sizes.full).toEqual({ file: 'wide.png', width: 1920, height: 1080, mime_type: 'image/png', source_url: a.source_url });
    expect(a.missing_image_sizes).toEqual([]);
  });

  it('reads image_meta from EXIF and strips metadata from the sizes', async () => {
    const bytes = await solid(800, 600).jpeg().withExif({ IFD0: { Copyright: 'Jane Doe', Model: 'Test Camera' } }).toBuffer();
    const a = await upload(bytes, 'exif.jpg', { type: 'image/jpeg' });
    expect(a.media_details.image_meta).toMatchObject({ copyright: 'Jane Doe', camera: 'Test Camera' });
    expect(Object.keys(a.media_details.image_meta).sort()).toEqual(Object.keys(EMPTY_IMAGE_META).sort());
    expect((await imageOnDisk(`${FOLDER}/exif.jpg`)).exif).toBeDefined();
    const sizes = Object.entries(a.media_details.sizes).filter(([name]) => name !== 'full');
    expect(sizes.map(([name]) => name).sort()).toEqual(['medium', 'medium_large', 'thumbnail']);
    for (const [name, size] of sizes as [string, any][]) {
      const meta = await imageOnDisk(`${FOLDER}/${size.file}`);
      expect([meta.width, meta.height], name).toEqual([size.width, size.height]);
      expect(meta.exif, name).toBeUndefined();
      expect(size.mime_type).toBe('image/jpeg');
    }
  });

  it('keeps a huge JPEG and attaches a -scaled copy of 2560 px', async () => {
    const bytes = await jpeg(3000, 2000, '#336699');
    const a = await upload(bytes, 'huge.jpg', { type: 'image/jpeg' });
    const d = a.media_details;
    expect([d.width, d.height]).toEqual([2560, 1707]);
    expect(d.file).toBe(`${FOLDER}/huge-scaled.jpg`);
    expect(d.original_image).toBe('huge.jpg');
    expect(a.source_url).toBe(`${UPLOADS_URL}/${FOLDER}/huge-scaled.jpg`);
    expect(await readFile(onDisk(`${FOLDER}/huge.jpg`))).toEqual(bytes);
    const scaled = await imageOnDisk(`${FOLDER}/huge-scaled.jpg`);
    expect([scaled.width, scaled.height, scaled.format]).toEqual([2560, 1707, 'jpeg']);
    expect(d.filesize).toBe((await stat(onDisk(`${FOLDER}/huge-scaled.jpg`))).size);
    expect(Object.keys(d.sizes).sort()).toEqual(['1536x1536', '2048x2048', 'full', 'large', 'medium', 'medium_large', 'thumbnail']);
    expect(d.sizes.thumbnail).toMatchObject({ width: 150, height: 150 });
    expect(d.sizes.large).toMatchObject({ width: 1024, height: 683 });
    for (const [name, size] of Object.entries(d.sizes) as [string, any][]) {
      const meta = await imageOnDisk(keyOf(size.source_url));
      expect([meta.width, meta.height], name).toEqual([size.width, size.height]);
    }
    expect(d.sizes.full.file).toBe('huge-scaled.jpg');
  });

  it('makes the sizes of a scaled or rotated image from the original, named after it, as WordPress does', async () => {
    // wp_create_image_subsizes() passes the original file to _wp_make_subsizes(): the sizes of a
    // 3000×2000 upload are those of 3000×2000 (2048×1365, not 2048×1366 from the 2560×1707 copy).
    const big = (await upload(await jpeg(3000, 2000, '#663399'), 'origin.jpg', { type: 'image/jpeg' })).media_details;
    const names = Object.fromEntries(Object.entries(big.sizes).map(([k, s]: [string, any]) => [k, s.file]));
    expect(names).toEqual({
      thumbnail: 'origin-150x150.jpg', medium: 'origin-300x200.jpg', medium_large: 'origin-768x512.jpg', large: 'origin-1024x683.jpg',
      '1536x1536': 'origin-1536x1024.jpg', '2048x2048': 'origin-2048x1365.jpg', full: 'origin-scaled.jpg',
    });
    for (const size of Object.values(big.sizes) as any[]) {
      const meta = await imageOnDisk(keyOf(size.source_url));
      expect([meta.width, meta.height], size.file).toEqual([size.width, size.height]);
    }
    const turned = (await upload(await solid(400, 200).jpeg().withMetadata({ orientation: 6 }).toBuffer(), 'upright.jpg', { type: 'image/jpeg' })).media_details;
    expect(turned.sizes.thumbnail.file).toBe('upright-150x150.jpg');
    expect(turned.sizes.medium.file).toBe('upright-150x300.jpg');
  });

  it('applies the EXIF orientation into a -rotated copy', async () => {
    const bytes = await solid(400, 200).jpeg().withMetadata({ orientation: 6 }).toBuffer();
    const a = await upload(bytes, 'turned.jpg', { type: 'image/jpeg' });
    const d = a.media_details;
    expect([d.width, d.height]).toEqual([200, 400]);
    expect(d.file).toBe(`${FOLDER}/turned-rotated.jpg`);
    expect(d.original_image).toBe('turned.jpg');
    const rotated = await imageOnDisk(`${FOLDER}/turned-rotated.jpg`);
    expect([rotated.width, rotated.height]).toEqual([200, 400]);
    expect(rotated.orientation ?? 1).toBe(1);
    expect(await readFile(onDisk(`${FOLDER}/turned.jpg`))).toEqual(bytes);
    expect(d.sizes.thumbnail).toMatchObject({ width: 150, height: 150 });
    expect(d.sizes.medium).toMatchObject({ width: 150, height: 300 });
  });
});

describe('serving stored files', () => {
  let a: any;
  let bytes: Buffer;
  beforeAll(async () => {
    bytes = await png(64, 48, '#123456');
    a = await upload(bytes, 'served.png');
  });

  it('serves the exact bytes with their type and validators', async () => {
    const res = await fetchFile(a.source_url);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('image/png');
    expect(res.headers.get('etag')).toBeTruthy();
    expect(new Date(res.headers.get('last-modified')!).getTime()).not.toBeNaN();
    expect(res.bytes).toEqual(bytes);
  });

  it('answers 304 to a matching If-None-Match, and 206 to a byte range', async () => {
    const first = await fetchFile(a.source_url);
    const etag = first.headers.get('etag')!;
    const cached = await fetchFile(a.source_url, { 'if-none-match': etag });
    expect(cached.status).toBe(304);
    expect(cached.bytes.length).toBe(0);
    const range = await fetchFile(a.source_url, { range: 'bytes=0-9' });
    expect(range.status).toBe(206);
    expect(range.headers.get('content-range')).toBe(`bytes 0-9/${bytes.length}`);
    expect(range.bytes).toEqual(bytes.subarray(0, 10));
  });

  it('serves sizes too, and 404 for folders and missing files', async () => {
    const big = await upload(await png(400, 300), 'served-big.png');
    const thumb = await fetchFile(big.media_details.sizes.thumbnail.source_url);
    expect(thumb.status).toBe(200);
    expect((await sharp(thumb.bytes).metadata()).width).toBe(150);
    expect((await fetchFile(`${UPLOADS_URL}/${FOLDER}/`)).status).toBe(404);
    expect((await fetchFile(`${UPLOADS_URL}/${FOLDER}/no-such-file.png`)).status).toBe(404);
    expect((await fetchFile(`${UPLOADS_URL}/${FOLDER}/..%2F..%2Fetc%2Fpasswd`)).status).toBe(404);
  });
});

describe('update', () => {
  it('changes title, caption, description, alternative text and parent', async () => {
    const a = await upload(await png(10, 10), 'update-me.png');
    const post = await site.createPost({ title: 'New parent', status: 'publish' });
    const res = await site.req('POST', `/core/v2/media/${a.id}`, {
      as: 'administrator', json: { title: 'Updated', caption: 'New caption', description: 'New description', alt_text: 'New alt', post: post.id },
    });
    expect(res.status).toBe(200);
    expect(res.body.title.raw).toBe('Updated');
    expect(res.body.caption).toEqual({ raw: 'New caption', rendered: '<p>New caption</p>\n' });
    expect(res.body.description.raw).toBe('New description');
    expect(res.body.alt_text).toBe('New alt');
    expect(res.body.post).toBe(post.id);
    expect(res.body.source_url).toBe(a.source_url);
    const again = await get(a.id, '?context=edit');
    expect(again.body).toMatchObject({ title: { raw: 'Updated' }, alt_text: 'New alt', caption: { raw: 'New caption' }, post: post.id });
    // Alternative text changes alone, and clears.
    const alt = await site.req('PATCH', `/core/v2/media/${a.id}`, { as: 'administrator', json: { alt_text: 'Second alt' } });
    expect(alt.body.alt_text).toBe('Second alt');
    expect(alt.body.title.raw).toBe('Updated');
    const cleared = await site.req('PUT', `/core/v2/media/${a.id}`, { as: 'administrator', json: { alt_text: '' } });
    expect(cleared.body.alt_text).toBe('');
    // Detached with 0.
    const detached = await site.req('POST', `/core/v2/media/${a.id}`, { as: 'administrator', json: { post: 0 } });
    expect(detached.status).toBe(200);
    expect(detached.body.post).toBeNull();
  });

  it('refuses who may not edit it', async () => {
    const a = await upload(await png(10, 10), 'not-yours.png');
    expect(await site.req('POST', `/core/v2/media/${a.id}`, { as: 'author', json: { title: 'Mine' } })).toBeWpError(403, 'rest_cannot_edit');
    expect(await site.req('POST', `/core/v2/media/${a.id}`, { json: { title: 'Mine' } })).toBeWpError(401, 'rest_cannot_edit');
    expect(await site.req('POST', '/core/v2/media/987654', { as: 'administrator', json: { title: 'x' } })).toBeWpError(404, 'rest_post_invalid_id');
  });
});

describe('list', () => {
  let published: number;
  let draft: number;
  let free: any;
  let onPublished: any;
  let onDraft: any;
  let notes: any;
  let jpg: any;
  let all: number[];

  beforeAll(async () => {
    published = (await site.createPost({ title: 'Published parent', status: 'publish' })).id;
    draft = (await site.createPost({ title: 'Draft parent', status: 'draft' })).id;
    free = await upload(await png(10, 10), 'list-free.png', { query: 'title=Charlie' });
    onPublished = await upload(await png(10, 10), 'list-published.png', { query: `post=${published}&title=Alpha` });
    onDraft = await upload(await png(10, 10), 'list-draft.png', { query: `post=${draft}&title=Echo` });
    notes = await upload(Buffer.from('list notes\n'), 'list-notes.txt', { type: 'text/plain', query: 'title=Bravo' });
    jpg = await upload(await jpeg(10, 10), 'list-photo.jpg', { type: 'image/jpeg', query: 'title=Delta' });
    all = [free.id, onPublished.id, onDraft.id, notes.id, jpg.id];
  });

  const list = (query: string, as?: As) => site.req('GET', `/core/v2/media?include=${all.join(',')}&${query}`, { as });

  it('shows anonymous callers unattached media and media of published posts only', async () => {
    expect(ids(await list('orderby=id&order=asc')).sort()).toEqual([free.id, onPublished.id, notes.id, jpg.id].sort());
    expect(ids(await list('orderby=id&order=asc', 'administrator')).sort()).toEqual([...all].sort());
    expect(await site.req('GET', `/core/v2/media/${onDraft.id}`)).toBeWpError(401, 'rest_forbidden');
    expect((await site.req('GET', `/core/v2/media/${onPublished.id}`)).status).toBe(200);
  });

  it('filters by media type, MIME type and parent', async () => {
    const admin = 'administrator';
    expect(ids(await list('media_type=image', admin)).sort()).toEqual([free.id, onPublished.id, onDraft.id, jpg.id].sort());
    expect(ids(await list('media_type=text', admin))).toEqual([notes.id]);
    expect(ids(await list('mime_type=image/png', admin)).sort()).toEqual([free.id, onPublished.id, onDraft.id].sort());
    expect(ids(await list('mime_type=image/jpeg', admin))).toEqual([jpg.id]);
    expect(ids(await list(`parent=${published}`, admin))).toEqual([onPublished.id]);
    expect(ids(await list(`parent=${published},${draft}`, admin)).sort()).toEqual([onPublished.id, onDraft.id].sort());
    expect(ids(await list('parent=0', admin)).sort()).toEqual([free.id, notes.id, jpg.id].sort());
    expect(ids(await list(`parent_exclude=${published}`, admin)).sort()).toEqual([free.id, onDraft.id, notes.id, jpg.id].sort());
    expect(await list('media_type=spreadsheet', admin)).toBeWpError(400, 'rest_invalid_param');
  });

  it('lists status inherit by default; other statuses need the right to edit', async () => {
    expect(await list('status=private', 'subscriber')).toBeWpError(400, 'rest_invalid_param');
    expect(await list('status=private')).toBeWpError(400, 'rest_invalid_param');
    expect(ids(await list('status=private', 'administrator'))).toEqual([]);
    expect(ids(await list('status=inherit', 'administrator')).sort()).toEqual([...all].sort());
    expect(await list('status=publish', 'administrator')).toBeWpError(400, 'rest_invalid_param');
  });

  it('orders and pages as the posts do', async () => {
    const byTitle = await list('orderby=title&order=asc&per_page=2', 'administrator');
    expect(ids(byTitle)).toEqual([onPublished.id, notes.id]);
    expect(byTitle.headers.get('x-wp-total')).toBe('5');
    expect(byTitle.headers.get('x-wp-totalpages')).toBe('3');
    expect(ids(await list('orderby=title&order=asc&per_page=2&page=2', 'administrator'))).toEqual([free.id, jpg.id]);
    expect(ids(await list('orderby=title&order=asc&per_page=2&page=3', 'administrator'))).toEqual([onDraft.id]);
    expect(ids(await list('orderby=id&order=desc', 'administrator'))).toEqual([...all].sort((x, y) => y - x));
    expect(ids(await list('orderby=include', 'administrator'))).toEqual(all);
    expect(ids(await list('orderby=id&order=asc&offset=3', 'administrator'))).toEqual([...all].sort((x, y) => x - y).slice(3));
    expect(await list('orderby=title&per_page=2&page=4', 'administrator')).toBeWpError(400, 'rest_post_invalid_page_number');
  });

  it('searches titles as the posts do', async () => {
    expect(ids(await list('search=Delta', 'administrator'))).toEqual([jpg.id]);
    expect(ids(await list('search=Alpha'))).toEqual([onPublished.id]);
  });

  it('costs the same number of SQL statements whatever per_page is', async () => {
    // Media attached to several parents, the newest two among them, so both pages hold attached items.
    const parents = [await site.createPost({ title: 'Cost 1', status: 'publish' }), await site.createPost({ title: 'Cost 2', status: 'publish' }), await site.createPage({ title: 'Cost 3', status: 'publish' })];
    for (const [i, parent] of [parents[0], null, parents[1], null, parents[2], parents[0]].entries()) {
      await upload(await png(10, 10), `cost-${i}.png`, { query: parent ? `post=${parent.id}` : '' });
    }
    const cost = async (query: string, as?: As) => {
      if (site.app.cache) await site.createPost({ title: 'bust the cache', status: 'draft' });
      const before = site.db.statements;
      const res = await site.req('GET', `/core/v2/media?${query}`, { as });
      expect(res.status).toBe(200);
      return site.db.statements - before;
    };
    await cost('per_page=5');
    const two = await cost('per_page=2');
    const twenty = await cost('per_page=20');
    expect(two).toBe(twenty);
    expect(await cost('per_page=2&context=edit', 'administrator')).toBe(await cost('per_page=20&context=edit', 'administrator'));
  });
});

describe('delete', () => {
  it('has no trash: 501 without force, 403 for who may not delete it', async () => {
    const a = await upload(await png(10, 10), 'kept.png');
    expect(await site.req('DELETE', `/core/v2/media/${a.id}`, { as: 'administrator' })).toBeWpError(501, 'rest_trash_not_supported');
    expect(await site.req('DELETE', `/core/v2/media/${a.id}`, { as: 'author' })).toBeWpError(403, 'rest_cannot_delete');
    expect(await site.req('DELETE', `/core/v2/media/${a.id}?force=true`, { as: 'author' })).toBeWpError(403, 'rest_cannot_delete');
    expect(await site.req('DELETE', `/core/v2/media/${a.id}?force=true`)).toBeWpError(401, 'rest_cannot_delete');
    expect(await site.req('DELETE', '/core/v2/media/987654?force=true', { as: 'administrator' })).toBeWpError(404, 'rest_post_invalid_id');
    expect((await get(a.id)).status).toBe(200);
    expect(await exists(`${FOLDER}/kept.png`)).toBe(true);
  });

  it('deletes with force, with every file: original, -scaled and every size', async () => {
    const a = await upload(await jpeg(3000, 2000), 'doomed.jpg', { type: 'image/jpeg' });
    const mine = (await filesOnDisk()).filter((f) => f.startsWith(`${FOLDER}/doomed`));
    expect(mine.length).toBe(2 + 6);
    expect(mine).toEqual(expect.arrayContaining([`${FOLDER}/doomed.jpg`, `${FOLDER}/doomed-scaled.jpg`]));
    const res = await site.req('DELETE', `/core/v2/media/${a.id}?force=true`, { as: 'administrator' });
    expect(res.status).toBe(200);
    expect(res.body.deleted).toBe(true);
    expect(res.body.previous).toMatchObject({ id: a.id, source_url: a.source_url, title: { raw: 'doomed' }, media_details: a.media_details });
    expect((await filesOnDisk()).filter((f) => f.startsWith(`${FOLDER}/doomed`))).toEqual([]);
    expect(await get(a.id)).toBeWpError(404, 'rest_post_invalid_id');
    expect((await fetchFile(a.source_url)).status).toBe(404);
  });

  it('lets an author delete their own upload', async () => {
    const a = await upload(await png(200, 200), 'author-own.png', { as: 'author' });
    const res = await site.req('DELETE', `/core/v2/media/${a.id}?force=true`, { as: 'author' });
    expect(res.status).toBe(200);
    expect((await filesOnDisk()).filter((f) => f.startsWith(`${FOLDER}/author-own`))).toEqual([]);
  });
});

describe('featured media', () => {
  it('embeds the attachment of a post in embed context', async () => {
    const a = await upload(await png(300, 200), 'featured.png', { query: 'alt_text=Featured+alt' });
    const post = await site.createPost({ title: 'With an image', status: 'publish', featured_media: a.id });
    expect(post.featured_media).toBe(a.id);
    const res = await site.req('GET', `/core/v2/posts/${post.id}?_embed=wp:featuredmedia`);
    expect(res.status).toBe(200);
    const embedded = res.body._embedded['wp:featuredmedia'][0];
    expect(embedded.source_url).toBe(a.source_url);
    expect(embedded.id).toBe(a.id);
    expect(embedded.alt_text).toBe('Featured alt');
    expect(Object.keys(embedded).filter((k) => k !== '_links').sort()).toEqual([...EMBED_KEYS].sort());
    expect(res.body._links['wp:featuredmedia'][0].href).toBe(`${API}/core/v2/media/${a.id}`);
  });

  it('refuses an id that is not an attachment', async () => {
    const other = await site.createPost({ title: 'Not an image', status: 'publish' });
    const res = await site.req('POST', '/core/v2/posts', { as: 'administrator', json: { title: 'x', featured_media: other.id } });
    expect(res).toBeWpError(400, 'rest_invalid_featured_media');
  });
});

describe('post-process', () => {
  let a: any;
  beforeAll(async () => { a = await upload(await png(800, 600), 'process.png'); });
  const postProcess = (id: number, json: unknown, as: Caller = 'administrator') => site.req('POST', `/core/v2/media/${id}/post-process`, { as: as ?? undefined, json });

  it('makes the sub-sizes and answers the edit record', async () => {
    const res = await postProcess(a.id, { action: 'create-image-subsizes' });
    expect(res.status).toBe(200);
    expect(Object.keys(res.body).filter((k) => k !== '_links')).toEqual(EDIT_KEYS);
    expect(res.body.id).toBe(a.id);
    expect(Object.keys(res.body.media_details.sizes).sort()).toEqual(['full', 'medium', 'medium_large', 'thumbnail']);
    expect(res.body.missing_image_sizes).toEqual([]);
    for (const size of Object.values(res.body.media_details.sizes) as any[]) expect(await exists(keyOf(size.source_url))).toBe(true);
  });

  it('refuses a missing or unknown action, callers who may not edit it, and unknown ids', async () => {
    expect(await postProcess(a.id, {})).toBeWpError(400, 'rest_missing_callback_param');
    expect(await postProcess(a.id, { action: 'resize' })).toBeWpError(400, 'rest_invalid_param');
    expect(await postProcess(a.id, { action: 'create-image-subsizes' }, 'subscriber')).toBeWpError(403, 'rest_cannot_edit');
    expect(await postProcess(a.id, { action: 'create-image-subsizes' }, 'author')).toBeWpError(403, 'rest_cannot_edit');
    expect(await postProcess(a.id, { action: 'create-image-subsizes' }, null)).toBeWpError(401, 'rest_cannot_edit');
    expect(await postProcess(987654, { action: 'create-image-subsizes' })).toBeWpError(404, 'rest_post_invalid_id');
  });
});

describe('image edit', () => {
  let wide: any;
  let split: any;
  let pdf: any;
  beforeAll(async () => {
    wide = await upload(await png(400, 200), 'wide edit.png', { query: 'title=Wide+title&caption=Wide+caption&description=Wide+description&alt_text=Wide+alt' });
    split = await upload(await halves(400, 200), 'split.png');
    pdf = await upload(PDF, 'manual.pdf', { type: 'application/pdf' });
  });
  const edit = (id: number, json: Record<string, unknown>, as: Caller = 'administrator') => site.req('POST', `/core/v2/media/${id}/edit`, { as: as ?? undefined, json });
  const rotate90 = [{ type: 'rotate', args: { angle: 90 } }];

  it('saves the edit as a new attachment that copies the fields', async () => {
    const res = await edit(wide.id, { src: wide.source_url, modifiers: rotate90 });
    expect(res.status).toBe(201);
    const e = res.body;
    expect(e.id).not.toBe(wide.id);
    expect(res.headers.get('location')).toBe(`${API}/core/v2/media/${e.id}`);
    expect(e.media_details.file).toBe(`${FOLDER}/wide-edit-edited.png`);
    expect(e.source_url).toBe(`${UPLOADS_URL}/${FOLDER}/wide-edit-edited.png`);
    expect(e.title.raw).toBe('Wide title');
    expect(e.caption.raw).toBe('Wide caption');
    expect(e.description.raw).toBe('Wide description');
    expect(e.alt_text).toBe('Wide alt');
    expect(e.mime_type).toBe('image/png');
    expect([e.media_details.width, e.media_details.height]).toEqual([200, 400]);
    const meta = await imageOnDisk(`${FOLDER}/wide-edit-edited.png`);
    expect([meta.width, meta.height]).toEqual([200, 400]);
    expect(e.media_details.sizes.thumbnail).toMatchObject({ width: 150, height: 150 });
    // The original is untouched.
    const original = await get(wide.id, '?context=edit');
    expect([original.body.media_details.width, original.body.media_details.height]).toEqual([400, 200]);
    expect(original.body.source_url).toBe(wide.source_url);
  });

  it('takes a size URL as src, and fields of the request over the copies', async () => {
    const res = await edit(wide.id, { src: wide.media_details.sizes.thumbnail.source_url, modifiers: rotate90, title: 'Edited title' });
    expect(res.status).toBe(201);
    expect(res.body.title.raw).toBe('Edited title');
    expect(res.body.alt_text).toBe('Wide alt');
  });

  it('flips horizontally: the red left half goes right', async () => {
    expect(await pixel(keyOf(split.source_url), 10, 100)).toEqual([255, 0, 0]);
    const res = await edit(split.id, { src: split.source_url, modifiers: [{ type: 'flip', args: { flip: { horizontal: true, vertical: false } } }] });
    expect(res.status).toBe(201);
    const key = keyOf(res.body.source_url);
    expect([res.body.media_details.width, res.body.media_details.height]).toEqual([400, 200]);
    expect(await pixel(key, 10, 100)).toEqual([0, 0, 255]);
    expect(await pixel(key, 390, 100)).toEqual([255, 0, 0]);
  });

  it('crops by percentages: the right half of 400×200 is a 200×200 blue square', async () => {
    const res = await edit(split.id, { src: split.source_url, modifiers: [{ type: 'crop', args: { left: 50, top: 0, width: 50, height: 100 } }] });
    expect(res.status).toBe(201);
    const key = keyOf(res.body.source_url);
    const meta = await imageOnDisk(key);
    expect([meta.width, meta.height]).toEqual([200, 200]);
    expect(await pixel(key, 0, 0)).toEqual([0, 0, 255]);
    expect(await pixel(key, 199, 199)).toEqual([0, 0, 255]);
  });

  it('applies modifiers in order', async () => {
    // Rotated clockwise, the red left half is on top; flipped vertically, at the bottom.
    const res = await edit(split.id, { src: split.source_url, modifiers: [...rotate90, { type: 'flip', args: { flip: { horizontal: false, vertical: true } } }] });
    expect(res.status).toBe(201);
    const key = keyOf(res.body.source_url);
    expect([res.body.media_details.width, res.body.media_details.height]).toEqual([200, 400]);
    expect(await pixel(key, 100, 10)).toEqual([0, 0, 255]);
    expect(await pixel(key, 100, 390)).toEqual([255, 0, 0]);
  });

  it('takes the older rotation and x/y/width/height parameters', async () => {
    const rotated = await edit(wide.id, { src: wide.source_url, rotation: 90 });
    expect(rotated.status).toBe(201);
    expect([rotated.body.media_details.width, rotated.body.media_details.height]).toEqual([200, 400]);
    const cropped = await edit(split.id, { src: split.source_url, x: 0, y: 0, width: 50, height: 100 });
    expect(cropped.status).toBe(201);
    const key = keyOf(cropped.body.source_url);
    expect([cropped.body.media_details.width, cropped.body.media_details.height]).toEqual([200, 200]);
    expect(await pixel(key, 100, 100)).toEqual([255, 0, 0]);
  });

  it('refuses edits WordPress refuses, with its codes', async () => {
    const src = wide.source_url;
    expect(await edit(wide.id, { modifiers: rotate90 })).toBeWpError(400, 'rest_missing_callback_param');
    expect(await edit(wide.id, { src: split.source_url, modifiers: rotate90 })).toBeWpError(404, 'rest_unknown_attachment');
    expect(await edit(wide.id, { src: `${UPLOADS_URL}/${FOLDER}/elsewhere.png`, modifiers: rotate90 })).toBeWpError(404, 'rest_unknown_attachment');
    expect(await edit(wide.id, { src })).toBeWpError(400, 'rest_image_not_edited');
    expect(await edit(wide.id, { src, modifiers: [] })).toBeWpError(400, 'rest_invalid_param');
    expect(await edit(wide.id, { src, modifiers: [{ type: 'blur', args: { sigma: 2 } }] })).toBeWpError(400, 'rest_invalid_param');
    expect(await edit(wide.id, { src, modifiers: [{ type: 'rotate', args: {} }] })).toBeWpError(400, 'rest_invalid_param');
    expect(await edit(wide.id, { src, rotation: 0 })).toBeWpError(400, 'rest_invalid_param');
    expect(await edit(wide.id, { src, rotation: 360 })).toBeWpError(400, 'rest_invalid_param');
    expect(await edit(wide.id, { src, x: 101, y: 0, width: 10, height: 10 })).toBeWpError(400, 'rest_invalid_param');
    expect(await edit(987654, { src, modifiers: rotate90 })).toBeWpError(404, 'rest_post_invalid_id');
  });

  it('refuses to edit a file that is not an image: it has no image metadata (WordPress checks that before the type)', async () => {
    expect(await edit(pdf.id, { src: pdf.source_url, modifiers: rotate90 })).toBeWpError(404, 'rest_unknown_attachment');
  });

  it('needs the right to upload and to edit the image', async () => {
    const body = { src: wide.source_url, modifiers: rotate90 };
    expect(await edit(wide.id, body, 'subscriber')).toBeWpError(403, 'rest_cannot_edit_image');
    expect(await edit(wide.id, body, 'contributor')).toBeWpError(403, 'rest_cannot_edit_image');
    expect(await edit(wide.id, body, null)).toBeWpError(401, 'rest_cannot_edit_image');
    expect(await edit(wide.id, body, 'author')).toBeWpError(403, 'rest_cannot_edit');
    const own = await upload(await png(40, 20), 'author-edit.png', { as: 'author' });
    const res = await edit(own.id, { src: own.source_url, modifiers: rotate90 }, 'author');
    expect(res.status).toBe(201);
    expect(res.body.author).toBe(site.users.author.id);
    expect(res.body.media_details.file).toBe(`${FOLDER}/author-edit-edited.png`);
  });
});
