-- CreateTable
CREATE TABLE "ContentEvent" (
    "id" INTEGER NOT NULL PRIMARY KEY AUTOINCREMENT,
    "action" TEXT NOT NULL,
    "type" TEXT NOT NULL,
    "contentId" INTEGER NOT NULL,
    "status" TEXT NOT NULL,
    "previousStatus" TEXT NOT NULL DEFAULT '',
    "authorId" INTEGER NOT NULL,
    "parentId" INTEGER,
    "created" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP
);
