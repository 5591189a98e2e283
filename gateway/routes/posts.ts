// core/v2 routes of every post-like type of the registry: posts, pages and the types of the site's
// content model, each from its descriptor and definitions, with its revisions and autosaves where
// the type keeps revisions.
import type { RouteEntry } from '../types.js';
import { POST_LIKE } from '../../src/resources/content.js';
import { POST_LIKE_REVISIONS, RevisionList } from '../../src/resources/revisions.js';
import { contentRoutes } from './content.js';
import { revisionRoutes } from './revisions.js';

export const postLikeRoutes = (): RouteEntry[] => POST_LIKE.flatMap(({ descriptor, resource, list }) => {
  const revisions = POST_LIKE_REVISIONS.get(descriptor.type);
  return [
    ...contentRoutes({ descriptor, resource, list }),
    ...(revisions ? revisionRoutes({ descriptor, parent: resource, resources: revisions, list: RevisionList }) : []),
  ];
});
