// `npm run cli -- webhook …`: create (the secret shown once), list (no secrets), delete, and a
// refusal of the service (a bad URL), on a scratch SQLite file.
import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, expect, it } from 'vitest';

const run = promisify(execFile);
const root = join(import.meta.dirname, '../..');
const dir = mkdtempSync(join(tmpdir(), 'site-webhook-cli-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const url = `file:${join(dir, 'site.db')}`;
const env: NodeJS.ProcessEnv = { ...process.env, DATABASE_URL: url, ADMIN_PASSWORD: 'admin-password' };
for (const name of ['SITE_URL', 'HOST', 'PORT']) delete env[name];
const cli = (...args: string[]) => run('npx', ['tsx', 'scripts/cli.ts', ...args], { cwd: root, env });
/** A command that fails: its exit code and stderr. */
const failing = async (...args: string[]) => {
  try { await cli(...args); } catch (err) { const e = err as { code: number; stderr: string }; return { code: e.code, stderr: e.stderr }; }
  throw new Error(`cli ${args.join(' ')} succeeded`);
};

it('creates, lists and deletes webhooks', async () => {
  const secret = `whsec_${Buffer.alloc(32, 3).toString('base64')}`;
  const made = JSON.parse((await cli('webhook', 'create', 'https://hooks.example/in', '--events=post.published,comment.created', `--secret=${secret}`, '--name=Deploy')).stdout);
  expect(made).toMatchObject({ name: 'Deploy', url: 'https://hooks.example/in', events: ['post.published', 'comment.created'], active: true, secret });
  const listed = (await cli('webhook', 'list')).stdout.trim().split('\n').map((l) => JSON.parse(l));
  expect(listed.map((w) => w.id)).toEqual([made.id]);
  expect(listed.every((w) => !('secret' in w))).toBe(true);
  const gone = JSON.parse((await cli('webhook', 'delete', String(made.id))).stdout);
  expect(gone).toMatchObject({ deleted: true, previous: { id: made.id } });
  const bad = await failing('webhook', 'create', 'ftp://hooks.example/in', '--events=*');
  expect(bad).toMatchObject({ code: 1 });
  expect(bad.stderr).toMatch(/rest_invalid_param/);
}, 300_000);
