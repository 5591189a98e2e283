// What a server killed in the middle of a media write leaves behind, and the start-up sweep that
// removes it (src/media/recovery.ts, gateway/upload.ts sweepSpool): files stored for a record
// that never committed, temporary files, spooled upload bodies. The crash itself is exercised by
// `npm run test:reliability`; here the leftovers are laid out by hand as a killed process leaves them.
import { spawnSync } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { mkdir, mkdtemp, readdir, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestSite, type TestSite } from '../helpers/app.js';
import { recoverUploads } from '../../src/media/recovery.js';
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
  it('leaves neither a write note nor a temporary file once an upload and its sizes are stored', async () => {
    const { keys } = await uploadImage('noted.jpg');
    expect(keys.length).toBeGreaterThan(2);
    for (const key of keys) expect(await exists(key)).toBe(true);
    expect(await filesIn('.pending')).toEqual([]);
    expect(await filesIn('.tmp')).toEqual([]);
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
