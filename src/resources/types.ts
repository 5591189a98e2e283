// What the site says of its own vocabulary: content types (core/v2/types), statuses
// (core/v2/statuses) and taxonomies (core/v2/taxonomies), as WordPress's post-types, post-statuses
// and taxonomies controllers print them. The records are made from the descriptors
// (./content-types.ts, the taxonomy definitions in ./terms.ts, the statuses below): a type or
// taxonomy added there shows here without a line written for it.
import type { Context } from '../context.js';
import { ALL_CONTEXTS, EDIT, VIEW_EDIT, defineResource, type FieldDef, type PropertyDef } from './define.js';
import type { ContentTypeDescriptor } from './content-types.js';
import { typesOfTaxonomy, type TaxonomyDescriptor } from './terms.js';

/** The REST namespace every type and taxonomy of this service is served under. */
export const REST_NAMESPACE = 'core/v2';

// ---------------------------------------------------------------- statuses

/** A status as register_post_status() describes it. */
export interface StatusDescriptor {
  status: string;
  label: string;
  public: boolean;
  private: boolean;
  protected: boolean;
  /** Items of the status can be queried on the front end (publicly_queryable). */
  queryable: boolean;
  /** Counted in the admin's "All" list (show_in_admin_all_list). */
  showInList: boolean;
  /** An unset date floats (follows the time of publishing). */
  dateFloating: boolean;
  /** Not one a user picks: left out of the list; trash is listed anyway, to those who may edit. */
  internal: boolean;
}

const status = (s: string, label: string, o: Partial<StatusDescriptor>): StatusDescriptor => ({
  status: s, label, public: false, private: false, protected: false, queryable: false, showInList: false, dateFloating: false, internal: false, ...o,
});

/** WordPress's registered statuses, in its order. */
export const STATUSES: StatusDescriptor[] = [
  status('publish', 'Published', { public: true, queryable: true, showInList: true }),
  status('future', 'Scheduled', { protected: true, showInList: true }),
  status('draft', 'Draft', { protected: true, showInList: true, dateFloating: true }),
  status('pending', 'Pending', { protected: true, showInList: true, dateFloating: true }),
  status('private', 'Private', { private: true, showInList: true }),
  status('trash', 'Trash', { internal: true }),
  status('auto-draft', 'auto-draft', { internal: true, dateFloating: true }),
  status('inherit', 'inherit', { internal: true }),
];

// ---------------------------------------------------------------- field helpers

type Resolve<R> = (row: R, args: unknown, ctx: Context) => unknown;
const field = <R>(kind: FieldDef['kind'], description: string, contexts: FieldDef['contexts'], resolve: Resolve<R>, extra: Partial<FieldDef> = {}): FieldDef =>
  ({ kind, description, contexts, readonly: true, resolve: resolve as FieldDef['resolve'], ...extra });
const flag = (description: string): PropertyDef => ({ kind: 'boolean', description, contexts: EDIT, readonly: true });

// ---------------------------------------------------------------- content types

const lower = (s: string) => s.toLowerCase();

/** The labels WordPress derives from a type's names (a subset: the ones clients show). */
function typeLabels(d: ContentTypeDescriptor): Record<string, string | null> {
  const { name: plural, singularName: one } = d.about;
  return {
    name: plural, singular_name: one, add_new: `Add New ${one}`, add_new_item: `Add New ${one}`, edit_item: `Edit ${one}`,
    new_item: `New ${one}`, view_item: `View ${one}`, view_items: `View ${plural}`, search_items: `Search ${plural}`,
    not_found: `No ${lower(plural)} found.`, not_found_in_trash: `No ${lower(plural)} found in Trash.`,
    parent_item_colon: d.hierarchical ? `Parent ${one}:` : null, all_items: `All ${plural}`, archives: `${one} Archives`,
    attributes: `${one} Attributes`, insert_into_item: `Insert into ${lower(one)}`, uploaded_to_this_item: `Uploaded to this ${lower(one)}`,
    filter_items_list: `Filter ${lower(plural)} list`, items_list_navigation: `${plural} list navigation`, items_list: `${plural} list`,
    item_published: `${one} published.`, item_updated: `${one} updated.`, item_link: `${one} Link`,
    item_link_description: `A link to a ${lower(one)}.`, menu_name: plural, name_admin_bar: one,
  };
}

/** The type's capability names, as WordPress maps them from its capability type. */
function typeCapabilities(d: ContentTypeDescriptor): Record<string, string> {
  const one = (cap: string) => cap.replace(/s$/, '');
  return {
    edit_post: one(d.caps.edit_posts), read_post: one(d.caps.edit_posts).replace('edit_', 'read_'), delete_post: one(d.caps.delete_posts),
    edit_posts: d.caps.edit_posts, edit_others_posts: d.caps.edit_others_posts, delete_posts: d.caps.delete_posts,
    publish_posts: d.caps.publish_posts, read_private_posts: d.caps.read_private_posts, read: 'read',
    delete_private_posts: d.caps.delete_private_posts, delete_published_posts: d.caps.delete_published_posts,
    delete_others_posts: d.caps.delete_others_posts, edit_private_posts: d.caps.edit_private_posts,
    edit_published_posts: d.caps.edit_published_posts, create_posts: d.createCap ?? d.caps.edit_posts,
  };
}

/** The editor features of a type: its own list plus what its `supports` flags say. */
function typeSupports(d: ContentTypeDescriptor): Record<string, boolean> {
  const s = d.supports;
  const features = [...d.about.features, ...(s.pageAttributes ? ['page-attributes'] : []), ...(s.revisions ? ['revisions'] : []),
    ...(s.formats ? ['post-formats'] : []), ...(s.revisions ? ['autosave'] : [])];
  return Object.fromEntries(features.map((f) => [f, true]));
}

type TypeRow = ContentTypeDescriptor;

export const ContentTypeResource = defineResource({
  name: 'ContentTypeDefinition', title: 'type', description: 'A content type of the site (post, page, attachment) and what it supports.',
  fields: {
    capabilities: field<TypeRow>('json', 'All capabilities used by the post type.', EDIT, typeCapabilities),
    description: field<TypeRow>('string', 'A human-readable description of the post type.', VIEW_EDIT, () => ''),
    hierarchical: field<TypeRow>('boolean', 'Whether or not the post type should have children.', VIEW_EDIT, (d) => d.hierarchical),
    // WordPress: false, or the archive's slug; none of this service's types has an archive.
    hasArchive: field<TypeRow>('json', 'If the value is a string, the value will be used as the archive slug. If the value is false the post type has no archive.', VIEW_EDIT, () => false,
      { schema: { type: ['string', 'boolean'] }, graphqlDescription: 'The archive slug, or false when the type has no archive.' }),
    visibility: field<TypeRow>('json', 'The visibility settings for the post type.', EDIT, (d) => ({ show_ui: true, show_in_nav_menus: d.about.showInNavMenus }), {
      properties: {
        show_ui: flag('Whether to generate a default UI for managing this post type.'),
        show_in_nav_menus: flag('Whether to make the post type available for selection in navigation menus.'),
      },
    }),
    viewable: field<TypeRow>('boolean', 'Whether or not the post type can be viewed.', EDIT, () => true),
    labels: field<TypeRow>('json', 'Human-readable labels for the post type for various contexts.', EDIT, typeLabels),
    name: field<TypeRow>('string', 'The title for the post type.', ALL_CONTEXTS, (d) => d.about.name),
    slug: field<TypeRow>('string', 'An alphanumeric identifier for the post type.', ALL_CONTEXTS, (d) => d.type),
    icon: field<TypeRow>('string', 'The icon for the post type.', ALL_CONTEXTS, (d) => d.about.icon, { nullable: true, acceptsNull: true }),
    supports: field<TypeRow>('json', 'All features, supported by the post type.', EDIT, typeSupports),
    taxonomies: field<TypeRow>('string[]', 'Taxonomies associated with post type.', VIEW_EDIT, (d) => d.supports.taxonomies.map((t) => t.taxonomy)),
    restBase: field<TypeRow>('string', 'REST base route for the post type.', ALL_CONTEXTS, (d) => d.restBase),
    restNamespace: field<TypeRow>('string', 'REST route\'s namespace for the post type.', ALL_CONTEXTS, () => REST_NAMESPACE),
    canEdit: field<TypeRow>('boolean', 'Whether the caller may edit items of the type (its edit_posts capability).', [], (d, _a, ctx) => ctx.can(d.caps.edit_posts), { rest: false, linkData: '_can_edit' }),
  },
});

// ---------------------------------------------------------------- statuses

type StatusRow = StatusDescriptor;

export const StatusResource = defineResource({
  name: 'StatusDefinition', title: 'status', description: 'A status content can have, and who sees items of it.',
  fields: {
    name: field<StatusRow>('string', 'The title for the status.', ALL_CONTEXTS, (s) => s.label),
    private: field<StatusRow>('boolean', 'Whether posts with this status should be private.', EDIT, (s) => s.private),
    protected: field<StatusRow>('boolean', 'Whether posts with this status should be protected.', EDIT, (s) => s.protected),
    public: field<StatusRow>('boolean', 'Whether posts of this status should be shown in the front end of the site.', VIEW_EDIT, (s) => s.public),
    queryable: field<StatusRow>('boolean', 'Whether posts with this status should be publicly-queryable.', VIEW_EDIT, (s) => s.queryable),
    showInList: field<StatusRow>('boolean', 'Whether to include posts in the edit listing for their post type.', EDIT, (s) => s.showInList),
    slug: field<StatusRow>('string', 'An alphanumeric identifier for the status.', ALL_CONTEXTS, (s) => s.status),
    dateFloating: field<StatusRow>('boolean', 'Whether posts of this status may have floating published dates.', VIEW_EDIT, (s) => s.dateFloating),
  },
});

// ---------------------------------------------------------------- taxonomies

type TaxonomyRow = TaxonomyDescriptor;

/** The labels WordPress derives from a taxonomy's names (a subset); tags have the "popular" ones, categories the "parent" ones. */
function taxonomyLabels(t: TaxonomyDescriptor): Record<string, string | null> {
  const { name: plural, singularName: one, hierarchical: tree } = t;
  return {
    name: plural, singular_name: one, search_items: `Search ${plural}`, popular_items: tree ? null : `Popular ${plural}`,
    all_items: `All ${plural}`, parent_item: tree ? `Parent ${one}` : null, parent_item_colon: tree ? `Parent ${one}:` : null,
    edit_item: `Edit ${one}`, view_item: `View ${one}`, update_item: `Update ${one}`, add_new_item: `Add New ${one}`,
    new_item_name: `New ${one} Name`, separate_items_with_commas: tree ? null : `Separate ${lower(plural)} with commas`,
    add_or_remove_items: tree ? null : `Add or remove ${lower(plural)}`, choose_from_most_used: tree ? null : `Choose from the most used ${lower(plural)}`,
    not_found: `No ${lower(plural)} found.`, no_terms: `No ${lower(plural)}`, items_list_navigation: `${plural} list navigation`,
    items_list: `${plural} list`, most_used: 'Most Used', back_to_items: `&larr; Go to ${plural}`, item_link: `${one} Link`,
    item_link_description: `A link to a ${lower(one)}.`, menu_name: plural, name_admin_bar: one,
  };
}

export const TaxonomyResource = defineResource({
  name: 'TaxonomyDefinition', title: 'taxonomy', description: 'A taxonomy of the site (category, post_tag) and the content types it classifies.',
  fields: {
    name: field<TaxonomyRow>('string', 'The title for the taxonomy.', ALL_CONTEXTS, (t) => t.name),
    slug: field<TaxonomyRow>('string', 'An alphanumeric identifier for the taxonomy.', ALL_CONTEXTS, (t) => t.taxonomy),
    capabilities: field<TaxonomyRow>('json', 'All capabilities used by the taxonomy.', EDIT,
      (t) => ({ manage_terms: t.manageCap, edit_terms: t.manageCap, delete_terms: t.manageCap, assign_terms: t.assignCap })),
    description: field<TaxonomyRow>('string', 'A human-readable description of the taxonomy.', VIEW_EDIT, () => ''),
    labels: field<TaxonomyRow>('json', 'Human-readable labels for the taxonomy for various contexts.', EDIT, taxonomyLabels),
    types: field<TaxonomyRow>('string[]', 'Types associated with the taxonomy.', VIEW_EDIT, (t) => typesOfTaxonomy(t.taxonomy)),
    showCloud: field<TaxonomyRow>('boolean', 'Whether or not the term cloud should be displayed.', EDIT, (t) => t.showCloud),
    hierarchical: field<TaxonomyRow>('boolean', 'Whether or not the taxonomy should have children.', VIEW_EDIT, (t) => t.hierarchical),
    restBase: field<TaxonomyRow>('string', 'REST base route for the taxonomy.', ALL_CONTEXTS, (t) => t.restBase),
    restNamespace: field<TaxonomyRow>('string', 'REST namespace route for the taxonomy.', ALL_CONTEXTS, () => REST_NAMESPACE),
    visibility: field<TaxonomyRow>('json', 'The visibility settings for the taxonomy.', EDIT,
      () => ({ public: true, publicly_queryable: true, show_ui: true, show_admin_column: true, show_in_nav_menus: true, show_in_quick_edit: true }), {
        properties: {
          public: flag('Whether a taxonomy is intended for use publicly either via the admin interface or by front-end users.'),
          publicly_queryable: flag('Whether the taxonomy is publicly queryable.'),
          show_ui: flag('Whether to generate a default UI for managing this taxonomy.'),
          show_admin_column: flag('Whether to allow automatic creation of taxonomy columns on associated post-types table.'),
          show_in_nav_menus: flag('Whether to make the taxonomy available for selection in navigation menus.'),
          show_in_quick_edit: flag('Whether to show the taxonomy in the quick/bulk edit panel.'),
        },
      }),
    canEdit: field<TaxonomyRow>('boolean', 'Whether the caller may assign terms of the taxonomy (its assign_terms capability).', [], (t, _a, ctx) => ctx.can(t.assignCap), { rest: false, linkData: '_can_edit' }),
  },
});
