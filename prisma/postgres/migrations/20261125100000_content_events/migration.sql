-- CreateTable
CREATE TABLE "ContentEvent" (
    "id" SERIAL NOT NULL,
    "action" TEXT NOT NULL,
    "type" TEXT NOT NULL,
    "contentId" INTEGER NOT NULL,
    "status" TEXT NOT NULL,
    "previousStatus" TEXT NOT NULL DEFAULT '',
    "authorId" INTEGER NOT NULL,
    "parentId" INTEGER,
    "created" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "ContentEvent_pkey" PRIMARY KEY ("id")
);
