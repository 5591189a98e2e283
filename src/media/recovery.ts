// What killed processes leave, removed at start (before any worker serves): the files of media
// writes whose record never committed, in whichever storage (their rows in UploadIntent, taken
// once their process is gone: src/media/intents.ts), and in a local uploads directory the
// temporary files of writes cut short (`.tmp/<pid>-…`, per machine by nature). Notes of an older
// version (`.pending/<pid>-…`, one key a line) are read too, so an upgrade leaves nothing behind;
// nothing writes them any more. A note's files that an attachment names stay: the record
// committed and only the note's removal was cut short.
import { readdir, readFile, stat, unlink } from 'node:fs/promises';
import { resolve, sep } from 'node:path';
import type { Prisma } from '../db/client.js';
import { folderOf } from './metadata.js';
import { isValidKey, PENDING_FOLDER, TEMP_FOLDER, type Storage } from './storage.js';
import { BEAT_MS, keysInUse, processAlive, sweepIntents } from './intents.js';

export { processAlive };

/** After this long a file of a process that still seems to run (its id taken again) goes too. */
const STALE_MS = 3600_000;

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

export interface Recovered {
  /** Temporary files removed. */
  temporary: number;
  /** Files of interrupted media writes removed (no attachment names them). */
  orphans: number;
}

export interface RecoverOptions {
  /** The configured storage: its pending writes are swept; a local directory's leftovers only for local storage. */
  storage?: Storage;
  now?: () => number;
  /** A pending write unseen for this long is a gone process's (src/media/intents.ts). */
  deadAfterMs?: number;
  /** False where the caller has seen that no upload intent is recorded (a start's probe): nothing to sweep. */
  uploadIntents?: boolean;
}

/**
 * `client` is the Prisma client, or a function that opens one: the start opens it only when there
 * is a database question to ask (upload intents, or an older version's notes).
 */
export async function recoverUploads(client: Prisma | (() => Promise<Prisma>), uploadsDir: string, options: RecoverOptions = {}): Promise<Recovered> {
  const prisma = typeof client === 'function' ? client : () => Promise.resolve(client);
  const result: Recovered = { temporary: 0, orphans: 0 };
  if (options.storage && options.uploadIntents !== false) {
    const swept = await sweepIntents(await prisma(), options.storage, { now: options.now ?? Date.now, deadAfterMs: options.deadAfterMs ?? 3 * BEAT_MS });
    result.orphans += swept.orphans;
    if (options.storage.kind === 's3') return result;
  }
  const root = resolve(uploadsDir);
  for (const path of await leftovers(resolve(root, TEMP_FOLDER))) {
    await unlink(path).catch(() => undefined);
    result.temporary++;
  }
  for (const note of await leftovers(resolve(root, PENDING_FOLDER))) {
    const keys = (await readFile(note, 'utf8').catch(() => '')).split('\n').filter(isValidKey);
    const inUse = keys.length ? await keysInUse(await prisma(), new Set(keys.map(folderOf))) : new Set<string>();
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
