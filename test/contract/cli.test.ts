// The operator's command line never changes the settings of a live site; only `npm start`
// follows its configured address.
import { execFile } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { migrate } from '../../src/db/migrate.js';
import { openDb } from '../../src/db/client.js';
import { bootstrapSite } from '../../src/site/bootstrap.js';

const run = promisify(execFile);
const root = join(import.meta.dirname, '../..');
const dir = mkdtempSync(join(tmpdir(), 'site-cli-'));
const LIVE = 'https://live.example';

/** The environment of an operator's shell: none of the server's settings. */
function operatorEnv(databaseUrl: string): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = { ...process.env, DATABASE_URL: databaseUrl };
  for (const name of ['SITE_URL', 'HOST', 'PORT', 'ADMIN_USER', 'ADMIN_PASSWORD']) delete env[name];
  return env;
}

const cli = (databaseUrl: string, ...args: string[]) =>
  run('npx', ['tsx', 'scripts/cli.ts', ...args], { cwd: root, env: operatorEnv(databaseUrl) });

async function options(databaseUrl: string): Promise<Record<string, unknown>> {
  const db = await openDb(databaseUrl);
  try {
    const rows = await db.prisma.option.findMany({ where: { name: { in: ['siteurl', 'home'] } } });
    return Object.fromEntries(rows.map((r) => [r.name, JSON.parse(r.value)]));
  } finally {
    await db.close();
  }
}

afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('command line on a live site', () => {
  const url = `file:${join(dir, 'live.db')}`;
  beforeAll(async () => {
    await migrate(url);
    const db = await openDb(url);
    await bootstrapSite(db, { siteUrl: LIVE, adminUser: 'admin', adminPassword: 'admin-password', followSiteUrl: true });
    await db.close();
  });

  it('user create leaves siteurl and home as they are', async () => {
    const { stdout } = await cli(url, 'user', 'create', 'jane', 'jane@example.com', '--role=editor');
    expect(JSON.parse(stdout)).toMatchObject({ login: 'jane', email: 'jane@example.com', role: 'editor' });
    expect(await options(url)).toEqual({ siteurl: LIVE, home: LIVE });
  }, 60_000);

  it('application-password create leaves them too', async () => {
    const { stdout } = await cli(url, 'user', 'application-password', 'create', 'jane', 'My app', '--porcelain');
    expect(stdout.trim()).toMatch(/^[A-Za-z0-9]{4}( [A-Za-z0-9]{4}){5}$/);
    expect(await options(url)).toEqual({ siteurl: LIVE, home: LIVE });
  }, 60_000);

  it('bootstrap follows the configured address only when asked (the server)', async () => {
    const db = await openDb(url);
    try {
      await bootstrapSite(db, { siteUrl: 'http://127.0.0.1:8080', adminUser: 'admin' });
      expect(await options(url)).toEqual({ siteurl: LIVE, home: LIVE });
      await bootstrapSite(db, { siteUrl: 'https://moved.example', adminUser: 'admin', followSiteUrl: true });
      expect(await options(url)).toEqual({ siteurl: 'https://moved.example', home: 'https://moved.example' });
    } finally {
      await db.close();
    }
  });

  it('a server without SITE_URL keeps a public address and only replaces a loopback one', async () => {
    const db = await openDb(url);
    try {
      await bootstrapSite(db, { siteUrl: 'http://127.0.0.1:9000', adminUser: 'admin', followSiteUrl: 'loopback' });
      expect(await options(url)).toEqual({ siteurl: 'https://moved.example', home: 'https://moved.example' });
      await bootstrapSite(db, { siteUrl: 'http://localhost:8080', adminUser: 'admin', followSiteUrl: true });
      await bootstrapSite(db, { siteUrl: 'http://127.0.0.1:9000', adminUser: 'admin', followSiteUrl: 'loopback' });
      expect(await options(url)).toEqual({ siteurl: 'http://127.0.0.1:9000', home: 'http://127.0.0.1:9000' });
    } finally {
      await db.close();
    }
  });

  it('site set-url moves siteurl and home when the operator asks', async () => {
    const { stdout } = await cli(url, 'site', 'set-url', 'https://news.example/blog/');
    expect(stdout.trim()).toBe('https://news.example/blog');
    expect(await options(url)).toEqual({ siteurl: 'https://news.example/blog', home: 'https://news.example/blog' });
  }, 60_000);

  it('site set-url refuses what is not an http(s) address and changes nothing', async () => {
    for (const bad of ['javascript:alert(1)', 'not a url', 'https://x.example/?a=1']) {
      const failed = await cli(url, 'site', 'set-url', bad).then(() => null, (err: { code: number; stderr: string }) => err);
      expect(failed?.code).toBe(2);
      expect(failed?.stderr).toMatch(/^error: .*(http or https|not a URL|no query)/m);
    }
    expect(await options(url)).toEqual({ siteurl: 'https://news.example/blog', home: 'https://news.example/blog' });
  }, 60_000);
});

describe('command line on an empty database', () => {
  it('creates the site and shows the administrator credentials once, on stderr', async () => {
    const url = `file:${join(dir, 'empty.db')}`;
    const { stdout, stderr } = await cli(url, 'user', 'create', 'joe', 'joe@example.com');
    expect(JSON.parse(stdout)).toMatchObject({ login: 'joe', role: 'subscriber' });
    expect(stderr).toMatch(/administrator: admin\n\s+login password: \S+\n\s+application password: /);
  }, 60_000);
});

describe('usage', () => {
  /** What a run printed and how it ended, whether it succeeded or not. */
  const outcome = (databaseUrl: string, ...args: string[]) => cli(databaseUrl, ...args).then(
    ({ stdout, stderr }) => ({ code: 0, stdout, stderr }),
    (err: { code: number; stdout: string; stderr: string }) => ({ code: err.code, stdout: err.stdout, stderr: err.stderr }),
  );

  it('--help, -h and help print it to stdout and succeed, without opening the database', async () => {
    const file = join(dir, 'help.db');
    const runs = await Promise.all([['--help'], ['-h'], ['help'], ['user', 'create', '--help']].map((args) => outcome(`file:${file}`, ...args)));
    for (const run of runs) {
      expect(run.code).toBe(0);
      expect(run.stdout).toMatch(/^usage:\n {2}cli user create /);
      expect(run.stdout).toContain('cli site set-url <url>');
      expect(run.stderr).not.toContain('usage:');
    }
    expect(existsSync(file)).toBe(false);
  }, 60_000);

  it('an unknown command prints it to stderr and exits 2', async () => {
    const run = await outcome(`file:${join(dir, 'unknown.db')}`, 'frobnicate');
    expect(run.code).toBe(2);
    expect(run.stdout).toBe('');
    expect(run.stderr).toMatch(/^usage:\n {2}cli user create /m);
  }, 60_000);
});
