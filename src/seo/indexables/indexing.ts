// The indexing loop: each call builds the rows still missing for one kind of object, a batch at a
// time, so a large site is indexed by calling again until nothing is left. Link indexing reads the
// links of indexed content into SeoLink rows and keeps the link counts.
import type { Context } from '../../context.js';
import { setOption } from '../../site/options.js';
import { RestError, authStatus, restError } from '../../errors.js';
import {
  CONTENT_SELECT, INDEXED_TAXONOMIES, INDEXED_TYPES, contentColumns, hashPermalink, homeColumns,
  postArchiveColumns, scoreColumns, scoreEnv, systemColumns, termColumns, upsertIndexable, userColumns,
} from './build.js';

/** Objects per indexing call, as the plugin's default. */
export const INDEXING_LIMIT = 25;

/** Where the indexing stands: `prepared` once started, `complete` after the last step. */
export const INDEXING_STATE_OPTION = 'seo_indexing_state';

export interface IndexedObject { id: number; object_id: number | null; object_type: string; object_sub_type: string | null; permalink: string | null }

const shape = (r: { id: number; objectId: number | null; objectType: string; objectSubType: string | null; permalink: string | null }): IndexedObject =>
  ({ id: r.id, object_id: r.objectId, object_type: r.objectType, object_sub_type: r.objectSubType, permalink: r.permalink });

const ROW = { id: true, objectId: true, objectType: true, objectSubType: true, permalink: true } as const;

/** An indexing step failed on one object: the route reports which. */
export class IndexingError extends Error {
  constructor(readonly objectType: string, readonly objectId: number | null, readonly cause: unknown) {
    super(cause instanceof Error ? cause.message : String(cause));
  }
}

async function each<T extends { id: number }>(type: string, items: T[], build: (item: T) => Promise<{ id: number }>, ctx: Context): Promise<IndexedObject[]> {
  const ids: number[] = [];
  for (const item of items) {
    try { ids.push((await build(item)).id); } catch (e) { throw new IndexingError(type, item.id, e); }
  }
  if (!ids.length) return [];
  return (await ctx.prisma.indexable.findMany({ where: { id: { in: ids } }, select: ROW, orderBy: { id: 'asc' } })).map(shape);
}

/** Posts and pages without a row (trash excepted), lowest id first. */
export async function indexPosts(ctx: Context, limit = INDEXING_LIMIT): Promise<IndexedObject[]> {
  const missing = await ctx.prisma.$queryRawUnsafe<{ id: number }[]>(
    `SELECT c."id" FROM "Content" c LEFT JOIN "Indexable" i ON i."objectType" = 'post' AND i."objectId" = c."id"
     WHERE c."type" IN (${INDEXED_TYPES.map((t) => `'${t}'`).join(',')}) AND c."status" NOT IN ('trash', 'auto-draft') AND i."id" IS NULL
     ORDER BY c."id" LIMIT ${Number(limit)}`,
  );
  if (!missing.length) return [];
  const rows = await ctx.prisma.content.findMany({ where: { id: { in: missing.map((m) => Number(m.id)) } }, select: CONTENT_SELECT, orderBy: { id: 'asc' } });
  const env = await scoreEnv(ctx);
  const site = env.site;
  const data = [];
  for (const row of rows) {
    // New rows: no keyphrase yet, so the readability score only.
    try { data.push({ ...(await contentColumns(ctx, site, row)), ...(await scoreColumns(ctx, row, null, env)) }); } catch (e) { throw new IndexingError('post', row.id, e); }
  }
  // One insert for the batch: the missing rows cannot clash (the unique key guards a concurrent call).
  try { await ctx.prisma.indexable.createMany({ data }); } catch (e) { throw new IndexingError('post', rows[0]?.id ?? null, e); }
  const made = await ctx.prisma.indexable.findMany({ where: { objectType: 'post', objectId: { in: rows.map((r) => r.id) } }, select: ROW, orderBy: { objectId: 'asc' } });
  return made.map(shape);
}

export async function indexTerms(ctx: Context, limit = INDEXING_LIMIT): Promise<IndexedObject[]> {
  const missing = await ctx.prisma.$queryRawUnsafe<{ id: number }[]>(
    `SELECT t."id" FROM "Term" t LEFT JOIN "Indexable" i ON i."objectType" = 'term' AND i."objectId" = t."id"
     WHERE t."taxonomy" IN (${INDEXED_TAXONOMIES.map((t) => `'${t}'`).join(',')}) AND i."id" IS NULL ORDER BY t."id" LIMIT ${Number(limit)}`,
  );
  if (!missing.length) return [];
  const terms = await ctx.prisma.term.findMany({ where: { id: { in: missing.map((m) => Number(m.id)) } }, orderBy: { id: 'asc' } });
  const site = await ctx.site();
  return each('term', terms, async (t) => upsertIndexable(ctx.prisma, await termColumns(ctx, site, t)), ctx);
}

/** The posts archive (the one post type with an archive here). */
export async function indexPostTypeArchives(ctx: Context): Promise<IndexedObject[]> {
  const exists = await ctx.prisma.indexable.count({ where: { objectType: 'post-type-archive', objectSubType: 'post' } });
  if (exists) return [];
  const site = await ctx.site();
  return each('post-type-archive', [{ id: 0 }], async () => upsertIndexable(ctx.prisma, await postArchiveColumns(ctx, site)), ctx);
}

/** The home page, the 404 and search pages, and every author with a published post. */
export async function indexGeneral(ctx: Context, limit = INDEXING_LIMIT): Promise<IndexedObject[]> {
  const site = await ctx.site();
  const have = await ctx.prisma.indexable.findMany({ where: { objectType: { in: ['home-page', 'system-page'] } }, select: { objectType: true, objectSubType: true } });
  const has = (type: string, sub: string | null) => have.some((h) => h.objectType === type && h.objectSubType === sub);
  const out: IndexedObject[] = [];
  if (!has('home-page', null)) out.push(...(await each('home-page', [{ id: 0 }], () => upsertIndexable(ctx.prisma, homeColumns(site)), ctx)));
  for (const kind of ['404', 'search'] as const) {
    if (!has('system-page', kind)) out.push(...(await each('system-page', [{ id: 0 }], () => upsertIndexable(ctx.prisma, systemColumns(kind)), ctx)));
  }
  const room = limit - out.length;
  if (room > 0) {
    const authors = await ctx.prisma.$queryRawUnsafe<{ id: number }[]>(
      `SELECT u."id" FROM "User" u LEFT JOIN "Indexable" i ON i."objectType" = 'user' AND i."objectId" = u."id"
       WHERE i."id" IS NULL AND EXISTS (SELECT 1 FROM "Content" c WHERE c."authorId" = u."id" AND c."type" = 'post' AND c."status" = 'publish')
       ORDER BY u."id" LIMIT ${Number(room)}`,
    );
    const users = await ctx.prisma.user.findMany({ where: { id: { in: authors.map((a) => Number(a.id)) } }, select: { id: true, slug: true, displayName: true }, orderBy: { id: 'asc' } });
    out.push(...(await each('user', users, (u) => upsertIndexable(ctx.prisma, userColumns(site, u)), ctx)));
  }
  return out;
}

export async function setIndexingState(ctx: Context, state: 'prepared' | 'indexables-complete' | 'complete'): Promise<void> {
  await setOption(ctx.prisma, INDEXING_STATE_OPTION, state);
}

// Links ------------------------------------------------------------------------------------------

/** Every href of an <a> in the HTML, in order. */
export function hrefsOf(html: string): string[] {
  const out: string[] = [];
  const re = /<a\s[^>]*?href\s*=\s*("([^"]*)"|'([^']*)'|([^\s>]+))/gi;
  let m: RegExpExecArray | null;
  while ((m = re.exec(html))) out.push((m[2] ?? m[3] ?? m[4] ?? '').replace(/&amp;/g, '&').trim());
  return out.filter((h) => h && !h.startsWith('#') && !/^(mailto|tel|javascript):/i.test(h));
}

/** The links of one indexable's HTML: internal when on the home URL's host. Replaces what was stored. */
export async function storeLinks(ctx: Context, indexableId: number, html: string): Promise<number[]> {
  const site = await ctx.site();
  const home = new URL(`${site.home}/`);
  const links = hrefsOf(html).flatMap((href) => {
    try {
      const url = new URL(href, home);
      if (!/^https?:$/.test(url.protocol)) return [];
      const internal = url.host === home.host;
      url.hash = '';
      return [{ url: url.toString(), type: internal ? 'internal' : 'external' }];
    } catch { return []; }
  });
  const internal = [...new Set(links.filter((l) => l.type === 'internal').map((l) => hashPermalink(l.url)))];
  const targets = internal.length
    ? await ctx.prisma.indexable.findMany({ where: { permalinkHash: { in: internal } }, select: { id: true, permalinkHash: true } })
    : [];
  const byHash = new Map(targets.map((t) => [t.permalinkHash, t.id]));
  const before = await ctx.prisma.seoLink.findMany({ where: { indexableId, targetIndexableId: { not: null } }, select: { targetIndexableId: true } });
  await ctx.prisma.$transaction(async (tx) => {
    await tx.seoLink.deleteMany({ where: { indexableId } });
    if (links.length) {
      await tx.seoLink.createMany({
        data: links.map((l) => ({ indexableId, url: l.url, type: l.type, targetIndexableId: l.type === 'internal' ? byHash.get(hashPermalink(l.url)) ?? null : null })),
      });
    }
    await tx.indexable.update({ where: { id: indexableId }, data: { linkCount: links.length } });
  });
  // Targets whose incoming count may have changed: the old and the new ones.
  return [...new Set([...before.map((b) => b.targetIndexableId!), ...targets.map((t) => t.id)])];
}

/** Recounts the internal links pointing at each of `ids` (links from an object to itself count too, as stored). */
export async function recountIncoming(ctx: Context, ids: number[]): Promise<void> {
  if (!ids.length) return;
  const counts = await ctx.prisma.seoLink.groupBy({ by: ['targetIndexableId'], where: { targetIndexableId: { in: ids } }, _count: { _all: true } });
  const byId = new Map(counts.map((c) => [c.targetIndexableId, c._count._all]));
  await ctx.prisma.$transaction(ids.map((id) => ctx.prisma.indexable.update({ where: { id }, data: { incomingLinkCount: byId.get(id) ?? 0 } })));
}

/** Posts and pages whose links were never read, a batch at a time. */
export async function linkPosts(ctx: Context, limit = INDEXING_LIMIT): Promise<IndexedObject[]> {
  const rows = await ctx.prisma.indexable.findMany({ where: { objectType: 'post', linkCount: null }, select: ROW, orderBy: { id: 'asc' }, take: limit });
  if (!rows.length) return [];
  const contents = await ctx.prisma.content.findMany({ where: { id: { in: rows.map((r) => r.objectId!) } }, select: { id: true, content: true } });
  const byId = new Map(contents.map((c) => [c.id, c.content]));
  const touched = new Set<number>();
  for (const row of rows) {
    try {
      for (const t of await storeLinks(ctx, row.id, byId.get(row.objectId!) ?? '')) touched.add(t);
    } catch (e) { throw new IndexingError('post', row.objectId, e); }
  }
  await recountIncoming(ctx, [...touched]);
  return rows.map(shape);
}

/** Terms: the links of their descriptions. */
export async function linkTerms(ctx: Context, limit = INDEXING_LIMIT): Promise<IndexedObject[]> {
  const rows = await ctx.prisma.indexable.findMany({ where: { objectType: 'term', linkCount: null }, select: ROW, orderBy: { id: 'asc' }, take: limit });
  if (!rows.length) return [];
  const terms = await ctx.prisma.term.findMany({ where: { id: { in: rows.map((r) => r.objectId!) } }, select: { id: true, description: true } });
  const byId = new Map(terms.map((t) => [t.id, t.description]));
  const touched = new Set<number>();
  for (const row of rows) {
    try {
      for (const t of await storeLinks(ctx, row.id, byId.get(row.objectId!) ?? '')) touched.add(t);
    } catch (e) { throw new IndexingError('term', row.objectId, e); }
  }
  await recountIncoming(ctx, [...touched]);
  return rows.map(shape);
}

/** The steps of seo/v1 indexing and link indexing, by the path of their REST route. */
export const INDEXING_STEPS = {
  prepare: 'indexing/prepare', posts: 'indexing/posts', terms: 'indexing/terms', 'post-type-archives': 'indexing/post-type-archives',
  general: 'indexing/general', 'indexables-complete': 'indexing/indexables-complete', complete: 'indexing/complete',
  'link-posts': 'link-indexing/posts', 'link-terms': 'link-indexing/terms',
} as const;
export type IndexingStep = keyof typeof INDEXING_STEPS;

const STEP_RUNNERS: Record<IndexingStep, (ctx: Context) => Promise<IndexedObject[] | null>> = {
  prepare: async (ctx) => { await setIndexingState(ctx, 'prepared'); return null; },
  posts: (ctx) => indexPosts(ctx),
  terms: (ctx) => indexTerms(ctx),
  'post-type-archives': (ctx) => indexPostTypeArchives(ctx),
  general: (ctx) => indexGeneral(ctx),
  'indexables-complete': async (ctx) => { await setIndexingState(ctx, 'indexables-complete'); return null; },
  complete: async (ctx) => { await setIndexingState(ctx, 'complete'); return null; },
  'link-posts': (ctx) => linkPosts(ctx),
  'link-terms': (ctx) => linkTerms(ctx),
};

/**
 * One indexing call (edit_posts): the objects indexed and whether a full batch was done (call the
 * step again then). A failure is 500 `wpseo_error_indexing` naming the object, as the plugin's.
 */
export async function runIndexingStep(ctx: Context, step: IndexingStep): Promise<{ objects: IndexedObject[]; more: boolean }> {
  if (!ctx.can('edit_posts')) throw restError('rest_forbidden', 'Sorry, you are not allowed to do that.', authStatus(!!ctx.viewer));
  let objects: IndexedObject[] | null;
  try {
    objects = await STEP_RUNNERS[step](ctx);
  } catch (e) {
    if (e instanceof RestError) throw e;
    const ie = e instanceof IndexingError ? e : null;
    const cause = ie ? ie.cause : e;
    throw restError('wpseo_error_indexing', `Indexing failed: ${cause instanceof Error ? cause.message : String(cause)}`, 500, {
      stackTrace: cause instanceof Error ? cause.stack ?? '' : '', object_id: ie?.objectId ?? null, object_type: ie?.objectType ?? null,
    });
  }
  return { objects: objects ?? [], more: objects !== null && objects.length >= INDEXING_LIMIT };
}
