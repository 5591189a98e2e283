// What a killed process leaves in a local uploads directory, removed at the next start (before
// any worker serves): temporary files of writes cut short (`.tmp/<pid>-…`) and the files of media
// writes whose record never committed, listed in their notes (`.pending/<pid>-…`, one key a
// line; see Storage.intent). A note's files that an attachment names stay: the record committed
// and only the note's removal was cut short.
import { readdir, readFile, stat, unlink } from 'node:fs/promises';
import { resolve, sep } from 'node:path';
import type { Prisma } from '../db/client.js';
import { ATTACHED_FILE, ATTACHMENT_METADATA, attachmentMeta, folderOf, keysOf } from './metadata.js';
import { isValidKey, PENDING_FOLDER, TEMP_FOLDER } from './storage.js';

/** After this long a file of a process that still seems to run (its id taken again) goes too. */
const STALE_MS = 3600_000;

/** Whether a process with this id runs on this machine (one of another user counts). */
export function processAlive(pid: number): boolean {
  if (pid === process.pid) return true;
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/** The files of `dir` left by processes that are gone (named `<pid>-…`), or older than an hour. */
async function leftovers(dir: string): Promise<string[]> {
  const out: string[] = [];
  const cutoff = Date.now() - STALE_MS;
  for (const name of await readdir(dir).catch(() => [] as string[])) {
    const owner = /^(\d+)-/.exec(name);
    if (owner && !processAlive(Number(owner[1]))) { out.push(resolve(dir, name)); continue; }
    const info = await stat(resolve(dir, name)).catch(() => null);
    if (info?.isFile() && info.mtimeMs < cutoff) out.push(resolve(dir, name));
  }
  return out;
}

/** Every key the attachments filed in these folders use (their file, sizes and original). */
async function keysInUse(prisma: Prisma, folders: Set<string>): Promise<Set<string>> {
  const inUse = new Set<string>();
  for (const folder of folders) {
    const files = await prisma.postMeta.findMany({ where: { key: ATTACHED_FILE, value: { startsWith: folder } }, select: { contentId: true } });
    const ids = [...new Set(files.map((f) => f.contentId))];
    for (let i = 0; i < ids.length; i += 500) {
      const rows = await prisma.postMeta.findMany({
        where: { contentId: { in: ids.slice(i, i + 500) }, key: { in: [ATTACHED_FILE, ATTACHMENT_METADATA] } },
        select: { contentId: true, key: true, value: true },
      });
      const byId = new Map<number, { key: string; value: string }[]>();
      for (const row of rows) byId.set(row.contentId, [...(byId.get(row.contentId) ?? []), row]);
      for (const meta of byId.values()) {
        for (const key of keysOf(meta.find((m) => m.key === ATTACHED_FILE)?.value, attachmentMeta(meta))) inUse.add(key);
      }
    }
  }
  return inUse;
}

export interface Recovered {
  /** Temporary files removed. */
  temporary: number;
  /** Files of interrupted media writes removed (no attachment names them). */
  orphans: number;
}

export async function recoverUploads(prisma: Prisma, uploadsDir: string): Promise<Recovered> {
  const root = resolve(uploadsDir);
  const result: Recovered = { temporary: 0, orphans: 0 };
  for (const path of await leftovers(resolve(root, TEMP_FOLDER))) {
    await unlink(path).catch(() => undefined);
    result.temporary++;
  }
  for (const note of await leftovers(resolve(root, PENDING_FOLDER))) {
    const keys = (await readFile(note, 'utf8').catch(() => '')).split('\n').filter(isValidKey);
    const inUse = await keysInUse(prisma, new Set(keys.map(folderOf)));
    for (const key of keys) {
      const path = resolve(root, key);
      if (inUse.has(key) || !path.startsWith(root + sep)) continue;
      try {
        await unlink(path);
        result.orphans++;
      } catch { /* never written, or gone already */ }
    }
    await unlink(note).catch(() => undefined);
  }
  return result;
}
