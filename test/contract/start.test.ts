// `npm start` says how many processes serve, one included.
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';

const dir = mkdtempSync(join(tmpdir(), 'site-start-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** Starts the server and resolves with its start-up line, then stops it. */
function startupLine(workers: string): Promise<string> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['--import', 'tsx', 'gateway/main.ts'], {
      cwd: join(import.meta.dirname, '../..'),
      env: { ...process.env, WORKERS: workers, PORT: '0', DATABASE_URL: `file:${join(dir, `site-${workers}.db`)}`, ADMIN_PASSWORD: 'admin-password' },
      stdio: ['ignore', 'pipe', 'pipe'],
      detached: true,
    });
    let out = '';
    let err = '';
    const timer = setTimeout(() => stop(new Error(`no start-up line:\n${out}\n${err}`)), 50_000);
    const stop = (result: string | Error) => {
      clearTimeout(timer);
      try { process.kill(-child.pid!, 'SIGTERM'); } catch { /* already gone */ }
      child.once('exit', () => (result instanceof Error ? reject(result) : resolve(result)));
    };
    child.stdout.on('data', (chunk) => {
      out += chunk;
      const line = out.split('\n').find((l) => l.startsWith('listening on '));
      if (line) stop(line);
    });
    child.stderr.on('data', (chunk) => { err += chunk; });
  });
}

describe('start-up line', () => {
  it('names one worker', async () => {
    expect(await startupLine('1')).toMatch(/^listening on http:\/\/127\.0\.0\.1:0 with 1 worker \(REST at \/wp-json, GraphQL at \/graphql\)$/);
  }, 60_000);

  it('names several workers once they all listen', async () => {
    expect(await startupLine('2')).toMatch(/ with 2 workers \(/);
  }, 60_000);
});
