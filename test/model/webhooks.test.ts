// Webhooks of the content model's own types and taxonomies (test/fixtures/content-model/events.json):
// `event.*` and `event_category.*` are subjects like `post` and `category`, and a webhook that names
// no known subject is refused.
import { afterAll, beforeAll, expect, it } from 'vitest';
import { createTestSite, type TestSite } from '../helpers/app.js';
import { startReceiver, type Receiver } from '../helpers/webhook-receiver.js';

let site: TestSite;
let rx: Receiver;

beforeAll(async () => {
  rx = await startReceiver();
  site = await createTestSite({ webhookAllowHosts: [rx.host] });
});
afterAll(async () => { await site?.close(); await rx?.close(); });

it('sends the changes of a model type and of a model taxonomy under their own names', async () => {
  const refused = await site.req('POST', '/webhooks/v1/webhooks', { as: 'administrator', json: { url: rx.url, events: ['concert.created'] } });
  expect([refused.status, refused.body.code]).toEqual([400, 'rest_invalid_param']);
  const made = await site.req('POST', '/webhooks/v1/webhooks', { as: 'administrator', json: { url: rx.url, events: ['event.*', 'event_category.created'] } });
  expect(made.status).toBe(201);
  rx.secret = made.body.secret;
  const draft = await site.req('POST', '/core/v2/events', { as: 'administrator', json: { title: 'Meetup', status: 'draft' } });
  expect(draft.status).toBe(201);
  const published = await site.req('POST', `/core/v2/events/${draft.body.id}`, { as: 'administrator', json: { status: 'publish' } });
  expect(published.status).toBe(200);
  const cat = await site.req('POST', '/core/v2/event-categories', { as: 'administrator', json: { name: 'Webhook talks' } });
  expect(cat.status).toBe(201);
  await site.createPost({ title: 'Not subscribed' });
  await site.app.webhooks.drain();
  await rx.until((r) => r.length >= 3);
  await site.app.webhooks.drain();
  expect(rx.received.map((r) => [r.body.type, r.body.data.id])).toEqual([
    ['event.created', draft.body.id], ['event.published', draft.body.id], ['event_category.created', cat.body.id],
  ]);
  expect(rx.received.every((r) => r.verified)).toBe(true);
  expect(rx.received[1].body.data.rest_url).toMatch(new RegExp(`/wp-json/core/v2/events/${draft.body.id}$`));
  expect(rx.received[2].body.data.rest_url).toMatch(new RegExp(`/wp-json/core/v2/event-categories/${cat.body.id}$`));
});
