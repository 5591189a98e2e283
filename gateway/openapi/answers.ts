// What some handlers answer that their route's entry in the table cannot say: statuses and media
// types decided inside the handler. Keyed by OpenAPI path and method; the document adds these to
// what it derives from the table. A handler that starts answering something new belongs here.

export interface AnswerNotes {
  /** Success statuses beside the derived one, with why. */
  statuses?: Record<string, string>;
  /** Media types of the success answer beside JSON, with what they carry. */
  types?: Record<string, string>;
  /** The route (its pattern in the table) whose item the noted statuses answer, when not this route's. */
  item?: string;
  /** The views a write answers in, when not the edit view alone (the caller's rights choose). */
  views?: ('view' | 'edit')[];
}

export const ANSWERS: Record<string, AnswerNotes> = {
  // An autosave by the author of a draft updates the draft itself (200); any other makes or
  // updates the autosave revision (201).
  'POST /core/v2/posts/{id}/autosaves': { statuses: { 200: 'The draft itself, updated in place.' } },
  'POST /core/v2/pages/{id}/autosaves': { statuses: { 200: 'The draft itself, updated in place.' } },
  // Both act on an attachment that exists: the image edit makes a new one (201, as derived), the
  // post-processing answers the same attachment.
  'POST /core/v2/media/{id}/post-process': { statuses: { 200: 'The attachment, with the sizes made.' } },
  // A restore updates the post from the revision: the post as it now is, not a new item.
  'POST /core/v2/posts/{parent}/revisions/{id}/restore': { statuses: { 200: 'The post, restored from the revision.' }, item: '/core/v2/posts/(?P<id>[\\d]+)' },
  'POST /core/v2/pages/{parent}/revisions/{id}/restore': { statuses: { 200: 'The page, restored from the revision.' }, item: '/core/v2/pages/(?P<id>[\\d]+)' },
  // A comment is answered in the edit view to moderators, in the view to everyone else (as WordPress).
  'POST /core/v2/comments': { views: ['edit', 'view'] },
  'GET /oembed/1.0/embed': { types: { 'text/xml': 'The oEmbed answer as XML (`format=xml`).' } },
  'GET /block-editor/v1/export': { types: { 'application/rss+xml': 'A WordPress export file (WXR, `format=wxr`).' } },
};
