// Navigation menus, their items and the theme's menu locations: WordPress's menus, menu items and
// menu-locations controllers (5.9+). Their records are made by the menus service (src/menus/),
// not read from one table's columns, so these definitions read the records' own properties. They
// are not entries of the content-type and taxonomy registry: menus and items are no public
// content (see docs/menus.md).
import type { Context } from '../context.js';
import { ALL_CONTEXTS, EDIT, VIEW_EDIT, collectionParams, defineEnum, defineResource, type ListDef } from './define.js';
import { ContentStatus, ContentStatusFilter, ContentWriteStatus, Order, PageOrderBy, TermOrderBy } from './enums.js';
import { invalidParam } from '../errors.js';
import { canEditMenus, type MenuItemRecord } from '../menus/service.js';

export const MenuItemType = defineEnum('MenuItemType', 'The family of object a menu item stands for.', ['taxonomy', 'post_type', 'post_type_archive', 'custom'] as const, {
  taxonomy: 'A term (its archive).',
  post_type: 'A post, page or item of another content type.',
  post_type_archive: 'The archive of a content type (the posts list for posts).',
  custom: 'A link given by its URL.',
});

export const MenuResource = defineResource({
  name: 'Menu', title: 'nav_menu', description: 'A navigation menu: a named, ordered tree of menu items a theme shows in its locations.',
  fields: {
    databaseId: { kind: 'integer', rest: 'id', column: 'id', graphqlDescription: 'The id REST uses (in its routes and `id` fields); `id` is the global id.', description: 'Unique identifier for the term.', contexts: ALL_CONTEXTS, readonly: true },
    description: { kind: 'string', description: 'HTML description of the term.', contexts: VIEW_EDIT },
    name: { kind: 'string', description: 'HTML title for the term.', contexts: ALL_CONTEXTS, required: true, graphqlDescription: 'Name of the menu, unique among menus (required on create).' },
    slug: { kind: 'string', description: 'An alphanumeric identifier for the term unique to its type.', contexts: ALL_CONTEXTS },
    meta: {
      kind: 'json', description: 'Meta fields.', contexts: VIEW_EDIT, properties: {}, graphqlInput: false,
      graphqlDescription: 'Registered meta values (none are registered: an empty list).', resolve: () => [],
    },
    locations: {
      kind: 'string[]', description: 'The locations assigned to the menu.', contexts: VIEW_EDIT,
      graphqlDescription: 'The theme locations this menu fills (their slugs, as core/v2/menu-locations names them); writing it moves the menu to exactly these.',
    },
    autoAdd: {
      kind: 'boolean', description: 'Whether to automatically add top level pages to this menu.', contexts: VIEW_EDIT,
      graphqlDescription: 'Whether new top-level pages are to be added to this menu (stored and reported; see docs/menus.md).',
    },
    count: { kind: 'integer', rest: false, readonly: true, description: 'How many items the menu holds (every status).' },
  },
});

/** A title written as a string or as `{raw}` (the block editor sends either). */
function titleInput(value: unknown, param: string): string | undefined {
  if (value === undefined) return undefined;
  if (typeof value === 'string') return value;
  if (value === null) return '';
  if (typeof value === 'object' && 'raw' in value) return String((value as { raw: unknown }).raw ?? '');
  if (typeof value === 'object') return undefined;
  return invalidParam(param, 'rest_invalid_type', `${param} is not of type string,object.`, { param });
}

export const MenuItemResource = defineResource({
  name: 'MenuItem', title: 'nav_menu_item', description: 'An entry of a navigation menu: a link to a post, page, term, archive or any URL, possibly under another entry.',
  fields: {
    databaseId: { kind: 'integer', rest: 'id', column: 'id', graphqlDescription: 'The id REST uses (in its routes and `id` fields); `id` is the global id.', description: 'Unique identifier for the object.', contexts: ALL_CONTEXTS, readonly: true },
    title: {
      kind: 'object', graphqlType: 'ContentText', contexts: ALL_CONTEXTS, description: 'The title for the object.',
      graphqlDescription: 'The label: `raw` as stored (or the linked object\'s title when none is stored; null unless the caller may edit menus), `rendered` as displayed.',
      properties: {
        raw: { graphql: 'raw', kind: 'string', nullable: true, description: 'Title for the object, as it exists in the database.', contexts: EDIT },
        rendered: { kind: 'string', description: 'HTML title for the object, transformed for display.', contexts: ALL_CONTEXTS, readonly: true },
      },
      inputKind: 'string', fromRest: titleInput, skipValidation: true,
      resolve: (r: MenuItemRecord, _a: unknown, ctx: Context) => ({ raw: r.title, rendered: r.label, showRaw: canEditMenus(ctx), isProtected: false, blockVersion: 0 }),
    },
    status: { kind: 'enum', enum: ContentWriteStatus, outputEnum: ContentStatus, description: 'A named status for the object.', contexts: ALL_CONTEXTS, default: 'publish', graphqlDescription: 'publish, or draft (any other status written is stored as draft, as WordPress does).' },
    url: { kind: 'string', description: 'The URL to which this menu item points.', contexts: ALL_CONTEXTS, graphqlDescription: 'Where the item links: a custom link\'s own URL, else its object\'s address (empty when the object is gone).' },
    attrTitle: { kind: 'string', description: 'Text for the title attribute of the link element for this menu item.', contexts: ALL_CONTEXTS },
    description: { kind: 'string', description: 'The description of this menu item.', contexts: ALL_CONTEXTS },
    type: { kind: 'enum', enum: MenuItemType, description: 'The family of objects originally represented, such as "post_type" or "taxonomy".', contexts: ALL_CONTEXTS, default: 'custom' },
    typeLabel: { kind: 'string', description: 'The singular label used to describe this type of menu item.', contexts: ALL_CONTEXTS, readonly: true },
    object: { kind: 'string', description: 'The type of object originally represented, such as "category", "post", or "attachment".', contexts: ALL_CONTEXTS },
    objectId: {
      kind: 'integer', description: 'The database ID of the original object this menu item represents, for example the ID for posts or the term_id for categories.',
      contexts: ALL_CONTEXTS, default: 0, schema: { minimum: 0 }, graphqlDescription: 'Database id of the linked post or term (a custom link\'s own id); `connectedNode` is the record.',
    },
    parentDatabaseId: {
      kind: 'integer', rest: 'parent', inputName: 'parent', column: 'parent', description: 'The ID for the parent of the object.', contexts: ALL_CONTEXTS, default: 0, schema: { minimum: 0 },
      graphqlDescription: 'Id of the item this one is under, 0 at the top level (REST: `parent`).',
    },
    menuOrder: { kind: 'integer', description: 'The DB ID of the nav_menu_item that is this item\'s menu parent, if any, otherwise 0.', contexts: ALL_CONTEXTS, default: 1, schema: { minimum: 1 }, graphqlDescription: 'Position of the item in its menu, from 1.' },
    target: { kind: 'string', description: 'The target attribute of the link element for this menu item.', contexts: ALL_CONTEXTS, schema: { enum: ['_blank', ''] }, graphqlDescription: 'The link\'s target: `_blank` or empty.' },
    cssClasses: { kind: 'string[]', rest: 'classes', column: 'classes', description: 'Class names for the link element of this menu item.', contexts: ALL_CONTEXTS },
    xfn: { kind: 'string[]', description: 'The XFN relationship expressed in the link of this menu item.', contexts: ALL_CONTEXTS },
    invalid: { kind: 'boolean', description: 'Whether the menu item represents an object that no longer exists.', contexts: ALL_CONTEXTS, readonly: true, graphqlDescription: 'Whether the linked object is gone or in the trash (such items are shown to menu editors only).' },
    meta: {
      kind: 'json', description: 'Meta fields.', contexts: VIEW_EDIT, properties: {}, graphqlInput: false,
      graphqlDescription: 'Registered meta values (none are registered: an empty list).', resolve: () => [],
    },
    menuDatabaseId: {
      kind: 'integer', rest: 'menus', inputName: 'menuId', column: 'menuId', description: 'The terms assigned to the object in the nav_menu taxonomy.', contexts: VIEW_EDIT,
      graphqlDescription: 'Id of the menu the item is in, 0 for none (REST: `menus`); `menu { node }` is the menu.',
    },
    label: { kind: 'string', rest: false, readonly: true, description: 'The label as displayed (`title.rendered`), as WPGraphQL names it.' },
    objectRoute: {
      kind: 'string', rest: false, linkData: '_object_route', readonly: true,
      description: 'The REST route of the linked object below core/v2 (`pages/7`), empty when there is none.',
    },
  },
});

export const MenuLocationResource = defineResource({
  name: 'MenuLocation', title: 'menu-location', description: 'A place in the theme where a menu can be shown, as the site declares it.',
  fields: {
    name: { kind: 'string', description: 'The name of the menu location.', contexts: ALL_CONTEXTS, readonly: true, graphqlDescription: 'The location\'s slug (primary, footer …).' },
    description: { kind: 'string', description: 'The description of the menu location.', contexts: ALL_CONTEXTS, readonly: true },
    menuDatabaseId: { kind: 'integer', rest: 'menu', column: 'menu', description: 'The ID of the assigned menu.', contexts: ALL_CONTEXTS, readonly: true, graphqlDescription: 'Id of the menu in the location, 0 for none (REST: `menu`).' },
  },
});

// ---------------------------------------------------------------- collections

/** The menus controller's collection: the terms controller's, for a flat taxonomy. */
export const MenuList: ListDef = {
  filterName: 'MenuListFilter', description: 'Filters of a menu list; every one optional.',
  params: {
    ...collectionParams({ perPageDefault: 10 }),
    exclude: { in: 'filter', kind: 'integer[]', description: 'Ensure result set excludes specific IDs.', default: [] },
    include: { in: 'filter', kind: 'integer[]', description: 'Limit result set to specific IDs.', default: [] },
    offset: { in: 'arg', kind: 'integer', description: 'Offset the result set by a specific number of items.' },
    order: { in: 'arg', kind: 'enum', enum: Order, description: 'Order sort attribute ascending or descending.', default: 'asc' },
    orderby: { in: 'arg', kind: 'enum', enum: TermOrderBy, description: 'Sort collection by term attribute.', default: 'name' },
    hide_empty: { in: 'filter', kind: 'boolean', description: 'Whether to hide terms not assigned to any posts.', default: false, graphqlDescription: 'Whether to leave out menus without items.' },
    post: { in: 'filter', kind: 'integer', description: 'Limit result set to terms assigned to a specific post.', default: null, argSchema: { type: 'integer' }, graphqlDescription: 'Only the menu holding this menu item.' },
    slug: { in: 'filter', kind: 'string[]', description: 'Limit result set to terms with one or more specific slugs.' },
  },
};

/** The menu items controller's collection: the posts controller's, by menu order, 100 a page. */
export const MenuItemList: ListDef = {
  filterName: 'MenuItemListFilter', description: 'Filters of a menu item list; every one optional.',
  params: {
    ...collectionParams({ perPageDefault: 100 }),
    exclude: { in: 'filter', kind: 'integer[]', description: 'Ensure result set excludes specific IDs.', default: [] },
    include: { in: 'filter', kind: 'integer[]', description: 'Limit result set to specific IDs.', default: [] },
    offset: { in: 'arg', kind: 'integer', description: 'Offset the result set by a specific number of items.' },
    order: { in: 'arg', kind: 'enum', enum: Order, description: 'Order sort attribute ascending or descending.', default: 'asc' },
    orderby: { in: 'arg', kind: 'enum', enum: PageOrderBy, description: 'Sort collection by object attribute.', default: 'menu_order' },
    slug: { in: 'filter', kind: 'string[]', description: 'Limit result set to posts with one or more specific slugs.' },
    status: {
      in: 'filter', kind: 'enum[]', enum: ContentStatusFilter, description: 'Limit result set to posts assigned one or more statuses.', default: 'publish',
      graphqlDescription: 'Statuses to list (publish by default); any other needs the right to edit menus.',
    },
    menus: { in: 'filter', kind: 'integer[]', description: 'Limit result set to items with specific terms assigned in the menus taxonomy.', graphqlDescription: 'Only items of these menus.' },
    menus_exclude: { in: 'filter', kind: 'integer[]', description: 'Limit result set to items except those with specific terms assigned in the menus taxonomy.', graphqlDescription: 'Leave out items of these menus.' },
    menu_order: { in: 'filter', kind: 'integer', description: 'Limit result set to posts with a specific menu_order value.' },
  },
};
