// The oEmbed data of the site's own items lives in the domain (src/oembed/embed.ts), where GraphQL's
// oembed field uses it too; the oEmbed routes import it from here.
export * from '../../src/oembed/embed.js';
