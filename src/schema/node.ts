// Global object identification, as Relay and WPGraphQL clients expect it: every record a client
// may cache or refetch (posts, pages, the model's types, media, revisions, terms, users) implements
// `Node`, whose `id: ID!` is unique across types (the type's name and its database id, base64url);
// the id REST uses is `databaseId`. `node(id:)` (src/schema/relations) reads one back.
import type { GraphQLResolveInfo } from 'graphql';
import { builder } from './builder.js';
import type { Content, Term } from '../generated/sqlite/client.js';
import { CONTENT_TYPES, taxonomyRef } from '../resources/content-types.js';

/** `Type:id`, base64url: what `id` answers and `node(id:)` takes. */
export const globalIdOf = (typeName: string, id: number) => Buffer.from(`${typeName}:${id}`).toString('base64url');

/** The type name and database id a global id names, or null when it is not one of ours. */
export function parseGlobalId(id: string, types: readonly string[]): { typeName: string; id: number } | null {
  const [typeName, num, ...rest] = Buffer.from(id, 'base64url').toString('utf8').split(':');
  if (rest.length || !types.includes(typeName) || !/^\d{1,9}$/.test(num ?? '')) return null;
  return { typeName, id: Number(num) };
}

/**
 * Rows whose GraphQL type their columns do not tell (a revision row says `revision`, not whose):
 * whoever loads one for an abstract field names its type here.
 */
const tagged = new WeakMap<object, string>();
export function tagType<T extends object>(row: T, typeName: string): T {
  tagged.set(row, typeName);
  return row;
}

/** The GraphQL type of a row of the Content, Term or User model. */
export function typeNameOf(row: object): string {
  const tag = tagged.get(row);
  if (tag) return tag;
  // A comment row: its `type` (comment, pingback …) names no content type.
  if ('authorAgent' in row) return 'Comment';
  if ('taxonomy' in row) return taxonomyRef((row as Term).taxonomy)!.graphqlName;
  if ('type' in row) {
    const d = CONTENT_TYPES.find((c) => c.type === (row as Content).type);
    if (d) return d.graphqlName;
  }
  return 'User';
}

export const NodeRef = builder.interfaceRef<{ id: number }>('Node').implement({
  description: 'A record with a global id: a post, page or item of another content type, media item, revision, autosave, term, user, comment, menu or menu item.',
  resolveType: (row) => typeNameOf(row),
  fields: (t) => ({
    id: t.id({
      description: 'Global id, unique across types: what `node(id:)` takes and what client caches key records by. `databaseId` is the id REST uses.',
      // The concrete type answering is the one the id names (a Post's id names Post).
      resolve: (row, _a, _c, info: GraphQLResolveInfo) => globalIdOf(info.parentType.name, row.id),
    }),
  }),
});
