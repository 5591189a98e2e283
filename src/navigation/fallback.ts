// The block editor's fallback navigation. WordPress answers the site's most recent navigation menu
// (creating one holding a page list when there is none); this service keeps no menus, so the
// fallback is generated each time from the published pages: their titles and links, children
// under their parent, in menu order then title. It is shaped as the navigation post WordPress
// answers, with id 0 (nothing is stored), and carries the tree as `items` too.
import type { Context } from '../context.js';
import { restError } from '../errors.js';
import { escHtml } from '../content/escape.js';
import { permalink } from '../resources/content-types.js';
import { ancestorSlugs } from '../content/fields.js';

export interface NavigationItem {
  id: number;
  title: string;
  link: string;
  menu_order: number;
  children: NavigationItem[];
}

/** Published pages beyond this are left out of the fallback (a menu of thousands helps nobody). */
export const NAVIGATION_MAX_PAGES = 500;

export async function navigationFallback(ctx: Context): Promise<Record<string, unknown>> {
  // As WordPress: the navigation post type's create right (edit_theme_options).
  if (!ctx.viewer || !ctx.can('edit_theme_options')) {
    throw restError('rest_cannot_create', 'Sorry, you are not allowed to create Navigation Menus as this user.', ctx.viewer ? 403 : 401);
  }
  const site = await ctx.site();
  const rows = await ctx.prisma.content.findMany({
    where: { type: 'page', status: 'publish' },
    orderBy: [{ menuOrder: 'asc' }, { title: 'asc' }, { id: 'asc' }],
    take: NAVIGATION_MAX_PAGES,
    select: { id: true, type: true, status: true, slug: true, parentId: true, title: true, menuOrder: true },
  });
  const ancestors = await Promise.all(rows.map((row) => ancestorSlugs(ctx, row)));
  const nodes = new Map<number, NavigationItem>();
  rows.forEach((row, i) => nodes.set(row.id, { id: row.id, title: row.title, link: permalink(site, row, ancestors[i]), menu_order: row.menuOrder, children: [] }));
  const items: NavigationItem[] = [];
  // A page whose parent is not published (or not listed) stands at the top level.
  for (const row of rows) {
    const parent = row.parentId ? nodes.get(row.parentId) : undefined;
    (parent ? parent.children : items).push(nodes.get(row.id)!);
  }
  const raw = items.map(blockMarkup).join('\n');
  return {
    id: 0,
    type: 'wp_navigation',
    status: 'publish',
    slug: 'navigation',
    link: site.home + '/',
    title: { raw: 'Navigation', rendered: 'Navigation' },
    content: {
      raw,
      rendered: items.length ? `<ul class="wp-block-navigation__container">${items.map(renderItem).join('')}</ul>` : '',
      block_version: raw ? 1 : 0,
    },
    items,
  };
}

/** Block attributes as the block serializer writes them: JSON that cannot end the comment or open a tag. */
function blockAttributes(attrs: Record<string, unknown>): string {
  return JSON.stringify(attrs)
    .replace(/--/g, '\\u002d\\u002d')
    .replace(/</g, '\\u003c')
    .replace(/>/g, '\\u003e')
    .replace(/&/g, '\\u0026')
    .replace(/\\"/g, '\\u0022');
}

function blockMarkup(item: NavigationItem): string {
  const attrs = blockAttributes({ label: item.title, type: 'page', id: item.id, url: item.link, kind: 'post-type' });
  if (!item.children.length) return `<!-- wp:navigation-link ${attrs} /-->`;
  return `<!-- wp:navigation-submenu ${attrs} -->\n${item.children.map(blockMarkup).join('\n')}\n<!-- /wp:navigation-submenu -->`;
}

function renderItem(item: NavigationItem): string {
  const link = `<a class="wp-block-navigation-item__content" href="${escHtml(item.link)}"><span class="wp-block-navigation-item__label">${escHtml(item.title)}</span></a>`;
  if (!item.children.length) return `<li class="wp-block-navigation-item wp-block-navigation-link">${link}</li>`;
  return `<li class="wp-block-navigation-item has-child wp-block-navigation-submenu">${link}<ul class="wp-block-navigation__submenu-container">${item.children.map(renderItem).join('')}</ul></li>`;
}
