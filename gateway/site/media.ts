// The public pages' media URLs live in the domain (src/site/media-urls.ts), where the oEmbed data
// (src/oembed/embed.ts) uses them too; the public pages import them from here.
export * from '../../src/site/media-urls.js';
