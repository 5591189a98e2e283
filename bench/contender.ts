// One server of the bench scripts that run outside `npm run bench` (bench/profile-http.ts,
// bench/outside.ts): the built service or the floor (bench/floor-server.ts) on a free loopback
// port over a database, resolved once it answers a post.
import { spawn, type ChildProcess } from 'node:child_process';
import { createServer } from 'node:net';

export const HOST = '127.0.0.1';

export interface Contender { child: ChildProcess; port: number; stop(): Promise<void> }

/** A loopback port free now (bound, then released). */
export const freePort = () => new Promise<number>((done) => {
  const probe = createServer().listen(0, HOST, () => { const { port } = probe.address() as { port: number }; probe.close(() => done(port)); });
});

/**
 * Starts the service (dist/gateway/main.js, as `npm start` serves it) or the floor with `workers`
 * processes over `databaseUrl`; `env` is added to the process's environment. Resolves once
 * `/wp-json/core/v2/posts/<postId>` answers 2xx.
 */
export async function startContender(kind: 'service' | 'floor', databaseUrl: string, workers: string, postId: number, env: Record<string, string> = {}): Promise<Contender> {
  const port = await freePort();
  const own = kind === 'floor'
    ? { FLOOR_PORT: String(port), FLOOR_HOST: HOST, FLOOR_WORKERS: workers, FLOOR_DATABASE_URL: databaseUrl, FLOOR_SITE_URL: `http://${HOST}:${port}` }
    : { PORT: String(port), HOST, SITE_URL: `http://${HOST}:${port}`, DATABASE_URL: databaseUrl, WORKERS: workers };
  const entry = kind === 'floor' ? ['--import', 'tsx', 'bench/floor-server.ts'] : ['dist/gateway/main.js'];
  const child = spawn(process.execPath, entry, { env: { ...process.env, ...own, ...env }, stdio: ['ignore', 'ignore', 'inherit'] });
  for (let i = 0; ; i++) {
    try { if ((await fetch(`http://${HOST}:${port}/wp-json/core/v2/posts/${postId}`)).ok) break; } catch { /* not yet */ }
    if (i > 300) throw new Error(`the ${kind} did not start`);
    await new Promise((r) => setTimeout(r, 100));
  }
  const stop = () => new Promise<void>((done) => { child.once('exit', () => done()); child.kill('SIGTERM'); });
  return { child, port, stop };
}
