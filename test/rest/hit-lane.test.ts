// The hit lane of the node:http front (gateway/server.ts `hitLane`, dispatch.ts `hitByUrl`): a
// plain anonymous GET whose raw URL was answered from the response cache is answered again
// before the dispatcher runs. It must say exactly what the dispatcher would: same headers and
// bytes, 304 to a matching If-None-Match, nothing once a write landed, and never for a request
// whose answer depends on more than its URL (credentials, nonce, method override, Origin).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createTestSite, type TestSite, service } from '../helpers/app.js';

let site: TestSite;
let server: Server;
let base = '';
let id = 0;
const lines: any[] = [];
let previousLogger: ReturnType<typeof service.useLogger>;

beforeAll(async () => {
  site = await createTestSite();
  previousLogger = service.useLogger(service.createLogger({ level: 'info', destination: { write: (s: string) => void lines.push(JSON.parse(s)) } }));
  server = service.createHttpServer(site.app);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}/wp-json`;
  id = (await site.createPost({ title: 'In the lane', content: 'Lane words.', status: 'publish' })).id;
});
afterAll(async () => {
  service.useLogger(previousLogger);
  server?.closeAllConnections();
  await new Promise((resolve) => (server ? server.close(resolve) : resolve(null)));
  await site?.close();
});

/** Runs `fn` with the dispatcher failing every request: what still answers 200 came through the lane. */
async function withoutDispatcher<T>(fn: () => Promise<T>): Promise<T> {
  const original = site.app.handle;
  (site.app as { handle: unknown }).handle = async () => { throw new Error('the dispatcher was reached'); };
  try { return await fn(); } finally { (site.app as { handle: unknown }).handle = original; }
}

const headersOf = (res: Response) => {
  const out: Record<string, string> = {};
  res.headers.forEach((v, k) => { if (!['date', 'x-request-id', 'x-cache'].includes(k)) out[k] = v; });
  return out;
};

describe('the hit lane', () => {
  it('answers a repeated plain read with the dispatcher\'s headers and bytes, without the dispatcher', async () => {
    const path = `${base}/core/v2/posts/${id}?_fields=id,title`;
    const miss = await fetch(path);
    expect(miss.headers.get('x-cache')).toBe('MISS');
    const missBody = await miss.text();
    // The second answer is the one the cache keeps, and the lane learns the URL with it.
    const second = await fetch(path);
    expect(second.headers.get('x-cache')).toBe('MISS');
    await second.text();
    lines.length = 0;
    const lane = await withoutDispatcher(() => fetch(path, { headers: { 'x-request-id': 'lane-1' } }));
    expect(lane.status).toBe(200);
    expect(lane.headers.get('x-cache')).toBe('HIT');
    expect(lane.headers.get('x-request-id')).toBe('lane-1');
    expect(headersOf(lane)).toEqual(headersOf(miss));
    expect(await lane.text()).toBe(missBody);
    expect(JSON.parse(missBody)).toEqual({ id, title: { rendered: 'In the lane' } });
    // Both whole answers say their length (not chunked).
    for (const res of [miss, lane]) {
      expect(res.headers.get('content-length')).toBe(String(Buffer.byteLength(missBody)));
      expect(res.headers.get('transfer-encoding')).toBeNull();
    }
    const access = lines.filter((l) => l.msg === 'request');
    expect(access).toHaveLength(1);
    expect(access[0]).toMatchObject({ reqId: 'lane-1', method: 'GET', status: 200, path: `/wp-json/core/v2/posts/${id}?_fields=id,title` });
    expect(access[0].bytes).toBeGreaterThan(missBody.length);
  });

  it('answers If-None-Match with 304 when it names the ETag, the full answer otherwise', async () => {
    const path = `${base}/core/v2/posts/${id}`;
    const etag = (await fetch(path)).headers.get('etag')!;
    await fetch(path);
    const [same, weak, other] = await withoutDispatcher(() => Promise.all([
      fetch(path, { headers: { 'if-none-match': etag } }),
      fetch(path, { headers: { 'if-none-match': `"nope", W/${etag}` } }),
      fetch(path, { headers: { 'if-none-match': '"nope"' } }),
    ]));
    expect(same.status).toBe(304);
    expect(await same.text()).toBe('');
    expect(same.headers.get('content-length')).toBeNull();
    expect(same.headers.get('etag')).toBe(etag);
    expect(weak.status).toBe(304);
    expect(other.status).toBe(200);
    expect((await other.json()).id).toBe(id);
  });

  it('keeps off requests whose answer depends on more than the URL', async () => {
    const path = `${base}/core/v2/posts/${id}`;
    await fetch(path);
    await fetch(path);
    const bad = await fetch(path, { headers: { authorization: `Basic ${Buffer.from('nobody:wrong wrong wrong').toString('base64')}` } });
    expect(bad.status).toBe(401);
    const badBody = await bad.text();
    expect(JSON.parse(badBody).code).toBe('invalid_username');
    expect(bad.headers.get('content-length')).toBe(String(Buffer.byteLength(badBody)));
    const nonce = await fetch(path, { headers: { 'x-wp-nonce': 'not-a-nonce' } });
    expect(nonce.status).toBe(403);
    expect((await nonce.json()).code).toBe('rest_cookie_invalid_nonce');
    const override = await fetch(path, { headers: { 'x-http-method-override': 'DELETE' } });
    expect(override.status).toBe(401);
    expect((await override.json()).code).toBe('rest_cannot_delete');
    const cors = await fetch(path, { headers: { origin: 'https://elsewhere.example' } });
    expect(cors.status).toBe(200);
    expect(cors.headers.get('access-control-allow-origin')).toBe('https://elsewhere.example');
    expect(cors.headers.get('vary')).toBe('Origin');
    // And none of those reached the lane: with the dispatcher failing, they fail.
    const refused = await withoutDispatcher(() => fetch(path, { headers: { origin: 'https://elsewhere.example' } }));
    expect(refused.status).toBe(500);
    expect((await refused.json()).code).toBe('internal_server_error');
  });

  it('answers nothing after a write: the next read reaches the database and shows it', async () => {
    const path = `${base}/core/v2/posts/${id}`;
    await fetch(path);
    expect((await fetch(path)).headers.get('x-cache')).toBe('HIT');
    const updated = await site.req('POST', `/core/v2/posts/${id}`, { as: 'administrator', json: { title: 'Changed in the lane' } });
    expect(updated.status).toBe(200);
    const gone = await withoutDispatcher(() => fetch(path));
    expect(gone.status).toBe(500);
    const fresh = await fetch(path);
    expect(fresh.headers.get('x-cache')).toBe('MISS');
    expect((await fresh.json()).title.rendered).toBe('Changed in the lane');
  });

  it('knows a URL by its raw text: the same query in another order goes through the dispatcher first', async () => {
    await fetch(`${base}/core/v2/posts?per_page=2&order=asc`);
    await fetch(`${base}/core/v2/posts?per_page=2&order=asc`);
    const reordered = await withoutDispatcher(() => fetch(`${base}/core/v2/posts?order=asc&per_page=2`));
    expect(reordered.status).toBe(500);
    const hit = await fetch(`${base}/core/v2/posts?order=asc&per_page=2`);
    expect(hit.headers.get('x-cache')).toBe('HIT');
    const lane = await withoutDispatcher(() => fetch(`${base}/core/v2/posts?order=asc&per_page=2`));
    expect(lane.status).toBe(200);
    expect(lane.headers.get('x-wp-total')).toBe(hit.headers.get('x-wp-total'));
    expect(await lane.text()).toBe(await (await fetch(`${base}/core/v2/posts?per_page=2&order=asc`)).text());
  });

  it('leaves HEAD and the redaction of logged queries as they were', async () => {
    const path = `${base}/core/v2/posts?per_page=1&api_key=abc`;
    await fetch(path);
    await fetch(path);
    lines.length = 0;
    const lane = await withoutDispatcher(() => fetch(path));
    expect(lane.status).toBe(200);
    await lane.text();
    expect(lines.find((l) => l.msg === 'request')).toMatchObject({ status: 200, path: '/wp-json/core/v2/posts?per_page=1&api_key=%5Bredacted%5D' });
    const head = await withoutDispatcher(() => fetch(path, { method: 'HEAD' }));
    expect(head.status).toBe(500);
    const realHead = await fetch(path, { method: 'HEAD' });
    expect(realHead.status).toBe(200);
    expect(realHead.headers.get('x-cache')).toBe('HIT');
    expect(await realHead.text()).toBe('');
  });
});
