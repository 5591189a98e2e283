// GraphQL objects the user definition (src/resources/users.ts) names: the avatar of avatarUrls.
import { builder } from '../builder.js';

export const Avatar = builder.objectRef<{ size: number; url: string }>('Avatar').implement({
  description: 'An avatar image address at one size.',
  fields: (t) => ({
    size: t.exposeInt('size', { description: 'Width and height in pixels (24, 48 or 96).' }),
    url: t.exposeString('url', { description: 'Image address.' }),
  }),
});
