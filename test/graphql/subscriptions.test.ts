// contentChanged over server-sent events, from the real service with two workers, hearing
// changes made by other processes: this test process (its own app on the same database) and the
// service's workers (REST requests on fresh connections, which either worker may take).
import { spawn, type ChildProcess } from 'node:child_process';
import { createServer } from 'node:net';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestSite, type TestSite } from '../helpers/app.js';

let site: TestSite;
let child: ChildProcess | null = null;
let base = '';

/** A port free right now on loopback. */
function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const s = createServer();
    s.once('error', reject);
    s.listen(0, '127.0.0.1', () => { const { port } = s.address() as { port: number }; s.close(() => resolve(port)); });
  });
}

/** Starts `npm start`'s entry with two workers on the test site's database; resolves once both listen. */
async function startService(databaseUrl: string): Promise<void> {
  const port = await freePort();
  base = `http://127.0.0.1:${port}`;
  const proc = spawn(process.execPath, ['--import', 'tsx', 'gateway/main.ts'], {
    cwd: join(import.meta.dirname, '../..'),
    env: { ...process.env, WORKERS: '2', PORT: String(port), DATABASE_URL: databaseUrl, SITE_URL: base, ADMIN_PASSWORD: 'admin-password', CACHE_ENTRIES: '0' },
    stdio: ['ignore', 'pipe', 'pipe'],
    detached: true,
  });
  child = proc;
  let out = '';
  await new Promise<void>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`the service did not start:\n${out}`)), 90_000);
    const read = (chunk: Buffer) => {
      out += chunk;
      if (/listening on .* with 2 workers/.test(out)) { clearTimeout(timer); resolve(); }
    };
    proc.stdout!.on('data', read);
    proc.stderr!.on('data', (chunk) => { out += chunk; });
    proc.once('exit', (code) => { clearTimeout(timer); reject(new Error(`the service exited (${code}):\n${out}`)); });
  });
}

interface Change { action: string; type: string; databaseId: number; id: string; node: { databaseId: number; id: string; status?: string; title?: { rendered: string } } | null }

/** A contentChanged subscription over SSE; `events` fills as they arrive. */
function subscribe(headers: Record<string, string> = {}) {
  const events: Change[] = [];
  const errors: unknown[] = [];
  const controller = new AbortController();
  const query = `subscription { contentChanged { action type databaseId id node {
    ... on Post { databaseId id status title { rendered } } ... on Page { databaseId id status } ... on MediaItem { databaseId id status } } } }`;
  const done = (async () => {
    const res = await fetch(`${base}/graphql`, {
      method: 'POST', signal: controller.signal,
      headers: { 'content-type': 'application/json', accept: 'text/event-stream', ...headers },
      body: JSON.stringify({ query }),
    });
    if (res.status !== 200 || !res.headers.get('content-type')?.startsWith('text/event-stream')) throw new Error(`subscribe: ${res.status} ${await res.text()}`);
    const reader = res.body!.pipeThrough(new TextDecoderStream()).getReader();
    let buffer = '';
    for (;;) {
      const { value, done: end } = await reader.read();
      if (end) return;
      buffer += value;
      let cut: number;
      while ((cut = buffer.indexOf('\n\n')) >= 0) {
        const block = buffer.slice(0, cut);
        buffer = buffer.slice(cut + 2);
        const data = block.split('\n').filter((l) => l.startsWith('data:')).map((l) => l.slice(5).trim()).join('\n');
        if (!block.split('\n').includes('event: next') || !data) continue;
        const payload = JSON.parse(data);
        if (payload.errors) errors.push(payload.errors);
        if (payload.data?.contentChanged) events.push(payload.data.contentChanged);
      }
    }
  })().catch((err) => { if (!controller.signal.aborted) errors.push(err); });
  return { events, errors, close: () => { controller.abort(); return done; } };
}

/**
 * Waits for an event matching `match`, running `write` now and again while none has come (the
 * subscription may not be listening yet when the first write commits). Generous, never timed.
 */
async function waitFor(sub: { events: Change[]; errors: unknown[] }, match: (e: Change) => boolean, write?: () => Promise<unknown>): Promise<Change> {
  const deadline = Date.now() + 60_000;
  let nextWrite = 0;
  for (;;) {
    const hit = sub.events.find(match);
    if (hit) return hit;
    if (sub.errors.length) throw new Error(`subscription failed: ${JSON.stringify(sub.errors)}`);
    if (Date.now() > deadline) throw new Error(`no matching event; heard: ${JSON.stringify(sub.events)}`);
    if (write && Date.now() >= nextWrite) { await write(); nextWrite = Date.now() + 1000; }
    await new Promise((r) => setTimeout(r, 50));
  }
}

/** A REST request to the service on a connection of its own (so either worker may answer). */
async function rest(method: string, path: string, json?: unknown) {
  const res = await fetch(`${base}/wp-json${path}`, {
    method,
    headers: { authorization: site.users.administrator.auth, connection: 'close', ...(json ? { 'content-type': 'application/json' } : {}) },
    body: json ? JSON.stringify(json) : undefined,
  });
  return { status: res.status, body: await res.json() as any };
}

beforeAll(async () => {
  site = await createTestSite();
  await startService(site.app.config.databaseUrl);
}, 120_000);

afterAll(async () => {
  if (child?.pid && child.exitCode === null) {
    const exited = new Promise((r) => child!.once('exit', r));
    try { process.kill(-child.pid, 'SIGTERM'); } catch { /* gone */ }
    await exited;
  }
  await site?.close();
});

describe('contentChanged across processes', () => {
  it('an anonymous subscriber hears a post published by another process, with the post', async () => {
    const sub = subscribe();
    try {
      const written: number[] = [];
      const hit = await waitFor(sub, (e) => written.includes(e.databaseId), async () => {
        written.push((await site.createPost({ title: `Elsewhere ${written.length}`, status: 'publish' })).id);
      });
      expect(hit).toMatchObject({ action: 'CREATED', type: 'Post', node: { databaseId: hit.databaseId, id: hit.id, status: 'PUBLISH' } });
      expect(hit.node!.title!.rendered).toMatch(/^Elsewhere \d+$/);
    } finally { await sub.close(); }
  }, 90_000);

  it('hears updates, trashing and deletion made through the service\'s workers, never a draft it may not read', async () => {
    const sub = subscribe();
    try {
      // Listening: a public post written from this process comes through.
      const probes: number[] = [];
      await waitFor(sub, (e) => probes.includes(e.databaseId), async () => { probes.push((await site.createPost({ title: 'Probe', status: 'publish' })).id); });

      const draft = await rest('POST', '/core/v2/posts', { title: 'Secret draft', content: 'private words', status: 'draft' });
      expect(draft.status).toBe(201);
      const created = await rest('POST', '/core/v2/posts', { title: 'Public', status: 'publish' });
      expect(created.status).toBe(201);
      const id = created.body.id as number;
      await waitFor(sub, (e) => e.databaseId === id && e.action === 'CREATED');

      expect((await rest('POST', `/core/v2/posts/${id}`, { title: 'Public, edited' })).status).toBe(200);
      const updated = await waitFor(sub, (e) => e.databaseId === id && e.action === 'UPDATED');
      expect(updated.node!.title!.rendered).toBe('Public, edited');

      expect((await rest('DELETE', `/core/v2/posts/${id}`)).status).toBe(200);
      // Trashed: announced (the post was public), but the trashed post itself is not readable anonymously.
      expect(await waitFor(sub, (e) => e.databaseId === id && e.action === 'TRASHED')).toMatchObject({ type: 'Post', node: null });

      // Deleting it from the trash is not heard (a trashed post is not the public's); deleting a public post is.
      expect((await rest('DELETE', `/core/v2/posts/${id}?force=true`)).status).toBe(200);
      const other = await rest('POST', '/core/v2/posts', { title: 'Short-lived', status: 'publish' });
      expect((await rest('DELETE', `/core/v2/posts/${other.body.id}?force=true`)).status).toBe(200);
      expect(await waitFor(sub, (e) => e.databaseId === other.body.id && e.action === 'DELETED')).toMatchObject({ type: 'Post', node: null });

      // Events come in commit order: the draft and the trashed post's deletion came before and were not heard.
      expect(sub.events.filter((e) => e.databaseId === id).map((e) => e.action)).toEqual(['CREATED', 'UPDATED', 'TRASHED']);
      expect(sub.events.map((e) => e.databaseId)).not.toContain(draft.body.id);
      expect(JSON.stringify(sub.events)).not.toContain('Secret draft');
    } finally { await sub.close(); }
  }, 90_000);

  it('an editor subscriber hears the draft, with its content', async () => {
    const sub = subscribe({ authorization: site.users.editor.auth });
    try {
      const drafts: number[] = [];
      const hit = await waitFor(sub, (e) => drafts.includes(e.databaseId), async () => {
        drafts.push((await site.createPost({ title: 'Editor-only draft', status: 'draft' })).id);
      });
      expect(hit).toMatchObject({ action: 'CREATED', type: 'Post', node: { status: 'DRAFT', title: { rendered: 'Editor-only draft' } } });
    } finally { await sub.close(); }
  }, 90_000);

  it('hears pages and media items too', async () => {
    const sub = subscribe();
    try {
      const pages: number[] = [];
      expect(await waitFor(sub, (e) => pages.includes(e.databaseId), async () => {
        pages.push((await site.createPage({ title: 'A page', status: 'publish' })).id);
      })).toMatchObject({ action: 'CREATED', type: 'Page', node: { status: 'PUBLISH' } });
      const upload = await site.req('POST', '/core/v2/media', {
        as: 'administrator', body: 'plain text file', headers: { 'content-type': 'text/plain', 'content-disposition': 'attachment; filename="notes.txt"' },
      });
      expect(upload.status).toBe(201);
      expect(await waitFor(sub, (e) => e.databaseId === upload.body.id)).toMatchObject({ action: 'CREATED', type: 'MediaItem', node: { databaseId: upload.body.id } });
    } finally { await sub.close(); }
  }, 90_000);
});
