// core/v2/posts: everything comes from the post type's descriptor and definitions.
import type { RouteEntry } from '../types.js';
import { PostList, PostResource } from '../../src/resources/content.js';
import { POST_TYPE } from '../../src/resources/content-types.js';
import { POST_REVISIONS, RevisionList } from '../../src/resources/revisions.js';
import { contentRoutes } from './content.js';
import { revisionRoutes } from './revisions.js';

export const postRoutes = (): RouteEntry[] => [
  ...contentRoutes({ descriptor: POST_TYPE, resource: PostResource, list: PostList }),
  ...revisionRoutes({ descriptor: POST_TYPE, parent: PostResource, resources: POST_REVISIONS, list: RevisionList }),
];
