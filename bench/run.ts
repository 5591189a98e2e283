// `npm run bench`: seeds a bench database, starts the service as a child process and loads it
// with autocannon, next to a bare node:http server replaying the same bytes (the ceiling) and a
// hand-written server reading the same database with plain SQL (the floor, bench/floor-server.ts).
//
//   npm run bench -- --posts=10000 --db=sqlite|postgres|both --duration=10 --connections=32 --workers=2
//   (or BENCH_POSTS, BENCH_DB, BENCH_DURATION, BENCH_CONNECTIONS, BENCH_WORKERS; also --warmup=S
//   (default 1), --nocache=0 to skip the runs with CACHE_ENTRIES=0, --only=writes for the write
//   scenarios alone (creates through batch/v1 and single creates), --only=graphql for the GraphQL
//   scenarios sent as automatic persisted queries over GET (with the bare list baseline and the
//   nested query's SQL statements), and --ports=N to use ports N, N+1, …; BENCH_KEEP_LOGS=1 keeps
//   the services' logs)
//
// Results: a table on stdout and bench/results-<db>.json (-<posts>.json for other sizes than 10,000). The service runs as `npm start` runs
// it, compiled (dist/gateway/main.js, built first when stale); BENCH_SERVER_ENTRY replaces it (a
// .ts entry runs under tsx) to try the harness against a stand-in.
import autocannon from 'autocannon';
import { spawn, type ChildProcess } from 'node:child_process';
import { createHash } from 'node:crypto';
import { mkdtempSync, openSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { Agent, createServer, request as httpRequest } from 'node:http';
import { availableParallelism, cpus, tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { openDb } from '../src/db/client.js';
import { loadConfig } from '../src/config.js';
import { createApp } from '../gateway/app.js';
import { recreateDatabase, seed, vacuumContent } from './seed.js';
import { createApplicationPassword } from '../src/site/operator.js';
import sharp from 'sharp';
import { formatMemory, sampleMemory, treeRss, type ProcessMemory } from './processes.js';
import { forSiteSize, scaleScenarios, scaleTargets, slowestTarget, SCALE_POSTS_REFERENCE } from './scale.js';
// @ts-expect-error: a plain .mjs script, no types
import { buildService } from '../scripts/build.mjs';
import { targets } from './targets.js';
import { readTargets } from './read-targets.js';
import { serviceTargets } from './service-targets.js';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const HOST = '127.0.0.1';
const ADMIN_USER = 'admin';
const ADMIN_PASSWORD = 'bench-admin-password';
const PG_URL = process.env.BENCH_PG_URL ?? 'postgresql://postgres@127.0.0.1:5432/bench_site';

// ------------------------------------------------------------------ options

function option(name: string, fallback: string): string {
  const argv = process.argv.slice(2);
  for (let i = 0; i < argv.length; i++) {
    if (argv[i].startsWith(`--${name}=`)) return argv[i].slice(name.length + 3);
    if (argv[i] === `--${name}` && argv[i + 1] !== undefined && !argv[i + 1].startsWith('--')) return argv[i + 1];
  }
  return process.env[`BENCH_${name.toUpperCase()}`] ?? fallback;
}

function positive(name: string, fallback: number, min = 1): number {
  const raw = option(name, String(fallback));
  const n = Number(raw);
  if (!Number.isFinite(n) || n < min) throw new Error(`--${name}: expected a number >= ${min}, got "${raw}"`);
  return n;
}

const cores = availableParallelism();
const opts = {
  posts: Math.floor(positive('posts', 10_000)),
  db: option('db', 'sqlite'),
  duration: positive('duration', 10),
  connections: Math.floor(positive('connections', 32)),
  workers: Math.floor(positive('workers', cores)),
  warmup: positive('warmup', 1, 0),
  nocache: option('nocache', '1') !== '0',
  only: option('only', ''),
};
if (!['', 'writes', 'graphql'].includes(opts.only)) throw new Error(`--only: expected writes or graphql, got "${opts.only}"`);
if (!['sqlite', 'postgres', 'both'].includes(opts.db)) throw new Error(`--db: expected sqlite, postgres or both, got "${opts.db}"`);

// ------------------------------------------------------------------ child processes

interface Proc {
  name: string;
  child: ChildProcess;
  pid: number;
  /** Last lines the process printed (shown when it fails). */
  output: string[];
  exited: Promise<number | null>;
  alive: boolean;
}

const live = new Set<Proc>();

/** Runs an entry point (a .ts one with node --import tsx) in its own process group. */
/**
 * `stdoutFile`: the process's stdout goes to this file instead of through the harness (the
 * service logs one line per request at the default LOG_LEVEL; reading those here would take CPU
 * from the load generator, while writing them stays part of what the service costs).
 */
function startProc(name: string, entry: string, env: Record<string, string>, stdoutFile?: string): Proc {
  const child = spawn(process.execPath, entry.endsWith('.ts') ? ['--import', 'tsx', entry] : [entry], {
    cwd: ROOT,
    env: { ...process.env, ...env },
    stdio: ['ignore', stdoutFile ? openSync(stdoutFile, 'a') : 'pipe', 'pipe'],
    detached: true, // own process group: stopping it reaches the cluster workers too
  });
  if (!child.pid) throw new Error(`could not start ${name}`);
  const output: string[] = [];
  const keep = (chunk: Buffer) => {
    for (const line of chunk.toString('utf8').split('\n')) if (line.trim()) output.push(line);
    if (output.length > 200) output.splice(0, output.length - 200);
  };
  child.stdout?.on('data', keep);
  child.stderr!.on('data', keep);
  const proc: Proc = {
    name, child, pid: child.pid, output, alive: true,
    exited: new Promise((res) => child.on('exit', (code) => { proc.alive = false; res(code); })),
  };
  live.add(proc);
  return proc;
}

function groupAlive(pid: number): boolean {
  try { process.kill(-pid, 0); return true; } catch { return false; }
}

function signalGroup(pid: number, signal: NodeJS.Signals): void {
  try { process.kill(-pid, signal); } catch { /* already gone */ }
}

/** SIGTERM to the process group, SIGKILL after 5 s if anything is left. */
async function stopProc(proc: Proc): Promise<void> {
  signalGroup(proc.pid, 'SIGTERM');
  const deadline = Date.now() + 5000;
  while (groupAlive(proc.pid) && Date.now() < deadline) await sleep(50);
  if (groupAlive(proc.pid)) signalGroup(proc.pid, 'SIGKILL');
  await Promise.race([proc.exited, sleep(1000)]);
  live.delete(proc);
}

function killAll(): void {
  for (const proc of live) signalGroup(proc.pid, 'SIGKILL');
  live.clear();
}

process.on('exit', killAll);
for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP'] as const) {
  process.on(signal, () => {
    process.stdout.write('\n');
    console.error(`bench: ${signal}, stopping child processes`);
    killAll();
    process.exit(130);
  });
}


// ------------------------------------------------------------------ http helpers

const sleep = (ms: number) => new Promise<void>((r) => setTimeout(r, ms));

/** `--ports=N` (BENCH_PORTS): take the servers' ports from N upwards instead of any free one. */
let nextPort = Number(option('ports', '0'));

function freePort(): Promise<number> {
  return new Promise((res, rej) => {
    const srv = createServer();
    srv.once('error', rej);
    srv.listen(nextPort ? nextPort++ : 0, HOST, () => {
      const port = (srv.address() as { port: number }).port;
      srv.close(() => res(port));
    });
  });
}

interface Reply { status: number; rawHeaders: string[]; body: Buffer }

function send(port: number, method: string, path: string, body?: string, headers: Record<string, string> = {}, timeoutMs = 10_000): Promise<Reply> {
  return new Promise((res, rej) => {
    const req = httpRequest({ host: HOST, port, method, path, headers, timeout: timeoutMs, agent: false }, (r) => {
      const chunks: Buffer[] = [];
      r.on('data', (c: Buffer) => chunks.push(c));
      r.on('end', () => res({ status: r.statusCode ?? 0, rawHeaders: r.rawHeaders, body: Buffer.concat(chunks) }));
      r.on('error', rej);
    });
    req.on('timeout', () => req.destroy(new Error('timeout')));
    req.on('error', rej);
    req.end(body);
  });
}

/** Waits until GET /wp-json/ answers 200; fails early if the process exits. */
async function waitReady(proc: Proc, port: number, path: string, timeoutMs = 120_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  let last = 'no answer';
  while (Date.now() < deadline) {
    if (!proc.alive) throw new Error(`${proc.name} exited before answering:\n${proc.output.slice(-30).join('\n')}`);
    try {
      const r = await send(port, 'GET', path);
      if (r.status === 200) return;
      last = `HTTP ${r.status}: ${r.body.toString('utf8').slice(0, 300)}`;
    } catch (err) {
      last = (err as Error).message;
    }
    await sleep(20);
  }
  throw new Error(`${proc.name} did not answer GET ${path} within ${timeoutMs / 1000} s (last: ${last})\n${proc.output.slice(-30).join('\n')}`);
}

// ------------------------------------------------------------------ load

interface Target { method: 'GET' | 'POST'; path: string; body?: string; headers?: Record<string, string> }

interface Scenario {
  name: string;
  /** Fixed target (warm), or one per request (cold). */
  fixed?: Target;
  next?: () => Target;
  /** Checks one sample answer; returns an error message or null. */
  check: (status: number, body: string) => string | null;
  /** Connections instead of --connections (bench/scale.ts: slow scenarios of large sites). */
  connections?: number;
}

interface Row {
  scenario: string;
  server: 'service' | 'service, CACHE_ENTRIES=0' | 'bare node:http' | 'floor (hand-written SQL)';
  reqPerSec: number;
  reqPerSecStddev: number;
  latencyMs: { mean: number; p50: number; p90: number; p99: number; max: number };
  requests: number;
  non2xx: number;
  errors: number;
  timeouts: number;
  throughputMBps: number;
  rssMB: number;
  /** Each server process: VmRSS peak while the scenario ran, at its end, and VmHWM. */
  processes?: ProcessMemory[];
  ratioToBare?: number;
  /** req/s over the floor's on the same scenario (cold list and item). */
  ratioToFloor?: number;
  check: string;
  /** Milliseconds of the sample request before the run, when over a second (it may compute a total the run's requests then find cached). */
  firstMs?: number;
  /** X-Cache of the answers: HIT (the database was not reached) and MISS; absent when the service sends none. */
  cache?: { hits: number; misses: number };
  /** The run's first error answers, when it had any. */
  errorSamples?: ErrorSample[];
}

const JSON_HEADERS = { 'content-type': 'application/json', accept: 'application/json' };

/** The first few error answers (status ≥ 400) of a run, kept to be printed: a count alone says nothing of the cause. */
interface ErrorSample { status: number; body: string }
const ERROR_SAMPLES = 3;

interface Run { result: autocannon.Result; latencies: Float64Array; hits: number; misses: number; errorSamples: ErrorSample[] }

/** autocannon's timeout for one request, in seconds: one that takes longer counts as an error. */
const REQUEST_TIMEOUT_S = 10;

/** One autocannon run. Latencies are also kept here at full precision (autocannon's are whole ms). */
async function run(port: number, s: Scenario, duration: number): Promise<Run> {
  const base = { url: `http://${HOST}:${port}`, connections: s.connections ?? opts.connections, duration, timeout: REQUEST_TIMEOUT_S };
  let hits = 0;
  let misses = 0;
  const errorSamples: ErrorSample[] = [];
  // The service's X-Cache header on every answer (autocannon reads the whole answer anyway).
  const onResponse = (status: number, body: string, _context: unknown, headers: Record<string, unknown>) => {
    if (status >= 400 && errorSamples.length < ERROR_SAMPLES) errorSamples.push({ status, body: String(body).slice(0, 300) });
    const x = headers['X-Cache'] ?? headers['x-cache'];
    if (x === 'HIT') hits++;
    else if (x === 'MISS') misses++;
  };
  let instance: autocannon.Instance;
  if (s.fixed) {
    const { method, path, body, headers } = s.fixed;
    instance = autocannon({ ...base, requests: [{ method, path, body, headers: { ...(body ? JSON_HEADERS : {}), ...headers }, onResponse }] });
  } else {
    const next = s.next!;
    const first = next();
    instance = autocannon({
      ...base,
      requests: [{
        method: first.method,
        path: first.path,
        headers: first.body ? JSON_HEADERS : {},
        setupRequest: (req) => {
          const t = next();
          return { ...req, method: t.method, path: t.path, body: t.body ?? '' };
        },
        onResponse,
      }],
    });
  }
  let latencies = new Float64Array(1 << 16);
  let n = 0;
  instance.on('response', (_client: unknown, _status: number, _bytes: number, ms: number) => {
    if (n === latencies.length) { const grown = new Float64Array(n * 2); grown.set(latencies); latencies = grown; }
    latencies[n++] = ms;
  });
  const result = await instance;
  return { result, latencies: latencies.subarray(0, n).sort(), hits, misses, errorSamples };
}

/** Seconds of mixed uncached REST reads a fresh service serves before its first scenario (with --warmup > 0). */
const SERVICE_WARMUP_S = 10;

/**
 * A fresh service's uncached reads speed up for several seconds while V8 compiles the read path
 * and each worker's pool opens its connections (PostgreSQL list, 2 workers, 32 connections: 972
 * req/s measured after 2 s of load, 1,092 after 12 s). The scenarios' own warm-up (1 s) is too
 * short for that, and the first uncached scenario came right after a cached one. So every cold
 * REST scenario's requests are sent in turn first, from the scenarios' own request streams (which
 * never repeat a URL: the measured runs still meet no cached answer).
 */
async function warmService(port: number, scenarios: Scenario[]): Promise<void> {
  const cold = scenarios.filter((s) => s.next && s.name.startsWith('rest'));
  if (opts.warmup <= 0 || !cold.length) return;
  let turn = 0;
  const tty = process.stdout.isTTY;
  if (tty) process.stdout.write(`  warming the service up: ${SERVICE_WARMUP_S} s of uncached reads…`);
  await run(port, { name: 'service warm-up', next: () => cold[turn++ % cold.length].next!(), check: () => null }, SERVICE_WARMUP_S);
  if (tty) process.stdout.write(`\r${' '.repeat(70)}\r`);
}

function percentile(sorted: Float64Array, p: number): number {
  if (!sorted.length) return 0;
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1))];
}

async function measure(port: number, s: Scenario, server: Row['server'], rssOf: number): Promise<Row> {
  const label = `${s.name}${server === 'service, CACHE_ENTRIES=0' ? ' (no cache)' : ''}${s.connections ? ` (${s.connections} conn.)` : ''}`;
  const tty = process.stdout.isTTY;
  if (tty) process.stdout.write(`  ${label.padEnd(30)} checking…`);
  // One sample request first: a benchmark of error pages measures nothing.
  const sample = s.fixed ?? s.next!();
  // Its own time is kept (and printed when over a second): on a large site the first search
  // computes the word's total, which later requests find cached (seconds for a common word at a
  // million posts; autocannon's 10 s timeout would count it as an error).
  let check: string | null;
  const started = performance.now();
  let firstMs: number | undefined;
  try {
    const r = await send(port, sample.method, sample.path, sample.body, { ...(sample.body ? JSON_HEADERS : {}), ...sample.headers }, 120_000);
    const ms = performance.now() - started;
    if (ms > 1000) firstMs = ms;
    check = s.check(r.status, r.body.toString('utf8'));
  } catch (err) {
    check = `request failed: ${(err as Error).message}`;
  }
  if (opts.warmup > 0) {
    if (tty) process.stdout.write(`\r  ${label.padEnd(30)} warming up ${opts.warmup} s…   `);
    await run(port, s, opts.warmup);
  }
  if (tty) process.stdout.write(`\r  ${label.padEnd(30)} running ${opts.duration} s…      `);
  const memory = sampleMemory(rssOf);
  const { result, latencies, hits, misses, errorSamples } = await run(port, s, opts.duration);
  const processes = memory.stop();
  const rss = treeRss(rssOf);
  let sum = 0;
  for (const v of latencies) sum += v;
  const row: Row = {
    scenario: label,
    server,
    reqPerSec: result.requests.mean,
    reqPerSecStddev: result.requests.stddev,
    latencyMs: {
      mean: latencies.length ? sum / latencies.length : 0,
      p50: percentile(latencies, 50), p90: percentile(latencies, 90), p99: percentile(latencies, 99), max: percentile(latencies, 100),
    },
    requests: result.requests.total,
    non2xx: result.non2xx,
    errors: result.errors,
    timeouts: result.timeouts,
    throughputMBps: result.throughput.mean / 1e6,
    rssMB: rss / 2 ** 20,
    processes,
    check: check ?? 'ok',
    ...(firstMs !== undefined ? { firstMs } : {}),
    ...(hits + misses ? { cache: { hits, misses } } : {}),
    ...(errorSamples.length ? { errorSamples } : {}),
  };
  const line = `  ${label.padEnd(30)} ${fmt(row.reqPerSec, 0).padStart(8)} req/s  p50 ${fmt(row.latencyMs.p50, 2)} ms  p99 ${fmt(row.latencyMs.p99, 2)} ms  non-2xx ${row.non2xx}  RSS ${formatMemory(processes)}${row.errors ? `  errors ${row.errors}` : ''}${row.cache ? `  X-Cache ${row.cache.hits} HIT / ${row.cache.misses} MISS` : ''}${firstMs !== undefined ? `  first request ${fmt(firstMs, 0)} ms` : ''}${check ? `  CHECK FAILED: ${check}` : ''}`;
  if (tty) process.stdout.write(`\r${' '.repeat(70)}\r`);
  console.log(line);
  for (const e of row.errorSamples ?? []) console.log(`    error answer: ${e.status} ${e.body}`);
  return row;
}

// ------------------------------------------------------------------ scenarios

function shuffled(ids: number[]): number[] {
  const a = ids.slice();
  for (let i = a.length - 1; i > 0; i--) {
    const j = Math.floor(Math.random() * (i + 1));
    [a[i], a[j]] = [a[j], a[i]];
  }
  return a;
}

/**
 * Random existing ids without repeats: a shuffled permutation, walked once. When a run asks for
 * more requests than there are posts, later passes add `pass=<n>` (a parameter the routes
 * ignore) so the response cache still cannot answer.
 */
function idStream(ids: number[]): () => { id: number; pass: number } {
  const perm = shuffled(ids);
  let k = 0;
  return () => {
    const i = k % perm.length;
    const pass = Math.floor(k / perm.length);
    k++;
    return { id: perm[i], pass };
  };
}

const LIST = '/wp-json/core/v2/posts?per_page=10';
/** The category + full-text search filter of the posts-and-pages issue. */
const FILTERED = '/wp-json/core/v2/posts?per_page=10&categories=1&search=garden';
const gqlList = (exclude: number) =>
  JSON.stringify({ query: `{ posts(perPage: 10, filter: {exclude: [${exclude}]}) { total nodes { id title { rendered } date } } }` });

/** Ten posts with their author, featured media and categories: the nested GraphQL read. */
const NESTED_SELECTION = 'id title { rendered } author { node { name } } featuredImage { node { sourceUrl } } categories { nodes { name } }';
const gqlNested = (exclude: number) =>
  JSON.stringify({ query: `{ posts(perPage: 10, filter: {exclude: [${exclude}]}) { nodes { ${NESTED_SELECTION} } } }` });

/**
 * The nested read as a front end built on Apollo Client's persisted-queries link sends it: one
 * document with variables, registered once (automatic persisted queries), then GET requests that
 * carry only its hash and the variables, anonymous, so the GraphQL response cache may answer them.
 */
const APQ_NESTED = (perPage = 10) => `query Nested($exclude: Int!) { posts(perPage: ${perPage}, filter: {exclude: [$exclude]}) { nodes { ${NESTED_SELECTION} } } }`;
const sha256 = (text: string) => createHash('sha256').update(text).digest('hex');
const apqGet = (document: string, variables: Record<string, unknown>) =>
  `/graphql?extensions=${encodeURIComponent(JSON.stringify({ persistedQuery: { version: 1, sha256Hash: sha256(document) } }))}&variables=${encodeURIComponent(JSON.stringify(variables))}`;

function parse(body: string): any {
  try { return JSON.parse(body); } catch { return undefined; }
}

function checkList(status: number, body: string): string | null {
  if (status !== 200) return `HTTP ${status}: ${body.slice(0, 200)}`;
  const json = parse(body);
  return Array.isArray(json) && json.length === Math.min(10, totalPosts) && typeof json[0]?.id === 'number' ? null : `not a list of 10 posts: ${body.slice(0, 200)}`;
}

function checkItem(status: number, body: string): string | null {
  if (status !== 200) return `HTTP ${status}: ${body.slice(0, 200)}`;
  const json = parse(body);
  return typeof json?.id === 'number' && json?.title?.rendered !== undefined ? null : `not a post: ${body.slice(0, 200)}`;
}

function checkGraphql(status: number, body: string): string | null {
  if (status !== 200) return `HTTP ${status}: ${body.slice(0, 200)}`;
  const json = parse(body);
  if (json?.errors?.length) return `GraphQL errors: ${JSON.stringify(json.errors).slice(0, 200)}`;
  const nodes = json?.data?.posts?.nodes;
  return Array.isArray(nodes) && nodes.length === Math.min(10, totalPosts - 1) ? null : `unexpected data: ${body.slice(0, 200)}`;
}

let totalPosts = 0;

function checkNotModified(status: number, body: string): string | null {
  return status === 304 && body === '' ? null : `expected 304 with no body, got HTTP ${status}: ${body.slice(0, 200)}`;
}

function serviceScenarios(ids: number[], newest: number, etag = ''): Scenario[] {
  const fixedExclude = ids[Math.floor(ids.length / 2)];
  return [
    { name: 'rest list warm', fixed: { method: 'GET', path: LIST }, check: checkList },
    {
      name: 'rest list cold',
      next: ((s) => () => { const { id, pass } = s(); return { method: 'GET' as const, path: `${LIST}&exclude=${id}${pass ? `&pass=${pass}` : ''}` }; })(idStream(ids)),
      check: checkList,
    },
    { name: 'rest filtered warm', fixed: { method: 'GET', path: FILTERED }, check: checkList },
    {
      name: 'rest filtered cold',
      next: ((s) => () => { const { id, pass } = s(); return { method: 'GET' as const, path: `${FILTERED}&exclude=${id}${pass ? `&pass=${pass}` : ''}` }; })(idStream(ids)),
      check: checkList,
    },
    { name: 'rest item warm', fixed: { method: 'GET', path: `/wp-json/core/v2/posts/${newest}` }, check: checkItem },
    {
      name: 'rest item cold',
      // A random id of the whole table with an ignored `_=` that never repeats: no answer is cached.
      next: ((serial) => () => ({ method: 'GET' as const, path: `/wp-json/core/v2/posts/${ids[Math.floor(Math.random() * ids.length)]}?_=${++serial}` }))(0),
      check: checkItem,
    },
    { name: 'rest item 304', fixed: { method: 'GET', path: `/wp-json/core/v2/posts/${newest}`, headers: { 'If-None-Match': etag } }, check: checkNotModified },
    { name: 'graphql list warm', fixed: { method: 'POST', path: '/graphql', body: gqlList(fixedExclude) }, check: checkGraphql },
    {
      name: 'graphql list cold',
      next: ((s) => () => ({ method: 'POST' as const, path: '/graphql', body: gqlList(s().id) }))(idStream(ids)),
      check: checkGraphql,
    },
    {
      name: 'graphql nested',
      next: ((s) => () => ({ method: 'POST' as const, path: '/graphql', body: gqlNested(s().id) }))(idStream(ids)),
      check: checkGraphql,
    },
    ...apqScenarios(ids),
  ];
}

/**
 * The nested read as automatic persisted queries over GET (register with `registerApq` first):
 * warm, one URL (the GraphQL response cache and its hit lane answer it); cold, another excluded
 * post on every request (each a new cache key: the whole read runs).
 */
function apqScenarios(ids: number[]): Scenario[] {
  const fixedExclude = ids[Math.floor(ids.length / 2)];
  return [
    { name: 'graphql apq get warm', fixed: { method: 'GET', path: apqGet(APQ_NESTED(), { exclude: fixedExclude }), headers: { accept: 'application/json' } }, check: checkGraphql },
    {
      name: 'graphql apq get nested cold',
      next: ((s) => () => { const { id, pass } = s(); return { method: 'GET' as const, path: apqGet(APQ_NESTED(), pass ? { exclude: id, pass } : { exclude: id }) }; })(idStream(ids)),
      check: checkGraphql,
    },
  ];
}

/**
 * Registers the APQ documents with every worker: each keeps its own registered documents, and
 * connections go to the workers in turn, so the document is sent with its hash on several fresh
 * connections, then asked for by hash alone until each of as many fresh connections finds it.
 */
async function registerApq(port: number, exclude: number): Promise<void> {
  const document = APQ_NESTED();
  const extensions = { persistedQuery: { version: 1, sha256Hash: sha256(document) } };
  for (let i = 0; i < opts.workers * 4; i++) await send(port, 'POST', '/graphql', JSON.stringify({ query: document, variables: { exclude }, extensions }), JSON_HEADERS);
  const missing = [];
  for (let i = 0; i < opts.workers * 4; i++) {
    const r = await send(port, 'GET', apqGet(document, { exclude }), undefined, { accept: 'application/json' });
    if (r.status !== 200) missing.push(r.status);
  }
  if (missing.length) console.log(`warning: ${missing.length} of ${opts.workers * 4} hash-only requests were not answered 200 (${missing.join(', ')})`);
}

/**
 * The SQL statements the nested read costs (in this process, on the bench database, the GraphQL
 * cache off): for 1, 5 and 10 posts, each read once before it is counted (the first reads the
 * site's settings). A constant, not a curve: the relations are loaded a batch per level.
 */
async function nestedStatements(databaseUrl: string, ids: number[]): Promise<Record<number, number>> {
  const db = await openDb(databaseUrl);
  try {
    const app = createApp({ ...loadConfig({}), databaseUrl, siteUrl: `http://${HOST}`, graphqlCacheEntries: 0, cacheEntries: 0 }, db);
    const out: Record<number, number> = {};
    let turn = 0;
    const read = async (perPage: number) => {
      return app.fetch(new Request(`http://${HOST}${apqGet(APQ_NESTED(perPage), { exclude: ids[turn++ % ids.length] })}`, { headers: { accept: 'application/json' } }));
    };
    for (const perPage of [1, 5, 10]) {
      const document = APQ_NESTED(perPage);
      const register = () => app.fetch(new Request(`http://${HOST}/graphql`, { method: 'POST', headers: JSON_HEADERS, body: JSON.stringify({ query: document, variables: { exclude: ids[turn++ % ids.length] }, extensions: { persistedQuery: { version: 1, sha256Hash: sha256(document) } } }) }));
      const registered = await register();
      const error = checkNested(registered.status, await registered.text(), perPage);
      if (error) throw new Error(`the nested read (${perPage} posts): ${error}`);
      const before = db.statements;
      const res = await read(perPage);
      const body = await res.text();
      out[perPage] = db.statements - before;
      const again = checkNested(res.status, body, perPage);
      if (again) throw new Error(`the nested read by hash (${perPage} posts): ${again}`);
    }
    return out;
  } finally {
    await db.close();
  }
}

function checkNested(status: number, body: string, perPage: number): string | null {
  if (status !== 200) return `HTTP ${status}: ${body.slice(0, 200)}`;
  const json = parse(body);
  if (json?.errors?.length) return `GraphQL errors: ${JSON.stringify(json.errors).slice(0, 200)}`;
  return json?.data?.posts?.nodes?.length === Math.min(perPage, totalPosts - 1) ? null : `unexpected data: ${body.slice(0, 200)}`;
}

/** The nested read's SQL statements per database, printed with the tables. */
const statements: Record<string, Record<number, number>> = {};

// ------------------------------------------------------------------ one database

function fmt(n: number, digits: number): string {
  return n.toLocaleString('en-US', { minimumFractionDigits: digits, maximumFractionDigits: digits });
}

async function prepare(kind: 'sqlite' | 'postgres'): Promise<string> {
  const url = kind === 'sqlite' ? `file:${join(ROOT, 'data', `bench-sqlite-${opts.posts}.db`)}` : PG_URL;
  const tty = process.stdout.isTTY;
  let tenth = 0;
  const progress = (done: number) => {
    if (tty) process.stdout.write(`\rseeding ${kind}: ${done.toLocaleString('en-US')}/${opts.posts.toLocaleString('en-US')} posts   `);
    else if (done < opts.posts && Math.floor((10 * done) / opts.posts) > tenth) {
      tenth = Math.floor((10 * done) / opts.posts);
      console.log(`seeding ${kind}: ${done.toLocaleString('en-US')}/${opts.posts.toLocaleString('en-US')} posts`);
    }
  };
  const finishing = () => {
    if (tty) process.stdout.write('\r' + ' '.repeat(60) + '\r');
    console.log(`seeding ${kind}: all rows in; counts, statistics${kind === 'postgres' ? ' and the full-text indexes' : ''}…`);
  };
  let res = await seed(url, opts.posts, progress, finishing);
  if (res.existing > opts.posts) {
    // Too many posts from an earlier, larger run: start again from an empty database.
    if (kind === 'sqlite') for (const f of ['', '-wal', '-shm']) rmSync(url.slice('file:'.length) + f, { force: true });
    else await recreateDatabase(url);
    res = await seed(url, opts.posts, progress, finishing);
  }
  if (tty) process.stdout.write('\r' + ' '.repeat(60) + '\r');
  console.log(res.inserted
    ? `seeded ${kind}: ${res.inserted.toLocaleString('en-US')} posts in ${(res.ms / 1000).toFixed(1)} s (${url})`
    : `seeded ${kind}: already ${res.existing.toLocaleString('en-US')} posts (${url})`);
  return url;
}

/** The author of the bench's posts (set by publishedIds). */
let postsAuthor = 1;

async function publishedIds(databaseUrl: string): Promise<number[]> {
  // Run from the repository root so relative SQLite paths resolve as the server's do.
  const db = await openDb(databaseUrl);
  try {
    const rows = await db.prisma.content.findMany({ where: { type: 'post', status: 'publish', password: '' }, select: { id: true }, orderBy: { id: 'asc' } });
    // The author of the list of one author: the seed's posts all have the same one.
    postsAuthor = (await db.prisma.content.findFirst({ where: { type: 'post', status: 'publish' }, select: { authorId: true }, orderBy: { id: 'asc' } }))?.authorId ?? 1;
    return rows.map((r) => r.id);
  } finally {
    await db.close();
  }
}

let logDir: string | undefined;
/**
 * Where the services' stdout (their JSON log) goes for this run; removed when the bench exits,
 * unless BENCH_KEEP_LOGS=1 (then its path is printed at the end, to read what a service said).
 */
function serviceLogs(): string {
  if (!logDir) {
    const dir = mkdtempSync(join(tmpdir(), 'bench-logs-'));
    logDir = dir;
    if (process.env.BENCH_KEEP_LOGS === '1') process.on('exit', () => console.log(`service logs kept in ${dir}`));
    else process.on('exit', () => rmSync(dir, { recursive: true, force: true }));
  }
  return logDir;
}

async function startService(databaseUrl: string, cacheEntries?: number, uploadsDir?: string): Promise<{ proc: Proc; port: number }> {
  const port = await freePort();
  const env: Record<string, string> = {
    PORT: String(port), HOST, SITE_URL: `http://${HOST}:${port}`, DATABASE_URL: databaseUrl,
    WORKERS: String(opts.workers), ADMIN_USER, ADMIN_PASSWORD,
  };
  if (uploadsDir) env.UPLOADS_DIR = uploadsDir;
  if (cacheEntries !== undefined) env.CACHE_ENTRIES = String(cacheEntries);
  const entry = process.env.BENCH_SERVER_ENTRY ?? 'dist/gateway/main.js';
  if (!process.env.BENCH_SERVER_ENTRY) await buildService({ ifStale: true });
  // From spawn to the first 200 on /wp-json/ (a migrated database: nothing to apply).
  const started = performance.now();
  const proc = startProc(`service${cacheEntries === 0 ? ' (CACHE_ENTRIES=0)' : ''}`, entry, env, join(serviceLogs(), `service-${port}.log`));
  await waitReady(proc, port, '/wp-json/');
  const ms = performance.now() - started;
  firstAnswer[currentKind] ??= ms;
  console.log(`started ${proc.name} on port ${port} with ${opts.workers} workers: first 200 on /wp-json/ ${ms.toFixed(0)} ms after spawn`);
  return { proc, port };
}

const DROP = new Set(['date', 'connection', 'keep-alive', 'transfer-encoding']);

/** The scenarios the floor answers too. */
const FLOOR_SCENARIOS = ['rest list cold', 'rest item cold'];

/**
 * Whether the floor answers other records than the service: for a list excluding one post and
 * for one post, the ids in their order, each one's categories and tags, and X-WP-Total. A message
 * when they differ (a floor that reads less than the service would flatter it), null otherwise.
 */
async function floorDiffers(servicePort: number, floorPort: number, ids: number[], newest: number): Promise<string | null> {
  const shape = (r: Reply) => {
    const body = parse(r.body.toString('utf8'));
    const items = (Array.isArray(body) ? body : [body]) as { id: number; categories: number[]; tags: number[] }[];
    const at = r.rawHeaders.findIndex((h, i) => i % 2 === 0 && h.toLowerCase() === 'x-wp-total');
    return JSON.stringify({ status: r.status, total: at >= 0 ? r.rawHeaders[at + 1] : null, items: items.map((p) => [p?.id, p?.categories, p?.tags]) });
  };
  for (const path of [`${LIST}&exclude=${ids[Math.floor(ids.length / 3)]}`, `/wp-json/core/v2/posts/${newest}`]) {
    const [a, b] = [shape(await send(servicePort, 'GET', path)), shape(await send(floorPort, 'GET', path))];
    if (a !== b) return `the floor's ${path} holds other records than the service's: ${b.slice(0, 300)} against ${a.slice(0, 300)}`;
  }
  return null;
}

/** Milliseconds from spawning the service to its first 200 on /wp-json/, per database (the first start). */
const firstAnswer: Record<string, number> = {};
let currentKind = '';

async function benchDatabase(kind: 'sqlite' | 'postgres'): Promise<Row[]> {
  currentKind = kind;
  console.log(`\n== ${kind}: ${opts.posts.toLocaleString('en-US')} posts, ${opts.workers} workers, ${opts.connections} connections, ${opts.duration} s per scenario (+${opts.warmup} s warm-up${opts.warmup > 0 ? `; ${SERVICE_WARMUP_S} s of uncached reads after each start, ${WRITE_WARMUP_S} s of batches before the writes` : ''})`);
  const databaseUrl = await prepare(kind);
  const ids = await publishedIds(databaseUrl);
  totalPosts = ids.length;
  if (ids.length === 0) throw new Error('no published posts to read');
  const rows: Row[] = [];

  // The service, response cache on (the default size).
  const tmp = mkdtempSync(join(tmpdir(), 'bench-'));
  try {
    const auth = await uploadCredentials(databaseUrl);
    const service = await startService(databaseUrl, undefined, join(tmp, 'uploads'));
    // The bytes of the list, as the cache serves them (it keeps the second answer): recorded for the bare baseline.
    await send(service.port, 'GET', LIST);
    await send(service.port, 'GET', LIST);
    const recorded = await send(service.port, 'GET', LIST);
    const listError = checkList(recorded.status, recorded.body.toString('utf8'));
    if (listError) console.log(`warning: the list does not look right: ${listError}`);
    const newest = parse(recorded.body.toString('utf8'))?.[0]?.id ?? ids[ids.length - 1];
    /** A recorded answer as the bare server replays it (bench/bare-server.ts). */
    const record = (name: string, answer: typeof recorded): string => {
      const headers: string[] = [];
      for (let i = 0; i < answer.rawHeaders.length; i += 2) {
        if (!DROP.has(answer.rawHeaders[i].toLowerCase())) headers.push(answer.rawHeaders[i], answer.rawHeaders[i + 1]);
      }
      const file = join(tmp, `${name}.json`);
      writeFileSync(file, JSON.stringify({ status: answer.status, headers, body: answer.body.toString('base64') }));
      return file;
    };
    const responseFile = record('list', recorded);

    /** The write scenarios (after the uploads, unless only the writes run), then the service stops. */
    const writes = async (withUploads: boolean) => {
      try {
        if (withUploads) uploads[kind] = await benchUploads(service.port, service.proc.pid, auth);
        // Warmed up longer than a read scenario: a fresh service's creates speed up for about ten
        // seconds while V8 compiles the write path (PostgreSQL, plain batches from a fresh start,
        // posts a second: 200, 350, 600, 850 … 1,075 in the eleventh second, then steady at 1,118;
        // the service's CPU a post 1.5 → 1.1 ms). With a 1 s warm-up the first write scenario
        // carried that ramp: run first, plain batches made 729–907 posts/s and atomic ones
        // 1,070–1,197; in the other order, atomic 984 and plain 1,123.
        if (opts.warmup > 0) {
          await warmWrites(service.port, auth, Math.max(opts.warmup, WRITE_WARMUP_S));
          await vacuumContent(databaseUrl);
        }
        batches[kind] = [await benchBatchCreates(service.port, auth, false), await benchBatchCreates(service.port, auth, true)];
        singles[kind] = await benchSingleCreates(service.port, auth);
      } catch (err) {
        console.error(service.proc.output.slice(-20).join('\n'));
        throw err;
      }
      await stopProc(service.proc);
    };
    if (opts.only === 'writes') {
      await writes(false);
      return rows;
    }
    statements[kind] = await nestedStatements(databaseUrl, ids);
    console.log(`graphql nested read (author, featured image, categories): ${Object.entries(statements[kind]).map(([n, c]) => `${c} SQL statements for ${n} post${n === '1' ? '' : 's'}`).join(', ')}`);
    await registerApq(service.port, ids[Math.floor(ids.length / 2)]);
    // The ETag of the newest post, for the 304 scenario (If-None-Match of what a client holds).
    const item = await send(service.port, 'GET', `/wp-json/core/v2/posts/${newest}`);
    const etagAt = item.rawHeaders.findIndex((h, i) => i % 2 === 0 && h.toLowerCase() === 'etag');
    const etag = etagAt >= 0 ? item.rawHeaders[etagAt + 1] : '';
    // The item's bytes as a hit serves them, for the item scenarios' own baseline.
    const itemPath = `/wp-json/core/v2/posts/${newest}`;
    await send(service.port, 'GET', itemPath);
    const recordedItem = await send(service.port, 'GET', itemPath);
    const itemResponseFile = record('item', recordedItem);
    // The ceiling: node:http answering the recorded bytes, clustered the same way: the list's
    // for the list scenarios (and everything else), the item's for the item scenarios.
    // Run once before the service's scenarios and once after them: on a machine whose speed drifts
    // (seen here: the same bare run at 12,000 and at 20,000 req/s within one bench), a single run
    // at the end made every ratio move with it. The ratios are over the mean of the two.
    const bareRun = async (label: string, file: string, path: string, answer: typeof recorded, when: string): Promise<Row> => {
      const barePort = await freePort();
      const bare = startProc('bare server', 'bench/bare-server.ts', {
        BARE_PORT: String(barePort), BARE_HOST: HOST, BARE_WORKERS: String(opts.workers), BARE_RESPONSE: file,
      });
      await waitReady(bare, barePort, '/wp-json/');
      const row = await measure(barePort, {
        name: `bare node:http (${label} bytes, ${when})`,
        fixed: { method: 'GET', path },
        check: (status, body) => (status === answer.status && body === answer.body.toString('utf8') ? null : `bytes differ from the recorded ${label}`),
      }, 'bare node:http', bare.pid);
      await stopProc(bare);
      return row;
    };
    const bareBefore = [await bareRun('list', responseFile, LIST, recorded, 'before'), await bareRun('item', itemResponseFile, itemPath, recordedItem, 'before')];
    if (opts.only === 'graphql') {
      for (const s of apqScenarios(ids)) rows.push(await measure(service.port, s, 'service', service.proc.pid));
      await stopProc(service.proc);
      const bareAfter = await bareRun('list', responseFile, LIST, recorded, 'after');
      const bareList = (bareBefore[0].reqPerSec + bareAfter.reqPerSec) / 2;
      for (const r of rows) r.ratioToBare = r.reqPerSec / bareList;
      rows.push(bareBefore[0], bareAfter);
      return rows;
    }
    // The floor: the cold list and item answered by hand-written SQL over this database, run before
    // the service's scenarios and after its reads (the writes then grow the site), the ratios over
    // the mean of the two. Its sample answers must hold the service's records, or its check says so.
    const floorRun = async (when: string): Promise<Row[]> => {
      const floorPort = await freePort();
      const floor = startProc('floor server', 'bench/floor-server.ts', {
        FLOOR_PORT: String(floorPort), FLOOR_HOST: HOST, FLOOR_WORKERS: String(opts.workers), FLOOR_DATABASE_URL: databaseUrl, FLOOR_SITE_URL: `http://${HOST}:${service.port}`,
      });
      await waitReady(floor, floorPort, '/wp-json/');
      const differs = await floorDiffers(service.port, floorPort, ids, newest);
      const out: Row[] = [];
      for (const s of serviceScenarios(ids, newest).filter((x) => FLOOR_SCENARIOS.includes(x.name))) {
        out.push(await measure(floorPort, { ...s, name: `floor: ${s.name} (${when})`, check: (status, body) => differs ?? s.check(status, body) }, 'floor (hand-written SQL)', floor.pid));
      }
      await stopProc(floor);
      return out;
    };
    const floorBefore = await floorRun('before');
    const scenarios = forSiteSize([...serviceScenarios(ids, newest, etag), ...scaleScenarios(ids, 1, postsAuthor)], ids.length);
    await warmService(service.port, scenarios);
    for (const s of scenarios) rows.push(await measure(service.port, s, 'service', service.proc.pid));
    const floorAfter = await floorRun('after');

    // Before the writes: they add tens of thousands of posts (all in category 1), and the cold
    // reads without the cache must read the same site as those with it to compare with them.
    if (opts.nocache) {
      const nocache = await startService(databaseUrl, 0);
      const cold = serviceScenarios(ids, newest).filter((x) => x.name.startsWith('rest') && x.name.endsWith('cold'));
      await warmService(nocache.port, cold);
      for (const s of cold) {
        rows.push(await measure(nocache.port, s, 'service, CACHE_ENTRIES=0', nocache.proc.pid));
      }
      await stopProc(nocache.proc);
    }
    await writes(true);

    const bareAfter = [await bareRun('list', responseFile, LIST, recorded, 'after'), await bareRun('item', itemResponseFile, itemPath, recordedItem, 'after')];
    const [bareList, bareItem] = [0, 1].map((i) => (bareBefore[i].reqPerSec + bareAfter[i].reqPerSec) / 2);
    rows.push(...bareBefore, ...bareAfter, ...floorBefore, ...floorAfter);
    const floorOf = (scenario: string) => {
      const runs = [...floorBefore, ...floorAfter].filter((r) => r.scenario.startsWith(`floor: ${scenario} (`));
      return runs.length ? runs.reduce((sum, r) => sum + r.reqPerSec, 0) / runs.length : undefined;
    };
    for (const r of rows) {
      const bare = /\bitem\b/.test(r.scenario) ? bareItem : bareList;
      r.ratioToBare = bare ? r.reqPerSec / bare : undefined;
      const scenario = FLOOR_SCENARIOS.find((f) => r.server !== 'floor (hand-written SQL)' && r.scenario.startsWith(f));
      const floor = scenario ? floorOf(scenario) : undefined;
      if (floor) r.ratioToFloor = r.reqPerSec / floor;
    }
    readTargets(targets, kind, rows);
    scaleTargets(targets, kind, opts.posts, rows, readResults(kind, SCALE_POSTS_REFERENCE));
    slowestTarget(targets, kind, opts.posts, rows, REQUEST_TIMEOUT_S * 1000);
    serviceTargets(targets, kind, {
      batches: batches[kind], single: singles[kind], firstAnswerMs: firstAnswer[kind],
      processes: [...rows.filter((r) => r.server === 'service').map((r) => r.processes), uploads[kind]?.processes],
      searchP50: Object.fromEntries(rows.filter((r) => r.server === 'service' && r.scenario.includes('search')).map((r) => [r.scenario, r.latencyMs.p50])),
    });
  } finally {
    rmSync(tmp, { recursive: true, force: true });
  }
  return rows;
}

// ------------------------------------------------------------------ uploads

interface UploadRun { uploads: number; concurrency: number; bytes: number; meanMs: number; p50Ms: number; p99Ms: number; perSecond: number; peakRssMB: number; baseRssMB: number; processes: ProcessMemory[] }
const uploads: Record<string, UploadRun> = {};

/** A 2-megapixel photo-like JPEG (1920×1080 of noise over a gradient, so it compresses like a photo). */
async function photo(): Promise<Buffer> {
  const width = 1920;
  const height = 1080;
  const raw = Buffer.alloc(width * height * 3);
  for (let i = 0; i < raw.length; i += 3) {
    const x = (i / 3) % width;
    raw[i] = (x * 255) / width + Math.random() * 40;
    raw[i + 1] = Math.random() * 255;
    raw[i + 2] = 128 + Math.random() * 60;
  }
  return sharp(raw, { raw: { width, height, channels: 3 } }).jpeg({ quality: 85 }).toBuffer();
}

function uploadOnce(port: number, auth: string, body: Buffer, n: number): Promise<number> {
  return new Promise((res, rej) => {
    const started = performance.now();
    const req = httpRequest({
      host: HOST, port, method: 'POST', path: '/wp-json/core/v2/media', agent: false, timeout: 120_000,
      headers: { Authorization: auth, 'Content-Type': 'image/jpeg', 'Content-Disposition': `attachment; filename="bench-${n}.jpg"`, 'Content-Length': body.length },
    }, (r) => {
      r.resume();
      r.on('end', () => (r.statusCode === 201 ? res(performance.now() - started) : rej(new Error(`upload answered ${r.statusCode}`))));
    });
    req.on('error', rej);
    req.end(body);
  });
}

/** Basic credentials of the administrator for the uploads, made before the service starts (one writer at a time). */
async function uploadCredentials(databaseUrl: string): Promise<string> {
  const db = await openDb(databaseUrl);
  try {
    const admin = await db.prisma.user.findFirstOrThrow({ where: { login: ADMIN_USER } });
    const { password } = await createApplicationPassword(db, admin.id, `bench uploads ${Date.now()}`);
    return 'Basic ' + Buffer.from(`${ADMIN_USER}:${password}`).toString('base64');
  } finally {
    await db.close();
  }
}

/** Uploads of a 2-megapixel JPEG with all its sub-sizes: time per upload, and the server's peak RSS meanwhile. */
async function benchUploads(port: number, pid: number, auth: string): Promise<UploadRun> {
  const body = await photo();
  const concurrency = 2;
  const total = 20;
  await uploadOnce(port, auth, body, 0);
  const baseRss = treeRss(pid);
  let peak = baseRss;
  const sampler = setInterval(() => { peak = Math.max(peak, treeRss(pid)); }, 20);
  const memory = sampleMemory(pid, 20);
  const times: number[] = [];
  const started = performance.now();
  let next = 1;
  await Promise.all(Array.from({ length: concurrency }, async () => {
    while (next <= total) times.push(await uploadOnce(port, auth, body, next++));
  }));
  const elapsed = performance.now() - started;
  clearInterval(sampler);
  const processes = memory.stop();
  const sorted = Float64Array.from(times).sort();
  const run = {
    uploads: total, concurrency, bytes: body.length, meanMs: times.reduce((a, b) => a + b, 0) / times.length,
    p50Ms: percentile(sorted, 50), p99Ms: percentile(sorted, 99), perSecond: total / (elapsed / 1000), peakRssMB: peak / 1048576, baseRssMB: baseRss / 1048576, processes,
  };
  console.log(`uploads: ${total} × ${(body.length / 1024).toFixed(0)} KB JPEG (1920×1080, 6 sizes made each), ${concurrency} at a time: ${run.meanMs.toFixed(0)} ms mean, p99 ${run.p99Ms.toFixed(0)} ms, ${run.perSecond.toFixed(1)}/s; server RSS ${run.baseRssMB.toFixed(0)} → peak ${run.peakRssMB.toFixed(0)} MB (per process: ${formatMemory(processes)})`);
  return run;
}

// ------------------------------------------------------------------ creates through batch/v1

interface BatchRun { atomic: boolean; clients: number; perBatch: number; posts: number; seconds: number; postsPerSecond: number }
const batches: Record<string, BatchRun[]> = {};

function postJson(port: number, path: string, auth: string, json: unknown): Promise<{ status: number; body: string }> {
  const body = Buffer.from(JSON.stringify(json));
  return new Promise((res, rej) => {
    const req = httpRequest({ host: HOST, port, method: 'POST', path, agent: false, timeout: 120_000, headers: { Authorization: auth, 'Content-Type': 'application/json', 'Content-Length': body.length } }, (r) => {
      const chunks: Buffer[] = [];
      r.on('data', (c: Buffer) => chunks.push(c));
      r.on('end', () => res({ status: r.statusCode ?? 0, body: Buffer.concat(chunks).toString('utf8') }));
    });
    req.on('error', rej);
    req.end(body);
  });
}

/** Titles of the posts the write scenarios create: never the same twice in a run (a taken slug costs a create more). */
let written = 0;
const runTag = Date.now().toString(36);
const newTitle = (kind: string) => `${kind} ${runTag} ${++written}`;

/**
 * The write path exercised for `seconds` without adding to the site: atomic batches of 24
 * creates and a 25th that fails (an empty post), so each is undone. Warming up with batches that
 * stay would grow the site by thousands of posts before the measured ones.
 */
async function warmWrites(port: number, auth: string, seconds: number): Promise<void> {
  const deadline = performance.now() + seconds * 1000;
  await Promise.all(Array.from({ length: 4 }, async () => {
    while (performance.now() < deadline) {
      const requests = Array.from({ length: 24 }, () => ({ path: '/core/v2/posts', body: { title: newTitle('Undone'), content: 'Warming up.', status: 'publish' } }));
      requests.push({ path: '/core/v2/posts', body: { title: '', content: '', status: 'publish' } });
      const r = await postJson(port, '/wp-json/batch/v1', auth, { requests, atomic: true });
      if (r.status !== 207 || (JSON.parse(r.body) as { failed?: string }).failed !== 'atomic') throw new Error(`a warm-up batch answered ${r.status}: ${r.body.slice(0, 200)}`);
    }
  }));
}

/** Posts created per second through batch/v1, 25 to a batch, from a few clients at once for `seconds`. */
async function benchBatchCreates(port: number, auth: string, atomic: boolean, seconds = opts.duration, report = true): Promise<BatchRun> {
  const perBatch = 25;
  const clients = 4;
  let posts = 0;
  const deadline = performance.now() + seconds * 1000;
  const started = performance.now();
  await Promise.all(Array.from({ length: clients }, async () => {
    while (performance.now() < deadline) {
      const requests = Array.from({ length: perBatch }, () => ({ path: '/core/v2/posts', body: { title: newTitle('Batch'), content: 'Made through batch/v1.', status: 'publish' } }));
      const r = await postJson(port, '/wp-json/batch/v1', auth, { requests, ...(atomic ? { atomic: true } : {}) });
      if (r.status !== 207) throw new Error(`batch answered ${r.status}: ${r.body.slice(0, 200)}`);
      const responses = (JSON.parse(r.body) as { responses: { status: number }[] }).responses;
      posts += responses.filter((x) => x?.status === 201).length;
    }
  }));
  const elapsed = (performance.now() - started) / 1000;
  const run = { atomic, clients, perBatch, posts, seconds: elapsed, postsPerSecond: posts / elapsed };
  if (report) console.log(`creates through batch/v1${atomic ? ' (atomic)' : ''}: ${posts} posts in ${elapsed.toFixed(1)} s from ${clients} clients, ${perBatch} per batch: ${run.postsPerSecond.toFixed(0)} posts/s`);
  return run;
}

// ------------------------------------------------------------------ single creates

/** Seconds of undone batches before the write scenarios (when --warmup is not 0; warmWrites). */
const WRITE_WARMUP_S = 10;

/** The write rates the service aims at (posts per second, SQLite, the default start). */
const WRITE_TARGETS = { batch: 1500, single: 800 };
const versusTarget = (rate: number, target: number) => ` (target ${target.toLocaleString('en-US')}: ${(rate / target).toFixed(2)}×, ${rate >= target ? 'met' : 'missed'})`;

interface SingleRun { clients: number; posts: number; seconds: number; postsPerSecond: number; p50Ms: number; p99Ms: number }
const singles: Record<string, SingleRun> = {};

/** Posts created per second by single POST /core/v2/posts requests from 25 clients at once (kept-alive connections). */
async function benchSingleCreates(port: number, auth: string, seconds = opts.duration): Promise<SingleRun> {
  const clients = 25;
  const agent = new Agent({ keepAlive: true, maxSockets: clients });
  let posts = 0;
  const times: number[] = [];
  const once = (json: unknown) => new Promise<number>((res, rej) => {
    const body = Buffer.from(JSON.stringify(json));
    const started = performance.now();
    const req = httpRequest({ host: HOST, port, method: 'POST', path: '/wp-json/core/v2/posts', agent, timeout: 120_000, headers: { Authorization: auth, 'Content-Type': 'application/json', 'Content-Length': body.length } }, (r) => {
      const chunks: Buffer[] = [];
      r.on('data', (c: Buffer) => chunks.push(c));
      r.on('end', () => (r.statusCode === 201 ? res(performance.now() - started) : rej(new Error(`create answered ${r.statusCode}: ${Buffer.concat(chunks).toString('utf8').slice(0, 200)}`))));
    });
    req.on('error', rej);
    req.end(body);
  });
  const deadline = performance.now() + seconds * 1000;
  const started = performance.now();
  await Promise.all(Array.from({ length: clients }, async () => {
    while (performance.now() < deadline) {
      times.push(await once({ title: newTitle('Single'), content: 'Made by a single request.', status: 'publish' }));
      posts++;
    }
  }));
  const elapsed = (performance.now() - started) / 1000;
  agent.destroy();
  const sorted = Float64Array.from(times).sort();
  const run = { clients, posts, seconds: elapsed, postsPerSecond: posts / elapsed, p50Ms: percentile(sorted, 50), p99Ms: percentile(sorted, 99) };
  console.log(`single creates: ${posts} posts in ${elapsed.toFixed(1)} s from ${clients} clients: ${run.postsPerSecond.toFixed(0)} posts/s, p50 ${run.p50Ms.toFixed(0)} ms, p99 ${run.p99Ms.toFixed(0)} ms`);
  return run;
}

function printTable(kind: string, rows: Row[]): void {
  const head = ['scenario', 'req/s', 'p50 ms', 'p99 ms', 'non-2xx', 'errors', 'vs bare', 'vs floor', 'RSS MB', 'peak RSS per process MB'];
  const ratio = (v: number | undefined) => (v === undefined ? '-' : `${v.toFixed(v < 0.1 ? 3 : 2)}×`);
  const body = rows.map((r) => [
    r.scenario, fmt(r.reqPerSec, 0), fmt(r.latencyMs.p50, 2), fmt(r.latencyMs.p99, 2), String(r.non2xx), String(r.errors + r.timeouts),
    ratio(r.ratioToBare), ratio(r.ratioToFloor), fmt(r.rssMB, 0),
    r.processes ? r.processes.map((p) => p.peakMB.toFixed(0)).join(' / ') : '-',
  ]);
  const widths = head.map((h, i) => Math.max(h.length, ...body.map((b) => b[i].length)));
  const line = (cells: string[]) => cells.map((c, i) => (i === 0 ? c.padEnd(widths[i]) : c.padStart(widths[i]))).join('  ');
  console.log(`\n${kind} — ${opts.posts.toLocaleString('en-US')} posts, ${opts.workers} workers, ${opts.connections} connections, ${opts.duration} s each, ${cpus().length} cores (${cpus()[0]?.model.trim()})`);
  console.log(line(head));
  console.log(widths.map((w) => '-'.repeat(w)).join('  '));
  for (const b of body) console.log(line(b));
  const failed = rows.filter((r) => r.check !== 'ok');
  for (const r of failed) console.log(`! ${r.scenario}: sample check failed: ${r.check}`);
  const up = uploads[kind];
  for (const b of batches[kind] ?? []) console.log(`creates through batch/v1${b.atomic ? ' (atomic: one transaction per batch)' : ''}, ${b.perBatch} per batch, ${b.clients} clients: ${b.postsPerSecond.toFixed(0)} posts/s${versusTarget(b.postsPerSecond, WRITE_TARGETS.batch)}`);
  const single = singles[kind];
  if (single) console.log(`single creates (POST /core/v2/posts), ${single.clients} clients: ${single.postsPerSecond.toFixed(0)} posts/s${versusTarget(single.postsPerSecond, WRITE_TARGETS.single)}, p50 ${single.p50Ms.toFixed(0)} ms, p99 ${single.p99Ms.toFixed(0)} ms`);
  if (firstAnswer[kind] !== undefined) console.log(`first answer: 200 on /wp-json/ ${firstAnswer[kind].toFixed(0)} ms after spawning the service (${opts.workers} workers, migrated database)`);
  if (up) console.log(`upload of a 2-megapixel JPEG (${(up.bytes / 1024).toFixed(0)} KB) with its sub-sizes, ${up.concurrency} at a time: ${up.meanMs.toFixed(0)} ms mean, p50 ${up.p50Ms.toFixed(0)} ms, p99 ${up.p99Ms.toFixed(0)} ms, ${up.perSecond.toFixed(1)} uploads/s; server RSS peak ${up.peakRssMB.toFixed(0)} MB (${up.baseRssMB.toFixed(0)} MB before; per process: ${formatMemory(up.processes)})`);
  console.log([
    'notes: warm = one fixed request, answered from the response cache after the first; cold = a different',
    '  random existing id on every request (lists: exclude=<id> without repeats, later passes add an ignored pass=<n>;',
    '  items: an ignored _=<n> that never repeats), so each reaches the database (X-Cache counts it). 304 = the item',
    '  with If-None-Match of its ETag (counted as non-2xx). GraphQL warm reads are answered by its own response cache',
    '  (GRAPHQL_CACHE_ENTRIES; a repeated APQ GET by the hit lane, before yoga runs); "graphql apq get" = the nested',
    '  read sent as Apollo\'s persisted-queries link sends it (GET with the hash and variables, registered first).',
    '  RSS = VmRSS summed over the server process tree at the end of each scenario; peak RSS per process',
    '  = the highest VmRSS sampled (every 100 ms) of the primary / each worker while the scenario ran. The load generator',
    '  (autocannon, one thread) runs on the same machine. vs bare = req/s over the bare server replaying the same bytes:',
    '  the item scenarios over the one replaying the item (a smaller answer, so a higher ceiling), the rest over the list,',
    '  each the mean of a run before the service\'s scenarios and one after them (their own rows show how far they drift).',
    '  vs floor = req/s over bench/floor-server.ts on the same cold requests: hand-written SQL over the same database',
    '  (prepared statements, a COUNT per list as WordPress does, text as stored), the mean of a run before the service\'s',
    '  scenarios and one after its reads.',
  ].join('\n'));
}

/** bench/results-<db>.json for the usual 10,000 posts, bench/results-<db>-<posts>.json for other sizes. */
function resultsFile(kind: string, posts: number): string {
  return posts === SCALE_POSTS_REFERENCE ? `bench/results-${kind}.json` : `bench/results-${kind}-${posts}.json`;
}

/** A previous run's results of `kind` at `posts` posts, if there is one. */
function readResults(kind: string, posts: number): { posts?: number; scenarios?: Row[] } | null {
  try { return JSON.parse(readFileSync(join(ROOT, resultsFile(kind, posts)), 'utf8')); } catch { return null; }
}

async function main(): Promise<void> {
  const kinds: ('sqlite' | 'postgres')[] = opts.db === 'both' ? ['sqlite', 'postgres'] : [opts.db as 'sqlite' | 'postgres'];
  const started = Date.now();
  const all: Record<string, Row[]> = {};
  for (const kind of kinds) {
    const rows = await benchDatabase(kind);
    all[kind] = rows;
    const file = join(ROOT, resultsFile(kind, opts.posts));
    writeFileSync(file, JSON.stringify({
      database: kind, date: new Date().toISOString(), node: process.version,
      cpus: cpus().length, cpuModel: cpus()[0]?.model.trim(),
      posts: opts.posts, workers: opts.workers, connections: opts.connections, durationSeconds: opts.duration, warmupSeconds: opts.warmup,
      firstAnswerMs: firstAnswer[kind], graphqlNestedStatements: statements[kind], scenarios: rows, uploads: uploads[kind], batchCreates: batches[kind], singleCreates: singles[kind],
      targets: targets.results.filter((t) => t.db === kind || t.db === 'all'),
    }, null, 2) + '\n');
  }
  for (const kind of kinds) {
    printTable(kind, all[kind]);
    if (statements[kind]) console.log(`graphql nested read: ${Object.entries(statements[kind]).map(([n, c]) => `${c} SQL statements for ${n} post${n === '1' ? '' : 's'}`).join(', ')}`);
  }
  targets.print();
  console.log(`\nresults: ${kinds.map((k) => resultsFile(k, opts.posts)).join(', ')} (total ${((Date.now() - started) / 1000).toFixed(0)} s)`);
}

main().then(() => {
  killAll();
  process.exit(0);
}, (err) => {
  if (process.stdout.isTTY) process.stdout.write('\n');
  console.error(err instanceof Error ? err.stack ?? err.message : err);
  killAll();
  process.exit(1);
});
