// Arguments of the users and application-passwords routes, in the order WordPress registers them.
import type { ArgDef } from '../types.js';
import { contextArg, pagingArgs } from './common.js';

export function userCollectionArgs(): Record<string, ArgDef> {
  return {
    ...pagingArgs(),
    exclude: { description: 'Ensure result set excludes specific IDs.', type: 'array', items: { type: 'integer' }, default: [] },
    include: { description: 'Limit result set to specific IDs.', type: 'array', items: { type: 'integer' }, default: [] },
    offset: { description: 'Offset the result set by a specific number of items.', type: 'integer' },
    order: { default: 'asc', description: 'Order sort attribute ascending or descending.', enum: ['asc', 'desc'], type: 'string' },
    orderby: {
      default: 'name', description: 'Sort collection by user attribute.',
      enum: ['id', 'include', 'name', 'registered_date', 'slug', 'include_slugs', 'email', 'url'], type: 'string',
    },
    slug: { description: 'Limit result set to users with one or more specific slugs.', type: 'array', items: { type: 'string' } },
    roles: { description: 'Limit result set to users matching at least one specific role provided. Accepts csv list or single role.', type: 'array', items: { type: 'string' } },
    capabilities: { description: 'Limit result set to users matching at least one specific capability provided. Accepts csv list or single capability.', type: 'array', items: { type: 'string' } },
    who: { description: 'Limit result set to users who are considered authors.', type: 'string', enum: ['authors'] },
    has_published_posts: {
      description: 'Limit result set to users who have published posts.',
      type: ['boolean', 'array'], items: { type: 'string', enum: ['post', 'page', 'attachment'] },
    },
  };
}

/** Writable user fields; `create` adds WordPress's required flags. */
export function userWriteArgs(create: boolean): Record<string, ArgDef> {
  const required = create ? { required: true } : {};
  return {
    username: { description: 'Login name for the user.', type: 'string', ...required },
    name: { description: 'Display name for the user.', type: 'string' },
    first_name: { description: 'First name for the user.', type: 'string' },
    last_name: { description: 'Last name for the user.', type: 'string' },
    email: { description: 'The email address for the user.', type: 'string', format: 'email', ...required },
    url: { description: 'URL of the user.', type: 'string', format: 'uri' },
    description: { description: 'Description of the user.', type: 'string' },
    locale: { description: 'Locale for the user.', type: 'string', enum: ['', 'en_US'] },
    nickname: { description: 'The nickname for the user.', type: 'string' },
    slug: { description: 'An alphanumeric identifier for the user.', type: 'string' },
    roles: { description: 'Roles assigned to the user.', type: 'array', items: { type: 'string' } },
    password: { description: 'Password for the user (never included).', type: 'string', ...required },
    meta: { description: 'Meta fields.', type: 'object', properties: {} },
  };
}

export const userIdArg: ArgDef = { description: 'Unique identifier for the user.', type: 'integer' };

export function userDeleteArgs(): Record<string, ArgDef> {
  return {
    force: { type: 'boolean', default: false, description: 'Required to be true, as users do not support trashing.' },
    // WordPress validates this with its own sanitize callback (false, '' or a number), not the schema.
    reassign: { type: 'integer', description: "Reassign the deleted user's posts and links to this user ID.", required: true, skipValidation: true },
  };
}

export function appPasswordWriteArgs(create: boolean): Record<string, ArgDef> {
  return {
    app_id: { description: 'A UUID provided by the application to uniquely identify it. It is recommended to use an UUID v5 with the URL or DNS namespace.', type: 'string', format: 'uuid' },
    name: { description: 'The name of the application password.', type: 'string', minLength: 1, pattern: '.*\\S.*', ...(create ? { required: true } : {}) },
  };
}

export const viewContext = (): Record<string, ArgDef> => ({ context: contextArg() });
