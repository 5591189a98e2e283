-- AlterTable
ALTER TABLE "ContentEvent" ADD COLUMN "kind" TEXT NOT NULL DEFAULT 'content';
ALTER TABLE "ContentEvent" ADD COLUMN "data" TEXT NOT NULL DEFAULT '';

-- CreateTable
CREATE TABLE "Comment" (
    "id" INTEGER NOT NULL PRIMARY KEY AUTOINCREMENT,
    "postId" INTEGER NOT NULL,
    "parentId" INTEGER NOT NULL DEFAULT 0,
    "userId" INTEGER NOT NULL DEFAULT 0,
    "authorName" TEXT NOT NULL DEFAULT '',
    "authorEmail" TEXT NOT NULL DEFAULT '',
    "authorUrl" TEXT NOT NULL DEFAULT '',
    "authorIp" TEXT NOT NULL DEFAULT '',
    "authorAgent" TEXT NOT NULL DEFAULT '',
    "date" DATETIME NOT NULL,
    "dateGmt" DATETIME NOT NULL,
    "content" TEXT NOT NULL DEFAULT '',
    "karma" INTEGER NOT NULL DEFAULT 0,
    "status" TEXT NOT NULL DEFAULT 'hold',
    "type" TEXT NOT NULL DEFAULT 'comment',
    "trashedStatus" TEXT NOT NULL DEFAULT '',
    CONSTRAINT "Comment_postId_fkey" FOREIGN KEY ("postId") REFERENCES "Content" ("id") ON DELETE CASCADE ON UPDATE CASCADE
);

-- CreateTable
CREATE TABLE "Webhook" (
    "id" INTEGER NOT NULL PRIMARY KEY AUTOINCREMENT,
    "name" TEXT NOT NULL DEFAULT '',
    "url" TEXT NOT NULL,
    "events" TEXT NOT NULL DEFAULT '[]',
    "secret" TEXT NOT NULL,
    "active" BOOLEAN NOT NULL DEFAULT true,
    "created" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "cursor" INTEGER NOT NULL DEFAULT 0
);

-- CreateTable
CREATE TABLE "WebhookDelivery" (
    "id" INTEGER NOT NULL PRIMARY KEY AUTOINCREMENT,
    "webhookId" INTEGER NOT NULL,
    "eventId" INTEGER NOT NULL,
    "messageId" TEXT NOT NULL,
    "event" TEXT NOT NULL,
    "payload" TEXT NOT NULL,
    "status" TEXT NOT NULL DEFAULT 'pending',
    "attempts" INTEGER NOT NULL DEFAULT 0,
    "nextAttempt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "lockedUntil" DATETIME,
    "lastStatus" INTEGER,
    "lastError" TEXT NOT NULL DEFAULT '',
    "created" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "delivered" DATETIME,
    CONSTRAINT "WebhookDelivery_webhookId_fkey" FOREIGN KEY ("webhookId") REFERENCES "Webhook" ("id") ON DELETE CASCADE ON UPDATE CASCADE
);

-- CreateTable
CREATE TABLE "ImportRecord" (
    "id" INTEGER NOT NULL PRIMARY KEY AUTOINCREMENT,
    "source" TEXT NOT NULL,
    "kind" TEXT NOT NULL,
    "sourceId" TEXT NOT NULL,
    "targetId" INTEGER NOT NULL,
    "created" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP
);

-- CreateIndex
CREATE INDEX "ContentEvent_kind_id_idx" ON "ContentEvent"("kind", "id");

-- CreateIndex
CREATE INDEX "Comment_postId_status_dateGmt_idx" ON "Comment"("postId", "status", "dateGmt");

-- CreateIndex
CREATE INDEX "Comment_status_dateGmt_idx" ON "Comment"("status", "dateGmt");

-- CreateIndex
CREATE INDEX "Comment_parentId_idx" ON "Comment"("parentId");

-- CreateIndex
CREATE INDEX "Comment_userId_idx" ON "Comment"("userId");

-- CreateIndex
CREATE INDEX "Comment_authorEmail_dateGmt_idx" ON "Comment"("authorEmail", "dateGmt");

-- CreateIndex
CREATE INDEX "Comment_authorIp_dateGmt_idx" ON "Comment"("authorIp", "dateGmt");

-- CreateIndex
CREATE INDEX "WebhookDelivery_status_nextAttempt_idx" ON "WebhookDelivery"("status", "nextAttempt");

-- CreateIndex
CREATE UNIQUE INDEX "WebhookDelivery_webhookId_eventId_key" ON "WebhookDelivery"("webhookId", "eventId");

-- CreateIndex
CREATE UNIQUE INDEX "ImportRecord_source_kind_sourceId_key" ON "ImportRecord"("source", "kind", "sourceId");
