// The guarded server-side HTTP client: which addresses it refuses (after resolution, and on every
// redirect hop), the allow list, redirects, the size cap while streaming, timeouts. Servers are
// started here, on 127.0.0.1 and port 0.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { guardedFetch, GuardedFetchError, type GuardedFetchOptions, type GuardedFetchReason } from '../../src/http/guarded-client.js';
import { blockedReason } from '../../src/http/address.js';

type Handler = (req: IncomingMessage, res: ServerResponse) => void | Promise<void>;

async function listen(handler: Handler): Promise<{ server: Server; base: string; port: number }> {
  const server = createServer((req, res) => { void handler(req, res); });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as AddressInfo).port;
  return { server, base: `http://127.0.0.1:${port}`, port };
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** The rejection of a guardedFetch, which must be a GuardedFetchError. */
async function failure(url: string, o?: GuardedFetchOptions): Promise<GuardedFetchError> {
  try {
    const res = await guardedFetch(url, o);
    throw new Error(`expected a refusal, got ${res.status} from ${res.url}`);
  } catch (err) {
    if (!(err instanceof GuardedFetchError)) throw err;
    return err;
  }
}
async function expectReason(url: string, reason: GuardedFetchReason, o?: GuardedFetchOptions): Promise<GuardedFetchError> {
  const err = await failure(url, o);
  expect(err.reason, err.message).toBe(reason);
  return err;
}

const ALLOW = { allowHosts: ['127.0.0.1'] };
const BIG = 5 * 1024 * 1024;
const CHUNK = 64 * 1024;

let main: Awaited<ReturnType<typeof listen>>;
let other: Awaited<ReturnType<typeof listen>>;
let silent: Awaited<ReturnType<typeof listen>>;
/** Requests per path on the main server. */
const hits = new Map<string, number>();
/** What the streaming server managed to send before the client went away. */
const big = { sent: 0, finished: false, closed: Promise.resolve() };
const seenByOther: { authorization?: string; path?: string }[] = [];

beforeAll(async () => {
  other = await listen((req, res) => {
    seenByOther.push({ authorization: req.headers.authorization, path: req.url });
    res.end('other');
  });
  main = await listen(async (req, res) => {
    const url = new URL(req.url ?? '/', 'http://x');
    hits.set(url.pathname, (hits.get(url.pathname) ?? 0) + 1);
    const redirect = (to: string) => { res.writeHead(302, { location: to }); res.end(); };
    switch (true) {
      case url.pathname === '/hello':
        res.writeHead(200, { 'content-type': 'text/plain; charset=utf-8', 'x-test': 'yes' });
        res.end(`héllo ${req.method} ${req.headers['x-extra'] ?? ''}`);
        return;
      case url.pathname === '/to-private': return redirect('http://10.0.0.1/');
      case url.pathname === '/to-metadata': return redirect('http://169.254.169.254/latest/meta-data/');
      case url.pathname === '/to-localhost': return redirect(`http://localhost:${main.port}/hello`);
      case url.pathname === '/to-ftp': return redirect('ftp://127.0.0.1/file');
      case url.pathname === '/to-other': return redirect(`${other.base}/landed`);
      case url.pathname === '/relative': return redirect('/hello');
      case url.pathname.startsWith('/chain/'): {
        const left = Number(url.pathname.slice('/chain/'.length));
        return left > 0 ? redirect(`/chain/${left - 1}`) : void res.end('end of chain');
      }
      case url.pathname === '/missing':
        res.writeHead(404); res.end('no'); return;
      case url.pathname === '/declared-big':
        // Declares 5 MB, sends a little and holds the connection open.
        res.writeHead(200, { 'content-length': String(BIG) });
        res.write(Buffer.alloc(1024));
        return;
      case url.pathname === '/big': {
        // 5 MB without Content-Length, in paced chunks, stopping when the client goes away.
        res.writeHead(200, { 'content-type': 'application/octet-stream' });
        big.sent = 0; big.finished = false;
        big.closed = new Promise((r) => res.on('close', () => r()));
        const chunk = Buffer.alloc(CHUNK, 97);
        while (big.sent < BIG && !res.destroyed) {
          res.write(chunk);
          big.sent += chunk.length;
          await sleep(2);
        }
        big.finished = big.sent >= BIG && !res.destroyed;
        res.end();
        return;
      }
      default:
        res.writeHead(404); res.end();
    }
  });
  // Accepts connections and never answers.
  silent = await listen(() => {});
});

afterAll(async () => {
  for (const s of [main, other, silent]) {
    if (!s) continue;
    s.server.closeAllConnections();
    await new Promise((r) => s.server.close(r));
  }
});

describe('blocked addresses', () => {
  it.each([
    ['127.0.0.1', 'loopback'], ['127.255.0.9', 'loopback'], ['10.0.0.1', 'private'], ['172.16.5.4', 'private'],
    ['172.31.255.255', 'private'], ['192.168.1.1', 'private'], ['169.254.169.254', 'cloud metadata'], ['169.254.1.1', 'link-local'],
    ['100.64.0.1', 'carrier-grade NAT'], ['0.0.0.0', 'unspecified'], ['224.0.0.251', 'multicast'], ['255.255.255.255', 'reserved'],
    ['::1', 'loopback'], ['::', 'unspecified'], ['fe80::1', 'link-local'], ['fe80::1%eth0', 'link-local'], ['fc00::1', 'unique local'],
    ['fd00:ec2::254', 'cloud metadata'], ['ff02::1', 'multicast'],
    // IPv6 forms that carry an IPv4 address are judged by it.
    ['::ffff:127.0.0.1', 'loopback'], ['::ffff:a00:1', 'private'], ['64:ff9b::a9fe:a9fe', 'cloud metadata'], ['2002:c0a8:101::', 'private'],
  ])('%s is refused (%s)', (address, why) => {
    expect(blockedReason(address)).toBe(why);
  });

  it.each(['8.8.8.8', '1.1.1.1', '172.32.0.1', '100.128.0.1', '2606:4700:4700::1111', '::ffff:8.8.8.8', '2002:808:808::'])('%s is public', (address) => {
    expect(blockedReason(address)).toBeNull();
  });
});

describe('guardedFetch', () => {
  it('refuses loopback, private, metadata and link-local targets without an allow list', async () => {
    for (const url of [`${main.base}/hello`, `http://localhost:${main.port}/hello`, 'http://10.0.0.1/', 'http://169.254.169.254/latest/meta-data/', `http://[::1]:${main.port}/hello`]) {
      const err = await expectReason(url, 'blocked_address');
      expect(err.message).toMatch(/Refusing to connect/);
    }
    // Other spellings of 127.0.0.1 the URL parser normalises.
    await expectReason(`http://2130706433:${main.port}/hello`, 'blocked_address');
    await expectReason(`http://0x7f.1:${main.port}/hello`, 'blocked_address');
    await expectReason(`http://[::ffff:127.0.0.1]:${main.port}/hello`, 'blocked_address');
    expect(hits.get('/hello') ?? 0).toBe(0);
  });

  it('refuses a name that resolves to loopback even when its address is allow-listed by literal', async () => {
    await expectReason(`http://localhost:${main.port}/hello`, 'blocked_address', ALLOW);
    expect(hits.get('/hello') ?? 0).toBe(0);
  });

  it('fetches from an allow-listed host: status, final URL, headers and text', async () => {
    const res = await guardedFetch(`${main.base}/hello#frag`, { ...ALLOW, headers: { 'X-Extra': 'given' } });
    expect(res.status).toBe(200);
    expect(res.url).toBe(`${main.base}/hello`);
    expect(res.headers.get('x-test')).toBe('yes');
    expect(res.text).toBe('héllo GET given');
    const head = await guardedFetch(`${main.base}/hello`, { ...ALLOW, method: 'HEAD' });
    expect(head.status).toBe(200);
    expect(head.text).toBe('');
  });

  it('matches a name:port entry on that port only', async () => {
    expect((await guardedFetch(`${main.base}/hello`, { allowHosts: [`127.0.0.1:${main.port}`] })).status).toBe(200);
    await expectReason(`${main.base}/hello`, 'blocked_address', { allowHosts: [`127.0.0.1:${other.port}`] });
  });

  it('follows redirects, relative ones included, and reports the final URL', async () => {
    const res = await guardedFetch(`${main.base}/relative`, ALLOW);
    expect(res.url).toBe(`${main.base}/hello`);
    expect(res.text).toMatch(/^héllo GET/);
  });

  it('checks every redirect hop: an allowed host redirecting into a private or metadata address is refused', async () => {
    const before = hits.get('/hello') ?? 0;
    await expectReason(`${main.base}/to-private`, 'blocked_address', ALLOW);
    await expectReason(`${main.base}/to-metadata`, 'blocked_address', ALLOW);
    // localhost is the same machine, but only the literal 127.0.0.1 is allowed.
    await expectReason(`${main.base}/to-localhost`, 'blocked_address', ALLOW);
    expect(hits.get('/hello') ?? 0).toBe(before);
  });

  it('refuses a redirect to a scheme other than http and https', async () => {
    await expectReason(`${main.base}/to-ftp`, 'bad_url', ALLOW);
  });

  it('drops credentials on a redirect to another origin', async () => {
    seenByOther.length = 0;
    const res = await guardedFetch(`${main.base}/to-other`, { ...ALLOW, headers: { Authorization: 'Bearer secret' } });
    expect(res.text).toBe('other');
    expect(seenByOther).toEqual([{ authorization: undefined, path: '/landed' }]);
  });

  it('follows at most five redirects by default', async () => {
    expect((await guardedFetch(`${main.base}/chain/5`, ALLOW)).text).toBe('end of chain');
    await expectReason(`${main.base}/chain/6`, 'too_many_redirects', ALLOW);
    await expectReason(`${main.base}/chain/2`, 'too_many_redirects', { ...ALLOW, maxRedirects: 1 });
  });

  it('refuses a body larger than the cap while it streams, before the server has sent it all', async () => {
    const started = performance.now();
    const err = await expectReason(`${main.base}/big`, 'too_large', { ...ALLOW, maxBytes: 64 * 1024 });
    expect(err.message).toMatch(/65536 bytes/);
    await big.closed; // the server saw the connection go
    expect(big.finished).toBe(false);
    expect(big.sent).toBeLessThan(BIG / 4);
    expect(performance.now() - started).toBeLessThan(5000);
  });

  it('refuses a declared Content-Length above the cap without reading the body', async () => {
    await expectReason(`${main.base}/declared-big`, 'too_large', { ...ALLOW, maxBytes: 64 * 1024 });
  });

  it('keeps the first bytes of a larger body when asked to truncate', async () => {
    const res = await guardedFetch(`${main.base}/big`, { ...ALLOW, maxBytes: 100_000, truncate: true });
    expect(res.truncated).toBe(true);
    expect(res.text.length).toBe(100_000);
    await big.closed;
    expect(big.finished).toBe(false);
  });

  it('times out on a server that never answers', async () => {
    const started = performance.now();
    await expectReason(`${silent.base}/`, 'timeout', { ...ALLOW, timeoutMs: 300 });
    expect(performance.now() - started).toBeLessThan(3000);
  });

  it('reports a status outside 2xx as http_status, with the status', async () => {
    const err = await expectReason(`${main.base}/missing`, 'http_status', ALLOW);
    expect(err.details.status).toBe(404);
  });

  it('refuses URLs it cannot or must not fetch', async () => {
    for (const url of ['not a url', 'ftp://127.0.0.1/', 'javascript:alert(1)', 'file:///etc/passwd', `http://user:pw@127.0.0.1:${main.port}/hello`]) {
      await expectReason(url, 'bad_url', ALLOW);
    }
  });

  it('reports a refused connection as a network failure', async () => {
    // A port just freed: nothing listens there.
    const gone = await listen(() => {});
    await new Promise((r) => gone.server.close(r));
    await expectReason(`${gone.base}/`, 'network', ALLOW);
  });
});
