// Deployment B keeps the SEO index current on every committed write: a saved post or page gets its
// row refreshed (and its links re-read once link indexing has covered it), a deleted one loses it,
// and terms and authors follow their records. The app puts `seoIndexing` among its write hooks in
// that deployment (gateway/app.ts).
import type { Context } from '../../context.js';
import type { WriteEvent, WriteHook } from '../../content/write-hooks.js';
import { refreshContentIndexable, refreshTermIndexable, refreshUserIndexable } from './build.js';
import { recountIncoming, storeLinks } from './indexing.js';
import { log } from '../../log.js';

async function onWrite(ctx: Context, e: WriteEvent): Promise<void> {
  if (e.object === 'content') {
    if (e.action === 'delete') {
      const gone = await ctx.prisma.indexable.findMany({ where: { objectType: 'post', objectId: e.id }, select: { id: true, links: { select: { targetIndexableId: true } } } });
      await ctx.prisma.indexable.deleteMany({ where: { objectType: 'post', objectId: e.id } });
      await recountIncoming(ctx, [...new Set(gone.flatMap((g) => g.links.map((l) => l.targetIndexableId!).filter(Boolean)))]);
      return;
    }
    await refreshContentIndexable(ctx, e.id);
    const row = await ctx.prisma.indexable.findUnique({ where: { objectType_objectId: { objectType: 'post', objectId: e.id } }, select: { id: true, linkCount: true, objectSubType: true, postStatus: true, authorId: true } });
    // An author's first published post makes their archive (and its row).
    if (row?.objectSubType === 'post' && row.postStatus === 'publish' && row.authorId
      && !(await ctx.prisma.indexable.count({ where: { objectType: 'user', objectId: row.authorId } }))) {
      await refreshUserIndexable(ctx, row.authorId);
    }
    if (row && row.linkCount !== null) {
      const content = await ctx.prisma.content.findUnique({ where: { id: e.id }, select: { content: true } });
      await recountIncoming(ctx, await storeLinks(ctx, row.id, content?.content ?? ''));
    }
  } else if (e.object === 'term') {
    await refreshTermIndexable(ctx, e.id);
  } else if (e.action === 'delete') {
    await ctx.prisma.indexable.deleteMany({ where: { objectType: 'user', objectId: e.id } });
    // Their items went with them or to another author: every row that named them is rebuilt.
    const owned = await ctx.prisma.indexable.findMany({ where: { objectType: 'post', authorId: e.id }, select: { objectId: true } });
    for (const o of owned) await refreshContentIndexable(ctx, o.objectId!);
  } else if (await ctx.prisma.indexable.count({ where: { objectType: 'user', objectId: e.id } })) {
    await refreshUserIndexable(ctx, e.id);
  }
}

/**
 * The write hook of deployment B. The write has committed: a failure here leaves one row stale (the
 * next save or a rebuild mends it) and must not turn the caller's successful write into an error.
 */
export const seoIndexing: WriteHook = (ctx, e) =>
  onWrite(ctx, e).catch((err) => log.error({ err, object: e.object, id: e.id, action: e.action }, 'seo index update after a write failed'));
