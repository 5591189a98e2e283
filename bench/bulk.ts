// Bulk inserts for the bench seed, on the plain drivers (Prisma's createMany costs more in building
// its statements than the databases do in running them, past 100k rows). Posts go in with their
// category relation; the search index is built as on any insert (SQLite's FTS5 triggers) or after
// the rows (PostgreSQL: its GIN indexes are dropped and made again in the same transaction when
// many rows go in, far quicker than keeping them up to date row by row).
import Database from 'better-sqlite3';
import pg from 'pg';
import { sqlitePath } from '../src/db/migrate.js';
import { renderedColumns } from '../src/content/stored-render.js';

export interface PostRow {
  id: number; authorId: number; title: string; content: string; slug: string;
  date: Date; modified: Date; guid: string;
}

export interface BulkTarget {
  /** Inserts one batch of posts and their category relations, in one transaction on SQLite. */
  insert(rows: PostRow[], categoryId: number): Promise<void>;
  /** Finishes: rebuilt indexes, planner statistics, the category's count, the id sequence. */
  finish(categoryId: number): Promise<void>;
  close(): Promise<void>;
}

/** Rows per batch: a transaction each on SQLite, a statement each on PostgreSQL. */
export const BULK_BATCH = 5000;

/** Timestamps as the Prisma SQLite adapter stores them. */
const sqliteTime = (d: Date) => d.toISOString().replace('Z', '+00:00');

export async function bulkTarget(databaseUrl: string, provider: 'sqlite' | 'postgres', expected: number): Promise<BulkTarget> {
  return provider === 'sqlite' ? sqliteTarget(databaseUrl) : postgresTarget(databaseUrl, expected);
}

function sqliteTarget(databaseUrl: string): BulkTarget {
  const db = new Database(sqlitePath(databaseUrl), { timeout: 10_000 });
  db.pragma('journal_mode = WAL');
  // A bench database: losing the last batches to a power cut costs a re-seed, nothing more.
  db.pragma('synchronous = OFF');
  db.pragma('cache_size = -262144');
  // With the renderings a save stores (src/content/stored-render.ts), as the service's own writes have them.
  const content = db.prepare(`INSERT INTO "Content" ("id", "type", "status", "authorId", "title", "content", "excerpt", "slug", "date", "dateGmt",
    "modified", "modifiedGmt", "guid", "commentStatus", "pingStatus", "format", "renderedContent", "renderedExcerpt", "renderedKey")
    VALUES (?, 'post', 'publish', ?, ?, ?, '', ?, ?, ?, ?, ?, ?, 'open', 'open', 'standard', ?, ?, ?)`);
  const relation = db.prepare(`INSERT INTO "TermRelationship" ("contentId", "termId", "taxonomy", "termOrder") VALUES (?, ?, 'category', 0)`);
  const batch = db.transaction((rows: PostRow[], categoryId: number) => {
    for (const r of rows) {
      const date = sqliteTime(r.date);
      const modified = sqliteTime(r.modified);
      const rendered = renderedColumns(r.content, '');
      content.run(r.id, r.authorId, r.title, r.content, r.slug, date, date, modified, modified, r.guid, rendered.renderedContent, rendered.renderedExcerpt, rendered.renderedKey);
      relation.run(r.id, categoryId);
    }
  });
  return {
    async insert(rows, categoryId) { batch(rows, categoryId); },
    async finish(categoryId) {
      db.prepare(`UPDATE "Term" SET "count" = (SELECT COUNT(*) FROM "TermRelationship" tr JOIN "Content" c ON c."id" = tr."contentId"
        WHERE tr."termId" = ? AND c."status" = 'publish') WHERE "id" = ?`).run(categoryId, categoryId);
      db.exec('ANALYZE');
      db.pragma('wal_checkpoint(TRUNCATE)');
    },
    async close() { db.close(); },
  };
}

async function postgresTarget(databaseUrl: string, expected: number): Promise<BulkTarget> {
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  // Many rows: drop the GIN (full-text) indexes of Content and make them again at the end, all in
  // one transaction, so an interrupted seed leaves the database as it was.
  const rebuild = expected >= 50_000;
  let indexes: string[] = [];
  await client.query('BEGIN');
  if (rebuild) {
    const { rows } = await client.query<{ indexname: string; indexdef: string }>(
      `SELECT indexname, indexdef FROM pg_indexes WHERE tablename = 'Content' AND indexdef ILIKE '%USING gin%'`);
    indexes = rows.map((r) => r.indexdef);
    for (const r of rows) await client.query(`DROP INDEX "${r.indexname.replace(/"/g, '""')}"`);
  }
  return {
    async insert(rows, categoryId) {
      const col = <T>(f: (r: PostRow) => T) => rows.map(f);
      const rendered = rows.map((r) => renderedColumns(r.content, ''));
      await client.query(
        `INSERT INTO "Content" ("id", "type", "status", "authorId", "title", "content", "excerpt", "slug", "date", "dateGmt",
           "modified", "modifiedGmt", "guid", "commentStatus", "pingStatus", "format", "renderedContent", "renderedExcerpt", "renderedKey")
         SELECT id, 'post', 'publish', author, title, content, '', slug, date, date, modified, modified, guid, 'open', 'open', 'standard', rc, re, rk
         FROM unnest($1::int[], $2::int[], $3::text[], $4::text[], $5::text[], $6::timestamp[], $7::timestamp[], $8::text[], $9::text[], $10::text[], $11::text[])
           AS t(id, author, title, content, slug, date, modified, guid, rc, re, rk)`,
        [col((r) => r.id), col((r) => r.authorId), col((r) => r.title), col((r) => r.content), col((r) => r.slug),
          col((r) => r.date.toISOString().slice(0, 23)), col((r) => r.modified.toISOString().slice(0, 23)), col((r) => r.guid),
          rendered.map((x) => x.renderedContent), rendered.map((x) => x.renderedExcerpt), rendered.map((x) => x.renderedKey)],
      );
      await client.query(
        `INSERT INTO "TermRelationship" ("contentId", "termId", "taxonomy", "termOrder") SELECT id, $2, 'category', 0 FROM unnest($1::int[]) AS t(id)`,
        [col((r) => r.id), categoryId],
      );
    },
    async finish(categoryId) {
      if (indexes.length) {
        await client.query(`SET LOCAL maintenance_work_mem = '512MB'`);
        for (const def of indexes) await client.query(def);
      }
      await client.query(`UPDATE "Term" SET "count" = (SELECT COUNT(*) FROM "TermRelationship" tr JOIN "Content" c ON c."id" = tr."contentId"
        WHERE tr."termId" = $1 AND c."status" = 'publish') WHERE "id" = $1`, [categoryId]);
      // Explicit ids leave the sequence behind: move it past them for later inserts.
      await client.query(`SELECT setval(pg_get_serial_sequence('"Content"', 'id'), (SELECT MAX("id") FROM "Content"))`);
      await client.query('COMMIT');
      // VACUUM too: a GIN index made on an empty table keeps its empty statistics (and its pending
      // list) until a vacuum, and the planner then prices it out of every plan.
      await client.query('VACUUM ANALYZE "Content"');
      await client.query('ANALYZE');
    },
    async close() { await client.end(); },
  };
}
