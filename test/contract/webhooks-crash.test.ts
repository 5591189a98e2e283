// Webhooks survive a crash: the service (gateway/main.ts from the sources, one process) is killed
// with SIGKILL in the middle of a burst of post creates, started again on the same database, and
// every acknowledged create's event must reach the loopback receiver exactly once after dedupe by
// webhook-id, with a valid signature; no message id may carry two events.
import { afterAll, beforeAll, expect, inject, it } from 'vitest';
import { spawn, type ChildProcess } from 'node:child_process';
import { join } from 'node:path';
import { freePort } from '../helpers/processes.js';
import { provider } from '../helpers/app.js';
import { readTemplate, testDatabase, type TestDatabase } from '../helpers/template.js';
import { startReceiver, type Receiver } from '../helpers/webhook-receiver.js';

const ROOT = join(import.meta.dirname, '../..');
let rx: Receiver;
let database: TestDatabase;
const children: ChildProcess[] = [];

beforeAll(async () => {
  rx = await startReceiver();
  let json: string | undefined;
  try { json = inject('siteTemplate'); } catch { /* outside a vitest run */ }
  database = await testDatabase(provider, readTemplate(json));
});
afterAll(async () => {
  for (const c of children) if (c.exitCode === null && c.signalCode === null) { try { process.kill(-c.pid!, 'SIGKILL'); } catch { /* gone */ } }
  await rx?.close();
  await database?.drop();
});

/** The service from the sources on a free port, one process, resolved once it listens. */
async function start(): Promise<{ child: ChildProcess; base: string }> {
  const port = await freePort();
  const env: NodeJS.ProcessEnv = {
    ...process.env, DATABASE_URL: database.url, PORT: String(port), HOST: '127.0.0.1', WORKERS: '1', SITE_URL: `http://127.0.0.1:${port}`,
    // A claim cut short by the kill is given up after a second, so the restarted service sends it again soon.
    WEBHOOK_ALLOW_HOSTS: rx.host, WEBHOOK_LEASE_MS: '1000',
  };
  for (const name of ['NODE_ENV', 'NODE_OPTIONS', 'CONTENT_MODEL', 'WEBHOOK_DISPATCH']) delete env[name];
  const child = spawn(process.execPath, ['--import', 'tsx', 'gateway/main.ts'], { cwd: ROOT, detached: true, stdio: ['ignore', 'pipe', 'pipe'], env });
  children.push(child);
  let out = '';
  let err = '';
  child.stdout!.on('data', (c) => { out += c; });
  child.stderr!.on('data', (c) => { err += c; });
  await new Promise<void>((ready, fail) => {
    child.stdout!.on('data', () => { if (out.includes('listening on ')) ready(); });
    child.once('close', (code) => fail(new Error(`the service exited (${code}) before listening:\n${out}\n${err}`)));
  });
  return { child, base: `http://127.0.0.1:${port}` };
}

/** The seeded administrator's Basic credentials. */
function admin(): string {
  const u = database.users.administrator;
  return 'Basic ' + Buffer.from(`${u.login}:${u.password}`).toString('base64');
}

it('delivers every acknowledged write\'s event exactly once across a SIGKILL and a restart', async () => {
  let svc = await start();
  const made = await fetch(`${svc.base}/wp-json/webhooks/v1/webhooks`, {
    method: 'POST', headers: { authorization: admin(), 'content-type': 'application/json' }, body: JSON.stringify({ url: rx.url, events: ['post.created'] }),
  });
  expect(made.status).toBe(201);
  rx.secret = ((await made.json()) as { secret: string }).secret;

  // The burst: four writers; the kill comes once a dozen creates are acknowledged, the others in flight.
  const acknowledged: number[] = [];
  let killed = false;
  const child = svc.child;
  const writer = async (w: number) => {
    for (let i = 0; !killed; i++) {
      try {
        const res = await fetch(`${svc.base}/wp-json/core/v2/posts`, {
          method: 'POST', headers: { authorization: admin(), 'content-type': 'application/json' }, body: JSON.stringify({ title: `Crash ${w}-${i}`, status: 'publish' }),
        });
        if (res.status === 201) acknowledged.push(((await res.json()) as { id: number }).id);
      } catch { return; } // the connection died with the service
      if (acknowledged.length >= 12 && !killed) { killed = true; process.kill(-child.pid!, 'SIGKILL'); }
    }
  };
  const exited = new Promise((done) => child.once('close', done));
  await Promise.all([0, 1, 2, 3].map(writer));
  await exited;
  expect(acknowledged.length).toBeGreaterThanOrEqual(12);

  svc = await start();
  const wanted = new Set(acknowledged);
  await rx.until((r) => acknowledged.every((id) => r.some((x) => x.body.data.id === id)));
  expect(rx.received.every((r) => r.verified)).toBe(true);
  // After dedupe by webhook-id: one message per post, and one post per message.
  const perPost = new Map<number, Set<string>>();
  const perMessage = new Map<string, Set<number>>();
  for (const r of rx.received) {
    (perPost.get(r.body.data.id) ?? perPost.set(r.body.data.id, new Set()).get(r.body.data.id)!).add(r.id);
    (perMessage.get(r.id) ?? perMessage.set(r.id, new Set()).get(r.id)!).add(r.body.data.id);
  }
  for (const id of wanted) expect(perPost.get(id)?.size, `messages for post ${id}`).toBe(1);
  for (const [id, posts] of perMessage) expect(posts.size, `posts in message ${id}`).toBe(1);
  for (const r of rx.received) expect(r.body.type).toBe('post.created');
  process.kill(-svc.child.pid!, 'SIGTERM');
  await new Promise((done) => svc.child.once('close', done));
}, 120_000);
