// Categories (hierarchical) and tags: one term definition, tags without a parent.
import type { Term } from '../generated/sqlite/client.js';
import type { Context } from '../context.js';
import { ALL_CONTEXTS, VIEW_EDIT, defineResource, deriveResource, type FieldDef } from './define.js';
import { termAncestorSlugs } from '../schema/terms/service.js';

const link = (taxonomy: string): FieldDef => ({
  kind: 'uri', description: 'URL of the term.', contexts: ALL_CONTEXTS, readonly: true, graphqlDescription: 'Archive URL of the term.',
  resolve: async (term: Term, _a: unknown, ctx: Context) => {
    const home = (await ctx.site()).home;
    const path = taxonomy === 'category' ? [...(await termAncestorSlugs(ctx, term.parentId)), term.slug].join('/') : term.slug;
    return `${home}/${taxonomy === 'category' ? 'category' : 'tag'}/${path}/`;
  },
});

const taxonomyField = (taxonomy: string): FieldDef => ({
  kind: 'string', description: 'Type attribution for the term.', contexts: ALL_CONTEXTS, readonly: true, schema: { enum: [taxonomy] },
  graphqlDescription: `Always "${taxonomy}".`,
});

export const CategoryResource = defineResource({
  name: 'Category', title: 'category', description: 'A post category; categories form a tree.',
  fields: {
    id: { kind: 'integer', description: 'Unique identifier for the term.', contexts: ALL_CONTEXTS, readonly: true },
    count: { kind: 'integer', description: 'Number of published posts for the term.', contexts: VIEW_EDIT, readonly: true },
    description: { kind: 'string', description: 'HTML description of the term.', contexts: VIEW_EDIT },
    link: link('category'),
    name: { kind: 'string', description: 'HTML title for the term.', contexts: ALL_CONTEXTS, required: true },
    slug: { kind: 'string', description: 'An alphanumeric identifier for the term unique to its type.', contexts: ALL_CONTEXTS },
    taxonomy: taxonomyField('category'),
    parent: { kind: 'integer', description: 'The parent term ID.', contexts: VIEW_EDIT, column: 'parentId', linkData: '_parent', graphqlDescription: 'Parent category id; 0 for none.' },
    meta: {
      kind: 'json', description: 'Meta fields.', contexts: VIEW_EDIT, properties: {}, graphqlInput: false,
      graphqlDescription: 'Registered meta values (none are registered: an empty list).', resolve: () => [],
    },
  },
});

export const TagResource = deriveResource(CategoryResource, {
  name: 'Tag', title: 'tag', description: 'A post tag.', omit: ['parent'],
  fields: { link: link('post_tag'), taxonomy: taxonomyField('post_tag') },
});
