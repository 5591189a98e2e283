// What the WordPress import writes itself: its records (ImportRecord: which source item became
// which row), and the comments and menu items, which have no domain service of their own yet.
// Each of those is written in one transaction with its record and its event-log entry, as the
// content service writes a post, so a run stopped at any point leaves whole items behind.
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

export interface MenuItemRow {
  menuId: number;
  authorId: number;
  title: string;
  description: string;
  attrTitle: string;
  status: string;
  menuOrder: number;
  date: Date;
  dateGmt: Date;
  guidBase: string;
  /** `_menu_item_*` keys with their values as stored (ids already the new ones, except `_menu_item_object_id` of a custom link: filled with the new id). */
  meta: { key: string; value: string }[];
  customObject: boolean;
}

/**
 * A menu item as WordPress stores it (a nav_menu_item row with `_menu_item_*` meta, filed under
 * its menu), its record and its event, in one transaction; the menu's count grows by one.
 */
export async function insertMenuItem(ctx: Context, source: string, sourceId: string, row: MenuItemRow): Promise<number> {
  return ctx.prisma.$transaction(async (tx) => {
    const { id } = await tx.content.create({
      data: {
        type: 'nav_menu_item', status: row.status, authorId: row.authorId, title: row.title, content: row.description, excerpt: row.attrTitle,
        slug: '', date: row.date, dateGmt: row.dateGmt, modified: row.date, modifiedGmt: row.dateGmt, commentStatus: 'closed', pingStatus: 'closed',
        format: '', menuOrder: row.menuOrder, guid: '',
      },
      select: { id: true },
    });
    await tx.content.update({ where: { id }, data: { slug: String(id), guid: `${row.guidBase}/?p=${id}` } });
    const meta = row.meta.map((m) => ({ contentId: id, key: m.key, value: row.customObject && m.key === '_menu_item_object_id' ? String(id) : m.value }));
    if (meta.length) await tx.postMeta.createMany({ data: meta });
    await tx.termRelationship.create({ data: { contentId: id, termId: row.menuId, taxonomy: 'nav_menu' } });
    // The menu's count is its items, as the menus service keeps it.
    const count = await tx.termRelationship.count({ where: { termId: row.menuId } });
    await tx.term.update({ where: { id: row.menuId }, data: { count } });
    await writeRecord(tx, source, 'menu_item', sourceId, id);
    const value = (k: string) => meta.find((m) => m.key === k)?.value ?? '';
    const parent = Number(value('_menu_item_menu_item_parent')) || 0;
    // The event as the menus service records an item's (src/menus/service.ts).
    await recordContentEvent(tx, ctx.db, {
      kind: 'menu', action: 'created', type: 'nav_menu_item', id, status: row.status, previousStatus: '', authorId: row.authorId, parentId: parent || null,
      data: {
        menu: row.menuId, previousMenu: 0, title: row.title, type: value('_menu_item_type'), object: value('_menu_item_object'),
        objectId: Number(value('_menu_item_object_id')) || 0, menuOrder: row.menuOrder,
      },
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

/** A new menu's event, as the menus service records it (src/menus/service.ts): no locations, no auto-add. */
export async function recordMenuCreated(tx: Tx, ctx: Context, id: number, name: string, slug: string): Promise<void> {
  await recordContentEvent(tx, ctx.db, {
    kind: 'menu', action: 'created', type: 'nav_menu', id, status: 'publish', previousStatus: '', authorId: ctx.viewer?.id ?? 0, parentId: null,
    data: { name, slug, locations: [], previousLocations: [], autoAdd: false },
  });
}
