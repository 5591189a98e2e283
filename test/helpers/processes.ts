// The processes of a process group that serve (a node running gateway/main, primary or cluster
// worker), read from /proc: how the start commands are checked to serve compiled JavaScript; and
// the compiled service started as `npm start` runs it, for the tests that need a real one.
import { spawn, type ChildProcess } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { createServer as createNetServer, type AddressInfo } from 'node:net';
import { join } from 'node:path';

export interface ServingProcess {
  pid: number;
  /** The command line, argv[0] included. */
  argv: string[];
  /** NODE_OPTIONS of its environment ('' when unset). */
  nodeOptions: string;
}

/** Whether /proc can be read (Linux): elsewhere the checks that need it are skipped. */
export const hasProc = (() => { try { readFileSync('/proc/self/stat'); return true; } catch { return false; } })();

/** The pids of the process group `pgid` (a child spawned with `detached: true`, and its own children). */
export function groupPids(pgid: number): number[] {
  const pids: number[] = [];
  for (const name of readdirSync('/proc')) {
    if (!/^\d+$/.test(name)) continue;
    try {
      const stat = readFileSync(`/proc/${name}/stat`, 'utf8');
      // pid (comm) state ppid pgrp …: comm may hold spaces, so count from the last ')'.
      const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      if (Number(fields[2]) === pgid) pids.push(Number(name));
    } catch { /* gone meanwhile */ }
  }
  return pids;
}

/** The serving processes whose process group is `pgid`. */
export function servingProcesses(pgid: number): ServingProcess[] {
  const found: ServingProcess[] = [];
  for (const pid of groupPids(pgid)) {
    try {
      const argv = readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0').filter(Boolean);
      if (!/(^|\/)node$/.test(argv[0] ?? '') || !argv.some((a) => /(^|\/)gateway\/main\.[jt]s$/.test(a))) continue;
      const env = readFileSync(`/proc/${pid}/environ`, 'utf8').split('\0');
      const nodeOptions = env.find((e) => e.startsWith('NODE_OPTIONS='))?.slice('NODE_OPTIONS='.length) ?? '';
      found.push({ pid, argv, nodeOptions });
    } catch { /* gone meanwhile */ }
  }
  return found;
}

/** A loopback port free a moment ago (for a server in another process, which must be told its port). */
export function freePort(): Promise<number> {
  return new Promise((resolve) => {
    const probe = createNetServer();
    probe.listen(0, '127.0.0.1', () => { const { port } = probe.address() as AddressInfo; probe.close(() => resolve(port)); });
  });
}

export interface Compiled {
  child: ChildProcess;
  /** Its address, `http://127.0.0.1:PORT`. */
  base: string;
  /** What it wrote so far. */
  out(): string;
  err(): string;
  /** Its exit code, once it exits. */
  exited: Promise<number | null>;
  /** SIGTERM to its primary (the workers are stopped by it); resolves with the exit code. */
  stop(): Promise<number | null>;
}

const ROOT = join(import.meta.dirname, '../..');

/** The variables that would point a started service elsewhere than a test says: dropped unless the test sets them. */
const SCRUBBED = ['SITE_URL', 'HOST', 'NODE_ENV', 'NODE_OPTIONS', 'GRAPHIQL', 'CONTENT_MODEL'];

/**
 * Runs the compiled service as `npm start` runs it (`node dist/gateway/main.js`, built already)
 * in its own process group, with `env` over the test's environment (less what would point it
 * elsewhere), its output collected.
 */
export function spawnCompiled(env: NodeJS.ProcessEnv): { child: ChildProcess; out(): string; err(): string; exited: Promise<number | null> } {
  const full: NodeJS.ProcessEnv = { ...process.env, ADMIN_PASSWORD: 'admin-password', ...env };
  for (const name of SCRUBBED) if (!(name in env)) delete full[name];
  const child = spawn(process.execPath, ['dist/gateway/main.js'], { cwd: ROOT, env: full, stdio: ['ignore', 'pipe', 'pipe'], detached: true });
  let out = '';
  let err = '';
  child.stdout!.on('data', (chunk) => { out += chunk; });
  child.stderr!.on('data', (chunk) => { err += chunk; });
  // 'close': its output is all read by then.
  const exited = new Promise<number | null>((done) => child.once('close', (code) => done(code)));
  return { child, out: () => out, err: () => err, exited };
}

/** spawnCompiled on a free loopback port (one worker unless `env` says), resolved once it prints its "listening on" line. */
export async function startCompiled(env: NodeJS.ProcessEnv): Promise<Compiled> {
  const port = await freePort();
  const { child, out, err, exited } = spawnCompiled({ WORKERS: '1', PORT: String(port), ...env });
  await new Promise<void>((ready, fail) => {
    child.stdout!.on('data', () => { if (out().includes('listening on ')) ready(); });
    void exited.then((code) => fail(new Error(`dist/gateway/main.js exited (${code}) before listening:\n${out()}\n${err()}`)));
  });
  return {
    child, base: `http://127.0.0.1:${port}`, out, err, exited,
    stop() {
      if (child.exitCode === null && child.signalCode === null) { try { process.kill(child.pid!, 'SIGTERM'); } catch { /* gone */ } }
      return exited;
    },
  };
}
