-- The tallies' row triggers lock the tally rows they add to until the writing transaction commits:
-- the row of a type's published items in every create, and each term's row in the order the
-- write links its terms. Concurrent writes then queue on the first and can deadlock on the others
-- (two writes linking the same terms in opposite orders). PostgreSQL does not keep the tallies
-- until they are folded in at commit in one order; its totals are counted (src/db/content-read.ts
-- tallyCount answers only for SQLite, whose writes run one at a time).
DROP TRIGGER IF EXISTS content_tally_insert ON "Content";
DROP TRIGGER IF EXISTS content_tally_update ON "Content";
DROP TRIGGER IF EXISTS content_tally_delete ON "Content";
DROP TRIGGER IF EXISTS content_tally_term ON "TermRelationship";
DROP FUNCTION IF EXISTS content_tally_content();
DROP FUNCTION IF EXISTS content_tally_term();
DROP FUNCTION IF EXISTS content_tally_add(TEXT, TEXT, INTEGER, INTEGER, INTEGER);
DELETE FROM "ContentTally";
