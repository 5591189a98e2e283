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

    CONSTRAINT "ContentTally_pkey" PRIMARY KEY ("type", "status", "authorId", "termId")
);

INSERT INTO "ContentTally" ("type", "status", "authorId", "termId", "count")
    SELECT "type", "status", 0, 0, COUNT(*) FROM "Content" GROUP BY "type", "status";
INSERT INTO "ContentTally" ("type", "status", "authorId", "termId", "count")
    SELECT "type", "status", "authorId", 0, COUNT(*) FROM "Content" WHERE "authorId" <> 0 GROUP BY "type", "status", "authorId";
INSERT INTO "ContentTally" ("type", "status", "authorId", "termId", "count")
    SELECT c."type", c."status", 0, r."termId", COUNT(*) FROM "TermRelationship" r JOIN "Content" c ON c."id" = r."contentId" GROUP BY c."type", c."status", r."termId";

-- Adds `n` to the tally of (type, status, author, term).
CREATE FUNCTION content_tally_add(t TEXT, s TEXT, a INTEGER, term INTEGER, n INTEGER) RETURNS void AS $$
    INSERT INTO "ContentTally" ("type", "status", "authorId", "termId", "count") VALUES (t, s, a, term, n)
        ON CONFLICT ("type", "status", "authorId", "termId") DO UPDATE SET "count" = "ContentTally"."count" + n;
$$ LANGUAGE sql;

CREATE FUNCTION content_tally_content() RETURNS trigger AS $$
BEGIN
    IF TG_OP = 'UPDATE' AND OLD."type" = NEW."type" AND OLD."status" = NEW."status" AND OLD."authorId" = NEW."authorId" THEN
        RETURN NULL;
    END IF;
    IF TG_OP IN ('DELETE', 'UPDATE') THEN
        PERFORM content_tally_add(OLD."type", OLD."status", 0, 0, -1);
        PERFORM content_tally_add(OLD."type", OLD."status", OLD."authorId", 0, -1);
        PERFORM content_tally_add(OLD."type", OLD."status", 0, r."termId", -1) FROM "TermRelationship" r WHERE r."contentId" = OLD."id";
    END IF;
    IF TG_OP IN ('INSERT', 'UPDATE') THEN
        PERFORM content_tally_add(NEW."type", NEW."status", 0, 0, 1);
        PERFORM content_tally_add(NEW."type", NEW."status", NEW."authorId", 0, 1);
        PERFORM content_tally_add(NEW."type", NEW."status", 0, r."termId", 1) FROM "TermRelationship" r WHERE r."contentId" = NEW."id" AND TG_OP = 'UPDATE';
    END IF;
    RETURN CASE WHEN TG_OP = 'DELETE' THEN OLD ELSE NULL END;
END;
$$ LANGUAGE plpgsql;

CREATE TRIGGER content_tally_insert AFTER INSERT ON "Content" FOR EACH ROW EXECUTE FUNCTION content_tally_content();
CREATE TRIGGER content_tally_update AFTER UPDATE OF "type", "status", "authorId" ON "Content" FOR EACH ROW EXECUTE FUNCTION content_tally_content();
-- Before the row goes, while its terms are there to be taken off (their rows then go by the foreign
-- key's cascade, whose trigger finds no item left and does nothing).
CREATE TRIGGER content_tally_delete BEFORE DELETE ON "Content" FOR EACH ROW EXECUTE FUNCTION content_tally_content();

CREATE FUNCTION content_tally_term() RETURNS trigger AS $$
BEGIN
    IF TG_OP = 'UPDATE' AND OLD."termId" = NEW."termId" AND OLD."contentId" = NEW."contentId" THEN
        RETURN NULL;
    END IF;
    IF TG_OP IN ('DELETE', 'UPDATE') THEN
        PERFORM content_tally_add(c."type", c."status", 0, OLD."termId", -1) FROM "Content" c WHERE c."id" = OLD."contentId";
    END IF;
    IF TG_OP IN ('INSERT', 'UPDATE') THEN
        PERFORM content_tally_add(c."type", c."status", 0, NEW."termId", 1) FROM "Content" c WHERE c."id" = NEW."contentId";
    END IF;
    RETURN NULL;
END;
$$ LANGUAGE plpgsql;

CREATE TRIGGER content_tally_term AFTER INSERT OR DELETE OR UPDATE OF "termId", "contentId" ON "TermRelationship" FOR EACH ROW EXECUTE FUNCTION content_tally_term();
