// The site's content types, statuses and taxonomies, read from their descriptors
// (src/resources/types.ts): the root queries the core/v2 types, statuses and taxonomies routes run.
// Who sees what follows WordPress: every type and taxonomy is public; a status that is not public
// (draft, private, trash …) only to those who may edit content of some type.
import { builder } from '../builder.js';
import { resourceFields } from '../resource-types.js';
import { restError, authStatus } from '../../errors.js';
import type { Context } from '../../context.js';
import { CONTENT_TYPES, type ContentTypeDescriptor } from '../../resources/content-types.js';
import { TAXONOMIES, type TaxonomyDescriptor } from '../../resources/terms.js';
import { ContentTypeResource, STATUSES, StatusResource, TaxonomyResource, type StatusDescriptor } from '../../resources/types.js';

const ContentTypeRef = builder.objectRef<ContentTypeDescriptor>(ContentTypeResource.name).implement({
  description: ContentTypeResource.description,
  fields: (t) => resourceFields(t, ContentTypeResource) as never,
});
const StatusRef = builder.objectRef<StatusDescriptor>(StatusResource.name).implement({
  description: StatusResource.description,
  fields: (t) => resourceFields(t, StatusResource) as never,
});
const TaxonomyRef = builder.objectRef<TaxonomyDescriptor>(TaxonomyResource.name).implement({
  description: TaxonomyResource.description,
  fields: (t) => resourceFields(t, TaxonomyResource) as never,
});

/** Whether the caller may edit content of any type (WordPress's test for non-public statuses). */
const editsSomeType = (ctx: Context) => CONTENT_TYPES.some((d) => ctx.can(d.caps.edit_posts));

/** As the statuses controller's check_read_permission: public ones to all; the others but internal ones (trash aside) to editors. */
const canReadStatus = (ctx: Context, s: StatusDescriptor) => s.public || ((!s.internal || s.status === 'trash') && editsSomeType(ctx));

builder.queryFields((t) => ({
  contentTypes: t.field({
    type: [ContentTypeRef],
    description: 'Every content type of the site, in registration order.',
    resolve: () => CONTENT_TYPES,
  }),
  contentType: t.field({
    type: ContentTypeRef,
    description: 'One content type by its slug (post, page, attachment).',
    args: { type: t.arg.string({ required: true, description: 'Slug of the type.' }) },
    resolve: (_root, args) => {
      const d = CONTENT_TYPES.find((c) => c.type === args.type);
      if (!d) throw restError('rest_type_invalid', 'Invalid post type.', 404);
      return d;
    },
  }),
  statuses: t.field({
    type: [StatusRef],
    description: 'The statuses the caller may see: the public one to everyone; the others (trash included) to those who may edit content.',
    resolve: (_root, _a, ctx) => STATUSES.filter((s) => (!s.internal || s.status === 'trash') && canReadStatus(ctx, s)),
  }),
  status: t.field({
    type: StatusRef,
    description: 'One status by its slug; a status the caller may not see is refused.',
    args: { status: t.arg.string({ required: true, description: 'Slug of the status.' }) },
    resolve: (_root, args, ctx) => {
      const s = STATUSES.find((x) => x.status === args.status);
      if (!s) throw restError('rest_status_invalid', 'Invalid status.', 404);
      if (!canReadStatus(ctx, s)) throw restError('rest_cannot_read_status', 'Cannot view status.', authStatus(!!ctx.viewer));
      return s;
    },
  }),
  taxonomies: t.field({
    type: [TaxonomyRef],
    description: 'Every taxonomy of the site, or those of one content type.',
    args: { type: t.arg.string({ required: false, description: 'Only the taxonomies of this content type (none for an unknown type).' }) },
    resolve: (_root, args) => {
      if (args.type == null) return TAXONOMIES;
      const d = CONTENT_TYPES.find((c) => c.type === args.type);
      return TAXONOMIES.filter((x) => d?.supports.taxonomies.some((r) => r.taxonomy === x.taxonomy));
    },
  }),
  taxonomy: t.field({
    type: TaxonomyRef,
    description: 'One taxonomy by its slug (category, post_tag).',
    args: { taxonomy: t.arg.string({ required: true, description: 'Slug of the taxonomy.' }) },
    resolve: (_root, args) => {
      const x = TAXONOMIES.find((c) => c.taxonomy === args.taxonomy);
      if (!x) throw restError('rest_taxonomy_invalid', 'Invalid taxonomy.', 404);
      return x;
    },
  }),
}));
