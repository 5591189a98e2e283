// Revisions and autosaves of a post-like type: one definition, made from the parent type's own
// (its guid, title, content, excerpt and meta fields, as WordPress's revision schema copies
// them from the parent controller), plus the fields every revision has. An autosave is a
// revision with a preview link. Field order is the order WordPress prints a revision in.
import type { Content } from '../generated/sqlite/client.js';
import type { Context } from '../context.js';
import { ALL_CONTEXTS, EDIT, VIEW_EDIT, collectionParams, defineResource, type FieldDef, type ListDef, type ResourceDef } from './define.js';
import { RevisionOrderBy } from './enums.js';
import { POST_LIKE, PageResource, PostList, PostResource } from './content.js';
import { formatWpDate } from '../content/dates.js';
import { renderContent, renderExcerpt, renderTitle } from '../content/render.js';
import { cachedRender } from '../content/render-cache.js';
import { textValue } from '../content/fields.js';
import { previewLink } from '../revisions/preview.js';
import { PAGE_TYPE, POST_TYPE, type ContentTypeDescriptor } from './content-types.js';

type Row = Content;

/** A text field of the parent with only its stored and displayed forms (revisions print no more). */
function textField(parent: FieldDef, resolve: FieldDef['resolve']): FieldDef {
  const { raw, rendered } = parent.properties!;
  return { ...parent, properties: { raw, rendered }, resolve, args: undefined, selectionArgs: undefined };
}

export interface RevisionResources {
  revision: ResourceDef;
  autosave: ResourceDef;
}

/** The revision and autosave definitions of a content type, from the type's own definition. */
export function revisionResources(d: ContentTypeDescriptor, parent: ResourceDef): RevisionResources {
  const p = parent.fields;
  const fields: Record<string, FieldDef> = {
    author: { kind: 'integer', description: 'The ID for the author of the revision.', contexts: ALL_CONTEXTS, column: 'authorId' },
    date: { kind: 'date-time', description: "The date the revision was published, in the site's timezone.", contexts: ALL_CONTEXTS, resolve: (r: Row) => formatWpDate(r.date) },
    dateGmt: { kind: 'date-time', description: 'The date the revision was published, as GMT.', contexts: VIEW_EDIT, resolve: (r: Row) => formatWpDate(r.dateGmt) },
    databaseId: { kind: 'integer', rest: 'id', column: 'id', graphqlDescription: 'The id REST uses (in its routes and `id` fields); `id` is the global id.', description: 'Unique identifier for the revision.', contexts: ALL_CONTEXTS },
    modified: { kind: 'date-time', description: "The date the revision was last modified, in the site's timezone.", contexts: VIEW_EDIT, resolve: (r: Row) => formatWpDate(r.modified) },
    modifiedGmt: { kind: 'date-time', description: 'The date the revision was last modified, as GMT.', contexts: VIEW_EDIT, resolve: (r: Row) => formatWpDate(r.modifiedGmt) },
    parent: { kind: 'integer', description: 'The ID for the parent of the revision.', contexts: ALL_CONTEXTS, resolve: (r: Row) => r.parentId ?? 0 },
    slug: { kind: 'string', description: 'An alphanumeric identifier for the revision unique to its type.', contexts: ALL_CONTEXTS },
    guid: p.guid,
    title: textField(p.title, (r: Row, _a: unknown, ctx: Context) => textValue(r.title, renderTitle(r.title), ctx, r)),
    content: textField(p.content, (r: Row, _a: unknown, ctx: Context) => textValue(r.content, cachedRender('content', r.content, () => renderContent(r.content)), ctx, r)),
  };
  // The excerpt a revision shows is its own, never one made from the content.
  if (p.excerpt) fields.excerpt = textField(p.excerpt, (r: Row, _a: unknown, ctx: Context) => textValue(r.excerpt, r.excerpt.trim() ? renderExcerpt(r.excerpt, '') : '', ctx, r));
  fields.meta = p.meta;

  const title = `${d.type}-revision`;
  const revision = defineResource({ name: `${d.graphqlName}Revision`, title, description: `A stored earlier state of a ${d.type}.`, fields });
  const autosave = defineResource({
    name: `${d.graphqlName}Autosave`, title, description: `Unsaved changes to a ${d.type}: one per user, or the ${d.type} itself when its author autosaves a draft.`,
    fields: {
      ...fields,
      previewLink: {
        kind: 'uri', description: 'Preview link for the post.', contexts: EDIT, readonly: true,
        resolve: (r: Row, _a: unknown, ctx: Context) => previewLink(ctx, r),
      },
    },
  });
  return { revision, autosave };
}

/** The revision collection's parameters (WordPress's revisions controller). */
export const RevisionList: ListDef = {
  filterName: 'RevisionListFilter', description: 'Filters of a revision list; every one optional.',
  params: {
    ...collectionParams({}),
    exclude: PostList.params.exclude,
    include: PostList.params.include,
    offset: PostList.params.offset,
    order: PostList.params.order,
    orderby: { in: 'arg', kind: 'enum', enum: RevisionOrderBy, description: 'Sort collection by object attribute.', default: 'date' },
  },
};

export const POST_REVISIONS = revisionResources(POST_TYPE, PostResource);
export const PAGE_REVISIONS = revisionResources(PAGE_TYPE, PageResource);

/** Revision definitions of every post-like type that keeps revisions, by type. */
export const POST_LIKE_REVISIONS = new Map<string, RevisionResources>(POST_LIKE.filter((e) => e.descriptor.supports.revisions).map((e) => [
  e.descriptor.type,
  e.descriptor === POST_TYPE ? POST_REVISIONS : e.descriptor === PAGE_TYPE ? PAGE_REVISIONS : revisionResources(e.descriptor, e.resource),
]));
