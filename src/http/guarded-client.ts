// The one HTTP client for fetches the server makes on a caller's behalf (oEmbed now; link
// previews and SEO checks later). A URL given by a user must not become a way into the host's
// own network, so:
//  - the address is checked where the connection is made: in the connector of the undici
//    Agent, after DNS resolution. Every resolved address must be public, and the socket is
//    opened to exactly those addresses (the lookup handed to net.connect returns them), so a
//    name that resolves differently a moment later (DNS rebinding) cannot slip through;
//  - redirects are followed here, not by undici, and every hop is a new request through the
//    same connector: a hop to another origin opens a new, checked connection; a hop to the same
//    origin reuses the connection already checked;
//  - hosts named in an allow list (name, or name:port) skip the address check (a site's own
//    intranet provider; the tests' loopback servers). The list matches the URL's host as
//    written, never a resolved address;
//  - connect and total timeouts, a size cap counted while the body streams (the request is
//    aborted beyond it, nothing oversize is kept). GET and HEAD for URLs users give; POST, PUT
//    and DELETE (with a body) for the API calls of configured providers (src/seo/providers).
import type { buildConnector } from 'undici';

// undici (a hundred modules) is imported by the first server-side fetch, not at start-up.
type Undici = typeof import('undici');
let undici: Promise<Undici> | undefined;
/**
 * Node gives a CommonJS module's exports by name; the esbuild bundle gives a bundled CommonJS
 * module split into its own chunk as the default export only, so its names are read from there.
 */
const loadUndici = (): Promise<Undici> =>
  import('undici').then((m) => (typeof m.Agent === 'function' ? m : (m as unknown as { default: Undici }).default));
import { lookup as dnsLookup, type LookupAddress } from 'node:dns';
import { isIP, isIPv6, type LookupFunction } from 'node:net';
import { blockedReason } from './address.js';

export type GuardedFetchReason =
  | 'blocked_address' | 'timeout' | 'too_large' | 'too_many_redirects' | 'bad_url' | 'http_status' | 'network';

export class GuardedFetchError extends Error {
  override name = 'GuardedFetchError';
  constructor(
    readonly reason: GuardedFetchReason,
    message: string,
    /** The URL of the hop that failed, and for `http_status` the status received. */
    readonly details: { url?: string; status?: number } = {},
  ) {
    super(message);
  }
}

export interface GuardedFetchOptions {
  /** Hosts (`name` or `name:port`, IPv6 as `[::1]`) that may be any address, private included. */
  allowHosts?: string[];
  /** Largest body accepted (default 1 MB). */
  maxBytes?: number;
  /**
   * Keep the first `maxBytes` of a larger body instead of failing (`truncated` is then set): for
   * readers that only need the start of a document, such as the <head> of a page.
   */
  truncate?: boolean;
  /** The whole exchange, every redirect and the body included (default 10 s). */
  timeoutMs?: number;
  /** Each connection, DNS lookup included (default 5 s). */
  connectTimeoutMs?: number;
  headers?: Record<string, string>;
  /** Redirects followed before giving up (default 5). */
  maxRedirects?: number;
  method?: 'GET' | 'HEAD' | 'POST' | 'PUT' | 'DELETE';
  /** Request body (POST, PUT, DELETE). A 301/302/303 redirect drops it and continues with GET; 307/308 keep it. */
  body?: string;
  /** Resolve with any final status (an API's 4xx answer carries its reason) instead of failing on non-2xx. */
  anyStatus?: boolean;
}

export interface GuardedResponse {
  status: number;
  /** The final URL, after redirects. */
  url: string;
  headers: Headers;
  text: string;
  /** The body as received (before decoding): for files, which text decoding would spoil. */
  bytes: Buffer;
  /** Bytes of the body as received (before decoding). */
  size: number;
  truncated?: boolean;
}

export const GUARDED_FETCH_DEFAULTS = {
  maxBytes: 1024 * 1024,
  timeoutMs: 10_000,
  connectTimeoutMs: 5_000,
  maxRedirects: 5,
} as const;

const REDIRECTS = new Set([301, 302, 303, 307, 308]);
/** Headers that must not follow a redirect to another origin. */
const CREDENTIAL_HEADERS = ['authorization', 'cookie', 'proxy-authorization'];

/**
 * Fetches `url` with the guards above. Resolves only with a 2xx answer; everything else is a
 * GuardedFetchError whose `reason` says why.
 */
export async function guardedFetch(url: string, o: GuardedFetchOptions = {}): Promise<GuardedResponse> {
  const maxBytes = o.maxBytes ?? GUARDED_FETCH_DEFAULTS.maxBytes;
  const timeoutMs = o.timeoutMs ?? GUARDED_FETCH_DEFAULTS.timeoutMs;
  const maxRedirects = o.maxRedirects ?? GUARDED_FETCH_DEFAULTS.maxRedirects;
  let method = o.method ?? 'GET';
  let payload = o.body;
  // A body only goes with the methods that carry one: anything else is a bug, not a fetch failure.
  if (!['GET', 'HEAD', 'POST', 'PUT', 'DELETE'].includes(method)) throw new TypeError(`guardedFetch does not send ${String(method)}`);
  if (payload !== undefined && (method === 'GET' || method === 'HEAD')) throw new TypeError(`guardedFetch sends no body with ${method}`);
  const allow = allowList(o.allowHosts ?? []);
  let target = parseTarget(url);
  let headers: Record<string, string> = { 'user-agent': 'content-service', 'accept-encoding': 'identity', ...lowerKeys(o.headers ?? {}) };

  const controller = new AbortController();
  let timedOut = false;
  const timer = setTimeout(() => { timedOut = true; controller.abort(); }, timeoutMs);
  // One agent per call: its connector carries this call's allow list and connect timeout, and
  // nothing (no pooled socket) outlives the call.
  const { Agent, buildConnector, request } = await (undici ??= loadUndici());
  const agent = new Agent({
    connect: guardedConnector(buildConnector, allow, o.connectTimeoutMs ?? GUARDED_FETCH_DEFAULTS.connectTimeoutMs),
    headersTimeout: timeoutMs,
    bodyTimeout: timeoutMs,
  });
  try {
    for (let redirects = 0; ; redirects++) {
      // IP literals are refused before any work; names are checked by the connector.
      checkLiteral(target, allow);
      const res = await request(target.href, { method, headers, body: payload, dispatcher: agent, signal: controller.signal });
      // A body destroyed unread emits an abort error; the reader below sees errors through its iterator.
      res.body.on('error', () => {});
      const location = headerValue(res.headers.location);
      if (REDIRECTS.has(res.statusCode) && location) {
        res.body.destroy();
        if (redirects >= maxRedirects) throw new GuardedFetchError('too_many_redirects', `More than ${maxRedirects} redirects.`, { url: target.href });
        const next = parseTarget(location, target);
        if (next.origin !== target.origin) headers = Object.fromEntries(Object.entries(headers).filter(([k]) => !CREDENTIAL_HEADERS.includes(k)));
        if (payload !== undefined && res.statusCode !== 307 && res.statusCode !== 308) {
          method = 'GET';
          payload = undefined;
          headers = Object.fromEntries(Object.entries(headers).filter(([k]) => k !== 'content-type' && k !== 'content-length'));
        }
        target = next;
        continue;
      }
      if ((res.statusCode < 200 || res.statusCode > 299) && !o.anyStatus) {
        res.body.destroy();
        throw new GuardedFetchError('http_status', `The server answered ${res.statusCode}.`, { url: target.href, status: res.statusCode });
      }
      const body = await readBody(res.body, headerValue(res.headers['content-length']), maxBytes, o.truncate === true, target.href);
      return {
        status: res.statusCode,
        url: target.href,
        headers: toHeaders(res.headers),
        text: decode(body.bytes, headerValue(res.headers['content-type'])),
        bytes: body.bytes,
        size: body.bytes.length,
        ...(body.truncated ? { truncated: true } : {}),
      };
    }
  } catch (err) {
    throw asGuardedError(err, timedOut, target.href);
  } finally {
    clearTimeout(timer);
    agent.destroy().catch(() => {});
  }
}

/** A URL the client may fetch: absolute (or relative to `base`), http or https, no credentials. */
function parseTarget(raw: string, base?: URL): URL {
  let url: URL;
  try { url = new URL(raw, base); } catch { throw new GuardedFetchError('bad_url', 'Not a valid URL.', { url: raw }); }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new GuardedFetchError('bad_url', `Only http and https URLs can be fetched, not ${url.protocol}`, { url: url.href });
  if (!url.hostname) throw new GuardedFetchError('bad_url', 'The URL has no host.', { url: url.href });
  if (url.username || url.password) throw new GuardedFetchError('bad_url', 'URLs with credentials are not fetched.', { url: url.href });
  url.hash = '';
  return url;
}

function defaultPort(protocol: string): number {
  return protocol === 'https:' ? 443 : 80;
}

function checkLiteral(url: URL, allow: AllowList): void {
  const host = bare(url.hostname);
  if (!isIP(host) || allow(host, Number(url.port) || defaultPort(url.protocol))) return;
  const why = blockedReason(host);
  if (why) throw blocked(host, why, url.href);
}

function blocked(address: string, why: string, url?: string): GuardedFetchError {
  return new GuardedFetchError('blocked_address', `Refusing to connect to ${address} (${why}).`, url ? { url } : {});
}

/**
 * The Agent's connector: allow-listed hosts connect as asked; an IP literal must be public; a
 * name goes through a lookup that refuses unless every address it resolves to is public, and
 * hands net.connect only those addresses.
 */
function guardedConnector(buildConnector: Undici['buildConnector'], allow: AllowList, timeout: number): buildConnector.connector {
  const open = buildConnector({ timeout });
  const checked = buildConnector({ timeout, lookup: checkedLookup });
  return (opts, callback) => {
    const port = Number(opts.port) || defaultPort(opts.protocol);
    if (allow(opts.hostname, port)) return open(opts, callback);
    if (isIP(opts.hostname)) {
      const why = blockedReason(opts.hostname);
      if (why) return process.nextTick(callback, blocked(opts.hostname, why), null);
      return open(opts, callback);
    }
    return checked(opts, callback);
  };
}

const checkedLookup: LookupFunction = (hostname, options, callback) => {
  dnsLookup(hostname, { family: options.family, hints: options.hints, all: true }, (err, addresses: LookupAddress[]) => {
    if (err) return callback(err, '');
    if (!addresses.length) return callback(Object.assign(new Error(`${hostname} has no address`), { code: 'ENOTFOUND' }), '');
    for (const a of addresses) {
      const why = blockedReason(a.address);
      if (why) return callback(blocked(`${hostname} (${a.address})`, why), '');
    }
    if (options.all) callback(null, addresses);
    else callback(null, addresses[0].address, addresses[0].family);
  });
};

type AllowList = (hostname: string, port: number) => boolean;

/** `name`, `name:port`, `1.2.3.4`, `[::1]`, `[::1]:8080` or `::1`; names compared as the URL parser writes them. */
function allowList(entries: string[]): AllowList {
  const parsed: { host: string; port?: number }[] = [];
  for (const raw of entries) {
    const entry = raw.trim().toLowerCase();
    if (!entry) continue;
    let host = entry;
    let port: number | undefined;
    if (!isIPv6(entry)) {
      const m = /^(\[[^\]]+\]|[^:[\]]+)(?::(\d+))?$/.exec(entry);
      if (!m) continue;
      host = m[1];
      port = m[2] ? Number(m[2]) : undefined;
    }
    try {
      host = bare(new URL(`http://${isIPv6(host) ? `[${host}]` : host}/`).hostname);
    } catch { continue; }
    parsed.push({ host, port });
  }
  return (hostname, port) => {
    const host = bare(hostname.toLowerCase());
    return parsed.some((e) => e.host === host && (e.port === undefined || e.port === port));
  };
}

/** An IPv6 host without its URL brackets. */
function bare(host: string): string {
  return host.startsWith('[') && host.endsWith(']') ? host.slice(1, -1) : host;
}

async function readBody(body: AsyncIterable<Buffer> & { destroy(): unknown }, declared: string | undefined, maxBytes: number, truncate: boolean, url: string): Promise<{ bytes: Buffer; truncated: boolean }> {
  const tooLarge = () => new GuardedFetchError('too_large', `The response is larger than ${maxBytes} bytes.`, { url });
  if (!truncate && declared !== undefined && Number(declared) > maxBytes) {
    body.destroy();
    throw tooLarge();
  }
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of body) {
    if (size + chunk.length > maxBytes) {
      // Leaving the loop destroys the stream: the rest of the body is never read.
      if (!truncate) throw tooLarge();
      chunks.push(chunk.subarray(0, maxBytes - size));
      return { bytes: Buffer.concat(chunks), truncated: true };
    }
    chunks.push(chunk);
    size += chunk.length;
  }
  return { bytes: Buffer.concat(chunks), truncated: false };
}

function decode(bytes: Buffer, contentType: string | undefined): string {
  const charset = /;\s*charset=["']?([^"';\s]+)/i.exec(contentType ?? '')?.[1];
  try {
    return new TextDecoder(charset ?? 'utf-8').decode(bytes);
  } catch {
    return new TextDecoder('utf-8').decode(bytes); // an unknown charset label
  }
}

function asGuardedError(err: unknown, timedOut: boolean, url: string): GuardedFetchError {
  for (let e: unknown = err, depth = 0; e && depth < 5; e = (e as { cause?: unknown }).cause, depth++) {
    if (e instanceof GuardedFetchError) return e;
  }
  const code = (err as { code?: string } | null)?.code;
  if (timedOut || code === 'UND_ERR_CONNECT_TIMEOUT' || code === 'UND_ERR_HEADERS_TIMEOUT' || code === 'UND_ERR_BODY_TIMEOUT') {
    return new GuardedFetchError('timeout', 'The request timed out.', { url });
  }
  const message = err instanceof Error ? err.message : String(err);
  return new GuardedFetchError('network', `The request failed: ${code ? `${code} ` : ''}${message}`, { url });
}

function headerValue(value: string | string[] | undefined): string | undefined {
  return Array.isArray(value) ? value[0] : value;
}

function toHeaders(raw: Record<string, string | string[] | undefined>): Headers {
  const headers = new Headers();
  for (const [name, value] of Object.entries(raw)) {
    if (value === undefined) continue;
    for (const v of Array.isArray(value) ? value : [value]) {
      try { headers.append(name, v); } catch { /* a header value Headers refuses */ }
    }
  }
  return headers;
}

function lowerKeys(headers: Record<string, string>): Record<string, string> {
  return Object.fromEntries(Object.entries(headers).map(([k, v]) => [k.toLowerCase(), v]));
}
