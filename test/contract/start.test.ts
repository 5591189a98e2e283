// `npm start` says how many processes serve, one included, and serves compiled JavaScript: the
// primary and every worker run dist/gateway/main.js on plain node, with no TypeScript loader. The
// primary replaces a worker that dies, and on SIGTERM stops its workers before it exits.
import { spawn } from 'node:child_process';
import { createServer } from 'node:net';
import type { AddressInfo } from 'node:net';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative, resolve } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { groupPids, hasProc, servingProcesses, type ServingProcess } from '../helpers/processes.js';
import { openDb } from '../../src/db/client.js';

const root = join(import.meta.dirname, '../..');
const dir = mkdtempSync(join(tmpdir(), 'site-start-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

interface Started { line: string; processes: ServingProcess[] }

/** Runs `npm start`, resolves with its start-up line and the processes serving then, then stops it. */
function start(workers: string): Promise<Started> {
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
    const timer = setTimeout(() => stop(new Error(`no start-up line:\n${out}\n${err}`)), 100_000);
    const stop = (result: Started | Error) => {
      clearTimeout(timer);
      try { process.kill(-child.pid!, 'SIGTERM'); } catch { /* already gone */ }
      child.once('exit', () => (result instanceof Error ? reject(result) : resolve(result)));
    };
    child.stdout.on('data', (chunk) => {
      out += chunk;
      const line = out.split('\n').find((l) => l.startsWith('listening on '));
      if (line) stop({ line, processes: hasProc ? servingProcesses(child.pid!) : [] });
    });
    child.stderr.on('data', (chunk) => { err += chunk; });
  });
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
    expect(line).toMatch(/^listening on http:\/\/127\.0\.0\.1:0 with 1 worker \(REST at \/wp-json, GraphQL at \/graphql\)$/);
    if (hasProc) expectCompiled(processes, 1);
  }, 120_000);

  it('names several workers once they all listen; the primary and each worker run compiled JavaScript', async () => {
    const { line, processes } = await start('2');
    expect(line).toMatch(/ with 2 workers \(/);
    if (hasProc) {
      expectCompiled(processes, 3);
      // The workers (started by the primary, given the entry as an absolute path) get the heap limit (WORKER_HEAP_MB, default 512).
      const workers = processes.filter((p) => p.argv.some((a) => a.startsWith('/') && a.endsWith('gateway/main.js')));
      expect(workers.map((p) => p.nodeOptions)).toEqual(['--max-old-space-size=512', '--max-old-space-size=512']);
      expect(processes.filter((p) => !workers.includes(p)).map((p) => p.nodeOptions)).toEqual(['']);
    }
  }, 120_000);

  it('keeps stderr for what goes wrong: a GraphQL list asking for featured images writes nothing there', async () => {
    const port = await new Promise<number>((done) => { const probe = createServer(); probe.listen(0, '127.0.0.1', () => { const p = (probe.address() as AddressInfo).port; probe.close(() => done(p)); }); });
    const env: NodeJS.ProcessEnv = { ...process.env, WORKERS: '1', PORT: String(port), DATABASE_URL: `file:${join(dir, 'site-stderr.db')}`, ADMIN_PASSWORD: 'admin-password', UPLOADS_DIR: join(dir, 'uploads') };
    for (const name of ['SITE_URL', 'HOST', 'NODE_ENV', 'NODE_OPTIONS']) delete env[name];
    const child = spawn(process.execPath, ['dist/gateway/main.js'], { cwd: root, env, stdio: ['ignore', 'pipe', 'pipe'], detached: true });
    const exited = new Promise<number | null>((done) => child.once('exit', (code) => done(code)));
    let err = '';
    child.stderr.on('data', (chunk) => { err += chunk; });
    try {
      let out = '';
      await new Promise<void>((ready, fail) => {
        const timer = setTimeout(() => fail(new Error(`no start-up line:\n${out}`)), 100_000);
        child.stdout.on('data', (chunk) => { out += chunk; if (out.includes('listening on ')) { clearTimeout(timer); ready(); } });
      });
      // A post without a featured image, written beside the service (SQLite lets both in).
      const db = await openDb(env.DATABASE_URL!);
      try {
        const now = new Date();
        await db.prisma.content.create({ data: { type: 'post', status: 'publish', authorId: 1, title: 'No image', content: 'Text.', slug: 'no-image', date: now, dateGmt: now, modified: now, modifiedGmt: now } });
      } finally {
        await db.close();
      }
      const query = '{ posts(perPage: 10) { nodes { id featuredMedia featuredMediaNode { sourceUrl } } } }';
      for (let i = 0; i < 3; i++) {
        const res = await fetch(`http://127.0.0.1:${port}/graphql`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ query }) });
        expect(res.status).toBe(200);
        const nodes = ((await res.json()) as { data: { posts: { nodes: { featuredMedia: number; featuredMediaNode: unknown }[] } } }).data.posts.nodes;
        expect(nodes.length).toBeGreaterThan(0);
        expect(nodes.filter((n) => n.featuredMedia === 0 && n.featuredMediaNode === null).length).toBe(nodes.length);
      }
    } finally {
      process.kill(child.pid!, 'SIGTERM');
      expect(await exited).toBe(0);
    }
    expect(err).not.toContain('Prisma query was unused');
  }, 120_000);

  it('replaces a worker that dies, and keeps answering', async () => {
    if (!hasProc) return;
    const port = await new Promise<number>((done) => { const probe = createServer(); probe.listen(0, '127.0.0.1', () => { const p = (probe.address() as AddressInfo).port; probe.close(() => done(p)); }); });
    const env: NodeJS.ProcessEnv = { ...process.env, WORKERS: '2', PORT: String(port), DATABASE_URL: `file:${join(dir, 'site-replace.db')}`, ADMIN_PASSWORD: 'admin-password', UPLOADS_DIR: join(dir, 'uploads') };
    for (const name of ['SITE_URL', 'HOST', 'NODE_ENV', 'NODE_OPTIONS']) delete env[name];
    const child = spawn(process.execPath, ['dist/gateway/main.js'], { cwd: root, env, stdio: ['ignore', 'pipe', 'pipe'], detached: true });
    const exited = new Promise<number | null>((done) => child.once('exit', (code) => done(code)));
    try {
      let out = '';
      await new Promise<void>((ready, fail) => {
        const timer = setTimeout(() => fail(new Error(`no start-up line:\n${out}`)), 100_000);
        child.stdout.on('data', (chunk) => { out += chunk; if (out.includes('listening on ')) { clearTimeout(timer); ready(); } });
      });
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
      for (let i = 0; i < 4; i++) expect((await fetch(`http://127.0.0.1:${port}/wp-json/`)).status).toBe(200);
    } finally {
      process.kill(child.pid!, 'SIGTERM');
      expect(await exited).toBe(0);
    }
  }, 120_000);

  it('stops its workers before it goes: SIGTERM to the primary alone ends every process with exit 0 and no error', async () => {
    if (!hasProc) return;
    const env: NodeJS.ProcessEnv = { ...process.env, WORKERS: '2', PORT: '0', DATABASE_URL: `file:${join(dir, 'site-stop.db')}`, ADMIN_PASSWORD: 'admin-password', UPLOADS_DIR: join(dir, 'uploads') };
    for (const name of ['SITE_URL', 'HOST', 'NODE_ENV', 'NODE_OPTIONS']) delete env[name];
    const child = spawn(process.execPath, ['dist/gateway/main.js'], { cwd: root, env, stdio: ['ignore', 'pipe', 'pipe'], detached: true });
    let out = '';
    let err = '';
    child.stderr.on('data', (chunk) => { err += chunk; });
    const exited = new Promise<number | null>((done) => child.once('exit', (code) => done(code)));
    await new Promise<void>((ready, fail) => {
      const timer = setTimeout(() => fail(new Error(`no start-up line:\n${out}\n${err}`)), 100_000);
      child.stdout.on('data', (chunk) => {
        out += chunk;
        if (out.includes('listening on ')) { clearTimeout(timer); ready(); }
      });
    });
    const workers = servingProcesses(child.pid!).filter((p) => p.pid !== child.pid).map((p) => p.pid);
    expect(workers).toHaveLength(2);
    process.kill(child.pid!, 'SIGTERM');
    expect(await exited).toBe(0);
    expect(err).not.toMatch(/EPIPE|Unhandled|Error/);
    expect(groupPids(child.pid!)).toEqual([]);
  }, 120_000);
});
