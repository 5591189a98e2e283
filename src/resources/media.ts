// Attachments (the media library): a post without content, excerpt, password, sticky, format or
// terms, with a caption (stored as the excerpt), a description (stored as the content), an
// alternative text and the file's details. Field order is WordPress's.
import type { Content } from '../generated/sqlite/client.js';
import type { Context } from '../context.js';
import { ALL_CONTEXTS, EDIT, VIEW_EDIT, deriveList, deriveResource, type FieldDef, type ListDef } from './define.js';
import { MediaKind, MediaStatusFilter, MediaTypeFilter } from './enums.js';
import { PostList, PostResource } from './content.js';
import { renderContent, renderExcerpt } from '../content/render.js';
import { cachedRender } from '../content/render-cache.js';
import { textValue } from '../content/fields.js';
import { ATTACHED_FILE, IMAGE_ALT, attachmentMeta, attachmentParent, mediaDetails, mediaMetaSelect, metaValue, missingSizes } from '../media/metadata.js';
import { escHtml } from '../content/escape.js';

type Row = Content & { meta?: { key: string; value: string }[] };

const fileOf = (r: Row) => metaValue(r.meta, ATTACHED_FILE);
const sourceUrl = (r: Row, ctx: Context) => {
  const file = fileOf(r);
  return file ? (ctx.media?.storage.url(file) ?? file) : '';
};

const details = (r: Row, ctx: Context) => mediaDetails(ctx.media?.storage, fileOf(r), attachmentMeta(r.meta), r.mimeType);

/** WordPress prints an attachment's description after a link to the file (its prepend_attachment filter). */
function describe(r: Row, ctx: Context): string {
  const url = sourceUrl(r, ctx);
  let link: string;
  if (r.mimeType.startsWith('image/')) {
    const meta = attachmentMeta(r.meta);
    const medium = meta.sizes?.medium;
    const src = medium ? url.slice(0, url.lastIndexOf('/') + 1) + medium.file : url;
    const [w, h] = medium ? [medium.width, medium.height] : [meta.width, meta.height];
    const alt = metaValue(r.meta, IMAGE_ALT) ?? '';
    link = `<a href='${escHtml(url)}'><img width="${w ?? ''}" height="${h ?? ''}" src="${escHtml(src)}" class="attachment-medium size-medium" alt="${escHtml(alt)}" decoding="async" loading="lazy" /></a>`;
  } else {
    link = `<a href='${escHtml(url)}'>${escHtml(r.title)}</a>`;
  }
  return `<p class="attachment">${link}</p>\n${r.content ? cachedRender('content', r.content, () => renderContent(r.content)) : ''}`;
}

const text = (what: string, contexts: typeof ALL_CONTEXTS, rendered: typeof ALL_CONTEXTS, resolve: FieldDef['resolve']): Pick<FieldDef, 'kind' | 'properties' | 'graphqlType' | 'inputKind' | 'fromRest' | 'skipValidation' | 'contexts' | 'resolve' | 'select'> => ({
  ...PostResource.fields.title,
  properties: {
    raw: { graphql: 'raw', kind: 'string', nullable: true, description: `${what} for the attachment, as it exists in the database.`, contexts: EDIT },
    rendered: { kind: 'string', description: `HTML ${what.toLowerCase()} for the attachment, transformed for display.`, contexts: rendered, readonly: true },
  },
  contexts,
  resolve,
});

export const MediaResource = deriveResource(PostResource, {
  name: 'MediaItem', title: 'attachment', description: 'A file of the media library (an attachment): an image with its sizes, or any other allowed file.',
  omit: ['content', 'excerpt', 'password', 'sticky', 'format', 'categoryDatabaseIds', 'tagDatabaseIds', 'revisionCount', 'latestRevisionId'],
  fields: {
    meta: {
      kind: 'json', description: 'Meta fields.', contexts: VIEW_EDIT, graphqlType: 'JSON', inputKind: 'json',
      graphqlDescription: 'Registered meta values: none are registered for attachments, so always empty.',
      fromRest: () => undefined, resolve: () => [],
    },
    description: {
      description: 'The attachment description.',
      ...text('Description', VIEW_EDIT, VIEW_EDIT, (r: Row, _a: unknown, ctx: Context) => textValue(r.content, describe(r, ctx), ctx, r)),
      select: mediaMetaSelect,
    },
    caption: {
      description: 'The attachment caption.',
      ...text('Caption', ALL_CONTEXTS, ALL_CONTEXTS, (r: Row, _a: unknown, ctx: Context) => textValue(r.excerpt, renderExcerpt(r.excerpt, r.content), ctx, r)),
    },
    altText: {
      kind: 'string', description: 'Alternative text to display when attachment is not displayed.', contexts: ALL_CONTEXTS,
      select: mediaMetaSelect, resolve: (r: Row) => metaValue(r.meta, IMAGE_ALT) ?? '',
    },
    mediaType: {
      kind: 'enum', enum: MediaKind, description: 'Attachment type.', contexts: ALL_CONTEXTS, readonly: true,
      resolve: (r: Row) => (r.mimeType.startsWith('image/') ? 'image' : 'file'),
    },
    mimeType: { kind: 'string', description: 'The attachment MIME type.', contexts: ALL_CONTEXTS, readonly: true },
    // The REST `media_details` is WordPress's object as it is stored (keys, order, whatever the
    // metadata holds), so REST selects it whole, as JSON, through this field; GraphQL clients read
    // the typed `mediaDetails` below, made from the same record. Two fields rather than a typed
    // field that REST re-assembles: the REST answer stays the stored object byte for byte.
    mediaDetailsJson: {
      kind: 'json', rest: 'media_details', description: 'Details about the media file, specific to its type.', contexts: ALL_CONTEXTS, readonly: true, graphqlType: 'JSON',
      graphqlDescription: 'The REST form of `mediaDetails`: WordPress\'s `media_details` object as JSON (sizes keyed by name, snake_case keys), as the REST API answers it.',
      select: mediaMetaSelect, resolve: (r: Row, _a: unknown, ctx: Context) => details(r, ctx),
    },
    mediaDetails: {
      kind: 'object', rest: false, description: 'Details about the media file, specific to its type.', readonly: true, graphqlType: 'MediaDetails',
      graphqlDescription: 'Details about the media file: an image\'s dimensions, sizes (each with its URL) and embedded data; the file size of other files.',
      select: mediaMetaSelect, resolve: (r: Row, _a: unknown, ctx: Context) => details(r, ctx),
    },
    parentDatabaseId: {
      kind: 'integer', rest: 'post', inputName: 'post', nullable: true, description: 'The ID for the associated post of the attachment.', contexts: VIEW_EDIT,
      graphqlDescription: 'Id of the post or page it is attached to, null when unattached (REST: `post`); `parent { node }` is the item.',
      // An id with nothing behind it is kept in the meta, as WordPress stores it as given.
      select: mediaMetaSelect, resolve: (r: Row) => attachmentParent(r),
    },
    sourceUrl: {
      kind: 'uri', description: 'URL to the original attachment file.', contexts: ALL_CONTEXTS, readonly: true,
      select: mediaMetaSelect, resolve: (r: Row, _a: unknown, ctx: Context) => sourceUrl(r, ctx),
    },
    missingImageSizes: {
      kind: 'string[]', description: 'List of the missing image sizes of the attachment.', contexts: EDIT, readonly: true,
      select: mediaMetaSelect, resolve: (r: Row) => missingSizes(attachmentMeta(r.meta), r.mimeType),
    },
  },
  after: { description: 'classList', caption: 'description', altText: 'caption', mediaType: 'altText', mimeType: 'mediaType', mediaDetailsJson: 'mimeType', mediaDetails: 'mediaDetailsJson', parentDatabaseId: 'mediaDetails', sourceUrl: 'parentDatabaseId', missingImageSizes: 'sourceUrl' },
});

/** The media collection: the post parameters but taxonomies, sticky and format; statuses of attachments; MIME filters. */
export const MediaList: ListDef = deriveList(PostList, {
  filterName: 'MediaListFilter', description: 'Filters of a media list; every one optional.',
  omit: ['tax_relation', 'categories', 'categories_exclude', 'tags', 'tags_exclude', 'sticky', 'ignore_sticky', 'format'],
  params: {
    status: { in: 'filter', kind: 'enum[]', enum: MediaStatusFilter, description: 'Limit result set to posts assigned one or more statuses.', default: 'inherit' },
    parent: { in: 'filter', kind: 'integer[]', description: 'Limit result set to items with particular parent IDs.', default: [] },
    parent_exclude: { in: 'filter', kind: 'integer[]', description: 'Limit result set to all items except those of a particular parent ID.', default: [] },
    media_type: { in: 'filter', kind: 'enum[]', enum: MediaTypeFilter, description: 'Limit result set to attachments of a particular media type or media types.' },
    mime_type: { in: 'filter', kind: 'string[]', description: 'Limit result set to attachments of a particular MIME type or MIME types.' },
  },
  after: { parent: 'status', parent_exclude: 'parent', media_type: 'parent_exclude', mime_type: 'media_type' },
});
