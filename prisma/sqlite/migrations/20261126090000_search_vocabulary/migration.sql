-- The words of the full-text index (hand-written: Prisma has no FTS5 model). A read-only view
-- of content_fts's own index, no data of its own: a search's word prefixes are looked up in it
-- and replaced by the words they stand for, so a search walking the date order can test each
-- row with word queries (a prefix query reads every posting of its words at each test).
CREATE VIRTUAL TABLE "content_fts_vocab" USING fts5vocab('content_fts', 'row');
