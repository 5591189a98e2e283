// `_links` of content items, with the relation names clients match byte for byte.
import type { Context } from '../../src/context.js';
import type { Method } from '../types.js';
import type { ContentTypeDescriptor } from '../../src/resources/content-types.js';

type Item = Record<string, any>;
type Link = Record<string, unknown> & { href: string };

export const CURIES = [{ name: 'wp', href: 'https://api.w.org/{rel}', templated: true }];

/** Methods the caller may use on an item (self.targetHints.allow and the Allow header). */
export function itemAllow(item: Item): Method[] {
  const allow: Method[] = ['GET'];
  if (item._can_edit) allow.push('POST', 'PUT', 'PATCH');
  if (item._can_delete) allow.push('DELETE');
  return allow;
}

export interface ContentLinkOptions {
  root: string;
  type: ContentTypeDescriptor;
  context: string;
  ctx: Context;
}

/** The `_links` of a content item, from its link data (`_can_edit`, `_parent` …) and its type. */
export function contentLinks(item: Item, o: ContentLinkOptions): Record<string, Link[]> {
  const ns = `${o.root}core/v2`;
  const { restBase, supports, caps } = o.type;
  const self = `${ns}/${restBase}/${item.id}`;
  const links: Record<string, Link[]> = {
    self: [selfLink(self, item)],
    collection: [{ href: `${ns}/${restBase}` }],
    about: [{ href: `${ns}/types/${o.type.type}` }],
  };
  if (item.author) links.author = [{ embeddable: true, href: `${ns}/users/${item.author}` }];
  // As the posts controller: types that support comments link their approved comments.
  if (o.type.about.features.includes('comments')) links.replies = [{ embeddable: true, href: `${ns}/comments?post=${item.id}` }];
  if (item._revision_count !== undefined) links['version-history'] = [{ count: item._revision_count, href: `${self}/revisions` }];
  if (item._latest_revision) links['predecessor-version'] = [{ id: item._latest_revision, href: `${self}/revisions/${item._latest_revision}` }];
  if (item._parent) links.up = [{ embeddable: true, href: `${ns}/${restBase}/${item._parent}` }];
  if (item.featured_media) links['wp:featuredmedia'] = [{ embeddable: true, href: `${ns}/media/${item.featured_media}` }];
  if (supports.attachments) links['wp:attachment'] = [{ href: `${ns}/media?parent=${item.id}` }];
  if (supports.taxonomies.length) links['wp:term'] = supports.taxonomies.map((t) => ({ taxonomy: t.taxonomy, embeddable: true, href: `${ns}/${t.restBase}?post=${item.id}` }));
  if (o.context === 'edit' && item._can_edit) {
    const can = (cap: string) => o.ctx.can(cap);
    if (can(caps.publish_posts)) links['wp:action-publish'] = [{ href: self }];
    if (can('unfiltered_html')) links['wp:action-unfiltered-html'] = [{ href: self }];
    if (supports.sticky && can(caps.edit_others_posts)) links['wp:action-sticky'] = [{ href: self }];
    if (can(caps.edit_others_posts)) links['wp:action-assign-author'] = [{ href: self }];
    for (const t of supports.taxonomies) {
      if (can('manage_categories')) links[`wp:action-create-${t.restBase}`] = [{ href: self }];
      if (can('edit_posts')) links[`wp:action-assign-${t.restBase}`] = [{ href: self }];
    }
  }
  links.curies = CURIES as Link[];
  return links;
}

/** `self` with the methods the caller may use on the item, when the item says (link data). */
export function selfLink(href: string, item: Item): Link {
  return { href, ...(item._can_edit !== undefined ? { targetHints: { allow: itemAllow(item) } } : {}) };
}
