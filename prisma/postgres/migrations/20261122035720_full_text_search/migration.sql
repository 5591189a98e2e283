-- Full-text search over posts and pages (hand-written: Prisma cannot model expression indexes).
-- One GIN index per searchable column so any subset of search_columns can use them; the
-- expressions must match src/content/search.ts exactly.
CREATE INDEX "Content_fts_title_idx" ON "Content" USING GIN (to_tsvector('simple', "title")) WHERE "type" IN ('post', 'page');
CREATE INDEX "Content_fts_excerpt_idx" ON "Content" USING GIN (to_tsvector('simple', "excerpt")) WHERE "type" IN ('post', 'page');
CREATE INDEX "Content_fts_content_idx" ON "Content" USING GIN (to_tsvector('simple', "content")) WHERE "type" IN ('post', 'page');
