// The site's list pages besides the home page: category archives (nested ones by their chain, with
// their children's posts), tag archives and author pages, by their pretty paths and WordPress's
// plain queries; their pages (/page/N/, ?paged=N) and what is past the end; the discovery links
// they carry; escaping; and their cost in SQL statements, which does not grow with the posts.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestSite, SITE, type TestSite } from '../helpers/app.js';
import { setOption } from '../../src/site/options.js';

const API_ROOT = `${SITE}/wp-json/`;
const DISCOVERY = `<${API_ROOT}>; rel="https://api.w.org/"`;
const alternate = (base: string, id: number) => `<${API_ROOT}core/v2/${base}/${id}>; rel="alternate"; title="JSON"; type="application/json"`;
const SITE_NAME = 'Archive &amp; Co';

let site: TestSite;
let news: any, local: any, sports: any, many: any, hostile: any, featured: any;
let ada: any, quiet: any, drafter: any;
let newsPost: any, localPost: any, sportsPost: any, draft: any;
const manyPosts: any[] = [];

const get = (path: string, method = 'GET') => site.req(method, path.startsWith('http') ? path : `${SITE}${path}`);
/** Titles of the listed posts, in order. */
const listed = (html: string) => [...html.matchAll(/<h2 class="entry-title"><a href="[^"]+" rel="bookmark">([^<]*)<\/a>/g)].map((m) => m[1]);
const headLink = (html: string, rel: string) => new RegExp(`<link rel="${rel}" href="([^"]+)">`).exec(html)?.[1];

function expectPage(res: { status: number; headers: Headers; text: string }, status = 200) {
  expect(res.status, res.text.slice(0, 300)).toBe(status);
  expect(res.headers.get('content-type')).toBe('text/html; charset=UTF-8');
  expect(res.text.startsWith('<!doctype html>')).toBe(true);
  expect(res.text).toContain(`<link rel="https://api.w.org/" href="${API_ROOT}">`);
}

async function expectMoved(path: string, to: string) {
  const res = await get(path);
  expect(res.status, `${path}: ${res.text.slice(0, 200)}`).toBe(301);
  expect(res.headers.get('location')).toBe(to);
}

async function expectNotFound(path: string) {
  const res = await get(path);
  expectPage(res, 404);
  expect(res.text).toContain('Page not found');
}

beforeAll(async () => {
  site = await createTestSite();
  await setOption(site.db.prisma, 'blogname', 'Archive & Co');
  await setOption(site.db.prisma, 'posts_per_page', 4);
  news = await site.createTerm('categories', { name: 'News' });
  local = await site.createTerm('categories', { name: 'Local', parent: news.id });
  sports = await site.createTerm('categories', { name: 'Sports' });
  many = await site.createTerm('categories', { name: 'Many' });
  hostile = await site.createTerm('categories', { name: '<script>alert(1)</script> Tips & "tricks"', slug: 'hostile' });
  featured = await site.createTerm('tags', { name: 'Featured' });
  ada = await site.createUser({ username: 'ada', name: 'Ada <Writer>', roles: ['author'] });
  quiet = await site.createUser({ username: 'quiet', name: 'Quiet Person', roles: ['author'] });
  drafter = await site.createUser({ username: 'drafter', name: 'Draft Only', roles: ['author'] });

  newsPost = await site.createPost({ title: 'News one', excerpt: 'About the news', status: 'publish', categories: [news.id], date: '2026-01-01T09:00:00' });
  localPost = await site.createPost({ title: 'Local story', status: 'publish', categories: [local.id], date: '2026-01-02T09:00:00', author: ada.id });
  sportsPost = await site.createPost({ title: 'Sports match', status: 'publish', categories: [sports.id], tags: [featured.id], date: '2026-01-03T09:00:00', author: ada.id });
  draft = await site.createPost({ title: 'Draft in news', status: 'draft', categories: [news.id], tags: [featured.id], date: '2026-01-04T09:00:00', author: ada.id });
  await site.createPost({ title: 'Unpublished thoughts', status: 'draft', author: drafter.id });
  await site.createPost({ title: 'Hostile listed', status: 'publish', categories: [hostile.id], date: '2025-12-01T09:00:00' });
  // Nine posts in one category, a day apart: pages of four are 4, 4 and 1.
  for (let day = 1; day <= 9; day++) {
    manyPosts.push(await site.createPost({ title: `Many ${day}`, status: 'publish', categories: [many.id], date: `2026-02-${String(day).padStart(2, '0')}T09:00:00` }));
  }
}, 120_000);

afterAll(async () => { await site?.close(); });

describe('category archives', () => {
  it('lists the published posts of a category and of its children, newest first, with the archive title', async () => {
    expect(news.link).toBe(`${SITE}/category/news/`);
    const res = await get('/category/news/');
    expectPage(res);
    expect(listed(res.text)).toEqual(['Local story', 'News one']);
    expect(res.text).toContain('<h1 class="page-title">Category: <span>News</span></h1>');
    expect(res.text).toContain(`<title>News &#8211; ${SITE_NAME}</title>`);
    expect(res.text).toContain(`<a href="${newsPost.link}" rel="bookmark">News one</a>`);
    expect(res.text).toContain('<time datetime="2026-01-01T09:00:00Z">January 1, 2026</time>');
    expect(res.text).toContain('<p>About the news</p>');
    expect(res.text).toContain(`<body class="archive category category-news category-${news.id}">`);
    // A draft is never listed, on any archive it belongs to.
    expect(res.text).not.toContain('Draft in news');
    expect(res.text).not.toContain('Sports match');
  });

  it('answers the plain ?cat=ID and ?category_name= forms by moving to the pretty address', async () => {
    await expectMoved(`/?cat=${news.id}`, `${SITE}/category/news/`);
    await expectMoved(`/?cat=${local.id}`, `${SITE}/category/news/local/`);
    await expectMoved('/?category_name=news/local', `${SITE}/category/news/local/`);
    await expectMoved(`/?cat=${many.id}&paged=2`, `${SITE}/category/many/page/2/`);
    // The address it moves to is served.
    expect(listed((await get('/category/news/local/')).text)).toEqual(['Local story']);
  });

  it('serves a child category at its chain of slugs; its slug alone moves there; a wrong chain is not found', async () => {
    expect(local.link).toBe(`${SITE}/category/news/local/`);
    const res = await get('/category/news/local/');
    expectPage(res);
    expect(res.text).toContain('Category: <span>Local</span>');
    expect(listed(res.text)).toEqual(['Local story']);
    await expectMoved('/category/local/', `${SITE}/category/news/local/`);
    await expectMoved('/category/news', `${SITE}/category/news/`);
    await expectNotFound('/category/sports/local/');
    await expectNotFound('/category/nothing/local/');
    await expectNotFound('/category/news/local/embed/');
  });

  it('an existing category without published posts is an empty archive, as WordPress answers it', async () => {
    const empty = await site.createTerm('categories', { name: 'Empty shelf' });
    const res = await get('/category/empty-shelf/');
    expectPage(res);
    expect(listed(res.text)).toEqual([]);
    expect(res.text).toContain('Nothing has been published here yet.');
    expect(empty.count).toBe(0);
    await expectNotFound('/category/empty-shelf/page/2/');
  });

  it('escapes the term name in the title, the heading and everywhere else', async () => {
    const res = await get('/category/hostile/');
    expectPage(res);
    expect(res.text).toContain('<title>&lt;script&gt;alert(1)&lt;/script&gt; Tips &amp; &quot;tricks&quot; &#8211; Archive &amp; Co</title>');
    expect(res.text).toContain('Category: <span>&lt;script&gt;alert(1)&lt;/script&gt; Tips &amp; &quot;tricks&quot;</span>');
    expect(res.text).not.toContain('<script');
    expect(listed(res.text)).toEqual(['Hostile listed']);
  });
});

describe('tag archives', () => {
  it('lists a tag\'s published posts at /tag/{slug}/ and moves ?tag= there', async () => {
    expect(featured.link).toBe(`${SITE}/tag/featured/`);
    const res = await get('/tag/featured/');
    expectPage(res);
    expect(res.text).toContain('<h1 class="page-title">Tag: <span>Featured</span></h1>');
    expect(listed(res.text)).toEqual(['Sports match']);
    expect(res.headers.get('link')).toBe(`${DISCOVERY}, ${alternate('tags', featured.id)}`);
    await expectMoved('/?tag=featured', `${SITE}/tag/featured/`);
    await expectMoved(`/?tag_id=${featured.id}`, `${SITE}/tag/featured/`);
    await expectNotFound('/tag/featured/extra/');
  });
});

describe('author pages', () => {
  it('lists an author\'s published posts under their name, escaped', async () => {
    expect(ada.slug).toBe('ada');
    const res = await get('/author/ada/');
    expectPage(res);
    expect(listed(res.text)).toEqual(['Sports match', 'Local story']);
    expect(res.text).toContain('<h1 class="page-title">Author: <span>Ada &lt;Writer&gt;</span></h1>');
    expect(res.text).toContain(`<title>Ada &lt;Writer&gt; &#8211; ${SITE_NAME}</title>`);
    expect(res.text).not.toContain('Draft in news');
    expect(res.text).not.toContain('<Writer>');
  });

  it('moves ?author=ID and ?author_name= to the author\'s address', async () => {
    await expectMoved(`/?author=${ada.id}`, `${SITE}/author/ada/`);
    await expectMoved('/?author_name=ada', `${SITE}/author/ada/`);
  });

  it('has no page for a user with nothing published (as the REST API shows them to no one), nor for an unknown one', async () => {
    for (const user of [quiet, drafter]) {
      await expectNotFound(`/author/${user.slug}/`);
      await expectNotFound(`/?author=${user.id}`);
      expect((await site.req('GET', `/core/v2/users/${user.id}`)).status).toBe(401);
    }
    await expectNotFound('/author/nobody-here/');
    await expectNotFound('/?author=999999');
    await expectNotFound('/?author=abc');
    await expectNotFound('/author/ada/extra/');
  });
});

describe('pages of a list', () => {
  it('pages a category by posts_per_page with older and newer links, in the page and in <head>', async () => {
    const first = await get('/category/many/');
    expectPage(first);
    expect(listed(first.text)).toEqual(['Many 9', 'Many 8', 'Many 7', 'Many 6']);
    expect(headLink(first.text, 'next')).toBe(`${SITE}/category/many/page/2/`);
    expect(headLink(first.text, 'prev')).toBeUndefined();
    expect(first.text).toContain(`<a href="${SITE}/category/many/page/2/">Older posts</a>`);

    const second = await get('/category/many/page/2/');
    expectPage(second);
    expect(listed(second.text)).toEqual(['Many 5', 'Many 4', 'Many 3', 'Many 2']);
    expect(headLink(second.text, 'prev')).toBe(`${SITE}/category/many/`);
    expect(headLink(second.text, 'next')).toBe(`${SITE}/category/many/page/3/`);
    expect(second.text).toContain(`<a href="${SITE}/category/many/">Newer posts</a>`);
    expect(second.text).toContain(`<title>Many &#8211; Page 2 &#8211; ${SITE_NAME}</title>`);
    expect(second.text).toContain('paged paged-2 category-paged-2');

    const last = await get('/category/many/page/3/');
    expect(listed(last.text)).toEqual(['Many 1']);
    expect(headLink(last.text, 'next')).toBeUndefined();
    expect(last.text).not.toContain('Older posts');
  });

  it('a page past the end is not found; page 1 and ?paged= move to the canonical address', async () => {
    await expectNotFound('/category/many/page/4/');
    await expectNotFound('/category/many/page/999999999/');
    await expectNotFound('/author/ada/page/2/');
    await expectNotFound('/?paged=abc');
    await expectMoved('/category/many/page/1/', `${SITE}/category/many/`);
    await expectMoved('/category/many/?paged=3', `${SITE}/category/many/page/3/`);
    await expectMoved('/?paged=2', `${SITE}/page/2/`);
  });

  it('pages the home page the same way', async () => {
    const first = await get('/');
    expectPage(first);
    expect(listed(first.text)).toEqual(['Many 9', 'Many 8', 'Many 7', 'Many 6']);
    expect(headLink(first.text, 'next')).toBe(`${SITE}/page/2/`);
    expect(first.headers.get('link')).toBe(DISCOVERY);
    // 13 published posts: pages of 4, 4, 4 and 1.
    const fourth = await get('/page/4/');
    expectPage(fourth);
    expect(listed(fourth.text)).toEqual(['Hostile listed']);
    expect(headLink(fourth.text, 'prev')).toBe(`${SITE}/page/3/`);
    expect(fourth.text).toContain(`<title>${SITE_NAME} &#8211; Page 4</title>`);
    await expectNotFound('/page/5/');
  });
});

describe('unknown and hidden terms', () => {
  it('a term that does not exist, or of a taxonomy the site does not publish, is not found', async () => {
    for (const path of ['/category/nothing/', '/tag/nothing/', '/?cat=999999', '/?cat=abc', '/?tag=nothing', `/?cat=${featured.id}`, `/?tag_id=${news.id}`]) {
      await expectNotFound(path);
    }
    // A term stored under a taxonomy outside the registry (a navigation menu, say) has no archive.
    const menu = await site.db.prisma.term.create({ data: { taxonomy: 'nav_menu', name: 'Main menu', slug: 'main-menu' } });
    await expectNotFound(`/?cat=${menu.id}`);
    await expectNotFound('/nav_menu/main-menu/');
  });

  it('two archives asked at once are not a page here', async () => {
    await expectNotFound(`/?cat=${news.id}&author=${ada.id}`);
  });
});

describe('discovery', () => {
  it('a term archive links its REST record in the Link header and in <head>, and the record answers', async () => {
    const res = await get('/category/news/');
    expect(res.headers.get('link')).toBe(`${DISCOVERY}, ${alternate('categories', news.id)}`);
    expect(res.text).toContain(`<link rel="alternate" title="JSON" type="application/json" href="${API_ROOT}core/v2/categories/${news.id}">`);
    const record = await site.req('GET', `${API_ROOT}core/v2/categories/${news.id}`);
    expect(record.status).toBe(200);
    expect(record.body).toMatchObject({ id: news.id, link: `${SITE}/category/news/` });
  });

  it('an author page links the user\'s REST record, which anyone may read', async () => {
    const res = await get('/author/ada/');
    expect(res.headers.get('link')).toBe(`${DISCOVERY}, ${alternate('users', ada.id)}`);
    expect(res.text).toContain(`<link rel="alternate" title="JSON" type="application/json" href="${API_ROOT}core/v2/users/${ada.id}">`);
    const record = await site.req('GET', `${API_ROOT}core/v2/users/${ada.id}`);
    expect(record.status).toBe(200);
    expect(record.body).toMatchObject({ id: ada.id, link: `${SITE}/author/ada/` });
  });

  it('HEAD of an archive carries the same status and Link header and no body', async () => {
    const res = await get('/tag/featured/', 'HEAD');
    expect(res.status).toBe(200);
    expect(res.headers.get('link')).toBe(`${DISCOVERY}, ${alternate('tags', featured.id)}`);
    expect(res.text).toBe('');
  });
});

describe('deployment B', () => {
  it('a term archive and an author page print the SEO head; a page whose object the head does not know keeps its plain title', async () => {
    const b = await createTestSite({ deployment: 'B' });
    try {
      const cat = await b.createTerm('categories', { name: 'Bee news' });
      const writer = await b.createUser({ username: 'bee', name: 'Bee Writer', roles: ['author'] });
      const pager = await b.createUser({ username: 'pager', name: 'Page Only', roles: ['editor'] });
      await b.createPost({ title: 'Bee post', status: 'publish', categories: [cat.id], author: writer.id });
      await b.createPage({ title: 'A page', status: 'publish', author: pager.id });
      for (const [path, canonical] of [['/category/bee-news/', cat.link], ['/author/bee/', `${SITE}/author/bee/`]]) {
        const res = await b.req('GET', `${SITE}${path}`);
        expect(res.status, res.text.slice(0, 300)).toBe(200);
        expect(res.text).toContain(`<link rel="canonical" href="${canonical}"`);
        expect(res.text.match(/<title>/g)).toHaveLength(1);
        expect(res.text).toContain('Bee post');
      }
      // Published content but no post: the page lists nothing, under its own title (the head would say "not found").
      const res = await b.req('GET', `${SITE}/author/pager/`);
      expect(res.status).toBe(200);
      expect(res.text).toContain(`<title>Page Only &#8211; `);
      expect(res.text).toContain('Nothing has been published here yet.');
    } finally {
      await b.close();
    }
  });
});

describe('cost', () => {
  it('a list page costs the same SQL statements at 3 posts and at 25', async () => {
    const counted = await site.createTerm('categories', { name: 'Counted' });
    const writer = await site.createUser({ username: 'counter', name: 'Counter', roles: ['author'] });
    const add = async (n: number) => {
      for (let i = 0; i < n; i++) await site.createPost({ title: `Counted ${i}`, status: 'publish', categories: [counted.id], author: writer.id });
    };
    // Each measure follows a write, so no page comes from the response cache.
    const cost = async (path: string) => {
      await site.req('POST', '/core/v2/posts', { as: 'administrator', json: { title: 'cache buster', status: 'draft' } });
      const before = site.db.statements;
      const res = await get(path);
      expect(res.status).toBe(200);
      return site.db.statements - before;
    };
    const paths = ['/category/counted/', '/author/counter/', '/'];
    const measure = async () => {
      const out: Record<string, number> = {};
      for (const p of paths) out[p] = await cost(p);
      return out;
    };
    await add(3);
    const small = await measure();
    await add(22);
    const large = await measure();
    expect(large).toEqual(small);
    // The term (a category's tree at once) or the author, then the rows; the home page needs the rows alone.
    expect(large['/category/counted/']).toBe(2);
    expect(large['/author/counter/']).toBe(2);
    expect(large['/']).toBe(1);
    // A later page adds the one statement that checks it is not past the end.
    expect(await cost('/category/counted/page/2/')).toBe(large['/category/counted/'] + 1);
    expect(await cost('/category/counted/page/6/')).toBe(large['/category/counted/'] + 1);
  });
});
