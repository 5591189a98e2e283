// The GraphQL side of every post-like type of the registry (posts, pages and the types of the
// site's content model): its object type, its queries and mutations, and its revisions where the
// type keeps them. Nothing here names a type: each comes from its descriptor and definitions.
import { builder } from '../builder.js';
import { resourceFields } from '../resource-types.js';
import { POST_LIKE, customMetaOf } from '../../resources/content.js';
import { POST_LIKE_REVISIONS, RevisionList } from '../../resources/revisions.js';
import { defineContentType, type ContentRef } from './define.js';
import { defineRevisions } from '../revisions/define.js';
import { customMetaTypes } from './objects.js';
import { NodeRef } from '../node.js';

const refs = new Map<string, ContentRef>();

for (const { descriptor, resource, list } of POST_LIKE) {
  // The definitions name their types (ContentText, PostMeta …, made by ./objects.js); a type with
  // custom fields names a `meta` pair of its own, made here.
  const meta = customMetaOf(descriptor);
  if (meta) customMetaTypes(descriptor.graphqlName, meta);
  const ref = builder.prismaObject('Content', {
    variant: descriptor.graphqlName,
    interfaces: [NodeRef],
    description: resource.description,
    fields: (t) => resourceFields(t, resource) as never,
  }) as ContentRef;
  refs.set(descriptor.type, ref);
  const { input } = defineContentType({ descriptor, resource, ref, list });
  const revisions = POST_LIKE_REVISIONS.get(descriptor.type);
  if (revisions) defineRevisions({ descriptor, resources: revisions, list: RevisionList, parentRef: ref, parentInput: input });
}

/** The GraphQL object type of a post-like type. */
export function contentRef(type: string): ContentRef {
  const ref = refs.get(type);
  if (!ref) throw new Error(`no post-like type ${type}`);
  return ref;
}
