import { defineContentType } from '../content/define.js';
import { PostList, PostResource } from '../../resources/content.js';
import { POST_TYPE } from '../../resources/content-types.js';
import { PostRef } from './types.js';

defineContentType({ descriptor: POST_TYPE, resource: PostResource, ref: PostRef, list: PostList });
