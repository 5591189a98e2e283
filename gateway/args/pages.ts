// Collection arguments of the pages routes: the post set without taxonomies, sticky and format,
// plus parent and menu order.
import type { ArgDef } from '../types.js';
import { postCollectionArgs } from './posts.js';
import { PageOrderBy } from '../../src/resources/enums.js';

const POST_ONLY = ['tax_relation', 'categories', 'categories_exclude', 'tags', 'tags_exclude', 'sticky', 'ignore_sticky', 'format'];

export function pageCollectionArgs(): Record<string, ArgDef> {
  const args: Record<string, ArgDef> = {};
  for (const [name, arg] of Object.entries(postCollectionArgs())) {
    if (POST_ONLY.includes(name)) continue;
    args[name] = name === 'orderby' ? { ...arg, enum: [...PageOrderBy.values] } : arg;
    if (name === 'offset') {
      args.menu_order = { description: 'Limit result set to posts with a specific menu_order value.', type: 'integer' };
    }
  }
  args.parent = { description: 'Limit result set to items with particular parent IDs.', type: 'array', items: { type: 'integer' }, default: [] };
  args.parent_exclude = { description: 'Limit result set to all items except those of a particular parent ID.', type: 'array', items: { type: 'integer' }, default: [] };
  return args;
}

