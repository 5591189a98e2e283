// Fields every post-like type shares (posts, pages): defined once, spread into each variant.
import type { Context } from '../../context.js';
import type { Content } from '../../generated/sqlite/client.js';
import { builder } from '../builder.js';
import { canDeleteContent, canEditContent } from '../../auth/content-permissions.js';
import { capsForType } from '../../auth/capabilities.js';
import { formatWpDate } from '../../content/dates.js';
import { renderContent, renderExcerpt, renderTitle } from '../../content/render.js';
import { cachedRender } from '../../content/render-cache.js';
import { ancestorChain, type SlugNode } from '../../content/ancestors.js';
import { sanitizeTitle } from '../../content/slug.js';
import { permalink } from './service.js';

/** A text field with its stored (`raw`) and displayed (`rendered`) forms. */
interface TextValue { raw: string; rendered: string; isProtected: boolean; showRaw: boolean; blockVersion: number }

export const ContentText = builder.objectRef<TextValue>('ContentText').implement({
  description: 'Text with its stored form (raw, only for callers who may edit) and its displayed HTML (rendered).',
  fields: (t) => ({
    raw: t.string({ nullable: true, description: 'The stored value; null unless the caller may edit content of this type.', resolve: (v) => (v.showRaw ? v.raw : null) }),
    rendered: t.string({ description: 'HTML as displayed; empty while a password is required.', resolve: (v) => v.rendered }),
    protected: t.boolean({ description: 'Whether the text is behind a post password.', resolve: (v) => v.isProtected }),
    blockVersion: t.int({ description: 'Block format version of the raw content: 1 when it holds blocks, else 0.', resolve: (v) => v.blockVersion }),
  }),
});

export const PostMetaType = builder.objectRef<{ footnotes: string }>('PostMeta').implement({
  description: 'Registered meta values of a post or page.',
  fields: (t) => ({ footnotes: t.exposeString('footnotes', { description: 'Footnotes of the block editor, JSON-encoded.' }) }),
});

/** Whether the caller sees raw values of this content type (WordPress shows them in edit context). */
function showsRaw(ctx: Context, row: Content): boolean {
  return ctx.viewer !== null && ctx.can(capsForType(row.type).edit_posts);
}

/** A password stands between the caller and the text unless they may edit it or offered the right one. */
export function passwordRequired(ctx: Context, row: Content): boolean {
  if (!row.password) return false;
  if (canEditContent(ctx, row)) return false;
  return ctx.offeredPasswords.get(row.id) !== row.password;
}

function text(raw: string, rendered: string, ctx: Context, row: Content): TextValue {
  return { raw, rendered, isProtected: false, showRaw: showsRaw(ctx, row), blockVersion: 0 };
}

/** Revision count and newest revision of every item on the page, in one grouped query. */
function revisionStats(ctx: Context, id: number) {
  return ctx.loader<number, { count: number; latest: number | null }>('revisionStats', async (ids) => {
    const groups = await ctx.prisma.content.groupBy({
      by: ['parentId', 'type'], where: { parentId: { in: [...ids] }, type: { in: ['revision', 'autosave'] } }, _count: { _all: true }, _max: { id: true },
    });
    return ids.map((pid) => {
      const mine = groups.filter((g) => g.parentId === pid);
      return { count: mine.reduce((n, g) => n + g._count._all, 0), latest: mine.find((g) => g.type === 'revision')?._max.id ?? null };
    });
  }).load(id);
}

/** Slugs of a page's ancestors, nearest last. */
export function ancestorSlugs(ctx: Context, parentId: number | null): Promise<string[]> {
  return ancestorChain(ctx.loader<number, SlugNode | null>('contentSlugParent', async (ids) => {
    const rows = await ctx.prisma.content.findMany({ where: { id: { in: [...ids] } }, select: { id: true, slug: true, parentId: true } });
    return ids.map((id) => rows.find((r) => r.id === id) ?? null);
  }), parentId);
}

export const termSelect = { terms: { select: { termId: true, taxonomy: true, term: { select: { slug: true } } }, orderBy: { termOrder: 'asc' as const } } };

/** The shared fields; `t` is a Pothos prisma field builder for a Content variant. */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export function contentFields(t: any, typeName: string) {
  return {
    id: t.exposeInt('id', { description: 'Unique identifier, shared with every other kind of content.' }),
    date: t.field({ type: 'LocalDateTime', description: "Publication date on the site's clock.", resolve: (p: Content) => formatWpDate(p.date) }),
    dateGmt: t.field({ type: 'LocalDateTime', description: 'Publication date in UTC.', resolve: (p: Content) => formatWpDate(p.dateGmt) }),
    guid: t.field({ type: ContentText, description: 'Globally unique identifier, fixed at creation.', resolve: (p: Content, _a: unknown, ctx: Context) => text(p.guid, p.guid, ctx, p) }),
    modified: t.field({ type: 'LocalDateTime', description: "Last modification on the site's clock.", resolve: (p: Content) => formatWpDate(p.modified) }),
    modifiedGmt: t.field({ type: 'LocalDateTime', description: 'Last modification in UTC.', resolve: (p: Content) => formatWpDate(p.modifiedGmt) }),
    slug: t.exposeString('slug', { description: `URL-safe name, unique among ${typeName}s.` }),
    status: t.exposeString('status', { description: 'publish, future, draft, pending, private or trash.' }),
    type: t.exposeString('type', { description: `Always "${typeName}".` }),
    link: t.field({
      type: 'URL', description: 'Permalink.',
      resolve: async (p: Content, _a: unknown, ctx: Context) => permalink(await ctx.site(), p, p.type === 'page' ? await ancestorSlugs(ctx, p.parentId) : []),
    }),
    password: t.string({ nullable: true, description: `The ${typeName} password; null unless the caller may edit the ${typeName}.`, resolve: (p: Content, _a: unknown, ctx: Context) => (canEditContent(ctx, p) ? p.password : null) }),
    permalinkTemplate: t.string({
      description: 'Permalink with a placeholder for the slug.',
      resolve: async (p: Content, _a: unknown, ctx: Context) => {
        const site = await ctx.site();
        if (p.type !== 'page') return `${site.home}/%postname%/`;
        const parents = await ancestorSlugs(ctx, p.parentId);
        return `${site.home}/${parents.map((s) => `${s}/`).join('')}%pagename%/`;
      },
    }),
    generatedSlug: t.string({ description: 'The slug the title would give.', resolve: (p: Content) => sanitizeTitle(p.title) }),
    title: t.field({ type: ContentText, description: 'Title.', resolve: (p: Content, _a: unknown, ctx: Context) => text(p.title, renderTitle(p.title), ctx, p) }),
    content: t.field({
      type: ContentText, description: 'Body.',
      resolve: (p: Content, _a: unknown, ctx: Context) => {
        const locked = passwordRequired(ctx, p);
        return { ...text(p.content, locked ? '' : cachedRender('content', p.content, () => renderContent(p.content)), ctx, p), isProtected: !!p.password, blockVersion: p.content.includes('<!-- wp:') ? 1 : 0 };
      },
    }),
    excerpt: t.field({
      type: ContentText, description: 'Summary; built from the body when none is stored.',
      args: { length: t.arg.int({ required: false, description: 'Words to keep when the summary is built from the body (default 55).' }) },
      resolve: (p: Content, args: { length?: number | null }, ctx: Context) => {
        const locked = passwordRequired(ctx, p);
        return { ...text(p.excerpt, locked ? '' : cachedRender(`excerpt:${args.length ?? 55}:${p.excerpt}`, p.content, () => renderExcerpt(p.excerpt, p.content, args.length ?? 55)), ctx, p), isProtected: !!p.password };
      },
    }),
    author: t.exposeInt('authorId', { description: 'Id of the author.' }),
    featuredMedia: t.exposeInt('featuredMedia', { description: 'Id of the featured image; 0 for none.' }),
    commentStatus: t.exposeString('commentStatus', { description: 'open or closed.' }),
    pingStatus: t.exposeString('pingStatus', { description: 'open or closed.' }),
    template: t.exposeString('template', { description: 'Theme template; empty for the default.' }),
    meta: t.field({
      type: PostMetaType, description: 'Registered meta values.',
      select: { meta: { where: { key: 'footnotes' }, select: { key: true, value: true } } },
      resolve: (p: Content & { meta: { key: string; value: string }[] }) => ({ footnotes: p.meta.find((m) => m.key === 'footnotes')?.value ?? '' }),
    }),
    viewerCanEdit: t.boolean({ description: `Whether the caller may update this ${typeName}.`, resolve: (p: Content, _a: unknown, ctx: Context) => canEditContent(ctx, p) }),
    viewerCanDelete: t.boolean({ description: `Whether the caller may delete this ${typeName}.`, resolve: (p: Content, _a: unknown, ctx: Context) => canDeleteContent(ctx, p) }),
    revisionCount: t.int({ description: 'Revisions and autosaves stored for it.', resolve: async (p: Content, _a: unknown, ctx: Context) => (await revisionStats(ctx, p.id)).count }),
    latestRevisionId: t.int({ nullable: true, description: 'Id of the newest revision, if any.', resolve: async (p: Content, _a: unknown, ctx: Context) => (await revisionStats(ctx, p.id)).latest }),
  };
}

/** CSS classes as a theme's post_class() gives them. */
export async function classList(ctx: Context, p: Content & { terms?: { taxonomy: string; term: { slug: string } }[] }): Promise<string[]> {
  const sticky = p.type === 'post' && (await ctx.site()).stickyPosts.includes(p.id);
  return [
    `${p.type}-${p.id}`, p.type, `type-${p.type}`, `status-${p.status}`,
    ...(p.type === 'post' ? [`format-${p.format || 'standard'}`] : []),
    ...(p.featuredMedia ? ['has-post-thumbnail'] : []), ...(sticky ? ['sticky'] : []), 'hentry',
    ...(p.terms ?? []).map((r) => `${r.taxonomy === 'category' ? 'category' : 'tag'}-${r.term.slug}`),
  ];
}
