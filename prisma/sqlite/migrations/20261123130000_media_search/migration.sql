-- Attachments join the full-text index (hand-written, as the index itself): the media list
-- searches titles, captions and descriptions like the posts'.
DROP TRIGGER "content_fts_insert";
DROP TRIGGER "content_fts_delete";
DROP TRIGGER "content_fts_update";

INSERT INTO "content_fts"(rowid, title, excerpt, content)
    SELECT id, title, excerpt, content FROM "Content" WHERE type = 'attachment';

CREATE TRIGGER "content_fts_insert" AFTER INSERT ON "Content" WHEN new.type IN ('post', 'page', 'attachment') BEGIN
    INSERT INTO "content_fts"(rowid, title, excerpt, content) VALUES (new.id, new.title, new.excerpt, new.content);
END;

CREATE TRIGGER "content_fts_delete" AFTER DELETE ON "Content" WHEN old.type IN ('post', 'page', 'attachment') BEGIN
    INSERT INTO "content_fts"("content_fts", rowid, title, excerpt, content) VALUES ('delete', old.id, old.title, old.excerpt, old.content);
END;

CREATE TRIGGER "content_fts_update" AFTER UPDATE OF title, excerpt, content ON "Content" WHEN old.type IN ('post', 'page', 'attachment') BEGIN
    INSERT INTO "content_fts"("content_fts", rowid, title, excerpt, content) VALUES ('delete', old.id, old.title, old.excerpt, old.content);
    INSERT INTO "content_fts"(rowid, title, excerpt, content) VALUES (new.id, new.title, new.excerpt, new.content);
END;
