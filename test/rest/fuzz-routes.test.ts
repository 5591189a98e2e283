// Property-based fuzzing of every route and method of the route table (deployment B, the larger
// one). Requests are generated from each endpoint's args (type, enum, bounds, items, format) with
// fast-check, mixed with hostile values: out-of-range and huge numbers, wrong types, huge strings,
// deep JSON, lone surrogates, NUL, RTL marks, `__proto__`/`constructor` keys, SQL and HTML
// payloads, path traversal, malformed JSON and multipart bodies. Path placeholders get existing
// and impossible ids. Callers: anonymous, an administrator and an author.
//
// Properties, for every request:
//  - never a 5xx;
//  - every error (4xx) is WordPress's shape {code, message, data: {status}} with data.status the
//    HTTP status;
//  - a rejected write (4xx) leaves the records it names as they were (read back as the
//    administrator, context=edit, before and after);
//  - nothing reaches Object.prototype (bracketed `__proto__[x]=…` query keys and JSON keys);
//  - an administrator's GET with an id beyond the database's range (or 0) in the path is 404, on
//    every route with a numeric placeholder.
//
// The seed is fixed (FUZZ_SEED overrides it) and the number of requests per route and method is
// FUZZ_RUNS (default 16): the run is the same every time and bounded. The count of requests sent
// is printed.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { API, createTestSite, provider, type TestSite, type TestUser } from '../helpers/app.js';
import { createApplicationPassword, createUser } from '../../src/site/operator.js';
import type { Role } from '../../src/auth/capabilities.js';
import type { ArgDef, Endpoint, Method, RouteEntry } from '../../gateway/types.js';

const SEED = Number(process.env.FUZZ_SEED ?? 20261123);
const RUNS = Number(process.env.FUZZ_RUNS ?? 16);

const HUGE = '9999999999999999999999999';
/** Addresses the guarded clients refuse or find closed: the fuzz never reaches the network. */
const SAFE_URLS = ['http://127.0.0.1:9/page', 'http://10.0.0.1/x', 'http://[::1]:9/', 'http://site.test/', 'http://site.test/?p=1', 'https://localhost:9/a?b=c#d'];
/** Routes that fetch the URL they are given: only addresses the guarded client refuses (no name lookups). */
const FETCHING = /url-details|oembed\/1\.0\/proxy|file_size/;
const FETCH_SAFE_URLS = SAFE_URLS.filter((u) => !u.includes('site.test'));
const BIG = 'x'.repeat(70_000);

/** `{"__proto__": …}` as a JSON parser makes it: an own property, not the prototype. */
const protoKey = (value: unknown) => JSON.parse(`{"__proto__": ${JSON.stringify(value)}}`) as Record<string, unknown>;
const deepArray = (depth: number): unknown => { let v: unknown = 1; for (let i = 0; i < depth; i++) v = [v]; return v; };
const deepObject = (depth: number): unknown => { let v: unknown = 1; for (let i = 0; i < depth; i++) v = { a: v }; return v; };

const HOSTILE_STRINGS = [
  '', ' ', '0', '-1', '1.5', '1e999', '-1e999', 'NaN', 'Infinity', '0x1f', '99999999999', HUGE, `-${HUGE}`, '2147483648', '-2147483649',
  'true', 'null', 'undefined', '[]', '{}', '\u0000', 'a\u0000b', '\ud800', 'x\udfffy', '\u202eevil\u202c', '\u200f\u200e', '\ufeff', '\u{1F4A9}\u0301',
  "' OR '1'='1", '1; DROP TABLE posts; --', "\\'); --", '%', '%%', '%00', '_', '\\', '*',
  '<script>alert(1)</script>', '"><img src=x onerror=alert(1)>', "'><svg onload=alert(1)>", 'javascript:alert(1)', 'data:text/html,<script>alert(1)</script>',
  '../../../etc/passwd', '..\\..\\windows\\win.ini', '%2e%2e%2f%2e%2e%2fetc%2fpasswd', '/etc/passwd\u0000.png',
  '__proto__', 'constructor', 'prototype', 'toString', 'hasOwnProperty', 'me', BIG,
];
const HOSTILE_VALUES: unknown[] = [
  ...HOSTILE_STRINGS, 0, -1, 1.5, -0.5, 2147483648, -2147483649, 9007199254740993, 1e308, -1e308, Number.MAX_SAFE_INTEGER,
  true, false, null, [], {}, [null], [[]], [{}], ['', ''], [1, 1], [HUGE], { a: { b: { c: {} } } }, deepArray(64), deepObject(64), deepArray(600), deepObject(600),
  protoKey({ polluted: 'yes' }), { constructor: { prototype: { polluted: 'yes' } } }, { toString: 'x', valueOf: 1 }, Array.from({ length: 2000 }, (_, i) => i),
];

const hostile: fc.Arbitrary<unknown> = fc.oneof(
  { weight: 6, arbitrary: fc.constantFrom(...HOSTILE_VALUES) },
  { weight: 1, arbitrary: fc.string({ unit: 'binary', maxLength: 24 }) },
  { weight: 1, arbitrary: fc.integer() },
  { weight: 1, arbitrary: fc.bigInt({ min: -(10n ** 30n), max: 10n ** 30n }).map(String) },
  { weight: 1, arbitrary: fc.double() },
  { weight: 1, arbitrary: fc.jsonValue({ maxDepth: 3 }) },
);

/** Names the handlers read besides their declared args, and keys with meaning to JavaScript. */
const EXTRA_KEYS = ['__proto__', 'constructor', 'prototype', '__proto__[polluted]', 'constructor[prototype][polluted]', 'id', 'context', '_fields', '_embed', '_method', '_jsonp', 'page', 'per_page', 'post_id', 'query', 'url', 'user_id', 'force', 'status', 'author', 'parent', 'meta'];

interface Pools { [placeholder: string]: string[] }
/** Ids and names per placeholder ("<segment before>:<name>"), filled in beforeAll; hostile ones added to each. */
const pools: Pools = {};
/** A request to send. */
interface Fuzzed { method: Method; path: string; caller: 'anonymous' | 'administrator' | 'author'; params: Record<string, unknown>; mode: BodyMode; impossibleId?: boolean }
type BodyMode = 'query' | 'json' | 'form' | 'broken-json' | 'json-array' | 'json-deep' | 'multipart' | 'broken-multipart' | 'raw-file';

const ID_NAME = /(^|_)(id|ids|parent|author|post|include|exclude|categories|tags|featured_media|reassign|media|user)$/;

function typesOf(s: ArgDef): string[] {
  return Array.isArray(s.type) ? s.type : s.type ? [s.type] : [];
}

/** A value the schema accepts (mostly): the shape well-formed clients send. */
function validValue(s: ArgDef, name: string, depth = 0, fetching = false): fc.Arbitrary<unknown> {
  if (s.enum?.length) return fc.constantFrom(...s.enum);
  const types = typesOf(s);
  if (!types.length || depth > 3) return fc.jsonValue({ maxDepth: 1 });
  return fc.oneof(...types.map((t): fc.Arbitrary<unknown> => {
    switch (t) {
      case 'integer': {
        const lo = typeof s.minimum === 'number' ? s.minimum : -5;
        const hi = typeof s.maximum === 'number' ? s.maximum : 120;
        const ids = ID_NAME.test(name) ? [...new Set(Object.values(pools).flat().filter((v) => /^\d+$/.test(v)).map(Number))] : [];
        return ids.length ? fc.oneof(fc.constantFrom(...ids), fc.integer({ min: lo, max: hi })) : fc.integer({ min: lo, max: hi });
      }
      case 'number': return fc.double({ min: -1000, max: 1000, noNaN: true });
      case 'boolean': return fc.boolean();
      case 'null': return fc.constant(null);
      case 'array': return fc.array(s.items ? validValue(s.items as ArgDef, name, depth + 1) : fc.jsonValue({ maxDepth: 1 }), { maxLength: 3 });
      case 'object': {
        const props = s.properties as Record<string, ArgDef> | undefined;
        if (props && Object.keys(props).length) {
          return fc.record(Object.fromEntries(Object.entries(props).map(([k, p]) => [k, validValue(p, k, depth + 1)])), { requiredKeys: [] });
        }
        return fc.dictionary(fc.constantFrom('a', 'b', 'content', 'title', 'text', 'x-y'), fc.jsonValue({ maxDepth: 1 }), { maxKeys: 3 });
      }
      default: // string
        if (s.format === 'date-time') return fc.date({ min: new Date('1970-01-01T00:00:00Z'), max: new Date('2100-01-01T00:00:00Z'), noInvalidDate: true }).map((d) => d.toISOString().slice(0, 19));
        if (s.format === 'uri' || name === 'url' || name.endsWith('_url')) return fc.constantFrom(...(fetching ? FETCH_SAFE_URLS : SAFE_URLS));
        if (s.format === 'email') return fc.constantFrom('fuzz@example.test', 'a+b@example.test', 'not-an-email');
        if (s.format === 'uuid') return fc.oneof(fc.uuid(), fc.constantFrom(...(pools['application-passwords:uuid'] ?? ['x'])));
        return fc.oneof(fc.constantFrom('a', 'post', 'Hello world', 'publish', 'draft', 'edit', 'view', 'embed', 'en_US', 'company'), fc.string({ maxLength: 12 }));
    }
  }));
}

const bodyModes = (e: Endpoint, method: Method): fc.Arbitrary<BodyMode> => {
  if (method === 'GET') return fc.constant('query');
  const modes: BodyMode[] = ['query', 'json', 'json', 'form', 'broken-json', 'json-array', 'json-deep'];
  if (e.upload || e.formUpload) modes.push('multipart', 'multipart', 'broken-multipart');
  if (e.upload) modes.push('raw-file', 'raw-file');
  return fc.constantFrom(...modes);
};

/** A path with its placeholders filled from the pools (existing, impossible and hostile values). */
function pathArb(pattern: string, method: Method): fc.Arbitrary<string> {
  const parts: fc.Arbitrary<string>[] = [];
  let rest = pattern;
  const re = /\/([^/()]+)\/\(\?P<(\w+)>(?:[^()]|\([^()]*\))*\)/;
  const out: string[] = [];
  for (let m; (m = re.exec(rest)); ) {
    out.push(rest.slice(0, m.index) + `/${m[1]}/`);
    const key = `${m[1]}:${m[2]}`;
    let pool = pools[key] ?? ['1'];
    // Never revoke the callers' own sign-in.
    if (key === 'users:user_id' && method === 'DELETE') pool = pool.filter((v) => v !== 'me');
    const hostileIds = m[2] === 'name' ? ['core/x', 'a/b', `${'a'.repeat(300)}/b`] : /\\d|\[\\d\]/.test(m[0]) ? ['0', '99999999999', HUGE, '00001', '%E0%A4%A'] : ['__proto__', 'constructor', 'x'.repeat(3000), '..', 'a-b_c', '%E0%A4%A', '%C0%AE%C0%AE'];
    parts.push(fc.oneof({ weight: 4, arbitrary: fc.constantFrom(...pool) }, { weight: 1, arbitrary: fc.constantFrom(...hostileIds) }));
    rest = rest.slice(m.index + m[0].length);
  }
  out.push(rest);
  if (!parts.length) return fc.constant(pattern);
  return fc.tuple(...parts).map((values) => out.map((s, i) => s + (values[i] ?? '')).join(''));
}

function requestArb(route: RouteEntry, e: Endpoint, method: Method): fc.Arbitrary<Fuzzed> {
  const names = Object.keys(e.args);
  const required = names.filter((n) => e.args[n].required === true);
  const argRecord = names.length
    ? fc.shuffledSubarray(names, { maxLength: Math.min(4, names.length) }).chain((chosen) => {
      const keys = [...new Set([...required, ...chosen])];
      return fc.record(Object.fromEntries(keys.map((k) => [k, validValue(e.args[k], k, 0, FETCHING.test(route.pattern))])), { requiredKeys: required });
    })
    : fc.constant({} as Record<string, unknown>);
  const oneHostile = fc.option(fc.tuple(names.length ? fc.oneof(fc.constantFrom(...names), fc.constantFrom(...EXTRA_KEYS)) : fc.constantFrom(...EXTRA_KEYS), hostile), { freq: 2 });
  const caller = fc.constantFrom('anonymous' as const, 'administrator' as const, 'administrator' as const, 'author' as const);
  return fc.tuple(caller, argRecord, oneHostile, bodyModes(e, method)).chain(([who, args, bad, mode]) =>
    pathArb(route.pattern, method).map((path): Fuzzed => {
      const params: Record<string, unknown> = { ...args };
      if (bad) {
        // Through defineProperty: `__proto__` must be a key of the params, not their prototype.
        Object.defineProperty(params, bad[0], { value: bad[1], enumerable: true, writable: true, configurable: true });
      }
      return { method, path, caller: who, params, mode };
    }));
}

/** PHP-style query pairs: `a[]=1`, `a[b][c]=2`. */
function queryPairs(value: unknown, key: string, out: [string, string][], depth = 0): void {
  if (depth > 40) { out.push([key, '1']); return; }
  if (Array.isArray(value)) {
    if (!value.length) out.push([key, '']);
    value.forEach((v, i) => queryPairs(v, v !== null && typeof v === 'object' ? `${key}[${i}]` : `${key}[]`, out, depth + 1));
  } else if (value !== null && typeof value === 'object') {
    const keys = Object.keys(value);
    if (!keys.length) out.push([key, '']);
    for (const k of keys) queryPairs((value as Record<string, unknown>)[k], `${key}[${k}]`, out, depth + 1);
  } else out.push([key, value === null ? '' : String(value)]);
}

function encodeQuery(params: Record<string, unknown>): string {
  const pairs: [string, string][] = [];
  for (const k of Object.keys(params)) queryPairs(params[k], k, pairs);
  // encodeURIComponent refuses lone surrogates: a URL carries U+FFFD for them (JSON bodies carry them as they are).
  const enc = (s: string) => encodeURIComponent(s.replace(/[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/g, '\ufffd'));
  return pairs.map(([k, v]) => `${enc(k)}=${enc(v)}`).join('&');
}

function multipart(params: Record<string, unknown>, boundary: string): Buffer {
  const chunks: string[] = [];
  const pairs: [string, string][] = [];
  for (const k of Object.keys(params)) queryPairs(params[k], k, pairs);
  for (const [k, v] of pairs) chunks.push(`--${boundary}\r\nContent-Disposition: form-data; name="${k.replace(/"/g, '%22')}"\r\n\r\n${v}\r\n`);
  chunks.push(`--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="../../../etc/pass\u0000wd.png"\r\nContent-Type: image/png\r\n\r\n\u0089PNG\r\n\u001a\nnot really\r\n`);
  chunks.push(`--${boundary}--\r\n`);
  return Buffer.from(chunks.join(''), 'utf8');
}

const BROKEN_MULTIPART = [
  (b: string) => `--${b}\r\nContent-Disposition: form-data; name="title"\r\n\r\nunterminated`,
  (b: string) => `--${b}\r\nContent-Disposition: form-data; name=\r\n\r\nx\r\n--${b}--\r\n`,
  (b: string) => `--other\r\nContent-Disposition: form-data; name="a"\r\n\r\nx\r\n--other--\r\n`,
  (b: string) => `--${b}\r\nContent-Disposition: form-data; name="file"; filename="..%2f..%2fx.php"\r\n\r\n<?php ?>\r\n--${b}--\r\n`,
  (_b: string) => 'garbage',
  (_b: string) => '',
];

interface Sent { status: number; body: any; text: string; contentType: string; url: string; summary: string }

let site: TestSite;
let uploads = '';
let serial = 0;
const callers: Record<'administrator' | 'author', TestUser> = {} as never;

async function newUser(role: Role): Promise<TestUser> {
  const login = `fuzz${++serial}`;
  const user = await createUser(site.db, { login, email: `${login}@example.test`, role, password: 'pw' });
  const { password } = await createApplicationPassword(site.db, user.id, 'fuzz');
  return { id: user.id, login, role, password, auth: 'Basic ' + Buffer.from(`${login}:${password}`).toString('base64') };
}

async function send(f: Fuzzed, n: number): Promise<Sent> {
  const headers = new Headers();
  if (f.caller !== 'anonymous') headers.set('authorization', callers[f.caller].auth);
  let query = '';
  let body: BodyInit | null = null;
  const boundary = `----fuzz${n}`;
  switch (f.mode) {
    case 'query': query = encodeQuery(f.params); break;
    case 'json': headers.set('content-type', 'application/json'); body = JSON.stringify(f.params); break;
    case 'form': headers.set('content-type', 'application/x-www-form-urlencoded'); body = encodeQuery(f.params); break;
    case 'broken-json': headers.set('content-type', 'application/json'); body = `${JSON.stringify(f.params).slice(0, -1)},"a":`; break;
    case 'json-array': headers.set('content-type', 'application/json; charset=utf-8'); body = JSON.stringify([f.params, 1, 'x']); break;
    case 'json-deep': headers.set('content-type', 'application/json'); body = `${JSON.stringify(f.params).slice(0, -1)}${Object.keys(f.params).length ? ',' : ''}"deep":${'['.repeat(20_000)}1${']'.repeat(20_000)}}`; break;
    case 'multipart': headers.set('content-type', `multipart/form-data; boundary=${boundary}`); body = new Uint8Array(multipart(f.params, boundary)); break;
    case 'broken-multipart': {
      const make = BROKEN_MULTIPART[n % BROKEN_MULTIPART.length];
      headers.set('content-type', n % 3 === 0 ? 'multipart/form-data' : `multipart/form-data; boundary=${boundary}`);
      body = make(boundary);
      break;
    }
    case 'raw-file':
      query = encodeQuery(f.params);
      headers.set('content-type', 'image/png');
      headers.set('content-disposition', ['attachment; filename="../../../../etc/passwd"', 'attachment; filename="a\u0000.php.png"'.replace('\u0000', '%00'), 'attachment; filename=', 'inline', 'attachment; filename*=UTF-8\'\'%E2%80%AEgnp.exe'][n % 5]);
      body = new Uint8Array(Buffer.from('\u0089PNG not an image'));
      break;
  }
  const url = `${API}${f.path}${query ? `?${query}` : ''}`;
  const res = await site.app.fetch(new Request(url, { method: f.method, headers, body }));
  const text = await res.text();
  let parsed: unknown = text;
  try { parsed = text ? JSON.parse(text) : null; } catch { /* not JSON */ }
  const shown = (s: string) => (s.length > 300 ? `${s.slice(0, 300)}… (${s.length} chars)` : s);
  const summary = `${f.method} ${shown(url.slice(API.length))} as ${f.caller}, ${f.mode} body ${shown(typeof body === 'string' ? body : body ? `(${(body as Uint8Array).length} bytes)` : '')}`;
  return { status: res.status, body: parsed, text, contentType: res.headers.get('content-type') ?? '', url, summary };
}

/**
 * What a write names: every prefix of its path that ends in a filled placeholder, read as the
 * administrator (context=edit where the route takes it). A create on a collection: its total.
 */
async function snapshot(f: Fuzzed, route: RouteEntry): Promise<string> {
  const reads: string[] = [];
  const segments = f.path.split('/');
  const patternSegments = route.pattern.split('/');
  for (let i = 1; i < segments.length; i++) {
    if (!patternSegments[i]?.startsWith('(?P<')) continue;
    if (segments[i] === 'me') continue;
    const prefix = segments.slice(0, i + 1).join('/');
    const res = await site.req('GET', `${prefix}?context=edit`, { as: callers.administrator });
    reads.push(`${prefix}: ${res.status} ${res.status === 200 ? res.text : ''}`);
  }
  if (!route.pattern.includes('(?P<') && f.method === 'POST' && route.endpoints.some((e) => e.methods.includes('GET') && 'per_page' in e.args)) {
    const get = route.endpoints.find((e) => e.methods.includes('GET'))!;
    const res = await site.req('GET', `${f.path}?per_page=1&context=edit${'status' in get.args ? '&status=any' : ''}`, { as: callers.administrator });
    reads.push(`${f.path}: ${res.status} total ${res.headers.get('x-wp-total')}`);
  }
  return reads.join('\n');
}

/** The built-in prototypes' own properties as they were before the run. */
const PROTOTYPES = [Object.prototype, Array.prototype, Function.prototype, String.prototype] as Record<string, unknown>[];
const pristine = PROTOTYPES.map((p) => new Map(Reflect.ownKeys(p).map((k) => [k, Object.getOwnPropertyDescriptor(p, k)])));

/** What a request added to or changed on the built-in prototypes; put back as it was, so the run goes on. */
function pollution(): string[] {
  const found: string[] = [];
  PROTOTYPES.forEach((proto, i) => {
    for (const k of Reflect.ownKeys(proto)) {
      const was = pristine[i].get(k);
      const now = Object.getOwnPropertyDescriptor(proto, k)!;
      if (was && was.value === now.value && was.get === now.get && was.set === now.set) continue;
      found.push(String(k));
      if (was) Object.defineProperty(proto, k, was); else delete proto[k as string];
    }
  });
  return found;
}

/** Integers beyond every range, one arg at a time. */
const OUT_OF_RANGE = [HUGE, '-1'];
/** Names handlers read without declaring them (seo/v1): swept like integer args. */
const UNDECLARED_IDS = ['post_id', 'user_id', 'term', 'id'];

/**
 * Every integer (or untyped) arg and every numeric path placeholder of the endpoint with values
 * out of range, as the administrator, the other args absent: the "id beyond the database" rule
 * for each of them, whatever the random samples happened to pick.
 */
function integerSweep(route: RouteEntry, e: Endpoint, method: Method): Fuzzed[] {
  if (SKIP.has(`${method} ${route.pattern}`)) return [];
  const [base] = fc.sample(pathArb(route.pattern, method), { seed: SEED, numRuns: 1 });
  const out: Fuzzed[] = [];
  const names = Object.entries(e.args).filter(([, a]) => !typesOf(a).length || typesOf(a).includes('integer') || typesOf(a).includes('number')).map(([n]) => n);
  for (const name of new Set([...names, ...UNDECLARED_IDS])) {
    for (const v of OUT_OF_RANGE) out.push({ method, path: base, caller: 'administrator', params: { [name]: v }, mode: 'query' });
  }
  // Numeric placeholders: the same path with one of them out of range.
  const segments = base.split('/');
  route.pattern.split('/').forEach((seg, i) => {
    if (!/^\(\?P<\w+>(\\d|\[\\d\])/.test(seg) && !/^\(\?P<user_id>/.test(seg)) return;
    for (const v of [HUGE, '0']) out.push({ method, path: segments.map((s, j) => (j === i ? v : s)).join('/'), caller: 'administrator', params: {}, mode: 'query', impossibleId: true });
  });
  return out;
}

/** WordPress's own 501s: DELETE without force where there is no trash, an oEmbed format it does not speak. */
const WP_501 = new Set(['rest_trash_not_supported', 'oembed_invalid_format']);

/**
 * seo/v1 answers some failures in the plugin's own shapes (see the plugin reference): the head of
 * the 404 page, `{type: 'failure'}` from file_size, and `{success: false, status}` objects.
 */
function pluginShaped(route: RouteEntry, body: any): boolean {
  if (!route.pattern.startsWith('/seo/v1/') || !body || typeof body !== 'object') return false;
  if (route.pattern === '/seo/v1/get_head') return typeof body.html === 'string' && body.status === 404;
  if (route.pattern === '/seo/v1/file_size') return body.type === 'failure' && typeof body.response === 'string';
  const answer = body.json && typeof body.json === 'object' ? body.json : body; // social_profiles wraps it in `json`
  return answer.success === false && typeof answer.status === 'number';
}

const WRITES = new Set<Method>(['POST', 'PUT', 'PATCH', 'DELETE']);
/** Routes the fuzz leaves to their own tests: deleting the caller itself ends the run's sign-ins. */
const SKIP = new Set(['DELETE /core/v2/users/me']);

beforeAll(async () => {
  uploads = mkdtempSync(join(tmpdir(), 'fuzz-uploads-'));
  site = await createTestSite({ uploadsDir: uploads, deployment: 'B', loopbackUrl: 'http://127.0.0.1:9', formRateLimit: 0 });
  callers.administrator = await newUser('administrator');
  callers.author = await newUser('author');
  const as = callers.administrator;
  const post = async (type: 'posts' | 'pages', who: TestUser, json: Record<string, unknown>) => {
    const res = await site.req('POST', `/core/v2/${type}`, { as: who, json });
    if (res.status !== 201) throw new Error(`fixture ${type}: ${res.status} ${res.text.slice(0, 300)}`);
    return res.body.id as number;
  };
  const posts = [await post('posts', as, { title: 'Fuzz published', status: 'publish', content: '<p>x</p>' }), await post('posts', callers.author, { title: 'Fuzz draft' }), await post('posts', as, { title: 'Fuzz private', status: 'private' })];
  const pages = [await post('pages', as, { title: 'Fuzz page', status: 'publish' }), await post('pages', as, { title: 'Fuzz child', status: 'draft' })];
  for (const [type, id] of [['posts', posts[0]], ['pages', pages[0]]] as const) {
    await site.req('POST', `/core/v2/${type}/${id}`, { as, json: { title: 'Fuzz revised' } });
    await site.req('POST', `/core/v2/${type}/${id}/autosaves`, { as, json: { title: 'Fuzz autosave' } });
  }
  const revisions = [...(await site.req('GET', `/core/v2/posts/${posts[0]}/revisions`, { as })).body, ...(await site.req('GET', `/core/v2/pages/${pages[0]}/revisions`, { as })).body].map((r: any) => String(r.id));
  const autosaves = [...(await site.req('GET', `/core/v2/posts/${posts[0]}/autosaves`, { as })).body, ...(await site.req('GET', `/core/v2/pages/${pages[0]}/autosaves`, { as })).body].map((r: any) => String(r.id));
  const png = Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAQAAAACCAIAAADwyuo0AAAACXBIWXMAAAPoAAAD6AG1e1JrAAAAEklEQVQImWP4z8AARwjWfwYGAG+qB/l/O6VpAAAAAElFTkSuQmCC', 'base64');
  const media: string[] = [];
  for (const who of [as, callers.author]) {
    const res = await site.req('POST', '/core/v2/media', { as: who, body: png, headers: { 'content-type': 'image/png', 'content-disposition': `attachment; filename="fuzz-${++serial}.png"` } });
    if (res.status !== 201) throw new Error(`media fixture: ${res.status} ${res.text.slice(0, 300)}`);
    media.push(String(res.body.id));
  }
  const terms = async (taxonomy: string) => [String((await site.req('POST', `/core/v2/${taxonomy}`, { as, json: { name: `Fuzz ${taxonomy} ${++serial}` } })).body.id), String((await site.req('POST', `/core/v2/${taxonomy}`, { as, json: { name: `Fuzz ${taxonomy} ${++serial}` } })).body.id)];
  const targets = [await newUser('subscriber'), await newUser('editor')];
  const uuids = [];
  for (const t of targets) uuids.push((await createApplicationPassword(site.db, t.id, 'Fuzz target')).uuid);
  const form = await site.req('POST', '/forms/v1/contact-forms?context=save', { as, json: { title: 'Fuzz form' } });
  Object.assign(pools, {
    'posts:id': posts.map(String), 'posts:parent': posts.map(String), 'pages:id': pages.map(String), 'pages:parent': pages.map(String),
    'revisions:id': revisions, 'autosaves:id': autosaves, 'media:id': media,
    'categories:id': await terms('categories'), 'tags:id': await terms('tags'),
    'users:id': targets.map((t) => String(t.id)), 'users:user_id': [...targets.map((t) => String(t.id)), 'me'],
    'application-passwords:uuid': uuids, 'contact-forms:id': [String(form.body.id)], 'item_settings:id': posts.map(String),
    'types:type': ['post', 'page', 'attachment'], 'statuses:status': ['publish', 'draft', 'trash'], 'taxonomies:taxonomy': ['category', 'post_tag'],
    'introductions:introduction_id': ['fuzz-intro'], 'import:plugin': ['wxr', 'other-plugin'], 'wxr:type': ['content'], 'other-plugin:type': ['posts'],
    'abilities:name': ['core/create-draft', 'core/get-site-info'],
  });
});
afterAll(async () => { await site?.close(); if (uploads) rmSync(uploads, { recursive: true, force: true }); });

describe(`every route fuzzed (${provider})`, () => {
  it('never answers 5xx, answers errors in WordPress\'s shape and leaves records alone on a rejected write', async () => {
    const problems: string[] = [];
    const perStatus = new Map<number, number>();
    let sent = 0;
    let routeIndex = 0;
    const routes = [...site.app.table];
    for (const route of routes) {
      for (const e of route.endpoints) {
        for (const method of e.methods) {
          routeIndex++;
          if (SKIP.has(`${method} ${route.pattern}`)) continue;
          const samples = [...fc.sample(requestArb(route, e, method), { seed: SEED + routeIndex, numRuns: RUNS }), ...integerSweep(route, e, method)];
          for (const f of samples) {
            const n = ++serial;
            const write = WRITES.has(method);
            const before = write ? await snapshot(f, route) : '';
            const res = await send(f, n);
            sent++;
            perStatus.set(res.status, (perStatus.get(res.status) ?? 0) + 1);
            const where = `${route.pattern} — ${res.summary}`;
            if (res.status >= 500 && !(res.status === 501 && WP_501.has(res.body?.code))) problems.push(`${res.status} ${res.text.slice(0, 200)} ← ${where}`);
            if (res.status >= 400 && !/javascript/.test(res.contentType) && !pluginShaped(route, res.body)) {
              const b = res.body;
              const shaped = b && typeof b === 'object' && typeof b.code === 'string' && typeof b.message === 'string' && b.data && b.data.status === res.status;
              if (!shaped) problems.push(`not WordPress's error shape (${res.status}): ${res.text.slice(0, 200)} ← ${where}`);
            }
            if (write && res.status >= 400 && res.status < 500) {
              const after = await snapshot(f, route);
              if (after !== before) problems.push(`rejected write (${res.status} ${res.body?.code}) changed a record:\nbefore ${before.slice(0, 600)}\nafter  ${after.slice(0, 600)}\n← ${where}`);
            }
            // An impossible id in the path of a read is "not found" (404), whatever its code. Except
            // the latest autosave: WordPress answers the parent's autosave whatever the id says.
            if (f.impossibleId && method === 'GET' && res.status !== 404 && !/\/autosaves\/\(\?P<id>/.test(route.pattern)) {
              problems.push(`impossible id answered ${res.status} ${res.body?.code ?? ''}, not 404 ← ${where}`);
            }
            const polluted = pollution();
            if (polluted.length) problems.push(`prototype polluted: ${polluted.join(', ')} ← ${where}`);
          }
        }
      }
    }
    console.log(`fuzz (${provider}): ${sent} requests over ${routeIndex} route methods, seed ${SEED}, ${RUNS} per route method; statuses ${JSON.stringify(Object.fromEntries([...perStatus].sort(([a], [b]) => a - b)))}`);
    expect(problems).toEqual([]);
  }, 600_000);
});
