-- CreateTable
CREATE TABLE "User" (
    "id" SERIAL NOT NULL,
    "login" TEXT NOT NULL,
    "email" TEXT NOT NULL,
    "slug" TEXT NOT NULL,
    "displayName" TEXT NOT NULL DEFAULT '',
    "url" TEXT NOT NULL DEFAULT '',
    "description" TEXT NOT NULL DEFAULT '',
    "passwordHash" TEXT NOT NULL DEFAULT '',
    "role" TEXT NOT NULL DEFAULT 'subscriber',
    "registered" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "locale" TEXT NOT NULL DEFAULT '',

    CONSTRAINT "User_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "AppPassword" (
    "id" SERIAL NOT NULL,
    "uuid" TEXT NOT NULL,
    "userId" INTEGER NOT NULL,
    "name" TEXT NOT NULL,
    "appId" TEXT NOT NULL DEFAULT '',
    "hash" TEXT NOT NULL,
    "created" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "lastUsed" TIMESTAMP(3),
    "lastIp" TEXT,

    CONSTRAINT "AppPassword_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "Content" (
    "id" SERIAL NOT NULL,
    "type" TEXT NOT NULL,
    "status" TEXT NOT NULL DEFAULT 'draft',
    "authorId" INTEGER NOT NULL,
    "parentId" INTEGER,
    "title" TEXT NOT NULL DEFAULT '',
    "content" TEXT NOT NULL DEFAULT '',
    "excerpt" TEXT NOT NULL DEFAULT '',
    "slug" TEXT NOT NULL DEFAULT '',
    "password" TEXT NOT NULL DEFAULT '',
    "date" TIMESTAMP(3) NOT NULL,
    "dateGmt" TIMESTAMP(3) NOT NULL,
    "dateFloating" BOOLEAN NOT NULL DEFAULT false,
    "modified" TIMESTAMP(3) NOT NULL,
    "modifiedGmt" TIMESTAMP(3) NOT NULL,
    "commentStatus" TEXT NOT NULL DEFAULT 'open',
    "pingStatus" TEXT NOT NULL DEFAULT 'open',
    "format" TEXT NOT NULL DEFAULT 'standard',
    "template" TEXT NOT NULL DEFAULT '',
    "menuOrder" INTEGER NOT NULL DEFAULT 0,
    "guid" TEXT NOT NULL DEFAULT '',
    "mimeType" TEXT NOT NULL DEFAULT '',
    "featuredMedia" INTEGER NOT NULL DEFAULT 0,
    "trashedStatus" TEXT NOT NULL DEFAULT '',
    "trashedSlug" TEXT NOT NULL DEFAULT '',

    CONSTRAINT "Content_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "Term" (
    "id" SERIAL NOT NULL,
    "taxonomy" TEXT NOT NULL,
    "name" TEXT NOT NULL,
    "slug" TEXT NOT NULL,
    "description" TEXT NOT NULL DEFAULT '',
    "parentId" INTEGER NOT NULL DEFAULT 0,
    "count" INTEGER NOT NULL DEFAULT 0,

    CONSTRAINT "Term_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "TermRelationship" (
    "contentId" INTEGER NOT NULL,
    "termId" INTEGER NOT NULL,
    "taxonomy" TEXT NOT NULL,
    "termOrder" INTEGER NOT NULL DEFAULT 0,

    CONSTRAINT "TermRelationship_pkey" PRIMARY KEY ("contentId","termId")
);

-- CreateTable
CREATE TABLE "Option" (
    "name" TEXT NOT NULL,
    "value" TEXT NOT NULL,

    CONSTRAINT "Option_pkey" PRIMARY KEY ("name")
);

-- CreateTable
CREATE TABLE "PostMeta" (
    "id" SERIAL NOT NULL,
    "contentId" INTEGER NOT NULL,
    "key" TEXT NOT NULL,
    "value" TEXT NOT NULL DEFAULT '',

    CONSTRAINT "PostMeta_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE UNIQUE INDEX "User_login_key" ON "User"("login");

-- CreateIndex
CREATE UNIQUE INDEX "User_email_key" ON "User"("email");

-- CreateIndex
CREATE UNIQUE INDEX "User_slug_key" ON "User"("slug");

-- CreateIndex
CREATE UNIQUE INDEX "AppPassword_uuid_key" ON "AppPassword"("uuid");

-- CreateIndex
CREATE UNIQUE INDEX "AppPassword_hash_key" ON "AppPassword"("hash");

-- CreateIndex
CREATE INDEX "AppPassword_userId_idx" ON "AppPassword"("userId");

-- CreateIndex
CREATE INDEX "Content_type_status_date_id_idx" ON "Content"("type", "status", "date", "id");

-- CreateIndex
CREATE INDEX "Content_type_slug_idx" ON "Content"("type", "slug");

-- CreateIndex
CREATE INDEX "Content_parentId_type_idx" ON "Content"("parentId", "type");

-- CreateIndex
CREATE INDEX "Content_authorId_type_idx" ON "Content"("authorId", "type");

-- CreateIndex
CREATE INDEX "Content_type_modified_idx" ON "Content"("type", "modified");

-- CreateIndex
CREATE INDEX "Term_taxonomy_parentId_idx" ON "Term"("taxonomy", "parentId");

-- CreateIndex
CREATE UNIQUE INDEX "Term_taxonomy_slug_key" ON "Term"("taxonomy", "slug");

-- CreateIndex
CREATE INDEX "TermRelationship_termId_contentId_idx" ON "TermRelationship"("termId", "contentId");

-- CreateIndex
CREATE INDEX "TermRelationship_taxonomy_termId_idx" ON "TermRelationship"("taxonomy", "termId");

-- CreateIndex
CREATE INDEX "PostMeta_contentId_key_idx" ON "PostMeta"("contentId", "key");

-- AddForeignKey
ALTER TABLE "AppPassword" ADD CONSTRAINT "AppPassword_userId_fkey" FOREIGN KEY ("userId") REFERENCES "User"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "Content" ADD CONSTRAINT "Content_authorId_fkey" FOREIGN KEY ("authorId") REFERENCES "User"("id") ON DELETE RESTRICT ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "Content" ADD CONSTRAINT "Content_parentId_fkey" FOREIGN KEY ("parentId") REFERENCES "Content"("id") ON DELETE SET NULL ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "TermRelationship" ADD CONSTRAINT "TermRelationship_contentId_fkey" FOREIGN KEY ("contentId") REFERENCES "Content"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "TermRelationship" ADD CONSTRAINT "TermRelationship_termId_fkey" FOREIGN KEY ("termId") REFERENCES "Term"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "PostMeta" ADD CONSTRAINT "PostMeta_contentId_fkey" FOREIGN KEY ("contentId") REFERENCES "Content"("id") ON DELETE CASCADE ON UPDATE CASCADE;

