// Posts and pages: one definition each (pages are posts without taxonomies, sticky and format,
// with a parent and a menu order). Descriptions are WordPress's schema texts, so OPTIONS and
// `context=help` read as WordPress's do.
import type { Content } from '../generated/sqlite/client.js';
import type { Context } from '../context.js';
import { ALL_CONTEXTS, EDIT, VIEW_EDIT, collectionParams, writableFields, defineResource, deriveList, deriveResource, type FieldDef, type ListDef, type ListParamDef, type PropertyDef, type ResourceDef } from './define.js';
import { ContentStatus, ContentStatusFilter, ContentWriteStatus, DiscussionStatus, Order, PageOrderBy, PostFormat, PostOrderBy, Relation, SearchColumn, SearchSemantics } from './enums.js';
import { canDeleteContent, canEditContent } from '../auth/content-permissions.js';
import { formatWpDate } from '../content/dates.js';
import { renderContent, renderExcerpt, renderTitle } from '../content/render.js';
import { storedRender, STORED_EXCERPT_WORDS } from '../content/stored-render.js';
import { cachedRender } from '../content/render-cache.js';
import { embedContactForms, hasFormShortcode } from '../forms/shortcode.js';
import { sanitizeTitle } from '../content/slug.js';
import { customMetaValues, customMetaSelect, withCustomMeta, ancestorSlugs, classList, footnotesSelect, passwordRequired, termSelect, textValue, withFootnotes, withRevisionStats, withTerms } from '../content/fields.js';
import { PAGE_TYPE, POST_LIKE_TYPES, POST_TYPE, gqlKey, permalink, permalinkTemplate, type ContentTypeDescriptor } from './content-types.js';
import { fieldDefault, type FieldConfig } from '../model/config.js';
import { invalidParam } from '../errors.js';

type Row = Content & { terms?: { termId: number; taxonomy: string }[]; meta?: { key: string; value: string }[] };

/** A text field arrives as a string or as `{raw}`; anything else is refused as WordPress does. */
function textInput(value: unknown, param: string): string | undefined {
  if (value === undefined) return undefined;
  if (typeof value === 'string') return value;
  if (value && typeof value === 'object' && 'raw' in value) return String((value as { raw: unknown }).raw ?? '');
  if (value && typeof value === 'object') return undefined;
  if (value === null) return '';
  return invalidParam(param, 'rest_invalid_type', `${param} is not of type object.`, { param });
}

const text = (what: string, o: { contexts: typeof ALL_CONTEXTS; raw?: boolean; rendered?: typeof ALL_CONTEXTS; protected?: boolean; blockVersion?: boolean; rawLast?: boolean; readonly?: boolean }): Pick<FieldDef, 'kind' | 'properties' | 'graphqlType' | 'inputKind' | 'fromRest' | 'skipValidation' | 'contexts' | 'readonly'> => {
  const cap = what[0].toUpperCase() + what.slice(1);
  const raw = { graphql: 'raw', kind: 'string' as const, nullable: true, description: `${cap} for the post, as it exists in the database.`, contexts: EDIT };
  const rendered = { kind: 'string' as const, description: `HTML ${what} for the post, transformed for display.`, contexts: o.rendered ?? ALL_CONTEXTS, readonly: true };
  const properties: FieldDef['properties'] = o.rawLast ? { rendered, raw } : { raw, rendered };
  if (o.blockVersion) properties.block_version = { graphql: 'blockVersion', kind: 'integer', description: 'Version of the content block format used by the post.', contexts: EDIT, readonly: true };
  if (o.protected) properties.protected = { kind: 'boolean', description: `Whether the ${what} is protected with a password.`, contexts: ALL_CONTEXTS, readonly: true };
  return {
    kind: 'object', properties, graphqlType: 'ContentText', contexts: o.contexts, readonly: o.readonly,
    inputKind: 'string', fromRest: textInput, skipValidation: true,
  };
};

/** An item's terms of one taxonomy, by id (WordPress names the field after the taxonomy's REST base). */
function termsField(taxonomy: string): FieldDef {
  return {
    kind: 'integer[]', description: `The terms assigned to the post in the ${taxonomy} taxonomy.`, contexts: VIEW_EDIT, select: termSelect, ownsRelation: true,
    resolve: (p: Row, _a: unknown, ctx: Context) => withTerms(ctx, p, (terms) => terms.filter((r) => r.taxonomy === taxonomy).map((r) => r.termId)),
  };
}

const viewer = (fn: (ctx: Context, p: Row) => boolean) => (p: Row, _a: unknown, ctx: Context) => fn(ctx, p);

/** The fields every post-like type has, in the order WordPress prints them. */
const postFields: Record<string, FieldDef> = {
  databaseId: { kind: 'integer', rest: 'id', column: 'id', graphqlDescription: 'The id REST uses (in its routes and `id` fields); `id` is the global id.', description: 'Unique identifier for the post.', contexts: ALL_CONTEXTS, readonly: true },
  date: {
    kind: 'date-time', nullable: false, acceptsNull: true, description: "The date the post was published, in the site's timezone.",
    graphqlDescription: "Publication date on the site's clock. On write: site time, or with an offset; null makes a draft's date float again.",
    contexts: ALL_CONTEXTS, resolve: (p: Row) => formatWpDate(p.date),
  },
  dateGmt: {
    kind: 'date-time', acceptsNull: true, description: 'The date the post was published, as GMT.', contexts: VIEW_EDIT,
    resolve: (p: Row) => formatWpDate(p.dateGmt),
  },
  guid: {
    kind: 'object', description: 'The globally unique identifier for the post.', contexts: VIEW_EDIT, readonly: true, graphqlType: 'ContentText',
    properties: {
      rendered: { kind: 'string', description: 'GUID for the post, transformed for display.', contexts: VIEW_EDIT, readonly: true },
      raw: { kind: 'string', nullable: true, description: 'GUID for the post, as it exists in the database.', contexts: EDIT, readonly: true },
    },
    resolve: (p: Row, _a: unknown, ctx: Context) => textValue(p.guid, p.guid, ctx, p),
  },
  modified: { kind: 'date-time', description: "The date the post was last modified, in the site's timezone.", contexts: VIEW_EDIT, readonly: true, resolve: (p: Row) => formatWpDate(p.modified) },
  modifiedGmt: { kind: 'date-time', description: 'The date the post was last modified, as GMT.', contexts: VIEW_EDIT, readonly: true, resolve: (p: Row) => formatWpDate(p.modifiedGmt) },
  password: {
    kind: 'string', nullable: true, description: 'A password to protect access to the content and excerpt.', contexts: EDIT,
    graphqlDescription: 'The password protecting the content and excerpt; null unless the caller may edit the item.',
    resolve: (p: Row, _a: unknown, ctx: Context) => (canEditContent(ctx, p) ? p.password : null),
  },
  slug: { kind: 'string', description: 'An alphanumeric identifier for the post unique to its type.', contexts: ALL_CONTEXTS },
  status: {
    kind: 'enum', enum: ContentWriteStatus, description: 'A named status for the post.', contexts: VIEW_EDIT,
    outputEnum: ContentStatus,
  },
  type: { kind: 'string', description: 'Type of post.', contexts: ALL_CONTEXTS, readonly: true },
  link: {
    kind: 'uri', description: 'URL to the post.', contexts: ALL_CONTEXTS, readonly: true,
    resolve: async (p: Row, _a: unknown, ctx: Context) => permalink(await ctx.site(), p, await ancestorSlugs(ctx, p)),
  },
  title: {
    description: 'The title for the post.',
    ...text('title', { contexts: ALL_CONTEXTS }),
    resolve: (p: Row, _a: unknown, ctx: Context) => textValue(p.title, cachedRender('title', p.title, () => renderTitle(p.title)), ctx, p),
  },
  content: {
    description: 'The content for the post.',
    ...text('content', { contexts: VIEW_EDIT, rendered: VIEW_EDIT, protected: true, blockVersion: true }),
    resolve: async (p: Row, _a: unknown, ctx: Context) => {
      const locked = passwordRequired(ctx, p);
      const cached = locked ? '' : storedRender(p)?.content ?? cachedRender('content', p.content, () => renderContent(p.content));
      // Contact-form shortcodes are replaced after the cached render, per request (forms load once for all items).
      const rendered = hasFormShortcode(cached) ? await embedContactForms(ctx, cached, p.id) : cached;
      return { ...textValue(p.content, rendered, ctx, p, locked), isProtected: !!p.password, blockVersion: p.content.includes('<!-- wp:') ? 1 : 0 };
    },
  },
  excerpt: {
    description: 'The excerpt for the post.',
    ...text('excerpt', { contexts: ALL_CONTEXTS, protected: true }),
    args: { length: { kind: 'integer', description: 'Words to keep when the excerpt is built from the content (default 55).' } },
    selectionArgs: '(length: $excerptLength)',
    resolve: (p: Row, args: { length?: number | null }, ctx: Context) => {
      const locked = passwordRequired(ctx, p);
      const length = args.length ?? 55;
      const stored = length === STORED_EXCERPT_WORDS ? storedRender(p) : null;
      if (stored && !locked) return { ...textValue(p.excerpt, stored.excerpt, ctx, p, locked), isProtected: !!p.password };
      return { ...textValue(p.excerpt, locked ? '' : cachedRender(`excerpt:${length}:${p.excerpt}`, p.content, () => renderExcerpt(p.excerpt, p.content, length, () => cachedRender('content', p.content, () => renderContent(p.content)))), ctx, p, locked), isProtected: !!p.password };
    },
  },
  authorDatabaseId: { kind: 'integer', rest: 'author', inputName: 'author', graphqlDescription: 'Id of the author (REST: `author`); `author { node }` is the user.', description: 'The ID for the author of the post.', contexts: ALL_CONTEXTS, column: 'authorId' },
  featuredImageDatabaseId: { kind: 'integer', rest: 'featured_media', inputName: 'featuredMedia', column: 'featuredMedia', graphqlDescription: 'Id of the featured image, 0 for none (REST: `featured_media`); `featuredImage { node }` is the media item.', description: 'The ID of the featured media for the post.', contexts: ALL_CONTEXTS },
  commentStatus: { kind: 'enum', enum: DiscussionStatus, description: 'Whether or not comments are open on the post.', contexts: VIEW_EDIT },
  pingStatus: { kind: 'enum', enum: DiscussionStatus, description: 'Whether or not the post can be pinged.', contexts: VIEW_EDIT },
  sticky: {
    kind: 'boolean', description: 'Whether or not the post should be treated as sticky.', contexts: VIEW_EDIT,
    resolve: async (p: Row, _a: unknown, ctx: Context) => (await ctx.site()).stickyPosts.includes(p.id),
  },
  template: { kind: 'string', description: 'The theme file to use to display the post.', contexts: VIEW_EDIT },
  format: {
    kind: 'enum', enum: PostFormat, description: 'The format for the post.', contexts: VIEW_EDIT,
    resolve: (p: Row) => p.format || 'standard',
  },
  meta: {
    kind: 'object', description: 'Meta fields.', contexts: VIEW_EDIT, graphqlType: 'PostMeta', graphqlInputType: 'PostMetaInput',
    properties: { footnotes: { kind: 'string', description: '', contexts: VIEW_EDIT, default: '' } },
    fromRest: (value) => (value && typeof value === 'object' && !Array.isArray(value) && 'footnotes' in value ? { footnotes: (value as { footnotes: unknown }).footnotes } : undefined),
    select: footnotesSelect, ownsRelation: true,
    resolve: (p: Row, _a: unknown, ctx: Context) => withFootnotes(ctx, p, (meta) => ({ footnotes: meta.find((m) => m.key === 'footnotes')?.value ?? '' })),
  },
  categoryDatabaseIds: { ...termsField('category'), rest: 'categories', inputName: 'categories', graphqlDescription: 'Ids of the categories (REST: `categories`); `categories` is the connection to them.' },
  tagDatabaseIds: { ...termsField('post_tag'), rest: 'tags', inputName: 'tags', graphqlDescription: 'Ids of the tags (REST: `tags`); `tags` is the connection to them.' },
  permalinkTemplate: {
    kind: 'string', description: 'Permalink template for the post.', contexts: EDIT, readonly: true,
    resolve: async (p: Row, _a: unknown, ctx: Context) => permalinkTemplate(await ctx.site(), p.type, await ancestorSlugs(ctx, p)),
  },
  generatedSlug: { kind: 'string', description: 'Slug automatically generated from the post title.', contexts: EDIT, readonly: true, resolve: (p: Row) => sanitizeTitle(p.title) },
  classList: {
    kind: 'string[]', description: 'An array of the class names for the post container element.', contexts: VIEW_EDIT, readonly: true,
    select: termSelect, ownsRelation: true, resolve: (p: Row, _a: unknown, ctx: Context) => classList(ctx, p),
  },
  // Not REST fields: what the gateway builds `_links` and Allow from.
  revisionCount: {
    kind: 'integer', rest: false, linkData: '_revision_count', readonly: true, description: 'Revisions and autosaves stored for it.',
    resolve: (p: Row, _a: unknown, ctx: Context) => withRevisionStats(ctx, p, (s) => s.count),
  },
  latestRevisionId: {
    kind: 'integer', rest: false, nullable: true, linkData: '_latest_revision', readonly: true, description: 'Id of the newest revision, if any.',
    resolve: (p: Row, _a: unknown, ctx: Context) => withRevisionStats(ctx, p, (s) => s.latest),
  },
  viewerCanEdit: { kind: 'boolean', rest: false, linkData: '_can_edit', readonly: true, description: 'Whether the caller may update it.', resolve: viewer(canEditContent) },
  viewerCanDelete: { kind: 'boolean', rest: false, linkData: '_can_delete', readonly: true, description: 'Whether the caller may delete it.', resolve: viewer(canDeleteContent) },
};

export const PostResource = defineResource({ name: 'Post', title: 'post', description: 'A blog post.', fields: postFields });

export const PageResource = deriveResource(PostResource, {
  name: 'Page', title: 'page', description: 'A static page, possibly under a parent page.',
  omit: ['sticky', 'format', 'categoryDatabaseIds', 'tagDatabaseIds'],
  fields: {
    parentDatabaseId: {
      kind: 'integer', rest: 'parent', inputName: 'parent', description: 'The ID for the parent of the post.', contexts: VIEW_EDIT, linkData: '_parent',
      graphqlDescription: 'Id of the parent page, 0 for none (REST: `parent`); `parent { node }` is the page.', resolve: (p: Row) => p.parentId ?? 0,
    },
    menuOrder: { kind: 'integer', description: 'The order of the post in relation to other posts.', contexts: VIEW_EDIT },
    classList: { ...postFields.classList, select: undefined, ownsRelation: undefined, resolve: (p: Row, _a: unknown, ctx: Context) => classList(ctx, p, false) },
  },
  after: { parentDatabaseId: 'featuredImageDatabaseId', menuOrder: 'parentDatabaseId' },
});

// ---------------------------------------------------------------- collections

const dateBound = (description: string): ListParamDef => ({ in: 'filter', kind: 'date-time', description });
const intList = (description: string): ListParamDef => ({ in: 'filter', kind: 'integer[]', description, default: [] });

/** WordPress's taxonomy filter: a list of term ids, or {terms, operator, include_children}. */
function taxonomyParam(taxonomy: string, hierarchical: boolean, exclude = false, what = taxonomy === 'category' ? 'categories' : 'tags'): ListParamDef {
  const terms = { description: 'Term IDs.', type: 'array', items: { type: 'integer' }, default: [] };
  const properties: Record<string, unknown> = { terms };
  if (hierarchical) properties.include_children = { description: 'Whether to include child terms in the terms limiting the result set.', type: 'boolean', default: false };
  if (!exclude) properties.operator = { description: 'Whether items must be assigned all or any of the specified terms.', type: 'string', enum: [...Relation.values], default: 'OR' };
  return {
    in: 'filter', kind: 'object', graphqlType: 'TaxonomyFilter',
    description: exclude ? `Limit result set to items except those with specific terms assigned in the ${what} taxonomy.` : `Limit result set to items with specific terms assigned in the ${what} taxonomy.`,
    argSchema: {
      type: ['object', 'array'],
      oneOf: [
        { title: 'Term ID List', description: 'Match terms with the listed IDs.', type: 'array', items: { type: 'integer' } },
        { title: 'Term ID Taxonomy Query', description: 'Perform an advanced term query.', type: 'object', properties, additionalProperties: false },
      ],
    },
    fromRest: (value) => {
      if (value === undefined || value === null) return undefined;
      if (Array.isArray(value)) return { terms: value };
      const v = value as { terms?: unknown; operator?: unknown; include_children?: unknown };
      return { terms: v.terms ?? [], operator: v.operator === undefined ? undefined : Relation.nameOf(String(v.operator)), includeChildren: v.include_children };
    },
  };
}

export const PostList: ListDef = {
  filterName: 'PostListFilter', description: 'Filters of a post list; every one optional.',
  params: {
    ...collectionParams({ perPageDefault: 10 }),
    after: dateBound('Limit response to posts published after a given ISO8601 compliant date.'),
    modified_after: dateBound('Limit response to posts modified after a given ISO8601 compliant date.'),
    author: intList('Limit result set to posts assigned to specific authors.'),
    author_exclude: intList('Ensure result set excludes posts assigned to specific authors.'),
    before: dateBound('Limit response to posts published before a given ISO8601 compliant date.'),
    modified_before: dateBound('Limit response to posts modified before a given ISO8601 compliant date.'),
    exclude: intList('Ensure result set excludes specific IDs.'),
    include: intList('Limit result set to specific IDs.'),
    offset: { in: 'arg', kind: 'integer', description: 'Offset the result set by a specific number of items.' },
    order: { in: 'arg', kind: 'enum', enum: Order, description: 'Order sort attribute ascending or descending.', default: 'desc' },
    orderby: { in: 'arg', kind: 'enum', enum: PostOrderBy, description: 'Sort collection by post attribute.', default: 'date' },
    search_semantics: { in: 'filter', kind: 'enum', enum: SearchSemantics, description: 'How to interpret the search input.' },
    search_columns: { in: 'filter', kind: 'enum[]', enum: SearchColumn, description: 'Array of column names to be searched.', default: [] },
    slug: { in: 'filter', kind: 'string[]', description: 'Limit result set to posts with one or more specific slugs.' },
    status: { in: 'filter', kind: 'enum[]', enum: ContentStatusFilter, description: 'Limit result set to posts assigned one or more statuses.', default: 'publish' },
    tax_relation: { in: 'filter', kind: 'enum', enum: Relation, description: 'Limit result set based on relationship between multiple taxonomies.' },
    categories: taxonomyParam('category', true),
    categories_exclude: taxonomyParam('category', true, true),
    tags: taxonomyParam('post_tag', false),
    tags_exclude: taxonomyParam('post_tag', false, true),
    sticky: { in: 'filter', kind: 'boolean', description: 'Limit result set to items that are sticky.' },
    ignore_sticky: { in: 'arg', kind: 'boolean', description: 'Whether to ignore sticky posts or not.', default: true },
    format: { in: 'filter', kind: 'enum[]', enum: PostFormat, description: 'Limit result set to items assigned one or more given formats.', schema: { uniqueItems: true } },
  },
};

export const PageList = deriveList(PostList, {
  filterName: 'PageListFilter', description: 'Filters of a page list; every one optional.',
  omit: ['tax_relation', 'categories', 'categories_exclude', 'tags', 'tags_exclude', 'sticky', 'ignore_sticky', 'format'],
  params: {
    orderby: { ...PostList.params.orderby, enum: PageOrderBy },
    menu_order: { in: 'filter', kind: 'integer', description: 'Limit result set to posts with a specific menu_order value.' },
    parent: { in: 'filter', kind: 'integer[]', description: 'Limit result set to items with particular parent IDs.', default: [] },
    parent_exclude: { in: 'filter', kind: 'integer[]', description: 'Limit result set to all items except those of a particular parent ID.', default: [] },
  },
  after: { menu_order: 'offset' },
});

// ---------------------------------------------------------------- the site's own types and fields

/** A custom field's JSON Schema and GraphQL shape under `meta` (register_meta with show_in_rest). */
function metaProperty(key: string, f: FieldConfig): PropertyDef {
  return {
    kind: f.type, description: f.description ?? '', contexts: f.contexts ?? VIEW_EDIT, default: fieldDefault(f),
    ...(f.enum ? { schema: { enum: f.enum } } : {}), graphql: key,
  };
}

/** The `meta` of a type with custom fields: what it holds and the names of its GraphQL types. */
export interface CustomMeta {
  fields: Record<string, FieldConfig>;
  /** The block editor's footnotes come first (where the type has an editor and revisions, as WordPress registers them). */
  footnotes: boolean;
  /** `{Name}Meta` and `{Name}MetaInput`, made by the GraphQL layer (src/schema/content/registered.ts). */
  type: string;
  input: string;
}

/** A type's custom `meta`; null for a type without custom fields, whose `meta` is the footnotes alone. */
export function customMetaOf(d: ContentTypeDescriptor): CustomMeta | null {
  if (!Object.keys(d.fields).length) return null;
  // Posts and pages share the built-in PostMeta (footnotes alone): theirs with fields get a name of their own.
  const name = d.custom ? `${d.graphqlName}Meta` : `${d.graphqlName}CustomMeta`;
  return { fields: d.fields, footnotes: d.supports.revisions, type: name, input: `${name}Input` };
}

/** `meta` of a type with custom fields: its footnotes and each field, typed, read from post meta. */
function customMetaField(meta: CustomMeta): FieldDef {
  const { footnotes } = meta;
  const fields = Object.entries(meta.fields);
  const keys = [...(footnotes ? ['footnotes'] : []), ...fields.map(([k]) => k)];
  return {
    kind: 'object', description: 'Meta fields.', contexts: VIEW_EDIT, graphqlType: meta.type, graphqlInputType: meta.input,
    properties: {
      ...(footnotes ? { footnotes: { kind: 'string', description: '', contexts: VIEW_EDIT, default: '' } as PropertyDef } : {}),
      ...Object.fromEntries(fields.map(([k, f]) => [k, metaProperty(k, f)])),
    },
    // REST's object as the GraphQL input: the known keys, as given (GraphQL checks their types).
    fromRest: (value) => {
      if (!value || typeof value !== 'object' || Array.isArray(value)) return undefined;
      const given = Object.entries(value as Record<string, unknown>).filter(([k]) => keys.includes(k));
      return given.length ? Object.fromEntries(given) : undefined;
    },
    select: customMetaSelect(keys), ownsRelation: true,
    resolve: (p: Row, _a: unknown, ctx: Context) => withCustomMeta(ctx, p, keys, (rows) => customMetaValues(meta.fields, rows, footnotes)),
  };
}

// Custom fields the site's model puts on posts and pages join their footnotes under `meta`.
const postMeta = customMetaOf(POST_TYPE);
if (postMeta) PostResource.fields.meta = customMetaField(postMeta);
const pageMeta = customMetaOf(PAGE_TYPE);
if (pageMeta) PageResource.fields.meta = customMetaField(pageMeta);

/** The fields of a type of the site's model: a post's, less what it does not support, plus its taxonomies and fields. */
export function customResource(d: ContentTypeDescriptor): ResourceDef {
  const meta = customMetaOf(d);
  const taxonomyFields = Object.fromEntries(d.supports.taxonomies.map((t) => [`${gqlKey(t.restBase)}DatabaseIds`, { ...termsField(t.taxonomy), rest: t.restBase, inputName: gqlKey(t.restBase), graphqlDescription: `Ids of the ${t.taxonomy} terms (REST: \`${t.restBase}\`); \`${gqlKey(t.restBase)}\` is the connection to them.` }]));
  const pageFields: Record<string, FieldDef> = d.supports.pageAttributes ? { parentDatabaseId: PageResource.fields.parentDatabaseId, menuOrder: PageResource.fields.menuOrder } : {};
  return deriveResource(PostResource, {
    name: d.graphqlName, title: d.type, description: d.custom?.description || `An item of the ${d.about.singularName} type.`,
    omit: ['sticky', 'format', 'categoryDatabaseIds', 'tagDatabaseIds', ...(d.about.features.includes('excerpt') ? [] : ['excerpt'])],
    fields: {
      ...pageFields, ...taxonomyFields,
      ...(meta ? { meta: customMetaField(meta) } : {}),
      classList: { ...postFields.classList, resolve: (p: Row, _a: unknown, ctx: Context) => classList(ctx, p, d.supports.taxonomies.length > 0) },
    },
    after: { parentDatabaseId: 'featuredImageDatabaseId', menuOrder: 'parentDatabaseId' },
  });
}

/** The collection parameters of a type of the site's model: a page list's, with one filter pair per taxonomy. */
export function customList(d: ContentTypeDescriptor): ListDef {
  const tax: Record<string, ListParamDef> = {};
  for (const t of d.supports.taxonomies) {
    tax[t.restBase] = { ...taxonomyParam(t.taxonomy, t.hierarchical, false, t.restBase), graphql: gqlKey(t.restBase) };
    tax[`${t.restBase}_exclude`] = { ...taxonomyParam(t.taxonomy, t.hierarchical, true, t.restBase), graphql: `${gqlKey(t.restBase)}Exclude` };
  }
  return deriveList(PageList, {
    filterName: `${d.graphqlName}ListFilter`, description: `Filters of a ${d.about.singularName.toLowerCase()} list; every one optional.`,
    omit: d.supports.pageAttributes ? [] : ['menu_order', 'parent', 'parent_exclude'],
    params: { ...(d.supports.taxonomies.length > 1 ? { tax_relation: PostList.params.tax_relation } : {}), ...tax },
  });
}

/** Every post-like type's fields and collection: posts, pages, then the site's own. */
export const POST_LIKE: { descriptor: ContentTypeDescriptor; resource: ResourceDef; list: ListDef }[] = POST_LIKE_TYPES.map((d) =>
  d === POST_TYPE ? { descriptor: d, resource: PostResource, list: PostList }
    : d === PAGE_TYPE ? { descriptor: d, resource: PageResource, list: PageList }
      : { descriptor: d, resource: customResource(d), list: customList(d) });

/**
 * The stored fields of a post-like type that its input writes straight to a column: writable,
 * read from storage with no resolver, a scalar. The content service writes those its own rules do
 * not (src/content/service.ts), so a column added to the model and its field to the definition
 * are written with no other edit.
 */
export function storedInputs(type: string): StoredInput[] {
  return STORED_INPUTS.get(type) ?? [];
}
type StoredInput = { name: string; column: string; default?: unknown };
const SCALAR_KINDS = new Set(['integer', 'string', 'boolean', 'number', 'enum', 'uri', 'email']);
// Worked out once per type, not on every write.
const STORED_INPUTS = new Map<string, StoredInput[]>(POST_LIKE.map((e) => [e.descriptor.type, writableFields(e.resource)
  .filter(([, , f]) => !f.resolve && !f.fromRest && !f.writeOnly && f.graphqlInput !== false && SCALAR_KINDS.has(f.kind))
  .map(([name, , f]) => ({ name: f.inputName ?? name, column: f.column ?? name, ...(f.default !== undefined ? { default: f.default } : {}) }))]));
