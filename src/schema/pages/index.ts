import { defineContentType } from '../content/define.js';
import { PageList, PageResource } from '../../resources/content.js';
import { PAGE_TYPE } from '../../resources/content-types.js';
import { PageRef } from './types.js';

defineContentType({ descriptor: PAGE_TYPE, resource: PageResource, ref: PageRef, list: PageList });
