// `npm start` says how many processes serve, one included, and serves compiled JavaScript: the
// primary and every worker run dist/gateway/main.js on plain node, with no TypeScript loader. The
// primary replaces a worker that dies, and on SIGTERM stops its workers before it exits.
import { execFileSync, spawn, spawnSync } from 'node:child_process';
import { createServer as createHttpServer } from 'node:http';
import { createServer } from 'node:net';
import type { AddressInfo } from 'node:net';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative, resolve } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { groupPids, hasProc, servingProcesses, spawnCompiled, startCompiled, type ServingProcess } from '../helpers/processes.js';
import { openDb } from '../../src/db/client.js';

const root = join(import.meta.dirname, '../..');
const dir = mkdtempSync(join(tmpdir(), 'site-start-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

interface Started { line: string; urls: Record<string, string>; processes: ServingProcess[] }

/** The lines after "listening on …": where a person goes next, by label. */
const URL_LINES = /^ {2}([\w ]+?):\s+(http:\/\/\S+)/;

/**
 * Runs `npm start`, resolves with its start-up line, the addresses it lists and the processes
 * serving then (after `whileUp`, given those addresses, has run), then stops it.
 */
function start(workers: string, whileUp?: (urls: Record<string, string>) => Promise<void>): Promise<Started> {
  return new Promise((resolve, reject) => {
    const env: NodeJS.ProcessEnv = { ...process.env, WORKERS: workers, PORT: '0', DATABASE_URL: `file:${join(dir, `site-${workers}.db`)}`, ADMIN_PASSWORD: 'admin-password', UPLOADS_DIR: join(dir, 'uploads') };
    for (const name of ['SITE_URL', 'HOST', 'NODE_ENV', 'NODE_OPTIONS']) delete env[name];
    const child = spawn('npm', ['start'], {
      cwd: root,
      env,
      stdio: ['ignore', 'pipe', 'pipe'],
      detached: true,
    });
    let out = '';
    let err = '';
    let seen = false;
    const timer = setTimeout(() => stop(new Error(`no start-up line:\n${out}\n${err}`)), 100_000);
    const stop = (result: Started | Error) => {
      clearTimeout(timer);
      try { process.kill(-child.pid!, 'SIGTERM'); } catch { /* already gone */ }
      child.once('exit', () => (result instanceof Error ? reject(result) : resolve(result)));
    };
    child.stdout.on('data', (chunk) => {
      out += chunk;
      const lines = out.split('\n');
      const at = lines.findIndex((l) => l.startsWith('listening on '));
      // The block ends with the site's own address.
      if (seen || at < 0 || !lines.slice(at).some((l) => l.startsWith('  Site:'))) return;
      seen = true;
      const urls: Record<string, string> = {};
      for (const l of lines.slice(at + 1)) { const m = URL_LINES.exec(l); if (m) urls[m[1]] = m[2]; }
      const processes = hasProc ? servingProcesses(child.pid!) : [];
      (whileUp ?? (async () => {}))(urls).then(() => stop({ line: lines[at], urls, processes }), (e: Error) => stop(e));
    });
    child.stderr.on('data', (chunk) => { err += chunk; });
  });
}

/** Runs the compiled entry as `npm start` does and resolves when it exits, with its exit code and output. */
async function failedStart(env: NodeJS.ProcessEnv): Promise<{ code: number | null; pid: number; out: string; err: string }> {
  const run = spawnCompiled({ UPLOADS_DIR: join(dir, 'uploads'), ...env });
  const code = await run.exited;
  return { code, pid: run.child.pid!, out: run.out(), err: run.err() };
}

/** Each serving process runs the compiled entry on node, with no tsx (or other loader) in its arguments or NODE_OPTIONS. */
function expectCompiled(processes: ServingProcess[], count: number) {
  // Workers get the entry as an absolute path (node:cluster resolves it).
  expect(processes.map((p) => p.argv.slice(1).map((a) => relative(root, resolve(root, a))))).toEqual(Array(count).fill(['dist/gateway/main.js']));
  for (const p of processes) expect(p.nodeOptions, `NODE_OPTIONS of ${p.pid}`).not.toMatch(/tsx|--(import|loader|require)/);
}

describe('npm start', () => {
  it('names one worker, and serves from compiled JavaScript', async () => {
    const { line, processes } = await start('1');
    // PORT=0: the port the system gave, not the 0 asked for.
    expect(line).toMatch(/^listening on http:\/\/127\.0\.0\.1:[1-9]\d* with 1 worker \(REST at \/wp-json, GraphQL at \/graphql\)$/);
    if (hasProc) expectCompiled(processes, 1);
  }, 120_000);

  it('lists where to go next, and each address it lists answers', async () => {
    const answers: Record<string, { status: number; type: string | null; body: string }> = {};
    const { line, urls } = await start('2', async (found) => {
      for (const [label, url] of Object.entries(found)) {
        // GraphiQL is what a browser gets at /graphql.
        const res = await fetch(url, { headers: { accept: 'text/html,application/json' } });
        answers[label] = { status: res.status, type: res.headers.get('content-type'), body: await res.text() };
      }
    });
    const base = /^listening on (http:\/\/127\.0\.0\.1:\d+) /.exec(line)![1];
    expect(urls).toEqual({
      'REST API index': `${base}/wp-json/`,
      'API reference': `${base}/wp-json/reference`,
      GraphQL: `${base}/graphql`,
      Site: `${base}/`,
    });
    expect(Object.fromEntries(Object.entries(answers).map(([k, a]) => [k, a.status]))).toEqual({ 'REST API index': 200, 'API reference': 200, GraphQL: 200, Site: 200 });
    expect(JSON.parse(answers['REST API index'].body).namespaces).toContain('core/v2');
    expect(answers.GraphQL.type).toMatch(/^text\/html/);
    expect(answers.GraphQL.body).toMatch(/graphiql/i);
  }, 120_000);

  it('fetches for its callers from the built bundle: url-details and the oEmbed proxy against a loopback page', async () => {
    // The page and its oEmbed provider, on loopback (allow-listed below, as an intranet host would be).
    const pages = createHttpServer((req, res) => {
      const origin = `http://127.0.0.1:${(pages.address() as AddressInfo).port}`;
      if (req.url === '/article') {
        res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
        res.end(`<!doctype html><html><head><title>Loopback article</title><meta name="description" content="Served by the test.">`
          + `<link rel="alternate" type="application/json+oembed" href="${origin}/oembed?url=${encodeURIComponent(`${origin}/article`)}"></head><body>x</body></html>`);
      } else if (req.url?.startsWith('/oembed?')) {
        res.writeHead(200, { 'content-type': 'application/json' });
        res.end(JSON.stringify({ version: '1.0', type: 'rich', title: 'Loopback article', provider_name: 'Loopback', html: '<blockquote>From the provider</blockquote>', width: 600, height: 200 }));
      } else { res.writeHead(404); res.end(); }
    });
    await new Promise<void>((ready) => pages.listen(0, '127.0.0.1', ready));
    const host = `127.0.0.1:${(pages.address() as AddressInfo).port}`;
    const service = await startCompiled({ DATABASE_URL: `file:${join(dir, 'site-fetch.db')}`, UPLOADS_DIR: join(dir, 'uploads'), URL_DETAILS_ALLOW_HOSTS: host, OEMBED_ALLOW_HOSTS: host });
    try {
      // The new site's application password, printed once at its first start.
      const password = /application password: +(\S+(?: \S+){5})/.exec(service.out())![1];
      const auth = { authorization: `Basic ${Buffer.from(`admin:${password}`).toString('base64')}` };
      const api = `${service.base}/wp-json`;
      const article = encodeURIComponent(`http://${host}/article`);
      const details = await fetch(`${api}/block-editor/v1/url-details?url=${article}`, { headers: auth });
      expect(details.status).toBe(200);
      expect(await details.json()).toMatchObject({ title: 'Loopback article', description: 'Served by the test.' });
      const proxied = await fetch(`${api}/oembed/1.0/proxy?url=${article}`, { headers: auth });
      expect(proxied.status).toBe(200);
      expect(await proxied.json()).toMatchObject({ type: 'rich', provider_name: 'Loopback', html: expect.stringContaining('From the provider') });
    } finally {
      await new Promise((done) => pages.close(done));
      expect(await service.stop()).toBe(0);
    }
    expect(service.err()).toBe('');
  }, 120_000);

  // Where the machine has an older Node beside the one running the tests (Debian's, at /usr/bin/node).
  const olderNode = (() => {
    try { return Number(execFileSync('/usr/bin/node', ['-p', 'process.versions.node.split(".")[0]'], { encoding: 'utf8' }).trim()) < 22 ? '/usr/bin/node' : null; } catch { return null; }
  })();
  it.runIf(olderNode)('on a Node older than engines, npm start\'s check and the compiled entry each stop with one line naming the version', () => {
    for (const args of [['scripts/check-node.mjs'], ['dist/gateway/main.js']]) {
      const run = spawnSync(olderNode!, args, { cwd: root, encoding: 'utf8', env: { ...process.env, PORT: '0', DATABASE_URL: `file:${join(dir, 'site-old-node.db')}` } });
      expect(run.status, args[0]).toBe(1);
      expect(run.stderr.trim().split('\n'), args[0]).toEqual([expect.stringMatching(/^This service needs Node\.js 22\.15\.0 or newer \(24, the current LTS, is what it is tested on\); this is Node\.js \d+\.\d+\.\d+/)]);
      expect(run.stdout, args[0]).toBe('');
    }
  });

  it('a port in use fails the start: one line on stderr says why, the workers go, exit code 1', async () => {
    const taken = createServer();
    await new Promise<void>((ready) => taken.listen(0, '127.0.0.1', ready));
    try {
      const port = (taken.address() as AddressInfo).port;
      const { code, pid, err } = await failedStart({ WORKERS: '2', PORT: String(port), DATABASE_URL: `file:${join(dir, 'site-port.db')}` });
      expect(code).toBe(1);
      if (hasProc) expect(groupPids(pid)).toEqual([]);
      const lines = err.split('\n').filter(Boolean);
      expect(lines).toEqual([`start-up failed: bind EADDRINUSE 127.0.0.1:${port}: another program listens on port ${port} (set PORT to another port)`]);
    } finally {
      await new Promise((done) => taken.close(done));
    }
  }, 120_000);

  it('a content model that does not load fails the start with one line naming the file and the key', async () => {
    const model = join(dir, 'bad-model.json');
    writeFileSync(model, JSON.stringify({ types: { event: { label: 'Events', singularLabel: 'Event', restBase: 'posts' } } }));
    const { code, err } = await failedStart({ WORKERS: '1', PORT: '0', DATABASE_URL: `file:${join(dir, 'site-model.db')}`, CONTENT_MODEL: model });
    expect(code).toBe(1);
    expect(err.split('\n').filter(Boolean)).toEqual([`start-up failed: content model ${model}: types.event.restBase "posts" is already used by a built-in route`]);
  }, 120_000);

  it('a database that cannot be reached fails the start with its reason once, and no worker is left behind', async () => {
    const { code, pid, err } = await failedStart({ WORKERS: '2', PORT: '0', DATABASE_URL: 'postgresql://postgres@127.0.0.1:1/nothing' });
    expect(code).toBe(1);
    if (hasProc) expect(groupPids(pid)).toEqual([]);
    expect(err.split('\n').filter(Boolean)).toEqual(['start-up failed: connect ECONNREFUSED 127.0.0.1:1']);
  }, 120_000);

  it('names several workers once they all listen; the primary and each worker run compiled JavaScript', async () => {
    const { line, processes } = await start('2');
    expect(line).toMatch(/ with 2 workers \(/);
    if (hasProc) {
      expectCompiled(processes, 3);
      // The workers (started by the primary, given the entry as an absolute path) get the heap limit (WORKER_HEAP_MB, default 512).
      const workers = processes.filter((p) => p.argv.some((a) => a.startsWith('/') && a.endsWith('gateway/main.js')));
      expect(workers.map((p) => p.nodeOptions)).toEqual(['--max-old-space-size=512 --max-semi-space-size=8', '--max-old-space-size=512 --max-semi-space-size=8']);
      expect(processes.filter((p) => !workers.includes(p)).map((p) => p.nodeOptions)).toEqual(['']);
    }
  }, 120_000);

  it('keeps stderr for what goes wrong: a GraphQL list asking for featured images writes nothing there', async () => {
    const databaseUrl = `file:${join(dir, 'site-stderr.db')}`;
    const service = await startCompiled({ DATABASE_URL: databaseUrl, UPLOADS_DIR: join(dir, 'uploads') });
    try {
      // A post without a featured image, written beside the service (SQLite lets both in).
      const db = await openDb(databaseUrl);
      try {
        const now = new Date();
        await db.prisma.content.create({ data: { type: 'post', status: 'publish', authorId: 1, title: 'No image', content: 'Text.', slug: 'no-image', date: now, dateGmt: now, modified: now, modifiedGmt: now } });
      } finally {
        await db.close();
      }
      const query = '{ posts(perPage: 10) { nodes { id featuredImageDatabaseId featuredImage { node { sourceUrl } } } } }';
      for (let i = 0; i < 3; i++) {
        const res = await fetch(`${service.base}/graphql`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ query }) });
        expect(res.status).toBe(200);
        const nodes = ((await res.json()) as { data: { posts: { nodes: { featuredImageDatabaseId: number; featuredImage: unknown }[] } } }).data.posts.nodes;
        expect(nodes.length).toBeGreaterThan(0);
        expect(nodes.filter((n) => n.featuredImageDatabaseId === 0 && n.featuredImage === null).length).toBe(nodes.length);
      }
    } finally {
      expect(await service.stop()).toBe(0);
    }
    expect(service.err()).not.toContain('Prisma query was unused');
  }, 120_000);

  it('replaces a worker that dies, and keeps answering', async () => {
    if (!hasProc) return;
    const service = await startCompiled({ WORKERS: '2', DATABASE_URL: `file:${join(dir, 'site-replace.db')}`, UPLOADS_DIR: join(dir, 'uploads') });
    const { child } = service;
    try {
      const workers = () => servingProcesses(child.pid!).filter((p) => p.pid !== child.pid).map((p) => p.pid);
      const [victim, other] = workers();
      process.kill(victim, 'SIGKILL');
      let now: number[] = [];
      for (let i = 0; i < 200; i++) {
        now = workers();
        if (now.length === 2 && !now.includes(victim)) break;
        await new Promise((r) => setTimeout(r, 50));
      }
      expect(now).toHaveLength(2);
      expect(now).toContain(other);
      expect(now).not.toContain(victim);
      for (let i = 0; i < 4; i++) expect((await fetch(`${service.base}/wp-json/`)).status).toBe(200);
    } finally {
      expect(await service.stop()).toBe(0);
    }
  }, 120_000);

  it('stops its workers before it goes: SIGTERM to the primary alone ends every process with exit 0 and no error', async () => {
    if (!hasProc) return;
    const service = await startCompiled({ WORKERS: '2', DATABASE_URL: `file:${join(dir, 'site-stop.db')}`, UPLOADS_DIR: join(dir, 'uploads') });
    const { child } = service;
    const workers = servingProcesses(child.pid!).filter((p) => p.pid !== child.pid).map((p) => p.pid);
    expect(workers).toHaveLength(2);
    expect(await service.stop()).toBe(0);
    expect(service.err()).not.toMatch(/EPIPE|Unhandled|Error/);
    expect(groupPids(child.pid!)).toEqual([]);
  }, 120_000);
});
