// core/v2/pages: everything comes from the page type's descriptor and definitions.
import type { RouteEntry } from '../types.js';
import { PageList, PageResource } from '../../src/resources/content.js';
import { PAGE_TYPE } from '../../src/resources/content-types.js';
import { PAGE_REVISIONS, RevisionList } from '../../src/resources/revisions.js';
import { contentRoutes } from './content.js';
import { revisionRoutes } from './revisions.js';

export const pageRoutes = (): RouteEntry[] => [
  ...contentRoutes({ descriptor: PAGE_TYPE, resource: PageResource, list: PageList }),
  ...revisionRoutes({ descriptor: PAGE_TYPE, parent: PageResource, resources: PAGE_REVISIONS, list: RevisionList }),
];
