// GET /oembed/1.0/proxy against a fake provider on 127.0.0.1 (a server started here on port 0,
// allow-listed for the site): discovery from the page's <link>, the provider's JSON with its
// html filtered, maxwidth passed on, the cache, and every way of finding nothing (404
// oembed_invalid_url): no provider, refused addresses, redirects into private ranges, oversize
// answers. Rights: edit_posts.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createTestSite, type TestSite } from '../helpers/app.js';
import { findProvider } from '../../src/oembed/providers.js';
import { findOembedLinks } from '../../src/oembed/discovery.js';

let site: TestSite;
/** A site without an allow list: loopback is refused like any private address. */
let closedSite: TestSite;
let server: Server;
let base = '';
const hits = new Map<string, number>();
const providerQueries: URLSearchParams[] = [];
const big = { sent: 0, closed: Promise.resolve() };

const hit = (path: string) => hits.get(path) ?? 0;

const RICH = {
  version: '1.0', type: 'rich', provider_name: 'Fake Provider', provider_url: 'https://provider.example',
  title: 'A page worth embedding', author_name: 'Someone', width: 400, height: 225,
  html: '<blockquote class="fake" onclick="steal()"><a href="https://provider.example/p" onmouseover="x()">A page</a></blockquote>'
    + '<script async src="https://provider.example/widget.js"></script>'
    + '<iframe src="https://provider.example/embed/1" width="400" height="225" onload="y()" srcdoc="<script>z()</script>"></iframe>'
    + '<a href="javascript:alert(1)">bad link</a>',
};

function page(oembedHref: string | null, extraHead = ''): string {
  const link = oembedHref === null ? '' : `<link rel="alternate" type="application/json+oembed" href="${oembedHref.replace(/&/g, '&amp;')}" title="oEmbed">`;
  return `<!doctype html><html><head><meta charset="utf-8"><title>Page</title>${extraHead}${link}</head><body><p>Hello</p></body></html>`;
}

beforeAll(async () => {
  server = createServer((req, res) => {
    const url = new URL(req.url ?? '/', base);
    hits.set(url.pathname, hit(url.pathname) + 1);
    const html = (body: string) => { res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }); res.end(body); };
    const json = (body: unknown) => { res.writeHead(200, { 'content-type': 'application/json' }); res.end(JSON.stringify(body)); };
    switch (url.pathname) {
      case '/article':
        // A decoy inside a script must not be taken for the page's link.
        return html(page(`/oembed?url=${encodeURIComponent(`${base}/article`)}&format=json`, `<script>var s = '<link rel="alternate" type="application/json+oembed" href="/decoy">';</script>`));
      case '/oembed':
        providerQueries.push(url.searchParams);
        return json(RICH);
      case '/photo-page':
        return html(page('/photo-oembed'));
      case '/photo-oembed':
        return json({ version: '1.0', type: 'photo', title: 'A "photo"', url: 'https://provider.example/p.jpg', width: 640, height: 480 });
      case '/no-link':
        return html(page(null));
      case '/not-json-page':
        return html(page('/not-json'));
      case '/not-json':
        return html('<p>not JSON</p>');
      case '/redirect-to-private':
        res.writeHead(302, { location: 'http://10.0.0.1/article' });
        return res.end();
      case '/private-link':
        return html(page('http://192.168.1.1/oembed'));
      case '/redirecting-endpoint-page':
        return html(page('/redirecting-endpoint'));
      case '/redirecting-endpoint':
        res.writeHead(301, { location: 'http://169.254.169.254/latest/meta-data/' });
        return res.end();
      case '/big-page':
        return html(page('/big-oembed'));
      case '/big-oembed': {
        // A valid oEmbed object of 5 MB (its html one long string), without Content-Length, paced,
        // until the client goes away: only the size cap can refuse it.
        res.writeHead(200, { 'content-type': 'application/json' });
        big.sent = 0;
        big.closed = new Promise((r) => res.on('close', () => r()));
        res.write('{"version":"1.0","type":"rich","html":"');
        const chunk = Buffer.alloc(64 * 1024, 97);
        const pump = () => {
          if (res.destroyed) return;
          if (big.sent >= 5 * 1024 * 1024) return void res.end('"}');
          res.write(chunk);
          big.sent += chunk.length;
          setTimeout(pump, 2);
        };
        return pump();
      }
      default:
        res.writeHead(404);
        res.end();
    }
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  site = await createTestSite({ oembedAllowHosts: ['127.0.0.1'] });
  closedSite = await createTestSite();
});

afterAll(async () => {
  await site?.close();
  await closedSite?.close();
  if (server) {
    server.closeAllConnections();
    await new Promise((r) => server.close(r));
  }
});

const proxy = (query: Record<string, string>) => `/oembed/1.0/proxy?${new URLSearchParams(query)}`;

describe('GET /oembed/1.0/proxy', () => {
  it('discovers the provider from the page and answers its oEmbed object, html filtered, maxwidth passed on', async () => {
    const res = await site.req('GET', proxy({ url: `${base}/article`, maxwidth: '400', maxheight: '300' }), { as: 'contributor' });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/^application\/json/);
    const { html, ...rest } = res.body;
    const { html: _, ...expected } = RICH;
    expect(rest).toEqual(expected);
    expect(html).toBe(
      '<blockquote class="fake"><a href="https://provider.example/p">A page</a></blockquote>'
      + '<iframe src="https://provider.example/embed/1" width="400" height="225"></iframe>'
      + '<a>bad link</a>',
    );
    expect(hit('/decoy')).toBe(0);
    const q = providerQueries.at(-1)!;
    expect(q.get('maxwidth')).toBe('400');
    expect(q.get('maxheight')).toBe('300');
    expect(q.get('format')).toBe('json');
    expect(q.get('url')).toBe(`${base}/article`);
  });

  it('answers again from its cache for a day: the provider is not asked twice', async () => {
    const url = `${base}/article`;
    const first = await site.req('GET', proxy({ url, maxwidth: '500' }), { as: 'author' });
    expect(first.status).toBe(200);
    const pages = hit('/article');
    const provider = hit('/oembed');
    const again = await site.req('GET', proxy({ url, maxwidth: '500' }), { as: 'editor' });
    expect(again.status).toBe(200);
    expect(again.body).toEqual(first.body);
    expect(hit('/article')).toBe(pages);
    expect(hit('/oembed')).toBe(provider);
    // Another maxwidth is another entry.
    const wider = await site.req('GET', proxy({ url, maxwidth: '700' }), { as: 'editor' });
    expect(wider.status).toBe(200);
    expect(hit('/oembed')).toBe(provider + 1);
    expect(providerQueries.at(-1)!.get('maxwidth')).toBe('700');
  });

  it('builds the html of a photo from its data, as WordPress', async () => {
    const res = await site.req('GET', proxy({ url: `${base}/photo-page` }), { as: 'administrator' });
    expect(res.status).toBe(200);
    expect(res.body.type).toBe('photo');
    expect(res.body.html).toBe(`<a href="${base}/photo-page"><img src="https://provider.example/p.jpg" alt="A &quot;photo&quot;" width="640" height="480" /></a>`);
  });

  it("answers the site's own published items with local data, as the embed route, and nothing for a draft", async () => {
    const post = await site.createPost({ title: 'Local post', content: 'Here', status: 'publish' });
    const res = await site.req('GET', proxy({ url: post.link, maxwidth: '400' }), { as: 'contributor' });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ version: '1.0', type: 'rich', title: 'Local post', width: 400, height: 225 });
    expect(res.body.html).toContain(`<a href="${post.link}">Local post</a>`);
    const draft = await site.createPost({ title: 'Local draft', status: 'draft' });
    const hidden = await site.req('GET', proxy({ url: `${post.link.replace(/[^/]+\/$/, '')}?p=${draft.id}` }), { as: 'administrator' });
    expect(hidden).toBeWpError(404, 'oembed_invalid_url');
  });

  it('answers JSON for format=xml too, as WordPress (its XML is for the embed route only)', async () => {
    const res = await site.req('GET', proxy({ url: `${base}/article`, format: 'xml' }), { as: 'contributor' });
    expect(res.status).toBe(200);
    expect(res.body.provider_name).toBe('Fake Provider');
  });

  it('finds nothing for an unknown provider with discover=false, without fetching the page', async () => {
    const before = hit('/article');
    const res = await site.req('GET', proxy({ url: `${base}/article?other=1`, discover: 'false' }), { as: 'contributor' });
    expect(res).toBeWpError(404, 'oembed_invalid_url');
    expect(res.body.message).toBe('Not Found');
    expect(hit('/article')).toBe(before);
  });

  it('finds nothing on a page without an oEmbed link, or whose endpoint does not answer JSON', async () => {
    expect(await site.req('GET', proxy({ url: `${base}/no-link` }), { as: 'contributor' })).toBeWpError(404, 'oembed_invalid_url');
    expect(await site.req('GET', proxy({ url: `${base}/not-json-page` }), { as: 'contributor' })).toBeWpError(404, 'oembed_invalid_url');
    expect(await site.req('GET', proxy({ url: `${base}/missing` }), { as: 'contributor' })).toBeWpError(404, 'oembed_invalid_url');
  });

  it('refuses a loopback target when the host is not allow-listed', async () => {
    const before = hit('/article');
    const res = await closedSite.req('GET', proxy({ url: `${base}/article` }), { as: 'contributor' });
    expect(res).toBeWpError(404, 'oembed_invalid_url');
    // Allow-listed by literal only: the same server by name is refused too.
    const byName = await site.req('GET', proxy({ url: `${base.replace('127.0.0.1', 'localhost')}/article` }), { as: 'contributor' });
    expect(byName).toBeWpError(404, 'oembed_invalid_url');
    expect(hit('/article')).toBe(before);
  });

  it('refuses a redirect into a private range, a page naming a private endpoint, and an endpoint redirecting to the metadata address', async () => {
    expect(await site.req('GET', proxy({ url: `${base}/redirect-to-private` }), { as: 'contributor' })).toBeWpError(404, 'oembed_invalid_url');
    expect(await site.req('GET', proxy({ url: `${base}/private-link` }), { as: 'contributor' })).toBeWpError(404, 'oembed_invalid_url');
    expect(await site.req('GET', proxy({ url: `${base}/redirecting-endpoint-page` }), { as: 'contributor' })).toBeWpError(404, 'oembed_invalid_url');
    expect(hit('/redirecting-endpoint')).toBe(1);
  });

  it('refuses an oversize provider answer while it streams', async () => {
    const res = await site.req('GET', proxy({ url: `${base}/big-page` }), { as: 'contributor' });
    expect(res).toBeWpError(404, 'oembed_invalid_url');
    await big.closed;
    expect(big.sent).toBeLessThan(5 * 1024 * 1024);
  });

  it('needs edit_posts: anonymous 401, subscriber 403 (rest_forbidden), before anything is fetched', async () => {
    const before = hit('/article');
    const anonymous = await site.req('GET', proxy({ url: `${base}/article?rights=1` }));
    expect(anonymous).toBeWpError(401, 'rest_forbidden');
    expect(anonymous.body.message).toBe('Sorry, you are not allowed to make proxied oEmbed requests.');
    expect(await site.req('GET', proxy({ url: `${base}/article?rights=1` }), { as: 'subscriber' })).toBeWpError(403, 'rest_forbidden');
    expect(hit('/article')).toBe(before);
    expect((await site.req('GET', proxy({ url: `${base}/article?rights=1` }), { as: 'contributor' })).status).toBe(200);
  });

  it('validates its arguments first, as WordPress', async () => {
    expect(await site.req('GET', '/oembed/1.0/proxy')).toBeWpError(400, 'rest_missing_callback_param');
    expect(await site.req('GET', proxy({ url: `${base}/article`, format: 'yaml' }), { as: 'contributor' })).toBeWpError(400, 'rest_invalid_param');
    expect(await site.req('GET', proxy({ url: `${base}/article`, maxwidth: 'wide' }), { as: 'contributor' })).toBeWpError(400, 'rest_invalid_param');
    expect(await site.req('GET', proxy({ url: `${base}/article`, discover: 'maybe' }), { as: 'contributor' })).toBeWpError(400, 'rest_invalid_param');
  });

  it('is listed in the oembed/1.0 namespace with its arguments', async () => {
    const res = await site.req('GET', '/oembed/1.0');
    expect(res.status).toBe(200);
    const route = res.body.routes['/oembed/1.0/proxy'];
    expect(route.methods).toEqual(['GET']);
    expect(Object.keys(route.endpoints[0].args)).toEqual(['url', 'format', 'maxwidth', 'maxheight', 'discover']);
    expect(route.endpoints[0].args.url).toMatchObject({ type: 'string', format: 'uri', required: true });
    expect(route.endpoints[0].args.discover).toMatchObject({ type: 'boolean', default: true, required: false });
  });
});

describe('providers and discovery', () => {
  it('knows the common providers by URL', () => {
    expect(findProvider('https://www.youtube.com/watch?v=dQw4w9WgXcQ')?.endpoint).toBe('https://www.youtube.com/oembed');
    expect(findProvider('https://youtu.be/dQw4w9WgXcQ')?.name).toBe('YouTube');
    expect(findProvider('https://vimeo.com/76979871')?.endpoint).toBe('https://vimeo.com/api/oembed.json');
    expect(findProvider('https://x.com/jack/status/20')?.endpoint).toBe('https://publish.twitter.com/oembed');
    expect(findProvider('https://twitter.com/jack/status/20')?.name).toBe('X');
    expect(findProvider('https://soundcloud.com/artist/track')?.name).toBe('SoundCloud');
    expect(findProvider('https://open.spotify.com/track/abc')?.name).toBe('Spotify');
    expect(findProvider('https://www.flickr.com/photos/x/1')?.name).toBe('Flickr');
    expect(findProvider('https://www.tiktok.com/@user/video/1')?.name).toBe('TikTok');
    expect(findProvider('https://example.com/watch?v=1')).toBeNull();
    expect(findProvider('https://www.youtube.com.evil.example/watch?v=1')).toBeNull();
  });

  it('reads the oEmbed links of the head only, whatever the markup around them', () => {
    const html = `<!DOCTYPE html><html><head>
      <title>About <link rel="alternate" type="application/json+oembed" href="/in-title"></title>
      <!-- <link rel="alternate" type="application/json+oembed" href="/in-comment"> -->
      <style>/* <link rel="alternate" type="application/json+oembed" href="/in-style"> */</style>
      <LINK Rel="Alternate  stylesheet" TYPE="application/json+oembed" HREF='/o?url=a&amp;format=json'>
      <link rel=alternate type=text/xml+oembed href=/o.xml>
      </head><body><link rel="alternate" type="application/json+oembed" href="/in-body"></body></html>`;
    expect(findOembedLinks(html, 'https://example.com/dir/page')).toEqual({
      json: 'https://example.com/o?url=a&format=json',
      xml: 'https://example.com/o.xml',
    });
    expect(findOembedLinks('<html><head><link rel="stylesheet" href="/x.css"></head>', 'https://example.com/')).toEqual({});
    // A page cut off in the middle of its head still yields what came before.
    expect(findOembedLinks('<head><link rel="alternate" type="application/json+oembed" href="/a"><link rel="alt', 'https://example.com/').json).toBe('https://example.com/a');
  });
});
