// GraphQL type for users. Private fields (what WordPress shows in edit context) are null unless
// the caller is that user or may list or edit users, so GraphQL clients see no more than REST.
import { builder } from '../builder.js';
import { capabilitiesOf } from '../../auth/capabilities.js';
import { canDeleteUser, canEditUser, canSeeUserDetails } from '../../auth/user-permissions.js';
import { authorLink, avatarUrls } from './service.js';

export const Avatar = builder.objectRef<{ size: number; url: string }>('Avatar').implement({
  description: 'An avatar image address at one size.',
  fields: (t) => ({
    size: t.exposeInt('size', { description: 'Width and height in pixels (24, 48 or 96).' }),
    url: t.exposeString('url', { description: 'Image address.' }),
  }),
});

/** ISO 8601 with an explicit UTC offset, as WordPress prints registered_date (PHP date 'c'). */
const isoWithOffset = (d: Date) => d.toISOString().replace(/\.\d{3}Z$/, '+00:00');

export const UserRef = builder.prismaObject('User', {
  description: 'A person who can sign in, author content and hold application passwords.',
  fields: (t) => {
    const detail = <T>(resolve: (u: { id: number; login: string; email: string; role: string; locale: string; registered: Date; firstName: string; lastName: string; nickname: string }) => T) =>
      (u: Parameters<typeof resolve>[0], _a: unknown, ctx: Parameters<typeof canSeeUserDetails>[0]): T | null => (canSeeUserDetails(ctx, u.id) ? resolve(u) : null);
    return {
      id: t.exposeInt('id', { description: 'Unique identifier.' }),
      name: t.exposeString('displayName', { description: 'Display name.' }),
      url: t.exposeString('url', { description: 'Website address.' }),
      description: t.exposeString('description', { description: 'Biographical text.' }),
      link: t.string({ description: 'Author archive address.', resolve: async (u, _a, ctx) => authorLink(await ctx.site(), u.slug) }),
      slug: t.exposeString('slug', { description: 'URL-safe name.' }),
      avatarUrls: t.field({ type: [Avatar], description: 'Avatar addresses at 24, 48 and 96 pixels.', resolve: (u) => avatarUrls(u.email) }),
      username: t.string({ nullable: true, description: 'Login name; null unless the caller may see private details.', resolve: detail((u) => u.login) }),
      email: t.string({ nullable: true, description: 'E-mail address; null unless the caller may see private details.', resolve: detail((u) => u.email) }),
      firstName: t.string({ nullable: true, description: 'Given name; null unless the caller may see private details.', resolve: detail((u) => u.firstName) }),
      lastName: t.string({ nullable: true, description: 'Family name; null unless the caller may see private details.', resolve: detail((u) => u.lastName) }),
      nickname: t.string({ nullable: true, description: 'Nickname (the login name unless set); null unless the caller may see private details.', resolve: detail((u) => u.nickname || u.login) }),
      locale: t.string({ nullable: true, description: 'Locale, en_US by default; null unless the caller may see private details.', resolve: detail((u) => u.locale || 'en_US') }),
      roles: t.stringList({ nullable: true, description: 'Roles held; null unless the caller may see private details.', resolve: detail((u) => [u.role]) }),
      registeredDate: t.string({ nullable: true, description: 'Registration time, ISO 8601 in UTC with offset; null unless the caller may see private details.', resolve: detail((u) => isoWithOffset(u.registered)) }),
      capabilities: t.field({
        type: 'JSON', nullable: true,
        description: 'Every capability held, and the role, mapped to true; null unless the caller may see private details.',
        resolve: detail((u) => Object.fromEntries([...capabilitiesOf(u.role), u.role].map((c) => [c, true]))),
      }),
      extraCapabilities: t.field({
        type: 'JSON', nullable: true,
        description: 'Capabilities granted to the user directly (the role), mapped to true; null unless the caller may see private details.',
        resolve: detail((u) => ({ [u.role]: true })),
      }),
      viewerCanEdit: t.boolean({ description: 'Whether the caller may update this user.', resolve: (u, _a, ctx) => canEditUser(ctx, u.id) }),
      viewerCanDelete: t.boolean({ description: 'Whether the caller may delete this user.', resolve: (u, _a, ctx) => canDeleteUser(ctx, u.id) }),
    };
  },
});
