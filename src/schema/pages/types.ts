// GraphQL type for pages: a variant of the shared Content model.
import { builder } from '../builder.js';
import { classList, contentFields } from '../content/fields.js';

export const PageRef = builder.prismaObject('Content', {
  variant: 'Page',
  description: 'A static page, possibly under a parent page.',
  fields: (t) => ({
    ...contentFields(t, 'page'),
    classList: t.stringList({ description: 'CSS classes a theme gives the page.', resolve: (p, _a, ctx) => classList(ctx, p) }),
    parent: t.int({ description: 'Id of the parent page; 0 for none.', resolve: (p) => p.parentId ?? 0 }),
    menuOrder: t.exposeInt('menuOrder', { description: 'Position among sibling pages.' }),
  }),
});
