// core/v2/posts
import type { RouteEntry } from '../types.js';
import { postCollectionArgs } from '../args/posts.js';
import { PostResource } from '../../src/resources/content.js';
import { POST_TYPE } from '../../src/resources/content-types.js';
import { PostFormat, PostOrderBy, Relation } from '../../src/resources/enums.js';
import { commonFilter, contentRoutes, taxonomyFilter } from './content.js';

export function postRoutes(): RouteEntry[] {
  return contentRoutes({
    descriptor: POST_TYPE, resource: PostResource, orderBy: PostOrderBy,
    collectionArgs: postCollectionArgs,
    filter: (p) => ({
      ...commonFilter(p),
      taxRelation: p.tax_relation === undefined ? undefined : Relation.nameOf(String(p.tax_relation)),
      categories: taxonomyFilter(p.categories), categoriesExclude: taxonomyFilter(p.categories_exclude),
      tags: taxonomyFilter(p.tags), tagsExclude: taxonomyFilter(p.tags_exclude), sticky: p.sticky,
      format: Array.isArray(p.format) ? p.format.map((f) => PostFormat.nameOf(String(f))) : undefined,
    }),
  });
}
