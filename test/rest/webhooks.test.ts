// webhooks/v1 and the GraphQL webhook fields: administrators' CRUD with its refusals, deliveries
// signed per Standard Webhooks (verified by the standardwebhooks library in a loopback receiver),
// retries on a moved clock, the delivery log, redelivery, and two dispatchers over one database.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createTestSite, provider, service, type TestSite } from '../helpers/app.js';
import { configureEventLog, recordContentEvent, type ContentEvent } from '../../src/content/events.js';
import { startReceiver, type Receiver } from '../helpers/webhook-receiver.js';

let site: TestSite;
let rx: Receiver;
/** The dispatcher's clock: moved by the tests, never waited on. */
let now = Date.now();

/** The media test's file goes to a directory of its own, removed afterwards. */
let uploads = '';

beforeAll(async () => {
  rx = await startReceiver();
  uploads = mkdtempSync(join(tmpdir(), 'webhooks-uploads-'));
  site = await createTestSite({ webhookAllowHosts: [rx.host], uploadsDir: uploads });
  site.app.webhooks.clock.now = () => now;
});
afterAll(async () => { await site?.close(); await rx?.close(); if (uploads) rmSync(uploads, { recursive: true, force: true }); });

/** Makes a webhook as the administrator; the receiver verifies with its secret. */
async function hook(events: string[], extra: Record<string, unknown> = {}): Promise<any> {
  const res = await site.req('POST', '/webhooks/v1/webhooks', { as: 'administrator', json: { url: rx.url, events, ...extra } });
  expect(res.status, res.text).toBe(201);
  rx.secret = res.body.secret;
  return res.body;
}
const drop = (id: number) => site.req('DELETE', `/webhooks/v1/webhooks/${id}`, { as: 'administrator' });

describe('webhooks/v1 management', () => {
  it('refuses everyone but administrators, as the other admin routes', async () => {
    for (const [method, path] of [['GET', '/webhooks/v1/webhooks'], ['POST', '/webhooks/v1/webhooks'], ['GET', '/webhooks/v1/webhooks/1'], ['DELETE', '/webhooks/v1/webhooks/1'], ['POST', '/webhooks/v1/deliveries/1/redeliver']]) {
      const body = method === 'POST' && path.endsWith('webhooks') ? { json: { url: 'https://example.com/h', events: ['*'] } } : {};
      const anon = await site.req(method, path, body);
      expect([anon.status, anon.body.code], `${method} ${path}`).toEqual([401, 'rest_forbidden']);
      for (const role of ['author', 'editor'] as const) {
        const res = await site.req(method, path, { as: role, ...body });
        expect([res.status, res.body.code], `${method} ${path} as ${role}`).toEqual([403, 'rest_forbidden']);
      }
    }
    expect((await site.req('GET', '/webhooks/v1/webhooks', { as: 'administrator' })).body).toEqual([]);
  });

  it('refuses bad input with 400 and writes nothing', async () => {
    const bad: [Record<string, unknown>, string, string][] = [
      [{ url: 'ftp://example.com/h', events: ['*'] }, 'rest_invalid_param', 'url'],
      [{ url: 'not a url', events: ['*'] }, 'rest_invalid_param', 'url'],
      [{ url: 'https://user:pw@example.com/h', events: ['*'] }, 'rest_invalid_param', 'url'],
      [{ url: 'https://example.com/h', events: ['nothing.created'] }, 'rest_invalid_param', 'events'],
      [{ url: 'https://example.com/h', events: ['post'] }, 'rest_invalid_param', 'events'],
      [{ url: 'https://example.com/h', events: [] }, 'rest_invalid_param', 'events'],
      [{ url: 'https://example.com/h', events: ['*'], secret: 'short' }, 'rest_invalid_param', 'secret'],
      [{ events: ['*'] }, 'rest_missing_callback_param', 'url'],
      [{ url: 'https://example.com/h', events: [42] }, 'rest_invalid_param', 'events'],
    ];
    for (const [json, code, param] of bad) {
      const res = await site.req('POST', '/webhooks/v1/webhooks', { as: 'administrator', json });
      expect([res.status, res.body.code], JSON.stringify(json)).toEqual([400, code]);
      const params = res.body.data.params;
      expect(Array.isArray(params) ? params : Object.keys(params ?? {}), JSON.stringify(json)).toContain(param);
    }
    expect(await site.db.prisma.webhook.count()).toBe(0);
  });

  it('creates, reads, changes and deletes a webhook; the secret only on create and with context=edit', async () => {
    const made = await hook(['post.published', 'comment.created'], { name: 'Build' });
    expect(made).toMatchObject({ name: 'Build', url: rx.url, events: ['post.published', 'comment.created'], active: true });
    expect(made.secret).toMatch(/^whsec_[A-Za-z0-9+/]+=*$/);
    const view = await site.req('GET', `/webhooks/v1/webhooks/${made.id}`, { as: 'administrator' });
    expect(view.status).toBe(200);
    expect(view.body).not.toHaveProperty('secret');
    const edit = await site.req('GET', `/webhooks/v1/webhooks/${made.id}?context=edit`, { as: 'administrator' });
    expect(edit.body.secret).toBe(made.secret);
    const given = `whsec_${Buffer.alloc(32, 7).toString('base64')}`;
    const put = await site.req('PUT', `/webhooks/v1/webhooks/${made.id}`, { as: 'administrator', json: { name: 'Deploy', secret: given, active: false } });
    expect([put.status, put.body.name, put.body.secret, put.body.active]).toEqual([200, 'Deploy', given, false]);
    const patch = await site.req('PATCH', `/webhooks/v1/webhooks/${made.id}`, { as: 'administrator', json: { events: ['page.*'] } });
    expect([patch.status, patch.body.events, patch.body.name]).toEqual([200, ['page.*'], 'Deploy']);
    const badPatch = await site.req('PATCH', `/webhooks/v1/webhooks/${made.id}`, { as: 'administrator', json: { url: 'javascript:alert(1)' } });
    expect([badPatch.status, badPatch.body.code]).toEqual([400, 'rest_invalid_param']);
    expect((await site.db.prisma.webhook.findUnique({ where: { id: made.id } }))?.url).toBe(rx.url);
    const gone = await drop(made.id);
    expect([gone.status, gone.body.deleted, gone.body.previous.id]).toEqual([200, true, made.id]);
    for (const [method, path] of [['GET', `/webhooks/v1/webhooks/${made.id}`], ['PUT', `/webhooks/v1/webhooks/${made.id}`], ['DELETE', `/webhooks/v1/webhooks/${made.id}`], ['GET', `/webhooks/v1/webhooks/${made.id}/deliveries`]]) {
      const res = await site.req(method, path, { as: 'administrator', json: method === 'PUT' ? { name: 'x' } : undefined });
      expect([res.status, res.body.code], `${method} ${path}`).toEqual([404, 'rest_webhook_invalid_id']);
    }
    const noDelivery = await site.req('POST', '/webhooks/v1/deliveries/999999/redeliver', { as: 'administrator' });
    expect([noDelivery.status, noDelivery.body.code]).toEqual([404, 'rest_webhook_delivery_invalid_id']);
  });

  it('lists webhooks page by page in a constant number of SQL statements', async () => {
    const ids: number[] = [];
    for (let i = 0; i < 4; i++) ids.push((await hook(['post.created'], { name: `List ${i}`, active: false })).id);
    const count = async (perPage: number) => {
      const before = site.db.statements;
      const res = await site.req('GET', `/webhooks/v1/webhooks?per_page=${perPage}`, { as: 'administrator' });
      expect(res.status).toBe(200);
      expect(res.headers.get('x-wp-total')).toBe('4');
      expect(res.body).toHaveLength(perPage);
      return site.db.statements - before;
    };
    const one = await count(1);
    expect(await count(4)).toBe(one);
    const page2 = await site.req('GET', '/webhooks/v1/webhooks?per_page=3&page=2', { as: 'administrator' });
    expect([page2.body.map((h: any) => h.id), page2.headers.get('x-wp-totalpages')]).toEqual([[ids[3]], '2']);
    for (const id of ids) await drop(id);
  });
});

describe('ping', () => {
  it('sends a signed webhook.ping now and answers how it went; a private address is refused at send time', async () => {
    const h = await hook(['post.created']);
    rx.received.length = 0;
    rx.answer = () => 200;
    const res = await site.req('POST', `/webhooks/v1/webhooks/${h.id}/ping`, { as: 'administrator' });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ delivered: true, status: 200, error: '' });
    expect(rx.received).toHaveLength(1);
    expect(rx.received[0]).toMatchObject({ id: res.body.message_id, verified: true });
    expect(rx.received[0].body).toMatchObject({ type: 'webhook.ping', data: { webhook: h.id } });
    // Not in the allow-list: the guarded client refuses the address, nothing is sent.
    const hidden = await site.req('POST', '/webhooks/v1/webhooks', { as: 'administrator', json: { url: 'http://10.255.255.1/hook', events: ['*'], active: false } });
    const refused = await site.req('POST', `/webhooks/v1/webhooks/${hidden.body.id}/ping`, { as: 'administrator' });
    expect(refused.status).toBe(200);
    expect(refused.body).toMatchObject({ delivered: false, status: null });
    expect(refused.body.error).toMatch(/^blocked_address/);
    const author = await site.req('POST', `/webhooks/v1/webhooks/${h.id}/ping`, { as: 'author' });
    expect([author.status, author.body.code]).toEqual([403, 'rest_forbidden']);
    const missing = await site.req('POST', '/webhooks/v1/webhooks/999999/ping', { as: 'administrator' });
    expect([missing.status, missing.body.code]).toEqual([404, 'rest_webhook_invalid_id']);
    expect(rx.received).toHaveLength(1);
    await drop(h.id);
    await drop(hidden.body.id);
  });
});

describe('deliveries', () => {
  it('sends every event of a burst once, signed, under the names subscribed to', async () => {
    const h = await hook(['post.*', 'page.published', 'category.*', 'tag.created', 'media.created']);
    rx.received.length = 0;
    const posts = await Promise.all(Array.from({ length: 8 }, (_, i) => site.createPost({ title: `Burst ${i}`, status: i % 2 ? 'publish' : 'draft' })));
    const page = await site.createPage({ title: 'A page', status: 'publish' });
    await site.createPage({ title: 'A draft page', status: 'draft' }); // page.created: not subscribed
    const cat = await site.createTerm('categories', { name: 'Webhook category' });
    await site.createTerm('tags', { name: 'Webhook tag' });
    const updated = await site.req('POST', `/core/v2/posts/${posts[0].id}`, { as: 'administrator', json: { status: 'publish' } });
    expect(updated.status).toBe(200);
    const trashed = await site.req('DELETE', `/core/v2/posts/${posts[2].id}`, { as: 'administrator' });
    expect(trashed.status).toBe(200);
    await site.req('DELETE', `/core/v2/categories/${cat.id}?force=true`, { as: 'administrator' });
    const png = Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAQAAAACCAIAAADwyuo0AAAACXBIWXMAAAPoAAAD6AG1e1JrAAAAEklEQVQImWP4z8AARwjWfwYGAG+qB/l/O6VpAAAAAElFTkSuQmCC', 'base64');
    const media = await site.req('POST', '/core/v2/media', { as: 'administrator', body: png, headers: { 'content-type': 'image/png', 'content-disposition': 'attachment; filename="hooked.png"' } });
    expect(media.status).toBe(201);
    const expected = 8 + 1 + 1 + 1 + 1 + 1 + 1 + 1; // posts, the page, category created and deleted, the tag, post 0 published, post 2 trashed, the image
    await site.app.webhooks.drain();
    await rx.until((r) => r.length >= expected);
    const got = [...rx.unique().values()];
    expect(got).toHaveLength(expected);
    expect(rx.received.every((r) => r.verified)).toBe(true);
    const names = (type: string) => got.filter((r) => r.body.type === type).map((r) => r.body.data.id).sort((a, b) => a - b);
    expect(names('post.published')).toEqual([posts[0].id, ...posts.filter((_, i) => i % 2).map((p) => p.id)].sort((a, b) => a - b));
    expect(names('post.created')).toEqual(posts.filter((_, i) => !(i % 2)).map((p) => p.id).sort((a, b) => a - b));
    expect(names('post.trashed')).toEqual([posts[2].id]);
    expect(names('page.published')).toEqual([page.id]);
    expect(names('category.created')).toEqual([cat.id]);
    expect(names('category.deleted')).toEqual([cat.id]);
    expect(got.filter((r) => r.body.type === 'tag.created')).toHaveLength(1);
    expect(names('media.created')).toEqual([media.body.id]);
    expect(got.find((r) => r.body.type === 'media.created')!.body.data.rest_url).toMatch(new RegExp(`/wp-json/core/v2/media/${media.body.id}$`));
    const pub = got.find((r) => r.body.type === 'post.published' && r.body.data.id === posts[0].id)!;
    expect(pub.body.data).toMatchObject({ object: 'content', type: 'post', action: 'updated', status: 'publish', previous_status: 'draft' });
    expect(pub.body.data.rest_url).toMatch(new RegExp(`/wp-json/core/v2/posts/${posts[0].id}$`));
    expect(pub.body.data.link).toBe(updated.body.link);
    expect(got.find((r) => r.body.type === 'page.published')!.body.data.link).toBe(page.link);
    // A trashed post's link is its plain one; no private text travels.
    expect(got.find((r) => r.body.type === 'post.trashed')!.body.data).not.toHaveProperty('content');
    expect(Number.isNaN(Date.parse(pub.body.timestamp))).toBe(false);
    const term = got.find((r) => r.body.type === 'category.created')!;
    expect(term.body.data).toMatchObject({ object: 'term', type: 'category', name: 'Webhook category', slug: 'webhook-category' });
    // Nothing more is owed: a second drain sends nothing again.
    await site.app.webhooks.drain();
    expect(rx.received).toHaveLength(expected);
    const log = await site.req('GET', `/webhooks/v1/webhooks/${h.id}/deliveries?per_page=100&status=delivered`, { as: 'administrator' });
    expect([log.status, log.body.length, log.headers.get('x-wp-total')]).toEqual([200, expected, String(expected)]);
    expect(log.body[0]).toMatchObject({ webhook: h.id, status: 'delivered', attempts: 1, last_status: 200, last_error: '', next_attempt: null });
    expect(new Set(log.body.map((d: any) => d.message_id))).toEqual(new Set(got.map((r) => r.id)));
    await drop(h.id);
  });

  it('retries on a moved clock until a 2xx, then fails when the retries are used up; redelivery sends it again', async () => {
    const h = await hook(['post.created']);
    rx.received.length = 0;
    rx.answer = (n) => (n === 0 ? 500 : 200);
    const post = await site.createPost({ title: 'Retried' });
    await site.app.webhooks.drain();
    expect(rx.received.map((r) => r.answered)).toEqual([500]);
    let [d] = (await site.req('GET', `/webhooks/v1/webhooks/${h.id}/deliveries`, { as: 'administrator' })).body;
    expect(d).toMatchObject({ status: 'pending', attempts: 1, last_status: 500, last_error: 'try again' });
    expect(Date.parse(d.next_attempt) - now).toBeGreaterThan(8_000);
    // Not due yet: nothing is sent.
    await site.app.webhooks.drain();
    expect(rx.received).toHaveLength(1);
    now += 11_000;
    await site.app.webhooks.drain();
    expect(rx.received.map((r) => r.answered)).toEqual([500, 200]);
    expect(rx.received[0].id).toBe(rx.received[1].id);
    expect(rx.received[1].body.data.id).toBe(post.id);
    [d] = (await site.req('GET', `/webhooks/v1/webhooks/${h.id}/deliveries`, { as: 'administrator' })).body;
    expect(d).toMatchObject({ status: 'delivered', attempts: 2, last_status: 200, last_error: '' });

    // A receiver that keeps failing: six attempts (the first and five retries), then failed.
    rx.received.length = 0;
    rx.answer = () => 503;
    await site.createPost({ title: 'Failing' });
    await site.app.webhooks.drain();
    for (let i = 0; i < 6; i++) { now += 3 * 3_600_000; await site.app.webhooks.drain(); }
    expect(rx.received).toHaveLength(6);
    const failed = (await site.req('GET', `/webhooks/v1/webhooks/${h.id}/deliveries?status=failed`, { as: 'administrator' })).body;
    expect(failed).toHaveLength(1);
    expect(failed[0]).toMatchObject({ status: 'failed', attempts: 6, last_status: 503 });
    rx.answer = () => 200;
    const again = await site.req('POST', `/webhooks/v1/deliveries/${failed[0].id}/redeliver`, { as: 'administrator' });
    expect([again.status, again.body.status, again.body.attempts]).toEqual([200, 'pending', 0]);
    await site.app.webhooks.drain();
    expect(rx.received.at(-1)).toMatchObject({ id: failed[0].message_id, answered: 200, verified: true });
    expect((await site.req('GET', `/webhooks/v1/webhooks/${h.id}/deliveries?status=failed`, { as: 'administrator' })).body).toEqual([]);
    await drop(h.id);
  });

  it('removes delivered and failed deliveries from the log after 30 days', async () => {
    const h = await hook(['page.deleted']);
    const day = 86_400_000;
    const row = (eventId: number, status: string, age: number) => ({ webhookId: h.id, eventId, messageId: `msg_old_${eventId}`, event: 'page.deleted', payload: '{}', status, created: new Date(now - age) });
    await site.db.prisma.webhookDelivery.createMany({ data: [row(-1, 'delivered', 31 * day), row(-2, 'failed', 31 * day), row(-3, 'delivered', 29 * day)] });
    now += 2 * 3_600_000; // the log is pruned once an hour
    await site.app.webhooks.drain();
    expect((await site.db.prisma.webhookDelivery.findMany({ where: { webhookId: h.id }, select: { eventId: true } })).map((d) => d.eventId)).toEqual([-3]);
    await drop(h.id);
  });

  it('lets two dispatchers over one database send each event once', async () => {
    const db2 = await service.openDb(site.app.config.databaseUrl);
    const app2 = service.createApp({ ...site.app.config }, db2);
    app2.webhooks.clock.now = () => now;
    try {
      const h = await hook(['post.created']);
      rx.received.length = 0;
      const posts = await Promise.all(Array.from({ length: 12 }, (_, i) => site.createPost({ title: `Twice ${i}` })));
      await Promise.all([site.app.webhooks.drain(), app2.webhooks.drain(), site.app.webhooks.drain(), app2.webhooks.drain()]);
      await rx.until((r) => r.length >= posts.length);
      await Promise.all([site.app.webhooks.drain(), app2.webhooks.drain()]);
      expect(rx.received).toHaveLength(posts.length);
      expect(rx.unique().size).toBe(posts.length);
      expect(new Set(rx.received.map((r) => r.body.data.id))).toEqual(new Set(posts.map((p) => p.id)));
      expect(await site.db.prisma.webhookDelivery.count({ where: { webhookId: h.id } })).toBe(posts.length);
      await drop(h.id);
    } finally {
      await app2.close();
      await db2.close();
    }
  });
});

describe('GraphQL', () => {
  it('serves the same webhooks to administrators and refuses others', async () => {
    const create = `mutation($input: WebhookInput!) { createWebhook(input: $input) { databaseId url events secret active } }`;
    const anon = await site.gql(create, { input: { url: rx.url, events: ['*'] } });
    expect(anon.errors?.[0].extensions).toMatchObject({ code: 'rest_forbidden', status: 401 });
    const author = await site.gql(create, { input: { url: rx.url, events: ['*'] } }, { as: 'author' });
    expect(author.errors?.[0].extensions).toMatchObject({ code: 'rest_forbidden', status: 403 });
    const bad = await site.gql(create, { input: { url: 'gopher://x', events: ['*'] } }, { as: 'administrator' });
    expect(bad.errors?.[0].extensions).toMatchObject({ code: 'rest_invalid_param', status: 400 });
    const made = await site.gql(create, { input: { url: rx.url, events: ['post.created'] } }, { as: 'administrator' });
    expect(made.errors).toBeUndefined();
    const id = made.data.createWebhook.databaseId;
    rx.secret = made.data.createWebhook.secret;
    const upd = await site.gql(`mutation($id: Int!) { updateWebhook(id: $id, input: { name: "From GraphQL" }) { name } }`, { id }, { as: 'administrator' });
    expect(upd.data.updateWebhook.name).toBe('From GraphQL');
    rx.received.length = 0;
    rx.answer = (n) => (n === 0 ? 500 : 200);
    await site.createPost({ title: 'Over GraphQL' });
    await site.app.webhooks.drain();
    const list = await site.gql(`{ webhooks { total nodes { databaseId name deliveries { total nodes { databaseId status attempts lastStatus event } } } } }`, {}, { as: 'administrator' });
    const mine = list.data.webhooks.nodes.find((n: any) => n.databaseId === id);
    expect(mine.deliveries.nodes[0]).toMatchObject({ status: 'PENDING', attempts: 1, lastStatus: 500, event: 'post.created' });
    const re = await site.gql(`mutation($id: Int!) { redeliverWebhookDelivery(id: $id) { status attempts } }`, { id: mine.deliveries.nodes[0].databaseId }, { as: 'administrator' });
    expect(re.data.redeliverWebhookDelivery).toEqual({ status: 'PENDING', attempts: 0 });
    await site.app.webhooks.drain();
    expect(rx.received.map((r) => r.answered)).toEqual([500, 200]);
    const one = await site.gql(`query($id: Int!) { webhook(id: $id) { deliveries(status: DELIVERED) { total } } }`, { id }, { as: 'administrator' });
    expect(one.data.webhook.deliveries.total).toBe(1);
    const del = await site.gql(`mutation($id: Int!) { deleteWebhook(id: $id) { databaseId } }`, { id }, { as: 'administrator' });
    expect(del.data.deleteWebhook.databaseId).toBe(id);
    const missing = await site.gql(`query($id: Int!) { webhook(id: $id) { name } }`, { id }, { as: 'administrator' });
    expect(missing.errors?.[0].extensions).toMatchObject({ code: 'rest_webhook_invalid_id', status: 404 });
  });
});

describe('the event log', () => {
  /** `n` events (post updates) written in one transaction, after a write through Prisma as every writer does. */
  const record = (n: number) => site.db.prisma.$transaction(async (tx) => {
    const t = await tx.term.create({ data: { taxonomy: 'post_tag', name: `Log ${Math.random()}`, slug: `log-${Date.now()}-${Math.random().toString(36).slice(2)}` } });
    for (let i = 0; i < n; i++) {
      const e: ContentEvent = { action: 'updated', type: 'post', id: t.id, status: 'draft', previousStatus: 'draft', authorId: 1, parentId: null };
      await recordContentEvent(tx, site.db, e);
    }
  }, { timeout: 60_000 });

  it('prunes rows older than the window, never one an active webhook has not fanned out', async () => {
    // The writers' clock, moved by the test: a window of one hour.
    let clock = Date.now();
    configureEventLog(site.db, { hours: 1, now: () => clock });
    // The webhook's cursor stays where it was made: no background pass fans out (the test after this one drains by hand).
    await site.app.webhooks.stop();
    try {
      const h = await hook(['page.deleted']);
      const start = (await site.db.prisma.webhook.findUniqueOrThrow({ where: { id: h.id } })).cursor;
      await record(250);
      const old = (await site.db.prisma.contentEvent.aggregate({ _max: { id: true } }))._max.id!;
      // Two hours on: every row so far is past the window, but the webhook still needs those after its cursor.
      clock += 2 * 3_600_000;
      await record(100);
      expect(await site.db.prisma.contentEvent.count({ where: { id: { gt: start, lte: old } } })).toBe(old - start);
      // Rows it has fanned out (at or below its cursor) are not held back.
      expect(await site.db.prisma.contentEvent.count({ where: { id: { lte: start } } })).toBe(0);
      // Switched off, it holds nothing back: the next prune takes every row older than an hour, and only those.
      await site.req('PATCH', `/webhooks/v1/webhooks/${h.id}`, { as: 'administrator', json: { active: false } });
      await record(100);
      const cutoff = new Date(clock - 3_600_000);
      expect(await site.db.prisma.contentEvent.count({ where: { created: { lt: cutoff } } })).toBe(0);
      expect(await site.db.prisma.contentEvent.count({ where: { id: { gt: old } } })).toBe(200);
      // Within the window nothing goes, however many rows: an hour less than the window later, all 200 are kept.
      clock += 30 * 60_000;
      await record(100);
      expect(await site.db.prisma.contentEvent.count({ where: { id: { gt: old } } })).toBe(300);
      await drop(h.id);
    } finally { configureEventLog(site.db, { hours: 24, now: () => Date.now() }); }
  });

  it.skipIf(provider !== 'postgres')('fans out past an id still being written, and moves the cursor past it only once it commits', async () => {
    now = Date.now();
    const h = await hook(['post.created', 'tag.created']);
    rx.received.length = 0;
    let release!: () => void;
    const gate = new Promise<void>((r) => { release = r; });
    let entered!: () => void;
    const inside = new Promise<void>((r) => { entered = r; });
    // A write that has taken its log id and not committed yet.
    const slow = site.db.prisma.$transaction(async (tx) => {
      const t = await tx.term.create({ data: { taxonomy: 'post_tag', name: 'Slow tag', slug: 'slow-tag' } });
      await recordContentEvent(tx, site.db, { kind: 'term', action: 'created', type: 'post_tag', id: t.id, status: '', previousStatus: '', authorId: 0, parentId: 0 });
      entered();
      await gate;
    });
    await inside;
    const post = await site.createPost({ title: 'After the gap' });
    await site.app.webhooks.drain();
    await rx.until((r) => r.some((x) => x.body.data.id === post.id));
    const postEvent = rx.received.find((x) => x.body.data.id === post.id)!.body.data.event_id as number;
    expect((await site.db.prisma.webhook.findUniqueOrThrow({ where: { id: h.id } })).cursor).toBeLessThan(postEvent);
    release();
    await slow;
    await site.app.webhooks.drain();
    await rx.until((r) => r.some((x) => x.body.type === 'tag.created'));
    expect((await site.db.prisma.webhook.findUniqueOrThrow({ where: { id: h.id } })).cursor).toBe(postEvent);
    expect(rx.unique().size).toBe(2);
    expect(rx.received).toHaveLength(2);
    await drop(h.id);
  });

  it.skipIf(provider !== 'postgres')('passes an id rolled back once its writer is gone, and fans out what is behind it, past one batch', async () => {
    now = Date.now();
    const h = await hook(['post.updated']);
    rx.received.length = 0;
    // A write that took a log id and rolled back: the id never commits.
    await expect(site.db.prisma.$transaction(async (tx) => {
      await recordContentEvent(tx, site.db, { action: 'updated', type: 'post', id: 1, status: 'draft', previousStatus: 'draft', authorId: 1, parentId: null });
      throw new Error('rolled back');
    })).rejects.toThrow('rolled back');
    // Behind it more events than one fan-out reads (500), the webhook's own last: 600 page updates
    // it does not subscribe to, then 20 post updates (few deliveries to send, so the test stays quick).
    // (Written in two statements: 620 writes of one event each took 20 s on a loaded machine.)
    const posts = await site.db.prisma.$transaction(async (tx) => {
      const rows = (type: string, n: number) => tx.$executeRawUnsafe(
        `INSERT INTO "ContentEvent" ("action", "type", "contentId", "status", "previousStatus", "authorId") SELECT 'updated', $1, 1, 'draft', 'draft', 1 FROM generate_series(1, ${n})`, type,
      );
      await rows('page', 600);
      await rows('post', 20);
      return (await tx.contentEvent.findMany({ orderBy: { id: 'desc' }, take: 20, select: { id: true } })).map((r) => r.id);
    });
    const last = Math.max(...posts);
    await site.app.webhooks.drain();
    // The 20 past the first batch are fanned out at once; the cursor waits below the id first seen missing.
    expect((await site.db.prisma.webhookDelivery.findMany({ where: { webhookId: h.id }, select: { eventId: true } })).map((d) => d.eventId).sort((x, y) => x - y)).toEqual([...posts].sort((x, y) => x - y));
    expect((await site.db.prisma.webhook.findUniqueOrThrow({ where: { id: h.id } })).cursor).toBeLessThan(last);
    // A second later (the dispatcher's clock) its writer is known gone: the cursor passes it, to the end.
    now += 1_500;
    await site.app.webhooks.drain();
    expect((await site.db.prisma.webhook.findUniqueOrThrow({ where: { id: h.id } })).cursor).toBe(last);
    await rx.until(() => rx.unique().size >= 20);
    expect(rx.unique().size).toBe(20);
    expect(await site.db.prisma.webhookDelivery.count({ where: { webhookId: h.id } })).toBe(20);
    await drop(h.id);
  });
});
