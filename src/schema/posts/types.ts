// GraphQL type for posts: a variant of the shared Content model, with the fields of its definition.
import { builder } from '../builder.js';
import { PostResource } from '../../resources/content.js';
import { resourceFields } from '../resource-types.js';

export const PostRef = builder.prismaObject('Content', {
  variant: 'Post',
  description: PostResource.description,
  fields: (t) => resourceFields(t, PostResource) as never,
});
