// Subscriptions (served by /graphql over server-sent events): `contentChanged`, fed by the
// content events every process hears (src/content/events.ts), so a subscriber learns of changes
// made through any process or worker, by REST or GraphQL. Over server-sent events each event
// carries its log id, and a request with Last-Event-ID resumes after it (./resume.ts,
// docs/subscriptions.md).
import { builder } from '../builder.js';
import { globalIdOf } from '../node.js';
import { PostRef } from '../posts/types.js';
import { PageRef } from '../pages/types.js';
import { MediaRef } from '../media/index.js';
import { SUBSCRIBED_TYPES, type ContentAction, type ContentEvent, type StreamItem } from '../../content/events.js';
import { restError } from '../../errors.js';
import { noteIds, parseLastEventId, streamStateOf } from './resume.js';
import { canReadContent } from '../../auth/content-permissions.js';
import { contentTypeOf } from '../../resources/content-types.js';
import { readableRows } from '../../content/service.js';
import type { Context } from '../../context.js';

const ContentChangeAction = builder.enumType('ContentChangeAction', {
  description: 'What happened to the item.',
  values: {
    CREATED: { value: 'created', description: 'Created (any status, drafts included).' },
    UPDATED: { value: 'updated', description: 'Changed, restored from the trash, or given a new status.' },
    TRASHED: { value: 'trashed', description: 'Moved to the trash.' },
    DELETED: { value: 'deleted', description: 'Deleted for good.' },
  } as const,
});

const ContentNode = builder.unionType('ContentNode', {
  description: 'A post, page or media item.',
  types: [PostRef, PageRef, MediaRef],
  resolveType: (row) => contentTypeOf((row as { type: string }).type).graphqlName,
});

const ContentChange = builder.objectRef<ContentEvent>('ContentChange').implement({
  description: 'One change of a post, page or media item.',
  fields: (t) => ({
    action: t.field({ type: ContentChangeAction, description: 'What happened to the item.', resolve: (e) => e.action as ContentAction }),
    type: t.string({ description: 'The GraphQL type of the item: Post, Page or MediaItem.', resolve: (e) => contentTypeOf(e.type).graphqlName }),
    databaseId: t.int({ description: 'The database id of the item (its REST id).', resolve: (e) => e.id }),
    id: t.id({ description: 'The global id of the item (its `Node` id, also when it was deleted).', resolve: (e) => globalIdOf(contentTypeOf(e.type).graphqlName, e.id) }),
    node: t.field({
      type: ContentNode,
      nullable: true,
      description: 'The item as it is now, when the subscriber may read it; null once deleted or when not readable.',
      resolve: async (e, _a, ctx) => {
        if (e.action === 'deleted') return null;
        const row = await ctx.prisma.content.findUnique({ where: { id: e.id } });
        return row ? ((await readableRows(ctx, [row]))[0] ?? null) : null;
      },
    }),
  }),
});

/**
 * Whether the subscriber hears of a change: they may read the item as it was or as it is (so a
 * post taken out of public view is announced to the public, a draft is not).
 */
function mayHear(ctx: Context, e: ContentEvent): boolean {
  const row = { id: e.id, type: e.type, authorId: e.authorId, parentId: e.parentId };
  return canReadContent(ctx, { ...row, status: e.status }) || (!!e.previousStatus && canReadContent(ctx, { ...row, status: e.previousStatus }));
}

builder.subscriptionType({ description: 'Changes as they happen (server-sent events from /graphql).' });

builder.subscriptionField('contentChanged', (t) => t.field({
  type: ContentChange,
  description: 'Every creation, update, trashing and deletion of posts, pages and media the subscriber may read (before or after the change), made through any process. '
    + 'Over server-sent events each event carries its log id as the SSE id; a request with the Last-Event-ID header first hears the events logged after that id.',
  subscribe: (_root, _args, ctx) => {
    const state = streamStateOf(ctx);
    const after = parseLastEventId(state?.lastEventId ?? null);
    const accept = (e: ContentEvent) => (e.kind ?? 'content') === 'content' && SUBSCRIBED_TYPES.has(e.type) && mayHear(ctx, e);
    const stream = ctx.services.contentEvents.subscribe(accept, after === null ? {} : { after });
    return state?.sse ? noteIds(stream, state) : stream;
  },
  resolve: (e: StreamItem) => {
    // A resume after rows the log no longer holds: the subscriber may have missed changes.
    if (e.windowPassed) {
      throw restError('event_log_window_passed', 'Events after the given Last-Event-ID are no longer in the log: some changes may have been missed. Read the current state again; the events from now on follow.', 410, { oldest: e.windowPassed.oldest });
    }
    return e;
  },
}));
