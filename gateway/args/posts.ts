// Arguments of the posts routes, in the order WordPress registers them.
import type { ArgDef } from '../types.js';
import { contentCollectionArgs as c, pagingArgs, STATUS_FILTER } from './common.js';

export const FORMATS = ['standard', 'aside', 'chat', 'gallery', 'link', 'image', 'quote', 'status', 'video', 'audio'];

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
      enum: ['author', 'date', 'id', 'include', 'modified', 'parent', 'relevance', 'slug', 'include_slugs', 'title'],
    },
    ...c.search,
    ...c.slug,
    status: { default: 'publish', description: 'Limit result set to posts assigned one or more statuses.', type: 'array', items: { enum: STATUS_FILTER, type: 'string' } },
    tax_relation: { description: 'Limit result set based on relationship between multiple taxonomies.', type: 'string', enum: ['AND', 'OR'] },
    categories: taxonomyFilter('category', true),
    categories_exclude: taxonomyFilter('category', true, true),
    tags: taxonomyFilter('post_tag', false),
    tags_exclude: taxonomyFilter('post_tag', false, true),
    sticky: { description: 'Limit result set to items that are sticky.', type: 'boolean' },
    ignore_sticky: { description: 'Whether to ignore sticky posts or not.', type: 'boolean', default: true },
    format: { description: 'Limit result set to items assigned one or more given formats.', type: 'array', uniqueItems: true, items: { enum: FORMATS, type: 'string' } },
  };
}

/** WordPress's taxonomy filter: a list of term ids, or an object with terms/operator/include_children. */
function taxonomyFilter(taxonomy: string, hierarchical: boolean, exclude = false): ArgDef {
  const what = taxonomy === 'category' ? 'categories' : 'tags';
  const terms = { description: 'Term IDs.', type: 'array', items: { type: 'integer' }, default: [] };
  const properties: Record<string, unknown> = { terms };
  if (hierarchical) properties.include_children = { description: 'Whether to include child terms in the terms limiting the result set.', type: 'boolean', default: false };
  if (!exclude) properties.operator = { description: 'Whether items must be assigned all or any of the specified terms.', type: 'string', enum: ['AND', 'OR'], default: 'OR' };
  return {
    description: exclude ? `Limit result set to items except those with specific terms assigned in the ${what} taxonomy.` : `Limit result set to items with specific terms assigned in the ${what} taxonomy.`,
    type: ['object', 'array'],
    oneOf: [
      { title: 'Term ID List', description: `Match terms with the listed IDs.`, type: 'array', items: { type: 'integer' } },
      { title: 'Term ID Taxonomy Query', description: 'Perform an advanced term query.', type: 'object', properties: properties as never, additionalProperties: false },
    ],
  };
}

const text = (what: string, withProtected: boolean, extra: Record<string, unknown> = {}): ArgDef => ({
  description: `The ${what} for the post.`,
  type: 'object',
  skipValidation: true,
  properties: {
    raw: { description: `${what[0].toUpperCase()}${what.slice(1)} for the post, as it exists in the database.`, type: 'string', context: ['edit'] },
    rendered: { description: `HTML ${what} for the post, transformed for display.`, type: 'string', context: ['view', 'edit', 'embed'], readonly: true },
    ...extra,
    ...(withProtected ? { protected: { description: `Whether the ${what} is protected with a password.`, type: 'boolean', context: ['view', 'edit', 'embed'], readonly: true } } : {}),
  } as never,
});

/** Writable fields of a post; create and update share them (WordPress adds no defaults here). */
export function postWriteArgs(): Record<string, ArgDef> {
  return {
    date: { description: "The date the post was published, in the site's timezone.", type: ['string', 'null'], format: 'date-time' },
    date_gmt: { description: 'The date the post was published, as GMT.', type: ['string', 'null'], format: 'date-time' },
    slug: { description: 'An alphanumeric identifier for the post unique to its type.', type: 'string' },
    status: { description: 'A named status for the post.', type: 'string', enum: ['publish', 'future', 'draft', 'pending', 'private'] },
    password: { description: 'A password to protect access to the content and excerpt.', type: 'string' },
    title: text('title', false),
    content: text('content', true, { block_version: { description: 'Version of the content block format used by the post.', type: 'integer', context: ['edit'], readonly: true } }),
    author: { description: 'The ID for the author of the post.', type: 'integer' },
    excerpt: text('excerpt', true),
    featured_media: { description: 'The ID of the featured media for the post.', type: 'integer' },
    comment_status: { description: 'Whether or not comments are open on the post.', type: 'string', enum: ['open', 'closed'] },
    ping_status: { description: 'Whether or not the post can be pinged.', type: 'string', enum: ['open', 'closed'] },
    format: { description: 'The format for the post.', type: 'string', enum: FORMATS },
    meta: {
      description: 'Meta fields.', type: 'object',
      properties: { footnotes: { type: 'string', description: '', default: '' } } as never,
    },
    sticky: { description: 'Whether or not the post should be treated as sticky.', type: 'boolean' },
    template: { description: 'The theme file to use to display the post.', type: 'string' },
    categories: { description: 'The terms assigned to the post in the category taxonomy.', type: 'array', items: { type: 'integer' } },
    tags: { description: 'The terms assigned to the post in the post_tag taxonomy.', type: 'array', items: { type: 'integer' } },
  };
}
