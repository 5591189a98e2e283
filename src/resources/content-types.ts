// Content types as data: what WordPress's register_post_type() says of a type — its REST base,
// capabilities, what it supports, its permalink rule — in one descriptor per type. Services,
// links, capabilities and queries read the descriptor instead of branching on 'post' | 'page'.
import type { SiteSettings } from '../site/options.js';
import type { TypeCaps } from '../auth/capabilities.js';
import { CONTENT_MODEL, pascal, type ContentModelConfig, type FieldConfig } from '../model/config.js';

export interface TaxonomyRef {
  /** WordPress taxonomy name (category, post_tag). */
  taxonomy: string;
  /** REST base and GraphQL field of the assignment (categories, tags). */
  restBase: string;
  hierarchical: boolean;
  /** GraphQL object type, list field and the camelCase name of the assignment field (Category, categories, categories). */
  graphqlName: string;
  graphqlPlural: string;
  /** First path segment of its archive links. */
  permalinkBase: string;
}

export interface ContentTypeDescriptor {
  /** Stored `type` discriminator. */
  type: string;
  /** REST collection base under core/v2. */
  restBase: string;
  /** GraphQL names: Post → post, posts, createPost … */
  graphqlName: string;
  graphqlPlural: string;
  caps: TypeCaps;
  hierarchical: boolean;
  supports: {
    taxonomies: TaxonomyRef[];
    sticky: boolean;
    formats: boolean;
    revisions: boolean;
    /** parent and menu_order on write. */
    pageAttributes: boolean;
    /** A create with no title, content and excerpt is refused (empty_content). */
    requiresContent: boolean;
    /** DELETE without `force` moves to the trash (else: 501 rest_trash_not_supported). */
    trash: boolean;
    /** Items can have attachments (the `wp:attachment` link). */
    attachments: boolean;
  };
  /** New items take the site's comment and ping defaults, or are closed. */
  discussionDefault: 'site' | 'closed';
  /** Query argument of the plain (unpublished) link: ?p=ID, ?page_id=ID. */
  plainLinkArg: string;
  /** Slugs are unique per type, per type and parent, or across every type (attachments). */
  slugScope: 'type' | 'parent' | 'global';
  /** Status of a new item when none is given, and of a list without a status filter. */
  defaultStatus: string;
  /** The capability that creates items (uploading, for attachments); else `caps.edit_posts`. */
  createCap?: string;
  /** Declared in the site's content model: its permalinks are `/{permalinkBase}/{slug}/`. */
  custom?: { permalinkBase: string; public: boolean; description: string };
  /** Typed custom fields (register_meta), shown and written under `meta`. */
  fields: Record<string, FieldConfig>;
  /** What core/v2/types tells of the type: its labels, menu icon and where the admin shows it. */
  about: {
    name: string;
    singularName: string;
    icon: string;
    /** Editor features beyond those the `supports` flags name (title, editor, excerpt …). */
    features: string[];
    showInNavMenus: boolean;
  };
}

const caps = (plural: 'posts' | 'pages'): TypeCaps => {
  const names = ['edit_posts', 'edit_others_posts', 'edit_published_posts', 'edit_private_posts', 'publish_posts', 'read_private_posts', 'delete_posts', 'delete_others_posts', 'delete_published_posts', 'delete_private_posts'] as const;
  return Object.fromEntries(names.map((n) => [n, n.replace('posts', plural)])) as unknown as TypeCaps;
};

export const CATEGORY: TaxonomyRef = { taxonomy: 'category', restBase: 'categories', hierarchical: true, graphqlName: 'Category', graphqlPlural: 'categories', permalinkBase: 'category' };
export const POST_TAG: TaxonomyRef = { taxonomy: 'post_tag', restBase: 'tags', hierarchical: false, graphqlName: 'Tag', graphqlPlural: 'tags', permalinkBase: 'tag' };

export const POST_TYPE: ContentTypeDescriptor = {
  type: 'post', restBase: 'posts', graphqlName: 'Post', graphqlPlural: 'posts', caps: caps('posts'), hierarchical: false,
  supports: { taxonomies: [CATEGORY, POST_TAG], sticky: true, formats: true, revisions: true, pageAttributes: false, requiresContent: true, trash: true, attachments: true },
  discussionDefault: 'site', plainLinkArg: 'p', slugScope: 'type', defaultStatus: 'publish', fields: CONTENT_MODEL.fields?.post ?? {},
  about: { name: 'Posts', singularName: 'Post', icon: 'dashicons-admin-post', features: ['title', 'editor', 'author', 'thumbnail', 'excerpt', 'trackbacks', 'custom-fields', 'comments'], showInNavMenus: true },
};

export const PAGE_TYPE: ContentTypeDescriptor = {
  type: 'page', restBase: 'pages', graphqlName: 'Page', graphqlPlural: 'pages', caps: caps('pages'), hierarchical: true,
  supports: { taxonomies: [], sticky: false, formats: false, revisions: true, pageAttributes: true, requiresContent: false, trash: true, attachments: true },
  discussionDefault: 'closed', plainLinkArg: 'page_id', slugScope: 'parent', defaultStatus: 'publish', fields: CONTENT_MODEL.fields?.page ?? {},
  about: { name: 'Pages', singularName: 'Page', icon: 'dashicons-admin-page', features: ['title', 'editor', 'author', 'thumbnail', 'custom-fields', 'comments'], showInNavMenus: true },
};

/** Attachments: post capabilities, created by those who may upload; no trash, no revisions. */
export const MEDIA_TYPE: ContentTypeDescriptor = {
  type: 'attachment', restBase: 'media', graphqlName: 'MediaItem', graphqlPlural: 'mediaItems', caps: caps('posts'), hierarchical: false,
  supports: { taxonomies: [], sticky: false, formats: false, revisions: false, pageAttributes: false, requiresContent: false, trash: false, attachments: false },
  discussionDefault: 'site', plainLinkArg: 'attachment_id', slugScope: 'global', defaultStatus: 'inherit', createCap: 'upload_files', fields: {},
  about: { name: 'Media', singularName: 'Media', icon: 'dashicons-admin-media', features: ['title', 'author', 'comments'], showInNavMenus: false },
};

/** Revisions, autosaves and attachments use the post capabilities, as WordPress maps them. */
const OTHER: ContentTypeDescriptor = { ...POST_TYPE, type: 'other', supports: { ...POST_TYPE.supports, taxonomies: [], sticky: false, formats: false } };

/** A REST base as a GraphQL name (event-categories → eventCategories). */
export const gqlKey = (s: string) => s.replace(/[-_]([a-z0-9])/g, (_m, c: string) => c.toUpperCase());

/** The taxonomies of a type that its list filters and writes name, with their GraphQL keys (categories, tags …). */
export const taxonomyKeys = (d: ContentTypeDescriptor): { ref: TaxonomyRef; key: string }[] =>
  d.supports.taxonomies.map((ref) => ({ ref, key: gqlKey(ref.restBase) }));

/** The taxonomies the site's content model declares, as content types refer to them. */
function customTaxonomyRefs(model: ContentModelConfig): TaxonomyRef[] {
  return Object.entries(model.taxonomies ?? {}).map(([name, t]) => {
    const restBase = t.restBase ?? name;
    return { taxonomy: name, restBase, hierarchical: t.hierarchical ?? false, graphqlName: t.graphqlSingleName ?? pascal(name), graphqlPlural: t.graphqlPluralName ?? gqlKey(restBase), permalinkBase: t.permalinkBase ?? name };
  });
}

/** Every taxonomy as content types refer to it: categories, tags, then the site's own. */
export const TAXONOMY_REFS: TaxonomyRef[] = [CATEGORY, POST_TAG, ...customTaxonomyRefs(CONTENT_MODEL)];
export const taxonomyRef = (taxonomy: string): TaxonomyRef | undefined => TAXONOMY_REFS.find((t) => t.taxonomy === taxonomy);

/** The content types the site's content model declares, as descriptors like the built-in ones. */
function customContentTypes(model: ContentModelConfig): ContentTypeDescriptor[] {
  return Object.entries(model.types ?? {}).map(([name, t]) => {
    const restBase = t.restBase ?? name;
    const supports = new Set(t.supports ?? ['title', 'editor', 'author', 'thumbnail', 'excerpt', 'revisions', 'autosave', 'custom-fields']);
    const hierarchical = t.hierarchical ?? false;
    return {
      type: name, restBase, graphqlName: t.graphqlSingleName ?? pascal(name), graphqlPlural: t.graphqlPluralName ?? gqlKey(restBase),
      caps: caps(t.capabilityType === 'page' ? 'pages' : 'posts'), hierarchical,
      supports: {
        taxonomies: (t.taxonomies ?? []).map((x) => taxonomyRef(x)!), sticky: false, formats: false, revisions: supports.has('revisions'),
        pageAttributes: hierarchical || supports.has('page-attributes'), requiresContent: false, trash: true, attachments: true,
      },
      discussionDefault: supports.has('comments') ? 'site' : 'closed', plainLinkArg: 'p', slugScope: hierarchical ? 'parent' : 'type', defaultStatus: 'publish',
      custom: { permalinkBase: t.permalinkBase ?? restBase, public: t.public ?? true, description: t.description ?? '' },
      fields: model.fields?.[name] ?? {},
      about: { name: t.label, singularName: t.singularLabel, icon: t.menuIcon ?? 'dashicons-admin-post', features: [...supports].filter((f) => f !== 'revisions' && f !== 'page-attributes'), showInNavMenus: t.public ?? true },
    } satisfies ContentTypeDescriptor;
  });
}

/** Post-like types with their own routes and GraphQL type: posts, pages and the site's own. */
export const POST_LIKE_TYPES: ContentTypeDescriptor[] = [POST_TYPE, PAGE_TYPE, ...customContentTypes(CONTENT_MODEL)];

export const CONTENT_TYPES: ContentTypeDescriptor[] = [POST_TYPE, PAGE_TYPE, MEDIA_TYPE, ...POST_LIKE_TYPES.slice(2)];

const byType = new Map(CONTENT_TYPES.map((d) => [d.type, d]));

export function contentTypeOf(type: string): ContentTypeDescriptor {
  return byType.get(type) ?? OTHER;
}

/** The permalink with a placeholder for the slug (edit context's permalink_template). */
export function permalinkTemplate(site: SiteSettings, type: string, ancestors: string[]): string {
  const d = contentTypeOf(type);
  if (d.custom) return `${site.home}/${d.custom.permalinkBase}/${ancestors.map((s) => `${s}/`).join('')}%${d.type}%/`;
  return d.hierarchical ? `${site.home}/${ancestors.map((s) => `${s}/`).join('')}%pagename%/` : `${site.home}/%postname%/`;
}

/** Permalinks as WordPress with the /%postname%/ structure; unpublished items use the plain link. */
export function permalink(site: SiteSettings, row: { id: number; type: string; status: string; slug: string }, ancestors: string[] = []): string {
  const d = byType.get(row.type);
  const public_ = (row.status === 'publish' || row.status === 'private') && row.slug;
  if (!d) return `${site.home}/?p=${row.id}`;
  if (d.custom) return public_ ? `${site.home}/${[d.custom.permalinkBase, ...ancestors, row.slug].join('/')}/` : `${site.home}/?post_type=${d.type}&p=${row.id}`;
  return public_ ? `${site.home}/${[...ancestors, row.slug].join('/')}/` : `${site.home}/?${d.plainLinkArg}=${row.id}`;
}
