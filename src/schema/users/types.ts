// GraphQL type for users, with the fields of its definition (src/resources/users.ts).
import { builder } from '../builder.js';
import { NodeRef } from '../node.js';
import { UserResource } from '../../resources/users.js';
import { resourceFields } from '../resource-types.js';

// The Avatar type, which the definition's avatarUrls field names.
import './objects.js';

export const UserRef = builder.prismaObject('User', {
  description: UserResource.description,
  interfaces: [NodeRef],
  fields: (t) => resourceFields(t, UserResource) as never,
});
