-- The rendered content and excerpt of an item, made when it is saved (outside the write
-- transaction) and read back with the row, so a read does not run the renderer. Rows saved
-- before this migration keep empty columns and are rendered on read, as before.
ALTER TABLE "Content" ADD COLUMN "renderedContent" TEXT NOT NULL DEFAULT '';
ALTER TABLE "Content" ADD COLUMN "renderedExcerpt" TEXT NOT NULL DEFAULT '';
ALTER TABLE "Content" ADD COLUMN "renderedKey" TEXT NOT NULL DEFAULT '';
