// Every enumeration of the domain, stated once. GraphQL enum types, REST `enum` lists, JSON
// Schema and the REST ⇄ GraphQL value mapping are all made from these.
import { defineEnum } from './define.js';

export const WRITE_STATUSES = ['publish', 'future', 'draft', 'pending', 'private'] as const;
/** Every stored status of content (what a record can show). */
export const STORED_STATUSES = [...WRITE_STATUSES, 'trash', 'auto-draft', 'inherit', 'request-pending', 'request-confirmed', 'request-failed', 'request-completed'] as const;

export const ContentWriteStatus = defineEnum('ContentWriteStatus', 'A status content can be given on write.', WRITE_STATUSES, {
  publish: 'Public.', future: 'Scheduled: public once its date comes.', draft: 'Not public; being written.',
  pending: 'Waiting for review by someone who may publish.', private: 'Visible to those who may read private content.',
});

export const ContentStatus = defineEnum('ContentStatus', 'The status of a content item.', STORED_STATUSES);

export const ContentStatusFilter = defineEnum('ContentStatusFilter', 'A status to list content by; ANY stands for every status but trash and auto-draft.', [...STORED_STATUSES, 'any'] as const);

export const PostFormat = defineEnum('PostFormat', 'The format of a post, as themes present it.', ['standard', 'aside', 'chat', 'gallery', 'link', 'image', 'quote', 'status', 'video', 'audio'] as const);

export const DiscussionStatus = defineEnum('DiscussionStatus', 'Whether comments (or pings) are accepted.', ['open', 'closed'] as const);

export const Order = defineEnum('Order', 'Direction of a list order.', ['asc', 'desc'] as const);

export const Relation = defineEnum('Relation', 'How several conditions combine.', ['AND', 'OR'] as const);

export const SearchColumn = defineEnum('SearchColumn', 'A column a content search looks in.', ['post_title', 'post_content', 'post_excerpt'] as const);

export const SearchSemantics = defineEnum('SearchSemantics', 'How the search input is read.', ['exact'] as const);

export const POST_ORDER_BY = ['author', 'date', 'id', 'include', 'modified', 'parent', 'relevance', 'slug', 'include_slugs', 'title'] as const;
export const PostOrderBy = defineEnum('PostOrderBy', 'What a post list is ordered by.', POST_ORDER_BY);
export const PageOrderBy = defineEnum('PageOrderBy', 'What a page list is ordered by.', [...POST_ORDER_BY, 'menu_order'] as const);

export const RevisionOrderBy = defineEnum('RevisionOrderBy', 'What a revision list is ordered by.', ['date', 'id', 'include', 'relevance', 'slug', 'include_slugs', 'title'] as const);

export const TermOrderBy = defineEnum('TermOrderBy', 'What a term list is ordered by.', ['id', 'include', 'name', 'slug', 'include_slugs', 'term_group', 'description', 'count'] as const);

export const UserOrderBy = defineEnum('UserOrderBy', 'What a user list is ordered by.', ['id', 'include', 'name', 'registered_date', 'slug', 'include_slugs', 'email', 'url'] as const);

export const UserWho = defineEnum('UserWho', 'A kind of user to list.', ['authors'] as const);

export const MediaKind = defineEnum('MediaKind', 'What an attachment is shown as: an image, or any other file.', ['image', 'file'] as const);

export const MediaTypeFilter = defineEnum('MediaTypeFilter', 'A MIME family to list attachments by.', ['image', 'video', 'text', 'application', 'audio'] as const);

export const MediaStatusFilter = defineEnum('MediaStatusFilter', 'A status to list attachments by.', ['inherit', 'private', 'trash'] as const);
