// WordPress's meta capabilities for content items (map_meta_cap: read_post, edit_post,
// delete_post) and the REST controllers' read check, over a row's type/status/author.
import type { Context } from '../context.js';
import { contentTypeOf } from '../resources/content-types.js';

export interface ContentAccessRow {
  id: number;
  type: string;
  status: string;
  authorId: number;
  trashedStatus?: string;
}

const PUBLISHED = new Set(['publish', 'future']);

function ownOrOthers(ctx: Context, row: ContentAccessRow, verb: 'edit' | 'delete'): boolean {
  const caps = contentTypeOf(row.type).caps as unknown as Record<string, string>;
  const need: string[] = [];
  if (ctx.viewer && row.authorId === ctx.viewer.id) {
    const status = row.status === 'trash' ? row.trashedStatus ?? '' : row.status;
    need.push(PUBLISHED.has(status) ? caps[`${verb}_published_posts`] : caps[`${verb}_posts`]);
  } else {
    need.push(caps[`${verb}_others_posts`]);
    if (PUBLISHED.has(row.status)) need.push(caps[`${verb}_published_posts`]);
    else if (row.status === 'private') need.push(caps[`${verb}_private_posts`]);
  }
  return need.every((cap) => ctx.can(cap));
}

export function canEditContent(ctx: Context, row: ContentAccessRow): boolean {
  return ctx.viewer !== null && ownOrOthers(ctx, row, 'edit');
}

export function canDeleteContent(ctx: Context, row: ContentAccessRow): boolean {
  return ctx.viewer !== null && ownOrOthers(ctx, row, 'delete');
}

/** The posts controller's check_read_permission. */
export function canReadContent(ctx: Context, row: ContentAccessRow): boolean {
  if (row.status === 'publish') return true;
  // An attachment's own status is `inherit`: readable unless its parent is not (the caller checks that).
  if (row.status === 'inherit' && row.type === 'attachment') return true;
  if (row.status === 'private') {
    if (!ctx.viewer) return false;
    return row.authorId === ctx.viewer.id || ctx.can(contentTypeOf(row.type).caps.read_private_posts);
  }
  return canEditContent(ctx, row);
}
