// A real WordPress client (node-wpapi) against the real node:http server: it discovers the API from
// the home page's Link header, builds its route handlers from the index, and signs in with an
// application password to list, create, update and delete a post. wpapi speaks HTTP itself
// (superagent), so the site listens on a loopback port whose address is its SITE_URL.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createRequire } from 'node:module';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createTestSite, type TestSite } from '../helpers/app.js';
import { createHttpServer } from '../../gateway/server.js';
import { setOption } from '../../src/site/options.js';

/** The parts of wpapi's surface this test uses (the package ships no types). */
interface WpRequest extends PromiseLike<any> {
  id(id: number): WpRequest;
  param(name: string, value: unknown): WpRequest;
  perPage(n: number): WpRequest;
  get(): Promise<any>;
  create(data: Record<string, unknown>): Promise<any>;
  update(data: Record<string, unknown>): Promise<any>;
  delete(): Promise<any>;
}
interface WpClient {
  auth(credentials: { username: string; password: string }): WpClient;
  namespace(name: string): Record<string, () => WpRequest>;
  root(path?: string): WpRequest;
  posts?: () => WpRequest;
  _options: { endpoint: string };
}
interface WpApiStatic { discover(url: string): Promise<WpClient> }

const WPAPI = createRequire(import.meta.url)('wpapi') as WpApiStatic;

const listen = (server: Server) => new Promise<number>((resolve) => server.listen(0, '127.0.0.1', () => resolve((server.address() as AddressInfo).port)));

describe('node-wpapi discovers the API from the home page and manages posts through it', () => {
  let site: TestSite;
  let server: Server;
  let base = '';

  beforeAll(async () => {
    // The socket opens first (its port becomes the site's address), then the app's handler is attached.
    server = createServer();
    base = `http://127.0.0.1:${await listen(server)}`;
    site = await createTestSite({ siteUrl: base });
    // Permalinks and the index's `url`/`home` come from the site's options: the same address.
    await setOption(site.db.prisma, 'siteurl', base);
    await setOption(site.db.prisma, 'home', base);
    const http = createHttpServer(site.app);
    for (const listener of http.listeners('request')) server.on('request', listener as (...a: unknown[]) => void);
    await site.createPost({ title: 'Already here', content: 'First.', status: 'publish' });
  });

  afterAll(async () => {
    if (server) await new Promise((resolve) => { server.closeAllConnections(); server.close(resolve); });
    await site?.close();
  });

  it('the home page sends the discovery Link header over HTTP (HEAD and GET)', async () => {
    for (const method of ['HEAD', 'GET']) {
      const res = await fetch(`${base}/`, { method });
      expect(res.status).toBe(200);
      expect(res.headers.get('link')).toBe(`<${base}/wp-json/>; rel="https://api.w.org/"`);
      expect(res.headers.get('content-type')).toBe('text/html; charset=UTF-8');
    }
  });

  it('discovers, lists, creates, updates and deletes through the core/v2 namespace', async () => {
    const discovered = await WPAPI.discover(base);
    expect(discovered._options.endpoint).toBe(`${base}/wp-json/`);
    // The discovered client only knows the routes of the index: no wp/v2 helpers.
    expect(discovered.posts).toBeUndefined();
    const admin = site.users.administrator;
    const wp = discovered.auth({ username: admin.login, password: admin.password });
    const posts = () => wp.namespace('core/v2').posts();

    const listed = await posts().get();
    expect(listed.map((p: any) => p.title.rendered)).toContain('Already here');
    expect(listed._paging?.total ?? listed.length).toBeGreaterThanOrEqual(1);

    const created = await posts().create({ title: 'Made by wpapi', content: 'Hello from a client.', status: 'publish' });
    expect(created.id).toBeGreaterThan(0);
    expect(created.status).toBe('publish');
    expect(created.link).toBe(`${base}/made-by-wpapi/`);

    const updated = await posts().id(created.id).update({ title: 'Renamed by wpapi' });
    expect(updated.title.raw).toBe('Renamed by wpapi');
    const read = await posts().id(created.id).get();
    expect(read.title.rendered).toBe('Renamed by wpapi');

    // The post is on the site's pages too, and its page points back at the REST record.
    const page = await fetch(created.link);
    expect(page.status).toBe(200);
    expect(page.headers.get('link')).toContain(`<${base}/wp-json/core/v2/posts/${created.id}>; rel="alternate"; title="JSON"; type="application/json"`);
    expect(await page.text()).toContain('Renamed by wpapi');

    const trashed = await posts().id(created.id).delete();
    expect(trashed.status).toBe('trash');
    const deleted = await posts().id(created.id).param('force', true).delete();
    expect(deleted).toMatchObject({ deleted: true, previous: { id: created.id } });

    // Gone: the client is refused with WordPress's error, as a plain request is.
    await expect(posts().id(created.id).get()).rejects.toMatchObject({ code: 'rest_post_invalid_id', data: { status: 404 } });
    const raw = await fetch(`${base}/wp-json/core/v2/posts/${created.id}`);
    expect({ status: raw.status, body: await raw.json() }).toBeWpError(404, 'rest_post_invalid_id');
    expect((await fetch(created.link)).status).toBe(404);
  });

  it('a write without credentials is refused through the client too', async () => {
    const wp = await WPAPI.discover(base);
    await expect(wp.namespace('core/v2').posts().create({ title: 'Anonymous' })).rejects.toMatchObject({ code: 'rest_cannot_create', data: { status: 401 } });
    const raw = await fetch(`${base}/wp-json/core/v2/posts`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{"title":"Anonymous"}' });
    expect({ status: raw.status, body: await raw.json() }).toBeWpError(401, 'rest_cannot_create');
  });
});
