// What the WordPress import writes itself: its records (ImportRecord: which source item became
// which row), and the comments, which the comments service only creates as new comments (with
// the checks of a REST create; docs/import.md says why). Each comment is written in one
// transaction with its record and its event-log entry, as the content service writes a post, so
// a run stopped at any point leaves whole items behind.
import type { Context } from '../../context.js';
import type { Prisma, Tx } from '../../db/client.js';
import { recordContentEvent } from '../../content/events.js';

/** What an ImportRecord says was imported (the data model's list): posts, pages and the model's types are `post`. */
export type RecordKind = 'author' | 'term' | 'post' | 'attachment' | 'menu_item' | 'comment';

/** The records of one source, by `kind:sourceId`. */
export type Records = Map<string, number>;
export const recordKey = (kind: RecordKind, sourceId: string) => `${kind}:${sourceId}`;

export async function loadRecords(prisma: Prisma, source: string): Promise<Records> {
  const rows = await prisma.importRecord.findMany({ where: { source }, select: { kind: true, sourceId: true, targetId: true } });
  return new Map(rows.map((r) => [recordKey(r.kind as RecordKind, r.sourceId), r.targetId]));
}

/** Notes, inside the caller's transaction, that `sourceId` of `source` became `targetId`. */
export async function writeRecord(tx: Tx, source: string, kind: RecordKind, sourceId: string, targetId: number): Promise<void> {
  await tx.importRecord.create({ data: { source, kind, sourceId, targetId } });
}

/** `YYYY-MM-DD HH:MM:SS` as the naive instant the date columns hold (the wall clock read as UTC). */
export function wallClock(value: string): Date | null {
  const m = /^(\d{4})-(\d{2})-(\d{2})[ T](\d{2}):(\d{2}):(\d{2})$/.exec(value.trim());
  if (!m) return null;
  const d = new Date(Date.UTC(+m[1], +m[2] - 1, +m[3], +m[4], +m[5], +m[6]));
  return Number.isNaN(d.getTime()) ? null : d;
}

export interface CommentRow {
  postId: number;
  parentId: number;
  userId: number;
  authorName: string;
  authorEmail: string;
  authorUrl: string;
  authorIp: string;
  authorAgent: string;
  date: Date;
  dateGmt: Date;
  content: string;
  karma: number;
  status: string;
  type: string;
  trashedStatus: string;
}

/** A comment, its record and its event, in one transaction. */
export async function insertComment(ctx: Context, source: string, sourceId: string, row: CommentRow): Promise<number> {
  return ctx.prisma.$transaction(async (tx) => {
    const { id } = await tx.comment.create({ data: row, select: { id: true } });
    await writeRecord(tx, source, 'comment', sourceId, id);
    await recordContentEvent(tx, ctx.db, {
      kind: 'comment', action: 'created', type: row.type, id, status: row.status, previousStatus: '', authorId: row.userId, parentId: row.postId,
      data: { post: row.postId, parent: row.parentId, status: row.status },
    });
    return id;
  });
}

/** Notes a record for a row that already existed (a user or term matched on the site). */
export async function recordExisting(prisma: Prisma, source: string, kind: RecordKind, sourceId: string, targetId: number): Promise<void> {
  await prisma.importRecord.upsert({
    where: { source_kind_sourceId: { source, kind, sourceId } },
    create: { source, kind, sourceId, targetId },
    update: {},
  });
}

