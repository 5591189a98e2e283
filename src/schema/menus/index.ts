// Navigation menus for GraphQL clients, in WPGraphQL's shapes: `menus` and `menuItems` as cursor
// connections with `where` (location, slug, id; location, parent, menu), `menu` and `menuItem` by
// global id or another key, `Menu` and `MenuItem` as nodes with `databaseId`, an item's
// `connectedNode { node }`, `childItems`, `parentId`/`parentDatabaseId`, `label`, `url`, `uri`,
// `target` and `cssClasses`, a menu's `locations` and `menuItems`; their writes for menu editors.
// The REST routes run `menuList`, `menuItemList` and the mutations (gateway/operations/menus.graphql).
// Who sees what is the menus service's rule (src/menus/service.ts): public sites read the menus in
// a location without signing in.
import { builder } from '../builder.js';
import { NodeRef, globalIdOf, parseGlobalId, tagType } from '../node.js';
import { PageInfoRef } from '../connections.js';
import { restError } from '../../errors.js';
import type { Context } from '../../context.js';
import { listArgs, listFilterInput, resourceFields, resourceInput } from '../resource-types.js';
import { MenuItemList, MenuItemResource, MenuList, MenuLocationResource, MenuResource } from '../../resources/menus.js';
import {
  checkDeleteMenu, checkDeleteMenuItem, childItems, findMenuBy, getMenu, getMenuItem, getMenuLocation, linkedObject, listMenuItems,
  listMenuLocations, listMenus, menuOfItem, removeMenu, removeMenuItem, saveMenu, saveMenuItem,
  type MenuFilter, type MenuInput, type MenuItemFilter, type MenuItemInput, type MenuItemRecord, type MenuLocationRecord, type MenuRecord,
} from '../../menus/service.js';

// eslint-disable-next-line @typescript-eslint/no-explicit-any
type AnyT = any;

const MAX_FIRST = 100;
const asMenu = (r: MenuRecord) => tagType(r, 'Menu');
const asItem = (r: MenuItemRecord) => tagType(r, 'MenuItem');

// ---------------------------------------------------------------- connections (offset cursors)

/** A window of a list: its records and where it sits. Cursors name the list and a position in it. */
interface Window<T> { nodes: T[]; list: string; start: number; more: boolean }

const cursorOf = (list: string, position: number) => Buffer.from(`${list}:${position}`).toString('base64url');

function readCursor(list: string, cursor: string | null | undefined): number {
  if (cursor == null) return 0;
  const m = /^([a-z0-9]+):(\d{1,9})$/.exec(Buffer.from(cursor, 'base64url').toString('utf8'));
  if (!m || m[1] !== list) throw restError('rest_invalid_param', 'Invalid parameter(s): after', 400, { params: { after: 'after is not a cursor of this list.' } });
  return Number(m[2]) + 1;
}

function firstOf(first: number | null | undefined, fallback: number): number {
  const n = first ?? fallback;
  if (n < 0 || n > MAX_FIRST) throw restError('rest_invalid_param', 'Invalid parameter(s): first', 400, { params: { first: `first must be between 0 (inclusive) and ${MAX_FIRST} (inclusive)` } });
  return n;
}

function connection<T extends object>(name: string, nodeRef: unknown, what: string) {
  const Edge = builder.objectRef<{ node: T; cursor: string }>(`${name}Edge`).implement({
    description: `One ${what} of a ${name}, with its cursor.`,
    fields: (t) => ({
      cursor: t.string({ description: 'The item\'s position in the list: pass it as `after`.', resolve: (e) => e.cursor }),
      node: t.field({ type: nodeRef as never, description: `The ${what}.`, resolve: (e) => e.node as never }),
    }),
  });
  return builder.objectRef<Window<T>>(name).implement({
    description: `A window of ${what}s, paged forwards with \`first\` and \`after\`.`,
    fields: (t) => ({
      nodes: t.field({ type: [nodeRef as never], description: `The ${what}s of the window.`, resolve: (w) => w.nodes as never }),
      edges: t.field({ type: [Edge], description: `The ${what}s of the window, with their cursors.`, resolve: (w) => w.nodes.map((node, i) => ({ node, cursor: cursorOf(w.list, w.start + i) })) }),
      pageInfo: t.field({
        type: PageInfoRef, description: 'Whether more follow, and the cursors of the window\'s ends.',
        resolve: (w) => ({
          hasNextPage: w.more, hasPreviousPage: w.start > 0,
          startCursor: w.nodes.length ? cursorOf(w.list, w.start) : null, endCursor: w.nodes.length ? cursorOf(w.list, w.start + w.nodes.length - 1) : null,
        }),
      }),
    }),
  });
}

/** One window read as a page of `first + 1` from the cursor's position. */
async function windowOf<T extends object>(list: string, first: number, after: string | null | undefined, read: (skip: number, take: number) => Promise<T[]>): Promise<Window<T>> {
  const start = readCursor(list, after);
  const rows = first ? await read(start, first + 1) : [];
  return { nodes: rows.slice(0, first), list, start, more: rows.length > first };
}

// ---------------------------------------------------------------- types

export const MenuRef = builder.objectRef<MenuRecord>('Menu');
export const MenuItemRef = builder.objectRef<MenuItemRecord>('MenuItem');
const MenuItemConnection = connection<MenuItemRecord>('MenuItemConnection', MenuItemRef, 'menu item');
const MenuConnection = connection<MenuRecord>('MenuConnection', MenuRef, 'menu');

const MenuEdge = builder.objectRef<{ node: MenuRecord }>('MenuItemToMenuEdge').implement({
  description: 'The menu an item is in.',
  fields: (t) => ({ node: t.field({ type: MenuRef, description: 'The menu.', resolve: (e) => e.node }) }),
});
const ConnectedNodeEdge = builder.objectRef<{ node: object }>('MenuItemConnectedNodeEdge').implement({
  description: 'The post, page, item of another content type, media item or term a menu item links to.',
  fields: (t) => ({ node: t.field({ type: NodeRef, description: 'The linked record (`... on Page { title { rendered } }`).', resolve: (e) => e.node as never }) }),
});
const LocationMenuEdge = builder.objectRef<{ node: MenuRecord }>('MenuLocationToMenuEdge').implement({
  description: 'The menu in a location.',
  fields: (t) => ({ node: t.field({ type: MenuRef, description: 'The menu.', resolve: (e) => e.node }) }),
});

const ItemsOfMenuWhere = builder.inputType('MenuToMenuItemConnectionWhereArgs', {
  description: 'Which items of the menu `menuItems` lists.',
  fields: (t) => ({
    parentDatabaseId: t.int({ required: false, description: 'Only the items under this item (0: the top level).' }),
  }),
});

MenuRef.implement({
  description: MenuResource.description,
  interfaces: [NodeRef],
  fields: (t) => ({
    ...(resourceFields(t, MenuResource) as object),
    menuItems: t.field({
      type: MenuItemConnection, description: 'The items of the menu the caller may see, in menu order (every level unless `where` names a parent).',
      args: {
        first: t.arg.int({ required: false, description: `How many items (at most ${MAX_FIRST}; 100 when not given).` }),
        after: t.arg.string({ required: false, description: 'Cursor of the item to start after.' }),
        where: t.arg({ type: ItemsOfMenuWhere, required: false, description: 'Which of its items.' }),
      },
      resolve: (menu, args, ctx) => windowOf(`menu${menu.id}`, firstOf(args.first, 100), args.after, async (skip, take) =>
        (await listMenuItems(ctx, { menus: [menu.id], parentDatabaseId: args.where?.parentDatabaseId ?? null }, { skip, take, orderby: 'menu_order', order: 'asc' })).nodes.map(asItem)),
    }),
  }) as never,
});

MenuItemRef.implement({
  description: MenuItemResource.description,
  interfaces: [NodeRef],
  fields: (t) => ({
    ...(resourceFields(t, MenuItemResource) as object),
    parentId: t.id({ nullable: true, description: 'Global id of the item this one is under; null at the top level.', resolve: (r) => (r.parent ? globalIdOf('MenuItem', r.parent) : null) }),
    uri: t.string({
      nullable: true, description: 'The path of `url` below the home URL when it is an address of this site (what `nodeByUri` takes), else the URL itself; null when there is none.',
      resolve: async (r, _a, ctx) => {
        if (!r.url) return null;
        const home = (await ctx.site()).home;
        return r.url === home || r.url.startsWith(`${home}/`) ? r.url.slice(home.length) || '/' : r.url;
      },
    }),
    connectedNode: t.field({
      type: ConnectedNodeEdge, nullable: true, description: 'The record the item links to (`objectId`); null for custom links, archives, and objects gone or not readable by the caller.',
      resolve: async (r, _a, ctx) => { const node = await linkedObject(ctx, r); return node ? { node } : null; },
    }),
    childItems: t.field({
      type: MenuItemConnection, description: 'The items directly under this one that the caller may see, in menu order.',
      args: {
        first: t.arg.int({ required: false, description: `How many items (at most ${MAX_FIRST}; 100 when not given).` }),
        after: t.arg.string({ required: false, description: 'Cursor of the item to start after.' }),
      },
      resolve: async (r, args, ctx) => {
        const all = await childItems(ctx, r);
        return windowOf('children', firstOf(args.first, 100), args.after, async (skip, take) => all.slice(skip, skip + take).map(asItem));
      },
    }),
    menu: t.field({
      type: MenuEdge, nullable: true, description: 'The menu the item is in (`menuDatabaseId`); null when none, or one the caller may not see.',
      resolve: async (r, _a, ctx) => { const node = await menuOfItem(ctx, r); return node ? { node: asMenu(node) } : null; },
    }),
    locations: t.stringList({
      description: 'The locations of the item\'s menu (empty when it is in none).',
      resolve: async (r, _a, ctx) => (await menuOfItem(ctx, r))?.locations ?? [],
    }),
  }) as never,
});

const MenuLocationRef = builder.objectRef<MenuLocationRecord>('MenuLocation').implement({
  description: MenuLocationResource.description,
  fields: (t) => ({
    ...(resourceFields(t, MenuLocationResource) as object),
    menu: t.field({
      type: LocationMenuEdge, nullable: true, description: 'The menu in the location; null when it is empty.',
      resolve: async (l, _a, ctx) => (l.menu ? { node: asMenu(await getMenu(ctx, l.menu)) } : null),
    }),
  }) as never,
});

// ---------------------------------------------------------------- the REST collections' lists

const MenuListRef = builder.objectRef<{ total: number; take: number; nodes: MenuRecord[] }>('MenuList').implement({
  description: 'One page of menus with the totals of the whole filtered list.',
  fields: (t) => ({
    total: t.int({ description: 'Menus matching the filter.', resolve: (l) => l.total }),
    totalPages: t.int({ description: 'Pages of this size.', resolve: (l) => Math.ceil(l.total / l.take) }),
    nodes: t.field({ type: [MenuRef], description: 'The menus of this page.', resolve: (l) => l.nodes }),
  }),
});
const MenuItemListRef = builder.objectRef<{ total: number; take: number; nodes: MenuItemRecord[] }>('MenuItemList').implement({
  description: 'One page of menu items with the totals of the whole filtered list.',
  fields: (t) => ({
    total: t.int({ description: 'Items matching the filter that the caller may see.', resolve: (l) => l.total }),
    totalPages: t.int({ description: 'Pages of this size.', resolve: (l) => Math.ceil(l.total / l.take) }),
    nodes: t.field({ type: [MenuItemRef], description: 'The items of this page.', resolve: (l) => l.nodes }),
  }),
});

interface ListArgs<F> { filter?: F | null; page?: number | null; perPage?: number | null; offset?: number | null; order?: string | null; orderby?: string | null }

/** page/per_page/offset as the REST collections take them; a page past the last is refused with `code`. */
async function paged<F, T>(args: ListArgs<F>, perPage: number, orderby: string, code: string, read: (o: { skip: number; take: number; orderby: string; order: 'asc' | 'desc' }) => Promise<{ nodes: T[]; total: number }>) {
  const take = args.perPage ?? perPage;
  const page = args.page ?? 1;
  const skip = Math.max(0, args.offset ?? (page - 1) * take);
  const result = await read({ skip, take, orderby: args.orderby ?? orderby, order: args.order === 'desc' ? 'desc' : 'asc' });
  if (page > 1 && result.total > 0 && page > Math.ceil(result.total / take)) throw restError(code, 'The page number requested is larger than the number of pages available.', 400);
  return { ...result, take };
}

// ---------------------------------------------------------------- queries

const MenuIdType = builder.enumType('MenuNodeIdType', {
  description: 'What the `id` of `menu(id:)` is.',
  values: {
    ID: { value: 'id', description: 'The global id (`Menu.id`).' },
    DATABASE_ID: { value: 'database_id', description: 'The database id (REST `id`).' },
    LOCATION: { value: 'location', description: 'A location slug: the menu in it.' },
    NAME: { value: 'name', description: 'The menu\'s name.' },
    SLUG: { value: 'slug', description: 'The menu\'s slug.' },
  },
});
const MenuItemIdType = builder.enumType('MenuItemNodeIdType', {
  description: 'What the `id` of `menuItem(id:)` is.',
  values: {
    ID: { value: 'id', description: 'The global id (`MenuItem.id`).' },
    DATABASE_ID: { value: 'database_id', description: 'The database id (REST `id`).' },
  },
});

const MenusWhere = builder.inputType('RootQueryToMenuConnectionWhereArgs', {
  description: 'Which menus `menus` lists.',
  fields: (t) => ({
    location: t.string({ required: false, description: 'The menu in this location (a slug core/v2/menu-locations names).' }),
    slug: t.string({ required: false, description: 'The menu with this slug.' }),
    id: t.int({ required: false, description: 'The menu with this database id.' }),
  }),
});
const MenuItemsWhere = builder.inputType('RootQueryToMenuItemConnectionWhereArgs', {
  description: 'Which items `menuItems` lists.',
  fields: (t) => ({
    location: t.string({ required: false, description: 'Items of the menu in this location.' }),
    menuId: t.int({ required: false, description: 'Items of this menu (database id).' }),
    parentDatabaseId: t.int({ required: false, description: 'Items under this item (0: the top level).' }),
    parentId: t.id({ required: false, description: 'Items under this item (global id).' }),
  }),
});

/** The database id a global id names for `typeName`, or null when it names none. */
const databaseIdOf = (id: string, typeName: string) => parseGlobalId(id, [typeName])?.id ?? null;
/** A database id given as an ID: digits only. */
const digits = (id: string) => (/^\d{1,9}$/.test(id) ? Number(id) : null);

builder.queryFields((t: AnyT) => ({
  menus: t.field({
    type: MenuConnection,
    description: 'Menus by name, as a cursor connection: every menu for callers who may edit content or menus, else the menus in a location.',
    args: {
      first: t.arg.int({ required: false, description: `How many menus (at most ${MAX_FIRST}; 10 when not given).` }),
      after: t.arg.string({ required: false, description: 'Cursor of the menu to start after.' }),
      where: t.arg({ type: MenusWhere, required: false, description: 'Which menus.' }),
    },
    resolve: (_r: unknown, args: { first?: number | null; after?: string | null; where?: { location?: string | null; slug?: string | null; id?: number | null } | null }, ctx: Context) => {
      const w = args.where ?? {};
      const filter: MenuFilter = { location: w.location ?? null, slug: w.slug != null ? [w.slug] : null, include: w.id != null ? [w.id] : null };
      return windowOf('menus', firstOf(args.first, 10), args.after, async (skip, take) =>
        (await listMenus(ctx, filter, { skip, take, orderby: 'name', order: 'asc' })).nodes.map(asMenu));
    },
  }),
  menu: t.field({
    type: MenuRef, nullable: true,
    description: 'One menu by global id (or another key, `idType`); an unknown database id is refused (rest_term_invalid), other keys naming none give null.',
    args: {
      id: t.arg.id({ required: true, description: 'The key, of the kind `idType` says.' }),
      idType: t.arg({ type: MenuIdType, required: false, defaultValue: 'id', description: 'What `id` is (the global id by default).' }),
    },
    resolve: async (_r: unknown, args: { id: string | number; idType?: string | null }, ctx: Context) => {
      const id = String(args.id);
      const by = args.idType ?? 'id';
      if (by === 'location' || by === 'name' || by === 'slug') { const m = await findMenuBy(ctx, by, id); return m && asMenu(m); }
      const dbId = by === 'id' ? databaseIdOf(id, 'Menu') : digits(id);
      if (dbId === null) return by === 'id' ? null : getMenu(ctx, 0);
      return asMenu(await getMenu(ctx, dbId));
    },
  }),
  menuList: t.field({
    type: MenuListRef, description: 'A page of menus as core/v2/menus lists them (by name by default).',
    args: listArgs(t, MenuList, listFilterInput(MenuList)),
    resolve: (_r: unknown, args: ListArgs<MenuFilter>, ctx: Context) =>
      paged(args, 10, 'name', 'rest_term_invalid_page_number', (o) => listMenus(ctx, args.filter ?? {}, o)),
  }),
  menuItems: t.field({
    type: MenuItemConnection,
    description: 'Menu items in menu order (then by id), as a cursor connection: those the caller may see (see `Menu`).',
    args: {
      first: t.arg.int({ required: false, description: `How many items (at most ${MAX_FIRST}; 10 when not given).` }),
      after: t.arg.string({ required: false, description: 'Cursor of the item to start after.' }),
      where: t.arg({ type: MenuItemsWhere, required: false, description: 'Which items.' }),
    },
    resolve: (_r: unknown, args: { first?: number | null; after?: string | null; where?: { location?: string | null; menuId?: number | null; parentDatabaseId?: number | null; parentId?: string | null } | null }, ctx: Context) => {
      const w = args.where ?? {};
      const parent = w.parentId != null ? databaseIdOf(String(w.parentId), 'MenuItem') ?? -1 : w.parentDatabaseId ?? null;
      const filter: MenuItemFilter = { location: w.location ?? null, menus: w.menuId != null ? [w.menuId] : null, parentDatabaseId: parent };
      return windowOf('items', firstOf(args.first, 10), args.after, async (skip, take) =>
        (await listMenuItems(ctx, filter, { skip, take, orderby: 'menu_order', order: 'asc' })).nodes.map(asItem));
    },
  }),
  menuItem: t.field({
    type: MenuItemRef, nullable: true,
    description: 'One menu item by global id (or database id, `idType`); an unknown or hidden database id is refused (rest_post_invalid_id), a global id naming none gives null.',
    args: {
      id: t.arg.id({ required: true, description: 'The key, of the kind `idType` says.' }),
      idType: t.arg({ type: MenuItemIdType, required: false, defaultValue: 'id', description: 'What `id` is (the global id by default).' }),
    },
    resolve: async (_r: unknown, args: { id: string | number; idType?: string | null }, ctx: Context) => {
      const by = args.idType ?? 'id';
      const dbId = by === 'id' ? databaseIdOf(String(args.id), 'MenuItem') : digits(String(args.id));
      if (dbId === null) return by === 'id' ? null : getMenuItem(ctx, 0);
      return asItem(await getMenuItem(ctx, dbId));
    },
  }),
  menuItemList: t.field({
    type: MenuItemListRef, description: 'A page of menu items as core/v2/menu-items lists them (by menu order by default, 100 a page).',
    args: listArgs(t, MenuItemList, listFilterInput(MenuItemList)),
    resolve: (_r: unknown, args: ListArgs<MenuItemFilter>, ctx: Context) =>
      paged(args, 100, 'menu_order', 'rest_post_invalid_page_number', (o) => listMenuItems(ctx, args.filter ?? {}, o)),
  }),
  menuLocations: t.field({
    type: [MenuLocationRef], description: 'The theme\'s menu locations the site declares, each with its menu (edit_theme_options).',
    resolve: (_r: unknown, _a: unknown, ctx: Context) => listMenuLocations(ctx),
  }),
  menuLocation: t.field({
    type: MenuLocationRef, description: 'One declared menu location (edit_theme_options; rest_menu_location_invalid for an unknown one).',
    args: { location: t.arg.string({ required: true, description: 'The location\'s slug.' }) },
    resolve: (_r: unknown, args: { location: string }, ctx: Context) => getMenuLocation(ctx, args.location),
  }),
}));

// ---------------------------------------------------------------- mutations

const MenuInputType = resourceInput(MenuResource, { description: 'Writable fields of a menu; name is required on create, omitted fields keep their value.' });
const MenuItemInputType = resourceInput(MenuItemResource, { description: 'Writable fields of a menu item; omitted fields keep their value (or get their default on create).' });

const MenuDeleteResult = builder.objectRef<{ deleted: boolean; previous: MenuRecord }>('MenuDeleteResult').implement({
  description: 'A menu deleted for good, with its items, and the menu as it was.',
  fields: (t) => ({
    deleted: t.boolean({ description: 'Always true.', resolve: (r) => r.deleted }),
    previous: t.field({ type: MenuRef, description: 'The menu before deletion.', resolve: (r) => r.previous }),
  }),
});
const MenuItemDeleteResult = builder.objectRef<{ deleted: boolean; previous: MenuItemRecord }>('MenuItemDeleteResult').implement({
  description: 'A menu item deleted for good, and the item as it was.',
  fields: (t) => ({
    deleted: t.boolean({ description: 'Always true.', resolve: (r) => r.deleted }),
    previous: t.field({ type: MenuItemRef, description: 'The item before deletion.', resolve: (r) => r.previous }),
  }),
});

builder.mutationFields((t: AnyT) => ({
  createMenu: t.field({
    type: MenuRef, description: 'Creates a menu, with its locations and auto_add setting (edit_theme_options).',
    args: { input: t.arg({ type: MenuInputType, required: true, description: 'Its fields.' }) },
    resolve: async (_r: unknown, args: { input: MenuInput }, ctx: Context) => asMenu(await getMenu(ctx, await saveMenu(ctx, null, args.input))),
  }),
  updateMenu: t.field({
    type: MenuRef, description: 'Updates a menu; `locations` given moves it to exactly those (edit_theme_options).',
    args: { id: t.arg.int({ required: true, description: 'Database id.' }), input: t.arg({ type: MenuInputType, required: true, description: 'Fields to change.' }) },
    resolve: async (_r: unknown, args: { id: number; input: MenuInput }, ctx: Context) => asMenu(await getMenu(ctx, await saveMenu(ctx, args.id, args.input))),
  }),
  deleteMenu: t.field({
    type: MenuDeleteResult, description: 'Deletes a menu and its items for good (menus have no trash: force must be true).',
    args: { id: t.arg.int({ required: true, description: 'Database id.' }), force: t.arg.boolean({ required: false, defaultValue: false, description: 'Must be true.' }) },
    resolve: async (_r: unknown, args: { id: number; force?: boolean | null }, ctx: Context) => {
      const menu = await checkDeleteMenu(ctx, args.id, !!args.force);
      await removeMenu(ctx, menu);
      return { deleted: true, previous: asMenu(menu) };
    },
  }),
  createMenuItem: t.field({
    type: MenuItemRef, description: 'Creates a menu item (edit_theme_options).',
    args: { input: t.arg({ type: MenuItemInputType, required: true, description: 'Its fields.' }) },
    resolve: async (_r: unknown, args: { input: MenuItemInput }, ctx: Context) => asItem(await getMenuItem(ctx, await saveMenuItem(ctx, null, args.input))),
  }),
  updateMenuItem: t.field({
    type: MenuItemRef, description: 'Updates a menu item (edit_theme_options).',
    args: { id: t.arg.int({ required: true, description: 'Database id.' }), input: t.arg({ type: MenuItemInputType, required: true, description: 'Fields to change.' }) },
    resolve: async (_r: unknown, args: { id: number; input: MenuItemInput }, ctx: Context) => asItem(await getMenuItem(ctx, await saveMenuItem(ctx, args.id, args.input))),
  }),
  deleteMenuItem: t.field({
    type: MenuItemDeleteResult, description: 'Deletes a menu item for good (items have no trash: force must be true); the items under it move up.',
    args: { id: t.arg.int({ required: true, description: 'Database id.' }), force: t.arg.boolean({ required: false, defaultValue: false, description: 'Must be true.' }) },
    resolve: async (_r: unknown, args: { id: number; force?: boolean | null }, ctx: Context) => {
      const item = await checkDeleteMenuItem(ctx, args.id, !!args.force);
      await removeMenuItem(ctx, item);
      return { deleted: true, previous: asItem(item) };
    },
  }),
}));
