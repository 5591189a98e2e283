// Relations between the resources, for GraphQL clients, in WPGraphQL's shapes: what REST links by
// id as edges and connections (`author { node }`, `featuredImage { node }`, `categories { nodes }`,
// `parent { node }`, `children`, `ancestors`, a term's and a user's `posts`), beside the id fields
// REST selects (`authorDatabaseId` …, aliased back to `author` … on the REST side); `node`,
// `nodeByUri`, `viewer`, `contentNodes` and `uri`.
//
// Reading rules are the REST side's: nested lists run the collection's own filter (same
// `…ListFilter` input, same default status, same status check) and every content row passes the
// posts controller's read check (readableRows). Nothing costs a statement per parent row: nested
// lists and lookups are batched per request (ctx.loader), relations Prisma holds are preloaded
// with the parent's query.
import { builder } from '../builder.js';
import type { Context } from '../../context.js';
import type { Content, Prisma as PrismaNS, Term, User } from '../../generated/sqlite/client.js';
import type { GraphQLResolveInfo } from 'graphql';
import { queryFromInfo } from '@pothos/plugin-prisma';
import { restError } from '../../errors.js';
import { PostRef } from '../posts/types.js';
import { PageRef } from '../pages/types.js';
import { MediaRef } from '../media/index.js';
import { CategoryRef, TagRef, termRef } from '../terms/index.js';
import { contentRef } from '../content/registered.js';
import { UserRef } from '../users/types.js';
import { checkReadUser } from '../../users/service.js';
import { getMenu, getMenuItem } from '../../menus/service.js';
import { enumRef, listFilterInput } from '../resource-types.js';
import { Order } from '../../resources/enums.js';
import { POST_LIKE, PageList, PostList } from '../../resources/content.js';
import { MediaResource } from '../../resources/media.js';
import { TAXONOMIES } from '../../resources/terms.js';
import { UserResource } from '../../resources/users.js';
import type { FieldDef } from '../../resources/define.js';
import { CONTENT_TYPES, MEDIA_TYPE, PAGE_TYPE, POST_LIKE_TYPES, POST_TYPE, TAXONOMY_REFS, gqlKey } from '../../resources/content-types.js';
import { checkStatusFilter, listOrder, listWhere, readableRows, type ListFilter } from '../../content/service.js';
import { homePath, resolveAddress } from '../../site/resolve.js';
import { MAX_WINDOW, PageInfoRef, decodeKey, keyCursor } from '../connections.js';
import { keyColumns, keysetWhere, type KeyValue } from '../../db/list.js';
import { NodeRef, parseGlobalId, tagType, typeNameOf } from '../node.js';
import { POST_LIKE_REVISIONS } from '../../resources/revisions.js';
import { checkReadRevision } from '../../revisions/service.js';
import { checkReadComment } from '../../comments/service.js';
import { attachmentParent, mediaMetaSelect } from '../../media/metadata.js';

// eslint-disable-next-line @typescript-eslint/no-explicit-any
type AnyT = any;

// ---------------------------------------------------------------- batched lookups

/** Content rows by id, of one type, that the caller may read; one statement per request and selection. */
function contentById(ctx: Context, types: string[], query: object = {}) {
  return ctx.loader<number, Content | null>(`rel:content:${types.join(',')}:${JSON.stringify(query)}`, async (ids) => {
    const found = await ctx.prisma.content.findMany({ ...query, where: { id: { in: [...ids] }, type: { in: types } } });
    const readable = new Map((await readableRows(ctx, found)).map((r) => [r.id, r]));
    return ids.map((id) => readable.get(id) ?? null);
  });
}

function termById(ctx: Context, taxonomy: string, query: object = {}) {
  return ctx.loader<number, Term | null>(`rel:term:${taxonomy}:${JSON.stringify(query)}`, async (ids) => {
    const found = await ctx.prisma.term.findMany({ ...query, where: { id: { in: [...ids] }, taxonomy } });
    return ids.map((id) => found.find((r) => r.id === id) ?? null);
  });
}

type Link = 'author' | 'parent' | 'term';

/** One parent's window of a nested list: the ids in it, whether more follow, each id's sort key. */
interface NestedWindow { ids: number[]; more: boolean; keys: Map<number, KeyValue[]> }

/**
 * The first `first` items of `type` linked to each parent (its author, its parent item, or a term
 * it carries) that the collection filter selects, in the list's order, after the `after` key when
 * one is given (keyset: the same bound for every parent). One statement per request for every
 * parent: the matching ids with their link and sort key (the rows are read by id after, see
 * `contentById`, one statement per selection).
 */
function relatedContent(ctx: Context, o: { type: string; link: Link; filter: ListFilter; first: number; order: PrismaNS.ContentOrderByWithRelationInput[]; after: KeyValue[] | null }) {
  const columns = keyColumns('Content', o.order);
  const key = `rel:list:${o.type}:${o.link}:${o.first}:${JSON.stringify(o.filter)}:${JSON.stringify(o.order)}:${JSON.stringify(o.after)}`;
  return ctx.loader<number, NestedWindow>(key, async (parents) => {
    const q = await listWhere(ctx, await ctx.site(), o.type, o.filter);
    if (q.search || q.matchesInMemory) throw restError('rest_invalid_param', 'Invalid parameter(s): where', 400, { params: { where: 'Nested lists take no full-text search; use the top-level list.' } });
    const ids = [...parents];
    const link: PrismaNS.ContentWhereInput = o.link === 'author' ? { authorId: { in: ids } } : o.link === 'parent' ? { parentId: { in: ids } } : { terms: { some: { termId: { in: ids } } } };
    const heads = await ctx.prisma.content.findMany({
      where: { AND: [q.where, link, o.after ? keysetWhere(columns, o.after, 'after') as PrismaNS.ContentWhereInput : {}] }, orderBy: o.order,
      select: { id: true, authorId: true, parentId: true, ...Object.fromEntries(columns.map((c) => [c.column, true])), ...(o.link === 'term' ? { terms: { where: { termId: { in: ids } }, select: { termId: true } } } : {}) },
    });
    const byParent = new Map<number, number[]>(ids.map((id) => [id, []]));
    const keys = new Map<number, KeyValue[]>();
    for (const h of heads) {
      const owners = o.link === 'author' ? [h.authorId] : o.link === 'parent' ? [h.parentId!] : (h as unknown as { terms: { termId: number }[] }).terms.map((t) => t.termId);
      keys.set(h.id, columns.map((c) => (h as Record<string, unknown>)[c.column] as KeyValue));
      // One more than asked for tells whether the list goes on.
      for (const p of owners) {
        const list = byParent.get(p);
        if (list && list.length <= o.first) list.push(h.id);
      }
    }
    return ids.map((p) => {
      const list = byParent.get(p)!;
      return { ids: list.slice(0, o.first), more: list.length > o.first, keys };
    });
  });
}

/** The orders a nested list takes: columns of the items, so a keyset follows them (the id breaks ties). */
const NestedOrderBy = builder.enumType('NestedContentOrderBy', {
  description: 'What a nested list of items is ordered by: a column of the items, the id breaking ties.',
  values: {
    DATE: { value: 'date', description: 'Publication date (the default, newest first).' },
    MODIFIED: { value: 'modified', description: 'Last modification date.' },
    SLUG: { value: 'slug', description: 'Slug.' },
    ID: { value: 'id', description: 'Database id.' },
    MENU_ORDER: { value: 'menu_order', description: 'Menu order (the default of a page\'s children, ascending).' },
    AUTHOR: { value: 'author', description: 'Author id.' },
  },
});

/** `first` and `where` of a nested list, with the collection's filter input. */
function nestedListArgs(t: AnyT, filterInput: unknown, what: string) {
  return {
    first: t.arg.int({ required: false, defaultValue: 10, description: `How many ${what} (at most ${MAX_WINDOW}).` }),
    after: t.arg.string({ required: false, description: 'Cursor of the item to start after (an edge\'s `cursor` or `pageInfo.endCursor` of this list).' }),
    where: t.arg({ type: filterInput, required: false, description: `The ${what} collection's filters (same rules and defaults as the top-level list: published items unless a status is asked for).` }),
    orderby: t.arg({ type: NestedOrderBy, required: false, description: 'What the items are ordered by (by default: date, or menu order for a page\'s children).' }),
    order: t.arg({ type: enumRef(Order), required: false, description: 'Direction (by default: newest first by date, ascending by menu order).' }),
  };
}

function nestedFirst(first: number | null | undefined): number {
  const n = first ?? 10;
  if (n < 0 || n > MAX_WINDOW) throw restError('rest_invalid_param', 'Invalid parameter(s): first', 400, { params: { first: `first must be between 0 (inclusive) and ${MAX_WINDOW} (inclusive)` } });
  return n;
}

const NEWEST_FIRST = listOrder({ page: 1, perPage: 1, order: 'desc', orderby: 'date' });
const MENU_ORDER = listOrder({ page: 1, perPage: 1, order: 'asc', orderby: 'menu_order' });

// ---------------------------------------------------------------- edges and connections of relations
// Named as WPGraphQL names them, so front ends written against it read the same shapes: a record
// one step away is an edge (`author { node { name } }`), several are a connection
// (`categories { nodes { name } }` or `edges { node }`). Each reads its rows with the selection
// the query makes of `node`/`nodes`, batched per request.

type Load<T> = (query: object | undefined) => Promise<T>;
const relationTypes = new Map<string, unknown>();

/** `{name} { node }`: one record reached through a relation. */
function edgeType(name: string, nodeRef: unknown, description: string) {
  if (!relationTypes.has(name)) {
    relationTypes.set(name, builder.objectRef<{ node: unknown }>(name).implement({
      description,
      fields: (t) => ({ node: t.field({ type: nodeRef as never, description: 'The record.', resolve: (e) => e.node as never }) }),
    }));
  }
  return relationTypes.get(name);
}

/** `{name} { nodes edges { node } }`: the records reached through a relation, in its order. */
function connectionOf(name: string, nodeRef: unknown, typeName: string | null, description: string) {
  if (!relationTypes.has(name)) {
    const Edge = builder.objectRef<{ node: unknown }>(`${name}Edge`).implement({
      description: `One record of a ${name}.`,
      fields: (t) => ({ node: t.field({ type: nodeRef as never, description: 'The record.', resolve: (e) => e.node as never }) }),
    });
    relationTypes.set(name, builder.objectRef<{ load: Load<object[]> }>(name).implement({
      description,
      fields: (t) => ({
        nodes: t.field({
          type: [nodeRef as never], description: 'The records, in the relation\'s order.',
          resolve: (c, _a, ctx: Context, info: GraphQLResolveInfo) => c.load(typeName ? queryFromInfo({ context: ctx, info, typeName }) as object : undefined) as never,
        }),
        edges: t.field({
          type: [Edge], description: 'The records as edges (`node`), in the relation\'s order.',
          resolve: async (c, _a, ctx: Context, info: GraphQLResolveInfo) => (await c.load(typeName ? queryFromInfo({ context: ctx, info, path: ['node'], typeName }) as object : undefined)).map((node) => ({ node })),
        }),
      }),
    }));
  }
  return relationTypes.get(name);
}

/** The selection a field of an edge type makes of its `node`, for a Prisma read. */
const nodeQuery = (ctx: Context, info: GraphQLResolveInfo, typeName: string) => queryFromInfo({ context: ctx, info, path: ['node'], typeName }) as object;

/** `{name} { nodes edges { cursor node } pageInfo }`: a nested list paged forwards with keyset cursors. */
function pagedConnectionOf(name: string, nodeRef: unknown, typeName: string, description: string) {
  if (!relationTypes.has(name)) {
    type Shape = { window: () => Promise<NestedWindow>; rows: (query: object) => Promise<Content[]>; order: string; after: boolean };
    const cursorOf = (c: Shape, w: NestedWindow, id: number) => keyCursor(c.order, w.keys.get(id)!);
    const Edge = builder.objectRef<{ node: Content; cursor: string }>(`${name}Edge`).implement({
      description: `One item of a ${name}, with its cursor.`,
      fields: (t) => ({
        cursor: t.string({ description: 'The item\'s place in the list (its sort key): pass it as `after`.', resolve: (e) => e.cursor }),
        node: t.field({ type: nodeRef as never, description: 'The item.', resolve: (e) => e.node as never }),
      }),
    });
    relationTypes.set(name, builder.objectRef<Shape>(name).implement({
      description,
      fields: (t) => ({
        nodes: t.field({
          type: [nodeRef as never], description: 'The items of the window the caller may read, in the list\'s order.',
          resolve: (c, _a, ctx: Context, info: GraphQLResolveInfo) => c.rows(queryFromInfo({ context: ctx, info, typeName }) as object) as never,
        }),
        edges: t.field({
          type: [Edge], description: 'The items of the window the caller may read, as edges with their cursors.',
          resolve: async (c, _a, ctx: Context, info: GraphQLResolveInfo) => {
            const [w, rows] = await Promise.all([c.window(), c.rows(queryFromInfo({ context: ctx, info, path: ['node'], typeName }) as object)]);
            return rows.map((node) => ({ node, cursor: cursorOf(c, w, node.id) }));
          },
        }),
        pageInfo: t.field({
          type: PageInfoRef, description: 'Whether more items follow the window, and the cursors of its ends.',
          resolve: async (c) => {
            const w = await c.window();
            const ends = w.ids.length ? [w.ids[0], w.ids[w.ids.length - 1]] : null;
            return { hasNextPage: w.more, hasPreviousPage: c.after, startCursor: ends && cursorOf(c, w, ends[0]), endCursor: ends && cursorOf(c, w, ends[1]) };
          },
        }),
      }),
    }));
  }
  return relationTypes.get(name);
}

/** A nested list of items linked to the parent object, as a connection with `first`, `after` and `where`. */
function contentListField(t: AnyT, o: { owner: string; ref: unknown; descriptor: typeof POST_TYPE; filterInput: unknown; link: Link; description: string; order?: PrismaNS.ContentOrderByWithRelationInput[] }) {
  const d = o.descriptor;
  const byDefault = o.order === MENU_ORDER ? { orderby: 'menu_order', order: 'asc' } : { orderby: 'date', order: 'desc' };
  return t.field({
    type: pagedConnectionOf(`${o.owner}To${d.graphqlName}Connection`, o.ref, d.graphqlName, `${d.about.name} linked to a ${o.owner.toLowerCase()}.`),
    description: o.description,
    args: nestedListArgs(t, o.filterInput, d.graphqlPlural),
    resolve: (parent: { id: number }, args: { first?: number | null; after?: string | null; where?: ListFilter | null; orderby?: string | null; order?: string | null }, ctx: Context) => {
      const filter = { ...(args.where ?? {}) } as ListFilter;
      checkStatusFilter(ctx, d.type, filter.status ?? [], d.defaultStatus);
      const first = nestedFirst(args.first);
      const orderby = args.orderby ?? byDefault.orderby;
      const direction = (args.order ?? (args.orderby ? 'desc' : byDefault.order)) as 'asc' | 'desc';
      const order = listOrder({ page: 1, perPage: 1, order: direction, orderby });
      const columns = keyColumns('Content', order);
      const orderName = `${d.type}:${o.link}:${orderby}:${direction}`;
      const after = args.after != null ? decodeKey(args.after, 'after', orderName, columns) : null;
      const window = () => (first ? relatedContent(ctx, { type: d.type, link: o.link, filter, first, order, after }).load(parent.id) : Promise.resolve({ ids: [], more: false, keys: new Map() }));
      return {
        order: orderName, after: after !== null, window,
        rows: async (query: object) => {
          const found = await contentById(ctx, [d.type], query).loadMany((await window()).ids);
          return found.filter((r): r is Content => !!r && !(r instanceof Error));
        },
      };
    },
  });
}

// ---------------------------------------------------------------- global ids and node

/** Every type with a global id: the post-like types, media, the taxonomies' terms, users, comments, menus and their items, revisions and autosaves. */
const NODE_TYPES = [
  ...POST_LIKE_TYPES.map((d) => d.graphqlName), 'MediaItem',
  ...TAXONOMY_REFS.map((t) => t.graphqlName), 'User', 'ContentType', 'Comment', 'Menu', 'MenuItem',
  ...[...POST_LIKE_REVISIONS.keys()].flatMap((type) => {
    const r = POST_LIKE_REVISIONS.get(type)!;
    return [r.revision.name, r.autosave.name];
  }),
];
const lowerFirst = (s: string) => s[0].toLowerCase() + s.slice(1);

const ContentItemUnion = builder.unionType('ContentItem', {
  description: 'A post or a page (or an item of another content type of the site).',
  types: POST_LIKE_TYPES.map((d) => contentRef(d.type)) as never,
  resolveType: (row) => typeNameOf(row as object),
});
const POST_LIKE_NAMES = POST_LIKE_TYPES.map((d) => d.type);
const ContentNodesWhere = builder.inputType('RootToContentNodeConnectionWhereArgs', {
  description: 'Which items `contentNodes` lists.',
  fields: (t) => ({ contentTypes: t.stringList({ required: false, description: 'REST type names (post, page …); every post-like type when left out.' }) }),
});

/** The revision or autosave a global id names, if the caller may read it (the revision routes' check). */
async function loadRevision(ctx: Context, typeName: string, id: number): Promise<object | null> {
  for (const [type, r] of POST_LIKE_REVISIONS) {
    if (typeName !== r.revision.name && typeName !== r.autosave.name) continue;
    const row = await ctx.prisma.content.findUnique({ where: { id } });
    const kind = typeName === r.revision.name ? 'revision' : 'autosave';
    if (!row || row.type !== kind || !row.parentId) return null;
    try { await checkReadRevision(ctx, type, row.parentId, id); } catch { return null; }
    return tagType(row, typeName);
  }
  return null;
}

/** The posts list at home, as WPGraphQL gives it to `nodeByUri('/')`: the post type's record. */
interface PostsPage { id: number; name: string; uri: string; isFrontPage: boolean }
const postsPage = (): PostsPage => ({ id: 1, name: POST_TYPE.type, uri: '/', isFrontPage: true });

builder.objectRef<PostsPage>('ContentType').implement({
  description: 'A content type as a page of the site: what `nodeByUri` gives for the latest posts at the home address.',
  interfaces: [NodeRef],
  isTypeOf: (v) => typeof v === 'object' && v !== null && 'isFrontPage' in v,
  fields: (t) => ({
    name: t.exposeString('name', { description: 'The type (REST `type` name): post.' }),
    uri: t.exposeString('uri', { nullable: true, description: 'Its address below the home URL (nullable, as `uri` is on every type).' }),
    isFrontPage: t.exposeBoolean('isFrontPage', { description: 'Whether the home address shows it (true: the site shows its latest posts there).' }),
    isPostsPage: t.boolean({ description: 'Whether it is the list of the latest posts (always true here).', resolve: () => true }),
  }),
});

async function loadNode(ctx: Context, typeName: string, id: number): Promise<object | null> {
  const taxonomy = TAXONOMY_REFS.find((t) => t.graphqlName === typeName);
  if (taxonomy) return termById(ctx, taxonomy.taxonomy).load(id);
  if (typeName === 'User') {
    try { await checkReadUser(ctx, id); } catch { return null; }
    return ctx.prisma.user.findUnique({ where: { id } });
  }
  if (typeName === 'ContentType') return id === 1 ? tagType(postsPage(), 'ContentType') : null;
  if (typeName === 'Comment') return checkReadComment(ctx, id).catch(() => null);
  // Menus and items as the caller may read them (src/menus/service.ts), typed by their record's tag.
  if (typeName === 'Menu') return getMenu(ctx, id).then((m) => tagType(m, 'Menu'), () => null);
  if (typeName === 'MenuItem') return getMenuItem(ctx, id).then((i) => tagType(i, 'MenuItem'), () => null);
  const d = CONTENT_TYPES.find((c) => c.graphqlName === typeName);
  if (d) return contentById(ctx, [d.type]).load(id);
  return loadRevision(ctx, typeName, id);
}

builder.queryFields((t) => ({
  viewer: t.prismaField({
    type: UserRef, nullable: true,
    description: 'The signed-in caller; null for an anonymous one (not an error, so a page can ask for it whoever reads).',
    resolve: (query, _r, _a, ctx) => (ctx.viewer ? ctx.prisma.user.findUnique({ ...query, where: { id: ctx.viewer.id } }) : null),
  }),
  contentNodes: t.field({
    type: connectionOf('RootToContentNodeConnection', ContentItemUnion, null, 'Items of every content type, newest first.') as never,
    description: 'Published items of every post-like type (posts, pages and the site\'s own types) together, newest first (then by id), each only if the caller may read it; `contentTypes` narrows them to some types (their REST `type` names: post, page …).',
    args: {
      first: t.arg.int({ required: false, defaultValue: 10, description: `How many items (at most ${MAX_WINDOW}).` }),
      where: t.arg({ type: ContentNodesWhere, required: false, description: 'Which types.' }),
    },
    resolve: (_r, args, ctx): never => {
      const first = nestedFirst(args.first);
      const wanted = args.where?.contentTypes ?? POST_LIKE_NAMES;
      const unknown = wanted.find((x) => !POST_LIKE_NAMES.includes(x));
      if (unknown !== undefined) throw restError('rest_invalid_param', 'Invalid parameter(s): where', 400, { params: { where: `contentTypes: ${unknown} is not one of ${POST_LIKE_NAMES.join(', ')}.` } });
      return {
        load: async () => (first
          ? readableRows(ctx, await ctx.prisma.content.findMany({ where: { type: { in: wanted }, status: 'publish' }, orderBy: [{ date: 'desc' }, { id: 'desc' }], take: first }))
          : []),
      } as never;
    },
  }),
  node: t.field({
    type: NodeRef, nullable: true,
    description: 'A record by its global id (`id`); null when there is none or the caller may not read it, as REST would refuse it.',
    args: { id: t.arg.id({ required: true, description: 'A global id.' }) },
    resolve: async (_r, args, ctx) => {
      const parsed = parseGlobalId(String(args.id), NODE_TYPES);
      return parsed ? ((await loadNode(ctx, parsed.typeName, parsed.id)) as never) : null;
    },
  }),
  nodeByUri: t.field({
    type: NodeRef, nullable: true,
    description: "The record an address of this site names, as the site's pages resolve it: a post, page or item of the site's own types (pretty or plain `?p=`/`?page_id=` form, or the static front page), a term archive (`/category/news/`, `?cat=3`, `/tag/x/` …), an author page (`/author/jo/`, `?author=2`) or the posts list at home (a `ContentType` with `isPostsPage`). A page number (`/page/2/`) names the list's record. Null when it names none, or one the caller may not read.",
    args: { uri: t.arg.string({ required: true, description: 'An absolute URL of this site, or a path below its home URL.' }) },
    resolve: async (_r, args, ctx) => {
      const site = await ctx.site();
      let url: URL;
      try {
        const home = new URL(site.home);
        url = /^[a-z][a-z0-9+.-]*:/i.test(args.uri) ? new URL(args.uri) : new URL(homePath(site) + (args.uri.startsWith('/') ? '' : '/') + args.uri, home);
        if (url.host !== home.host) return null;
      } catch { return null; }
      const found = await resolveAddress(ctx, site, url);
      switch (found.kind) {
        case 'item': return (await contentById(ctx, POST_LIKE_NAMES).load(found.item.row.id)) as never;
        case 'term': return (await termById(ctx, found.term.taxonomy).load(found.term.id)) as never;
        case 'author': return (await ctx.prisma.user.findUnique({ where: { id: found.user.id } })) as never;
        case 'home': return tagType(postsPage(), 'ContentType') as never;
        default: return null;
      }
    },
  }),
}));

// ---------------------------------------------------------------- relations

const PostFilter = listFilterInput(PostList);
const PageFilter = listFilterInput(PageList);

/** Users by id, with a selection; one statement per request and selection. */
function userById(ctx: Context, query: object) {
  return ctx.loader<number, User | null>(`rel:user:${JSON.stringify(query)}`, async (ids) => {
    const found = await ctx.prisma.user.findMany({ ...query, where: { id: { in: [...ids] } } });
    return ids.map((id) => found.find((u) => u.id === id) ?? null);
  });
}

const AuthorEdge = edgeType('AuthorEdge', UserRef, 'The user who wrote an item.');
const FeaturedImageEdge = edgeType('FeaturedImageEdge', MediaRef, 'The featured image of an item.');

/** Fields every post-like type has: its author and its featured image. */
const authored = (what: string) => (t: AnyT) => ({
  author: t.field({
    type: AuthorEdge, nullable: true,
    description: `The user who wrote the ${what} (\`authorDatabaseId\` holds the id); null when there is none.`,
    select: { authorId: true },
    resolve: async (p: { authorId: number }, _a: unknown, ctx: Context, info: GraphQLResolveInfo) => {
      // Whole rows: no field of a user selects a relation, so there is no selection to plan per row.
      const node = p.authorId > 0 ? await userById(ctx, {}).load(p.authorId) : null;
      return node ? { node } : null;
    },
  }),
  featuredImage: t.field({
    type: FeaturedImageEdge, nullable: true,
    description: `The featured image of the ${what} (\`featuredImageDatabaseId\` holds its id); null when none, or when the caller may not read it.`,
    select: { featuredMedia: true },
    resolve: async (p: { featuredMedia: number }, _a: unknown, ctx: Context, info: GraphQLResolveInfo) => {
      const node = p.featuredMedia > 0 ? await contentById(ctx, [MEDIA_TYPE.type], nodeQuery(ctx, info, 'MediaItem')).load(p.featuredMedia) : null;
      return node ? { node } : null;
    },
  }),
});

/** The terms of one taxonomy an item carries, in the order they were assigned, as a connection. */
const itemTerms = (t: AnyT, owner: string, x: { taxonomy: string; graphqlName: string }, description: string) => t.field({
  // Whole rows (typeName null): no field of a term selects a relation, so no selection is planned per row.
  type: connectionOf(`${owner}To${x.graphqlName}Connection`, termRef(x.taxonomy), null, `${x.graphqlName} terms of a ${owner.toLowerCase()}.`),
  description,
  select: { terms: { select: { termId: true, taxonomy: true }, orderBy: { termOrder: 'asc' } } },
  resolve: (p: { terms: { taxonomy: string; termId: number }[] }, _a: unknown, ctx: Context) => ({
    load: async (query: object | undefined) => {
      const ids = p.terms.filter((r) => r.taxonomy === x.taxonomy).map((r) => r.termId);
      return (await termById(ctx, x.taxonomy, query).loadMany(ids)).filter((r): r is Term => !!r && !(r instanceof Error));
    },
  }),
});

builder.prismaObjectFields(PostRef, ((t: AnyT) => ({
  ...authored('post')(t),
  categories: itemTerms(t, 'Post', TAXONOMY_REFS[0], 'The categories of the post (`categoryDatabaseIds` holds their ids), in the order they were assigned.'),
  tags: itemTerms(t, 'Post', TAXONOMY_REFS[1], 'The tags of the post (`tagDatabaseIds` holds their ids), in the order they were assigned.'),
})) as never);

/** An item's parent, its parent and so on to the top, nearest first, each only if the caller may read it. */
async function ancestorItems(ctx: Context, page: { parentId: number | null }, type: string, query: object | undefined): Promise<Content[]> {
  const chain: Content[] = [];
  const seen = new Set<number>();
  for (let id = page.parentId; id && !seen.has(id) && chain.length < 50; ) {
    seen.add(id);
    const row = await contentById(ctx, [type], query).load(id);
    if (!row) break;
    chain.push(row);
    id = row.parentId;
  }
  return chain;
}

/** parent, children and ancestors of an item of a hierarchical type (pages, and the site's own). */
const itemTree = (t: AnyT, o: { ref: unknown; descriptor: typeof PAGE_TYPE; filterInput: unknown; noun: string; nouns: string }) => {
  const N = o.descriptor.graphqlName;
  return {
    parent: t.field({
      type: edgeType(`${N}ParentEdge`, o.ref, `The parent of a ${o.noun}.`), nullable: true,
      description: `The parent ${o.noun} (\`parentDatabaseId\` holds its id); null at the top, or when the caller may not read it.`,
      select: { parentId: true },
      resolve: async (p: { parentId: number | null }, _a: unknown, ctx: Context, info: GraphQLResolveInfo) => {
        const node = p.parentId ? await contentById(ctx, [o.descriptor.type], nodeQuery(ctx, info, N)).load(p.parentId) : null;
        return node ? { node } : null;
      },
    }),
    children: contentListField(t, { owner: N, ref: o.ref, descriptor: o.descriptor, filterInput: o.filterInput, link: 'parent', order: MENU_ORDER, description: `${o.nouns} whose parent this is, by menu order (then id), filtered as the ${o.descriptor.restBase} collection is.` }),
    ancestors: t.field({
      type: connectionOf(`${N}AncestorsConnection`, o.ref, N, `The ancestors of a ${o.noun}, nearest first.`),
      description: `The parent, its parent and so on up to a top-level ${o.noun}, nearest first; stops at one the caller may not read.`,
      select: { parentId: true },
      resolve: (p: { parentId: number | null }, _a: unknown, ctx: Context) => ({ load: (query: object | undefined) => ancestorItems(ctx, p, o.descriptor.type, query) }),
    }),
  };
};

builder.prismaObjectFields(PageRef, ((t: AnyT) => ({
  ...authored('page')(t),
  ...itemTree(t, { ref: PageRef, descriptor: PAGE_TYPE, filterInput: PageFilter, noun: 'page', nouns: 'Pages' }),
})) as never);

const MediaParentEdge = edgeType('MediaItemParentEdge', ContentItemUnion, 'The item a media file is attached to.');
builder.prismaObjectFields(MediaRef, ((t: AnyT) => ({
  author: authored('file')(t).author,
  parent: t.field({
    type: MediaParentEdge, nullable: true,
    description: 'The post or page the file is attached to (`parentDatabaseId` holds its id); null when unattached, or when the caller may not read it.',
    // `post` may name an id with nothing behind it (kept in the meta): then there is no item.
    select: { parentId: true, ...mediaMetaSelect },
    resolve: async (m: { parentId: number | null; meta?: { key: string; value: string }[] }, _a: unknown, ctx: Context) => {
      const parent = attachmentParent(m);
      const node = parent ? await contentById(ctx, POST_LIKE_NAMES).load(parent) : null;
      return node ? { node } : null;
    },
  }),
})) as never);

/** A term's items of one type, filtered as that type's collection is. */
const termItems = (t: AnyT, owner: string, o: { ref: unknown; descriptor: typeof POST_TYPE; filterInput: unknown }) => contentListField(t, {
  owner, ref: o.ref, descriptor: o.descriptor, filterInput: o.filterInput, link: 'term',
  description: `${o.descriptor.about.name} carrying this term, newest first, filtered as the ${o.descriptor.restBase} collection is.`,
});

/** parent and children of a term in a tree (categories, and the site's hierarchical taxonomies). */
const termTree = (t: AnyT, ref: unknown, x: { taxonomy: string; graphqlName: string }, noun: string, nouns: string) => ({
  parent: t.field({
    type: edgeType(`${x.graphqlName}ParentEdge`, ref, `The parent of a ${noun}.`), nullable: true,
    description: `The parent ${noun} (\`parentDatabaseId\` holds its id); null at the top.`,
    select: { parentId: true },
    resolve: async (c: { parentId: number }, _a: unknown, ctx: Context, info: GraphQLResolveInfo) => {
      const node = c.parentId > 0 ? await termById(ctx, x.taxonomy, nodeQuery(ctx, info, x.graphqlName)).load(c.parentId) : null;
      return node ? { node } : null;
    },
  }),
  children: t.field({
    type: connectionOf(`${x.graphqlName}To${x.graphqlName}Connection`, ref, x.graphqlName, `${nouns} under a ${noun}.`),
    description: `${nouns} whose parent this is, by name.`,
    resolve: (c: { id: number }, _a: unknown, ctx: Context) => ({
      load: (query: object | undefined) => ctx.loader<number, Term[]>(`rel:children:${x.taxonomy}:${JSON.stringify(query)}`, async (ids) => {
        const rows = await ctx.prisma.term.findMany({ ...(query ?? {}), where: { taxonomy: x.taxonomy, parentId: { in: [...ids] } }, orderBy: [{ name: 'asc' }, { id: 'asc' }] });
        return ids.map((id) => rows.filter((r) => r.parentId === id));
      }).load(c.id),
    }),
  }),
});

const POSTS = { ref: PostRef, descriptor: POST_TYPE, filterInput: PostFilter };
builder.prismaObjectFields(CategoryRef, ((t: AnyT) => ({
  ...termTree(t, CategoryRef, TAXONOMY_REFS[0], 'category', 'Categories'),
  posts: termItems(t, 'Category', POSTS),
})) as never);

builder.prismaObjectFields(TagRef, ((t: AnyT) => ({ posts: termItems(t, 'Tag', POSTS) })) as never);

builder.prismaObjectFields(UserRef, ((t: AnyT) => ({
  posts: contentListField(t, { owner: 'User', ...POSTS, link: 'author', description: 'Posts by this user, newest first, filtered as the posts collection is (published ones unless a status is asked for).' }),
  pages: contentListField(t, { owner: 'User', ref: PageRef, descriptor: PAGE_TYPE, filterInput: PageFilter, link: 'author', description: 'Pages by this user, newest first, filtered as the pages collection is (published ones unless a status is asked for).' }),
})) as never);

// ---------------------------------------------------------------- the site's own types and taxonomies

for (const { descriptor: d, list } of POST_LIKE.slice(2)) {
  const ref = contentRef(d.type);
  const filterInput = listFilterInput(list);
  builder.prismaObjectFields(ref, ((t: AnyT) => ({
    ...authored(d.about.singularName.toLowerCase())(t),
    ...Object.fromEntries(d.supports.taxonomies.map((x) => [lowerFirst(gqlKey(x.restBase)),
      itemTerms(t, d.graphqlName, x, `The terms of the ${x.taxonomy} taxonomy the item carries (\`${lowerFirst(gqlKey(x.restBase))}DatabaseIds\` holds their ids), in the order they were assigned.`)])),
    ...(d.supports.pageAttributes ? itemTree(t, { ref, descriptor: d, filterInput, noun: 'item', nouns: 'Items' }) : {}),
  })) as never);
  // The other way: the items of this type a term carries, and a user wrote.
  for (const x of d.supports.taxonomies) {
    builder.prismaObjectFields(termRef(x.taxonomy), ((t: AnyT) => ({
      [d.graphqlPlural]: termItems(t, x.graphqlName, { ref, descriptor: d, filterInput }),
    })) as never);
  }
  builder.prismaObjectFields(UserRef, ((t: AnyT) => ({
    [d.graphqlPlural]: contentListField(t, { owner: 'User', ref, descriptor: d, filterInput, link: 'author', description: `Items of the ${d.type} type by this user, newest first, filtered as the ${d.restBase} collection is.` }),
  })) as never);
}

for (const x of TAXONOMY_REFS.slice(2).filter((r) => r.hierarchical)) {
  const ref = termRef(x.taxonomy);
  builder.prismaObjectFields(ref, ((t: AnyT) => termTree(t, ref, x, 'term', 'Terms')) as never);
}

// ---------------------------------------------------------------- uri

/** The address below the home URL (`/2026/11/hello/`, `/?p=5`); null when the link is not of this site. */
function uriOf(link: string, home: string): string | null {
  const base = home.replace(/\/+$/, '');
  if (link !== base && !link.startsWith(`${base}/`) && !link.startsWith(`${base}?`)) return null;
  const rest = link.slice(base.length);
  return rest.startsWith('/') ? rest : `/${rest}`;
}

/** `uri` beside a definition's `link`: what `nodeByUri` takes back. */
const uriField = (link: FieldDef) => (t: AnyT) => ({
  uri: t.string({
    nullable: true,
    description: 'The address of `link` below the home URL (`/2026/11/hello/`), what `nodeByUri` takes; null when it is not an address of this site.',
    ...(link.select ? { select: link.select } : {}),
    resolve: async (row: Record<string, unknown>, _a: unknown, ctx: Context) => {
      const url = link.resolve ? await link.resolve(row, {}, ctx) : row.link;
      return url ? uriOf(String(url), (await ctx.site()).home) : null;
    },
  }),
});

for (const { descriptor, resource } of POST_LIKE) builder.prismaObjectFields(contentRef(descriptor.type), uriField(resource.fields.link) as never);
builder.prismaObjectFields(MediaRef, uriField(MediaResource.fields.link) as never);
for (const x of TAXONOMIES) builder.prismaObjectFields(termRef(x.taxonomy), uriField(x.resource.fields.link) as never);
builder.prismaObjectFields(UserRef, uriField(UserResource.fields.link) as never);
