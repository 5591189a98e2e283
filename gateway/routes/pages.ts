// core/v2/pages
import type { RouteEntry } from '../types.js';
import { pageCollectionArgs } from '../args/pages.js';
import { PageResource } from '../../src/resources/content.js';
import { PAGE_TYPE } from '../../src/resources/content-types.js';
import { PageOrderBy } from '../../src/resources/enums.js';
import { commonFilter, contentRoutes } from './content.js';

export function pageRoutes(): RouteEntry[] {
  return contentRoutes({
    descriptor: PAGE_TYPE, resource: PageResource, orderBy: PageOrderBy,
    collectionArgs: pageCollectionArgs,
    filter: (p) => ({ ...commonFilter(p), parent: p.parent, parentExclude: p.parent_exclude, menuOrder: p.menu_order }),
  });
}
