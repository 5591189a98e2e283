-- The tallies' key gains "slot" (see the model): PostgreSQL stripes each tally over several rows.
-- SQLite keeps every tally in slot 0, so its triggers stay as they were; a unique index on the
-- rest of the key keeps their ON CONFLICT targets valid. SQLite cannot change a primary key in
-- place: the table is made again. The triggers on "Content" and "TermRelationship" name it; with
-- legacy_alter_table on, dropping the old table and renaming the new one into its place leaves
-- their text alone (off, the rename would check every trigger while the name is missing, and fail).

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
PRAGMA legacy_alter_table = ON;
DROP TABLE "ContentTally";
ALTER TABLE "new_ContentTally" RENAME TO "ContentTally";
PRAGMA legacy_alter_table = OFF;
CREATE UNIQUE INDEX "ContentTally_unslotted_key" ON "ContentTally"("type", "status", "authorId", "termId");
