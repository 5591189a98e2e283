// GraphQL type of an application password: metadata only; the secret appears once, when issued.
import { builder } from '../builder.js';
import { ApplicationPasswordResource } from '../../resources/users.js';
import { resourceFields } from '../resource-types.js';
import type { AppPasswordRecord } from '../../users/application-passwords.js';

export const ApplicationPasswordRef = builder.objectRef<AppPasswordRecord>('ApplicationPassword').implement({
  description: ApplicationPasswordResource.description,
  fields: (t) => resourceFields(t, ApplicationPasswordResource) as never,
});

export const ApplicationPasswordDeleteResult = builder.objectRef<{ deleted: boolean; previous: AppPasswordRecord }>('ApplicationPasswordDeleteResult').implement({
  description: 'An application password revoked, with its record as it was.',
  fields: (t) => ({
    deleted: t.boolean({ description: 'Always true.', resolve: (r) => r.deleted }),
    previous: t.field({ type: ApplicationPasswordRef, description: 'The password before it was revoked.', resolve: (r) => r.previous }),
  }),
});

export const ApplicationPasswordsDeleteResult = builder.objectRef<{ deleted: boolean; count: number }>('ApplicationPasswordsDeleteResult').implement({
  description: "All of a user's application passwords revoked.",
  fields: (t) => ({
    deleted: t.boolean({ description: 'Always true.', resolve: (r) => r.deleted }),
    count: t.int({ description: 'How many were revoked.', resolve: (r) => r.count }),
  }),
});
