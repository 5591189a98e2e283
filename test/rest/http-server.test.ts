// The node:http front over loopback: slow clients cut off with 408, bodies over BODY_MAX_BYTES
// refused with 413 (by their declared length, or counted as they stream in) and the connection
// closed, X-Request-Id kept or made, one access log line per request (secrets redacted), and the
// logger's redaction of secrets in any logged object.
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { connect, type Socket } from 'node:net';
import { once } from 'node:events';
import type { Server } from 'node:http';
import { createTestSite, type TestSite, service } from '../helpers/app.js';
import { parseTrustProxy } from '../../src/config.js';

let site: TestSite;
let server: Server;
let port = 0;
const lines: any[] = [];
/** Checks waiting for log lines (untilLogged), run as each line is written. */
const onLine = new Set<() => void>();

/**
 * Resolves once the lines written satisfy `done`: the access line is written when the answer's
 * connection closes, which may come after the client has read the answer.
 */
function untilLogged(done: () => boolean): Promise<void> {
  return new Promise((resolve) => {
    const check = () => { if (done()) { onLine.delete(check); resolve(); } };
    onLine.add(check);
    check();
  });
}
let previousLogger: ReturnType<typeof service.useLogger>;

/** Listens on the first free port of 9210–9229 (this file's share of the loopback ports). */
async function listen(s: Server): Promise<number> {
  for (let p = 9210; p < 9230; p++) {
    const ok = await new Promise<boolean>((resolve) => {
      const onError = () => resolve(false);
      s.once('error', onError);
      s.listen(p, '127.0.0.1', () => { s.off('error', onError); resolve(true); });
    });
    if (ok) return p;
  }
  throw new Error('no free port in 9210-9229');
}

beforeAll(async () => {
  site = await createTestSite({ bodyMaxBytes: 1000, headersTimeoutMs: 300, requestTimeoutMs: 5000, trustProxy: parseTrustProxy('127.0.0.1') });
  previousLogger = service.useLogger(service.createLogger({ level: 'info', destination: { write: (s: string) => { lines.push(JSON.parse(s)); for (const check of onLine) check(); } } }));
  server = service.createHttpServer(site.app);
  port = await listen(server);
});
afterAll(async () => {
  service.useLogger(previousLogger);
  server?.closeAllConnections();
  await new Promise((resolve) => server ? server.close(resolve) : resolve(null));
  await site?.close();
});

/** Writes `chunks` on a raw connection (one write each) and resolves with all it read once the server closed it. */
async function raw(chunks: string[]): Promise<string> {
  const socket: Socket = connect(port, '127.0.0.1');
  socket.on('error', () => undefined);
  let data = '';
  socket.on('data', (d) => { data += d; });
  await once(socket, 'connect');
  for (const c of chunks) socket.write(c);
  await once(socket, 'close');
  return data;
}

const url = (path: string) => `http://127.0.0.1:${port}${path}`;

describe('slow clients', () => {
  it('closes a connection whose headers dribble in, with 408', async () => {
    const socket = connect(port, '127.0.0.1');
    socket.on('error', () => undefined);
    let data = '';
    // One header line at a time, never the blank line: the headers limit runs from the first byte.
    // The dripping stops at the server's answer: a line written after the server closed its side
    // makes it reset the connection, which would be this test's doing, not the server's.
    let drip: NodeJS.Timeout | undefined;
    socket.on('data', (d) => { data += d; clearInterval(drip); });
    // Closed, reset or not: what was received is what is checked.
    const closed = new Promise((done) => socket.once('close', done));
    await once(socket, 'connect');
    socket.write('GET /wp-json/ HTTP/1.1\r\nHost: 127.0.0.1\r\n');
    drip = setInterval(() => { if (!socket.destroyed && !data) socket.write('X-Slow: 1\r\n'); }, 40);
    try {
      await closed;
    } finally { clearInterval(drip); }
    expect(data).toMatch(/^HTTP\/1\.1 408 /);
  });
});

describe('body size over the wire', () => {
  it('refuses a declared length over the limit before reading, and closes the connection', async () => {
    const body = JSON.stringify({ title: 'x', content: 'a'.repeat(2000) });
    const data = await raw([`POST /wp-json/core/v2/posts HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nContent-Length: ${body.length}\r\n\r\n`]);
    expect(data).toMatch(/^HTTP\/1\.1 413 /);
    expect(data).toMatch(/\r\nconnection: close\r\n/i);
    expect(data).toMatch(/\r\nx-content-type-options: nosniff\r\n/i);
    expect(JSON.parse(/\{.*\}/s.exec(data)![0])).toEqual({ code: 'rest_request_too_large', message: expect.any(String), data: { status: 413 } });
  });

  it('counts a chunked body as it arrives', async () => {
    lines.length = 0;
    const chunk = 'a'.repeat(1500);
    const data = await raw([`POST /wp-json/core/v2/posts HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nTransfer-Encoding: chunked\r\n\r\n${chunk.length.toString(16)}\r\n${chunk}\r\n`]);
    expect(data).toMatch(/^HTTP\/1\.1 413 /);
    expect(data).toContain('"code":"rest_request_too_large"');
    // The connection is cut after the answer: the access line is still written, once.
    await untilLogged(() => lines.some((l) => l.msg === 'request'));
    expect(lines.filter((l) => l.msg === 'request')).toMatchObject([{ method: 'POST', status: 413, path: '/wp-json/core/v2/posts' }]);
  });

  it('refuses a /graphql body declared over the limit', async () => {
    const res = await fetch(url('/graphql'), { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ query: `{ __typename }`, pad: 'p'.repeat(2000) }) });
    expect(res.status).toBe(413);
    expect(await res.json()).toEqual({ code: 'rest_request_too_large', message: expect.any(String), data: { status: 413 } });
  });

  it('still takes a small body', async () => {
    const res = await fetch(url('/wp-json/core/v2/posts'), { method: 'POST', headers: { 'content-type': 'application/json', authorization: site.users.administrator.auth }, body: JSON.stringify({ title: 'small' }) });
    expect(res.status).toBe(201);
  });
});

describe('request ids and the access log', () => {
  it('keeps a plain incoming X-Request-Id, makes one otherwise, and logs one line per request', async () => {
    lines.length = 0;
    const given = await fetch(url('/wp-json/core/v2/posts?per_page=1&token=hunter2&api_key=abc'), { headers: { 'x-request-id': 'edge-42.a', 'x-forwarded-for': '198.51.100.23' } });
    expect(given.status).toBe(200);
    expect(given.headers.get('x-request-id')).toBe('edge-42.a');
    const bad = await fetch(url('/wp-json/core/v2/posts/999999'), { headers: { 'x-request-id': 'has spaces and <tags>' } });
    expect(bad.status).toBe(404);
    const made = bad.headers.get('x-request-id')!;
    expect(made).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    const page = await fetch(url('/'));
    expect(page.headers.get('x-request-id')).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    expect(page.headers.get('x-request-id')).not.toBe(made);
    await page.text();

    await untilLogged(() => lines.filter((l) => l.msg === 'request').length >= 3);
    const access = lines.filter((l) => l.msg === 'request');
    expect(access).toHaveLength(3);
    expect(access[0]).toMatchObject({
      level: 30, pid: process.pid, reqId: 'edge-42.a', method: 'GET', status: 200, ip: '198.51.100.23',
      path: '/wp-json/core/v2/posts?per_page=1&token=%5Bredacted%5D&api_key=%5Bredacted%5D',
    });
    expect(access[0].ms).toEqual(expect.any(Number));
    expect(access[0].bytes).toBeGreaterThan(Number(given.headers.get('content-length')));
    expect(access[1]).toMatchObject({ reqId: made, status: 404, path: '/wp-json/core/v2/posts/999999' });
    expect(access[2]).toMatchObject({ status: 200, path: '/' });
    expect(JSON.stringify(lines)).not.toContain('hunter2');
  });

  it('logs a 5xx at level error', async () => {
    lines.length = 0;
    const original = site.app.handle;
    (site.app as { handle: unknown }).handle = async () => { throw new Error('boom from a test'); };
    try {
      const res = await fetch(url('/wp-json/core/v2/posts'));
      expect(res.status).toBe(500);
      expect(await res.json()).toEqual({ code: 'internal_server_error', message: 'The server could not answer this request.', data: { status: 500 } });
    } finally { (site.app as { handle: unknown }).handle = original; }
    await untilLogged(() => lines.some((l) => l.msg === 'request'));
    expect(lines.find((l) => l.msg === 'unexpected error')).toMatchObject({ level: 50, err: { message: 'boom from a test' } });
    expect(lines.find((l) => l.msg === 'request')).toMatchObject({ level: 50, status: 500 });
  });
});

describe('stopping', () => {
  /**
   * A second server on the site, with one request at work whose client has left and whose handler
   * waits for `hold`; resolves once that server has closed (its connections gone). `finished` tells
   * whether the handler has ended; `restore` puts the app's handler back.
   */
  async function leftBehind(request: string, hold: Promise<void>) {
    const other = service.createHttpServer(site.app);
    const otherPort = await listen(other);
    const original = site.app.handle;
    let entered!: () => void;
    const inHandler = new Promise<void>((resolve) => { entered = resolve; });
    let finished = false;
    (site.app as { handle: unknown }).handle = async (core: Parameters<typeof original>[0]) => {
      entered();
      await hold;
      const out = await original(core);
      finished = true;
      return out;
    };
    const restore = () => { (site.app as { handle: unknown }).handle = original; };
    try {
      const socket = connect(otherPort, '127.0.0.1');
      socket.on('error', () => undefined);
      await once(socket, 'connect');
      socket.write(request);
      await inHandler;
      // The client leaves; the server's close then has no connection left to wait for.
      socket.destroy();
      await new Promise((resolve) => other.close(resolve));
    } catch (err) {
      restore();
      throw err;
    }
    return { server: other, finished: () => finished, restore };
  }

  it('waits for a handler whose client has left, after the connections have closed', async () => {
    let release!: () => void;
    const gate = new Promise<void>((resolve) => { release = resolve; });
    const left = await leftBehind('POST /wp-json/core/v2/posts HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 2\r\n\r\n{}', gate);
    try {
      let done = false;
      const waited = left.server.handlersDone(60_000).then(() => { done = true; });
      await new Promise((resolve) => setImmediate(resolve));
      expect(done).toBe(false);
      expect(left.finished()).toBe(false);
      release();
      await waited;
      expect(left.finished()).toBe(true);
      // With nothing at work, it resolves at once.
      await left.server.handlersDone(60_000);
    } finally {
      release();
      left.restore();
    }
  });

  it('stops waiting for a stuck handler after the cap', async () => {
    let release!: () => void;
    const stuck = new Promise<void>((resolve) => { release = resolve; });
    const left = await leftBehind('GET /wp-json/core/v2/posts HTTP/1.1\r\nHost: x\r\n\r\n', stuck);
    try {
      vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
      let done = false;
      const waited = left.server.handlersDone(5_000).then(() => { done = true; });
      vi.advanceTimersByTime(4_999);
      await Promise.resolve();
      expect(done).toBe(false);
      vi.advanceTimersByTime(1);
      await waited;
      expect(done).toBe(true);
      expect(left.finished()).toBe(false);
    } finally {
      vi.useRealTimers();
      release();
      left.restore();
    }
  });
});

describe('redaction', () => {
  it('never writes passwords, credentials or cookies', () => {
    const out: any[] = [];
    const logger = service.createLogger({ level: 'info', destination: { write: (s: string) => void out.push(JSON.parse(s)) } });
    logger.info({
      password: 'top-1', headers: { authorization: 'Basic c2VjcmV0', cookie: 'wordpress_logged_in=top-2', 'set-cookie': ['a=top-3'] },
      body: { title: 'fine', password: 'top-4', new_password: 'top-5' }, user: { applicationPassword: 'top-6' }, req: { body: { application_password: 'top-7' } },
    }, 'secrets');
    const text = JSON.stringify(out);
    for (let i = 1; i <= 7; i++) expect(text).not.toContain(`top-${i}`);
    expect(out[0]).toMatchObject({ password: '[redacted]', headers: { authorization: '[redacted]', cookie: '[redacted]' }, body: { title: 'fine', password: '[redacted]' } });
  });
});
