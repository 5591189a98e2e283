import { defineContentType } from '../content/define.js';
import { PostResource } from '../../resources/content.js';
import { POST_TYPE } from '../../resources/content-types.js';
import { PostOrderBy } from '../../resources/enums.js';
import { PostRef } from './types.js';

defineContentType({ descriptor: POST_TYPE, resource: PostResource, ref: PostRef, orderBy: PostOrderBy });
