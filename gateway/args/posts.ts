// Collection arguments of the posts routes, in the order WordPress registers them. The write
// arguments come from the post definition (src/resources/content.ts); value lists from its enums.
import type { ArgDef } from '../types.js';
import { contentCollectionArgs as c, pagingArgs } from './common.js';
import { ContentStatusFilter, PostFormat, PostOrderBy, Relation } from '../../src/resources/enums.js';

export function postCollectionArgs(): Record<string, ArgDef> {
  return {
    ...pagingArgs(),
    after: c.dateBounds.after,
    modified_after: c.dateBounds.modified_after,
    ...c.author,
    before: c.dateBounds.before,
    modified_before: c.dateBounds.modified_before,
    ...c.ids,
    ...c.offset,
    ...c.order,
    orderby: {
      description: 'Sort collection by post attribute.', type: 'string', default: 'date',
      enum: [...PostOrderBy.values],
    },
    ...c.search,
    ...c.slug,
    status: { default: 'publish', description: 'Limit result set to posts assigned one or more statuses.', type: 'array', items: { enum: [...ContentStatusFilter.values], type: 'string' } },
    tax_relation: { description: 'Limit result set based on relationship between multiple taxonomies.', type: 'string', enum: [...Relation.values] },
    categories: taxonomyFilter('category', true),
    categories_exclude: taxonomyFilter('category', true, true),
    tags: taxonomyFilter('post_tag', false),
    tags_exclude: taxonomyFilter('post_tag', false, true),
    sticky: { description: 'Limit result set to items that are sticky.', type: 'boolean' },
    ignore_sticky: { description: 'Whether to ignore sticky posts or not.', type: 'boolean', default: true },
    format: { description: 'Limit result set to items assigned one or more given formats.', type: 'array', uniqueItems: true, items: { enum: [...PostFormat.values], type: 'string' } },
  };
}

/** WordPress's taxonomy filter: a list of term ids, or an object with terms/operator/include_children. */
function taxonomyFilter(taxonomy: string, hierarchical: boolean, exclude = false): ArgDef {
  const what = taxonomy === 'category' ? 'categories' : 'tags';
  const terms = { description: 'Term IDs.', type: 'array', items: { type: 'integer' }, default: [] };
  const properties: Record<string, unknown> = { terms };
  if (hierarchical) properties.include_children = { description: 'Whether to include child terms in the terms limiting the result set.', type: 'boolean', default: false };
  if (!exclude) properties.operator = { description: 'Whether items must be assigned all or any of the specified terms.', type: 'string', enum: [...Relation.values], default: 'OR' };
  return {
    description: exclude ? `Limit result set to items except those with specific terms assigned in the ${what} taxonomy.` : `Limit result set to items with specific terms assigned in the ${what} taxonomy.`,
    type: ['object', 'array'],
    oneOf: [
      { title: 'Term ID List', description: `Match terms with the listed IDs.`, type: 'array', items: { type: 'integer' } },
      { title: 'Term ID Taxonomy Query', description: 'Perform an advanced term query.', type: 'object', properties: properties as never, additionalProperties: false },
    ],
  };
}

