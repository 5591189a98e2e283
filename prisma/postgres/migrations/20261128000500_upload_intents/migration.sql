-- Pending upload writes, shared by every process and instance (replaces the per-machine notes
-- under UPLOADS_DIR/.pending, which are still read once at start for an upgrade).
CREATE TABLE "UploadIntent" (
    "id" SERIAL NOT NULL,
    "owner" TEXT NOT NULL,
    "writeId" TEXT NOT NULL,
    "key" TEXT NOT NULL,
    "created" TIMESTAMP(3) NOT NULL,
    "seen" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "UploadIntent_pkey" PRIMARY KEY ("id")
);

CREATE INDEX "UploadIntent_writeId_idx" ON "UploadIntent"("writeId");

CREATE INDEX "UploadIntent_seen_idx" ON "UploadIntent"("seen");
