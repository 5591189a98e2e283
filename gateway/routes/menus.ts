// core/v2/menus, core/v2/menu-items and core/v2/menu-locations: WordPress's menus, menu items and
// menu-locations controllers (5.9+). Reading needs the right to edit some content or the theme's
// options (rest_cannot_view otherwise), the locations and every write edit_theme_options; neither
// menus nor items have a trash (DELETE without force=true is 501 rest_trash_not_supported). The
// records and their rules are the menus service's (src/menus/service.ts); GraphQL reads them with
// a public rule of its own (menus in a location), which these routes narrow to WordPress's.
import type { ArgDef, Endpoint, GatewayRequest, Params, RouteEntry } from '../types.js';
import type { RestContext } from '../operations.js';
import { WpError } from '../errors.js';
import { contextArg } from '../args/common.js';
import { pagingHeaders } from '../shape/paging.js';
import { editCheckAfter, forbiddenContext, requireCapForEdit } from '../edit-context.js';
import { CURIES } from '../shape/links.js';
import { itemSchema } from '../../src/resources/json-schema.js';
import { MenuItemList, MenuItemResource, MenuList, MenuLocationResource, MenuResource } from '../../src/resources/menus.js';
import { canEditMenus, checkMenuReadAccess } from '../../src/menus/service.js';
import { collectionArgs, inputOf, listVariables, restItem, writeArgs } from '../resources.js';

type Item = Record<string, any>;
const EDIT_MENUS = 'edit_theme_options';
const ctxOf = (p: Params) => (p.context as RestContext) ?? 'view';

const menuItem = restItem(MenuResource);
const itemItem = restItem(MenuItemResource);
const locationItem = restItem(MenuLocationResource);

/**
 * The terms controller's links, and one per location the menu fills. No `about`: WordPress's points
 * at taxonomies/nav_menu, a record this service does not list (docs/menus.md).
 */
function menuLinks(req: GatewayRequest, item: Item): Item {
  const ns = `${req.root}core/v2`;
  const links: Record<string, unknown[]> = {
    self: [{ href: `${ns}/menus/${item.id}` }],
    collection: [{ href: `${ns}/menus` }],
    'wp:post_type': [{ href: `${ns}/menu-items?menus=${item.id}` }],
  };
  const locations = Array.isArray(item.locations) ? (item.locations as string[]) : [];
  if (locations.length) links['wp:menu-location'] = locations.map((l) => ({ href: `${ns}/menu-locations/${l}`, embeddable: true }));
  links.curies = CURIES;
  return menuItem(item, links);
}

/** The posts controller's links of a menu item (no `about`, as for menus), its menu, and the object it links to. */
function itemLinks(req: GatewayRequest, item: Item): Item {
  const ns = `${req.root}core/v2`;
  const links: Record<string, unknown[]> = {
    self: [{ href: `${ns}/menu-items/${item.id}` }],
    collection: [{ href: `${ns}/menu-items` }],
    'wp:term': [{ taxonomy: 'nav_menu', embeddable: true, href: `${ns}/menus?post=${item.id}` }],
  };
  const route = item._object_route as string | undefined;
  const out = itemItem(item, null);
  // As the controller: the linked post or term, keyed by the item's type (post_type: "page").
  if (route && (out.type === 'post_type' || out.type === 'taxonomy')) {
    links['wp:menu-item-object'] = [{ href: `${ns}/${route}`, [out.type]: out.object, embeddable: true }];
  }
  links.curies = CURIES;
  out._links = links;
  return out;
}

function locationLinks(req: GatewayRequest, item: Item): Item {
  const ns = `${req.root}core/v2`;
  const links: Record<string, unknown[]> = {
    self: [{ href: `${ns}/menu-locations/${item.name}` }],
    collection: [{ href: `${ns}/menu-locations` }],
  };
  if (item.menu) links['wp:menu'] = [{ href: `${ns}/menus/${item.menu}`, embeddable: true }];
  return locationItem(item, links);
}

const menuIdArg: ArgDef = { description: 'Unique identifier for the term.', type: 'integer' };
const itemIdArg: ArgDef = { description: 'Unique identifier for the post.', type: 'integer' };

function menuRoutes(): RouteEntry[] {
  const schema = () => itemSchema(MenuResource);
  const list: Endpoint = {
    methods: ['GET'], allowBatch: true, permission: 'public', operation: 'MenusList', args: collectionArgs(MenuList),
    async handler(req) {
      const p = req.params;
      const context = ctxOf(p);
      // As the menus controller: the terms controller's edit-context check, then the read right.
      requireCapForEdit(req.ctx, context, EDIT_MENUS, 'Sorry, you are not allowed to edit terms in this taxonomy.');
      checkMenuReadAccess(req.ctx, 'menus');
      const data = await req.run(context, { ...listVariables(MenuList, p), withTotal: !req.embedded });
      const { total, totalPages, nodes } = data.menuList;
      return {
        status: 200, body: nodes.map((n: Item) => menuLinks(req, n)),
        headers: req.embedded ? {} : pagingHeaders(`${req.root}core/v2/menus`, req.query, p.page as number, total, totalPages),
      };
    },
  };
  const create: Endpoint = {
    methods: ['POST'], allowBatch: true, permission: EDIT_MENUS, operation: 'MenuCreate', args: writeArgs(MenuResource, { create: true }),
    async handler(req) {
      // The menus controller answers its writes in the view context.
      const data = await req.run('view', { input: inputOf(MenuResource, req.params) });
      const item = data.createMenu;
      return { status: 201, body: menuLinks(req, item), headers: { Location: `${req.root}core/v2/menus/${item.id}` } };
    },
  };
  const get: Endpoint = {
    methods: ['GET'], allowBatch: true, permission: 'public', operation: 'MenuGet', args: { id: menuIdArg, context: contextArg() },
    async handler(req) {
      const context = ctxOf(req.params);
      // 404 first, then the edit right of the edit context, then the read right.
      const data = await editCheckAfter(req.ctx, context, canEditMenus(req.ctx), ['rest_term_invalid'],
        () => forbiddenContext(req.ctx, 'Sorry, you are not allowed to edit this term.'),
        () => req.run(context, { id: Number(req.params.id) }));
      checkMenuReadAccess(req.ctx, 'menus');
      return { status: 200, body: menuLinks(req, data.menu) };
    },
  };
  const update: Endpoint = {
    methods: ['POST', 'PUT', 'PATCH'], allowBatch: true, permission: EDIT_MENUS, operation: 'MenuUpdate', args: { id: menuIdArg, ...writeArgs(MenuResource, { create: false }) },
    async handler(req) {
      const data = await req.run('view', { id: Number(req.params.id), input: inputOf(MenuResource, req.params) });
      return { status: 200, body: menuLinks(req, data.updateMenu) };
    },
  };
  const remove: Endpoint = {
    methods: ['DELETE'], allowBatch: true, permission: EDIT_MENUS, operation: 'MenuDelete',
    args: { id: menuIdArg, force: { type: 'boolean', default: false, description: 'Required to be true, as terms do not support trashing.' } },
    async handler(req) {
      const data = await req.run('view', { id: Number(req.params.id), force: req.params.force });
      const { deleted, previous } = data.deleteMenu;
      return { status: 200, body: { deleted, previous: menuLinks(req, previous) } };
    },
  };
  return [
    { namespace: 'core/v2', pattern: '/core/v2/menus', endpoints: [list, create], schema },
    { namespace: 'core/v2', pattern: '/core/v2/menus/(?P<id>[\\d]+)', endpoints: [get, update, remove], schema },
  ];
}

function menuItemRoutes(): RouteEntry[] {
  const schema = () => itemSchema(MenuItemResource);
  const list: Endpoint = {
    methods: ['GET'], allowBatch: true, permission: 'public', operation: 'MenuItemsList', args: collectionArgs(MenuItemList),
    async handler(req) {
      const p = req.params;
      const context = ctxOf(p);
      // As the menu items controller: the posts controller's edit-context check, then the read right.
      requireCapForEdit(req.ctx, context, EDIT_MENUS, 'Sorry, you are not allowed to edit posts in this post type.');
      checkMenuReadAccess(req.ctx, 'menu items');
      const data = await req.run(context, { ...listVariables(MenuItemList, p), withTotal: !req.embedded });
      const { total, totalPages, nodes } = data.menuItemList;
      return {
        status: 200, body: nodes.map((n: Item) => itemLinks(req, n)),
        headers: req.embedded ? {} : pagingHeaders(`${req.root}core/v2/menu-items`, req.query, p.page as number, total, totalPages),
      };
    },
  };
  const create: Endpoint = {
    methods: ['POST'], allowBatch: true, permission: EDIT_MENUS, operation: 'MenuItemCreate', args: writeArgs(MenuItemResource, { create: true }),
    async handler(req) {
      if (req.params.id !== undefined && req.params.id !== 0) throw new WpError('rest_post_exists', 'Cannot create existing post.', 400);
      const data = await req.run('edit', { input: inputOf(MenuItemResource, req.params) });
      const item = data.createMenuItem;
      return { status: 201, body: itemLinks(req, item), headers: { Location: `${req.root}core/v2/menu-items/${item.id}` } };
    },
  };
  const get: Endpoint = {
    methods: ['GET'], allowBatch: true, permission: 'public', operation: 'MenuItemGet', args: { id: itemIdArg, context: contextArg() },
    async handler(req) {
      const context = ctxOf(req.params);
      const data = await editCheckAfter(req.ctx, context, canEditMenus(req.ctx), ['rest_post_invalid_id'],
        () => forbiddenContext(req.ctx, 'Sorry, you are not allowed to edit this post.'),
        () => req.run(context, { id: Number(req.params.id) }));
      checkMenuReadAccess(req.ctx, 'menu items');
      return { status: 200, body: itemLinks(req, data.menuItem) };
    },
  };
  const update: Endpoint = {
    methods: ['POST', 'PUT', 'PATCH'], allowBatch: true, permission: EDIT_MENUS, operation: 'MenuItemUpdate', args: { id: itemIdArg, ...writeArgs(MenuItemResource, { create: false }) },
    async handler(req) {
      const data = await req.run('edit', { id: Number(req.params.id), input: inputOf(MenuItemResource, req.params) });
      return { status: 200, body: itemLinks(req, data.updateMenuItem) };
    },
  };
  const remove: Endpoint = {
    methods: ['DELETE'], allowBatch: true, permission: EDIT_MENUS, operation: 'MenuItemDelete',
    args: { id: itemIdArg, force: { type: 'boolean', default: false, description: 'Whether to bypass Trash and force deletion.' } },
    async handler(req) {
      const data = await req.run('view', { id: Number(req.params.id), force: req.params.force });
      const { deleted, previous } = data.deleteMenuItem;
      return { status: 200, body: { deleted, previous: itemLinks(req, previous) } };
    },
  };
  return [
    { namespace: 'core/v2', pattern: '/core/v2/menu-items', endpoints: [list, create], schema },
    { namespace: 'core/v2', pattern: '/core/v2/menu-items/(?P<id>[\\d]+)', endpoints: [get, update, remove], schema },
  ];
}

function menuLocationRoutes(): RouteEntry[] {
  const schema = () => itemSchema(MenuLocationResource);
  const list: Endpoint = {
    methods: ['GET'], permission: EDIT_MENUS, operation: 'MenuLocationsList', args: { context: contextArg() },
    async handler(req) {
      const data = await req.run(ctxOf(req.params), {});
      // Keyed by location, as WordPress answers the collection.
      return { status: 200, body: Object.fromEntries((data.menuLocations as Item[]).map((l) => [l.name, locationLinks(req, l)])) };
    },
  };
  const get: Endpoint = {
    methods: ['GET'], permission: EDIT_MENUS, operation: 'MenuLocationGet',
    args: { location: { description: 'An alphanumeric identifier for the menu location.', type: 'string' }, context: contextArg() },
    async handler(req) {
      const data = await req.run(ctxOf(req.params), { location: String(req.params.location) });
      return { status: 200, body: locationLinks(req, data.menuLocation) };
    },
  };
  return [
    { namespace: 'core/v2', pattern: '/core/v2/menu-locations', endpoints: [list], schema },
    { namespace: 'core/v2', pattern: '/core/v2/menu-locations/(?P<location>[\\w-]+)', endpoints: [get], schema },
  ];
}

export function navMenuRoutes(): RouteEntry[] {
  return [...menuRoutes(), ...menuItemRoutes(), ...menuLocationRoutes()];
}
