-- The tallies' key gains "slot" (see the model): PostgreSQL stripes each tally over several rows.
-- SQLite keeps every tally in slot 0, so its triggers stay as they were; a unique index on the
-- rest of the key keeps their ON CONFLICT targets valid. SQLite cannot change a primary key in
-- place: the table is made again, its triggers (which name it) dropped first and made again after.

DROP TRIGGER "content_tally_insert";
DROP TRIGGER "content_tally_delete";
DROP TRIGGER "content_tally_update";
DROP TRIGGER "content_tally_term_insert";
DROP TRIGGER "content_tally_term_delete";
DROP TRIGGER "content_tally_term_update";

CREATE TABLE "new_ContentTally" (
    "type" TEXT NOT NULL,
    "status" TEXT NOT NULL,
    "authorId" INTEGER NOT NULL DEFAULT 0,
    "termId" INTEGER NOT NULL DEFAULT 0,
    "slot" INTEGER NOT NULL DEFAULT 0,
    "count" INTEGER NOT NULL DEFAULT 0,

    PRIMARY KEY ("type", "status", "authorId", "termId", "slot")
);
INSERT INTO "new_ContentTally" ("type", "status", "authorId", "termId", "slot", "count")
    SELECT "type", "status", "authorId", "termId", 0, "count" FROM "ContentTally";
DROP TABLE "ContentTally";
ALTER TABLE "new_ContentTally" RENAME TO "ContentTally";
CREATE UNIQUE INDEX "ContentTally_unslotted_key" ON "ContentTally"("type", "status", "authorId", "termId");

CREATE TRIGGER "content_tally_insert" AFTER INSERT ON "Content" BEGIN
    INSERT INTO "ContentTally" ("type", "status", "authorId", "termId", "count") VALUES (new."type", new."status", 0, 0, 1)
        ON CONFLICT ("type", "status", "authorId", "termId") DO UPDATE SET "count" = "count" + 1;
    INSERT INTO "ContentTally" ("type", "status", "authorId", "termId", "count") VALUES (new."type", new."status", new."authorId", 0, 1)
        ON CONFLICT ("type", "status", "authorId", "termId") DO UPDATE SET "count" = "count" + 1;
END;

-- Before the row goes: its terms are still there to be taken off (their rows then go by the
-- foreign key's cascade, whose trigger finds no item left and does nothing).
CREATE TRIGGER "content_tally_delete" BEFORE DELETE ON "Content" BEGIN
    UPDATE "ContentTally" SET "count" = "count" - 1 WHERE "type" = old."type" AND "status" = old."status" AND "termId" = 0 AND "authorId" IN (0, old."authorId");
    UPDATE "ContentTally" SET "count" = "count" - 1 WHERE "type" = old."type" AND "status" = old."status" AND "authorId" = 0
        AND "termId" IN (SELECT "termId" FROM "TermRelationship" WHERE "contentId" = old."id");
END;

CREATE TRIGGER "content_tally_update" AFTER UPDATE OF "type", "status", "authorId" ON "Content"
    WHEN old."type" <> new."type" OR old."status" <> new."status" OR old."authorId" <> new."authorId" BEGIN
    UPDATE "ContentTally" SET "count" = "count" - 1 WHERE "type" = old."type" AND "status" = old."status" AND "termId" = 0 AND "authorId" IN (0, old."authorId");
    UPDATE "ContentTally" SET "count" = "count" - 1 WHERE "type" = old."type" AND "status" = old."status" AND "authorId" = 0
        AND "termId" IN (SELECT "termId" FROM "TermRelationship" WHERE "contentId" = new."id");
    INSERT INTO "ContentTally" ("type", "status", "authorId", "termId", "count") VALUES (new."type", new."status", 0, 0, 1)
        ON CONFLICT ("type", "status", "authorId", "termId") DO UPDATE SET "count" = "count" + 1;
    INSERT INTO "ContentTally" ("type", "status", "authorId", "termId", "count") VALUES (new."type", new."status", new."authorId", 0, 1)
        ON CONFLICT ("type", "status", "authorId", "termId") DO UPDATE SET "count" = "count" + 1;
    INSERT INTO "ContentTally" ("type", "status", "authorId", "termId", "count")
        SELECT new."type", new."status", 0, "termId", 1 FROM "TermRelationship" WHERE "contentId" = new."id" AND true
        ON CONFLICT ("type", "status", "authorId", "termId") DO UPDATE SET "count" = "count" + 1;
END;

CREATE TRIGGER "content_tally_term_insert" AFTER INSERT ON "TermRelationship" BEGIN
    INSERT INTO "ContentTally" ("type", "status", "authorId", "termId", "count")
        SELECT "type", "status", 0, new."termId", 1 FROM "Content" WHERE "id" = new."contentId" AND true
        ON CONFLICT ("type", "status", "authorId", "termId") DO UPDATE SET "count" = "count" + 1;
END;

CREATE TRIGGER "content_tally_term_delete" AFTER DELETE ON "TermRelationship" BEGIN
    UPDATE "ContentTally" SET "count" = "count" - 1
        WHERE "authorId" = 0 AND "termId" = old."termId"
        AND ("type", "status") = (SELECT "type", "status" FROM "Content" WHERE "id" = old."contentId");
END;

CREATE TRIGGER "content_tally_term_update" AFTER UPDATE OF "termId", "contentId" ON "TermRelationship"
    WHEN old."termId" <> new."termId" OR old."contentId" <> new."contentId" BEGIN
    UPDATE "ContentTally" SET "count" = "count" - 1
        WHERE "authorId" = 0 AND "termId" = old."termId"
        AND ("type", "status") = (SELECT "type", "status" FROM "Content" WHERE "id" = old."contentId");
    INSERT INTO "ContentTally" ("type", "status", "authorId", "termId", "count")
        SELECT "type", "status", 0, new."termId", 1 FROM "Content" WHERE "id" = new."contentId" AND true
        ON CONFLICT ("type", "status", "authorId", "termId") DO UPDATE SET "count" = "count" + 1;
END;
