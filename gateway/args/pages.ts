// Arguments of the pages routes: the post sets without taxonomies, sticky and format, plus
// parent and menu order.
import type { ArgDef } from '../types.js';
import { postCollectionArgs, postWriteArgs } from './posts.js';

const POST_ONLY = ['tax_relation', 'categories', 'categories_exclude', 'tags', 'tags_exclude', 'sticky', 'ignore_sticky', 'format'];

export function pageCollectionArgs(): Record<string, ArgDef> {
  const args: Record<string, ArgDef> = {};
  for (const [name, arg] of Object.entries(postCollectionArgs())) {
    if (POST_ONLY.includes(name)) continue;
    args[name] = name === 'orderby' ? { ...arg, enum: [...(arg.enum as string[]), 'menu_order'] } : arg;
    if (name === 'offset') {
      args.menu_order = { description: 'Limit result set to posts with a specific menu_order value.', type: 'integer' };
    }
  }
  args.parent = { description: 'Limit result set to items with particular parent IDs.', type: 'array', items: { type: 'integer' }, default: [] };
  args.parent_exclude = { description: 'Limit result set to all items except those of a particular parent ID.', type: 'array', items: { type: 'integer' }, default: [] };
  return args;
}

export function pageWriteArgs(): Record<string, ArgDef> {
  const args: Record<string, ArgDef> = {};
  for (const [name, arg] of Object.entries(postWriteArgs())) {
    if (['format', 'sticky', 'categories', 'tags'].includes(name)) continue;
    args[name] = arg;
    if (name === 'author') args.parent = { description: 'The ID for the parent of the post.', type: 'integer' };
    if (name === 'featured_media') args.menu_order = { description: 'The order of the post in relation to other posts.', type: 'integer' };
  }
  return args;
}
