// Navigation menus, stored as WordPress stores them: a menu is a term of the `nav_menu` taxonomy,
// an item is a content row of type `nav_menu_item` (its label in `title`, its description in
// `content`, its title attribute in `excerpt`, its position in `menuOrder`) joined to its menu by
// a term relationship, with the rest in WordPress's `_menu_item_*` post meta. Which menu fills a
// theme location is the `nav_menu_locations` option; the menus whose `auto_add` is on are listed in
// `nav_menu_options`. Neither menus nor items are registry entries (src/resources/content-types.ts):
// they have no pages of their own, no permalinks, and no place in search, sitemaps or `nodeByUri`.
//
// Reading rules. WordPress's REST controllers let whoever may edit some content (or the theme's
// options) read menus and items, and nobody else (`rest_cannot_view`); the REST routes keep that
// (`checkMenuReadAccess`). GraphQL also serves public sites, as WPGraphQL does: a caller without
// that right sees the menus assigned to a location and their published items. Items whose object
// is gone or in the trash (WordPress's `_invalid`), or not readable by the caller, are left out of
// every read by a caller who may not edit menus (WordPress drops invalid items outside the admin);
// menu editors see them, with `invalid: true`.
import type { Content, Prisma as PrismaNS, Term } from '../generated/sqlite/client.js';
import type { Context } from '../context.js';
import type { Tx } from '../db/client.js';
import { authStatus, invalidParam, restError } from '../errors.js';
import { recordContentEvent, type ContentAction } from '../content/events.js';
import { setOption } from '../site/options.js';
import { sanitizeTitle } from '../content/slug.js';
import { filterTitleHtml, hasAllowedScheme } from '../content/kses.js';
import { renderTitle } from '../content/render.js';
import { nowDates, readableRows } from '../content/service.js';
import { ancestorSlugs } from '../content/fields.js';
import { CONTENT_TYPES, POST_TYPE, permalink, taxonomyRef } from '../resources/content-types.js';
import { TAXONOMIES } from '../resources/terms.js';
import { orderedTermIds, termAncestorSlugs, termOrder, termWhere, type TermFilter } from '../terms/service.js';
import { MENU_LOCATIONS, isMenuLocation } from './locations.js';

export const NAV_MENU = 'nav_menu';
export const NAV_MENU_ITEM = 'nav_menu_item';
const LOCATIONS_OPTION = 'nav_menu_locations';
const MENU_OPTIONS = 'nav_menu_options';
const META = {
  type: '_menu_item_type', object: '_menu_item_object', objectId: '_menu_item_object_id', parent: '_menu_item_menu_item_parent',
  target: '_menu_item_target', classes: '_menu_item_classes', xfn: '_menu_item_xfn', url: '_menu_item_url',
} as const;
const META_KEYS = Object.values(META);

// ---------------------------------------------------------------- rights

/** Writing menus and items, and seeing drafts and invalid items: WordPress maps them all to edit_theme_options. */
export const canEditMenus = (ctx: Context): boolean => ctx.can('edit_theme_options');

/** The controllers' check_has_read_only_access(): the theme's options, or editing any content type. */
export function canReadMenus(ctx: Context): boolean {
  if (ctx.can('edit_theme_options') || ctx.can('edit_posts')) return true;
  return CONTENT_TYPES.some((d) => ctx.can(d.caps.edit_posts));
}

/** The REST routes' read rule (what GraphQL relaxes for menus in a location). */
export function checkMenuReadAccess(ctx: Context, what: 'menus' | 'menu items'): void {
  if (!canReadMenus(ctx)) throw restError('rest_cannot_view', `Sorry, you are not allowed to view ${what}.`, authStatus(!!ctx.viewer));
}

function requireEdit(ctx: Context, code: string, message: string): void {
  if (!canEditMenus(ctx)) throw restError(code, message, authStatus(!!ctx.viewer));
}

// ---------------------------------------------------------------- options

interface MenuOptions { locations: Record<string, number>; autoAdd: number[] }
type OptionReader = { option: { findMany(args: { where: { name: { in: string[] } } }): Promise<{ name: string; value: string }[]> } };

async function readMenuOptions(prisma: OptionReader): Promise<MenuOptions> {
  const rows = await prisma.option.findMany({ where: { name: { in: [LOCATIONS_OPTION, MENU_OPTIONS] } } });
  const parse = (name: string): unknown => {
    const row = rows.find((r) => r.name === name);
    try { return row ? JSON.parse(row.value) : null; } catch { return null; }
  };
  const locations: Record<string, number> = {};
  const stored = parse(LOCATIONS_OPTION);
  if (stored && typeof stored === 'object' && !Array.isArray(stored)) {
    for (const [slug, id] of Object.entries(stored as Record<string, unknown>)) if (Number.isInteger(id) && (id as number) > 0) locations[slug] = id as number;
  }
  const options = parse(MENU_OPTIONS) as { auto_add?: unknown } | null;
  const autoAdd = Array.isArray(options?.auto_add) ? options!.auto_add.filter((n): n is number => Number.isInteger(n)) : [];
  return { locations, autoAdd };
}

/** The options as this request last read them; a write of this module forgets them. */
const optionsRead = new WeakMap<Context, Promise<MenuOptions>>();
function menuOptions(ctx: Context): Promise<MenuOptions> {
  let read = optionsRead.get(ctx);
  if (!read) optionsRead.set(ctx, (read = readMenuOptions(ctx.prisma)));
  return read;
}

/** The declared locations a menu fills, in declaration order. */
const locationsOf = (o: MenuOptions, menuId: number): string[] => Object.keys(MENU_LOCATIONS).filter((slug) => o.locations[slug] === menuId);

/** The menus assigned to a declared location: what callers without the read right may see. */
async function publicMenuIds(ctx: Context): Promise<number[]> {
  const o = await menuOptions(ctx);
  return [...new Set(Object.keys(MENU_LOCATIONS).map((slug) => o.locations[slug]).filter((id): id is number => id !== undefined))];
}

// ---------------------------------------------------------------- menus: reads

export interface MenuRecord {
  id: number;
  name: string;
  slug: string;
  description: string;
  /** Items in the menu (the term's count, kept by the item writes). */
  count: number;
  locations: string[];
  autoAdd: boolean;
}

const menuRecord = (t: Term, o: MenuOptions): MenuRecord => ({
  id: t.id, name: t.name, slug: t.slug, description: t.description, count: t.count, locations: locationsOf(o, t.id), autoAdd: o.autoAdd.includes(t.id),
});

/** Menus by id, in the order asked, each or null when there is none (no rights checked). */
async function menusById(ctx: Context, ids: number[]): Promise<(MenuRecord | null)[]> {
  if (!ids.length) return [];
  const [rows, o] = await Promise.all([ctx.prisma.term.findMany({ where: { id: { in: ids }, taxonomy: NAV_MENU } }), menuOptions(ctx)]);
  return ids.map((id) => { const t = rows.find((r) => r.id === id); return t ? menuRecord(t, o) : null; });
}

/** A menu whoever asks, or 404 (the terms controller's get_term()); writes check their own right after it. */
async function findMenu(ctx: Context, id: number): Promise<MenuRecord> {
  const [menu] = id > 0 ? await menusById(ctx, [id]) : [null];
  if (!menu) throw restError('rest_term_invalid', 'Term does not exist.', 404);
  return menu;
}

/** One menu as the terms controller reads it: 404 when there is none; hidden menus refused. */
export async function getMenu(ctx: Context, id: number): Promise<MenuRecord> {
  const menu = await findMenu(ctx, id);
  if (!canReadMenus(ctx) && !(await publicMenuIds(ctx)).includes(id)) checkMenuReadAccess(ctx, 'menus');
  return menu;
}

/** A menu by slug, name or location, for GraphQL's `menu(idType:)`; null when none (or hidden). */
export async function findMenuBy(ctx: Context, by: 'slug' | 'name' | 'location', value: string): Promise<MenuRecord | null> {
  let id: number | undefined;
  if (by === 'location') id = isMenuLocation(value) ? (await menuOptions(ctx)).locations[value] : undefined;
  else id = (await ctx.prisma.term.findFirst({ where: { taxonomy: NAV_MENU, [by]: value }, select: { id: true } }))?.id;
  if (id === undefined) return null;
  const [menu] = await menusById(ctx, [id]);
  if (!menu || (!canReadMenus(ctx) && !(await publicMenuIds(ctx)).includes(id))) return null;
  return menu;
}

export interface MenuFilter extends TermFilter {
  /** GraphQL: the menu in this location (none when the location is empty or not declared). */
  location?: string | null;
}

/** A page of menus: the terms controller's list (name order by default); public callers see those in a location. */
export async function listMenus(ctx: Context, f: MenuFilter, o: { skip: number; take: number; orderby: string; order: 'asc' | 'desc' }): Promise<{ nodes: MenuRecord[]; total: number }> {
  const and: PrismaNS.TermWhereInput[] = [termWhere(NAV_MENU, f, ctx.db.provider)];
  if (f.location != null) {
    const id = isMenuLocation(f.location) ? (await menuOptions(ctx)).locations[f.location] : undefined;
    and.push({ id: id ?? -1 });
  }
  if (!canReadMenus(ctx)) and.push({ id: { in: await publicMenuIds(ctx) } });
  const where: PrismaNS.TermWhereInput = { AND: and };
  const [total, ordered] = await Promise.all([ctx.prisma.term.count({ where }), orderedTermIds(ctx, where, o.orderby, f, o.skip, o.take)]);
  const rows = ordered
    ? (await ctx.prisma.term.findMany({ where: { id: { in: ordered } } })).sort((a, b) => ordered.indexOf(a.id) - ordered.indexOf(b.id))
    : await ctx.prisma.term.findMany({ where, orderBy: termOrder(o.orderby, o.order), skip: o.skip, take: o.take });
  const opts = await menuOptions(ctx);
  return { nodes: rows.map((t) => menuRecord(t, opts)), total };
}

// ---------------------------------------------------------------- menus: writes

/** What a caller writes in the same transaction as a menu or an item (an import's record of where it came from). */
export interface WriteOptions { within?: (tx: Tx, id: number) => Promise<void> }

export interface MenuInput { name?: string | null; slug?: string | null; description?: string | null; locations?: string[] | null; autoAdd?: boolean | null }

/** Creates (id null) or updates a menu, its locations and its auto_add setting, in one transaction; returns its id. */
export async function saveMenu(ctx: Context, id: number | null, input: MenuInput, o: WriteOptions = {}): Promise<number> {
  const existing = id === null ? null : await findMenu(ctx, id);
  if (existing) requireEdit(ctx, 'rest_cannot_update', 'Sorry, you are not allowed to edit this term.');
  else requireEdit(ctx, 'rest_cannot_create', 'Sorry, you are not allowed to create terms in this taxonomy.');
  for (const location of input.locations ?? []) {
    if (!isMenuLocation(location)) invalidParam('locations', 'rest_invalid_menu_location', 'Invalid menu location.', { location });
  }
  const filter = ctx.can('unfiltered_html') ? (s: string) => s : filterTitleHtml;
  const name = input.name != null ? filter(input.name).trim() : existing?.name ?? '';
  if (!name) throw restError('empty_term_name', 'A name is required for this term.', 400);
  const description = input.description != null ? filter(input.description) : existing?.description ?? '';
  const savedId = await ctx.prisma.$transaction(async (tx) => {
    const others = await tx.term.findMany({ where: { taxonomy: NAV_MENU, ...(existing ? { id: { not: existing.id } } : {}) }, select: { id: true, name: true, slug: true } });
    // As wp_update_nav_menu_object(): menu names are unique, compared as MySQL's collation does (case-blind).
    const clash = others.find((m) => m.name.toLowerCase() === name.toLowerCase());
    if (clash) {
      throw restError('menu_exists', `The menu name <strong>${name.replace(/[<>&"]/g, (c) => `&#${c.charCodeAt(0)};`)}</strong> conflicts with another menu name. Please try another.`, 400, { term_id: clash.id });
    }
    const base = (input.slug != null ? sanitizeTitle(input.slug) : '') || (input.slug == null && existing ? existing.slug : '') || sanitizeTitle(name) || 'menu';
    const taken = new Set(others.map((m) => m.slug));
    let slug = base;
    for (let n = 2; taken.has(slug); n++) slug = `${base}-${n}`;
    const data = { name, slug, description };
    const menuId = existing ? (await tx.term.update({ where: { id: existing.id }, data })).id : (await tx.term.create({ data: { taxonomy: NAV_MENU, ...data } })).id;
    const before = await readMenuOptions(tx);
    const after = await writeMenuOptions(tx, before, menuId, input);
    await o.within?.(tx, menuId);
    await recordContentEvent(tx, ctx.db, {
      kind: 'menu', action: existing ? 'updated' : 'created', type: NAV_MENU, id: menuId, status: 'publish', previousStatus: existing ? 'publish' : '',
      authorId: ctx.viewer?.id ?? 0, parentId: null,
      data: { name, slug, locations: locationsOf(after, menuId), previousLocations: existing ? locationsOf(before, menuId) : [], autoAdd: after.autoAdd.includes(menuId) },
    });
    return menuId;
  });
  optionsRead.delete(ctx);
  return savedId;
}

/** The menus' handle_locations() and handle_auto_add(): only what the input names changes. */
async function writeMenuOptions(tx: Tx, before: MenuOptions, menuId: number, input: MenuInput): Promise<MenuOptions> {
  const after: MenuOptions = { locations: { ...before.locations }, autoAdd: [...before.autoAdd] };
  if (input.locations != null) {
    for (const [slug, id] of Object.entries(after.locations)) if (id === menuId) delete after.locations[slug];
    for (const slug of input.locations) after.locations[slug] = menuId;
    await setOption(tx, LOCATIONS_OPTION, after.locations);
  }
  if (input.autoAdd != null) {
    const has = after.autoAdd.includes(menuId);
    if (input.autoAdd && !has) after.autoAdd.push(menuId);
    if (!input.autoAdd && has) after.autoAdd.splice(after.autoAdd.indexOf(menuId), 1);
    await setOption(tx, MENU_OPTIONS, { auto_add: after.autoAdd });
  }
  return after;
}

/** The delete's checks, in the menus controller's order: 404, the right, then force (menus have no trash). */
export async function checkDeleteMenu(ctx: Context, id: number, force: boolean): Promise<MenuRecord> {
  const menu = await findMenu(ctx, id);
  requireEdit(ctx, 'rest_cannot_delete', 'Sorry, you are not allowed to delete this term.');
  if (!force) throw restError('rest_trash_not_supported', "Menus do not support trashing. Set 'force=true' to delete.", 501);
  return menu;
}

/** wp_delete_nav_menu(): the menu, its items and its places in the locations and auto_add lists go together. */
export async function removeMenu(ctx: Context, menu: MenuRecord): Promise<void> {
  await ctx.prisma.$transaction(async (tx) => {
    const items = (await tx.termRelationship.findMany({ where: { termId: menu.id }, select: { contentId: true } })).map((r) => r.contentId);
    if (items.length) await tx.content.deleteMany({ where: { id: { in: items }, type: NAV_MENU_ITEM } });
    await tx.term.delete({ where: { id: menu.id } });
    const before = await readMenuOptions(tx);
    if (Object.values(before.locations).includes(menu.id)) {
      await setOption(tx, LOCATIONS_OPTION, Object.fromEntries(Object.entries(before.locations).filter(([, id]) => id !== menu.id)));
    }
    if (before.autoAdd.includes(menu.id)) await setOption(tx, MENU_OPTIONS, { auto_add: before.autoAdd.filter((id) => id !== menu.id) });
    await recordContentEvent(tx, ctx.db, {
      kind: 'menu', action: 'deleted', type: NAV_MENU, id: menu.id, status: 'publish', previousStatus: 'publish', authorId: ctx.viewer?.id ?? 0, parentId: null,
      data: { name: menu.name, slug: menu.slug, locations: menu.locations, items },
    });
  });
  optionsRead.delete(ctx);
}

// ---------------------------------------------------------------- locations

export interface MenuLocationRecord { name: string; description: string; menu: number }

function requireLocationsRight(ctx: Context): void {
  requireEdit(ctx, 'rest_cannot_view', 'Sorry, you are not allowed to view menu locations.');
}

/** Every declared location with the menu in it (0 for none): the menu-locations controller (edit_theme_options). */
export async function listMenuLocations(ctx: Context): Promise<MenuLocationRecord[]> {
  requireLocationsRight(ctx);
  const o = await menuOptions(ctx);
  return Object.entries(MENU_LOCATIONS).map(([name, description]) => ({ name, description, menu: o.locations[name] ?? 0 }));
}

/** One location: the right first, then 404 for a location the site does not declare (as WordPress). */
export async function getMenuLocation(ctx: Context, name: string): Promise<MenuLocationRecord> {
  requireLocationsRight(ctx);
  if (!isMenuLocation(name)) throw restError('rest_menu_location_invalid', 'Invalid menu location.', 404);
  return { name, description: MENU_LOCATIONS[name], menu: (await menuOptions(ctx)).locations[name] ?? 0 };
}

// ---------------------------------------------------------------- items: reads

export type MenuItemType = 'taxonomy' | 'post_type' | 'post_type_archive' | 'custom';

export interface MenuItemRecord {
  id: number;
  /** The label as stored, or the linked object's when it is empty (WordPress's menu item `title`). */
  title: string;
  /** The label as displayed (the title filtered as WordPress's `the_title`). */
  label: string;
  status: string;
  url: string;
  attrTitle: string;
  description: string;
  type: MenuItemType;
  typeLabel: string;
  object: string;
  objectId: number;
  parent: number;
  menuOrder: number;
  target: string;
  classes: string[];
  xfn: string[];
  invalid: boolean;
  /** The menu the item is in, 0 for none. */
  menuId: number;
  authorId: number;
  /** The linked post or term, when it exists (any status: readers are checked where it is shown). */
  linked: { kind: 'content'; row: Content } | { kind: 'term'; row: Term } | null;
  /** Its REST route below core/v2 (`pages/7`), for the `wp:menu-item-object` link; '' when none. */
  objectRoute: string;
  /** Whether a caller without the edit right may see it: valid, and its object readable by the caller. */
  visible: boolean;
}

interface ItemRow {
  id: number; title: string; content: string; excerpt: string; status: string; menuOrder: number; authorId: number;
  meta: { key: string; value: string }[]; terms: { termId: number }[];
}

const ITEM_INCLUDE = {
  meta: { where: { key: { in: META_KEYS } }, select: { key: true, value: true }, orderBy: { id: 'asc' } },
  terms: { where: { taxonomy: NAV_MENU }, select: { termId: true } },
} as const;

/** The stored meta of an item, first value of each key. */
function metaOf(row: Pick<ItemRow, 'meta'>): Record<string, string> {
  const m: Record<string, string> = {};
  for (const { key, value } of row.meta) if (!(key in m)) m[key] = value;
  return m;
}

/** sanitize_html_class(): percent-encoded octets and anything but A-Z, a-z, 0-9, _ and - go. */
const htmlClass = (s: string) => s.replace(/%[a-fA-F0-9][a-fA-F0-9]/g, '').replace(/[^A-Za-z0-9_-]/g, '');

function classesOf(stored: string | undefined): string[] {
  if (stored === undefined) return [''];
  try {
    const parsed = JSON.parse(stored) as unknown;
    if (Array.isArray(parsed)) return parsed.map(String);
  } catch { /* a space-separated list */ }
  return stored.split(' ').map(htmlClass);
}

const itemType = (v: string | undefined): MenuItemType => (v === 'taxonomy' || v === 'post_type' || v === 'post_type_archive' ? v : 'custom');

/** The objects items link to, read once per request for every item that names them (any status). */
function linkedContent(ctx: Context) {
  return ctx.loader<number, Content | null>('menuItemContent', async (ids) => {
    const rows = await ctx.prisma.content.findMany({ where: { id: { in: [...ids] } } });
    return ids.map((id) => rows.find((r) => r.id === id) ?? null);
  });
}
function linkedTerms(ctx: Context) {
  return ctx.loader<number, Term | null>('menuItemTerm', async (ids) => {
    const rows = await ctx.prisma.term.findMany({ where: { id: { in: [...ids] } } });
    return ids.map((id) => rows.find((r) => r.id === id) ?? null);
  });
}

/** A type's archive address, as get_post_type_archive_link(): the posts page for posts, `/{base}/` for the model's types. */
async function archiveLink(ctx: Context, type: string): Promise<string> {
  const site = await ctx.site();
  if (type === POST_TYPE.type) {
    if (site.showOnFront === 'page' && site.pageForPosts) {
      const page = await linkedContent(ctx).load(site.pageForPosts);
      if (page) return permalink(site, page, await ancestorSlugs(ctx, page));
    }
    return `${site.home}/`;
  }
  const d = CONTENT_TYPES.find((c) => c.type === type);
  return d?.custom ? `${site.home}/${d.custom.permalinkBase}/` : '';
}

/** wp_setup_nav_menu_item(): an item's stored fields with what its object lends it (label, URL, validity). */
async function setupItem(ctx: Context, row: ItemRow): Promise<MenuItemRecord> {
  const m = metaOf(row);
  const type = itemType(m[META.type]);
  const objectId = Number.parseInt(m[META.objectId] ?? '0', 10) || 0;
  const object = m[META.object] ?? (type === 'custom' ? 'custom' : '');
  const site = await ctx.site();
  let title = row.title;
  let url = '';
  let typeLabel = 'Custom Link';
  let invalid = false;
  let linked: MenuItemRecord['linked'] = null;
  let objectRoute = '';
  let readable = true;
  if (type === 'post_type') {
    const d = CONTENT_TYPES.find((c) => c.type === object);
    const target = objectId > 0 ? await linkedContent(ctx).load(objectId) : null;
    typeLabel = d?.about.singularName ?? object;
    invalid = !d || !target || target.status === 'trash';
    if (target) {
      linked = { kind: 'content', row: target };
      url = permalink(site, target, await ancestorSlugs(ctx, target));
      const route = CONTENT_TYPES.find((c) => c.type === target.type);
      if (route) objectRoute = `${route.restBase}/${target.id}`;
      if (title === '') title = target.title === '' ? `#${target.id} (no title)` : target.title;
      readable = (await readableRows(ctx, [target])).length === 1;
    }
  } else if (type === 'taxonomy') {
    const t = TAXONOMIES.find((x) => x.taxonomy === object);
    const term = objectId > 0 ? await linkedTerms(ctx).load(objectId) : null;
    typeLabel = t?.singularName ?? object;
    invalid = !t || !term;
    if (term) {
      linked = { kind: 'term', row: term };
      const ref = taxonomyRef(term.taxonomy);
      if (ref) {
        const path = ref.hierarchical ? [...(await termAncestorSlugs(ctx, term.parentId)), term.slug].join('/') : term.slug;
        url = `${site.home}/${ref.permalinkBase}/${path}/`;
        objectRoute = `${ref.restBase}/${term.id}`;
      }
      if (title === '') title = term.name;
    }
  } else if (type === 'post_type_archive') {
    const d = CONTENT_TYPES.find((c) => c.type === object);
    typeLabel = 'Post Type Archive';
    invalid = !d;
    if (d) {
      url = await archiveLink(ctx, d.type);
      if (title === '') title = d.about.name;
    }
  } else {
    url = m[META.url] ?? '';
  }
  return {
    id: row.id, title, label: renderTitle(title), status: row.status, url, attrTitle: row.excerpt, description: row.content,
    type, typeLabel, object, objectId, parent: Number.parseInt(m[META.parent] ?? '0', 10) || 0, menuOrder: row.menuOrder,
    target: m[META.target] === '_blank' ? '_blank' : '', classes: classesOf(m[META.classes]),
    xfn: (m[META.xfn] ?? '').split(' ').map(htmlClass), invalid, menuId: row.terms[0]?.termId ?? 0, authorId: row.authorId,
    linked, objectRoute, visible: !invalid && readable && row.status === 'publish',
  };
}

/** Items by id, in the order asked (null for none): one read of the rows, their meta and menus; their objects batched. */
async function itemsById(ctx: Context, ids: number[]): Promise<(MenuItemRecord | null)[]> {
  if (!ids.length) return [];
  const rows = await ctx.prisma.content.findMany({ where: { id: { in: ids }, type: NAV_MENU_ITEM }, include: ITEM_INCLUDE }) as unknown as ItemRow[];
  const records = await Promise.all(rows.map((r) => setupItem(ctx, r)));
  return ids.map((id) => records.find((r) => r.id === id) ?? null);
}

/** Whether the caller may see an item: menu editors all, readers the visible items of any menu, others those of a menu in a location. */
async function mayRead(ctx: Context, item: MenuItemRecord): Promise<boolean> {
  if (canEditMenus(ctx)) return true;
  if (!item.visible) return false;
  return canReadMenus(ctx) || (await publicMenuIds(ctx)).includes(item.menuId);
}

/** One item as the menu items controller reads it: 404 for none, and for one the caller may not see. */
export async function getMenuItem(ctx: Context, id: number): Promise<MenuItemRecord> {
  const [item] = id > 0 ? await itemsById(ctx, [id]) : [null];
  if (!item) throw restError('rest_post_invalid_id', 'Invalid post ID.', 404);
  if (!(await mayRead(ctx, item))) {
    // Readers who may not see it as it is (a draft, an invalid item) are refused as WordPress refuses
    // an unreadable post; callers without the read right are told so, as the REST routes tell them.
    if (canReadMenus(ctx)) {
      if (item.status !== 'publish') throw restError('rest_forbidden', 'Sorry, you are not allowed to do that.', authStatus(!!ctx.viewer));
      throw restError('rest_post_invalid_id', 'Invalid post ID.', 404);
    }
    checkMenuReadAccess(ctx, 'menu items');
    throw restError('rest_post_invalid_id', 'Invalid post ID.', 404);
  }
  return item;
}

export interface MenuItemFilter {
  menus?: number[] | null;
  menusExclude?: number[] | null;
  include?: number[] | null;
  exclude?: number[] | null;
  search?: string | null;
  slug?: string[] | null;
  status?: string[] | null;
  menuOrder?: number | null;
  /** GraphQL: items under this item (0: top-level items). */
  parentDatabaseId?: number | null;
  /** GraphQL: items of the menu in this location. */
  location?: string | null;
}

const ITEM_STATUSES = ['publish', 'future', 'draft', 'pending', 'private', 'trash', 'auto-draft', 'inherit', 'any'];

/** The posts controller's status rule: publish for all; the others for those who may edit items (menu editors). */
function checkItemStatuses(ctx: Context, statuses: string[]): string[] {
  for (const s of statuses) {
    if (!ITEM_STATUSES.includes(s)) invalidParam('status', 'rest_not_in_enum', `status[0] is not one of ${ITEM_STATUSES.join(', ')}.`);
    if (s !== 'publish' && !canEditMenus(ctx)) throw restError('rest_forbidden_status', 'Status is forbidden.', authStatus(!!ctx.viewer));
  }
  if (statuses.includes('any')) return ['publish', 'future', 'draft', 'pending', 'private'];
  return statuses.length ? statuses : ['publish'];
}

type ItemOrderBy = 'author' | 'date' | 'id' | 'include' | 'modified' | 'parent' | 'relevance' | 'slug' | 'include_slugs' | 'title' | 'menu_order';

function itemOrder(orderby: ItemOrderBy, order: 'asc' | 'desc'): PrismaNS.ContentOrderByWithRelationInput[] {
  const column: Record<string, string> = { author: 'authorId', date: 'date', id: 'id', modified: 'modified', parent: 'parentId', slug: 'slug', title: 'title', menu_order: 'menuOrder', relevance: 'title' };
  const c = column[orderby] ?? 'menuOrder';
  return c === 'id' ? [{ id: order }] : [{ [c]: order }, { id: 'asc' }];
}

/**
 * A page of items: the menu items controller's list (menu order by default), each item as the
 * caller may see it (see the top of this module). The matches are read as ids with what decides
 * their visibility, filtered, then the page is read whole: a fixed number of statements per page.
 */
export async function listMenuItems(ctx: Context, f: MenuItemFilter, o: { skip: number; take: number; orderby: string; order: 'asc' | 'desc' }): Promise<{ nodes: MenuItemRecord[]; total: number }> {
  const orderby = o.orderby as ItemOrderBy;
  if (orderby === 'relevance' && !f.search) throw restError('rest_no_search_term_defined', 'You need to define a search term to order by relevance.', 400);
  if (orderby === 'include' && !f.include?.length) throw restError('rest_orderby_include_missing_include', 'You need to define an include parameter to order by include.', 400);
  const statuses = checkItemStatuses(ctx, f.status ?? []);
  const and: PrismaNS.ContentWhereInput[] = [{ type: NAV_MENU_ITEM }, { status: { in: statuses } }];
  if (f.include?.length) and.push({ id: { in: f.include } });
  if (f.exclude?.length) and.push({ id: { notIn: f.exclude } });
  if (f.slug?.length) and.push({ slug: { in: f.slug } });
  if (f.menuOrder != null) and.push({ menuOrder: f.menuOrder });
  if (f.menus?.length) and.push({ terms: { some: { termId: { in: f.menus } } } });
  if (f.menusExclude?.length) and.push({ terms: { none: { termId: { in: f.menusExclude } } } });
  if (f.search) {
    const mode = ctx.db.provider === 'postgres' ? ({ mode: 'insensitive' } as const) : {};
    and.push({ OR: [{ title: { contains: f.search, ...mode } }, { excerpt: { contains: f.search, ...mode } }, { content: { contains: f.search, ...mode } }] });
  }
  if (f.location != null) {
    const id = isMenuLocation(f.location) ? (await menuOptions(ctx)).locations[f.location] : undefined;
    and.push({ terms: { some: { termId: id ?? -1 } } });
  }
  if (f.parentDatabaseId != null) {
    and.push(f.parentDatabaseId === 0
      ? { meta: { none: { key: META.parent, value: { not: '0' } } } }
      : { meta: { some: { key: META.parent, value: String(f.parentDatabaseId) } } });
  }
  if (!canReadMenus(ctx)) and.push({ terms: { some: { termId: { in: await publicMenuIds(ctx) } } } });
  const where: PrismaNS.ContentWhereInput = { AND: and };
  let ids: number[];
  if (canEditMenus(ctx)) {
    ids = (await ctx.prisma.content.findMany({ where, orderBy: itemOrder(orderby, o.order), select: { id: true, slug: true } })).map((r) => r.id);
  } else {
    // Validity depends on the linked objects: every match is set up (their objects read once), then filtered.
    const matches = (await ctx.prisma.content.findMany({ where, orderBy: itemOrder(orderby, o.order), include: ITEM_INCLUDE })) as unknown as ItemRow[];
    const records = await Promise.all(matches.map((r) => setupItem(ctx, r)));
    ids = records.filter((r) => r.visible).map((r) => r.id);
  }
  if (orderby === 'include' && f.include?.length) ids = f.include.filter((id) => ids.includes(id));
  if (orderby === 'include_slugs' && f.slug?.length) {
    const slugs = new Map((await ctx.prisma.content.findMany({ where: { id: { in: ids } }, select: { id: true, slug: true } })).map((r) => [r.id, r.slug]));
    ids = [...ids].sort((a, b) => f.slug!.indexOf(slugs.get(a)!) - f.slug!.indexOf(slugs.get(b)!));
  }
  const page = ids.slice(o.skip, o.skip + o.take);
  const nodes = (await itemsById(ctx, page)).filter((r): r is MenuItemRecord => r !== null);
  return { nodes, total: ids.length };
}

/** The items under one item (in menu order), as the caller may see them: `childItems`. */
export async function childItems(ctx: Context, item: MenuItemRecord): Promise<MenuItemRecord[]> {
  const batch = ctx.loader<string, MenuItemRecord[]>('menuChildItems', async (keys) => {
    const parents = [...new Set(keys.map((k) => Number(k.split(':')[1])))];
    const rows = await ctx.prisma.content.findMany({
      where: { type: NAV_MENU_ITEM, meta: { some: { key: META.parent, value: { in: parents.map(String) } } } },
      orderBy: [{ menuOrder: 'asc' }, { id: 'asc' }], include: ITEM_INCLUDE,
    }) as unknown as ItemRow[];
    const records = await Promise.all(rows.map((r) => setupItem(ctx, r)));
    const seen = await Promise.all(records.map((r) => mayRead(ctx, r)));
    return keys.map((k) => {
      const [menu, parent] = k.split(':').map(Number);
      return records.filter((r, i) => seen[i] && r.parent === parent && r.menuId === menu && (canEditMenus(ctx) || r.status === 'publish'));
    });
  });
  return batch.load(`${item.menuId}:${item.id}`);
}

/** The menu an item is in, as the caller may see it; null for none. */
export async function menuOfItem(ctx: Context, item: MenuItemRecord): Promise<MenuRecord | null> {
  if (!item.menuId) return null;
  const menu = await ctx.loader<number, MenuRecord | null>('menuById', (ids) => menusById(ctx, [...ids])).load(item.menuId);
  if (!menu || canReadMenus(ctx) || (await publicMenuIds(ctx)).includes(menu.id)) return menu;
  return null;
}

/** The post or term an item links to, if the caller may read it (connectedNode). */
export async function linkedObject(ctx: Context, item: MenuItemRecord): Promise<Content | Term | null> {
  if (!item.linked) return null;
  if (item.linked.kind === 'term') return taxonomyRef(item.linked.row.taxonomy) ? item.linked.row : null;
  const row = item.linked.row;
  if (!CONTENT_TYPES.some((d) => d.type === row.type)) return null;
  return (await readableRows(ctx, [row]))[0] ?? null;
}

// ---------------------------------------------------------------- items: writes

export interface MenuItemInput {
  title?: string | null;
  status?: string | null;
  url?: string | null;
  attrTitle?: string | null;
  description?: string | null;
  type?: string | null;
  object?: string | null;
  objectId?: number | null;
  parent?: number | null;
  menuOrder?: number | null;
  target?: string | null;
  cssClasses?: string[] | null;
  xfn?: string[] | null;
  menuId?: number | null;
}

/** sanitize_text_field(): no tags, no line breaks or runs of white space, trimmed. */
const textField = (s: string) => s.replace(/<[^>]*>?/g, '').replace(/[\r\n\t ]+/g, ' ').trim();
/** sanitize_key(): lower case letters, digits, _ and -. */
const key = (s: string) => s.toLowerCase().replace(/[^a-z0-9_-]/g, '');
/** An address esc_url_raw() keeps: empty, relative, or with a scheme kses allows. */
const validUrl = (url: string) => url === '' || (!/[\s<>"]/.test(url) && hasAllowedScheme(url));

/**
 * Creates (id null) or updates an item, as wp_update_nav_menu_item() through the menu items
 * controller: the stored values are the base, the input replaces what it names; the linked object
 * must exist; custom links need a label and a URL; the menu and the parent item must exist. The
 * row, its meta and its menu are written in one transaction with the menu's count and the event.
 */
export async function saveMenuItem(ctx: Context, id: number | null, input: MenuItemInput, o: WriteOptions = {}): Promise<number> {
  let existing: MenuItemRecord | null = null;
  if (id !== null) {
    [existing] = id > 0 ? await itemsById(ctx, [id]) : [null];
    if (!existing) throw restError('rest_post_invalid_id', 'Invalid post ID.', 404);
    requireEdit(ctx, 'rest_cannot_edit', 'Sorry, you are not allowed to edit this post.');
  } else {
    requireEdit(ctx, 'rest_cannot_create', 'Sorry, you are not allowed to create posts as this user.');
  }
  const v = {
    type: itemType(input.type ?? existing?.type),
    object: input.object != null ? key(input.object) : existing?.object ?? '',
    objectId: input.objectId ?? existing?.objectId ?? 0,
    parent: input.parent ?? existing?.parent ?? 0,
    // As the controller: a stored item at position 0 is read as the first.
    menuOrder: input.menuOrder ?? (existing ? existing.menuOrder || 1 : 1),
    title: input.title ?? existing?.title ?? '',
    url: input.url != null ? input.url.trim() : existing?.url ?? '',
    description: input.description != null ? textField(input.description) : existing?.description ?? '',
    attrTitle: input.attrTitle != null ? textField(input.attrTitle) : existing?.attrTitle ?? '',
    target: input.target ?? existing?.target ?? '',
    classes: (input.cssClasses ?? existing?.classes ?? []).join(' ').split(' ').map(htmlClass),
    xfn: (input.xfn ?? existing?.xfn ?? []).join(' ').split(' ').map(htmlClass).join(' '),
    status: (input.status ?? existing?.status ?? 'publish') === 'publish' ? 'publish' : 'draft',
    // As the controller: `menus` 0 (or none) keeps the item in its menu.
    menuId: input.menuId || existing?.menuId || 0,
  };
  if (v.target !== '' && v.target !== '_blank') invalidParam('target', 'rest_not_in_enum', 'target is not one of _blank, and .');
  if (input.url != null && !validUrl(v.url)) invalidParam('url', 'rest_invalid_url', 'Invalid URL.');
  // The object the item links to, in the controller's order of checks.
  if (v.type === 'taxonomy') {
    const term = v.objectId > 0 ? await ctx.prisma.term.findUnique({ where: { id: v.objectId } }) : null;
    if (!term || !taxonomyRef(term.taxonomy)) throw restError('rest_term_invalid_id', 'Invalid term ID.', 400);
    v.object = term.taxonomy;
  } else if (v.type === 'post_type') {
    const post = v.objectId > 0 ? await ctx.prisma.content.findUnique({ where: { id: v.objectId }, select: { type: true } }) : null;
    if (!post || !CONTENT_TYPES.some((d) => d.type === post.type)) throw restError('rest_post_invalid_id', 'Invalid post ID.', 400);
    v.object = post.type;
  } else if (v.type === 'post_type_archive') {
    if (!CONTENT_TYPES.some((d) => d.type === v.object)) throw restError('rest_post_invalid_type', 'Invalid post type.', 400);
    v.objectId = 0;
  }
  if (v.type === 'custom') {
    if (v.title === '') throw restError('rest_title_required', 'The title is required when using a custom menu item type.', 400);
    if (v.url === '') throw restError('rest_url_required', 'The url is required when using a custom menu item type.', 400);
  } else {
    // wp_update_nav_menu_item() keeps a URL for custom links only; an item that repeats its object's label keeps none of its own.
    v.url = '';
    if (existing && input.title == null && v.title === existing.title && existing.linked) v.title = rawLabelOf(existing);
  }
  if (v.menuId && !(await ctx.prisma.term.findFirst({ where: { id: v.menuId, taxonomy: NAV_MENU }, select: { id: true } }))) {
    throw restError('invalid_menu_id', 'Invalid menu ID.', 400);
  }
  // WordPress resets an item named as its own parent; a parent must be an item, and no item may end up under itself.
  if (existing && v.parent === existing.id) v.parent = 0;
  if (v.parent) await checkParent(ctx, existing?.id ?? null, v.parent);
  const title = ctx.can('unfiltered_html') ? v.title : filterTitleHtml(v.title);
  const site = await ctx.site();
  const at = nowDates(site);
  const itemId = await ctx.prisma.$transaction(async (tx) => {
    const row = { title, content: v.description, excerpt: v.attrTitle, status: v.status, menuOrder: v.menuOrder, modified: at.local, modifiedGmt: at.gmt };
    let savedId: number;
    if (existing) {
      savedId = (await tx.content.update({ where: { id: existing.id }, data: row })).id;
      await tx.postMeta.deleteMany({ where: { contentId: savedId, key: { in: META_KEYS } } });
      await tx.termRelationship.deleteMany({ where: { contentId: savedId, taxonomy: NAV_MENU } });
    } else {
      savedId = (await tx.content.create({
        data: { ...row, type: NAV_MENU_ITEM, authorId: ctx.viewer?.id ?? 0, date: at.local, dateGmt: at.gmt, commentStatus: 'closed', pingStatus: 'closed' },
      })).id;
      // As WordPress: an item's slug is its id, and its guid the plain link.
      await tx.content.update({ where: { id: savedId }, data: { slug: String(savedId), guid: `${site.home}/?p=${savedId}` } });
    }
    const objectId = v.type === 'custom' ? savedId : v.objectId;
    const object = v.type === 'custom' ? 'custom' : v.object;
    await tx.postMeta.createMany({
      data: [
        [META.type, v.type], [META.parent, String(v.parent)], [META.objectId, String(objectId)], [META.object, object],
        [META.target, v.target], [META.classes, JSON.stringify(v.classes)], [META.xfn, v.xfn], [META.url, v.url],
      ].map(([k, value]) => ({ contentId: savedId, key: k, value })),
    });
    if (v.menuId) await tx.termRelationship.create({ data: { contentId: savedId, termId: v.menuId, taxonomy: NAV_MENU } });
    await recountMenus(tx, [...new Set([v.menuId, existing?.menuId ?? 0])].filter(Boolean));
    await o.within?.(tx, savedId);
    await recordContentEvent(tx, ctx.db, itemEvent(existing ? 'updated' : 'created', {
      id: savedId, status: v.status, previousStatus: existing?.status ?? '', authorId: existing?.authorId ?? ctx.viewer?.id ?? 0, parent: v.parent,
      data: { menu: v.menuId, previousMenu: existing?.menuId ?? 0, title, type: v.type, object, objectId, menuOrder: v.menuOrder },
    }));
    return savedId;
  });
  return itemId;
}

/** The label an item lends from its object (what an empty stored label shows). */
function rawLabelOf(item: MenuItemRecord): string {
  if (item.linked?.kind === 'term') return item.title === item.linked.row.name ? '' : item.title;
  if (item.linked?.kind === 'content') return item.title === item.linked.row.title || item.title === `#${item.linked.row.id} (no title)` ? '' : item.title;
  return item.title;
}

async function checkParent(ctx: Context, id: number | null, parent: number): Promise<void> {
  const bad = () => restError('invalid_menu_item_parent', 'Invalid menu item parent ID.', 400);
  const seen = new Set<number>();
  for (let at = parent; at; ) {
    if (at === id || seen.has(at)) throw bad();
    seen.add(at);
    const row = await ctx.prisma.content.findFirst({ where: { id: at, type: NAV_MENU_ITEM }, select: { meta: { where: { key: META.parent }, select: { value: true } } } });
    if (!row) throw bad();
    at = Number.parseInt(row.meta[0]?.value ?? '0', 10) || 0;
  }
}

/** A menu's count: the items in it (WordPress counts a nav_menu term's objects). */
async function recountMenus(tx: Tx, menuIds: number[]): Promise<void> {
  for (const termId of menuIds) {
    const count = await tx.termRelationship.count({ where: { termId } });
    await tx.term.updateMany({ where: { id: termId, taxonomy: NAV_MENU }, data: { count } });
  }
}

function itemEvent(action: ContentAction, e: { id: number; status: string; previousStatus: string; authorId: number; parent: number; data: Record<string, unknown> }) {
  return { kind: 'menu' as const, action, type: NAV_MENU_ITEM, id: e.id, status: e.status, previousStatus: e.previousStatus, authorId: e.authorId, parentId: e.parent || null, data: e.data };
}

/** The delete's checks, in the controller's order: 404, the right, then force (items have no trash). */
export async function checkDeleteMenuItem(ctx: Context, id: number, force: boolean): Promise<MenuItemRecord> {
  const [item] = id > 0 ? await itemsById(ctx, [id]) : [null];
  if (!item) throw restError('rest_post_invalid_id', 'Invalid post ID.', 404);
  requireEdit(ctx, 'rest_cannot_delete', 'Sorry, you are not allowed to delete this post.');
  if (!force) throw restError('rest_trash_not_supported', "Menu items do not support trashing. Set 'force=true' to delete.", 501);
  return item;
}

/** Deletes an item for good; the items under it move up to its parent, so none is left pointing at nothing. */
export async function removeMenuItem(ctx: Context, item: MenuItemRecord): Promise<void> {
  await ctx.prisma.$transaction(async (tx) => {
    await tx.postMeta.updateMany({ where: { key: META.parent, value: String(item.id), content: { type: NAV_MENU_ITEM } }, data: { value: String(item.parent) } });
    await tx.content.delete({ where: { id: item.id } });
    if (item.menuId) await recountMenus(tx, [item.menuId]);
    await recordContentEvent(tx, ctx.db, itemEvent('deleted', {
      id: item.id, status: item.status, previousStatus: item.status, authorId: item.authorId, parent: item.parent,
      data: { menu: item.menuId, title: item.title, type: item.type, object: item.object, objectId: item.objectId },
    }));
  });
}
