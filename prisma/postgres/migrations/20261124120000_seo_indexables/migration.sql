-- CreateTable
CREATE TABLE "Indexable" (
    "id" SERIAL NOT NULL,
    "objectType" TEXT NOT NULL,
    "objectSubType" TEXT,
    "objectId" INTEGER,
    "permalink" TEXT,
    "permalinkHash" TEXT,
    "title" TEXT,
    "description" TEXT,
    "breadcrumbTitle" TEXT,
    "canonical" TEXT,
    "isRobotsNoindex" BOOLEAN,
    "isRobotsNofollow" BOOLEAN NOT NULL DEFAULT false,
    "isPublic" BOOLEAN NOT NULL DEFAULT true,
    "postStatus" TEXT,
    "authorId" INTEGER,
    "postParent" INTEGER,
    "isCornerstone" BOOLEAN NOT NULL DEFAULT false,
    "primaryFocusKeyword" TEXT,
    "primaryFocusKeywordScore" INTEGER,
    "readabilityScore" INTEGER,
    "openGraphTitle" TEXT,
    "openGraphDescription" TEXT,
    "openGraphImage" TEXT,
    "openGraphImageId" INTEGER,
    "twitterTitle" TEXT,
    "twitterDescription" TEXT,
    "twitterImage" TEXT,
    "twitterImageId" INTEGER,
    "linkCount" INTEGER,
    "incomingLinkCount" INTEGER,
    "estimatedReadingTimeMinutes" INTEGER,
    "objectLastModified" TIMESTAMP(3),
    "objectPublishedAt" TIMESTAMP(3),
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "Indexable_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "SeoLink" (
    "id" SERIAL NOT NULL,
    "url" TEXT NOT NULL,
    "type" TEXT NOT NULL,
    "indexableId" INTEGER NOT NULL,
    "targetIndexableId" INTEGER,

    CONSTRAINT "SeoLink_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE INDEX "Indexable_permalinkHash_idx" ON "Indexable"("permalinkHash");

-- CreateIndex
CREATE INDEX "Indexable_objectType_objectSubType_idx" ON "Indexable"("objectType", "objectSubType");

-- CreateIndex
CREATE UNIQUE INDEX "Indexable_objectType_objectId_key" ON "Indexable"("objectType", "objectId");

-- CreateIndex
CREATE INDEX "SeoLink_indexableId_idx" ON "SeoLink"("indexableId");

-- CreateIndex
CREATE INDEX "SeoLink_targetIndexableId_idx" ON "SeoLink"("targetIndexableId");

-- AddForeignKey
ALTER TABLE "SeoLink" ADD CONSTRAINT "SeoLink_indexableId_fkey" FOREIGN KEY ("indexableId") REFERENCES "Indexable"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "SeoLink" ADD CONSTRAINT "SeoLink_targetIndexableId_fkey" FOREIGN KEY ("targetIndexableId") REFERENCES "Indexable"("id") ON DELETE SET NULL ON UPDATE CASCADE;

