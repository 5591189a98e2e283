import { mkdtemp, readdir, rm, writeFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { serveStored } from '../../src/media/serve.js';
import {
  createStorage,
  InvalidKeyError,
  isValidKey,
  monthFolder,
  sanitizeFileName,
  uniqueKey,
  type Storage,
} from '../../src/media/storage.js';
import { s3ConfigFromEnv } from '../../src/config.js';

// s3rver ships CommonJS without type declarations; only the two methods used here are typed.
interface S3rverServer {
  run(): Promise<{ address: string; port: number }>;
  close(): Promise<void>;
}
type S3rverClass = new (options: Record<string, unknown>) => S3rverServer;
const S3rver = createRequire(import.meta.url)('s3rver') as S3rverClass;

const SITE = 'https://example.test';
/** 256 distinct bytes, so any slice read back shows where it came from. */
const BYTES = Buffer.from(Array.from({ length: 256 }, (_, i) => i));

async function bytesOf(stream: NodeJS.ReadableStream | null): Promise<Buffer> {
  if (!stream) throw new Error('no body');
  const chunks: Buffer[] = [];
  for await (const chunk of stream as AsyncIterable<Buffer | string>) chunks.push(Buffer.from(chunk));
  return Buffer.concat(chunks);
}

describe('sanitizeFileName', () => {
  it.each([
    ['My Photo (1).JPG', 'My-Photo-1.JPG'],
    ['../../etc/passwd', 'passwd'],
    ['C:\\Users\\me\\shot.png', 'shot.png'],
    ['café.png', 'cafe.png'],
    ['Cre\u0300me bru\u0302le\u0301e.jpg', 'Creme-brulee.jpg'],
    ['  .hidden ', 'hidden'],
    ['a??b.png', 'ab.png'],
    ['', 'unnamed-file'],
    ['..', 'unnamed-file'],
    ['#$%&.', 'unnamed-file'],
    ['.jpg', 'unnamed-file.jpg'],
    ['a  b\t\tc.txt', 'a-b-c.txt'],
    ['a\u00a0b.txt', 'a-b.txt'],
    ['a - - b.txt', 'a-b.txt'],
    ['a...b..png', 'a.b.png'],
    ['“quoted” «name».gif', 'quoted-name.gif'],
    ['x\u0000y\u0007z.png', 'xyz.png'],
    ['photo\u202egpj.exe', 'photogpj.exe'],
    ['shell.php.jpg', 'shell.php_.jpg'],
    ['archive.tar.gz', 'archive.tar.gz'],
    ['CamelCase.PNG', 'CamelCase.PNG'],
  ])('%j → %j', (input, expected) => {
    expect(sanitizeFileName(input)).toBe(expected);
  });

  it('caps very long names and keeps the extension', () => {
    const out = sanitizeFileName('a'.repeat(400) + '.jpeg');
    expect(out.endsWith('.jpeg')).toBe(true);
    expect(Buffer.byteLength(out)).toBeLessThanOrEqual(200);
    const multiByte = sanitizeFileName('日'.repeat(200) + '.png');
    expect(Buffer.byteLength(multiByte)).toBeLessThanOrEqual(200);
    expect(multiByte).toMatch(/^日+\.png$/);
  });
});

describe('monthFolder', () => {
  it('is YYYY/MM in UTC', () => {
    expect(monthFolder(new Date('2026-11-05T12:00:00Z'))).toBe('2026/11');
    expect(monthFolder(new Date('2026-01-31T23:30:00-05:00'))).toBe('2026/02');
  });
});

describe('s3ConfigFromEnv', () => {
  it('is undefined without a bucket', () => {
    expect(s3ConfigFromEnv({})).toBeUndefined();
    expect(s3ConfigFromEnv({ UPLOADS_S3_ENDPOINT: 'http://minio:9000' })).toBeUndefined();
  });

  it('defaults to AWS virtual-host style without an endpoint', () => {
    expect(s3ConfigFromEnv({ UPLOADS_S3_BUCKET: 'media' })).toEqual({
      bucket: 'media',
      endpoint: undefined,
      region: 'us-east-1',
      accessKeyId: undefined,
      secretAccessKey: undefined,
      forcePathStyle: false,
      publicUrl: 'https://media.s3.us-east-1.amazonaws.com',
    });
  });

  it('defaults to path style and an endpoint URL with an endpoint', () => {
    const s3 = s3ConfigFromEnv({
      UPLOADS_S3_BUCKET: 'media',
      UPLOADS_S3_ENDPOINT: 'http://minio:9000/',
      UPLOADS_S3_REGION: 'eu-west-1',
      UPLOADS_S3_ACCESS_KEY_ID: 'id',
      UPLOADS_S3_SECRET_ACCESS_KEY: 'secret',
    });
    expect(s3).toMatchObject({
      endpoint: 'http://minio:9000',
      region: 'eu-west-1',
      accessKeyId: 'id',
      secretAccessKey: 'secret',
      forcePathStyle: true,
      publicUrl: 'http://minio:9000/media',
    });
  });

  it('honours explicit path style and public URL', () => {
    const s3 = s3ConfigFromEnv({
      UPLOADS_S3_BUCKET: 'media',
      UPLOADS_S3_ENDPOINT: 'https://acct.r2.cloudflarestorage.com',
      UPLOADS_S3_FORCE_PATH_STYLE: 'false',
      UPLOADS_S3_PUBLIC_URL: 'https://cdn.example.test/',
    });
    expect(s3?.forcePathStyle).toBe(false);
    expect(s3?.publicUrl).toBe('https://cdn.example.test');
    expect(s3ConfigFromEnv({ UPLOADS_S3_BUCKET: 'm', UPLOADS_S3_FORCE_PATH_STYLE: '1' })?.forcePathStyle).toBe(true);
  });
});

describe('isValidKey', () => {
  it.each(['2026/11/photo.jpg', 'a.txt', 'dir/sub/x-1.png'])('accepts %j', (key) => {
    expect(isValidKey(key)).toBe(true);
  });
  it.each(['', '../x', 'a/../../x', '/abs', 'a\\b', 'a//b', 'a/./b', 'dir/', 'x\u0000y', '.htaccess', '2026/.tmp-1'])(
    'refuses %j',
    (key) => {
      expect(isValidKey(key)).toBe(false);
    },
  );
});

// ---------------------------------------------------------------------------
// Both implementations, one contract
// ---------------------------------------------------------------------------

interface Backend {
  storage: Storage;
  expectedUrl: (key: string) => string;
  close: () => Promise<void>;
}

const backends: Record<'local' | 's3', () => Promise<Backend>> = {
  async local() {
    const dir = await mkdtemp(join(tmpdir(), 'storage-local-'));
    return {
      storage: createStorage({ siteUrl: SITE, uploadsDir: dir }),
      expectedUrl: (key) => `${SITE}/wp-content/uploads/${key}`,
      close: () => rm(dir, { recursive: true, force: true }),
    };
  },
  async s3() {
    const dir = await mkdtemp(join(tmpdir(), 'storage-s3rver-'));
    const server = new S3rver({
      port: 0,
      address: '127.0.0.1',
      silent: true,
      directory: dir,
      configureBuckets: [{ name: 'bucket' }],
    });
    const { port } = await server.run();
    const endpoint = `http://127.0.0.1:${port}`;
    return {
      storage: createStorage({
        siteUrl: SITE,
        uploadsDir: dir,
        s3: {
          bucket: 'bucket',
          endpoint,
          region: 'us-east-1',
          // s3rver's built-in credentials.
          accessKeyId: 'S3RVER',
          secretAccessKey: 'S3RVER',
          forcePathStyle: true,
          publicUrl: `${endpoint}/bucket`,
        },
      }),
      expectedUrl: (key) => `${endpoint}/bucket/${key}`,
      close: async () => {
        await server.close();
        await rm(dir, { recursive: true, force: true });
      },
    };
  },
};

describe.each(['local', 's3'] as const)('%s storage', (kind) => {
  let backend: Backend;
  let storage: Storage;
  let scratch: string;

  beforeAll(async () => {
    backend = await backends[kind]();
    storage = backend.storage;
    scratch = await mkdtemp(join(tmpdir(), 'storage-src-'));
  });
  afterAll(async () => {
    await backend?.close();
    if (scratch) await rm(scratch, { recursive: true, force: true });
  });

  it('is the kind configured', () => {
    expect(storage.kind).toBe(kind);
  });

  it('puts from a Buffer; head and read give the bytes back', async () => {
    const before = Date.now();
    await storage.put('2026/11/bytes.png', BYTES, 'image/png');

    const info = await storage.head('2026/11/bytes.png');
    expect(info).not.toBeNull();
    expect(info!.size).toBe(256);
    expect(info!.etag).toMatch(/^"[^"]+"$/);
    expect(info!.contentType).toBe('image/png');
    expect(info!.lastModified).toBeInstanceOf(Date);
    // Whole seconds on S3; a little slack for clocks.
    expect(info!.lastModified.getTime()).toBeGreaterThan(before - 5_000);

    const whole = await storage.read('2026/11/bytes.png');
    expect(whole).not.toBeNull();
    expect(whole!.size).toBe(256);
    expect(whole!.etag).toBe(info!.etag);
    expect(await bytesOf(whole!.stream)).toEqual(BYTES);
  });

  it('reads an inclusive range and still reports the whole size', async () => {
    await storage.put('range/r.bin', BYTES, 'application/octet-stream');
    const part = await storage.read('range/r.bin', { start: 10, end: 19 });
    expect(part!.size).toBe(256);
    expect(await bytesOf(part!.stream)).toEqual(BYTES.subarray(10, 20));

    const tail = await storage.read('range/r.bin', { start: 250, end: 1000 });
    expect(await bytesOf(tail!.stream)).toEqual(BYTES.subarray(250));
  });

  it('puts from a file path', async () => {
    const big = Buffer.alloc(300_000);
    for (let i = 0; i < big.length; i++) big[i] = (i * 7) % 251;
    const src = join(scratch, 'upload.bin');
    await writeFile(src, big);

    await storage.put('2026/11/from-path.pdf', { path: src }, 'application/pdf');
    const info = await storage.head('2026/11/from-path.pdf');
    expect(info!.size).toBe(big.length);
    expect(info!.contentType).toBe('application/pdf');
    expect(await bytesOf((await storage.read('2026/11/from-path.pdf'))!.stream)).toEqual(big);
  });

  it('overwrites', async () => {
    await storage.put('over/w.txt', Buffer.from('first version'), 'text/plain');
    await storage.put('over/w.txt', Buffer.from('second'), 'text/plain');
    expect((await storage.head('over/w.txt'))!.size).toBe(6);
    expect((await bytesOf((await storage.read('over/w.txt'))!.stream)).toString()).toBe('second');
  });

  it('answers null for missing objects and reports existence', async () => {
    expect(await storage.head('nope/missing.jpg')).toBeNull();
    expect(await storage.read('nope/missing.jpg')).toBeNull();
    expect(await storage.read('nope/missing.jpg', { start: 0, end: 9 })).toBeNull();
    expect(await storage.exists('nope/missing.jpg')).toBe(false);
    await storage.put('yes/here.jpg', Buffer.from('x'), 'image/jpeg');
    expect(await storage.exists('yes/here.jpg')).toBe(true);
  });

  it('deletes, and missing keys are not an error', async () => {
    await storage.put('del/a.txt', Buffer.from('a'), 'text/plain');
    await storage.put('del/b.txt', Buffer.from('b'), 'text/plain');
    await storage.put('del/keep.txt', Buffer.from('k'), 'text/plain');

    await storage.delete(['del/a.txt', 'del/b.txt', 'del/never-was.txt']);
    expect(await storage.exists('del/a.txt')).toBe(false);
    expect(await storage.exists('del/b.txt')).toBe(false);
    expect(await storage.head('del/a.txt')).toBeNull();
    expect(await storage.exists('del/keep.txt')).toBe(true);

    await storage.delete(['del/a.txt']);
    await storage.delete([]);
    expect(await storage.exists('del/keep.txt')).toBe(true);
  });

  it('deletes more keys than one batch holds', async () => {
    // Real objects at both ends of 1001 keys: one in the first batch of 1000, one in the second.
    const keys = Array.from({ length: 1001 }, (_, i) => `batch/k${i}.txt`);
    await storage.put(keys[0], Buffer.from('first'), 'text/plain');
    await storage.put(keys[1000], Buffer.from('last'), 'text/plain');
    await storage.delete(keys);
    expect(await storage.exists(keys[0])).toBe(false);
    expect(await storage.exists(keys[1000])).toBe(false);
  });

  it('builds public URLs', () => {
    expect(storage.url('2026/11/photo.jpg')).toBe(backend.expectedUrl('2026/11/photo.jpg'));
    // Non-ASCII names still make valid URLs.
    expect(storage.url('2026/11/日.png')).toBe(backend.expectedUrl('2026/11/%E6%97%A5.png'));
  });

  it('refuses keys that escape or are malformed', async () => {
    for (const bad of ['../x', '/abs', 'a\\b', 'a/../../x', '']) {
      await expect(storage.put(bad, Buffer.from('x'), 'text/plain')).rejects.toBeInstanceOf(InvalidKeyError);
      await expect(storage.head(bad)).rejects.toBeInstanceOf(InvalidKeyError);
    }
  });

  describe('uniqueKey', () => {
    it('numbers taken names as WordPress does', async () => {
      expect(await uniqueKey(storage, '2030/01', 'name.jpg')).toBe('2030/01/name.jpg');
      await storage.put('2030/01/name.jpg', Buffer.from('1'), 'image/jpeg');
      expect(await uniqueKey(storage, '2030/01', 'name.jpg')).toBe('2030/01/name-1.jpg');
      await storage.put('2030/01/name-1.jpg', Buffer.from('2'), 'image/jpeg');
      expect(await uniqueKey(storage, '2030/01', 'name.jpg')).toBe('2030/01/name-2.jpg');
      // Another folder is another namespace.
      expect(await uniqueKey(storage, '2030/02', 'name.jpg')).toBe('2030/02/name.jpg');
    });

    it('respects the reserved check', async () => {
      const asked: string[] = [];
      const reserved = (key: string) => {
        asked.push(key);
        return key === '2031/01/pic.png' || key === '2031/01/pic-1.png';
      };
      expect(await uniqueKey(storage, '2031/01', 'pic.png', reserved)).toBe('2031/01/pic-2.png');
      expect(asked).toEqual(['2031/01/pic.png', '2031/01/pic-1.png', '2031/01/pic-2.png']);
    });

    it('numbers names without an extension', async () => {
      await storage.put('2032/01/README', Buffer.from('r'), 'text/plain');
      expect(await uniqueKey(storage, '2032/01', 'README')).toBe('2032/01/README-1');
    });
  });

  describe('serveStored', () => {
    const KEY = 'serve/pic.png';
    let etag: string;
    let lastModified: string;

    beforeAll(async () => {
      await storage.put(KEY, BYTES, 'image/png');
      await storage.put('serve/dir/inside.txt', Buffer.from('inside'), 'text/plain');
    });

    const get = (key: string, headers: Record<string, string> = {}, method = 'GET') =>
      serveStored(storage, key, method, new Headers(headers));

    it('answers 200 with the full headers and bytes', async () => {
      const res = await get(KEY);
      expect(res.status).toBe(200);
      expect(res.headers['Content-Type']).toBe('image/png');
      expect(res.headers['Content-Length']).toBe('256');
      expect(res.headers['Accept-Ranges']).toBe('bytes');
      expect(res.headers['Cache-Control']).toBe('public, max-age=31536000');
      expect(res.headers['X-Content-Type-Options']).toBe('nosniff');
      expect(res.headers['ETag']).toMatch(/^"[^"]+"$/);
      expect(new Date(res.headers['Last-Modified']).toUTCString()).toBe(res.headers['Last-Modified']);
      expect(await bytesOf(res.body)).toEqual(BYTES);
      etag = res.headers['ETag'];
      lastModified = res.headers['Last-Modified'];
    });

    it('answers 304 for a matching If-None-Match, 200 otherwise', async () => {
      const hit = await get(KEY, { 'If-None-Match': `"other", ${etag}` });
      expect(hit.status).toBe(304);
      expect(hit.body).toBeNull();
      expect(hit.headers['ETag']).toBe(etag);
      // Weak comparison: a W/ form of the same tag matches too.
      expect((await get(KEY, { 'If-None-Match': `W/${etag}` })).status).toBe(304);
      expect((await get(KEY, { 'If-None-Match': '*' })).status).toBe(304);

      const miss = await get(KEY, { 'If-None-Match': '"something-else"' });
      expect(miss.status).toBe(200);
      expect(await bytesOf(miss.body)).toEqual(BYTES);
    });

    it('answers 304 for If-Modified-Since not older than Last-Modified', async () => {
      expect((await get(KEY, { 'If-Modified-Since': lastModified })).status).toBe(304);
      const later = new Date(Date.parse(lastModified) + 60_000).toUTCString();
      expect((await get(KEY, { 'If-Modified-Since': later })).status).toBe(304);
      const earlier = new Date(Date.parse(lastModified) - 60_000).toUTCString();
      const res = await get(KEY, { 'If-Modified-Since': earlier });
      expect(res.status).toBe(200);
      await bytesOf(res.body);
      // If-None-Match wins over If-Modified-Since.
      const both = await get(KEY, { 'If-None-Match': '"nope"', 'If-Modified-Since': later });
      expect(both.status).toBe(200);
      await bytesOf(both.body);
    });

    it.each([
      ['bytes=0-99', 0, 99],
      ['bytes=100-', 100, 255],
      ['bytes=-50', 206, 255],
      ['bytes=250-9999', 250, 255],
      ['bytes=-1000', 0, 255],
    ])('answers 206 for %s', async (range, start, end) => {
      const res = await get(KEY, { Range: range });
      expect(res.status).toBe(206);
      expect(res.headers['Content-Range']).toBe(`bytes ${start}-${end}/256`);
      expect(res.headers['Content-Length']).toBe(String(end - start + 1));
      expect(res.headers['Content-Type']).toBe('image/png');
      expect(await bytesOf(res.body)).toEqual(BYTES.subarray(start, end + 1));
    });

    it.each(['bytes=256-', 'bytes=1000-2000', 'bytes=-0'])('answers 416 for %s', async (range) => {
      const res = await get(KEY, { Range: range });
      expect(res.status).toBe(416);
      expect(res.headers['Content-Range']).toBe('bytes */256');
      expect(res.body).toBeNull();
    });

    it.each(['bytes=0-9,20-29', 'items=0-9', 'bytes=9-0', 'bytes=abc'])('answers the whole file for %s', async (range) => {
      const res = await get(KEY, { Range: range });
      expect(res.status).toBe(200);
      expect(res.headers['Content-Range']).toBeUndefined();
      expect(await bytesOf(res.body)).toEqual(BYTES);
    });

    it('honours If-Range', async () => {
      const fresh = await get(KEY, { Range: 'bytes=0-9', 'If-Range': etag });
      expect(fresh.status).toBe(206);
      expect(await bytesOf(fresh.body)).toEqual(BYTES.subarray(0, 10));

      const stale = await get(KEY, { Range: 'bytes=0-9', 'If-Range': '"stale"' });
      expect(stale.status).toBe(200);
      expect(await bytesOf(stale.body)).toEqual(BYTES);

      const byDate = await get(KEY, { Range: 'bytes=0-9', 'If-Range': lastModified });
      expect(byDate.status).toBe(206);
      await bytesOf(byDate.body);
    });

    it('answers 412 for a failing If-Match', async () => {
      const res = await get(KEY, { 'If-Match': '"stale"' });
      expect(res.status).toBe(412);
      expect(res.body).toBeNull();
      const ok = await get(KEY, { 'If-Match': etag });
      expect(ok.status).toBe(200);
      await bytesOf(ok.body);
    });

    it('answers HEAD with the same headers and no body', async () => {
      const res = await get(KEY, {}, 'HEAD');
      expect(res.status).toBe(200);
      expect(res.body).toBeNull();
      expect(res.headers['Content-Length']).toBe('256');
      expect(res.headers['Content-Type']).toBe('image/png');
      expect(res.headers['ETag']).toBe(etag);
      expect(res.headers['Accept-Ranges']).toBe('bytes');
      expect((await get(KEY, { 'If-None-Match': etag }, 'HEAD')).status).toBe(304);
      expect((await get('serve/none.png', {}, 'HEAD')).status).toBe(404);
    });

    it('answers 404 for missing keys, directories and bad keys', async () => {
      for (const key of ['serve/none.png', 'serve/dir/', 'serve/dir', 'serve/', '', '../etc/passwd', 'serve/../serve/pic.png', '/serve/pic.png']) {
        const res = await get(key);
        expect(res.status, key).toBe(404);
        expect(res.body, key).toBeNull();
        expect(res.headers['X-Content-Type-Options']).toBe('nosniff');
      }
    });

    it('answers 405 with Allow for other methods', async () => {
      for (const method of ['POST', 'PUT', 'DELETE', 'OPTIONS']) {
        const res = await get(KEY, {}, method);
        expect(res.status).toBe(405);
        expect(res.headers['Allow']).toBe('GET, HEAD');
        expect(res.body).toBeNull();
      }
    });

    it('types by extension when nothing better is stored', async () => {
      await storage.put('serve/doc.pdf', Buffer.from('%PDF-1.4'), '');
      const res = await get('serve/doc.pdf');
      expect(res.headers['Content-Type']).toBe('application/pdf');
      expect((await bytesOf(res.body)).toString()).toBe('%PDF-1.4');
    });
  });
});

describe('local storage on disk', () => {
  let dir: string;
  let storage: Storage;

  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'storage-disk-'));
    storage = createStorage({ siteUrl: SITE, uploadsDir: join(dir, 'uploads') });
  });
  afterAll(async () => {
    if (dir) await rm(dir, { recursive: true, force: true });
  });

  it('writes the file under its key and leaves no temp files', async () => {
    await storage.put('2026/11/photo.jpg', BYTES, 'image/jpeg');
    await storage.put('2026/11/photo.jpg', BYTES.subarray(0, 10), 'image/jpeg');
    expect(await readdir(join(dir, 'uploads', '2026', '11'))).toEqual(['photo.jpg']);
  });

  it('leaves neither a file nor a temp file when the source fails', async () => {
    await expect(storage.put('2026/12/gone.jpg', { path: join(dir, 'no-such-source') }, 'image/jpeg')).rejects.toThrow();
    expect(await readdir(join(dir, 'uploads', '2026', '12'))).toEqual([]);
    expect(await storage.exists('2026/12/gone.jpg')).toBe(false);
  });

  it('never writes outside the uploads directory', async () => {
    for (const bad of ['../x', '/abs', 'a\\b', 'a/../../x']) {
      await expect(storage.put(bad, Buffer.from('x'), 'text/plain')).rejects.toBeInstanceOf(InvalidKeyError);
      await expect(storage.delete([bad])).rejects.toBeInstanceOf(InvalidKeyError);
    }
    expect((await readdir(dir)).sort()).toEqual(['uploads']);
  });

  it('treats a directory as taken but not as an object', async () => {
    expect(await storage.exists('2026/11')).toBe(true);
    expect(await storage.head('2026/11')).toBeNull();
    expect(await storage.read('2026/11')).toBeNull();
  });
});
