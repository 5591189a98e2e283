// The site's address resolution lives in the domain (src/site/resolve.ts), where GraphQL's
// nodeByUri uses it too; the public pages and the oEmbed route import it from here.
export * from '../../src/site/resolve.js';
