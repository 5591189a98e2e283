// core/v2/posts
import type { RouteEntry } from '../types.js';
import type { Runner } from '../execute.js';
import { postCollectionArgs, postWriteArgs } from '../args/posts.js';
import { commonFilter, commonInput, contentRoutes, taxonomyFilter } from './content.js';

export function postRoutes(run: Runner): RouteEntry[] {
  return contentRoutes({
    base: 'posts', type: 'post', op: 'Post', listField: 'posts', itemField: 'post', createCap: 'edit_posts',
    collectionArgs: postCollectionArgs,
    writeArgs: postWriteArgs,
    taxonomies: [{ taxonomy: 'category', base: 'categories' }, { taxonomy: 'post_tag', base: 'tags' }],
    filter: (p) => ({
      ...commonFilter(p),
      taxRelation: p.tax_relation, categories: taxonomyFilter(p.categories), categoriesExclude: taxonomyFilter(p.categories_exclude),
      tags: taxonomyFilter(p.tags), tagsExclude: taxonomyFilter(p.tags_exclude), sticky: p.sticky, format: p.format,
    }),
    input: (p) => {
      const input = commonInput(p);
      for (const [rest, gql] of [['format', 'format'], ['sticky', 'sticky'], ['categories', 'categories'], ['tags', 'tags']] as const) {
        if (p[rest] !== undefined) input[gql] = p[rest];
      }
      return input;
    },
  }, run);
}
