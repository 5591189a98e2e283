// Site description: what the REST index and GraphQL clients read about the site itself.
import { builder } from '../builder.js';
import type { SiteSettings } from '../../site/options.js';
import { gmtOffsetString } from '../../content/dates.js';

const Site = builder.objectRef<SiteSettings>('Site').implement({
  description: 'The site: its name, addresses, clock and front page settings.',
  fields: (t) => ({
    name: t.exposeString('name', { description: 'Site title.' }),
    description: t.exposeString('description', { description: 'Tagline.' }),
    url: t.exposeString('url', { description: 'Address of the service, without a trailing slash.' }),
    home: t.exposeString('home', { description: 'Address of the front end, without a trailing slash.' }),
    gmtOffset: t.string({ description: 'Offset from UTC in hours, as a string ("0", "5.5", "-3").', resolve: (s) => gmtOffsetString(s) }),
    timezoneString: t.exposeString('timezoneString', { description: 'IANA time zone, or empty when a fixed offset is used.' }),
    pageForPosts: t.exposeInt('pageForPosts', { description: 'Id of the page that lists posts; 0 for none.' }),
    pageOnFront: t.exposeInt('pageOnFront', { description: 'Id of the page shown on the front page; 0 for none.' }),
    showOnFront: t.exposeString('showOnFront', { description: '"posts" or "page".' }),
    siteLogo: t.int({ description: 'Media id of the logo; 0 for none.', resolve: () => 0 }),
    siteIcon: t.int({ description: 'Media id of the icon; 0 for none.', resolve: () => 0 }),
    siteIconUrl: t.string({ description: 'URL of the icon; empty for none.', resolve: () => '' }),
  }),
});

builder.queryField('site', (t) =>
  t.field({ type: Site, description: 'The site itself.', resolve: (_root, _args, ctx) => ctx.site() }),
);
