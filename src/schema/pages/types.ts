// GraphQL type for pages: a variant of the shared Content model, with the fields of its definition.
import type { Prisma } from '../../generated/sqlite/client.js';
import { builder } from '../builder.js';
import { PageResource } from '../../resources/content.js';
import { resourceFields, typeInclude } from '../resource-types.js';

export const PageRef = builder.prismaObject('Content', {
  variant: 'Page',
  description: PageResource.description,
  include: typeInclude(PageResource) as Prisma.ContentInclude,
  fields: (t) => resourceFields(t, PageResource) as never,
});
