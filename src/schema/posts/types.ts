// GraphQL type for posts: a variant of the shared Content model.
import { builder } from '../builder.js';
import { classList, contentFields, termSelect } from '../content/fields.js';

export const PostRef = builder.prismaObject('Content', {
  variant: 'Post',
  description: 'A blog post.',
  fields: (t) => ({
    ...contentFields(t, 'post'),
    classList: t.stringList({ description: 'CSS classes a theme gives the post.', select: termSelect, resolve: (p, _a, ctx) => classList(ctx, p) }),
    sticky: t.boolean({ description: 'Whether the post is kept at the top of the front page.', resolve: async (p, _a, ctx) => (await ctx.site()).stickyPosts.includes(p.id) }),
    format: t.string({ description: 'standard, aside, chat, gallery, link, image, quote, status, video or audio.', resolve: (p) => p.format || 'standard' }),
    categories: t.intList({ description: 'Category ids.', select: termSelect, resolve: (p) => p.terms.filter((r) => r.taxonomy === 'category').map((r) => r.termId) }),
    tags: t.intList({ description: 'Tag ids.', select: termSelect, resolve: (p) => p.terms.filter((r) => r.taxonomy === 'post_tag').map((r) => r.termId) }),
  }),
});
