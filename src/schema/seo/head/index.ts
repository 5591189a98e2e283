// seoHead / seoHeadJson on posts, pages and the site's own types: the head the public page prints (src/seo/head), as the
// SEO plugin adds it to REST records. Null for items an anonymous reader cannot see, and in
// deployment A (no SEO index there).
import { builder } from '../../builder.js';
import { contentRef } from '../../content/registered.js';
import { POST_LIKE_TYPES } from '../../../resources/content-types.js';
import { createContext, type Context } from '../../../context.js';
import { buildHead, type Head } from '../../../seo/head/head.js';

/** One head per object and request, whichever of the two fields asks first. */
export function itemHead(ctx: Context, id: number, kind: 'post' | 'term' | 'user' = 'post'): Promise<Head | null> {
  return ctx.loader<string, Head | null>('seoHead', (keys) => Promise.all(keys.map(async (key) => {
    if (!ctx.services.seo.indexing) return null;
    const [k, i] = key.split(':');
    // As an anonymous reader sees the page, whoever asks.
    const head = await buildHead(createContext(ctx.db, null, ctx.media), { kind: k as 'post' | 'term' | 'user', id: Number(i) });
    return head.status === 200 ? head : null;
  }))).load(`${kind}:${id}`);
}

for (const ref of POST_LIKE_TYPES.map((d) => contentRef(d.type))) {
  builder.objectField(ref, 'seoHead', (t) => t.string({
    nullable: true,
    description: 'The SEO head of the public page as HTML (title, meta, link and JSON-LD tags); null when the item is not public or the service keeps no SEO index.',
    resolve: async (row, _a, ctx) => (await itemHead(ctx, (row as { id: number }).id))?.html ?? null,
  }));
  builder.objectField(ref, 'seoHeadJson', (t) => t.field({
    type: 'JSON', nullable: true,
    description: 'The same head as an object (title, description, robots, canonical, og_*, twitter_*, schema).',
    resolve: async (row, _a, ctx) => (await itemHead(ctx, (row as { id: number }).id))?.json ?? null,
  }));
}
import './settings.js';
