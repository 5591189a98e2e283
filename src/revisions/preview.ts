// The preview link of an autosave (WordPress's get_preview_post_link): the parent's permalink with
// `preview=true`, and for an autosave record the parent's id and a nonce tied to the caller.
import type { Context } from '../context.js';
import { createNonce } from '../auth/nonce.js';
import { permalink } from '../resources/content-types.js';
import { ancestorSlugs } from '../content/fields.js';

interface LinkRow { id: number; type: string; status: string; slug: string; parentId: number | null }

function parentOf(ctx: Context, id: number): Promise<LinkRow | null> {
  return ctx.loader<number, LinkRow | null>('previewParent', async (ids) => {
    const rows = await ctx.prisma.content.findMany({ where: { id: { in: [...ids] } }, select: { id: true, type: true, status: true, slug: true, parentId: true } });
    return ids.map((i) => rows.find((r) => r.id === i) ?? null);
  }).load(id);
}

export async function previewLink(ctx: Context, row: LinkRow): Promise<string> {
  const site = await ctx.site();
  const isAutosave = row.type === 'autosave';
  const target = isAutosave && row.parentId ? await parentOf(ctx, row.parentId) : row;
  if (!target) return '';
  const base = permalink(site, target, await ancestorSlugs(ctx, target));
  const query = isAutosave
    ? `preview_id=${target.id}&preview_nonce=${createNonce(site.siteKey, `post_preview_${target.id}`, { userId: ctx.viewer?.id ?? 0, token: '' })}&preview=true`
    : 'preview=true';
  return `${base}${base.includes('?') ? '&' : '?'}${query}`;
}
