// Categories (hierarchical) and tags: one term definition, tags without a parent.
import type { Term } from '../generated/sqlite/client.js';
import type { Context } from '../context.js';
import { ALL_CONTEXTS, VIEW_EDIT, collectionParams, defineResource, deriveResource, type FieldDef, type ListDef, type ListParamDef, type ResourceDef } from './define.js';
import { Order, TermOrderBy } from './enums.js';
import { termAncestorSlugs } from '../terms/service.js';
import { CATEGORY, CONTENT_TYPES, POST_TAG, TAXONOMY_REFS, type TaxonomyRef } from './content-types.js';
import { CONTENT_MODEL } from '../model/config.js';

// ---------------------------------------------------------------- taxonomies

/** A taxonomy as register_taxonomy() describes it: what core/v2/taxonomies answers. */
export interface TaxonomyDescriptor extends TaxonomyRef {
  name: string;
  singularName: string;
  /** Shown in a tag cloud (WordPress: show_tagcloud). */
  showCloud: boolean;
  /** Manage, edit and delete terms; assigning them to content needs edit_posts (WordPress's defaults). */
  manageCap: string;
  assignCap: string;
  /** Its fields and collection parameters. */
  resource: ResourceDef;
  list: ListDef;
}

/** The content types a taxonomy is registered for, from their descriptors. */
export const typesOfTaxonomy = (taxonomy: string): string[] =>
  CONTENT_TYPES.filter((d) => d.supports.taxonomies.some((t) => t.taxonomy === taxonomy)).map((d) => d.type);

/** Archive links as WordPress's: `/{base}/{slug}/`, with the ancestors' slugs first in a tree. */
const link = (t: TaxonomyRef): FieldDef => ({
  kind: 'uri', description: 'URL of the term.', contexts: ALL_CONTEXTS, readonly: true, graphqlDescription: 'Archive URL of the term.',
  resolve: async (term: Term, _a: unknown, ctx: Context) => {
    const home = (await ctx.site()).home;
    const path = t.hierarchical ? [...(await termAncestorSlugs(ctx, term.parentId)), term.slug].join('/') : term.slug;
    return `${home}/${t.permalinkBase}/${path}/`;
  },
});

const taxonomyField = (taxonomy: string): FieldDef => ({
  kind: 'string', description: 'Type attribution for the term.', contexts: ALL_CONTEXTS, readonly: true, schema: { enum: [taxonomy] },
  graphqlDescription: `Always "${taxonomy}".`,
});

export const CategoryResource = defineResource({
  name: 'Category', title: 'category', description: 'A post category; categories form a tree.',
  fields: {
    databaseId: { kind: 'integer', rest: 'id', column: 'id', graphqlDescription: 'The id REST uses (in its routes and `id` fields); `id` is the global id.', description: 'Unique identifier for the term.', contexts: ALL_CONTEXTS, readonly: true },
    count: { kind: 'integer', description: 'Number of published posts for the term.', contexts: VIEW_EDIT, readonly: true },
    description: { kind: 'string', description: 'HTML description of the term.', contexts: VIEW_EDIT },
    link: link(CATEGORY),
    name: { kind: 'string', description: 'HTML title for the term.', contexts: ALL_CONTEXTS, required: true },
    slug: { kind: 'string', description: 'An alphanumeric identifier for the term unique to its type.', contexts: ALL_CONTEXTS },
    taxonomy: taxonomyField('category'),
    parentDatabaseId: { kind: 'integer', rest: 'parent', inputName: 'parent', description: 'The parent term ID.', contexts: VIEW_EDIT, column: 'parentId', linkData: '_parent', graphqlDescription: 'Parent category id, 0 for none (REST: `parent`); `parent { node }` is the category.' },
    meta: {
      kind: 'json', description: 'Meta fields.', contexts: VIEW_EDIT, properties: {}, graphqlInput: false,
      graphqlDescription: 'Registered meta values (none are registered: an empty list).', resolve: () => [],
    },
  },
});

export const TagResource = deriveResource(CategoryResource, {
  name: 'Tag', title: 'tag', description: 'A post tag.', omit: ['parentDatabaseId'],
  fields: { link: link(POST_TAG), taxonomy: taxonomyField('post_tag') },
});

// ---------------------------------------------------------------- collections

const termListParams = (hierarchical: boolean): Record<string, ListParamDef> => ({
  ...collectionParams({ perPageDefault: 10 }),
  exclude: { in: 'filter', kind: 'integer[]', description: 'Ensure result set excludes specific IDs.', default: [] },
  include: { in: 'filter', kind: 'integer[]', description: 'Limit result set to specific IDs.', default: [] },
  // As WordPress: hierarchical taxonomies are paged by page only.
  ...(hierarchical ? {} : { offset: { in: 'arg' as const, kind: 'integer' as const, description: 'Offset the result set by a specific number of items.' } }),
  order: { in: 'arg', kind: 'enum', enum: Order, description: 'Order sort attribute ascending or descending.', default: 'asc' },
  orderby: { in: 'arg', kind: 'enum', enum: TermOrderBy, description: 'Sort collection by term attribute.', default: 'name' },
  hide_empty: { in: 'filter', kind: 'boolean', description: 'Whether to hide terms not assigned to any posts.', default: false },
  ...(hierarchical ? { parent: { in: 'filter' as const, kind: 'integer' as const, description: 'Limit result set to terms assigned to a specific parent.' } } : {}),
  post: { in: 'filter', kind: 'integer', description: 'Limit result set to terms assigned to a specific post.', default: null, argSchema: { type: 'integer' } },
  slug: { in: 'filter', kind: 'string[]', description: 'Limit result set to terms with one or more specific slugs.' },
});

export const CategoryList: ListDef = { filterName: 'CategoryListFilter', description: 'Filters of a category list; every one optional.', params: termListParams(true) };
export const TagList: ListDef = { filterName: 'TagListFilter', description: 'Filters of a tag list; every one optional.', params: termListParams(false) };

// ---------------------------------------------------------------- the registry of taxonomies

const builtIn = (ref: TaxonomyRef, name: string, singularName: string, resource: ResourceDef, list: ListDef): TaxonomyDescriptor =>
  ({ ...ref, name, singularName, showCloud: true, manageCap: 'manage_categories', assignCap: 'edit_posts', resource, list });

/** A taxonomy of the site's content model: a category-like (tree) or tag-like term resource. */
function customTaxonomy(ref: TaxonomyRef): TaxonomyDescriptor {
  const config = CONTENT_MODEL.taxonomies![ref.taxonomy];
  const base = ref.hierarchical ? CategoryResource : TagResource;
  const resource = deriveResource(base, {
    name: ref.graphqlName, title: ref.taxonomy, description: config.description || `A term of the ${config.label} taxonomy.`,
    fields: {
      link: link(ref), taxonomy: taxonomyField(ref.taxonomy),
      ...(ref.hierarchical ? { parentDatabaseId: { ...CategoryResource.fields.parentDatabaseId, graphqlDescription: `Parent ${config.singularLabel.toLowerCase()} id, 0 for none (REST: \`parent\`); \`parent { node }\` is the term.` } } : {}),
    },
  });
  const list: ListDef = { filterName: `${ref.graphqlName}ListFilter`, description: `Filters of a ${config.singularLabel.toLowerCase()} list; every one optional.`, params: termListParams(ref.hierarchical) };
  return { ...ref, name: config.label, singularName: config.singularLabel, showCloud: !ref.hierarchical, manageCap: 'manage_categories', assignCap: 'edit_posts', resource, list };
}

/** Every taxonomy: categories and tags, then the site's own. */
export const TAXONOMIES: TaxonomyDescriptor[] = [
  builtIn(CATEGORY, 'Categories', 'Category', CategoryResource, CategoryList),
  builtIn(POST_TAG, 'Tags', 'Tag', TagResource, TagList),
  ...TAXONOMY_REFS.slice(2).map(customTaxonomy),
];
