// The OpenAPI document and the API reference page, under the REST prefix but beside the route
// table (as WordPress would, the index and OPTIONS list only WordPress-style routes):
//   {prefix}/openapi.json           the document, built once per process
//   {prefix}/reference              the page (swagger-ui-dist, served from node_modules)
//   {prefix}/reference/             a permanent redirect to the page, with its query
//   {prefix}/reference/<asset>      the renderer's script and stylesheet, and the page's own script
// Only GET and HEAD are answered here; any other method goes on to the dispatcher (rest_no_route).
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { projectRoot } from '../../src/root.js';
import type { RouteEntry } from '../types.js';
import { buildOpenApiDocument, type DocumentOptions } from './document.js';

export interface DocsResponse { status: number; headers: Record<string, string>; body: string | Buffer }

const require = createRequire(import.meta.url);
const RENDERER_DIR = dirname(require.resolve('swagger-ui-dist/package.json'));
const RENDERER_VERSION = (require('swagger-ui-dist/package.json') as { version: string }).version;
const SERVICE_PACKAGE = JSON.parse(readFileSync(join(projectRoot, 'package.json'), 'utf8')) as { version: string; license?: string };

/** Files of the renderer the page loads, by the name they are served under. */
const RENDERER_FILES: Record<string, string> = {
  'swagger-ui-bundle.js': 'text/javascript; charset=UTF-8',
  'swagger-ui.css': 'text/css; charset=UTF-8',
};

/** The page's own script (no inline script, so the page can forbid them): starts the renderer on the document. */
const PAGE_SCRIPT = `(function () {
  var root = document.getElementById('reference');
  window.ui = SwaggerUIBundle({
    url: root.getAttribute('data-document'),
    domNode: root,
    deepLinking: true,
    validatorUrl: null,
    tryItOutEnabled: false
  });
})();
`;

const escapeAttr = (s: string) => s.replace(/&/g, '&amp;').replace(/"/g, '&quot;').replace(/</g, '&lt;');

export function createApiDocs(table: RouteEntry[], options: Omit<DocumentOptions, 'version'>) {
  const o: DocumentOptions = { ...options, version: SERVICE_PACKAGE.version, license: SERVICE_PACKAGE.license };
  const documentPath = `${o.restPrefix}/openapi.json`;
  const pagePath = `${o.restPrefix}/reference`;
  let documentText: string | null = null;
  const files = new Map<string, Buffer>();

  /** The document, generated on first use: the table does not change while the process runs. */
  function documentJson(): string {
    documentText ??= JSON.stringify(buildOpenApiDocument(table, o));
    return documentText;
  }

  const page = () => `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>REST API reference</title>
<link rel="stylesheet" href="${escapeAttr(pagePath)}/swagger-ui.css">
</head>
<body>
<div id="reference" data-document="${escapeAttr(documentPath)}"></div>
<script src="${escapeAttr(pagePath)}/swagger-ui-bundle.js"></script>
<script src="${escapeAttr(pagePath)}/reference.js"></script>
</body>
</html>
`;

  const common = { 'X-Content-Type-Options': 'nosniff' };

  /** Whether this request is one of ours (GET or HEAD of the document, the page or an asset). */
  function claims(method: string, url: URL): boolean {
    if (method !== 'GET' && method !== 'HEAD') return false;
    return url.pathname === documentPath || url.pathname === pagePath || url.pathname.startsWith(pagePath + '/');
  }

  function serve(method: string, url: URL): DocsResponse {
    const head = method === 'HEAD';
    const answer = (status: number, headers: Record<string, string>, body: string | Buffer): DocsResponse =>
      ({ status, headers: { ...common, ...headers }, body: head ? '' : body });
    if (url.pathname === documentPath) {
      return answer(200, { 'Content-Type': 'application/json; charset=UTF-8', 'Access-Control-Allow-Origin': '*' }, documentJson());
    }
    if (url.pathname === pagePath) {
      return answer(200, {
        'Content-Type': 'text/html; charset=UTF-8',
        'Content-Security-Policy': "default-src 'self'; img-src 'self' data:; style-src 'self' 'unsafe-inline'; script-src 'self'",
      }, page());
    }
    const name = url.pathname.slice(pagePath.length + 1);
    // The page's assets are absolute, so it would load from here too; a redirect keeps one address
    // for it (links, bookmarks, caches). Root-relative, like the page's own links.
    if (name === '') return answer(301, { Location: `${pagePath}${url.search}` }, '');
    if (name === 'reference.js') return answer(200, { 'Content-Type': 'text/javascript; charset=UTF-8', 'Cache-Control': 'no-cache' }, PAGE_SCRIPT);
    const cache = { 'Cache-Control': 'public, max-age=86400', ETag: `"swagger-ui-${RENDERER_VERSION}"` };
    const type = Object.hasOwn(RENDERER_FILES, name) ? RENDERER_FILES[name] : undefined;
    if (!type) {
      return answer(404, { 'Content-Type': 'application/json; charset=UTF-8' },
        JSON.stringify({ code: 'rest_no_route', message: 'No route was found matching the URL and request method.', data: { status: 404 } }));
    }
    let file = files.get(name);
    if (!file) { file = readFileSync(join(RENDERER_DIR, name)); files.set(name, file); }
    return answer(200, { 'Content-Type': type, ...cache }, file);
  }

  return { claims, serve, documentPath, pagePath, document: () => JSON.parse(documentJson()) as Record<string, any> };
}
