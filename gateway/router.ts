// Which part of the service answers an address: the one routing order, read by the node:http
// server (gateway/server.ts), which is what `npm start` serves, and by the in-process `fetch`
// entry (gateway/app.ts) that a few tests use for what the HTTP door refuses before the app
// sees it. Nothing else decides it, so the two cannot drift apart.

/** GraphQL, the sign-in pages, the API reference, stored files, the REST API, or the site's pages. */
export type Door = 'graphql' | 'admin' | 'docs' | 'upload' | 'rest' | 'site';

export interface Doors {
  /** Where the REST API lives (REST_PREFIX). */
  restPrefix: string;
  /** Where the sign-in and authorize pages are served (ADMIN_PATH). */
  adminPath: string;
  /** Where stored files are served. */
  uploadsPath: string;
  /** Whether the OpenAPI document or the reference page answers this request. */
  docs(method: string, url: URL): boolean;
}

/** The door of a request, in the order the service tries them. */
export function doorOf(d: Doors, method: string, url: URL): Door {
  const path = url.pathname;
  if (path === '/graphql') return 'graphql';
  if (path.startsWith(d.adminPath + '/')) return 'admin';
  if (d.docs(method, url)) return 'docs';
  if (path.startsWith(d.uploadsPath)) return 'upload';
  if (path === d.restPrefix || path.startsWith(d.restPrefix + '/')) return 'rest';
  // WordPress's plain form of the REST API: /?rest_route=/core/v2/posts (or /index.php?rest_route=…).
  if ((path === '/' || path === '/index.php') && url.searchParams.has('rest_route')) return 'rest';
  return 'site';
}
