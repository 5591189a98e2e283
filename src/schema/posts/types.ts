// GraphQL types for posts: a variant of the shared Content model. Field names are camelCase;
// the REST gateway aliases them to WordPress's snake_case keys.
import { builder } from '../builder.js';
import type { Context } from '../../context.js';
import type { Content } from '../../generated/sqlite/client.js';
import { canDeleteContent, canEditContent } from '../../auth/content-permissions.js';
import { capsForType } from '../../auth/capabilities.js';
import { formatWpDate } from '../../content/dates.js';
import { renderContent, renderExcerpt, renderTitle } from '../../content/render.js';
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

const termSelect = { terms: { select: { termId: true, taxonomy: true, term: { select: { slug: true } } }, orderBy: { termOrder: 'asc' as const } } };

export const PostRef = builder.prismaObject('Content', {
  variant: 'Post',
  description: 'A blog post.',
  fields: (t) => ({
    id: t.exposeInt('id', { description: 'Unique identifier, shared with every other kind of content.' }),
    date: t.field({ type: 'LocalDateTime', description: "Publication date on the site's clock.", resolve: (p) => formatWpDate(p.date) }),
    dateGmt: t.field({ type: 'LocalDateTime', description: 'Publication date in UTC.', resolve: (p) => formatWpDate(p.dateGmt) }),
    guid: t.field({ type: ContentText, description: 'Globally unique identifier, fixed at creation.', resolve: (p, _a, ctx) => text(p.guid, p.guid, ctx, p) }),
    modified: t.field({ type: 'LocalDateTime', description: "Last modification on the site's clock.", resolve: (p) => formatWpDate(p.modified) }),
    modifiedGmt: t.field({ type: 'LocalDateTime', description: 'Last modification in UTC.', resolve: (p) => formatWpDate(p.modifiedGmt) }),
    slug: t.exposeString('slug', { description: 'URL-safe name, unique among posts.' }),
    status: t.exposeString('status', { description: 'publish, future, draft, pending, private or trash.' }),
    type: t.exposeString('type', { description: 'Always "post".' }),
    link: t.field({ type: 'URL', description: 'Permalink.', resolve: async (p, _a, ctx) => permalink(await ctx.site(), p) }),
    password: t.string({ nullable: true, description: 'The post password; null unless the caller may edit the post.', resolve: (p, _a, ctx) => (canEditContent(ctx, p) ? p.password : null) }),
    permalinkTemplate: t.string({ description: 'Permalink with a %postname% placeholder.', resolve: async (_p, _a, ctx) => `${(await ctx.site()).home}/%postname%/` }),
    generatedSlug: t.string({ description: 'The slug the title would give.', resolve: (p) => sanitizeTitle(p.title) }),
    classList: t.stringList({
      description: 'CSS classes a theme gives the post.',
      select: termSelect,
      resolve: async (p, _a, ctx) => {
        const sticky = (await ctx.site()).stickyPosts.includes(p.id);
        return [
          `post-${p.id}`, p.type, `type-${p.type}`, `status-${p.status}`, `format-${p.format || 'standard'}`,
          ...(p.featuredMedia ? ['has-post-thumbnail'] : []), ...(sticky ? ['sticky'] : []), 'hentry',
          ...p.terms.map((r) => `${r.taxonomy === 'category' ? 'category' : 'tag'}-${r.term.slug}`),
        ];
      },
    }),
    title: t.field({ type: ContentText, description: 'Title.', resolve: (p, _a, ctx) => text(p.title, renderTitle(p.title), ctx, p) }),
    content: t.field({
      type: ContentText,
      description: 'Body.',
      resolve: (p, _a, ctx) => {
        const locked = passwordRequired(ctx, p);
        return { ...text(p.content, locked ? '' : renderContent(p.content), ctx, p), isProtected: !!p.password, blockVersion: p.content.includes('<!-- wp:') ? 1 : 0 };
      },
    }),
    excerpt: t.field({
      type: ContentText,
      description: 'Summary; built from the body when none is stored.',
      args: { length: t.arg.int({ required: false, description: 'Words to keep when the summary is built from the body (default 55).' }) },
      resolve: (p, args, ctx) => {
        const locked = passwordRequired(ctx, p);
        return { ...text(p.excerpt, locked ? '' : renderExcerpt(p.excerpt, p.content, args.length ?? 55), ctx, p), isProtected: !!p.password };
      },
    }),
    author: t.exposeInt('authorId', { description: 'Id of the author.' }),
    featuredMedia: t.exposeInt('featuredMedia', { description: 'Id of the featured image; 0 for none.' }),
    commentStatus: t.exposeString('commentStatus', { description: 'open or closed.' }),
    pingStatus: t.exposeString('pingStatus', { description: 'open or closed.' }),
    sticky: t.boolean({ description: 'Whether the post is kept at the front page top.', resolve: async (p, _a, ctx) => (await ctx.site()).stickyPosts.includes(p.id) }),
    template: t.exposeString('template', { description: 'Theme template; empty for the default.' }),
    format: t.string({ description: 'standard, aside, chat, gallery, link, image, quote, status, video or audio.', resolve: (p) => p.format || 'standard' }),
    meta: t.field({
      type: PostMetaType,
      description: 'Registered meta values.',
      select: { meta: { where: { key: 'footnotes' }, select: { key: true, value: true } } },
      resolve: (p) => ({ footnotes: p.meta.find((m) => m.key === 'footnotes')?.value ?? '' }),
    }),
    categories: t.intList({ description: 'Category ids.', select: termSelect, resolve: (p) => p.terms.filter((r) => r.taxonomy === 'category').map((r) => r.termId) }),
    tags: t.intList({ description: 'Tag ids.', select: termSelect, resolve: (p) => p.terms.filter((r) => r.taxonomy === 'post_tag').map((r) => r.termId) }),
    viewerCanEdit: t.boolean({ description: 'Whether the caller may update this post.', resolve: (p, _a, ctx) => canEditContent(ctx, p) }),
    viewerCanDelete: t.boolean({ description: 'Whether the caller may delete this post.', resolve: (p, _a, ctx) => canDeleteContent(ctx, p) }),
    revisionCount: t.int({ description: 'Revisions and autosaves stored for the post.', resolve: async (p, _a, ctx) => (await revisionStats(ctx, p.id)).count }),
    latestRevisionId: t.int({ nullable: true, description: 'Id of the newest revision, if any.', resolve: async (p, _a, ctx) => (await revisionStats(ctx, p.id)).latest }),
  }),
});

/** Revision count and newest revision of every post on the page, in one grouped query. */
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

function text(raw: string, rendered: string, ctx: Context, row: Content): TextValue {
  return { raw, rendered, isProtected: false, showRaw: showsRaw(ctx, row), blockVersion: 0 };
}
