import { defineContentType } from '../content/define.js';
import { PageResource } from '../../resources/content.js';
import { PAGE_TYPE } from '../../resources/content-types.js';
import { PageOrderBy } from '../../resources/enums.js';
import { PageRef } from './types.js';

defineContentType({ descriptor: PAGE_TYPE, resource: PageResource, ref: PageRef, orderBy: PageOrderBy });
