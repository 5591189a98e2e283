// Full-text search behind one interface: SQLite FTS5 (content_fts, kept by triggers) or
// PostgreSQL GIN indexes over to_tsvector('simple', column). Every word must match (as a word
// prefix) in one of the chosen columns; `-word` excludes; quoted phrases stay together.
import type { Context } from '../context.js';

export type SearchColumn = 'title' | 'excerpt' | 'content';
export const SEARCH_COLUMNS: Record<string, SearchColumn> = { post_title: 'title', post_excerpt: 'excerpt', post_content: 'content' };

export interface SearchTerms { include: string[]; exclude: string[] }

/** Splits a search string as WordPress does: words, "quoted phrases", and -excluded words. */
export function parseSearch(search: string, exact: boolean): SearchTerms {
  if (exact) return { include: [search.trim()].filter(Boolean), exclude: [] };
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
function words(term: string): string[] {
  return term.toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? [];
}

/**
 * Ids of the items of `type` matching the terms, each with a relevance score (higher first).
 * Returns null when the terms hold nothing the index can search (then nothing matches).
 */
export async function fullTextMatches(ctx: Context, type: string, terms: SearchTerms, columns: SearchColumn[], ranked = true): Promise<Map<number, number> | null> {
  const include = terms.include.map(words).filter((w) => w.length);
  const exclude = terms.exclude.map(words).filter((w) => w.length);
  if (!include.length) return null;
  return ctx.db.provider === 'postgres' ? postgresMatches(ctx, type, include, exclude, columns, ranked) : sqliteMatches(ctx, type, include, exclude, columns, ranked);
}

// Ranking costs ~8× the match itself on common words, so it is computed only for orderby=relevance.
async function sqliteMatches(ctx: Context, type: string, include: string[][], exclude: string[][], columns: SearchColumn[], ranked: boolean) {
  // FTS5 query: {cols}: ("a"* AND "b"*) NOT ("c"*); a phrase is "w1 w2"*.
  const phrase = (w: string[]) => `"${w.join(' ').replace(/"/g, '""')}"*`;
  let match = `{${columns.join(' ')}} : (${include.map(phrase).join(' AND ')})`;
  if (exclude.length) match += ` NOT {${columns.join(' ')}} : (${exclude.map(phrase).join(' OR ')})`;
  const rows = await ctx.prisma.$queryRawUnsafe<{ id: number | bigint; score: number }[]>(
    `SELECT c.id AS id, ${ranked ? '-bm25(content_fts, 10.0, 5.0, 1.0)' : '0'} AS score
       FROM content_fts JOIN "Content" c ON c.id = content_fts.rowid
      WHERE content_fts MATCH ? AND c.type = ?`,
    match, type,
  );
  return new Map(rows.map((r) => [Number(r.id), Number(r.score)]));
}

async function postgresMatches(ctx: Context, type: string, include: string[][], exclude: string[][], columns: SearchColumn[], ranked: boolean) {
  const params: unknown[] = [type];
  const query = (w: string[]) => {
    params.push(w.map((x) => `${x}:*`).join(' <-> '));
    return `to_tsquery('simple', $${params.length})`;
  };
  const anyColumn = (q: string) => `(${columns.map((c) => `to_tsvector('simple', "${c}") @@ ${q}`).join(' OR ')})`;
  const must = include.map((w) => anyColumn(query(w)));
  const mustNot = exclude.map((w) => `NOT ${anyColumn(query(w))}`);
  let score = '0';
  if (ranked) {
    params.push(include.map((w) => `(${w.map((x) => `${x}:*`).join(' <-> ')})`).join(' & '));
    const weighted = `setweight(to_tsvector('simple', "title"), 'A') || setweight(to_tsvector('simple', "excerpt"), 'B') || setweight(to_tsvector('simple', "content"), 'C')`;
    score = `ts_rank(${weighted}, to_tsquery('simple', $${params.length}))`;
  }
  const rows = await ctx.prisma.$queryRawUnsafe<{ id: number; score: number }[]>(
    `SELECT "id", ${score} AS score FROM "Content"
      WHERE "type" = $1 AND "type" IN ('post', 'page') AND ${[...must, ...mustNot].join(' AND ')}`,
    ...params,
  );
  return new Map(rows.map((r) => [Number(r.id), Number(r.score)]));
}

/**
 * `search_semantics=exact` (WP_Query's `exact`): the whole search string must equal one of the
 * chosen columns, ignoring case as MySQL's collations do. No index helps an equality on lower();
 * the candidates are narrowed by the full-text index first when the string has words.
 */
export async function exactMatches(ctx: Context, type: string, search: string, columns: SearchColumn[]): Promise<Map<number, number>> {
  const text = search.trim();
  const narrowed = await fullTextMatches(ctx, type, { include: [text], exclude: [] }, columns);
  const candidates = narrowed ? [...narrowed.keys()] : null;
  if (candidates && !candidates.length) return new Map();
  const rows = await ctx.prisma.content.findMany({
    where: { type, ...(candidates ? { id: { in: candidates } } : {}) },
    select: { id: true, title: true, excerpt: true, content: true },
  });
  const wanted = text.toLowerCase();
  return new Map(rows.filter((r) => columns.some((c) => r[c].toLowerCase() === wanted)).map((r) => [r.id, 1]));
}
