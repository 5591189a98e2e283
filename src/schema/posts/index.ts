import { defineContentType } from '../content/define.js';
import { PostList, PostResource } from '../../resources/content.js';
import { POST_TYPE } from '../../resources/content-types.js';
import { PostRef } from './types.js';
import { defineRevisions } from '../revisions/define.js';
import { POST_REVISIONS, RevisionList } from '../../resources/revisions.js';

const { input } = defineContentType({ descriptor: POST_TYPE, resource: PostResource, ref: PostRef, list: PostList });
defineRevisions({ descriptor: POST_TYPE, resources: POST_REVISIONS, list: RevisionList, parentRef: PostRef, parentInput: input });
