// What a server killed in the middle of a media write leaves behind, and the sweeps that remove
// it (src/media/intents.ts, src/media/recovery.ts, gateway/upload.ts sweepSpool): files stored for
// a record that never committed (in a local directory or an S3 bucket, noted in UploadIntent),
// temporary files, spooled upload bodies, and the notes of an older version. The crash itself is
// exercised by `npm run test:reliability`; here the leftovers are laid out by hand as a killed
// process leaves them, and the clock of the liveness rule is a fake one.
import { spawnSync } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { mkdir, mkdtemp, readdir, rm, stat, writeFile } from 'node:fs/promises';
import { hostname, tmpdir } from 'node:os';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestSite, type TestSite } from '../helpers/app.js';
import { recoverUploads } from '../../src/media/recovery.js';
import { UploadJournal, journalOf } from '../../src/media/intents.js';
import { createStorage, type Storage } from '../../src/media/storage.js';
import { SPOOL_DIR, sweepSpool } from '../../gateway/upload.js';

let site: TestSite;
let uploadsDir: string;

beforeAll(async () => {
  uploadsDir = await mkdtemp(join(tmpdir(), 'media-recovery-'));
  site = await createTestSite({ uploadsDir });
});
afterAll(async () => {
  await site?.close();
  if (uploadsDir) await rm(uploadsDir, { recursive: true, force: true });
});

const exists = (key: string) => stat(join(uploadsDir, ...key.split('/'))).then(() => true, () => false);
const filesIn = (folder: string) => readdir(join(uploadsDir, folder)).catch(() => [] as string[]);
/** The id of a process that has exited. */
const deadPid = () => spawnSync(process.execPath, ['-e', '']).pid!;

async function put(key: string, body = 'x'): Promise<void> {
  await mkdir(join(uploadsDir, ...key.split('/').slice(0, -1)), { recursive: true });
  await writeFile(join(uploadsDir, ...key.split('/')), body);
}

async function uploadImage(name: string): Promise<{ id: number; keys: string[] }> {
  const bytes = await sharp({ create: { width: 900, height: 700, channels: 3, background: '#3a7' } }).jpeg().toBuffer();
  const res = await site.req('POST', '/core/v2/media', { as: 'administrator', body: new Uint8Array(bytes), headers: { 'content-type': 'image/jpeg', 'content-disposition': `attachment; filename="${name}"` } });
  expect(res.status, res.text.slice(0, 500)).toBe(201);
  const details = res.body.media_details as { file: string; sizes: Record<string, { file: string }> };
  const folder = details.file.replace(/[^/]+$/, '');
  return { id: res.body.id, keys: [details.file, ...Object.entries(details.sizes).filter(([n]) => n !== 'full').map(([, s]) => folder + s.file)] };
}

describe('media writes and their notes', () => {
  it('leaves neither a pending row, a note nor a temporary file once an upload and its sizes are stored', async () => {
    const { keys } = await uploadImage('noted.jpg');
    expect(keys.length).toBeGreaterThan(2);
    for (const key of keys) expect(await exists(key)).toBe(true);
    expect(await site.db.prisma.uploadIntent.count()).toBe(0);
    expect(await filesIn('.pending')).toEqual([]);
    expect(await filesIn('.tmp')).toEqual([]);
  });
});

/** A fake clock shared by the "instances" of a test. */
function clock(start = Date.UTC(2026, 0, 1)) {
  let t = start;
  return { now: () => t, advance: (ms: number) => { t += ms; } };
}
const MINUTE = 60_000;

describe('pending upload writes of several instances (one database, one uploads directory)', () => {
  it("one instance's sweep leaves another's live writes alone and removes them once their owner stops beating", async () => {
    const c = clock();
    // Two instances: each its own storage over the same directory, its own owner, one database.
    const storageA = createStorage({ siteUrl: 'https://example.test', uploadsDir });
    const storageB = createStorage({ siteUrl: 'https://example.test', uploadsDir });
    const a = new UploadJournal(storageA, { owner: 'host-a:101:aaaa', now: c.now, sweepMs: 0 });
    const b = new UploadJournal(storageB, { owner: 'host-b:202:bbbb', now: c.now, sweepMs: 0 });
    const scope = { db: site.db, prisma: site.db.prisma };
    try {
      const write = a.begin(scope);
      await write.add('2026/02/live-upload.jpg');
      await storageA.put('2026/02/live-upload.jpg', Buffer.from('bytes'), 'image/jpeg');

      expect(await b.sweep(site.db.prisma)).toEqual({ intents: 0, orphans: 0 });
      // A keeps beating: two minutes on, a beat; two more, still within three minutes of it.
      c.advance(2 * MINUTE);
      await a.beat();
      c.advance(2 * MINUTE);
      expect(await b.sweep(site.db.prisma)).toEqual({ intents: 0, orphans: 0 });
      expect(await exists('2026/02/live-upload.jpg')).toBe(true);
      // A's own sweep never takes its own rows, however old.
      c.advance(10 * MINUTE);
      expect(await a.sweep(site.db.prisma)).toEqual({ intents: 0, orphans: 0 });
      // A stopped beating (it is gone): B's sweep removes the file and the row.
      expect(await b.sweep(site.db.prisma)).toEqual({ intents: 1, orphans: 1 });
      expect(await exists('2026/02/live-upload.jpg')).toBe(false);
      expect(await site.db.prisma.uploadIntent.count({ where: { writeId: { not: '' } } })).toBe(0);

      // Had A only stalled, its commit now fails (its rows were taken) instead of naming a removed file.
      await expect(site.db.prisma.$transaction((tx) => write.commit(tx))).rejects.toThrow(/swept before it committed/);
      await write.done();
    } finally {
      a.stop();
      b.stop();
    }
  });

  it('takes at once the rows of a process of this machine that no longer runs, at start too', async () => {
    const c = clock(Date.now());
    const dead = deadPid();
    const storage = createStorage({ siteUrl: 'https://example.test', uploadsDir });
    const killed = new UploadJournal(storage, { owner: `${hostname()}:${dead}:cccc`, now: c.now, sweepMs: 0 });
    const live = new UploadJournal(storage, { owner: `${hostname()}:${process.pid}:dddd`, now: c.now, sweepMs: 0 });
    try {
      const cut = killed.begin({ db: site.db, prisma: site.db.prisma });
      await cut.add('2026/03/killed.jpg');
      await put('2026/03/killed.jpg');
      const running = live.begin({ db: site.db, prisma: site.db.prisma });
      await running.add('2026/03/running.jpg');
      await put('2026/03/running.jpg');
      // Seen just now, but its process is gone: the start-up recovery takes it; the running one stays.
      expect(await recoverUploads(site.db.prisma, uploadsDir, { storage, now: c.now })).toEqual({ temporary: 0, orphans: 1 });
      expect(await exists('2026/03/killed.jpg')).toBe(false);
      expect(await exists('2026/03/running.jpg')).toBe(true);
      expect((await site.db.prisma.uploadIntent.findMany({ select: { key: true } })).map((r) => r.key)).toEqual(['2026/03/running.jpg']);
      await running.done();
      expect(await site.db.prisma.uploadIntent.count()).toBe(0);
    } finally {
      killed.stop();
      live.stop();
    }
  });

  it('a process that has written sweeps by itself on its timer', async () => {
    const c = clock(Date.now());
    const storage = createStorage({ siteUrl: 'https://example.test', uploadsDir });
    const gone = new UploadJournal(storage, { owner: 'far-away:9:gggg', now: c.now, sweepMs: 0 });
    const cut = gone.begin({ db: site.db, prisma: site.db.prisma });
    await cut.add('2026/05/timer-swept.jpg');
    await put('2026/05/timer-swept.jpg');
    gone.stop();
    c.advance(10 * MINUTE);
    // A short period so the test need not wait minutes; the timer starts with the process's first write.
    const live = new UploadJournal(storage, { now: c.now, sweepMs: 20 });
    try {
      const write = live.begin({ db: site.db, prisma: site.db.prisma });
      let attempts = 0;
      while ((await exists('2026/05/timer-swept.jpg')) && attempts++ < 200) await new Promise((r) => setTimeout(r, 25));
      expect(await exists('2026/05/timer-swept.jpg')).toBe(false);
      expect(await site.db.prisma.uploadIntent.count({ where: { owner: 'far-away:9:gggg' } })).toBe(0);
      await write.done();
    } finally {
      live.stop();
    }
  });

  it('keeps the files a committed attachment names, whoever noted them', async () => {
    const committed = await uploadImage('kept-by-record.jpg');
    const c = clock(Date.now());
    const storage = createStorage({ siteUrl: 'https://example.test', uploadsDir });
    const gone = new UploadJournal(storage, { owner: 'elsewhere:7:eeee', now: c.now, sweepMs: 0 });
    const write = gone.begin({ db: site.db, prisma: site.db.prisma });
    for (const key of committed.keys) await write.add(key);
    await write.add('2026/04/never-committed.jpg');
    await put('2026/04/never-committed.jpg');
    gone.stop();
    c.advance(30 * MINUTE);
    const sweeper = new UploadJournal(storage, { now: c.now, sweepMs: 0 });
    expect(await sweeper.sweep(site.db.prisma)).toEqual({ intents: committed.keys.length + 1, orphans: 1 });
    for (const key of committed.keys) expect(await exists(key)).toBe(true);
    expect(await exists('2026/04/never-committed.jpg')).toBe(false);
    expect(await site.db.prisma.uploadIntent.count()).toBe(0);
  });
});

// s3rver ships CommonJS without type declarations; only the two methods used here are typed.
interface S3rverServer { run(): Promise<{ address: string; port: number }>; close(): Promise<void> }
const S3rver = createRequire(import.meta.url)('s3rver') as new (options: Record<string, unknown>) => S3rverServer;

describe('pending upload writes on S3-compatible storage', () => {
  let s3: S3rverServer;
  let s3Dir: string;
  let s3Site: TestSite;
  let storage: Storage;

  beforeAll(async () => {
    s3Dir = await mkdtemp(join(tmpdir(), 'media-recovery-s3-'));
    s3 = new S3rver({ port: 0, address: '127.0.0.1', silent: true, directory: s3Dir, configureBuckets: [{ name: 'media' }] });
    const { port } = await s3.run();
    const s3Settings = {
      bucket: 'media', endpoint: `http://127.0.0.1:${port}`, region: 'us-east-1', accessKeyId: 'S3RVER', secretAccessKey: 'S3RVER', forcePathStyle: true, publicUrl: `http://127.0.0.1:${port}/media`,
    };
    s3Site = await createTestSite({ uploadsDir, uploadsS3: s3Settings });
    storage = createStorage({ siteUrl: 'https://example.test', uploadsDir, s3: s3Settings });
  });
  afterAll(async () => {
    await s3Site?.close();
    await s3?.close();
    if (s3Dir) await rm(s3Dir, { recursive: true, force: true });
  });

  it('removes the object of an upload whose process died before its commit, and keeps those an attachment names', async () => {
    const bytes = await sharp({ create: { width: 400, height: 300, channels: 3, background: '#a37' } }).png().toBuffer();
    const res = await s3Site.req('POST', '/core/v2/media', { as: 'administrator', body: new Uint8Array(bytes), headers: { 'content-type': 'image/png', 'content-disposition': 'attachment; filename="in-bucket.png"' } });
    expect(res.status, res.text.slice(0, 500)).toBe(201);
    const folder = (res.body.media_details.file as string).replace(/[^/]+$/, '');
    const committed = [res.body.media_details.file as string, ...Object.entries(res.body.media_details.sizes as Record<string, { file: string }>).filter(([n]) => n !== 'full').map(([, s]) => folder + s.file)];
    expect(committed.length).toBeGreaterThan(1);
    for (const key of committed) expect(await storage.exists(key)).toBe(true);
    expect(await s3Site.db.prisma.uploadIntent.count()).toBe(0);

    // A process that dies after storing its object, before its record commits.
    const c = clock(Date.now());
    const dying = new UploadJournal(storage, { owner: 'other-host:4242:ffff', now: c.now, sweepMs: 0 });
    const write = dying.begin({ db: s3Site.db, prisma: s3Site.db.prisma });
    await write.add(`${folder}died-before-commit.png`);
    await storage.put(`${folder}died-before-commit.png`, bytes, 'image/png');
    // Its write had also noted one of the committed keys (an overwrite race): that object stays.
    await write.add(committed[0]);
    dying.stop();

    // Still within its liveness window: the start-up recovery leaves it.
    c.advance(MINUTE);
    expect(await recoverUploads(s3Site.db.prisma, uploadsDir, { storage, now: c.now })).toEqual({ temporary: 0, orphans: 0 });
    expect(await storage.exists(`${folder}died-before-commit.png`)).toBe(true);

    // Unseen for longer than three beats: gone. A periodic sweep of another process removes it.
    c.advance(5 * MINUTE);
    const other = journalOf(storage, { now: c.now, sweepMs: 0 });
    expect(await other.sweep(s3Site.db.prisma)).toEqual({ intents: 2, orphans: 1 });
    expect(await storage.exists(`${folder}died-before-commit.png`)).toBe(false);
    for (const key of committed) expect(await storage.exists(key)).toBe(true);
    expect(await s3Site.db.prisma.uploadIntent.count()).toBe(0);
    other.stop();
  });
});

describe('start-up recovery of the uploads directory', () => {
  it('removes the files of a write whose record never committed and keeps every file an attachment names', async () => {
    const committed = await uploadImage('committed.jpg');
    const dead = deadPid();
    // A killed upload: its original and one size stored, no record; its note lists them, plus a
    // name it never got to write.
    await put('2026/01/cut-short.jpg');
    await put('2026/01/cut-short-150x150.jpg');
    await put('2026/01/unrelated.jpg'); // a file no note lists: not the sweep's to judge
    await put(`.pending/${dead}-aaaa`, ['2026/01/cut-short.jpg', '2026/01/cut-short-150x150.jpg', '2026/01/never-written.jpg', ''].join('\n'));
    // A killed sub-size run whose files the metadata did get (only the note's removal was cut short).
    await put(`.pending/${dead}-bbbb`, `${committed.keys.join('\n')}\n`);
    // Temporary files: one of the killed process, one of this (live) process still writing.
    await put(`.tmp/${dead}-cccc`);
    await put(`.tmp/${process.pid}-dddd`);
    await put(`.pending/${process.pid}-eeee`, '2026/01/in-flight.jpg\n');
    await put('2026/01/in-flight.jpg');

    // Notes of an older version (no storage given: only the directory's leftovers are looked at).
    expect(await recoverUploads(site.db.prisma, uploadsDir)).toEqual({ temporary: 1, orphans: 2 });

    expect(await exists('2026/01/cut-short.jpg')).toBe(false);
    expect(await exists('2026/01/cut-short-150x150.jpg')).toBe(false);
    expect(await exists('2026/01/unrelated.jpg')).toBe(true);
    for (const key of committed.keys) expect(await exists(key)).toBe(true);
    expect((await filesIn('.pending')).sort()).toEqual([`${process.pid}-eeee`]);
    expect(await filesIn('.tmp')).toEqual([`${process.pid}-dddd`]);
    expect(await exists('2026/01/in-flight.jpg')).toBe(true);
    // The attachment still answers with its sizes.
    const res = await site.req('GET', `/core/v2/media/${committed.id}?context=edit`, { as: 'administrator' });
    expect(res.status).toBe(200);
    expect(res.body.missing_image_sizes).toEqual([]);
  });

  it('removes spooled upload bodies of processes that are gone, not those of a running one', async () => {
    await mkdir(SPOOL_DIR, { recursive: true });
    const gone = join(SPOOL_DIR, `${deadPid()}-${randomUUID()}`);
    const mine = join(SPOOL_DIR, `${process.pid}-${randomUUID()}`);
    await writeFile(gone, 'body');
    await writeFile(mine, 'body');
    try {
      expect(await sweepSpool()).toBeGreaterThanOrEqual(1);
      expect(await stat(gone).then(() => true, () => false)).toBe(false);
      expect(await stat(mine).then(() => true, () => false)).toBe(true);
    } finally {
      await rm(mine, { force: true });
      await rm(gone, { force: true });
    }
  });
});
