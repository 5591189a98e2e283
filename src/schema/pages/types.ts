// GraphQL type for pages: a variant of the shared Content model, with the fields of its definition.
import { builder } from '../builder.js';
import { PageResource } from '../../resources/content.js';
import { resourceFields } from '../resource-types.js';

export const PageRef = builder.prismaObject('Content', {
  variant: 'Page',
  description: PageResource.description,
  fields: (t) => resourceFields(t, PageResource) as never,
});
