-- Attachments join the full-text indexes (hand-written, as the indexes themselves): the media
-- list searches titles, captions and descriptions like the posts'.
DROP INDEX "Content_fts_title_idx";
DROP INDEX "Content_fts_excerpt_idx";
DROP INDEX "Content_fts_content_idx";
CREATE INDEX "Content_fts_title_idx" ON "Content" USING GIN (to_tsvector('simple', "title")) WHERE "type" IN ('post', 'page', 'attachment');
CREATE INDEX "Content_fts_excerpt_idx" ON "Content" USING GIN (to_tsvector('simple', "excerpt")) WHERE "type" IN ('post', 'page', 'attachment');
CREATE INDEX "Content_fts_content_idx" ON "Content" USING GIN (to_tsvector('simple', "content")) WHERE "type" IN ('post', 'page', 'attachment');
