-- Pending upload writes, shared by every process and instance (replaces the per-machine notes
-- under UPLOADS_DIR/.pending, which are still read once at start for an upgrade).
CREATE TABLE "UploadIntent" (
    "id" INTEGER NOT NULL PRIMARY KEY AUTOINCREMENT,
    "owner" TEXT NOT NULL,
    "writeId" TEXT NOT NULL,
    "key" TEXT NOT NULL,
    "created" DATETIME NOT NULL,
    "seen" DATETIME NOT NULL
);

CREATE INDEX "UploadIntent_writeId_idx" ON "UploadIntent"("writeId");

CREATE INDEX "UploadIntent_seen_idx" ON "UploadIntent"("seen");
