-- One stored full-text vector per searchable item instead of three expression indexes
-- (hand-written: Prisma cannot model generated tsvector columns; the column is not in
-- prisma/models.prisma, so no Prisma query reads or writes it). Title, excerpt and content keep
-- their own weights (A, B, C), so a search of some columns restricts the query's words to their
-- weights, and relevance ranks the same vector. Rows a search never reads (revisions, autosaves)
-- store NULL. Testing a row read from the date index is then a lookup in a stored value, not three
-- to_tsvector calls over its text; one GIN index to update on each write instead of three.
-- src/content/search-list.ts repeats the index's predicate word for word.
DROP INDEX "Content_fts_title_idx";
DROP INDEX "Content_fts_excerpt_idx";
DROP INDEX "Content_fts_content_idx";
ALTER TABLE "Content" ADD COLUMN "searchVector" tsvector GENERATED ALWAYS AS (
  CASE WHEN "type" IN ('post', 'page', 'attachment') THEN
    setweight(to_tsvector('simple'::regconfig, "title"), 'A')
    || setweight(to_tsvector('simple'::regconfig, "excerpt"), 'B')
    || setweight(to_tsvector('simple'::regconfig, "content"), 'C')
  END
) STORED;
CREATE INDEX "Content_searchVector_idx" ON "Content" USING GIN ("searchVector") WHERE "type" IN ('post', 'page', 'attachment');
