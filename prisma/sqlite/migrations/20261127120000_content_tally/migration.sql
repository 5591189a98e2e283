-- Content tallies: items per type and status, in all, by author and by term, kept by triggers in the
-- writing transaction (hand-written: Prisma models the table, not its triggers). A list's total for
-- those shapes is then a sum of a few rows (src/db/content-read.ts, tallyCount).

-- CreateTable
CREATE TABLE "ContentTally" (
    "type" TEXT NOT NULL,
    "status" TEXT NOT NULL,
    "authorId" INTEGER NOT NULL DEFAULT 0,
    "termId" INTEGER NOT NULL DEFAULT 0,
    "count" INTEGER NOT NULL DEFAULT 0,

    PRIMARY KEY ("type", "status", "authorId", "termId")
);

INSERT INTO "ContentTally" ("type", "status", "authorId", "termId", "count")
    SELECT "type", "status", 0, 0, COUNT(*) FROM "Content" GROUP BY "type", "status";
INSERT INTO "ContentTally" ("type", "status", "authorId", "termId", "count")
    SELECT "type", "status", "authorId", 0, COUNT(*) FROM "Content" WHERE "authorId" <> 0 GROUP BY "type", "status", "authorId";
INSERT INTO "ContentTally" ("type", "status", "authorId", "termId", "count")
    SELECT c."type", c."status", 0, r."termId", COUNT(*) FROM "TermRelationship" r JOIN "Content" c ON c."id" = r."contentId" GROUP BY c."type", c."status", r."termId";

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
