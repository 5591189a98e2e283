// core/v2/pages
import type { RouteEntry } from '../types.js';
import type { Runner } from '../execute.js';
import { pageCollectionArgs, pageWriteArgs } from '../args/pages.js';
import { commonFilter, commonInput, contentRoutes } from './content.js';

export function pageRoutes(run: Runner): RouteEntry[] {
  return contentRoutes({
    base: 'pages', type: 'page', op: 'Page', listField: 'pages', itemField: 'page', createCap: 'edit_pages',
    collectionArgs: pageCollectionArgs,
    writeArgs: pageWriteArgs,
    taxonomies: [],
    filter: (p) => ({ ...commonFilter(p), parent: p.parent, parentExclude: p.parent_exclude, menuOrder: p.menu_order }),
    input: (p) => {
      const input = commonInput(p);
      if (p.parent !== undefined) input.parent = p.parent;
      if (p.menu_order !== undefined) input.menuOrder = p.menu_order;
      return input;
    },
  }, run);
}
