// GraphQL type of an application password: metadata only; the secret appears once, when issued.
import { builder } from '../builder.js';
import { formatWpDate } from '../../content/dates.js';
import type { AppPasswordRecord } from './service.js';

export const ApplicationPasswordRef = builder.objectRef<AppPasswordRecord>('ApplicationPassword').implement({
  description: 'An application password of a user: a secret for HTTP Basic sign-in by one application.',
  fields: (t) => ({
    uuid: t.exposeString('uuid', { description: 'Unique identifier.' }),
    userId: t.exposeInt('userId', { description: 'Id of the user it belongs to.' }),
    appId: t.exposeString('appId', { description: "The application's own UUID, as it gave it; empty when none." }),
    name: t.exposeString('name', { description: 'Name of the application, unique per user.' }),
    password: t.string({ nullable: true, description: 'The password itself, in groups of four: only in the answer that issued it, null afterwards.', resolve: (p) => p.password ?? null }),
    created: t.field({ type: 'LocalDateTime', description: 'When it was issued, in UTC.', resolve: (p) => formatWpDate(p.created) }),
    lastUsed: t.field({ type: 'LocalDateTime', nullable: true, description: 'Last use in UTC, recorded at most once a day; null when never used.', resolve: (p) => (p.lastUsed ? formatWpDate(p.lastUsed) : null) }),
    lastIp: t.string({ nullable: true, description: 'Client address of the last recorded use; null when never used.', resolve: (p) => p.lastIp ?? null }),
  }),
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
