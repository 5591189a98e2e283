// Every resource definition, for what is derived from all of them at once (operations, schemas).
import type { ResourceDef } from './define.js';
import { POST_LIKE, PageResource, PostResource } from './content.js';
import { CategoryResource, TAXONOMIES, TagResource } from './terms.js';
import { ApplicationPasswordResource, UserResource } from './users.js';
import { PAGE_REVISIONS, POST_LIKE_REVISIONS, POST_REVISIONS } from './revisions.js';
import { MediaResource } from './media.js';
import { ContentTypeResource, StatusResource, TaxonomyResource } from './types.js';
import { CommentResource } from './comments.js';
import { MenuItemResource, MenuLocationResource, MenuResource } from './menus.js';

export const RESOURCES: ResourceDef[] = [PostResource, PageResource, CategoryResource, TagResource, UserResource, ApplicationPasswordResource,
  MediaResource, POST_REVISIONS.revision, POST_REVISIONS.autosave, PAGE_REVISIONS.revision, PAGE_REVISIONS.autosave,
  ContentTypeResource, StatusResource, TaxonomyResource, CommentResource, MenuResource, MenuItemResource, MenuLocationResource,
  // The site's own types and taxonomies (src/model/config.ts), with their revisions.
  ...POST_LIKE.slice(2).flatMap((e) => {
    const revisions = POST_LIKE_REVISIONS.get(e.descriptor.type);
    return [e.resource, ...(revisions ? [revisions.revision, revisions.autosave] : [])];
  }),
  ...TAXONOMIES.slice(2).map((t) => t.resource)];
