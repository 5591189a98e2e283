import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestSite, API, SITE, type TestSite } from '../helpers/app.js';

let site: TestSite;
let postId: number;
beforeAll(async () => {
  site = await createTestSite();
  postId = (await site.req('POST', '/core/v2/posts', { as: 'administrator', json: { title: 'Indexed', content: 'Text', status: 'publish' } })).body.id;
});
afterAll(async () => { await site?.close(); });

describe('index', () => {
  it('describes the site with exact types', async () => {
    const res = await site.req('GET', '/');
    expect(res.status).toBe(200);
    const b = res.body;
    expect(b.name).toBe('My Site');
    expect(b.url).toBe(SITE);
    expect(b.home).toBe(SITE);
    expect(b.gmt_offset).toBe('0');
    expect(b.timezone_string).toBe('');
    expect(b.page_for_posts).toBe(0);
    expect(b.page_on_front).toBe(0);
    expect(b.show_on_front).toBe('posts');
    expect(b.namespaces).toEqual(['oembed/1.0', 'forms/v1', 'widgets/v1', 'core/v2', 'site-health/v1', 'block-editor/v1', 'abilities/v1', 'webhooks/v1']);
    expect(b.authentication).toEqual({ 'application-passwords': { endpoints: { authorization: `${SITE}/wp-admin/authorize-application.php` } } });
    expect(b.routes['/'].namespace).toBe('');
    const posts = b.routes['/core/v2/posts'];
    expect(posts.namespace).toBe('core/v2');
    expect(posts.methods).toEqual(['GET', 'POST']);
    expect(posts.endpoints[0].allow_batch).toEqual({ v1: true });
    expect(posts.endpoints[0].args.per_page).toEqual({ description: expect.any(String), type: 'integer', default: 10, minimum: 1, maximum: 100, required: false });
    expect(posts.endpoints[0].args.status.default).toBe('publish');
    expect(posts._links.self[0].href).toBe(`${API}/core/v2/posts`);
    const item = b.routes['/core/v2/posts/(?P<id>[\\d]+)'];
    expect(item.methods).toEqual(['GET', 'POST', 'PUT', 'PATCH', 'DELETE']);
    expect(item.endpoints.map((e: { methods: string[] }) => e.methods)).toEqual([['GET'], ['POST', 'PUT', 'PATCH'], ['DELETE']]);
    expect(item.endpoints[1].args.title.properties.raw.context).toEqual(['edit']);
    expect(item.endpoints[1].args.title.skipValidation).toBeUndefined();
    expect(res.headers.get('link')).toBe(`<${API}/>; rel="https://api.w.org/"`);
  });

  it('lists deployment B namespaces with seo/v1', async () => {
    const b = await createTestSite({ deployment: 'B' });
    try {
      expect((await b.req('GET', '/')).body.namespaces).toContain('seo/v1');
      expect((await b.req('GET', '/seo/v1')).status).toBe(200);
    } finally { await b.close(); }
    expect(await site.req('GET', '/seo/v1')).toBeWpError(404, 'rest_no_route');
  });

  it('serves a namespace index for every namespace', async () => {
    for (const ns of ['oembed/1.0', 'forms/v1', 'widgets/v1', 'core/v2']) {
      const res = await site.req('GET', `/${ns}`);
      expect(res.status, ns).toBe(200);
      expect(res.body.namespace).toBe(ns);
      expect(res.body._links.up[0].href).toBe(`${API}/`);
      expect(Object.values(res.body.routes).every((r: any) => r.namespace === ns)).toBe(true);
    }
    const core = (await site.req('GET', '/core/v2')).body;
    expect(Object.keys(core.routes)).toContain('/core/v2/posts');
    expect(core.routes['/core/v2'].endpoints[0].args.namespace.default).toBe('core/v2');
  });
});

describe('global parameters and headers', () => {
  it('answers unknown routes and wrong methods with rest_no_route 404', async () => {
    expect(await site.req('GET', '/core/v2/nothing')).toBeWpError(404, 'rest_no_route');
    expect(await site.req('PUT', '/core/v2/posts', { as: 'administrator' })).toBeWpError(404, 'rest_no_route');
    expect(await site.req('GET', '/core/v2/posts/abc')).toBeWpError(404, 'rest_no_route');
  });

  it('serves ?rest_route= and strips trailing slashes', async () => {
    const res = await site.req('GET', `${SITE}/?rest_route=/core/v2/posts/${postId}`);
    expect(res.status).toBe(200);
    expect(res.body.id).toBe(postId);
    expect((await site.req('GET', '/core/v2/posts/')).status).toBe(200);
  });

  it('overrides the method with _method and X-HTTP-Method-Override', async () => {
    const id = (await site.req('POST', '/core/v2/posts', { as: 'administrator', json: { title: 'To trash' } })).body.id;
    const viaQuery = await site.req('POST', `/core/v2/posts/${id}?_method=DELETE`, { as: 'administrator' });
    expect(viaQuery.body.status).toBe('trash');
    const viaHeader = await site.req('POST', `/core/v2/posts/${id}?force=true`, { as: 'administrator', headers: { 'X-HTTP-Method-Override': 'DELETE' } });
    expect(viaHeader.body.deleted).toBe(true);
  });

  it('wraps in _envelope with typed headers', async () => {
    const res = await site.req('GET', '/core/v2/posts?_envelope');
    expect(res.status).toBe(200);
    expect(res.body.status).toBe(200);
    expect(res.body.headers['X-WP-Total']).toBe(1);
    expect(Array.isArray(res.body.body)).toBe(true);
    const missing = await site.req('GET', '/core/v2/posts/987654?_envelope=1');
    expect(missing.status).toBe(200);
    expect(missing.body.status).toBe(404);
    expect(missing.body.body.code).toBe('rest_post_invalid_id');
  });

  it('prunes with _fields, nested paths included', async () => {
    const res = await site.req('GET', `/core/v2/posts/${postId}?_fields=id,title.rendered`);
    expect(res.body).toEqual({ id: postId, title: { rendered: 'Indexed' } });
    const list = await site.req('GET', '/core/v2/posts?_fields[]=id&_fields[]=slug');
    expect(list.body).toEqual([{ id: postId, slug: 'indexed' }]);
    expect((await site.req('GET', `/core/v2/posts/${postId}?_fields=nothing`)).body).toEqual([]);
  });

  it('answers HEAD like GET without a body', async () => {
    const res = await site.req('HEAD', '/core/v2/posts');
    expect(res.status).toBe(200);
    expect(res.text).toBe('');
    expect(res.headers.get('x-wp-total')).toBe('1');
  });

  it('answers OPTIONS from the table with Allow per caller', async () => {
    const anon = await site.req('OPTIONS', '/core/v2/posts');
    expect(anon.status).toBe(200);
    expect(anon.body.namespace).toBe('core/v2');
    expect(anon.body.endpoints[1].args.title.type).toBe('object');
    expect(anon.headers.get('allow')).toBe('GET');
    const admin = await site.req('OPTIONS', '/core/v2/posts', { as: 'administrator' });
    expect(admin.headers.get('allow')).toBe('GET, POST');
    const none = await site.req('OPTIONS', '/core/v2/unknown');
    expect(none.status).toBe(200);
    expect(none.body).toEqual([]);
  });

  it('sends WordPress headers on every response, CORS only with an Origin', async () => {
    const res = await site.req('GET', '/core/v2/posts', { headers: { Origin: 'https://app.example' } });
    expect(res.headers.get('x-content-type-options')).toBe('nosniff');
    expect(res.headers.get('x-robots-tag')).toBe('noindex');
    expect(res.headers.get('access-control-allow-origin')).toBe('https://app.example');
    expect(res.headers.get('access-control-allow-credentials')).toBe('true');
    expect(res.headers.get('access-control-expose-headers')).toBe('X-WP-Total, X-WP-TotalPages, Link, X-Content-Version');
    expect((await site.req('GET', '/core/v2/posts')).headers.get('access-control-allow-origin')).toBeNull();
    const admin = await site.req('GET', '/core/v2/posts', { as: 'administrator' });
    expect(admin.headers.get('cache-control')).toBe('no-cache, must-revalidate, max-age=0, no-store, private');
  });

  it('supports _jsonp with a safe callback only', async () => {
    const ok = await site.req('GET', '/core/v2/posts?_jsonp=cb.x');
    expect(ok.headers.get('content-type')).toContain('application/javascript');
    expect(ok.text.startsWith('/**/cb.x(')).toBe(true);
    const bad = await site.req('GET', '/core/v2/posts?_jsonp=alert(1)');
    expect(bad).toBeWpError(400, 'rest_callback_invalid');
  });
});

describe('authentication', () => {
  const basic = (login: string, pw: string) => ({ authorization: 'Basic ' + Buffer.from(`${login}:${pw}`).toString('base64') });

  it('accepts the application password with or without spaces, by login or e-mail', async () => {
    const { login, password } = site.users.editor;
    expect((await site.req('GET', '/core/v2/posts?context=edit', { headers: basic(login, password) })).status).toBe(200);
    expect((await site.req('GET', '/core/v2/posts?context=edit', { headers: basic(login, password.replace(/ /g, '')) })).status).toBe(200);
    expect((await site.req('GET', '/core/v2/posts?context=edit', { headers: basic(`${login}@example.test`, password) })).status).toBe(200);
  });

  it('refuses bad credentials with 401 even on public routes', async () => {
    expect(await site.req('GET', '/core/v2/posts', { headers: basic('editor1', 'abcd efgh ijkl mnop qrst uvwx') })).toBeWpError(401, 'incorrect_password');
    expect(await site.req('GET', '/', { headers: basic('nobody', 'abcd') })).toBeWpError(401, 'invalid_username');
    expect(await site.req('GET', '/', { headers: basic('nobody@example.test', 'abcd') })).toBeWpError(401, 'invalid_email');
    // The account password is not an application password.
    expect(await site.req('GET', '/', { headers: basic('editor1', 'editor1-password') })).toBeWpError(401, 'incorrect_password');
  });

  it('ignores other schemes', async () => {
    const res = await site.req('GET', '/core/v2/posts?context=edit', { headers: { authorization: 'Bearer abc' } });
    expect(res).toBeWpError(401, 'rest_forbidden_context');
  });
});

describe('response cache', () => {
  it('serves repeated anonymous reads from the cache and never a stale answer after a write', async () => {
    const first = await site.req('GET', '/core/v2/posts?per_page=5');
    // The second answer is the one kept (the first time a URL is answered, only its key is noted).
    expect((await site.req('GET', '/core/v2/posts?per_page=5')).text).toBe(first.text);
    const before = site.db.statements;
    const again = await site.req('GET', '/core/v2/posts?per_page=5');
    expect(site.db.statements).toBe(before);
    expect(again.text).toBe(first.text);
    const created = await site.req('POST', '/core/v2/posts', { as: 'administrator', json: { title: 'Fresh', status: 'publish' } });
    const after = await site.req('GET', '/core/v2/posts?per_page=5');
    expect(after.body[0].id).toBe(created.body.id);
  });

  it('runs identical anonymous reads arriving together once (single flight)', async () => {
    await site.req('POST', '/core/v2/posts', { as: 'administrator', json: { title: 'Bust', status: 'draft' } });
    let before = site.db.statements;
    await site.req('GET', '/core/v2/posts?per_page=3&order=asc');
    const one = site.db.statements - before;
    await site.req('POST', '/core/v2/posts', { as: 'administrator', json: { title: 'Bust again', status: 'draft' } });
    before = site.db.statements;
    // In process: over sockets, requests do not arrive in one tick, and each then checks the
    // cache's version itself (a statement) before it joins the read under way.
    const all = await Promise.all(Array.from({ length: 5 }, () => site.req('GET', '/core/v2/posts?per_page=3&order=asc', { inProcess: true })));
    expect(site.db.statements - before).toBe(one);
    expect(new Set(all.map((r) => r.text)).size).toBe(1);
    expect(all.every((r) => r.status === 200)).toBe(true);
  });

  it('never caches authenticated answers', async () => {
    const draft = await site.req('POST', '/core/v2/posts', { as: 'administrator', json: { title: 'Not for all' } });
    await site.req('GET', `/core/v2/posts/${draft.body.id}`, { as: 'administrator' });
    expect(await site.req('GET', `/core/v2/posts/${draft.body.id}`)).toBeWpError(401, 'rest_forbidden');
  });
});
