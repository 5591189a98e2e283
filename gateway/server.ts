// node:http front. REST requests skip yoga's fetch layer and go straight to the dispatcher;
// /graphql is served by yoga. A bounded number of requests is worked on at once.
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import type { App } from './app.js';

const MAX_BODY = 64 * 1024 * 1024;

function readBody(req: IncomingMessage): Promise<Buffer | null> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    req.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size > MAX_BODY) { reject(Object.assign(new Error('body too large'), { status: 413 })); req.destroy(); return; }
      chunks.push(chunk);
    });
    req.on('end', () => resolve(chunks.length ? Buffer.concat(chunks) : null));
    req.on('error', reject);
  });
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

/** The HTML sign-in pages: low traffic, so they go through a fetch Request. */
async function serveAdmin(app: App, req: IncomingMessage, res: ServerResponse): Promise<void> {
  try {
    const body = req.method === 'GET' || req.method === 'HEAD' ? null : await readBody(req);
    const request = new Request(new URL(req.url ?? '/', app.config.siteUrl), { method: req.method, headers: toHeaders(req), body: body ? new Uint8Array(body) : null });
    const out = await app.admin(request, req.socket.remoteAddress);
    const headers: Record<string, string | string[]> = {};
    out.headers.forEach((value, name) => { if (name !== 'set-cookie') headers[name] = value; });
    const cookies = out.headers.getSetCookie();
    if (cookies.length) headers['set-cookie'] = cookies;
    res.writeHead(out.status, headers);
    res.end(req.method === 'HEAD' ? undefined : Buffer.from(await out.arrayBuffer()));
  } catch (err) {
    console.error(err);
    if (!res.headersSent) res.writeHead(500, { 'Content-Type': 'text/plain; charset=UTF-8' });
    res.end('The server could not answer this request.');
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
    console.error(err);
    if (!res.headersSent) res.writeHead(500, { 'Content-Type': 'text/plain; charset=UTF-8' });
    res.end();
  }
}

/** The public pages: GET and HEAD of every address outside REST, GraphQL, the admin pages and the uploads. */
async function serveSite(app: App, req: IncomingMessage, res: ServerResponse): Promise<void> {
  try {
    const out = await app.site({ method: req.method ?? 'GET', url: req.url ?? '/' });
    res.writeHead(out.status, out.headers);
    res.end(req.method === 'HEAD' ? undefined : out.body);
  } catch (err) {
    console.error(err);
    if (!res.headersSent) res.writeHead(500, { 'Content-Type': 'text/plain; charset=UTF-8' });
    res.end('The server could not answer this request.');
  }
}

export function createHttpServer(app: App): Server {
  let inFlight = 0;
  const limit = app.config.maxInFlight;
  return createServer(async (req: IncomingMessage, res: ServerResponse) => {
    const url = new URL(req.url ?? '/', 'http://localhost');
    if (url.pathname === '/graphql') return void app.yoga(req, res);
    if (app.isAdmin(url)) return void serveAdmin(app, req, res);
    if (app.apiDocs.claims(req.method ?? 'GET', url)) {
      const out = app.apiDocs.serve(req.method ?? 'GET', url);
      return void res.writeHead(out.status, out.headers).end(out.body);
    }
    if (app.isUpload(url)) return void serveUploadFile(app, url, req, res);
    if (!app.isRest(url)) return void serveSite(app, req, res);
    if (inFlight >= limit) {
      res.writeHead(503, { 'Content-Type': 'application/json; charset=UTF-8', 'Retry-After': '1' })
        .end(JSON.stringify({ code: 'rest_server_busy', message: 'The server is busy; try again shortly.', data: { status: 503 } }));
      return;
    }
    inFlight++;
    try {
      // An upload's body goes to the dispatcher as the stream it is; other bodies are read whole.
      const streamed = app.wantsStream(req.method ?? 'GET', req.url ?? '/', req.headers['content-type']);
      const body = streamed || req.method === 'GET' || req.method === 'HEAD' ? null : await readBody(req);
      const out = await app.handle({ method: req.method ?? 'GET', url: req.url ?? '/', headers: toHeaders(req), body, stream: streamed ? req : undefined, ip: req.socket.remoteAddress });
      // A refused upload leaves its body unread: close the connection rather than read the rest.
      if (streamed && !req.complete) { out.headers.Connection = 'close'; res.on('finish', () => req.destroy()); }
      res.writeHead(out.status, out.headers);
      // A streamed body (the content export) is written as it is produced, at the pace the client
      // reads it; a failure halfway can only cut the response short.
      if (out.stream) await pipeline(Readable.from(out.stream), res).catch(() => res.destroy());
      else res.end(out.bytes ?? out.body);
    } catch (err) {
      const status = (err as { status?: number }).status === 413 ? 413 : 500;
      if (!res.headersSent) {
        res.writeHead(status, { 'Content-Type': 'application/json; charset=UTF-8' });
        res.end(JSON.stringify(status === 413
          ? { code: 'rest_request_too_large', message: 'The request body is too large.', data: { status } }
          : { code: 'internal_server_error', message: 'The server could not answer this request.', data: { status } }));
      }
    } finally {
      inFlight--;
    }
  });
}
