// node:http front. REST requests skip yoga's fetch layer and go straight to the dispatcher;
// /graphql is served by yoga. A bounded number of requests is worked on at once.
import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import { createRequire } from 'node:module';
import { randomBytes, randomInt } from 'node:crypto';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import type { App } from './app.js';
import { bodyTooLarge } from './errors.js';
import { CONTENT_VERSION, mayWrite, NOT_PLAIN } from './dispatch.js';
import { COMMENT_FORM_PATH } from './site/front.js';
import { log, logRequest } from '../src/log.js';
import { isRequestAborted, withAbortSignal } from '../src/db/abort.js';

/**
 * node:http by `require`: imported as an ES module, node builds the module's facade by reading every
 * export, and its lazy ones (WebSocket, EventSource and the like) load node's whole fetch
 * implementation, about 8% of a worker's CPU before its first answer, which REST never uses.
 */
const { createServer } = createRequire(import.meta.url)('node:http') as typeof import('node:http');

/**
 * A whole answer's headers with its Content-Length. Headers given to writeHead are written at once,
 * so node cannot add the length when `end` brings the body: it would send the body chunked (more
 * bytes and writes, and the client learns the size only at the end). None for 1xx, 204 and 304.
 */
function withLength<H extends Record<string, string | string[] | number | undefined>>(status: number, headers: H, body: string | Buffer | null | undefined): H {
  if (body == null || status < 200 || status === 204 || status === 304) return headers;
  for (const name in headers) if (name.length === 14 && name.toLowerCase() === 'content-length') return headers;
  return { ...headers, 'Content-Length': typeof body === 'string' ? Buffer.byteLength(body) : body.length };
}

const tooLarge = () => Object.assign(new Error('body too large'), { status: 413 });

/**
 * A body read whole, counted as it arrives: past `max` bytes (or a Content-Length over it) the
 * promise fails with status 413 and reading stops; the caller answers and closes the connection.
 */
function readBody(req: IncomingMessage, max: number): Promise<Buffer | null> {
  if (Number(req.headers['content-length']) > max) return Promise.reject(tooLarge());
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    const onData = (chunk: Buffer) => {
      size += chunk.length;
      if (size > max) { req.off('data', onData); req.pause(); reject(tooLarge()); return; }
      chunks.push(chunk);
    };
    req.on('data', onData);
    req.on('end', () => resolve(chunks.length ? Buffer.concat(chunks) : null));
    req.on('error', reject);
  });
}

/** After an answer sent before the body was read (too large, refused upload): no keep-alive, and the rest is not read. */
function closeAfter(req: IncomingMessage, res: ServerResponse): void {
  res.setHeader('Connection', 'close');
  res.on('finish', () => req.destroy());
}

/** An incoming X-Request-Id is kept when it is short and plain; otherwise one is made. */
const REQUEST_ID = /^[\w.:@\/+=-]{1,128}$/;

/**
 * A new request id, shaped as a version 4 UUID: 62 random bits drawn once per process, then a
 * count in the last 48 bits. As unique as a random UUID for telling requests apart, for about a
 * third of its cost on a cached answer (which has little else to do); not meant to be unguessable.
 */
const newRequestId = (() => {
  const r = randomBytes(9).toString('hex');
  const prefix = `${r.slice(0, 8)}-${r.slice(8, 12)}-4${r.slice(12, 15)}-${'89ab'[parseInt(r[15], 16) & 3]}${r.slice(15, 18)}-`;
  let n = randomInt(2 ** 32);
  return () => prefix + (n++).toString(16).padStart(12, '0');
})();

/** The query string for the access log: values of names that may carry secrets are replaced. */
const SECRET_PARAM = /pass|pwd|token|nonce|secret|key|auth|sig/i;
export function loggedPath(url: string): string {
  const q = url.indexOf('?');
  if (q < 0) return url;
  // Most queries name nothing secret anywhere, names or values, and escape nothing: kept as they are.
  const query = url.slice(q + 1);
  if (!query.includes('%') && !SECRET_PARAM.test(query)) return url;
  const params = new URLSearchParams(url.slice(q + 1));
  let redacted = false;
  for (const name of new Set(params.keys())) {
    if (SECRET_PARAM.test(name)) { params.set(name, '[redacted]'); redacted = true; }
  }
  return redacted ? `${url.slice(0, q)}?${params.toString()}` : url;
}

function toHeaders(req: IncomingMessage): Headers {
  const headers = new Headers();
  for (const [name, value] of Object.entries(req.headers)) {
    if (value === undefined) continue;
    if (Array.isArray(value)) for (const v of value) headers.append(name, v);
    else headers.set(name, value);
  }
  return headers;
}

/**
 * The request's headers as a `Headers`, read from node's parsed headers (names already lower
 * case): `get` and `has` look there directly, anything else works on a real `Headers` made on
 * first use. Building one per request (each name and value validated and sorted) cost about as
 * much as answering a cached read.
 */
class IncomingHeaders implements Headers {
  #real: Headers | null = null;
  constructor(private readonly req: IncomingMessage) {}
  #headers(): Headers { return (this.#real ??= toHeaders(this.req)); }
  get(name: string): string | null {
    if (this.#real) return this.#real.get(name);
    const v = this.req.headers[name.toLowerCase()];
    return v === undefined ? null : Array.isArray(v) ? v.join(', ') : v;
  }
  has(name: string): boolean { return this.#real ? this.#real.has(name) : this.req.headers[name.toLowerCase()] !== undefined; }
  set(name: string, value: string): void { this.#headers().set(name, value); }
  append(name: string, value: string): void { this.#headers().append(name, value); }
  delete(name: string): void { this.#headers().delete(name); }
  getSetCookie(): string[] { return this.#headers().getSetCookie(); }
  forEach(fn: (value: string, key: string, parent: Headers) => void, thisArg?: unknown): void { this.#headers().forEach((v, k) => fn.call(thisArg, v, k, this)); }
  entries() { return this.#headers().entries(); }
  keys() { return this.#headers().keys(); }
  values() { return this.#headers().values(); }
  [Symbol.iterator]() { return this.#headers()[Symbol.iterator](); }
}

/** A signal that fires when the connection closes before the answer has been written whole. */
function leaving(res: ServerResponse): AbortSignal {
  const controller = new AbortController();
  res.once('close', () => { if (!res.writableFinished) controller.abort(); });
  return controller.signal;
}

/** The HTML sign-in pages: low traffic, so they go through a fetch Request. */
async function serveAdmin(app: App, req: IncomingMessage, res: ServerResponse, ip: string | undefined): Promise<void> {
  try {
    const body = req.method === 'GET' || req.method === 'HEAD' ? null : await readBody(req, app.config.bodyMaxBytes);
    const request = new Request(new URL(req.url ?? '/', app.config.siteUrl), { method: req.method, headers: toHeaders(req), body: body ? new Uint8Array(body) : null });
    const out = await app.admin(request, ip);
    const headers: Record<string, string | string[]> = {};
    out.headers.forEach((value, name) => { if (name !== 'set-cookie') headers[name] = value; });
    const cookies = out.headers.getSetCookie();
    if (cookies.length) headers['set-cookie'] = cookies;
    const answer = Buffer.from(await out.arrayBuffer());
    res.writeHead(out.status, withLength(out.status, headers, answer));
    res.end(req.method === 'HEAD' ? undefined : answer);
  } catch (err) {
    const status = (err as { status?: number }).status === 413 ? 413 : 500;
    if (status === 413) closeAfter(req, res);
    else log.error({ err, reqId: res.getHeader('x-request-id') }, 'unexpected error');
    if (!res.headersSent) res.writeHead(status, { 'Content-Type': 'text/plain; charset=UTF-8', 'X-Content-Type-Options': 'nosniff' });
    res.end(status === 413 ? 'The request body is larger than this server accepts.' : 'The server could not answer this request.');
  }
}

/** A stored upload, streamed with its validators and ranges. */
async function serveUploadFile(app: App, url: URL, req: IncomingMessage, res: ServerResponse): Promise<void> {
  try {
    const out = await app.serveUpload(url, req.method ?? 'GET', toHeaders(req));
    res.writeHead(out.status, out.headers);
    if (out.body) (out.body as NodeJS.ReadableStream).pipe(res);
    else res.end();
  } catch (err) {
    log.error({ err, reqId: res.getHeader('x-request-id') }, 'unexpected error');
    if (!res.headersSent) res.writeHead(500, { 'Content-Type': 'text/plain; charset=UTF-8' });
    res.end();
  }
}

/** The public pages: GET and HEAD of every address outside REST, GraphQL, the admin pages and the uploads. */
async function serveSite(app: App, req: IncomingMessage, res: ServerResponse, ip: string | undefined): Promise<void> {
  try {
    // The comment form posts here (gateway/site/front.ts); no other page reads a body.
    const form = req.method === 'POST' && new URL(req.url ?? '/', 'http://localhost').pathname === COMMENT_FORM_PATH;
    const body = form ? await readBody(req, app.config.bodyMaxBytes) : null;
    if (form && !body) {
      res.writeHead(413, { 'Content-Type': 'text/plain; charset=UTF-8', Connection: 'close' });
      return void res.end('The comment is too large.');
    }
    const out = await app.site({ method: req.method ?? 'GET', url: req.url ?? '/', ...(form ? { body: body!.toString('utf8'), ip, userAgent: String(req.headers['user-agent'] ?? '') } : {}) });
    res.writeHead(out.status, withLength(out.status, out.headers, out.body));
    res.end(req.method === 'HEAD' ? undefined : out.body);
  } catch (err) {
    // A page whose reader left stops at its next statement: nothing to log, nobody to answer.
    if (isRequestAborted(err)) return void res.destroy();
    log.error({ err, reqId: res.getHeader('x-request-id') }, 'unexpected error');
    if (!res.headersSent) res.writeHead(500, { 'Content-Type': 'text/plain; charset=UTF-8' });
    res.end('The server could not answer this request.');
  }
}

/** The service's HTTP server: node's, plus a way to wait for the handlers still at work. */
export interface HttpServer extends Server {
  /**
   * Resolves once no handler is at work, or after `capMs`. `server.close()`'s callback waits for
   * the connections only: a request whose client has left has no connection, but its handler may
   * still be writing or about to read, and closing the database under it would fail it with a 500
   * nobody receives. A stop waits for this between the two.
   */
  handlersDone(capMs: number): Promise<void>;
}

/**
 * The server, with the slow-client limits: HEADERS_TIMEOUT_MS for the request line and headers,
 * REQUEST_TIMEOUT_MS for the whole request; past either node answers 408 and closes.
 */
export function createHttpServer(app: App): HttpServer {
  const { config } = app;
  let inFlight = 0;
  /** Handlers at work, of every door (inFlight counts the REST ones against the limit). */
  let running = 0;
  const whenDone = new Set<() => void>();
  const limit = config.maxInFlight;
  const requestTimeout = config.requestTimeoutMs;
  const headersTimeout = requestTimeout ? Math.min(config.headersTimeoutMs, requestTimeout) : config.headersTimeoutMs;
  // How often node looks for connections past those limits (its default, 30 s, is coarser than a short limit).
  const connectionsCheckingInterval = Math.max(50, Math.min(30_000, Math.floor(headersTimeout / 4)));
  const server = createServer({ headersTimeout, requestTimeout, connectionsCheckingInterval }, handler);
  return Object.assign(server, { handlersDone });

  function handlersDone(capMs: number): Promise<void> {
    if (running === 0) return Promise.resolve();
    return new Promise((resolve) => {
      const timer = setTimeout(done, capMs);
      timer.unref();
      function done() { clearTimeout(timer); whenDone.delete(done); resolve(); }
      whenDone.add(done);
    });
  }

  function settled(): void {
    if (--running > 0) return;
    for (const done of [...whenDone]) done();
  }

  function handler(req: IncomingMessage, res: ServerResponse): void {
    const started = performance.now();
    if (req.method === 'GET' && (app.cache || app.graphqlCache) && hitLane(req, res, started)) return;
    const incoming = req.headers['x-request-id'];
    const id = typeof incoming === 'string' && REQUEST_ID.test(incoming) ? incoming : newRequestId();
    res.setHeader('X-Request-Id', id);
    if (mayWrite(req.method, req.url ?? '', req.headers['x-http-method-override'] !== undefined)) tellVersion(res);
    const ip = app.clientIp(req.socket.remoteAddress, (name) => { const v = req.headers[name]; return Array.isArray(v) ? v.join(', ') : v; });
    // The socket is kept: by the time the answer closes, the request may be detached from it.
    const socket = req.socket;
    const sentBefore = socket.bytesWritten;
    res.once('close', () => logRequest({
      reqId: id, method: req.method ?? '', path: loggedPath(req.url ?? '/'), status: res.statusCode,
      ms: Math.round((performance.now() - started) * 10) / 10, bytes: socket.bytesWritten - sentBefore, ip,
      aborted: !res.writableFinished,
    }));
    running++;
    // Each door answers its own failures; one that escapes all the same is logged and ends the answer.
    route(req, res, id, ip).then(settled, (err) => {
      settled();
      log.error({ err, reqId: id }, 'unexpected error outside the handlers');
      if (res.headersSent) return void res.destroy();
      res.writeHead(500, { 'Content-Type': 'application/json; charset=UTF-8' })
        .end(JSON.stringify({ code: 'internal_server_error', message: 'The server could not answer this request.', data: { status: 500 } }));
    });
  }

  /**
   * A request that may write answers with `X-Content-Version`: the writes this process has
   * committed by the time the answer starts, its own among them. Sent back on a read, it keeps
   * that read off any cache that has not heard of them yet (Db.caughtUp), on whichever process
   * or instance the read arrives.
   */
  function tellVersion(res: ServerResponse): void {
    const writeHead = res.writeHead;
    res.writeHead = function (this: ServerResponse, ...args: Parameters<ServerResponse['writeHead']>) {
      if (!this.headersSent) this.setHeader(CONTENT_VERSION, app.db.writeToken());
      return writeHead.apply(this, args);
    } as ServerResponse['writeHead'];
  }

  /**
   * A repeated anonymous read answered from the response cache before anything else runs (see
   * dispatch.ts `hitByUrl`): the same status, headers and bytes as a hit through the dispatcher,
   * without parsing the URL, routing or authenticating. The headers that keep a request off it are
   * looked for in node's raw list (building `req.headers` costs more than the rest of a hit); the
   * answer is written with a flat header list and logged once written. The in-flight limit does
   * not count these. True when it answered.
   */
  function hitLane(req: IncomingMessage, res: ServerResponse, started: number): boolean {
    const raw = req.rawHeaders;
    const url = req.url ?? '/';
    // GET /graphql?…: an anonymous query answered before (gateway/graphql-cache.ts), its media type following Accept.
    const graphql = url.startsWith('/graphql?');
    if (graphql ? !app.graphqlCache || url.includes('_wpnonce') : !app.cache) return false;
    let ifNoneMatch: string | undefined;
    let incoming: string | undefined;
    let accept: string | undefined;
    for (let i = 0; i < raw.length; i += 2) {
      const name = raw[i].toLowerCase();
      if (name === 'if-none-match') ifNoneMatch = ifNoneMatch === undefined ? raw[i + 1] : `${ifNoneMatch}, ${raw[i + 1]}`;
      // Sent twice, node joins the values with ", ", which is not a plain id: a new one is made.
      else if (name === 'x-request-id') incoming = incoming === undefined ? raw[i + 1] : '';
      else if (name === 'accept') accept = accept === undefined ? raw[i + 1] : `${accept}, ${raw[i + 1]}`;
      else if (NOT_PLAIN.includes(name)) return false;
    }
    const hit = graphql ? app.graphqlHitByUrl(url, accept, ifNoneMatch) : app.hitByUrl(url, ifNoneMatch);
    if (!hit) return false;
    const id = incoming !== undefined && REQUEST_ID.test(incoming) ? incoming : newRequestId();
    const socket = req.socket;
    const sentBefore = socket.bytesWritten;
    const ip = app.clientIp(socket.remoteAddress, (name) => { const v = req.headers[name]; return Array.isArray(v) ? v.join(', ') : v; });
    const headers = hit.headers.slice();
    headers[1] = id;
    res.writeHead(hit.status, headers);
    res.end(hit.bytes);
    logRequest({
      reqId: id, method: 'GET', path: loggedPath(url), status: hit.status,
      ms: Math.round((performance.now() - started) * 10) / 10, bytes: socket.bytesWritten - sentBefore, ip,
      aborted: socket.destroyed,
    });
    return true;
  }

  async function route(req: IncomingMessage, res: ServerResponse, id: string, ip: string | undefined): Promise<void> {
    const url = new URL(req.url ?? '/', 'http://localhost');
    const door = app.door(req.method ?? 'GET', url);
    if (door === 'graphql') {
      // yoga reads the body itself: a declared length over the limit is refused before it starts.
      if (Number(req.headers['content-length']) > config.bodyMaxBytes) {
        closeAfter(req, res);
        return void res.writeHead(413, { 'Content-Type': 'application/json; charset=UTF-8', 'X-Content-Type-Options': 'nosniff' }).end(JSON.stringify(bodyTooLarge().body()));
      }
      // A query sent with GET is a read: it stops when its client leaves, as a REST read does.
      // whatwg-node's listener returns the promise of the answer sent, though node's type says void.
      const serve = (yoga: Awaited<ReturnType<App['graphql']>>) => yoga.requestListener(req, res, { ip }) as unknown as Promise<void> | void;
      const listen = (yoga: Awaited<ReturnType<App['graphql']>>) => (req.method === 'GET' ? withAbortSignal(leaving(res), () => serve(yoga)) : serve(yoga));
      return app.graphql().then(listen, (err) => {
        log.error({ err, reqId: id }, 'the GraphQL server could not be loaded');
        if (!res.headersSent) res.writeHead(500, { 'Content-Type': 'application/json; charset=UTF-8' });
        res.end(JSON.stringify({ errors: [{ message: 'The server could not answer this request.' }] }));
      });
    }
    if (door === 'admin') return serveAdmin(app, req, res, ip);
    if (door === 'docs') {
      const out = app.apiDocs.serve(req.method ?? 'GET', url);
      return void res.writeHead(out.status, out.headers).end(out.body);
    }
    if (door === 'upload') return serveUploadFile(app, url, req, res);
    if (door === 'site') return req.method === 'GET' || req.method === 'HEAD' ? withAbortSignal(leaving(res), () => serveSite(app, req, res, ip)) : serveSite(app, req, res, ip);
    if (inFlight >= limit) {
      res.writeHead(503, { 'Content-Type': 'application/json; charset=UTF-8', 'X-Content-Type-Options': 'nosniff', 'Retry-After': '1' })
        .end(JSON.stringify({ code: 'rest_server_busy', message: 'The server is busy; try again shortly.', data: { status: 503 } }));
      return;
    }
    inFlight++;
    const core = { method: req.method ?? 'GET', url: req.url ?? '/', parsed: url, headers: new IncomingHeaders(req) as Headers, body: null as Buffer | null, stream: undefined as Readable | undefined, ip, id };
    const read = core.method === 'GET' || core.method === 'HEAD';
    try {
      // An upload's body goes to the dispatcher as the stream it is; other bodies are read whole.
      const streamed = app.wantsStream(core.method, core.url, req.headers['content-type']);
      if (streamed) core.stream = req;
      else if (core.method !== 'GET' && core.method !== 'HEAD') core.body = await readBody(req, config.bodyMaxBytes);
      // A read whose client leaves stops at its next SQL statement (src/db/abort.ts).
      const out = await (read ? withAbortSignal(leaving(res), () => app.handle(core)) : app.handle(core));
      // A refused upload leaves its body unread: close the connection rather than read the rest.
      if (streamed && !req.complete) closeAfter(req, res);
      // A streamed body (the content export) is written as it is produced, at the pace the client
      // reads it; a failure halfway can only cut the response short.
      if (out.stream) {
        res.writeHead(out.status, out.headers);
        await pipeline(Readable.from(out.stream), res).catch(() => res.destroy());
      } else {
        const body = out.bytes ?? out.body;
        res.writeHead(out.status, withLength(out.status, out.headers, body));
        res.end(body);
      }
    } catch (err) {
      const tooBig = (err as { status?: number }).status === 413;
      if (tooBig) closeAfter(req, res);
      if (!res.headersSent) {
        const out = app.errorResponse(core, tooBig ? bodyTooLarge() : err);
        res.writeHead(out.status, withLength(out.status, out.headers, out.body)).end(out.body);
      } else {
        log.error({ err, reqId: id }, 'unexpected error after the answer began');
        res.destroy();
      }
    } finally {
      inFlight--;
    }
  }
}
