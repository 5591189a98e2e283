-- Content tallies on PostgreSQL again, without holding the shared tally rows for a whole
-- transaction. The row triggers on "Content" and "TermRelationship" count what the SQLite
-- triggers count (migration content_tally), but they only append deltas to "_ContentTallyDelta",
-- a plain (crash-safe) table whose rows nobody else touches: no lock on a row another writer
-- needs. A deferred constraint trigger then folds the transaction's deltas into "ContentTally"
-- just before commit, in one statement that adds them in the order of the tally key, and deletes
-- them. Every writer locks the tally rows in that same order, so two writers cannot deadlock on
-- them, and a row stays locked only from the fold to the end of the commit.
--
-- Isolation: the fold's INSERT … ON CONFLICT DO UPDATE under READ COMMITTED (what the service
-- uses) waits for a concurrent fold of the same row and adds to its committed count. A
-- REPEATABLE READ or SERIALIZABLE writer gets a serialization failure at commit when another
-- writer folded into one of its rows after its snapshot was taken, and must retry, as for any
-- write conflict at those levels.
--
-- Hand-written, like the other triggers: Prisma models "ContentTally", not the delta table, which
-- is empty outside a writing transaction (the leading underscore marks it internal).

CREATE TABLE "_ContentTallyDelta" (
    "txid" BIGINT NOT NULL DEFAULT txid_current(),
    "type" TEXT NOT NULL,
    "status" TEXT NOT NULL,
    "authorId" INTEGER NOT NULL,
    "termId" INTEGER NOT NULL,
    "n" INTEGER NOT NULL,
    -- Whether this row queues a fold (see content_tally_fold's trigger).
    "fold" BOOLEAN NOT NULL DEFAULT false
);
CREATE INDEX "_ContentTallyDelta_txid_idx" ON "_ContentTallyDelta" ("txid");

-- The fold: this transaction's deltas (txid_current() is the top-level transaction's id, the same
-- in every savepoint; a rolled-back savepoint took its deltas with it), summed per key, keys whose
-- deltas cancel out left alone (an author change moves nothing on the type's row), the others
-- added in key order. The transaction-local marker "content_tally.queued" is cleared, so that
-- writes after an early fold (SET CONSTRAINTS … IMMEDIATE) queue a fold again. (A rolled-back
-- savepoint takes its deltas, its queued folds and its change to the marker with it.)
CREATE FUNCTION content_tally_fold() RETURNS trigger AS $$
BEGIN
    WITH d AS (
        DELETE FROM "_ContentTallyDelta" WHERE "txid" = txid_current()
        RETURNING "type", "status", "authorId", "termId", "n"
    )
    INSERT INTO "ContentTally" AS t ("type", "status", "authorId", "termId", "count")
        SELECT "type", "status", "authorId", "termId", SUM("n") FROM d
        GROUP BY "type", "status", "authorId", "termId"
        HAVING SUM("n") <> 0
        ORDER BY "type", "status", "authorId", "termId"
    ON CONFLICT ("type", "status", "authorId", "termId") DO UPDATE SET "count" = t."count" + EXCLUDED."count";
    PERFORM set_config('content_tally.queued', 'off', true);
    RETURN NULL;
END;
$$ LANGUAGE plpgsql;

-- A constraint trigger fires once per row; its WHEN is tested when the row is written, not at
-- commit, and a false one queues nothing. Only the transaction's first appending statement marks
-- deltas with "fold" (the item triggers one row, which is always there; the link triggers their
-- rows, one or two, as a link whose item is gone appends none): the appending triggers set the
-- marker before it and clear it again if it appended nothing, so a transaction queues one fold
-- (two for a moved link), however many items and links it writes. Later firings find no deltas left. The marker is set before the
-- statement because an IMMEDIATE fold (SET CONSTRAINTS … IMMEDIATE) runs at the end of that very
-- statement and clears it; the next deltas then queue a fold of their own.
CREATE CONSTRAINT TRIGGER content_tally_fold AFTER INSERT ON "_ContentTallyDelta"
    DEFERRABLE INITIALLY DEFERRED FOR EACH ROW
    WHEN (NEW."fold")
    EXECUTE FUNCTION content_tally_fold();

-- Called by the appending triggers around their statement: before (true when this statement's
-- deltas must queue the fold), and after, with the rows it appended.
CREATE FUNCTION content_tally_queue() RETURNS boolean AS $$
BEGIN
    IF current_setting('content_tally.queued', true) IS NOT DISTINCT FROM 'on' THEN
        RETURN false;
    END IF;
    PERFORM set_config('content_tally.queued', 'on', true);
    RETURN true;
END;
$$ LANGUAGE plpgsql;

CREATE FUNCTION content_tally_queued(first BOOLEAN, appended BIGINT) RETURNS void AS $$
BEGIN
    IF first AND appended = 0 THEN
        PERFORM set_config('content_tally.queued', 'off', true);
    END IF;
END;
$$ LANGUAGE plpgsql;

CREATE FUNCTION content_tally_delta_content() RETURNS trigger AS $$
DECLARE
    first BOOLEAN;
    appended BIGINT;
BEGIN
    IF TG_OP = 'UPDATE' AND OLD."type" = NEW."type" AND OLD."status" = NEW."status" AND OLD."authorId" = NEW."authorId" THEN
        RETURN NULL;
    END IF;
    first := content_tally_queue();
    IF TG_OP = 'INSERT' THEN
        INSERT INTO "_ContentTallyDelta" ("type", "status", "authorId", "termId", "n", "fold")
            VALUES (NEW."type", NEW."status", 0, 0, 1, first), (NEW."type", NEW."status", NEW."authorId", 0, 1, false);
    ELSIF TG_OP = 'UPDATE' THEN
        INSERT INTO "_ContentTallyDelta" ("type", "status", "authorId", "termId", "n", "fold")
            VALUES (OLD."type", OLD."status", 0, 0, -1, first), (OLD."type", OLD."status", OLD."authorId", 0, -1, false),
                   (NEW."type", NEW."status", 0, 0, 1, false), (NEW."type", NEW."status", NEW."authorId", 0, 1, false)
            UNION ALL
            SELECT OLD."type", OLD."status", 0, r."termId", -1, false FROM "TermRelationship" r WHERE r."contentId" = OLD."id"
            UNION ALL
            SELECT NEW."type", NEW."status", 0, r."termId", 1, false FROM "TermRelationship" r WHERE r."contentId" = NEW."id";
    ELSE
        INSERT INTO "_ContentTallyDelta" ("type", "status", "authorId", "termId", "n", "fold")
            VALUES (OLD."type", OLD."status", 0, 0, -1, first), (OLD."type", OLD."status", OLD."authorId", 0, -1, false)
            UNION ALL
            SELECT OLD."type", OLD."status", 0, r."termId", -1, false FROM "TermRelationship" r WHERE r."contentId" = OLD."id";
    END IF;
    GET DIAGNOSTICS appended = ROW_COUNT;
    PERFORM content_tally_queued(first, appended);
    RETURN CASE WHEN TG_OP = 'DELETE' THEN OLD ELSE NULL END;
END;
$$ LANGUAGE plpgsql;

CREATE FUNCTION content_tally_delta_term() RETURNS trigger AS $$
DECLARE
    first BOOLEAN;
    appended BIGINT;
BEGIN
    IF TG_OP = 'UPDATE' AND OLD."termId" = NEW."termId" AND OLD."contentId" = NEW."contentId" THEN
        RETURN NULL;
    END IF;
    first := content_tally_queue();
    -- An item already gone (the cascade of its own delete) has had its terms taken off before.
    IF TG_OP = 'INSERT' THEN
        INSERT INTO "_ContentTallyDelta" ("type", "status", "authorId", "termId", "n", "fold")
            SELECT c."type", c."status", 0, NEW."termId", 1, first FROM "Content" c WHERE c."id" = NEW."contentId";
    ELSIF TG_OP = 'UPDATE' THEN
        INSERT INTO "_ContentTallyDelta" ("type", "status", "authorId", "termId", "n", "fold")
            SELECT c."type", c."status", 0, OLD."termId", -1, first FROM "Content" c WHERE c."id" = OLD."contentId"
            UNION ALL
            SELECT c."type", c."status", 0, NEW."termId", 1, first FROM "Content" c WHERE c."id" = NEW."contentId";
    ELSE
        INSERT INTO "_ContentTallyDelta" ("type", "status", "authorId", "termId", "n", "fold")
            SELECT c."type", c."status", 0, OLD."termId", -1, first FROM "Content" c WHERE c."id" = OLD."contentId";
    END IF;
    GET DIAGNOSTICS appended = ROW_COUNT;
    PERFORM content_tally_queued(first, appended);
    RETURN NULL;
END;
$$ LANGUAGE plpgsql;

-- No write to the items while the triggers come and the tallies are rebuilt (reads go on).
LOCK TABLE "Content", "TermRelationship" IN SHARE ROW EXCLUSIVE MODE;

CREATE TRIGGER content_tally_insert AFTER INSERT ON "Content" FOR EACH ROW EXECUTE FUNCTION content_tally_delta_content();
CREATE TRIGGER content_tally_update AFTER UPDATE OF "type", "status", "authorId" ON "Content" FOR EACH ROW EXECUTE FUNCTION content_tally_delta_content();
-- Before the row goes, while its terms are there to be taken off (their rows then go by the foreign
-- key's cascade, whose trigger finds no item left and appends nothing).
CREATE TRIGGER content_tally_delete BEFORE DELETE ON "Content" FOR EACH ROW EXECUTE FUNCTION content_tally_delta_content();
CREATE TRIGGER content_tally_term AFTER INSERT OR DELETE OR UPDATE OF "termId", "contentId" ON "TermRelationship"
    FOR EACH ROW EXECUTE FUNCTION content_tally_delta_term();

-- The tallies of the rows there are now (the previous migration emptied them).
DELETE FROM "ContentTally";
INSERT INTO "ContentTally" ("type", "status", "authorId", "termId", "count")
    SELECT "type", "status", 0, 0, COUNT(*) FROM "Content" GROUP BY "type", "status";
INSERT INTO "ContentTally" ("type", "status", "authorId", "termId", "count")
    SELECT "type", "status", "authorId", 0, COUNT(*) FROM "Content" WHERE "authorId" <> 0 GROUP BY "type", "status", "authorId";
INSERT INTO "ContentTally" ("type", "status", "authorId", "termId", "count")
    SELECT c."type", c."status", 0, r."termId", COUNT(*) FROM "TermRelationship" r JOIN "Content" c ON c."id" = r."contentId" GROUP BY c."type", c."status", r."termId";
