// `npm run test:reliability`: load and crash safety of the real server (gateway/main.ts with
// WORKERS=2, started as a child in its own process group), on a fresh SQLite file and on a fresh
// PostgreSQL database (created and dropped here).
//
// Load: a second process (test/reliability/load.ts) keeps CONNECTIONS connections busy for
// DURATION seconds with anonymous reads and authenticated creates and updates; then every
// acknowledged post is read back through the response cache, each id several times on fresh
// connections so both workers answer. Crash: CRASHES times, a burst of post creates and updates
// (categories, tags, footnotes meta), a large image streaming in and images being made into
// sub-sizes is cut by SIGKILL to the whole process group; the server is started again on the same
// database and uploads directory, and every acknowledged write must be there as acknowledged,
// every post complete (terms and meta as its title says, term counts right), every attachment's
// files present, no file in UPLOADS_DIR without its attachment, no temporary file left.
//
//   npm run test:reliability -- --db=sqlite|postgres|both --duration=60 --connections=32 --crashes=5 --port=0
//   (or RELIABILITY_DB, RELIABILITY_DURATION, RELIABILITY_CONNECTIONS, RELIABILITY_CRASHES, RELIABILITY_PORT)
//
// Exit code 1 when any check fails. Summary lines start with "reliability:".
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { dirname, join, relative, resolve, sep } from 'node:path';
import { Readable } from 'node:stream';
import { fileURLToPath } from 'node:url';
import pg from 'pg';
import sharp from 'sharp';
import { openDb } from '../../src/db/client.js';
import { ATTACHED_FILE, attachmentMeta, keysOf, mediaMetaSelect, metaValue } from '../../src/media/metadata.js';
import { SPOOL_DIR } from '../../gateway/upload.js';
import { basic, json, quantile, send, sleep } from './http.js';
import { groupPids } from '../helpers/processes.js';
import type { LoadResult } from './load.js';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '../..');
const ADMIN_PASSWORD = 'reliability-admin-password';

function option(name: string, fallback: string): string {
  for (const arg of process.argv.slice(2)) if (arg.startsWith(`--${name}=`)) return arg.slice(name.length + 3);
  return process.env[`RELIABILITY_${name.toUpperCase()}`] ?? fallback;
}
const opts = {
  db: option('db', 'both'),
  duration: Number(option('duration', '60')),
  connections: Number(option('connections', '32')),
  crashes: Number(option('crashes', '5')),
  port: Number(option('port', '0')),
  pgUrl: process.env.TEST_DATABASE_URL ?? 'postgresql://postgres@127.0.0.1:5432/postgres',
};
if (!['sqlite', 'postgres', 'both'].includes(opts.db)) throw new Error(`--db: sqlite, postgres or both, not "${opts.db}"`);

const failures: string[] = [];
const log = (line: string) => console.log(`reliability: ${line}`);
function check(ok: boolean, what: string): boolean {
  if (!ok) { failures.push(what); console.log(`  FAIL ${what}`); }
  return ok;
}

// ------------------------------------------------------------------ the server

interface Server { child: ChildProcess; pid: number; output: string[]; exited: Promise<void>; password?: string }
const running = new Set<Server>();

function groupAlive(pid: number): boolean {
  try { process.kill(-pid, 0); return true; } catch { return false; }
}

async function startServer(env: Record<string, string>, label: string): Promise<Server> {
  const child = spawn(process.execPath, ['--import', 'tsx', 'gateway/main.ts'], {
    cwd: ROOT, env: { ...process.env, ...env, WORKERS: '2', ADMIN_PASSWORD, HOST: '127.0.0.1' }, stdio: ['ignore', 'pipe', 'pipe'], detached: true,
  });
  const server: Server = { child, pid: child.pid!, output: [], exited: new Promise((r) => child.once('exit', () => r())) };
  running.add(server);
  let gone = false;
  void server.exited.then(() => { gone = true; });
  const keep = (chunk: Buffer) => { for (const line of chunk.toString('utf8').split('\n')) if (line.trim()) server.output.push(line); };
  child.stdout!.on('data', keep);
  child.stderr!.on('data', keep);
  const started = Date.now();
  while (!server.output.some((l) => l.startsWith('listening on '))) {
    if (gone || Date.now() - started > 180_000) throw new Error(`${label}: the server did not start:\n${server.output.slice(-30).join('\n')}`);
    await sleep(50);
  }
  const pw = server.output.map((l) => /application password:\s+(.+)$/.exec(l)?.[1]).find(Boolean);
  if (pw) server.password = pw.trim();
  log(`${label}: server up in ${((Date.now() - started) / 1000).toFixed(1)} s`);
  return server;
}

async function killServer(server: Server): Promise<number[]> {
  const pids = groupPids(server.pid);
  try { process.kill(-server.pid, 'SIGKILL'); } catch { /* gone */ }
  while (groupAlive(server.pid)) await sleep(20);
  await server.exited;
  running.delete(server);
  return pids;
}

async function stopServer(server: Server): Promise<void> {
  try { process.kill(-server.pid, 'SIGTERM'); } catch { /* gone */ }
  const deadline = Date.now() + 10_000;
  while (groupAlive(server.pid) && Date.now() < deadline) await sleep(50);
  if (groupAlive(server.pid)) await killServer(server);
  running.delete(server);
}

process.on('exit', () => { for (const s of running) { try { process.kill(-s.pid, 'SIGKILL'); } catch { /* gone */ } } });
for (const signal of ['SIGINT', 'SIGTERM'] as const) process.on(signal, () => process.exit(130));

function freePort(): Promise<number> {
  return new Promise((res, rej) => {
    const srv = createServer();
    srv.once('error', rej);
    srv.listen(0, '127.0.0.1', () => { const { port } = srv.address() as { port: number }; srv.close(() => res(port)); });
  });
}

// ------------------------------------------------------------------ one database

interface Site { label: string; base: string; env: Record<string, string>; databaseUrl: string; uploadsDir: string; auth: string; categories: number[]; tags: number[] }

async function makeTerms(site: Site): Promise<void> {
  for (const [route, list, n] of [['categories', site.categories, 6], ['tags', site.tags, 8]] as const) {
    for (let i = 1; i <= n; i++) {
      const r = await send(site.base, 'POST', `/wp-json/core/v2/${route}`, { headers: { authorization: site.auth, 'content-type': 'application/json' }, body: JSON.stringify({ name: `rel ${route} ${i}` }) });
      if (r.status !== 201) throw new Error(`${site.label}: creating a term: HTTP ${r.status} ${r.body}`);
      list.push(json(r).id);
    }
  }
}

async function load(site: Site, password: string): Promise<void> {
  const child = spawn(process.execPath, ['--import', 'tsx', 'test/reliability/load.ts'], {
    cwd: ROOT, stdio: ['ignore', 'pipe', 'inherit'],
    env: { ...process.env, RELIABILITY_LOAD: JSON.stringify({ base: site.base, user: 'admin', password, duration: opts.duration, connections: opts.connections, categories: site.categories, tags: site.tags }) },
  });
  let out = '';
  child.stdout!.on('data', (c: Buffer) => { out += c.toString('utf8'); });
  const code = await new Promise<number | null>((r) => child.once('exit', r));
  if (code !== 0) { check(false, `${site.label} load: the load process exited with ${code}`); return; }
  const result = JSON.parse(out.trim().split('\n').pop()!) as LoadResult;
  const sorted = result.latenciesMs.sort((a, b) => a - b);

  // Every acknowledged create, read back anonymously (the cached path) on fresh connections:
  // each page of ids four times, so both workers (round-robin between connections) answer.
  const ids = Object.keys(result.posts).map(Number);
  const found = new Set<number>();
  const wrong: string[] = [];
  for (let i = 0; i < ids.length; i += 100) {
    const chunk = ids.slice(i, i + 100);
    for (let round = 0; round < 4; round++) {
      const r = await send(site.base, 'GET', `/wp-json/core/v2/posts?include=${chunk.join(',')}&per_page=100&_fields=id,title`);
      if (r.status !== 200) { wrong.push(`read-back HTTP ${r.status}`); continue; }
      const seen = new Map((json(r) as { id: number; title: { rendered: string } }[]).map((p) => [p.id, p.title.rendered]));
      for (const id of chunk) {
        if (seen.get(id) === result.posts[id]) { if (round === 3) found.add(id); } else if (wrong.length < 10) wrong.push(`post ${id}: expected "${result.posts[id]}", read ${JSON.stringify(seen.get(id) ?? null)} (round ${round + 1})`);
      }
    }
  }
  const errors = result.errors + wrong.length;
  log(`${site.label} load: ${result.requests} requests in ${result.seconds.toFixed(0)} s (${Math.round(result.requests / result.seconds)}/s, ${opts.connections} connections), ${result.errors} errors, `
    + `creates ${result.createsAcknowledged} acknowledged / ${found.size} found, updates ${result.updatesAcknowledged} acknowledged, `
    + `p50 ${quantile(sorted, 0.5).toFixed(1)} ms, p99 ${quantile(sorted, 0.99).toFixed(1)} ms, stale reads during the run ${result.staleReads}`);
  for (const s of [...result.samples, ...wrong]) console.log(`  ${s}`);
  check(result.errors === 0, `${site.label} load: ${result.errors} errors`);
  check(wrong.length === 0 && found.size === ids.length && errors === result.errors, `${site.label} load: ${ids.length - found.size} acknowledged creates not read back as acknowledged`);
}

// ------------------------------------------------------------------ crash runs

interface PostState { title: string; categories: number[]; tags: number[]; footnotes: string }
interface Tracked { acked: PostState; pending: PostState | null }

/** The checks after a restart, over the database and the uploads directory. */
async function verifyCrash(site: Site, run: number, posts: Map<number, Tracked>, media: Map<number, string[]>, killedPids: number[]): Promise<{ postsFound: number; mediaFound: number }> {
  const db = await openDb(site.databaseUrl);
  try {
    const prisma = db.prisma;
    const tag = `${site.label} crash ${run}`;
    // Acknowledged posts: present, as acknowledged (or as the update that was on the wire).
    const rows = await prisma.content.findMany({
      where: { type: 'post', title: { startsWith: 'crash ' } },
      select: { id: true, title: true, status: true, terms: { select: { termId: true, taxonomy: true } }, meta: { where: { key: 'footnotes' }, select: { value: true } } },
    });
    const byId = new Map(rows.map((r) => [r.id, r]));
    const stateOf = (r: (typeof rows)[number]): PostState => ({
      title: r.title,
      categories: r.terms.filter((t) => t.taxonomy === 'category').map((t) => t.termId).sort((a, b) => a - b),
      tags: r.terms.filter((t) => t.taxonomy === 'post_tag').map((t) => t.termId).sort((a, b) => a - b),
      footnotes: r.meta[0]?.value ?? '',
    });
    const same = (a: PostState, b: PostState) => JSON.stringify(a) === JSON.stringify(b);
    let postsFound = 0;
    for (const [id, t] of posts) {
      const row = byId.get(id);
      if (row && (same(stateOf(row), t.acked) || (t.pending && same(stateOf(row), t.pending)))) postsFound++;
      else check(false, `${tag}: post ${id} acknowledged as ${JSON.stringify(t.acked)}, found ${row ? JSON.stringify(stateOf(row)) : 'nothing'}`);
    }
    // Every post (acknowledged or not) complete: its terms and meta are the ones its title names.
    for (const row of rows) {
      const m = /c([\d.]*) t([\d.]*) f(\S+)$/.exec(row.title);
      const expected = m && { title: row.title, categories: m[1].split('.').filter(Boolean).map(Number).sort((a, b) => a - b), tags: m[2].split('.').filter(Boolean).map(Number).sort((a, b) => a - b), footnotes: m[3] };
      if (!expected || !same(stateOf(row), expected)) check(false, `${tag}: post ${row.id} half-written: ${JSON.stringify(stateOf(row))}`);
      check(row.status === 'publish', `${tag}: post ${row.id} has status ${row.status}`);
    }
    // Term counts agree with the published posts linked to them.
    const terms = await prisma.term.findMany({ where: { id: { in: [...site.categories, ...site.tags] } }, select: { id: true, count: true } });
    for (const term of terms) {
      const actual = await prisma.termRelationship.count({ where: { termId: term.id, content: { status: 'publish' } } });
      check(term.count === actual, `${tag}: term ${term.id} counts ${term.count}, has ${actual} published posts`);
    }

    // Media: acknowledged attachments present with their sizes; every attachment's files on disk;
    // every file on disk belongs to an attachment; nothing temporary left.
    const attachments = await prisma.content.findMany({ where: { type: 'attachment' }, select: { id: true, ...mediaMetaSelect } });
    const referenced = new Set<string>();
    const sizesOf = new Map<number, string[]>();
    for (const a of attachments) {
      const file = metaValue(a.meta, ATTACHED_FILE);
      const meta = attachmentMeta(a.meta);
      sizesOf.set(a.id, Object.keys(meta.sizes ?? {}));
      for (const key of keysOf(file, meta)) {
        referenced.add(key);
        check(existsSync(join(site.uploadsDir, key)), `${tag}: attachment ${a.id} lacks its file ${key}`);
      }
      check(!!file, `${tag}: attachment ${a.id} has no file`);
    }
    let mediaFound = 0;
    for (const [id, sizes] of media) {
      const stored = sizesOf.get(id);
      if (stored && sizes.every((s) => stored.includes(s))) mediaFound++;
      else check(false, `${tag}: attachment ${id} acknowledged with sizes ${sizes.join(',')}, found ${stored ? stored.join(',') : 'nothing'}`);
    }
    const walk = (dir: string): string[] => (existsSync(dir) ? readdirSync(dir, { withFileTypes: true }).flatMap((e) => (e.isDirectory() ? walk(join(dir, e.name)) : [join(dir, e.name)])) : []);
    for (const path of walk(site.uploadsDir)) {
      const key = relative(site.uploadsDir, path).split(sep).join('/');
      if (key.split('/').some((s) => s.startsWith('.'))) check(false, `${tag}: temporary file left in UPLOADS_DIR: ${key}`);
      else check(referenced.has(key), `${tag}: orphan file in UPLOADS_DIR (no attachment): ${key}`);
    }
    const spooled = existsSync(SPOOL_DIR) ? readdirSync(SPOOL_DIR).filter((name) => killedPids.some((pid) => name.startsWith(`${pid}-`))) : [];
    check(spooled.length === 0, `${tag}: ${spooled.length} upload spool files of the killed processes left: ${spooled.join(', ')}`);
    return { postsFound, mediaFound };
  } finally {
    await db.close();
  }
}

async function crashRun(site: Site, run: number, images: { small: Buffer; large: Buffer }, counters: { posts: Map<number, Tracked>; media: Map<number, string[]>; writes: number }): Promise<{ pids: number[]; cutFiles: number; streamed: number }> {
  const { posts, media } = counters;
  const headers = { authorization: site.auth, 'content-type': 'application/json' };
  let stop = false;
  let acked = 0;
  const pick = <T>(list: T[], n: number): T[] => [...list].sort(() => Math.random() - 0.5).slice(0, n);

  const writer = async (w: number) => {
    const mine: number[] = [];
    for (let k = 1; !stop; k++) {
      const state = (id: number | null): PostState => {
        const categories = pick(site.categories, 1 + (k % 3)).sort((a, b) => a - b);
        const tags = pick(site.tags, k % 4).sort((a, b) => a - b);
        const footnotes = `r${run}w${w}k${k}`;
        return { title: `crash r${run} w${w} n${id ?? k} c${categories.join('.')} t${tags.join('.')} f${footnotes}`, categories, tags, footnotes };
      };
      try {
        if (!mine.length || Math.random() < 0.6) {
          const s = state(null);
          const r = await send(site.base, 'POST', '/wp-json/core/v2/posts', { headers, body: JSON.stringify({ title: s.title, status: 'publish', categories: s.categories, tags: s.tags, meta: { footnotes: s.footnotes } }) });
          if (r.status !== 201) { check(false, `${site.label} crash ${run}: create answered HTTP ${r.status} ${r.body.slice(0, 200)}`); return; }
          const id = json(r).id as number;
          posts.set(id, { acked: s, pending: null });
          mine.push(id);
        } else {
          const id = mine[Math.floor(Math.random() * mine.length)];
          const s = state(id);
          const tracked = posts.get(id)!;
          tracked.pending = s;
          const r = await send(site.base, 'POST', `/wp-json/core/v2/posts/${id}`, { headers, body: JSON.stringify({ title: s.title, categories: s.categories, tags: s.tags, meta: { footnotes: s.footnotes } }) });
          if (r.status !== 200) { check(false, `${site.label} crash ${run}: update answered HTTP ${r.status} ${r.body.slice(0, 200)}`); return; }
          posts.set(id, { acked: s, pending: null });
        }
        acked++;
        counters.writes++;
      } catch {
        return; // the connection died with the server: that write is not acknowledged
      }
    }
  };

  let uploading: string | null = null;
  const uploader = async () => {
    for (let u = 1; !stop; u++) {
      const name = `crash-r${run}-u${u}.jpg`;
      uploading = name;
      try {
        const r = await send(site.base, 'POST', '/wp-json/core/v2/media', { headers: { authorization: site.auth, 'content-type': 'image/jpeg', 'content-disposition': `attachment; filename="${name}"` }, body: images.small, timeoutMs: 120_000 });
        if (r.status !== 201) { check(false, `${site.label} crash ${run}: upload answered HTTP ${r.status} ${r.body.slice(0, 200)}`); return; }
        const body = json(r);
        media.set(body.id, Object.keys(body.media_details?.sizes ?? {}).filter((s) => s !== 'full'));
        acked++;
      } catch {
        return;
      }
    }
  };
  // A large image streaming in slowly: still arriving when the server dies.
  let streamed = 0;
  const streamer = async () => {
    const big = images.large;
    const source = Readable.from((async function* () {
      // All but the last bytes, then the connection is held open: still streaming at the kill.
      for (let at = 0; at < big.length - 64 * 1024 && !stop; at += 64 * 1024) { yield big.subarray(at, at + 64 * 1024); streamed = at + 64 * 1024; await sleep(60); }
      while (!stop) await sleep(20);
    })());
    try {
      await send(site.base, 'POST', '/wp-json/core/v2/media', { headers: { authorization: site.auth, 'content-type': 'image/jpeg', 'content-disposition': `attachment; filename="crash-r${run}-large.jpg"` }, body: source, timeoutMs: 120_000 });
    } catch { /* cut */ }
  };

  // Uploads and the slow stream start first; the writers once this run's first upload is
  // acknowledged (so every run has one to find after the restart), then all go on together.
  const first = media.size;
  const uploads = [uploader(), streamer()];
  const begun = Date.now();
  while (media.size === first && !stop && Date.now() - begun < 60_000) await sleep(10);
  const work = Promise.all([...Array.from({ length: 6 }, (_, i) => writer(i + 1)), ...uploads]);
  // Kill when writes have been acknowledged and an image is being stored and made into sizes
  // (its answer not given yet), a moment later by chance; or after 30 s regardless.
  const started = Date.now();
  const folder = () => { const d = new Date(); return join(site.uploadsDir, String(d.getUTCFullYear()), String(d.getUTCMonth() + 1).padStart(2, '0')); };
  // Odd runs: as soon as the image's file is stored (its record may not be committed yet);
  // even runs: once its first sub-size file is there (sizes being made after the commit).
  const stored = (name: string) => existsSync(folder()) && readdirSync(folder()).some((n) => (run % 2 ? n === name : n.startsWith(`${name.replace(/\.jpg$/, '')}-`)));
  while (Date.now() - started < 30_000) {
    if (acked >= 15 && uploading && stored(uploading)) break;
    await sleep(5);
  }
  await sleep(Math.random() * 300);
  const server = currentServer!;
  // What the upload being cut had stored: its original, and sizes if they were being made.
  const stem = (uploading ?? '').replace(/\.jpg$/, '');
  const cutFiles = existsSync(folder()) ? readdirSync(folder()).filter((n) => n.startsWith(`${stem}.`) || n.startsWith(`${stem}-`)).length : 0;
  const pids = await killServer(server);
  stop = true;
  await work;
  return { pids, cutFiles, streamed };
}

let currentServer: Server | null = null;

async function testDatabase(kind: 'sqlite' | 'postgres', images: { small: Buffer; large: Buffer }): Promise<void> {
  const dir = mkdtempSync(join(tmpdir(), 'reliability-'));
  const label = kind === 'sqlite' ? 'SQLite' : 'PostgreSQL';
  let pgName: string | null = null;
  let databaseUrl = `file:${join(dir, 'site.db')}`;
  const admin = new pg.Client({ connectionString: opts.pgUrl });
  try {
    if (kind === 'postgres') {
      pgName = `reliability_${process.pid}_${Date.now()}`;
      await admin.connect();
      await admin.query(`CREATE DATABASE ${pgName}`);
      const url = new URL(opts.pgUrl);
      url.pathname = `/${pgName}`;
      databaseUrl = url.toString();
    }
    const port = opts.port ? opts.port + (kind === 'postgres' ? 1 : 0) : await freePort();
    const uploadsDir = join(dir, 'uploads');
    const env = { PORT: String(port), DATABASE_URL: databaseUrl, UPLOADS_DIR: uploadsDir, FORM_FILES_DIR: join(dir, 'form-files') };
    currentServer = await startServer(env, label);
    const password = currentServer.password;
    if (!password) throw new Error(`${label}: no application password in the start-up output:\n${currentServer.output.join('\n')}`);
    const site: Site = { label, base: `http://127.0.0.1:${port}`, env, databaseUrl, uploadsDir, auth: basic('admin', password), categories: [], tags: [] };
    await makeTerms(site);
    await load(site, password);

    const counters = { posts: new Map<number, Tracked>(), media: new Map<number, string[]>(), writes: 0 };
    const totals = { writes: 0, writesFound: 0, media: 0, mediaFound: 0 };
    for (let run = 1; run <= opts.crashes; run++) {
      const before = { posts: counters.posts.size, media: counters.media.size };
      const writesBefore = counters.writes;
      const { pids, cutFiles, streamed } = await crashRun(site, run, images, counters);
      currentServer = await startServer(env, `${label} crash ${run}: restart`);
      const { postsFound, mediaFound } = await verifyCrash(site, run, counters.posts, counters.media, pids);
      log(`${label} crash ${run}: killed ${pids.length} processes with ${cutFiles} file(s) of an upload in progress stored and ${(streamed / 1048576).toFixed(1)} MB of the large one sent; `
        + `writes acknowledged ${counters.writes - writesBefore} this run; posts acknowledged ${counters.posts.size} (${counters.posts.size - before.posts} new) / found as acknowledged ${postsFound}, `
        + `uploads acknowledged ${counters.media.size} (${counters.media.size - before.media} new) / found ${mediaFound}`);
      totals.writes = counters.posts.size; totals.writesFound = postsFound; totals.media = counters.media.size; totals.mediaFound = mediaFound;
    }
    log(`${label} crash: ${opts.crashes} kills; ${counters.writes} post writes acknowledged (creates and updates); posts acknowledged ${totals.writes} / found as acknowledged ${totals.writesFound}; uploads acknowledged ${totals.media} / found ${totals.mediaFound}`);
    await stopServer(currentServer);
  } finally {
    if (currentServer) await killServer(currentServer).catch(() => undefined);
    currentServer = null;
    if (pgName) { await admin.query(`DROP DATABASE IF EXISTS ${pgName} WITH (FORCE)`).catch((e) => console.error(e)); }
    await admin.end().catch(() => undefined);
    rmSync(dir, { recursive: true, force: true });
  }
}

async function makeImages(): Promise<{ small: Buffer; large: Buffer }> {
  const noisy = async (width: number, height: number, quality: number) => {
    const raw = Buffer.alloc(width * height * 3);
    for (let i = 0; i < raw.length; i++) raw[i] = ((i * 7) % 251) ^ (Math.random() * 48);
    return sharp(raw, { raw: { width, height, channels: 3 } }).jpeg({ quality }).toBuffer();
  };
  return { small: await noisy(1400, 1000, 80), large: await noisy(4000, 3000, 92) };
}

const started = Date.now();
const images = await makeImages();
const kinds = opts.db === 'both' ? (['sqlite', 'postgres'] as const) : [opts.db as 'sqlite' | 'postgres'];
for (const kind of kinds) {
  try {
    await testDatabase(kind, images);
  } catch (err) {
    check(false, `${kind}: ${(err as Error).stack ?? err}`);
  }
}
log(`${failures.length ? `FAILED (${failures.length} checks)` : 'passed'} in ${((Date.now() - started) / 1000).toFixed(0)} s`);
process.exit(failures.length ? 1 : 0);
