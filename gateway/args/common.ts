// Argument sets shared by many routes.
import type { ArgDef } from '../types.js';
import { Order, SearchColumn, SearchSemantics } from '../../src/resources/enums.js';

export const CONTEXTS = ['view', 'embed', 'edit'];

export function contextArg(defaultValue = 'view'): ArgDef {
  return { description: 'Scope under which the request is made; determines fields present in response.', type: 'string', enum: CONTEXTS, default: defaultValue };
}

export const idArg: ArgDef = { description: 'Unique identifier for the post.', type: 'integer' };

/** page, per_page, search — every collection has them. */
export function pagingArgs(perPageDefault: number | undefined = 10): Record<string, ArgDef> {
  return {
    context: contextArg(),
    page: { description: 'Current page of the collection.', type: 'integer', default: 1, minimum: 1 },
    per_page: { description: 'Maximum number of items to be returned in result set.', type: 'integer', ...(perPageDefault === undefined ? {} : { default: perPageDefault }), minimum: 1, maximum: 100 },
    search: { description: 'Limit results to those matching a string.', type: 'string' },
  };
}

const dateTime = (description: string): ArgDef => ({ description, type: 'string', format: 'date-time' });
const intList = (description: string): ArgDef => ({ description, type: 'array', items: { type: 'integer' }, default: [] });

export const contentCollectionArgs = {
  dateBounds: {
    after: dateTime('Limit response to posts published after a given ISO8601 compliant date.'),
    modified_after: dateTime('Limit response to posts modified after a given ISO8601 compliant date.'),
    before: dateTime('Limit response to posts published before a given ISO8601 compliant date.'),
    modified_before: dateTime('Limit response to posts modified before a given ISO8601 compliant date.'),
  },
  author: {
    author: intList('Limit result set to posts assigned to specific authors.'),
    author_exclude: intList('Ensure result set excludes posts assigned to specific authors.'),
  },
  ids: {
    exclude: intList('Ensure result set excludes specific IDs.'),
    include: intList('Limit result set to specific IDs.'),
  },
  offset: { offset: { description: 'Offset the result set by a specific number of items.', type: 'integer' } as ArgDef },
  order: { order: { description: 'Order sort attribute ascending or descending.', type: 'string', default: 'desc', enum: [...Order.values] } as ArgDef },
  search: {
    search_semantics: { description: 'How to interpret the search input.', type: 'string', enum: [...SearchSemantics.values] } as ArgDef,
    search_columns: { default: [], description: 'Array of column names to be searched.', type: 'array', items: { enum: [...SearchColumn.values], type: 'string' } } as ArgDef,
  },
  slug: { slug: { description: 'Limit result set to posts with one or more specific slugs.', type: 'array', items: { type: 'string' } } as ArgDef },
};
