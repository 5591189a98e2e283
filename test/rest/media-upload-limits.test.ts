// Uploads over the real HTTP server: a body far over the limit is refused while it streams in,
// without the process holding it in memory and without leaving a file anywhere; a multipart body
// over the limit likewise; an ordinary upload goes through. Then the media library on S3-compatible
// storage (a local S3 server): files, sizes and their deletion in the bucket.
import { randomBytes } from 'node:crypto';
import { request as httpRequest, type IncomingHttpHeaders } from 'node:http';
import { mkdir, mkdtemp, readdir, rm, stat } from 'node:fs/promises';
import { createRequire } from 'node:module';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestSite, API, type TestSite, service } from '../helpers/app.js';

// s3rver ships CommonJS without type declarations; only the two methods used here are typed.
interface S3rverServer {
  run(): Promise<{ address: string; port: number }>;
  close(): Promise<void>;
}
type S3rverClass = new (options: Record<string, unknown>) => S3rverServer;
const S3rver = createRequire(import.meta.url)('s3rver') as S3rverClass;

const MB = 1024 * 1024;
const LIMIT = 5 * MB;
/** Where uploads wait while they stream in (gateway/upload.ts). */
const SPOOL_DIR = join(tmpdir(), 'content-service-uploads');

/** Every file under a directory, relative to it (none when it does not exist). */
async function filesUnder(root: string): Promise<string[]> {
  const out: string[] = [];
  async function walk(dir: string) {
    let entries;
    try { entries = await readdir(dir, { withFileTypes: true }); } catch { return; }
    for (const entry of entries) {
      const path = join(dir, entry.name);
      if (entry.isDirectory()) await walk(path);
      else out.push(relative(root, path));
    }
  }
  await walk(root);
  return out.sort();
}

/**
 * Spool files that appeared since `before` and are still there. Other test files may upload at the
 * same time; their files live for the length of a request, so a file that stays is waited for a
 * little before it counts.
 */
async function spoolLeftovers(before: Set<string>): Promise<string[]> {
  let left: string[] = [];
  for (let i = 0; i < 20; i++) {
    left = (await filesUnder(SPOOL_DIR)).filter((f) => !before.has(f));
    if (!left.length) return left;
    await new Promise((r) => setTimeout(r, 100));
  }
  return left;
}

interface Answer { status: number; headers: IncomingHttpHeaders; body: any; text: string; sentBytes: number; requestError?: string }

/**
 * Sends a request whose body is written chunk by chunk (waiting for the socket to drain) until
 * the chunks run out or the answer arrives, whichever is first. The server may close the
 * connection once it has answered; an error on the sending side after that is expected.
 */
function stream(port: number, path: string, headers: Record<string, string>, chunks: () => Iterator<Buffer>, waitMs = 15_000): Promise<Answer> {
  return new Promise((resolve, reject) => {
    let answered = false;
    let sentBytes = 0;
    let requestError: string | undefined;
    const req = httpRequest({ host: '127.0.0.1', port, path, method: 'POST', headers });
    const timer = setTimeout(() => {
      if (answered) return;
      answered = true;
      req.destroy();
      reject(new Error(`no answer within ${waitMs} ms (${sentBytes} bytes sent)`));
    }, waitMs);
    req.on('response', (res) => {
      answered = true;
      clearTimeout(timer);
      const parts: Buffer[] = [];
      res.on('data', (c: Buffer) => parts.push(c));
      res.on('error', () => undefined);
      res.on('close', () => {
        const text = Buffer.concat(parts).toString('utf8');
        let body: unknown = text;
        try { body = JSON.parse(text); } catch { /* not JSON */ }
        resolve({ status: res.statusCode ?? 0, headers: res.headers, body, text, sentBytes, requestError });
      });
    });
    req.on('error', (err: NodeJS.ErrnoException) => {
      requestError = err.code ?? err.message;
      if (answered) return;
      // The answer may still be on its way when the write side breaks; give it a moment.
      setTimeout(() => {
        if (answered) return;
        answered = true;
        clearTimeout(timer);
        reject(new Error(`no answer; request failed with ${requestError} after ${sentBytes} bytes`));
      }, 1000);
    });
    const it = chunks();
    const pump = () => {
      while (!answered && !req.destroyed) {
        const next = it.next();
        if (next.done) { req.end(); return; }
        sentBytes += next.value.length;
        if (!req.write(next.value)) { req.once('drain', pump); return; }
      }
    };
    pump();
  });
}

/** `total` bytes as chunks of one reused 64 KB buffer of zeros (the sender holds no more than that). */
function* zeros(total: number): Iterator<Buffer> {
  const chunk = Buffer.alloc(64 * 1024);
  for (let sent = 0; sent < total; sent += chunk.length) yield total - sent >= chunk.length ? chunk : chunk.subarray(0, total - sent);
}

function* concat(...parts: Iterator<Buffer>[]): Iterator<Buffer> {
  for (const part of parts) for (let next = part.next(); !next.done; next = part.next()) yield next.value;
}

function* once(buffer: Buffer): Iterator<Buffer> { yield buffer; }

/** Samples the process's resident memory until stopped; returns the largest value seen. */
function sampleRss(): { stop(): number } {
  let peak = process.memoryUsage().rss;
  const timer = setInterval(() => { peak = Math.max(peak, process.memoryUsage().rss); }, 10);
  return { stop() { clearInterval(timer); return Math.max(peak, process.memoryUsage().rss); } };
}

describe('uploads over HTTP with a 5 MB limit', () => {
  let site: TestSite;
  let uploadsDir: string;
  let server: ReturnType<typeof service.createHttpServer>;
  let port: number;
  let auth: string;

  beforeAll(async () => {
    uploadsDir = await mkdtemp(join(tmpdir(), 'media-limits-'));
    site = await createTestSite({ uploadsDir, uploadMaxBytes: LIMIT });
    auth = site.users.administrator.auth;
    server = service.createHttpServer(site.app);
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    port = (server.address() as AddressInfo).port;
    await mkdir(SPOOL_DIR, { recursive: true });
  });
  afterAll(async () => {
    if (server) await new Promise((resolve) => { server.closeAllConnections(); server.close(resolve); });
    await site?.close();
    if (uploadsDir) await rm(uploadsDir, { recursive: true, force: true });
  });

  it('refuses a 60 MB raw body as it streams in, without holding it in memory or leaving a file', async () => {
    // Once through the same path first, so one-time costs (modules, caches, connections) are paid.
    const warmUp = await stream(port, '/wp-json/core/v2/media', {
      authorization: auth, 'content-type': 'image/png', 'content-disposition': 'attachment; filename="warm.png"',
    }, () => zeros(LIMIT + MB));
    expect(warmUp).toBeWpError(400, 'rest_upload_file_too_big');
    const spoolBefore = new Set(await filesUnder(SPOOL_DIR));
    const rssBefore = process.memoryUsage().rss;
    const rss = sampleRss();
    const res = await stream(port, '/wp-json/core/v2/media', {
      authorization: auth, 'content-type': 'image/png', 'content-disposition': 'attachment; filename="big.png"',
      'content-length': String(60 * MB),
    }, () => zeros(60 * MB));
    const grown = rss.stop() - rssBefore;
    expect(res).toBeWpError(400, 'rest_upload_file_too_big');
    expect(res.body.message).toBe('This file is too big. Files must be less than 5120 KB in size.');
    expect(grown, `resident memory grew by ${Math.round(grown / MB)} MB`).toBeLessThan(40 * MB);
    // Refused while streaming: far from all of the 60 MB was sent.
    expect(res.sentBytes).toBeLessThan(60 * MB);
    expect(await filesUnder(uploadsDir)).toEqual([]);
    expect(await spoolLeftovers(spoolBefore)).toEqual([]);
  }, 60_000);

  it('refuses a chunked raw body over the limit too', async () => {
    const spoolBefore = new Set(await filesUnder(SPOOL_DIR));
    const res = await stream(port, '/wp-json/core/v2/media', {
      authorization: auth, 'content-type': 'text/plain', 'content-disposition': 'attachment; filename="big.txt"',
    }, () => zeros(LIMIT + 64 * 1024));
    expect(res).toBeWpError(400, 'rest_upload_file_too_big');
    expect(await filesUnder(uploadsDir)).toEqual([]);
    expect(await spoolLeftovers(spoolBefore)).toEqual([]);
  }, 60_000);

  it('refuses a multipart body whose file is over the limit, leaving no file', async () => {
    const spoolBefore = new Set(await filesUnder(SPOOL_DIR));
    const boundary = `----media-test-${randomBytes(8).toString('hex')}`;
    const head = Buffer.from(
      `--${boundary}\r\nContent-Disposition: form-data; name="title"\r\n\r\nToo big\r\n`
      + `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="big.txt"\r\nContent-Type: text/plain\r\n\r\n`,
    );
    const tail = Buffer.from(`\r\n--${boundary}--\r\n`);
    const res = await stream(port, '/wp-json/core/v2/media', {
      authorization: auth, 'content-type': `multipart/form-data; boundary=${boundary}`,
    }, () => concat(once(head), zeros(20 * MB), once(tail)));
    expect(res).toBeWpError(400, 'rest_upload_file_too_big');
    expect(await filesUnder(uploadsDir)).toEqual([]);
    expect(await spoolLeftovers(spoolBefore)).toEqual([]);
  }, 60_000);

  it('refuses callers without upload_files before reading the body', async () => {
    const res = await stream(port, '/wp-json/core/v2/media', {
      authorization: site.users.contributor.auth, 'content-type': 'image/png', 'content-disposition': 'attachment; filename="big.png"',
      'content-length': String(60 * MB),
    }, () => zeros(60 * MB));
    expect(res).toBeWpError(403, 'rest_cannot_create');
    expect(res.sentBytes).toBeLessThan(60 * MB);
    const anonymous = await stream(port, '/wp-json/core/v2/media', { 'content-type': 'image/png', 'content-disposition': 'attachment; filename="a.png"' }, () => zeros(MB));
    expect(anonymous).toBeWpError(401, 'rest_cannot_create');
    expect(await filesUnder(uploadsDir)).toEqual([]);
  }, 60_000);

  it('accepts an ordinary 1 MB image, and the server keeps answering', async () => {
    // Noise does not compress: the PNG is about as large as its pixels.
    const bytes = await sharp(randomBytes(640 * 600 * 3), { raw: { width: 640, height: 600, channels: 3 } }).png({ compressionLevel: 0 }).toBuffer();
    expect(bytes.length).toBeGreaterThan(MB);
    expect(bytes.length).toBeLessThan(LIMIT);
    const res = await stream(port, '/wp-json/core/v2/media?title=Over+HTTP', {
      authorization: auth, 'content-type': 'image/png', 'content-disposition': 'attachment; filename="noise.png"', 'content-length': String(bytes.length),
    }, () => once(bytes));
    expect(res.status, res.text.slice(0, 2000)).toBe(201);
    expect(res.headers.location).toBe(`${API}/core/v2/media/${res.body.id}`);
    expect(res.body.title.raw).toBe('Over HTTP');
    expect(res.body.media_details).toMatchObject({ width: 640, height: 600, filesize: bytes.length });
    const key = res.body.media_details.file as string;
    expect((await stat(join(uploadsDir, ...key.split('/')))).size).toBe(bytes.length);
    // The file, its thumbnail (150×150) and its medium size (300×281).
    expect((await filesUnder(uploadsDir)).length).toBe(3);
    const served = await fetch(`http://127.0.0.1:${port}/wp-content/uploads/${key}`);
    expect(served.status).toBe(200);
    // Compared as a whole: a deep equality over a megabyte of elements is slow.
    expect(Buffer.from(await served.arrayBuffer()).equals(bytes)).toBe(true);
  }, 60_000);
});

describe('media on S3-compatible storage', () => {
  let s3: S3rverServer;
  let s3Dir: string;
  let uploadsDir: string;
  let site: TestSite;
  let publicUrl: string;

  beforeAll(async () => {
    s3Dir = await mkdtemp(join(tmpdir(), 'media-s3-'));
    uploadsDir = await mkdtemp(join(tmpdir(), 'media-s3-local-'));
    s3 = new S3rver({ port: 0, address: '127.0.0.1', silent: true, directory: s3Dir, configureBuckets: [{ name: 'media' }] });
    const { port } = await s3.run();
    publicUrl = `http://127.0.0.1:${port}/media`;
    site = await createTestSite({
      uploadsDir,
      uploadsS3: {
        bucket: 'media', endpoint: `http://127.0.0.1:${port}`, region: 'us-east-1', accessKeyId: 'S3RVER', secretAccessKey: 'S3RVER', forcePathStyle: true, publicUrl,
      },
    });
  });
  afterAll(async () => {
    await site?.close();
    await s3?.close();
    for (const dir of [s3Dir, uploadsDir]) if (dir) await rm(dir, { recursive: true, force: true });
  });

  it('stores the file and its sizes in the bucket, serves them from the public URL, and deletes them all', async () => {
    const bytes = await sharp({ create: { width: 800, height: 500, channels: 3, background: '#2266aa' } }).png().toBuffer();
    const res = await site.req('POST', '/core/v2/media', {
      as: 'administrator', body: bytes, headers: { 'content-type': 'image/png', 'content-disposition': 'attachment; filename="In The Bucket.png"' },
    });
    expect(res.status, res.text.slice(0, 2000)).toBe(201);
    const a = res.body;
    const folder = a.media_details.file.replace(/[^/]+$/, '');
    expect(folder).toMatch(/^\d{4}\/\d{2}\/$/);
    expect(a.source_url).toBe(`${publicUrl}/${folder}In-The-Bucket.png`);
    const sizes = Object.values(a.media_details.sizes) as { source_url: string; width: number; height: number }[];
    expect(Object.keys(a.media_details.sizes).sort()).toEqual(['full', 'medium', 'medium_large', 'thumbnail']);
    const original = await fetch(a.source_url);
    expect(original.status).toBe(200);
    expect(Buffer.from(await original.arrayBuffer())).toEqual(bytes);
    for (const size of sizes) {
      expect(size.source_url.startsWith(`${publicUrl}/${folder}`), size.source_url).toBe(true);
      const got = await fetch(size.source_url);
      expect(got.status, size.source_url).toBe(200);
      const meta = await sharp(Buffer.from(await got.arrayBuffer())).metadata();
      expect([meta.format, meta.width, meta.height], size.source_url).toEqual(['png', size.width, size.height]);
    }
    // Nothing went to the local directory.
    expect(await filesUnder(uploadsDir)).toEqual([]);

    const deleted = await site.req('DELETE', `/core/v2/media/${a.id}?force=true`, { as: 'administrator' });
    expect(deleted.status).toBe(200);
    expect(deleted.body.deleted).toBe(true);
    for (const size of sizes) expect((await fetch(size.source_url)).status, size.source_url).toBe(404);
    expect(await site.req('GET', `/core/v2/media/${a.id}`)).toBeWpError(404, 'rest_post_invalid_id');
  });

  it('edits an image in the bucket into a new object', async () => {
    const bytes = await sharp({ create: { width: 300, height: 100, channels: 3, background: '#aa2266' } }).png().toBuffer();
    const up = await site.req('POST', '/core/v2/media', {
      as: 'administrator', body: bytes, headers: { 'content-type': 'image/png', 'content-disposition': 'attachment; filename="turn.png"' },
    });
    expect(up.status).toBe(201);
    const res = await site.req('POST', `/core/v2/media/${up.body.id}/edit`, { as: 'administrator', json: { src: up.body.source_url, modifiers: [{ type: 'rotate', args: { angle: 90 } }] } });
    expect(res.status, res.text.slice(0, 2000)).toBe(201);
    expect(res.body.source_url).toMatch(new RegExp(`^${publicUrl.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}/\\d{4}/\\d{2}/turn-edited\\.png$`));
    const got = await fetch(res.body.source_url);
    expect(got.status).toBe(200);
    const meta = await sharp(Buffer.from(await got.arrayBuffer())).metadata();
    expect([meta.width, meta.height]).toEqual([100, 300]);
  });
});
