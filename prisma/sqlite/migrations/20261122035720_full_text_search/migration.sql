-- Full-text search over posts and pages (hand-written: Prisma has no FTS5 model).
-- An external-content FTS5 table over Content, kept in step by triggers on every write.
CREATE VIRTUAL TABLE "content_fts" USING fts5(
    title, excerpt, content,
    content='Content', content_rowid='id',
    tokenize='unicode61 remove_diacritics 2'
);

INSERT INTO "content_fts"(rowid, title, excerpt, content)
    SELECT id, title, excerpt, content FROM "Content" WHERE type IN ('post', 'page');

CREATE TRIGGER "content_fts_insert" AFTER INSERT ON "Content" WHEN new.type IN ('post', 'page') BEGIN
    INSERT INTO "content_fts"(rowid, title, excerpt, content) VALUES (new.id, new.title, new.excerpt, new.content);
END;

CREATE TRIGGER "content_fts_delete" AFTER DELETE ON "Content" WHEN old.type IN ('post', 'page') BEGIN
    INSERT INTO "content_fts"("content_fts", rowid, title, excerpt, content) VALUES ('delete', old.id, old.title, old.excerpt, old.content);
END;

CREATE TRIGGER "content_fts_update" AFTER UPDATE OF title, excerpt, content ON "Content" WHEN old.type IN ('post', 'page') BEGIN
    INSERT INTO "content_fts"("content_fts", rowid, title, excerpt, content) VALUES ('delete', old.id, old.title, old.excerpt, old.content);
    INSERT INTO "content_fts"(rowid, title, excerpt, content) VALUES (new.id, new.title, new.excerpt, new.content);
END;
