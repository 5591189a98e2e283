// A validating proxy: an HTTP server that passes every request to the service behind it, byte for
// byte, and checks each REST answer against the OpenAPI document that service serves (the same
// check as the test helpers', scripts/contract/checker.ts). The answer goes back unchanged, with
// one header added when it breaks the document (`Contract-Violations`: the violations as JSON,
// base64url), and every violation is kept in the proxy's report.
//
// Put it in front of any instance to hold real traffic to the contract:
//   npm run contract:proxy -- --target=http://127.0.0.1:8080 [--port=8081] [--prefix=/wp-json]
// The test suite runs through it with CONTRACT_PROXY=1 (test/helpers/app.ts).
import { createServer, request as httpRequest, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { brotliDecompressSync, gunzipSync, inflateSync } from 'node:zlib';
import { Contract, type Violation } from './checker.js';

export const VIOLATIONS_HEADER = 'contract-violations';

export interface ContractProxyOptions {
  /** The service's origin (`http://127.0.0.1:8080`). */
  target: string;
  /** Its REST prefix (default `/wp-json`). */
  restPrefix?: string;
  /** The document to hold answers to; default: fetched from the service on the first request. */
  document?: Record<string, unknown>;
}

export interface ContractReport {
  /** Answers checked (REST answers of an operation the document has), and the violations found. */
  checked: number;
  passed: number;
  violations: Violation[];
}

export interface ContractProxy {
  server: Server;
  /** Where it listens, once `listen` resolved. */
  origin: string;
  report: ContractReport;
  listen(port?: number, host?: string): Promise<string>;
  close(): Promise<void>;
}

/** Headers that belong to one connection, not to the message (RFC 9110 §7.6.1). */
const HOP_BY_HOP = new Set(['connection', 'keep-alive', 'proxy-connection', 'transfer-encoding', 'upgrade', 'te', 'trailer']);

function decoded(body: Buffer, encoding: string | undefined): Buffer {
  switch ((encoding ?? '').trim().toLowerCase()) {
    case 'gzip': case 'x-gzip': return gunzipSync(body);
    case 'br': return brotliDecompressSync(body);
    case 'deflate': return inflateSync(body);
    default: return body;
  }
}

function toHeaders(h: IncomingHttpHeaders): Headers {
  const out = new Headers();
  for (const [k, v] of Object.entries(h)) {
    if (v === undefined) continue;
    for (const one of [v].flat()) out.append(k, one);
  }
  return out;
}

export function createContractProxy(o: ContractProxyOptions): ContractProxy {
  const target = new URL(o.target);
  const restPrefix = o.restPrefix ?? '/wp-json';
  const report: ContractReport = { checked: 0, passed: 0, violations: [] };
  let contract: Promise<Contract> | undefined;

  /** One request to the service, answered whole (the proxy checks complete answers). */
  const forward = (method: string, path: string, headers: IncomingHttpHeaders, body: Buffer) =>
    new Promise<{ status: number; headers: IncomingHttpHeaders; rawHeaders: string[]; body: Buffer }>((resolve, reject) => {
      const sent: Record<string, string | string[]> = {};
      for (const [k, v] of Object.entries(headers)) if (v !== undefined && !HOP_BY_HOP.has(k)) sent[k] = v;
      if (body.length || 'content-length' in headers) sent['content-length'] = String(body.length);
      // A connection per request: a kept-alive one the service closes as idle, reused at that moment,
      // would fail a request the service never saw.
      const req = httpRequest({ host: target.hostname, port: target.port, method, path, headers: sent, agent: false }, (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () => resolve({ status: res.statusCode ?? 502, headers: res.headers, rawHeaders: res.rawHeaders, body: Buffer.concat(chunks) }));
        res.on('error', reject);
      });
      req.on('error', reject);
      req.end(body);
    });

  const contractOf = (): Promise<Contract> => (contract ??= (async () => {
    if (o.document) return new Contract(o.document, restPrefix);
    const res = await fetch(new URL(`${restPrefix}/openapi.json`, target));
    if (!res.ok) throw new Error(`the service answered ${res.status} for its OpenAPI document`);
    return new Contract((await res.json()) as Record<string, unknown>, restPrefix);
  })().catch((err) => { contract = undefined; throw err; }));

  const server = createServer(async (req, res) => {
    try {
      const chunks: Buffer[] = [];
      for await (const c of req) chunks.push(c as Buffer);
      const method = req.method ?? 'GET';
      const path = req.url ?? '/';
      const answer = await forward(method, path, req.headers, Buffer.concat(chunks));
      const c = await contractOf();
      const url = new URL(path, target).href;
      let violations: Violation[] = [];
      if (c.routePath(new URL(url)) !== null) {
        const text = decoded(answer.body, answer.headers['content-encoding'] as string | undefined).toString('utf8');
        let body: unknown = text;
        try { body = text ? JSON.parse(text) : null; } catch { /* not JSON */ }
        violations = c.check(method, url, toHeaders(req.headers), { status: answer.status, headers: toHeaders(answer.headers), body, text });
        report.checked++;
        if (violations.length) report.violations.push(...violations); else report.passed++;
      }
      // The answer as the service sent it: its headers in their order and case, less the hop-by-hop ones.
      const out: string[] = [];
      for (let i = 0; i < answer.rawHeaders.length; i += 2) {
        if (!HOP_BY_HOP.has(answer.rawHeaders[i].toLowerCase())) out.push(answer.rawHeaders[i], answer.rawHeaders[i + 1]);
      }
      if (violations.length) out.push(VIOLATIONS_HEADER, Buffer.from(JSON.stringify(violations)).toString('base64url'));
      res.writeHead(answer.status, out);
      res.end(method === 'HEAD' ? undefined : answer.body);
    } catch (err) {
      res.writeHead(502, { 'content-type': 'text/plain' });
      res.end(`contract proxy: ${(err as Error).message}`);
    }
  });

  // Clients close idle connections first (undici after 4 s): a server closing them at the same
  // moment would reset a request sent on one.
  server.keepAliveTimeout = 60_000;

  const proxy: ContractProxy = {
    server, report, origin: '',
    async listen(port = 0, host = '127.0.0.1') {
      await new Promise<void>((ready, fail) => { server.once('error', fail); server.listen(port, host, () => ready()); });
      proxy.origin = `http://${host}:${(server.address() as AddressInfo).port}`;
      return proxy.origin;
    },
    async close() {
      server.closeAllConnections();
      await new Promise((done) => server.close(done));
    },
  };
  return proxy;
}

/** The violations a proxied answer carries in its header (none when it has none). */
export function violationsOf(headers: Headers): Violation[] {
  const value = headers.get(VIOLATIONS_HEADER);
  return value ? (JSON.parse(Buffer.from(value, 'base64url').toString('utf8')) as Violation[]) : [];
}
