// GraphiQL for a browser at GET /graphql, whole in one page: yoga's own page fetches its script,
// styles, editor workers and icon from a CDN, so without network access it stays at "Loading...".
// @graphql-yoga/render-graphiql carries all of them as strings (a 9 MB module: loading it took a
// quarter of a second and about 40 MB of a process's memory here), so it is imported on the first
// GraphiQL request only: a process that never serves the page never loads it.
import { createHash } from 'node:crypto';
import type { GraphiQLOptions, Plugin } from 'graphql-yoga';

interface Page { body: Uint8Array<ArrayBuffer>; policy: string }

/**
 * The page's Content-Security-Policy: its one inline script allowed by its hash (the page has
 * nothing else to run, and the hash stops any other inline or outside script), the inline styles
 * (the editor adds its own at run time), the editor's workers made from blob: URLs, the fonts and
 * images inlined as data: URLs, and requests to this origin only (the queries, the schema and
 * subscriptions go to /graphql).
 */
function policyFor(html: string): string {
  const start = html.indexOf('<script>');
  const end = html.indexOf('</script>', start);
  // The hash must be of exactly what the browser runs: a page of another shape would run nothing.
  if (start < 0 || end < 0 || html.includes('<script', end)) throw new Error('the GraphiQL page does not hold the one inline script it is expected to');
  const hash = createHash('sha256').update(html.slice(start + '<script>'.length, end)).digest('base64');
  return [
    "default-src 'none'", `script-src 'sha256-${hash}'`, "style-src 'unsafe-inline'", "img-src data:", "font-src data:",
    "connect-src 'self'", "worker-src blob:", "base-uri 'none'", "form-action 'none'", "frame-ancestors 'none'",
  ].join('; ');
}

/**
 * yoga's `renderGraphiQL` (it may answer a promise) and a plugin that sends the page's policy with
 * it. The page is rendered once per set of options (for a process, its config's) and kept encoded:
 * rendering, encoding and hashing it held the event loop for 0.1-0.25 s here, and the kept 9 MB
 * are off the JavaScript heap.
 */
export function createGraphiQL() {
  let page: Promise<Page> | undefined;
  let ready: Page | undefined;
  let pageKey = '';

  async function build(options: GraphiQLOptions): Promise<Page> {
    const { renderGraphiQL } = await import('@graphql-yoga/render-graphiql');
    const html = renderGraphiQL(options);
    return { body: new TextEncoder().encode(html), policy: policyFor(html) };
  }

  async function render(options: GraphiQLOptions): Promise<Uint8Array<ArrayBuffer>> {
    const key = JSON.stringify(options);
    if (!page || pageKey !== key) {
      pageKey = key;
      // A failed import or render is not kept: the next request tries again.
      page = build(options).catch((err) => { if (pageKey === key) page = undefined; throw err; });
    }
    const built = await page;
    ready = built;
    return built.body;
  }

  /**
   * yoga answers its GraphiQL page `text/html` (the landing page is off, so nothing else is). The
   * policy is the latest page's: yoga is given one set of options (the config's), so one page.
   */
  const plugin: Plugin = {
    onResponse({ request, response }) {
      if (ready && request.method === 'GET' && response.headers.get('content-type') === 'text/html') {
        response.headers.set('Content-Security-Policy', ready.policy);
        response.headers.set('X-Content-Type-Options', 'nosniff');
      }
    },
  };

  return { render, plugin };
}
