// Pending upload writes, kept in the database (UploadIntent) so that every process and every
// instance over it sees them, whatever storage holds the files (a local directory or a bucket).
//
// A media write adds a row per file before storing the file, and deletes its rows in the
// transaction that commits the record naming those files; after a failure it removes the files
// first, then the rows. A process killed in between leaves rows behind, and their files.
//
// Liveness: while a write is open, its process moves the rows' `seen` forward every `beatMs`
// (one UPDATE per beat for all its open writes; nothing at all while it has none). A row whose
// `seen` is older than `deadAfterMs` (three beats by default) belongs to a process that is gone,
// on this machine or another. Sooner, on the writer's own machine: an owner of this host name
// whose process id is not running is gone at once (what lets a restart clean up after a crash
// right away). Machines must therefore have distinct host names (they do by default, containers too). A sweep (at start, then every `sweepMs` in each process that has
// written) takes such rows: it deletes each row first (a conditional delete: only a row still
// stale is taken), then removes its file unless an attachment names it. The commit's delete of
// its rows must find all of them: a write whose rows a sweep took (a process that stalled for
// minutes) fails and removes its files instead of committing a record without them. A sweeper
// killed between taking rows and removing files leaves those files, never a record without its file.
import { randomBytes, randomUUID } from 'node:crypto';
import { hostname } from 'node:os';
import type { Db, Prisma, Tx } from '../db/client.js';
import { withinTransaction } from '../db/version-cache.js';
import { log } from '../log.js';
import { ATTACHED_FILE, ATTACHMENT_METADATA, attachmentMeta, folderOf, keysOf } from './metadata.js';
import { isValidKey, type Storage } from './storage.js';

/** One write's rows: noted before each file is stored, dropped once a record owns them or they are removed. */
export interface WriteIntent {
  /** Notes a key; call it before the key is written. */
  add(key: string): Promise<void>;
  /**
   * In the transaction that commits the record naming the keys: deletes the write's rows, and
   * throws when a sweep took any (the transaction then rolls back, and the write removes its files).
   */
  commit(tx: Tx): Promise<void>;
  /** The files are owned by a committed record, or removed: forgets the write. Idempotent. */
  done(): Promise<void>;
  /** Removing the files failed: stop keeping the rows alive, so a sweep removes the files later. */
  abandon(): void;
}

export interface JournalOptions {
  /** Names the process; default `host:pid:random`, a new random part for every journal. */
  owner?: string;
  /** Milliseconds since the epoch; tests give a clock they move. */
  now?: () => number;
  /** How often an open write's `seen` moves forward (default a minute). */
  beatMs?: number;
  /** A row unseen for this long belongs to a gone process (default three beats). */
  deadAfterMs?: number;
  /** How often a process that has written sweeps (default five minutes; 0: never, tests). */
  sweepMs?: number;
}

export const BEAT_MS = 60_000;
export const SWEEP_MS = 5 * 60_000;

/** What a sweep did: intent rows taken, files removed (those no attachment names). */
export interface SweepResult { intents: number; orphans: number }

export class UploadJournal {
  readonly owner: string;
  readonly now: () => number;
  readonly beatMs: number;
  readonly deadAfterMs: number;
  readonly sweepMs: number;
  /** Writes with committed rows this process keeps alive. */
  private readonly open = new Set<string>();
  private client: Prisma | null = null;
  private beatTimer: NodeJS.Timeout | null = null;
  private sweepTimer: NodeJS.Timeout | null = null;

  constructor(private readonly storage: Storage, options: JournalOptions = {}) {
    this.owner = options.owner ?? `${hostname()}:${process.pid}:${randomBytes(6).toString('hex')}`;
    this.now = options.now ?? Date.now;
    this.beatMs = options.beatMs ?? BEAT_MS;
    this.deadAfterMs = options.deadAfterMs ?? 3 * this.beatMs;
    this.sweepMs = options.sweepMs ?? SWEEP_MS;
  }

  /**
   * A write of this request. Its rows go through the request's client: on its own, each row
   * commits at once, before the file is stored. On a unit of work's transaction handle (media
   * routes cannot be batch items, but a caller of the media service inside one could) they
   * commit or roll back with it: no other process sees them meanwhile, so they need no beat; a
   * process killed in the middle leaves no rows there, and its files stay.
   */
  begin(scope: { db: Db; prisma: Prisma }): WriteIntent {
    const writeId = randomUUID();
    const batched = withinTransaction(scope.db);
    if (!batched) this.attach(scope.prisma);
    let added = 0;
    let finished = false;
    return {
      add: async (key) => {
        if (!isValidKey(key)) throw new Error(`invalid storage key: ${JSON.stringify(key)}`);
        const at = new Date(this.now());
        await scope.prisma.uploadIntent.create({ data: { owner: this.owner, writeId, key, created: at, seen: at } });
        added++;
        if (!batched) this.keepAlive(writeId);
      },
      commit: async (tx) => {
        if (!added) return;
        const { count } = await tx.uploadIntent.deleteMany({ where: { writeId } });
        if (count !== added) throw new Error(`the pending files of upload write ${writeId} were swept before it committed`);
      },
      done: async () => {
        this.forget(writeId);
        if (finished || !added) return;
        await scope.prisma.uploadIntent.deleteMany({ where: { writeId } });
        finished = true;
      },
      abandon: () => this.forget(writeId),
    };
  }

  /** Moves `seen` of this process's open writes to now. */
  async beat(): Promise<void> {
    if (!this.client || !this.open.size) return;
    await this.client.uploadIntent.updateMany({ where: { owner: this.owner, writeId: { in: [...this.open] } }, data: { seen: new Date(this.now()) } });
  }

  /** Sweeps the rows of gone processes (never this journal's own). */
  sweep(prisma: Prisma = this.client!): Promise<SweepResult> {
    return sweepIntents(prisma, this.storage, { now: this.now, deadAfterMs: this.deadAfterMs, except: this.owner });
  }

  /** Stops the timers (a closing app; tests). */
  stop(): void {
    if (this.beatTimer) clearInterval(this.beatTimer);
    if (this.sweepTimer) clearInterval(this.sweepTimer);
    this.beatTimer = this.sweepTimer = null;
  }

  private attach(prisma: Prisma): void {
    this.client = prisma;
    if (this.sweepTimer || !this.sweepMs) return;
    // Unref'd: it never keeps a process up. A failing sweep (a closed database) stops the timer;
    // the next write starts it again.
    this.sweepTimer = setInterval(() => {
      this.sweep().then((r) => { if (r.intents) log.info(r, 'removed the files of upload writes of gone processes'); }, (err) => {
        log.warn({ err }, 'sweeping pending upload writes failed');
        if (this.sweepTimer) clearInterval(this.sweepTimer);
        this.sweepTimer = null;
      });
    }, this.sweepMs);
    this.sweepTimer.unref();
  }

  private keepAlive(writeId: string): void {
    this.open.add(writeId);
    if (this.beatTimer) return;
    this.beatTimer = setInterval(() => {
      this.beat().catch((err) => log.warn({ err }, 'keeping pending upload writes alive failed'));
    }, this.beatMs);
    this.beatTimer.unref();
  }

  private forget(writeId: string): void {
    this.open.delete(writeId);
    if (!this.open.size && this.beatTimer) {
      clearInterval(this.beatTimer);
      this.beatTimer = null;
    }
  }
}

const journals = new WeakMap<Storage, UploadJournal>();

/** The journal of a storage (one per app's storage): made with `options` the first time it is asked for. */
export function journalOf(storage: Storage, options?: JournalOptions): UploadJournal {
  let journal = journals.get(storage);
  if (!journal) journals.set(storage, (journal = new UploadJournal(storage, options)));
  return journal;
}

/**
 * Takes the rows not seen for `deadAfterMs` (except those of `except`, the sweeping process's
 * own) and removes their files that no attachment names. A few hundred rows a round; rounds
 * until none is left.
 */
export async function sweepIntents(prisma: Prisma, storage: Storage, o: { now: () => number; deadAfterMs: number; except?: string }): Promise<SweepResult> {
  const result: SweepResult = { intents: 0, orphans: 0 };
  const cutoff = new Date(o.now() - o.deadAfterMs);
  const gone = await goneLocalOwners(prisma, o.except);
  const where = {
    OR: [{ seen: { lt: cutoff } }, ...(gone.length ? [{ owner: { in: gone } }] : [])],
    ...(o.except ? { owner: { not: o.except } } : {}),
  };
  for (let round = 0; round < 1000; round++) {
    const rows = await prisma.uploadIntent.findMany({ where, select: { id: true, key: true }, orderBy: { id: 'asc' }, take: 200 });
    if (!rows.length) break;
    const taken: string[] = [];
    for (const row of rows) {
      // Taken only while still stale: a beat or a commit in between keeps it from this sweep.
      const { count } = await prisma.uploadIntent.deleteMany({ where: { id: row.id, ...where } });
      if (count) { taken.push(row.key); result.intents++; }
    }
    const keys = [...new Set(taken.filter(isValidKey))];
    const inUse = await keysInUse(prisma, new Set(keys.map(folderOf)));
    const orphans = keys.filter((k) => !inUse.has(k));
    if (orphans.length) {
      await storage.delete(orphans);
      result.orphans += orphans.length;
    }
  }
  return result;
}

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

/** Owners with pending rows that name this host and a process id that does not run here. */
async function goneLocalOwners(prisma: Prisma, except?: string): Promise<string[]> {
  const host = hostname();
  const rows = await prisma.uploadIntent.findMany({ where: { owner: { startsWith: `${host}:` } }, select: { owner: true }, distinct: ['owner'] });
  return rows.map((r) => r.owner).filter((owner) => {
    if (owner === except) return false;
    const pid = /^:(\d+):[^:]+$/.exec(owner.slice(host.length))?.[1];
    return pid !== undefined && Number.isSafeInteger(Number(pid)) && !processAlive(Number(pid));
  });
}

/** Every key the attachments filed in these folders use (their file, sizes and original). */
export async function keysInUse(prisma: Prisma, folders: Set<string>): Promise<Set<string>> {
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
