// Relations between the resources, for GraphQL clients: what REST links by id (`author`,
// `featured_media`, `categories`, `parent` …) as the records themselves, plus global ids with
// `node` and `nodeByUri`. The integer fields REST selects stay as they are; a relation is named
// after it with a `Node`/`Nodes` suffix (authorNode, categoryNodes …).
//
// Reading rules are the REST side's: nested lists run the collection's own filter (same
// `…ListFilter` input, same default status, same status check) and every content row passes the
// posts controller's read check (readableRows). Nothing costs a statement per parent row: nested
// lists and lookups are batched per request (ctx.loader), relations Prisma holds are preloaded
// with the parent's query.
import { builder } from '../builder.js';
import type { Context } from '../../context.js';
import type { Content, Prisma as PrismaNS, Term } from '../../generated/sqlite/client.js';
import { restError } from '../../errors.js';
import { PostRef } from '../posts/types.js';
import { PageRef } from '../pages/types.js';
import { MediaRef } from '../media/index.js';
import { CategoryRef, TagRef, termRef } from '../terms/index.js';
import { contentRef } from '../content/registered.js';
import { UserRef } from '../users/types.js';
import { checkReadUser } from '../../users/service.js';
import { listFilterInput } from '../resource-types.js';
import { POST_LIKE, PageList, PostList } from '../../resources/content.js';
import { CONTENT_TYPES, MEDIA_TYPE, PAGE_TYPE, POST_LIKE_TYPES, POST_TYPE, TAXONOMY_REFS, taxonomyRef } from '../../resources/content-types.js';
import { checkStatusFilter, listOrder, listWhere, readableRows, type ListFilter } from '../../content/service.js';
import { homePath, resolveUrl } from '../../site/resolve.js';
import { MAX_WINDOW } from '../connections.js';
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

/**
 * The first `first` items of `type` linked to each parent (its author, its parent item, or a term
 * it carries) that the collection filter selects, in the list's default order. Two statements per
 * request and selection, whatever the number of parents: the matching ids with their link, then
 * the chosen rows with the caller's selection.
 */
function relatedContent(ctx: Context, o: { type: string; defaultStatus: string; link: Link; filter: ListFilter; first: number; order: PrismaNS.ContentOrderByWithRelationInput[]; query: object }) {
  const key = `rel:list:${o.type}:${o.link}:${o.first}:${JSON.stringify(o.filter)}:${JSON.stringify(o.order)}:${JSON.stringify(o.query)}`;
  return ctx.loader<number, Content[]>(key, async (parents) => {
    const q = await listWhere(ctx, await ctx.site(), o.type, o.filter);
    if (q.search || q.matchesInMemory) throw restError('rest_invalid_param', 'Invalid parameter(s): filter', 400, { params: { filter: 'Nested lists take no full-text search; use the top-level list.' } });
    const ids = [...parents];
    const link: PrismaNS.ContentWhereInput = o.link === 'author' ? { authorId: { in: ids } } : o.link === 'parent' ? { parentId: { in: ids } } : { terms: { some: { termId: { in: ids } } } };
    const heads = await ctx.prisma.content.findMany({
      where: { AND: [q.where, link] }, orderBy: o.order,
      select: { id: true, authorId: true, parentId: true, ...(o.link === 'term' ? { terms: { where: { termId: { in: ids } }, select: { termId: true } } } : {}) },
    });
    const byParent = new Map<number, number[]>(ids.map((id) => [id, []]));
    for (const h of heads) {
      const owners = o.link === 'author' ? [h.authorId] : o.link === 'parent' ? [h.parentId!] : (h as unknown as { terms: { termId: number }[] }).terms.map((t) => t.termId);
      for (const p of owners) {
        const list = byParent.get(p);
        if (list && list.length < o.first) list.push(h.id);
      }
    }
    const wanted = [...new Set([...byParent.values()].flat())];
    const rows = wanted.length ? await readableRows(ctx, await ctx.prisma.content.findMany({ ...o.query, where: { id: { in: wanted } } })) : [];
    const byId = new Map(rows.map((r) => [r.id, r]));
    return ids.map((p) => byParent.get(p)!.flatMap((id) => (byId.has(id) ? [byId.get(id)!] : [])));
  });
}

/** `first` and `filter` of a nested list, with the collection's filter input. */
function nestedListArgs(t: AnyT, filterInput: unknown, what: string) {
  return {
    first: t.arg.int({ required: false, defaultValue: 10, description: `How many ${what} (at most ${MAX_WINDOW}).` }),
    filter: t.arg({ type: filterInput, required: false, description: `The ${what} collection's filters (same rules and defaults as the top-level list: published items unless a status is asked for).` }),
  };
}

function nestedFirst(first: number | null | undefined): number {
  const n = first ?? 10;
  if (n < 0 || n > MAX_WINDOW) throw restError('rest_invalid_param', 'Invalid parameter(s): first', 400, { params: { first: `first must be between 0 (inclusive) and ${MAX_WINDOW} (inclusive)` } });
  return n;
}

const NEWEST_FIRST = listOrder({ page: 1, perPage: 1, order: 'desc', orderby: 'date' });
const MENU_ORDER = listOrder({ page: 1, perPage: 1, order: 'asc', orderby: 'menu_order' });

/** A nested list of posts or pages linked to the parent object. */
function contentListField(t: AnyT, o: { ref: unknown; descriptor: typeof POST_TYPE; filterInput: unknown; link: Link; description: string; order?: PrismaNS.ContentOrderByWithRelationInput[] }) {
  return t.prismaField({
    type: [o.ref],
    description: o.description,
    args: nestedListArgs(t, o.filterInput, o.descriptor.graphqlPlural),
    resolve: async (query: object, parent: { id: number }, args: { first?: number | null; filter?: ListFilter | null }, ctx: Context) => {
      const filter = { ...(args.filter ?? {}) } as ListFilter;
      checkStatusFilter(ctx, o.descriptor.type, filter.status ?? [], o.descriptor.defaultStatus);
      const first = nestedFirst(args.first);
      if (!first) return [];
      return relatedContent(ctx, { type: o.descriptor.type, defaultStatus: o.descriptor.defaultStatus, link: o.link, filter, first, order: o.order ?? NEWEST_FIRST, query }).load(parent.id);
    },
  });
}

// ---------------------------------------------------------------- global ids and node

/** Every type with a global id: the post-like types, media, the taxonomies' terms and users. */
const NODE_REFS: [unknown, string][] = [
  ...POST_LIKE_TYPES.map((d) => [contentRef(d.type), d.graphqlName] as [unknown, string]),
  [MediaRef, 'MediaItem'],
  ...TAXONOMY_REFS.map((t) => [termRef(t.taxonomy), t.graphqlName] as [unknown, string]),
  [UserRef, 'User'],
];
const NODE_TYPES = NODE_REFS.map(([, name]) => name);
type NodeTypeName = string;
const lowerFirst = (s: string) => s[0].toLowerCase() + s.slice(1);

const globalIdOf = (typeName: string, id: number) => Buffer.from(`${typeName}:${id}`).toString('base64url');

function parseGlobalId(id: string): { typeName: NodeTypeName; id: number } | null {
  const [typeName, num, ...rest] = Buffer.from(id, 'base64url').toString('utf8').split(':');
  const n = Number(num);
  if (rest.length || !NODE_TYPES.includes(typeName as NodeTypeName) || !/^\d{1,9}$/.test(num ?? '')) return null;
  return { typeName: typeName as NodeTypeName, id: n };
}

/** The GraphQL type of a row from the Content, Term or User model. */
function typeNameOf(row: object): NodeTypeName {
  if ('taxonomy' in row) return taxonomyRef((row as Term).taxonomy)!.graphqlName;
  if ('type' in row) return CONTENT_TYPES.find((d) => d.type === (row as Content).type)!.graphqlName as NodeTypeName;
  return 'User';
}

export const NodeUnion = builder.unionType('Node', {
  description: 'Any record with a global id: a post, page (or item of another content type), media item, term or user.',
  types: NODE_REFS.map(([ref]) => ref) as never,
  resolveType: (row) => typeNameOf(row as object),
});

const ContentItemUnion = builder.unionType('ContentItem', {
  description: 'A post or a page (or an item of another content type of the site).',
  types: POST_LIKE_TYPES.map((d) => contentRef(d.type)) as never,
  resolveType: (row) => CONTENT_TYPES.find((d) => d.type === (row as Content).type)!.graphqlName,
});
const POST_LIKE_NAMES = POST_LIKE_TYPES.map((d) => d.type);

const globalIdField = (typeName: string) => (t: AnyT) => ({
  globalId: t.field({
    type: 'ID', description: `Global id of the ${typeName} for \`node(id:)\`; the integer \`id\` is its id in its own list.`,
    select: { id: true },
    resolve: (row: { id: number }) => globalIdOf(typeName, row.id),
  }),
});
for (const [ref, name] of NODE_REFS) {
  builder.prismaObjectFields(ref as never, globalIdField(name) as never);
}

async function loadNode(ctx: Context, typeName: NodeTypeName, id: number): Promise<object | null> {
  const taxonomy = TAXONOMY_REFS.find((t) => t.graphqlName === typeName);
  if (taxonomy) return termById(ctx, taxonomy.taxonomy).load(id);
  if (typeName === 'User') {
    try { await checkReadUser(ctx, id); } catch { return null; }
    return ctx.prisma.user.findUnique({ where: { id } });
  }
  const d = CONTENT_TYPES.find((c) => c.graphqlName === typeName)!;
  return contentById(ctx, [d.type]).load(id);
}

builder.queryFields((t) => ({
  node: t.field({
    type: NodeUnion, nullable: true,
    description: 'A record by its global id (`globalId`); null when there is none or the caller may not read it, as REST would refuse it.',
    args: { id: t.arg.id({ required: true, description: 'A global id.' }) },
    resolve: async (_r, args, ctx) => {
      const parsed = parseGlobalId(String(args.id));
      return parsed ? ((await loadNode(ctx, parsed.typeName, parsed.id)) as never) : null;
    },
  }),
  nodeByUri: t.field({
    type: ContentItemUnion, nullable: true,
    description: "The post or page a permalink of this site names (pretty or plain `?p=`/`?page_id=` form, or the static front page at the home URL), as the site's pages resolve it; null when it names none, or one the caller may not read.",
    args: { uri: t.arg.string({ required: true, description: 'An absolute URL of this site, or a path below its home URL.' }) },
    resolve: async (_r, args, ctx) => {
      const site = await ctx.site();
      let url: URL;
      try {
        const home = new URL(site.home);
        url = /^[a-z][a-z0-9+.-]*:/i.test(args.uri) ? new URL(args.uri) : new URL(homePath(site) + (args.uri.startsWith('/') ? '' : '/') + args.uri, home);
        if (url.host !== home.host) return null;
      } catch { return null; }
      const found = await resolveUrl(ctx, site, url);
      if (found.kind !== 'item') return null;
      return (await contentById(ctx, POST_LIKE_NAMES).load(found.item.row.id)) as never;
    },
  }),
}));

// ---------------------------------------------------------------- relations

const PostFilter = listFilterInput(PostList);
const PageFilter = listFilterInput(PageList);

/** Fields every post-like type has: its author and its featured image. */
const authored = (what: string) => (t: AnyT) => ({
  authorNode: t.relation('author', { description: `The user who wrote the ${what} (the record \`author\` holds the id of).` }),
  featuredMediaNode: t.prismaField({
    type: MediaRef, nullable: true,
    description: `The featured image of the ${what} (\`featuredMedia\` holds its id); null when none, or when the caller may not read it.`,
    select: { featuredMedia: true },
    resolve: (query: object, p: { featuredMedia: number }, _a: unknown, ctx: Context) => {
      if (p.featuredMedia > 0) return contentById(ctx, [MEDIA_TYPE.type], query).load(p.featuredMedia);
      // No image, so nothing to read with the selection; copying it tells the unused-query check
      // (on under tests and development) that it was looked at, not forgotten.
      void { ...query };
      return null;
    },
  }),
});

/** The terms of one taxonomy, from the same relation query that gives `categories`/`tags` their ids. */
const termNodes = (t: AnyT, ref: unknown, taxonomy: string, description: string) => t.field({
  type: [ref], description,
  select: (_args: unknown, _ctx: unknown, nested: (s: unknown) => unknown) => ({
    terms: { select: { termId: true, taxonomy: true, term: nested(true) }, orderBy: { termOrder: 'asc' } },
  }),
  resolve: (p: { terms: { taxonomy: string; term: Term }[] }) => p.terms.filter((r) => r.taxonomy === taxonomy).map((r) => r.term),
});

builder.prismaObjectFields(PostRef, ((t: AnyT) => ({
  ...authored('post')(t),
  categoryNodes: termNodes(t, CategoryRef, 'category', 'The categories of the post (the records of `categories`), in the order they were assigned.'),
  tagNodes: termNodes(t, TagRef, 'post_tag', 'The tags of the post (the records of `tags`), in the order they were assigned.'),
})) as never);

/** An item's parent, its parent and so on to the top, nearest first, each only if the caller may read it. */
async function ancestorItems(ctx: Context, page: { parentId: number | null }, type: string): Promise<Content[]> {
  const chain: Content[] = [];
  const seen = new Set<number>();
  for (let id = page.parentId; id && !seen.has(id) && chain.length < 50; ) {
    seen.add(id);
    const row = await contentById(ctx, [type]).load(id);
    if (!row) break;
    chain.push(row);
    id = row.parentId;
  }
  return chain;
}

/** parentNode, children and ancestors of an item of a hierarchical type (pages, and the site's own). */
const itemTree = (t: AnyT, o: { ref: unknown; descriptor: typeof PAGE_TYPE; filterInput: unknown; noun: string; nouns: string }) => ({
  parentNode: t.prismaField({
    type: o.ref, nullable: true,
    description: `The parent ${o.noun} (\`parent\` holds its id); null at the top, or when the caller may not read it.`,
    select: { parentId: true },
    resolve: (query: object, p: { parentId: number | null }, _a: unknown, ctx: Context) => (p.parentId ? contentById(ctx, [o.descriptor.type], query).load(p.parentId) : null),
  }),
  children: contentListField(t, { ref: o.ref, descriptor: o.descriptor, filterInput: o.filterInput, link: 'parent', order: MENU_ORDER, description: `${o.nouns} whose parent this is, by menu order (then id), filtered as the ${o.descriptor.restBase} collection is.` }),
  ancestors: t.field({
    type: [o.ref],
    description: `The parent, its parent and so on up to a top-level ${o.noun}, nearest first; stops at one the caller may not read.`,
    select: { parentId: true },
    resolve: (p: { parentId: number | null }, _a: unknown, ctx: Context) => ancestorItems(ctx, p, o.descriptor.type),
  }),
});

builder.prismaObjectFields(PageRef, ((t: AnyT) => ({
  ...authored('page')(t),
  ...itemTree(t, { ref: PageRef, descriptor: PAGE_TYPE, filterInput: PageFilter, noun: 'page', nouns: 'Pages' }),
})) as never);

builder.prismaObjectFields(MediaRef, ((t: AnyT) => ({
  authorNode: t.relation('author', { description: 'The user who uploaded the file (the record `author` holds the id of).' }),
  attachedTo: t.field({
    type: ContentItemUnion, nullable: true,
    description: 'The post or page the file is attached to (`post` holds its id); null when unattached, or when the caller may not read it.',
    // `post` may name an id with nothing behind it (kept in the meta): then there is no item.
    select: { parentId: true, ...mediaMetaSelect },
    resolve: (m: { parentId: number | null; meta?: { key: string; value: string }[] }, _a: unknown, ctx: Context) => {
      const parent = attachmentParent(m);
      return parent ? contentById(ctx, POST_LIKE_NAMES).load(parent) : null;
    },
  }),
})) as never);

/** A term's posts, filtered as the posts collection is. */
const termPosts = (t: AnyT, what: string) => contentListField(t, { ref: PostRef, descriptor: POST_TYPE, filterInput: PostFilter, link: 'term', description: `Posts carrying this ${what}, newest first, filtered as the posts collection is.` });

/** parentNode and children of a term in a tree (categories, and the site's hierarchical taxonomies). */
const termTree = (t: AnyT, ref: unknown, taxonomy: string, noun: string, nouns: string) => ({
  parentNode: t.prismaField({
    type: ref, nullable: true,
    description: `The parent ${noun} (\`parent\` holds its id); null at the top.`,
    select: { parentId: true },
    resolve: (query: object, c: { parentId: number }, _a: unknown, ctx: Context) => (c.parentId > 0 ? termById(ctx, taxonomy, query).load(c.parentId) : null),
  }),
  children: t.prismaField({
    type: [ref],
    description: `${nouns} whose parent this is, by name.`,
    resolve: (query: object, c: { id: number }, _a: unknown, ctx: Context) => ctx.loader<number, Term[]>(`rel:children:${taxonomy}:${JSON.stringify(query)}`, async (ids) => {
      const rows = await ctx.prisma.term.findMany({ ...query, where: { taxonomy, parentId: { in: [...ids] } }, orderBy: [{ name: 'asc' }, { id: 'asc' }] });
      return ids.map((id) => rows.filter((r) => r.parentId === id));
    }).load(c.id),
  }),
});

builder.prismaObjectFields(CategoryRef, ((t: AnyT) => ({
  ...termTree(t, CategoryRef, 'category', 'category', 'Categories'),
  posts: termPosts(t, 'category'),
})) as never);

builder.prismaObjectFields(TagRef, ((t: AnyT) => ({ posts: termPosts(t, 'tag') })) as never);

builder.prismaObjectFields(UserRef, ((t: AnyT) => ({
  posts: contentListField(t, { ref: PostRef, descriptor: POST_TYPE, filterInput: PostFilter, link: 'author', description: 'Posts by this user, newest first, filtered as the posts collection is (published ones unless a status is asked for).' }),
  pages: contentListField(t, { ref: PageRef, descriptor: PAGE_TYPE, filterInput: PageFilter, link: 'author', description: 'Pages by this user, newest first, filtered as the pages collection is (published ones unless a status is asked for).' }),
})) as never);

// ---------------------------------------------------------------- the site's own types and taxonomies

for (const { descriptor: d, list } of POST_LIKE.slice(2)) {
  const ref = contentRef(d.type);
  const filterInput = listFilterInput(list);
  builder.prismaObjectFields(ref, ((t: AnyT) => ({
    ...authored(d.about.singularName.toLowerCase())(t),
    ...Object.fromEntries(d.supports.taxonomies.map((x) => [`${lowerFirst(x.graphqlName)}Nodes`,
      termNodes(t, termRef(x.taxonomy), x.taxonomy, `The terms of the ${x.taxonomy} taxonomy the item carries (the records of \`${x.restBase}\`), in the order they were assigned.`)])),
    ...(d.supports.pageAttributes ? itemTree(t, { ref, descriptor: d, filterInput, noun: 'item', nouns: 'Items' }) : {}),
  })) as never);
  // The other way: the items of this type a term carries, and a user wrote.
  for (const x of d.supports.taxonomies) {
    builder.prismaObjectFields(termRef(x.taxonomy), ((t: AnyT) => ({
      [d.graphqlPlural]: contentListField(t, { ref, descriptor: d, filterInput, link: 'term', description: `Items of the ${d.type} type carrying this term, newest first, filtered as the ${d.restBase} collection is.` }),
    })) as never);
  }
  builder.prismaObjectFields(UserRef, ((t: AnyT) => ({
    [d.graphqlPlural]: contentListField(t, { ref, descriptor: d, filterInput, link: 'author', description: `Items of the ${d.type} type by this user, newest first, filtered as the ${d.restBase} collection is.` }),
  })) as never);
}

for (const x of TAXONOMY_REFS.slice(2).filter((r) => r.hierarchical)) {
  const ref = termRef(x.taxonomy);
  builder.prismaObjectFields(ref, ((t: AnyT) => termTree(t, ref, x.taxonomy, 'term', 'Terms')) as never);
}
