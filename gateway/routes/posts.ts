// core/v2/posts: everything comes from the post type's descriptor and definitions.
import type { RouteEntry } from '../types.js';
import { PostList, PostResource } from '../../src/resources/content.js';
import { POST_TYPE } from '../../src/resources/content-types.js';
import { contentRoutes } from './content.js';

export const postRoutes = (): RouteEntry[] => contentRoutes({ descriptor: POST_TYPE, resource: PostResource, list: PostList });
