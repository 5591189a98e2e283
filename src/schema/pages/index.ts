import { defineContentType } from '../content/define.js';
import { PageList, PageResource } from '../../resources/content.js';
import { PAGE_TYPE } from '../../resources/content-types.js';
import { PageRef } from './types.js';
import { defineRevisions } from '../revisions/define.js';
import { PAGE_REVISIONS, RevisionList } from '../../resources/revisions.js';

const { input } = defineContentType({ descriptor: PAGE_TYPE, resource: PageResource, ref: PageRef, list: PageList });
defineRevisions({ descriptor: PAGE_TYPE, resources: PAGE_REVISIONS, list: RevisionList, parentRef: PageRef, parentInput: input });
