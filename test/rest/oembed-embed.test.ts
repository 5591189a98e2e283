// GET /oembed/1.0/embed: the oEmbed 1.0 object of the site's own posts, pages and attachments, in
// JSON and XML; width and height clamping; thumbnails; what is not embeddable; the route's args.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import sharp from 'sharp';
import { createTestSite, SITE, type TestSite } from '../helpers/app.js';

const KEYS = ['version', 'provider_name', 'provider_url', 'author_name', 'author_url', 'title', 'type', 'width', 'height', 'html'];
const THUMB_KEYS = [...KEYS, 'thumbnail_url', 'thumbnail_width', 'thumbnail_height'];

let site: TestSite;
let uploadsDir = '';
let post: any, page: any, child: any, image: any, featured: any, draft: any, privatePost: any, locked: any, hiddenImage: any, document: any;

const embed = (url: string, query = '', as?: 'administrator' | 'subscriber') =>
  site.req('GET', `/oembed/1.0/embed?url=${encodeURIComponent(url)}${query}`, { as });

async function upload(bytes: Buffer, name: string, type: string, query = ''): Promise<any> {
  const res = await site.req('POST', `/core/v2/media${query}`, {
    as: 'administrator', body: new Uint8Array(bytes), headers: { 'content-type': type, 'content-disposition': `attachment; filename="${name}"` },
  });
  if (res.status !== 201) throw new Error(`upload ${name}: ${res.status} ${res.text.slice(0, 500)}`);
  return res.body;
}
const png = (width: number, height: number) => sharp({ create: { width, height, channels: 3, background: '#228844' } }).png().toBuffer();

/** The XML answer's children as an object (values unescaped), in document order. */
function parseXml(text: string): Record<string, string> {
  const m = /^<\?xml version="1\.0"\?>\n<oembed>([\s\S]*)<\/oembed>\n?$/.exec(text);
  if (!m) throw new Error(`not an oEmbed XML document: ${text.slice(0, 200)}`);
  const out: Record<string, string> = {};
  for (const [, key, value, close] of m[1].matchAll(/<(\w+)>([^<]*)<\/(\w+)>/g)) {
    expect(close).toBe(key);
    out[key] = value.replace(/&lt;/g, '<').replace(/&gt;/g, '>').replace(/&amp;/g, '&');
  }
  return out;
}

/** The parts of the html: the secret, the quote's link and text, the iframe's attributes. */
function htmlParts(html: string) {
  const m = /^<blockquote class="wp-embedded-content" data-secret="([A-Za-z0-9]{10})"><a href="([^"]+)">(.*?)<\/a><\/blockquote><iframe sandbox="allow-scripts" security="restricted" src="([^"]+)" width="(\d+)" height="(\d+)" title="([^"]*)" data-secret="([A-Za-z0-9]{10})" frameborder="0" marginwidth="0" marginheight="0" scrolling="no" class="wp-embedded-content"><\/iframe><script>[\s\S]+<\/script>$/.exec(html);
  if (!m) throw new Error(`unexpected embed html: ${html}`);
  const [, secret, href, text, src, width, height, title, frameSecret] = m;
  return { secret, href, text, src, width: Number(width), height: Number(height), title, frameSecret };
}

beforeAll(async () => {
  uploadsDir = await mkdtemp(join(tmpdir(), 'oembed-'));
  site = await createTestSite({ uploadsDir });
  post = await site.createPost({ title: 'Harbour notes', content: 'Boats and nets.', status: 'publish' });
  page = await site.createPage({ title: 'Handbook', content: 'Start here.', status: 'publish' });
  child = await site.createPage({ title: 'Knots & lines', content: 'Tie them.', status: 'publish', parent: page.id });
  image = await upload(await png(800, 400), 'pier.png', 'image/png', '?title=The%20pier');
  featured = await site.createPost({ title: 'With a picture', content: 'See above.', status: 'publish', featured_media: image.id });
  draft = await site.createPost({ title: 'Not yet', slug: 'not-yet', content: 'Draft.', status: 'draft' });
  privatePost = await site.createPost({ title: 'Private', slug: 'private-one', content: 'Mine.', status: 'private' });
  locked = await site.createPost({ title: 'Locked', content: 'Secret.', status: 'publish', password: 'pw' });
  hiddenImage = await upload(await png(20, 10), 'hidden.png', 'image/png', `?post=${draft.id}`);
  document = await upload(Buffer.from('plain words\n'), 'notes.txt', 'text/plain', '?title=Notes%20file');
}, 120_000);

afterAll(async () => {
  await site?.close();
  if (uploadsDir) await rm(uploadsDir, { recursive: true, force: true });
});

describe('embedding a post', () => {
  it('answers exactly the oEmbed 1.0 keys, in order, with the site, author, title and a 600-wide frame', async () => {
    const res = await embed(post.link);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('application/json; charset=UTF-8');
    expect(Object.keys(res.body)).toEqual(KEYS);
    const { html, ...rest } = res.body;
    expect(rest).toEqual({
      version: '1.0', provider_name: 'My Site', provider_url: SITE,
      author_name: 'admin', author_url: `${SITE}/author/admin/`,
      title: 'Harbour notes', type: 'rich', width: 600, height: 338,
    });
    const parts = htmlParts(html);
    expect(parts.href).toBe(post.link);
    expect(parts.text).toBe('Harbour notes');
    expect(parts.src).toBe(`${post.link}embed/#?secret=${parts.secret}`);
    expect(parts.frameSecret).toBe(parts.secret);
    expect([parts.width, parts.height]).toEqual([600, 338]);
    expect(parts.title).toBe('\u201cHarbour notes\u201d \u2014 My Site');
  });

  it('the frame\'s address is the post\'s embed card', async () => {
    const { src } = htmlParts((await embed(post.link)).body.html);
    const card = await site.req('GET', src.replace(/#.*$/, ''));
    expect(card.status).toBe(200);
    expect(card.headers.get('content-type')).toBe('text/html; charset=UTF-8');
    expect(card.headers.get('x-frame-options')).toBeNull();
    expect(card.text).toContain('Harbour notes');
  });

  it('the secret is ten random letters and digits, new on every uncached answer', async () => {
    const secrets = new Set<string>();
    for (let i = 0; i < 5; i++) secrets.add(htmlParts((await embed(post.link, '', 'administrator')).body.html).secret);
    expect(secrets.size).toBe(5);
  });

  it('the plain link of a published post and the https form of its permalink embed it too', async () => {
    for (const url of [`${SITE}/?p=${post.id}`, post.link.replace('http:', 'https:'), `${post.link}embed/`]) {
      const res = await embed(url);
      expect(res.status, url).toBe(200);
      expect(res.body.title).toBe('Harbour notes');
      expect(htmlParts(res.body.html).href).toBe(post.link);
    }
  });

  it('is the same for every caller (public)', async () => {
    for (const as of [undefined, 'subscriber', 'administrator'] as const) {
      const res = await embed(post.link, '', as);
      expect(res.status).toBe(200);
      expect(res.body.title).toBe('Harbour notes');
    }
  });

  it('a post with a featured image carries its thumbnail, scaled to the width', async () => {
    let res = await embed(featured.link);
    expect(Object.keys(res.body)).toEqual(THUMB_KEYS);
    expect(res.body).toMatchObject({ thumbnail_url: image.source_url, thumbnail_width: 600, thumbnail_height: 300 });
    res = await embed(featured.link, '&maxwidth=300');
    expect(res.body).toMatchObject({ width: 300, height: 200, thumbnail_url: image.source_url, thumbnail_width: 300, thumbnail_height: 150 });
  });
});

describe('embedding pages and attachments', () => {
  it('a nested page at its permalink', async () => {
    const res = await embed(child.link);
    expect(res.status).toBe(200);
    expect(Object.keys(res.body)).toEqual(KEYS);
    expect(res.body.title).toBe('Knots &#038; lines');
    const parts = htmlParts(res.body.html);
    expect(parts.href).toBe(`${SITE}/handbook/knots-lines/`);
    expect(parts.src).toBe(`${SITE}/handbook/knots-lines/embed/#?secret=${parts.secret}`);
    expect((await embed(`${SITE}/?page_id=${child.id}`)).body.title).toBe('Knots &#038; lines');
  });

  it('an image attachment is its own thumbnail; its frame is the plain link\'s embed card', async () => {
    const res = await embed(image.link);
    expect(res.status).toBe(200);
    expect(Object.keys(res.body)).toEqual(THUMB_KEYS);
    expect(res.body).toMatchObject({ title: 'The pier', type: 'rich', width: 600, height: 338, thumbnail_url: image.source_url, thumbnail_width: 600, thumbnail_height: 300 });
    const parts = htmlParts(res.body.html);
    expect(parts.href).toBe(`${SITE}/?attachment_id=${image.id}`);
    expect(parts.src).toBe(`${SITE}/?attachment_id=${image.id}&amp;embed=true#?secret=${parts.secret}`);
    const card = await site.req('GET', `${SITE}/?attachment_id=${image.id}&embed=true`);
    expect(card.status).toBe(200);
    expect(card.text).toContain('The pier');
  });

  it('an image narrower than the frame keeps its size as the thumbnail', async () => {
    const small = await upload(await png(120, 90), 'small.png', 'image/png');
    const res = await embed(small.link);
    expect(res.body).toMatchObject({ width: 600, thumbnail_url: small.source_url, thumbnail_width: 120, thumbnail_height: 90 });
  });

  it('another file has no thumbnail', async () => {
    const res = await embed(document.link);
    expect(res.status).toBe(200);
    expect(Object.keys(res.body)).toEqual(KEYS);
    expect(res.body.title).toBe('Notes file');
  });
});

describe('XML', () => {
  it('post, page and attachment: text/xml, one element per key, values reading back as the JSON ones', async () => {
    for (const item of [post, child, image]) {
      const json = (await embed(item.link)).body;
      const res = await embed(item.link, '&format=xml');
      expect(res.status).toBe(200);
      expect(res.headers.get('content-type')).toBe('text/xml; charset=UTF-8');
      expect(res.text.startsWith('<?xml version="1.0"?>\n<oembed>')).toBe(true);
      const xml = parseXml(res.text);
      expect(Object.keys(xml)).toEqual(Object.keys(json));
      for (const key of Object.keys(json)) if (key !== 'html') expect(xml[key], key).toBe(String(json[key]));
      const parts = htmlParts(xml.html);
      expect(parts.href).toBe(json.html.match(/<a href="([^"]+)"/)[1]);
    }
  });

  it('escapes markup and ampersands in values', async () => {
    const res = await embed(child.link, '&format=xml');
    expect(res.text).toContain('<title>Knots &amp;#038; lines</title>');
    expect(res.text).toContain('<html>&lt;blockquote class="wp-embedded-content"');
    expect(res.text).not.toContain('<blockquote');
  });

  it('HEAD answers the headers only', async () => {
    const res = await site.req('HEAD', `/oembed/1.0/embed?url=${encodeURIComponent(post.link)}&format=xml`);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('text/xml; charset=UTF-8');
    expect(res.text).toBe('');
  });
});

describe('width and height', () => {
  const cases: [string, number, number][] = [
    ['', 600, 338], ['&maxwidth=100', 200, 200], ['&maxwidth=200', 200, 200], ['&maxwidth=355', 355, 200], ['&maxwidth=356', 356, 201],
    ['&maxwidth=450', 450, 254], ['&maxwidth=600', 600, 338], ['&maxwidth=601', 600, 338], ['&maxwidth=5000', 600, 338],
    ['&maxwidth=abc', 200, 200], ['&maxwidth=', 200, 200], ['&maxwidth=-400', 400, 225], ['&maxwidth=480.9', 480, 270], ['&maxwidth=500px', 500, 282],
  ];
  it.each(cases)('maxwidth%s → %i × %i (also in the iframe)', async (query, width, height) => {
    const res = await embed(post.link, query);
    expect(res.status).toBe(200);
    expect([res.body.width, res.body.height]).toEqual([width, height]);
    const parts = htmlParts(res.body.html);
    expect([parts.width, parts.height]).toEqual([width, height]);
  });
});

describe('what cannot be embedded', () => {
  it('drafts, private and password-protected posts, and attachments of drafts: 404 oembed_invalid_url, for every caller', async () => {
    for (const url of [draft.link, `${SITE}/?p=${draft.id}`, `${SITE}/not-yet/`, privatePost.link, `${SITE}/private-one/`, locked.link, hiddenImage.link]) {
      for (const as of [undefined, 'administrator'] as const) {
        expect(await embed(url, '', as), `${url} as ${as ?? 'anonymous'}`).toBeWpError(404, 'oembed_invalid_url');
      }
    }
  });

  it('another host, another port, an unknown path, the home page, other schemes: 404 oembed_invalid_url', async () => {
    for (const url of [
      `http://elsewhere.test/${post.slug}/`, `http://site.test:8080/${post.slug}/`, `http://sub.site.test/${post.slug}/`,
      `${SITE}/no-such-post/`, `${SITE}/handbook/no-such-page/`, `${SITE}/knots-lines/`, `${SITE}/`, `${SITE}/?p=999999`, `${SITE}/?p=${page.id}`,
      `ftp://site.test/${post.slug}/`, 'not a url',
    ]) {
      expect(await embed(url), url).toBeWpError(404, 'oembed_invalid_url');
    }
  });

  it('a format other than json or xml: 501 oembed_invalid_format', async () => {
    expect(await embed(post.link, '&format=yaml')).toBeWpError(501, 'oembed_invalid_format');
    expect(await embed(post.link, '&format=JSON')).toBeWpError(501, 'oembed_invalid_format');
  });

  it('no url: 400 rest_missing_callback_param; a url that is no string: 400 rest_invalid_param', async () => {
    const missing = await site.req('GET', '/oembed/1.0/embed');
    expect(missing).toBeWpError(400, 'rest_missing_callback_param');
    expect(missing.body.data.params).toEqual(['url']);
    expect(await site.req('GET', '/oembed/1.0/embed?url[]=a&url[]=b')).toBeWpError(400, 'rest_invalid_param');
  });

  it('only GET: other methods are 404 rest_no_route', async () => {
    expect(await site.req('POST', `/oembed/1.0/embed?url=${encodeURIComponent(post.link)}`, { as: 'administrator' })).toBeWpError(404, 'rest_no_route');
  });
});

describe('the route in the index', () => {
  it('is listed under oembed/1.0 with WordPress\'s arguments', async () => {
    const res = await site.req('GET', '/oembed/1.0');
    expect(res.status).toBe(200);
    const route = res.body.routes['/oembed/1.0/embed'];
    expect(route).toEqual({
      namespace: 'oembed/1.0',
      methods: ['GET'],
      endpoints: [{
        methods: ['GET'],
        args: {
          url: { description: 'The URL of the resource for which to fetch oEmbed data.', type: 'string', format: 'uri', required: true },
          format: { default: 'json', type: 'string', required: false },
          maxwidth: { default: 600, required: false },
        },
      }],
      _links: { self: [{ href: `${SITE}/wp-json/oembed/1.0/embed` }] },
    });
    expect((await site.req('GET', '/')).body.routes['/oembed/1.0/embed'].namespace).toBe('oembed/1.0');
  });
});
