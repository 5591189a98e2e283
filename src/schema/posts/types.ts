// GraphQL type for posts: a variant of the shared Content model, with the fields of its definition.
import type { Prisma } from '../../generated/sqlite/client.js';
import { builder } from '../builder.js';
import { PostResource } from '../../resources/content.js';
import { resourceFields, typeInclude } from '../resource-types.js';

export const PostRef = builder.prismaObject('Content', {
  variant: 'Post',
  description: PostResource.description,
  include: typeInclude(PostResource) as Prisma.ContentInclude,
  fields: (t) => resourceFields(t, PostResource) as never,
});
