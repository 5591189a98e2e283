// Every enumeration of the domain, stated once. GraphQL enum types, REST `enum` lists, JSON
// Schema and the REST ⇄ GraphQL value mapping are all made from these.
import { defineEnum } from './define.js';

export const WRITE_STATUSES = ['publish', 'future', 'draft', 'pending', 'private'] as const;
/** Every stored status of content (what a record can show). */
export const STORED_STATUSES = [...WRITE_STATUSES, 'trash', 'auto-draft', 'inherit', 'request-pending', 'request-confirmed', 'request-failed', 'request-completed'] as const;

const WRITE_STATUS_DESCRIPTIONS = {
  publish: 'Public.', future: 'Scheduled: public once its date comes.', draft: 'Not public; being written.',
  pending: 'Waiting for review by someone who may publish.', private: 'Visible to those who may read private content.',
} as const;

/** What each stored status means (the GraphQL descriptions of the status enums). */
const STATUS_DESCRIPTIONS = {
  ...WRITE_STATUS_DESCRIPTIONS,
  trash: 'In the trash: deleted, but restorable until the trash is emptied.',
  'auto-draft': 'Made by the editor when it opens a new item, before anything was written.',
  inherit: 'Takes the status of the item it belongs to (revisions and attachments).',
  'request-pending': 'A personal-data request waiting for the user to confirm it.',
  'request-confirmed': 'A personal-data request the user confirmed.',
  'request-failed': 'A personal-data request that failed.',
  'request-completed': 'A personal-data request that was carried out.',
} as const;

export const ContentWriteStatus = defineEnum('ContentWriteStatus', 'A status content can be given on write.', WRITE_STATUSES, WRITE_STATUS_DESCRIPTIONS);

export const ContentStatus = defineEnum('ContentStatus', 'The status of a content item.', STORED_STATUSES, STATUS_DESCRIPTIONS);

export const ContentStatusFilter = defineEnum('ContentStatusFilter', 'A status to list content by; ANY stands for every status but trash and auto-draft.', [...STORED_STATUSES, 'any'] as const, {
  ...STATUS_DESCRIPTIONS, any: 'Every status but trash and auto-draft.',
});

export const PostFormat = defineEnum('PostFormat', 'The format of a post, as themes present it.', ['standard', 'aside', 'chat', 'gallery', 'link', 'image', 'quote', 'status', 'video', 'audio'] as const, {
  standard: 'An ordinary post (no format).', aside: 'A short note, usually shown without a title.', chat: 'A chat transcript.',
  gallery: 'A gallery of images.', link: 'A link to another site.', image: 'A single image.', quote: 'A quotation.',
  status: 'A short status update, like a social-network post.', video: 'A single video or video playlist.', audio: 'An audio file or playlist.',
});

export const DiscussionStatus = defineEnum('DiscussionStatus', 'Whether comments (or pings) are accepted.', ['open', 'closed'] as const, {
  open: 'Accepted.', closed: 'Not accepted.',
});

export const Order = defineEnum('Order', 'Direction of a list order.', ['asc', 'desc'] as const, {
  asc: 'Ascending: smallest, earliest or A first.', desc: 'Descending: largest, latest or Z first.',
});

export const Relation = defineEnum('Relation', 'How several conditions combine.', ['AND', 'OR'] as const, {
  AND: 'Every condition must hold.', OR: 'Any one condition is enough.',
});

export const SearchColumn = defineEnum('SearchColumn', 'A column a content search looks in.', ['post_title', 'post_content', 'post_excerpt'] as const, {
  post_title: 'The title.', post_content: 'The content.', post_excerpt: 'The excerpt.',
});

export const SearchSemantics = defineEnum('SearchSemantics', 'How the search input is read.', ['exact'] as const, {
  exact: 'The whole input is one phrase, matched as written (not split into words).',
});

/** What each list order means (the GraphQL descriptions of the order-by enums). */
const ORDER_BY_DESCRIPTIONS = {
  author: 'The author\'s id.', date: 'The publication date.', id: 'The id.',
  include: 'The order of the ids given in the `include` filter.', modified: 'The date of the last change.',
  parent: 'The parent\'s id.', relevance: 'How well the item matches the search (needs a `search` filter).',
  slug: 'The slug.', include_slugs: 'The order of the slugs given in the `slug` filter.', title: 'The title, without regard to case.',
  menu_order: 'The menu order (the page attribute).', name: 'The name.', term_group: 'The term group (terms that are aliases of each other share one).',
  description: 'The description.', count: 'The number of published items with the term.', registered_date: 'When the user registered.',
  email: 'The email address.', url: 'The website URL.',
} as const;

export const POST_ORDER_BY = ['author', 'date', 'id', 'include', 'modified', 'parent', 'relevance', 'slug', 'include_slugs', 'title'] as const;
export const PostOrderBy = defineEnum('PostOrderBy', 'What a post list is ordered by.', POST_ORDER_BY, ORDER_BY_DESCRIPTIONS);
export const PageOrderBy = defineEnum('PageOrderBy', 'What a page list is ordered by.', [...POST_ORDER_BY, 'menu_order'] as const, ORDER_BY_DESCRIPTIONS);

export const RevisionOrderBy = defineEnum('RevisionOrderBy', 'What a revision list is ordered by.', ['date', 'id', 'include', 'relevance', 'slug', 'include_slugs', 'title'] as const, ORDER_BY_DESCRIPTIONS);

export const TermOrderBy = defineEnum('TermOrderBy', 'What a term list is ordered by.', ['id', 'include', 'name', 'slug', 'include_slugs', 'term_group', 'description', 'count'] as const, ORDER_BY_DESCRIPTIONS);

export const UserOrderBy = defineEnum('UserOrderBy', 'What a user list is ordered by.', ['id', 'include', 'name', 'registered_date', 'slug', 'include_slugs', 'email', 'url'] as const, ORDER_BY_DESCRIPTIONS);

export const UserWho = defineEnum('UserWho', 'A kind of user to list.', ['authors'] as const, {
  authors: 'Users who may author content (every role but subscriber); needs the caller to be able to edit posts or pages.',
});

export const MediaKind = defineEnum('MediaKind', 'What an attachment is shown as: an image, or any other file.', ['image', 'file'] as const, {
  image: 'An image (its MIME type is image/…), with sizes.', file: 'Any other file.',
});

export const MediaTypeFilter = defineEnum('MediaTypeFilter', 'A MIME family to list attachments by.', ['image', 'video', 'text', 'application', 'audio'] as const, {
  image: 'image/… files.', video: 'video/… files.', text: 'text/… files.', application: 'application/… files (PDFs, documents, archives …).', audio: 'audio/… files.',
});

export const MediaStatusFilter = defineEnum('MediaStatusFilter', 'A status to list attachments by.', ['inherit', 'private', 'trash'] as const, {
  inherit: 'Attachments, which take the status of the item they are attached to.', private: 'Private attachments.', trash: 'Attachments in the trash.',
});
