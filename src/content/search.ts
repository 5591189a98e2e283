// Full-text search behind one interface: SQLite FTS5 (content_fts, kept by triggers) or
// PostgreSQL's stored, weighted tsvector column with one GIN index. Every word must match (as a word
// prefix) in one of the chosen columns; `-word` excludes; quoted phrases stay together. The list
// statement itself is built in search-list.ts.
import type { Context } from '../context.js';

export type SearchColumn = 'title' | 'excerpt' | 'content';
export const SEARCH_COLUMNS: Record<string, SearchColumn> = { post_title: 'title', post_excerpt: 'excerpt', post_content: 'content' };

export interface SearchTerms { include: string[]; exclude: string[] }

/** Splits a search string as WordPress does: words, "quoted phrases", and -excluded words. */
export function parseSearch(search: string): SearchTerms {
  const include: string[] = [];
  const exclude: string[] = [];
  for (const m of search.matchAll(/(-?)"([^"]+)"|(-?)(\S+)/g)) {
    const negative = (m[1] || m[3]) === '-';
    const term = (m[2] ?? m[4] ?? '').trim();
    if (!term) continue;
    (negative ? exclude : include).push(term);
  }
  return { include, exclude };
}

/** Words of a term as the index sees them (letters and digits). */
export function words(term: string): string[] {
  return term.toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? [];
}

/**
 * `search_semantics=exact` (WP_Query's `exact`): the whole search string must equal one of the
 * chosen columns, ignoring case as MySQL's collations do. Matches are few, so they come back as
 * ids with a flat score; no index serves an equality on LOWER(column), the type index narrows.
 */
export async function exactMatches(ctx: Context, type: string, search: string, columns: SearchColumn[]): Promise<Map<number, number>> {
  const pg = ctx.db.provider === 'postgres';
  const text = search.trim().toLowerCase();
  const rows = await ctx.prisma.$queryRawUnsafe<{ id: number | bigint }[]>(
    `SELECT "id" AS id FROM "Content" WHERE "type" = ${pg ? '$1' : '?'} AND (${columns.map((c) => `LOWER("${c}") = ${pg ? '$2' : '?'}`).join(' OR ')})`,
    ...(pg ? [type, text] : [type, ...columns.map(() => text)]),
  );
  return new Map(rows.map((r) => [Number(r.id), 1]));
}
