// The public pages: home, post and page permalinks (pretty and plain), attachment pages, embed
// cards, the 404 page; the discovery links in headers and markup; and what stays hidden from
// anonymous readers (drafts, private, scheduled, trashed, password-protected content).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import sharp from 'sharp';
import { createTestSite, SITE, type TestSite } from '../helpers/app.js';
import { setOption } from '../../src/site/options.js';

const API_ROOT = `${SITE}/wp-json/`;
const DISCOVERY = `<${API_ROOT}>; rel="https://api.w.org/"`;
const alternate = (base: string, id: number) => `<${API_ROOT}core/v2/${base}/${id}>; rel="alternate"; title="JSON"; type="application/json"`;
const oembedHref = (link: string, xml = false) => `${API_ROOT}oembed/1.0/embed?url=${encodeURIComponent(link)}${xml ? '&amp;format=xml' : ''}`;

let site: TestSite;
let uploadsDir = '';
const posts: any[] = [];
let draft: any, privatePost: any, scheduled: any, trashed: any, locked: any;
let guide: any, install: any, linux: any, draftPage: any;
let image: any, hiddenImage: any, featuredPost: any;

const get = (path: string, method = 'GET') => site.req(method, path.startsWith('http') ? path : `${SITE}${path}`);

async function uploadPng(width: number, height: number, name: string, query = ''): Promise<any> {
  const bytes = await sharp({ create: { width, height, channels: 3, background: '#3366cc' } }).png().toBuffer();
  const res = await site.req('POST', `/core/v2/media${query}`, {
    as: 'administrator', body: bytes, headers: { 'content-type': 'image/png', 'content-disposition': `attachment; filename="${name}"` },
  });
  if (res.status !== 201) throw new Error(`upload ${name}: ${res.status} ${res.text.slice(0, 500)}`);
  return res.body;
}

beforeAll(async () => {
  uploadsDir = await mkdtemp(join(tmpdir(), 'site-front-'));
  site = await createTestSite({ uploadsDir });
  await setOption(site.db.prisma, 'blogname', 'Field <Notes> & Co');
  await setOption(site.db.prisma, 'blogdescription', 'Writing about "things"');
  // Twelve published posts, one a day: the home page shows the newest ten.
  for (let day = 1; day <= 12; day++) {
    posts.push(await site.createPost({
      title: `Entry number ${day}`, content: `Body text of entry ${day}.`, excerpt: `Summary of entry ${day}`,
      status: 'publish', date: `2026-03-${String(day).padStart(2, '0')}T09:00:00`,
    }));
  }
  draft = await site.createPost({ title: 'Secret draft', slug: 'secret-draft', content: 'Draft body', status: 'draft', date: '2026-03-20T09:00:00' });
  privatePost = await site.createPost({ title: 'Private notes', slug: 'private-notes', content: 'Private body', status: 'private', date: '2026-03-21T09:00:00' });
  scheduled = await site.createPost({ title: 'Coming soon', slug: 'coming-soon', content: 'Future body', status: 'future', date: '2099-01-01T09:00:00' });
  trashed = await site.createPost({ title: 'Thrown away', slug: 'thrown-away', content: 'Trashed body', status: 'publish', date: '2026-02-01T09:00:00' });
  expect((await site.req('DELETE', `/core/v2/posts/${trashed.id}`, { as: 'administrator' })).status).toBe(200);
  locked = await site.createPost({
    title: 'Members only', content: 'Locked body words', excerpt: 'Locked summary words', password: 'hunter2', status: 'publish', date: '2026-03-13T09:00:00',
  });

  guide = await site.createPage({ title: 'Guide', content: 'The guide.', status: 'publish' });
  install = await site.createPage({ title: 'Install', content: 'How to install.', status: 'publish', parent: guide.id });
  linux = await site.createPage({ title: 'Linux', content: 'Install on Linux.', status: 'publish', parent: install.id });
  draftPage = await site.createPage({ title: 'Unfinished', slug: 'unfinished', content: 'Not yet.', status: 'draft' });

  image = await uploadPng(800, 400, 'harbour.png', '?title=Harbour%20view&alt_text=Boats%20in%20a%20harbour&caption=Morning%20light');
  hiddenImage = await uploadPng(40, 20, 'hidden.png', `?post=${draft.id}`);
  featuredPost = await site.createPost({ title: 'With a picture', content: 'Look at this.', status: 'publish', featured_media: image.id, date: '2026-01-15T09:00:00' });
}, 120_000);

afterAll(async () => {
  await site?.close();
  if (uploadsDir) await rm(uploadsDir, { recursive: true, force: true });
});

function expectHtml(res: { status: number; headers: Headers; text: string }, status = 200) {
  expect(res.status).toBe(status);
  expect(res.headers.get('content-type')).toBe('text/html; charset=UTF-8');
  expect(res.text.startsWith('<!doctype html>')).toBe(true);
  expect(res.text).toMatch(/<title>[^<]+<\/title>/);
  expect(res.text).toContain(`<link rel="https://api.w.org/" href="${API_ROOT}">`);
}

describe('home page', () => {
  it('lists the ten newest published posts, newest first, with title link, date and excerpt', async () => {
    const res = await get('/');
    expectHtml(res);
    expect(res.headers.get('link')).toBe(DISCOVERY);
    const shown = [...res.text.matchAll(/<h2 class="entry-title"><a href="([^"]+)" rel="bookmark">([^<]+)<\/a>/g)].map((m) => [m[1], m[2]]);
    // Day 13 is the protected post; then days 12 … 4.
    expect(shown.map((s) => s[1])).toEqual(['Protected: Members only', ...[12, 11, 10, 9, 8, 7, 6, 5, 4].map((d) => `Entry number ${d}`)]);
    expect(shown[1][0]).toBe(posts[11].link);
    expect(res.text).toContain('<time datetime="2026-03-12T09:00:00Z">March 12, 2026</time>');
    expect(res.text).toContain('<p>Summary of entry 12</p>');
    expect(res.text).not.toContain('Entry number 3<');
  });

  it('shows the site title and description, escaped', async () => {
    const res = await get('/');
    expect(res.text).toContain('<title>Field &lt;Notes&gt; &amp; Co &#8211; Writing about &quot;things&quot;</title>');
    expect(res.text).toContain('>Field &lt;Notes&gt; &amp; Co</a>');
    expect(res.text).toContain('<p class="site-description">Writing about &quot;things&quot;</p>');
    expect(res.text).not.toContain('<Notes>');
  });

  it('never shows drafts, private, scheduled or trashed posts, nor a protected post\'s text', async () => {
    const res = await get('/');
    for (const hidden of ['Secret draft', 'Private notes', 'Coming soon', 'Thrown away', 'Locked summary words', 'Locked body words']) expect(res.text).not.toContain(hidden);
    expect(res.text).toContain('This content is protected by a password.');
  });

  it('answers HEAD with the same status and headers and no body', async () => {
    const res = await get('/', 'HEAD');
    expect(res.status).toBe(200);
    expect(res.headers.get('link')).toBe(DISCOVERY);
    expect(res.headers.get('content-type')).toBe('text/html; charset=UTF-8');
    expect(res.text).toBe('');
  });
});

describe('singular pages', () => {
  it('a post at its permalink: content, REST and oEmbed discovery in headers and markup', async () => {
    const post = posts[4];
    expect(post.link).toBe(`${SITE}/entry-number-5/`);
    const res = await get(post.link);
    expectHtml(res);
    expect(res.headers.get('link')).toBe(`${DISCOVERY}, ${alternate('posts', post.id)}`);
    expect(res.text).toContain('<h1 class="entry-title">Entry number 5</h1>');
    expect(res.text).toContain('<p>Body text of entry 5.</p>');
    expect(res.text).toContain('<title>Entry number 5 &#8211; Field &lt;Notes&gt; &amp; Co</title>');
    expect(res.text).toContain(`<link rel="alternate" title="JSON" type="application/json" href="${API_ROOT}core/v2/posts/${post.id}">`);
    expect(res.text).toContain(`<link rel="alternate" title="oEmbed (JSON)" type="application/json+oembed" href="${oembedHref(post.link)}">`);
    expect(res.text).toContain(`<link rel="alternate" title="oEmbed (XML)" type="text/xml+oembed" href="${oembedHref(post.link, true)}">`);
    expect(res.text).toContain(`<link rel="canonical" href="${post.link}">`);
  });

  it('HEAD of a post carries both Link entries and no body', async () => {
    const res = await get(posts[4].link, 'HEAD');
    expect(res.status).toBe(200);
    expect(res.headers.get('link')).toBe(`${DISCOVERY}, ${alternate('posts', posts[4].id)}`);
    expect(res.text).toBe('');
  });

  it('the discovery header is one a Link parser reads: the API root and the item\'s JSON', async () => {
    const res = await get(posts[4].link);
    const entries = (res.headers.get('link') ?? '').split(/,\s*(?=<)/).map((e) => {
      const [, href, params] = /^<([^>]+)>(.*)$/.exec(e)!;
      return { href, params: Object.fromEntries([...params.matchAll(/;\s*(\w+)="([^"]*)"/g)].map((m) => [m[1], m[2]])) };
    });
    expect(entries).toEqual([
      { href: API_ROOT, params: { rel: 'https://api.w.org/' } },
      { href: `${API_ROOT}core/v2/posts/${posts[4].id}`, params: { rel: 'alternate', title: 'JSON', type: 'application/json' } },
    ]);
    // The alternate link is the REST item itself.
    const item = await site.req('GET', entries[1].href);
    expect(item.status).toBe(200);
    expect(item.body.id).toBe(posts[4].id);
  });

  it('a permalink without its trailing slash moves to the permalink', async () => {
    const res = await get(`${SITE}/entry-number-5`);
    expect(res.status).toBe(301);
    expect(res.headers.get('location')).toBe(posts[4].link);
    expect(res.headers.get('link')).toBe(DISCOVERY);
  });

  it('a nested page at the path of its whole parent chain', async () => {
    expect(linux.link).toBe(`${SITE}/guide/install/linux/`);
    const res = await get(linux.link);
    expectHtml(res);
    expect(res.headers.get('link')).toBe(`${DISCOVERY}, ${alternate('pages', linux.id)}`);
    expect(res.text).toContain('<h1 class="entry-title">Linux</h1>');
    expect(res.text).toContain('<p>Install on Linux.</p>');
    expect((await get(install.link)).text).toContain('<h1 class="entry-title">Install</h1>');
  });

  it('a page under a wrong or partial parent chain is not found', async () => {
    for (const path of ['/install/linux/', '/guide/linux/', '/linux/', '/other/install/linux/', '/guide/install/linux/extra/', '/install/guide/linux/']) {
      const res = await get(path);
      expect(res.status, path).toBe(404);
      expect(res.text, path).not.toContain('Install on Linux.');
    }
  });

  it('plain links of published items move to their permalinks', async () => {
    let res = await get(`/?p=${posts[4].id}`);
    expect(res.status).toBe(301);
    expect(res.headers.get('location')).toBe(posts[4].link);
    res = await get(`/?page_id=${linux.id}`);
    expect(res.status).toBe(301);
    expect(res.headers.get('location')).toBe(linux.link);
    res = await get(`/?p=${posts[4].id}&embed=true`);
    expect(res.status).toBe(301);
    expect(res.headers.get('location')).toBe(`${posts[4].link}embed/`);
    // Each plain form names its own type.
    expect((await get(`/?p=${linux.id}`)).status).toBe(404);
    expect((await get(`/?page_id=${posts[4].id}`)).status).toBe(404);
    expect((await get('/?p=abc')).status).toBe(404);
  });

  it('a post with a featured image shows it', async () => {
    const res = await get(featuredPost.link);
    expect(res.status).toBe(200);
    expect(res.text).toMatch(new RegExp(`<img src="${image.media_details.sizes.large?.source_url ?? image.source_url}" width="\\d+" height="\\d+" alt="Boats in a harbour"`));
  });
});

describe('attachment pages', () => {
  it('the plain link an attachment prints shows the image, linked to the file', async () => {
    expect(image.link).toBe(`${SITE}/?attachment_id=${image.id}`);
    const res = await get(image.link);
    expectHtml(res);
    expect(res.headers.get('link')).toBe(`${DISCOVERY}, ${alternate('media', image.id)}`);
    expect(res.text).toContain('<h1 class="entry-title">Harbour view</h1>');
    expect(res.text).toContain(`<a href="${image.source_url}"><img src="`);
    expect(res.text).toContain('alt="Boats in a harbour"');
    expect(res.text).toContain('<p>Morning light</p>');
    expect(res.text).toContain(`href="${oembedHref(image.link)}"`);
    // The file it links to is served.
    const file = await site.app.fetch(new Request(image.source_url));
    expect(file.status).toBe(200);
    expect(file.headers.get('content-type')).toBe('image/png');
  });

  it('an attachment of an unpublished post is not shown', async () => {
    const res = await get(`/?attachment_id=${hiddenImage.id}`);
    expect(res.status).toBe(404);
    expect(res.text).not.toContain('hidden');
  });
});

describe('embed pages', () => {
  it('a post\'s embed card: title, excerpt, site name, sizing script, and framing allowed', async () => {
    const post = posts[6];
    const res = await get(`${post.link}embed/`);
    expectHtml(res);
    expect(res.headers.get('x-frame-options')).toBeNull();
    expect(res.headers.get('content-security-policy')).toBeNull();
    expect(res.headers.get('link')).toBe(`${DISCOVERY}, ${alternate('posts', post.id)}`);
    expect(res.text).toContain(`<a href="${post.link}" target="_top">Entry number 7</a>`);
    expect(res.text).toContain('<p>Summary of entry 7</p>');
    expect(res.text).toContain('>Field &lt;Notes&gt; &amp; Co</a>');
    expect(res.text).toContain('<meta name="robots" content="noindex, follow">');
    expect(res.text).toMatch(/<script>[\s\S]*postMessage[\s\S]*<\/script>/);
    expect(res.text).not.toContain('Body text of entry 7');
  });

  it('pages and attachments have embed cards too', async () => {
    const page = await get(`${linux.link}embed/`);
    expect(page.status).toBe(200);
    expect(page.text).toContain(`<a href="${linux.link}" target="_top">Linux</a>`);
    const media = await get(`${image.link}&embed=true`);
    expect(media.status).toBe(200);
    expect(media.text).toContain('class="embed-image"');
    expect(media.text).toContain(`<a href="${image.link.replace('&', '&amp;')}" target="_top">Harbour view</a>`);
  });

  it('an embed path spelled without its slash moves; an unknown item\'s embed is not found', async () => {
    const res = await get(`${posts[6].link}embed`);
    expect(res.status).toBe(301);
    expect(res.headers.get('location')).toBe(`${posts[6].link}embed/`);
    expect((await get('/no-such-post/embed/')).status).toBe(404);
    expect((await get(`/${draft.slug || 'secret-draft'}/embed/`)).status).toBe(404);
  });
});

describe('what anonymous readers do not get', () => {
  it('drafts, private, scheduled and trashed posts are not found at any address', async () => {
    for (const post of [draft, privatePost, scheduled, trashed]) {
      for (const path of [`/?p=${post.id}`, post.link, `/${post.slug || 'x'}/`, `/${post.slug || 'x'}/embed/`, `${SITE}/${post.generated_slug}/`]) {
        const res = await get(path.startsWith('http') ? path : `${SITE}${path}`);
        expect(res.status, `${post.status} ${path}`).toBe(404);
        expect(res.headers.get('link'), path).toBe(DISCOVERY);
        expect(res.text).not.toContain(post.content.raw);
      }
    }
    expect((await get(`/?page_id=${draftPage.id}`)).status).toBe(404);
    expect((await get('/unfinished/')).status).toBe(404);
  });

  it('a password-protected post shows its title and a notice, never its content or excerpt', async () => {
    for (const path of [locked.link, `${locked.link}embed/`]) {
      const res = await get(path);
      expect(res.status, path).toBe(200);
      expect(res.text).toContain('Protected: Members only');
      expect(res.text).toContain('This content is protected by a password.');
      expect(res.text).not.toContain('Locked body words');
      expect(res.text).not.toContain('Locked summary words');
    }
  });
});

describe('other addresses', () => {
  it('an unknown address is an HTML 404 that still advertises the API', async () => {
    for (const path of ['/no-such-thing/', '/a/b/c/', '/favicon.ico', '/%ff/']) {
      const res = await get(path);
      expectHtml(res, 404);
      expect(res.headers.get('link')).toBe(DISCOVERY);
      expect(res.text).toContain('Page not found');
    }
    const head = await get('/no-such-thing/', 'HEAD');
    expect(head.status).toBe(404);
    expect(head.headers.get('link')).toBe(DISCOVERY);
    expect(head.text).toBe('');
  });

  it('methods other than GET and HEAD are refused with 405 and Allow', async () => {
    for (const method of ['POST', 'PUT', 'DELETE']) {
      const res = await get(posts[0].link, method);
      expect(res.status).toBe(405);
      expect(res.headers.get('allow')).toBe('GET, HEAD');
      expect(res.headers.get('content-type')).toBe('text/html; charset=UTF-8');
    }
  });

  it('REST, GraphQL and the uploads keep their own answers', async () => {
    expect((await site.req('GET', '/')).body.namespaces).toContain('core/v2');
    expect((await get(`/?rest_route=/core/v2/posts/${posts[0].id}`)).body.id).toBe(posts[0].id);
    expect((await site.gql('{ posts(perPage: 1) { total } }')).data.posts.total).toBeGreaterThan(0);
    expect((await get('/wp-content/uploads/nothing-here.png')).status).toBe(404);
  });

  it('a static front page (show_on_front=page) is shown at the home address when published', async () => {
    try {
      await setOption(site.db.prisma, 'show_on_front', 'page');
      await setOption(site.db.prisma, 'page_on_front', guide.id);
      let res = await get('/');
      expectHtml(res);
      expect(res.headers.get('link')).toBe(`${DISCOVERY}, ${alternate('pages', guide.id)}`);
      expect(res.text).toContain('<h1 class="entry-title">Guide</h1>');
      expect(res.text).not.toContain('Entry number 12');
      // A front page nobody may read leaves the list of posts in place.
      await setOption(site.db.prisma, 'page_on_front', draftPage.id);
      res = await get('/');
      expect(res.status).toBe(200);
      expect(res.text).toContain('Entry number 12');
      expect(res.text).not.toContain('Not yet.');
    } finally {
      await setOption(site.db.prisma, 'show_on_front', 'posts');
      await setOption(site.db.prisma, 'page_on_front', 0);
    }
  });

  it('a new post shows on the home page at once (the page cache follows writes)', async () => {
    expect((await get('/')).text).not.toContain('Fresh arrival');
    await site.createPost({ title: 'Fresh arrival', status: 'publish', content: 'New.' });
    expect((await get('/')).text).toContain('Fresh arrival');
  });
});
