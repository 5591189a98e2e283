// Webhooks over GraphQL: the same service as REST webhooks/v1 (src/webhooks/service.ts), for
// administrators only (manage_options; refused with rest_forbidden, 401 anonymous, 403 others).
import { builder } from '../builder.js';
import { globalIdOf } from '../node.js';
import {
  createWebhook, deleteWebhook, eventsOf, getWebhook, listDeliveries, listWebhooks, pingWebhook, redeliver, updateWebhook,
  type PingResult, type WebhookDeliveryRow, type WebhookInput, type WebhookRow,
} from '../../webhooks/service.js';

/** Times as ISO 8601 in UTC, to the second. */
const iso = (d: Date | null): string | null => (d ? `${d.toISOString().slice(0, 19)}Z` : null);

const WebhookDeliveryStatus = builder.enumType('WebhookDeliveryStatus', {
  description: 'Where a delivery stands.',
  values: {
    PENDING: { value: 'pending', description: 'Not delivered yet: due now or at `nextAttempt`.' },
    DELIVERED: { value: 'delivered', description: 'The receiver answered with a 2xx status.' },
    FAILED: { value: 'failed', description: 'Every attempt failed; `redeliverWebhookDelivery` sends it again.' },
  } as const,
});

const WebhookDeliveryRef = builder.objectRef<WebhookDeliveryRow>('WebhookDelivery').implement({
  description: 'One event sent (or to send) to one webhook, with its attempts.',
  fields: (t) => ({
    id: t.id({ description: 'The delivery\'s global id.', resolve: (d) => globalIdOf('WebhookDelivery', d.id) }),
    databaseId: t.int({ description: 'The delivery\'s id (its REST id).', resolve: (d) => d.id }),
    webhookId: t.int({ description: 'The webhook it goes to.', resolve: (d) => d.webhookId }),
    eventId: t.int({ description: 'The event log row it carries.', resolve: (d) => d.eventId }),
    messageId: t.string({ description: 'The `webhook-id` header: the same on every attempt and redelivery (receivers drop one they have seen).', resolve: (d) => d.messageId }),
    event: t.string({ description: 'The event name it is sent under, e.g. `post.published`.', resolve: (d) => d.event }),
    status: t.field({ type: WebhookDeliveryStatus, description: 'Pending, delivered or failed.', resolve: (d) => d.status as 'pending' | 'delivered' | 'failed' }),
    attempts: t.int({ description: 'Attempts made so far.', resolve: (d) => d.attempts }),
    nextAttempt: t.string({ nullable: true, description: 'When a pending delivery is tried next (ISO 8601, UTC); null otherwise.', resolve: (d) => (d.status === 'pending' ? iso(d.nextAttempt) : null) }),
    lastStatus: t.int({ nullable: true, description: 'The HTTP status of the last answer; null before the first attempt or when none came.', resolve: (d) => d.lastStatus }),
    lastError: t.string({ description: 'Why the last attempt failed (the start of the answer, or the network error); empty when it did not.', resolve: (d) => d.lastError }),
    created: t.string({ description: 'When the delivery was made (ISO 8601, UTC).', resolve: (d) => iso(d.created)! }),
    delivered: t.string({ nullable: true, description: 'When it was delivered (ISO 8601, UTC); null until then.', resolve: (d) => iso(d.delivered) }),
    payload: t.field({ type: 'JSON', description: 'The JSON body sent: `{type, timestamp, data}`.', resolve: (d) => JSON.parse(d.payload) as unknown }),
  }),
});

const WebhookDeliveryListRef = builder.objectRef<{ total: number; nodes: WebhookDeliveryRow[] }>('WebhookDeliveryList').implement({
  description: 'A page of a webhook\'s delivery log, newest first.',
  fields: (t) => ({
    total: t.int({ description: 'How many deliveries match, on every page.', resolve: (l) => l.total }),
    nodes: t.field({ type: [WebhookDeliveryRef], description: 'The deliveries of the page.', resolve: (l) => l.nodes }),
  }),
});

const WebhookRef = builder.objectRef<WebhookRow>('Webhook').implement({
  description: 'A URL called with each event it subscribes to, signed per Standard Webhooks (docs/webhooks.md).',
  fields: (t) => ({
    id: t.id({ description: 'The webhook\'s global id.', resolve: (w) => globalIdOf('Webhook', w.id) }),
    databaseId: t.int({ description: 'The webhook\'s id (its REST id).', resolve: (w) => w.id }),
    name: t.string({ description: 'A name for people.', resolve: (w) => w.name }),
    url: t.string({ description: 'Where deliveries are posted (http or https).', resolve: (w) => w.url }),
    events: t.stringList({ description: 'The event names it subscribes to: `post.published`, `page.*`, `category.created`, `*` …', resolve: (w) => eventsOf(w) }),
    secret: t.string({ description: 'The signing secret (`whsec_` and base64): receivers verify `webhook-signature` with it.', resolve: (w) => w.secret }),
    active: t.boolean({ description: 'Whether events are sent to it; one switched back on starts from the newest event.', resolve: (w) => w.active }),
    created: t.string({ description: 'When it was made (ISO 8601, UTC).', resolve: (w) => iso(w.created)! }),
    deliveries: t.field({
      type: WebhookDeliveryListRef,
      description: 'Its delivery log, newest first (kept 30 days).',
      args: {
        page: t.arg.int({ required: false, defaultValue: 1, description: 'The page, from 1.' }),
        perPage: t.arg.int({ required: false, defaultValue: 10, description: 'Deliveries per page (1 to 100).' }),
        status: t.arg({ type: WebhookDeliveryStatus, required: false, description: 'Only deliveries in this state.' }),
      },
      resolve: (w, a, ctx) => listDeliveries(ctx, w.id, a.page ?? 1, a.perPage ?? 10, a.status ?? null),
    }),
  }),
});

const WebhookListRef = builder.objectRef<{ total: number; nodes: WebhookRow[] }>('WebhookList').implement({
  description: 'A page of webhooks, oldest first.',
  fields: (t) => ({
    total: t.int({ description: 'How many webhooks there are.', resolve: (l) => l.total }),
    nodes: t.field({ type: [WebhookRef], description: 'The webhooks of the page.', resolve: (l) => l.nodes }),
  }),
});

const WebhookInputRef = builder.inputType('WebhookInput', {
  description: 'A webhook\'s settings; on update, those not given are kept.',
  fields: (t) => ({
    name: t.string({ required: false, description: 'A name for people (200 characters at most).' }),
    url: t.string({ required: false, description: 'Where deliveries are posted: an absolute http or https URL (required on create).' }),
    events: t.stringList({ required: false, description: 'Event names or patterns (`subject.action`, `subject.*`, `*`; required on create).' }),
    secret: t.string({ required: false, description: 'The signing secret (`whsec_` and 24 to 64 bytes in base64); generated when not given on create.' }),
    active: t.boolean({ required: false, description: 'Whether events are sent to it (default true).' }),
  }),
});

const WebhookPingResultRef = builder.objectRef<PingResult>('WebhookPingResult').implement({
  description: 'How a ping went (it is not logged nor retried).',
  fields: (t) => ({
    delivered: t.boolean({ description: 'Whether the receiver answered with a 2xx status.', resolve: (r) => r.delivered }),
    status: t.int({ nullable: true, description: 'The receiver\'s HTTP status; null when no answer came.', resolve: (r) => r.status }),
    error: t.string({ description: 'Why it failed (the start of the answer, or the network error); empty when it did not.', resolve: (r) => r.error }),
    messageId: t.string({ description: 'The `webhook-id` it was sent with.', resolve: (r) => r.messageId }),
  }),
});

builder.queryFields((t) => ({
  webhooks: t.field({
    type: WebhookListRef,
    description: 'The webhooks, oldest first, as GET webhooks/v1/webhooks (manage_options).',
    args: {
      page: t.arg.int({ required: false, defaultValue: 1, description: 'The page, from 1.' }),
      perPage: t.arg.int({ required: false, defaultValue: 10, description: 'Webhooks per page (1 to 100).' }),
    },
    resolve: (_r, a, ctx) => listWebhooks(ctx, a.page ?? 1, a.perPage ?? 10),
  }),
  webhook: t.field({
    type: WebhookRef,
    description: 'One webhook, as GET webhooks/v1/webhooks/<id> (manage_options; an unknown id is 404 rest_webhook_invalid_id).',
    args: { id: t.arg.int({ required: true, description: 'The webhook\'s id.' }) },
    resolve: (_r, a, ctx) => getWebhook(ctx, a.id),
  }),
}));

builder.mutationFields((t) => ({
  createWebhook: t.field({
    type: WebhookRef,
    description: 'Makes a webhook, as POST webhooks/v1/webhooks (manage_options; a bad URL, event or secret is 400 rest_invalid_param). It hears events from now on.',
    args: { input: t.arg({ type: WebhookInputRef, required: true, description: 'Its settings: url and events at least.' }) },
    resolve: (_r, a, ctx) => createWebhook(ctx, a.input as WebhookInput),
  }),
  updateWebhook: t.field({
    type: WebhookRef,
    description: 'Changes a webhook, as PUT webhooks/v1/webhooks/<id> (manage_options).',
    args: {
      id: t.arg.int({ required: true, description: 'The webhook\'s id.' }),
      input: t.arg({ type: WebhookInputRef, required: true, description: 'The settings to change.' }),
    },
    resolve: (_r, a, ctx) => updateWebhook(ctx, a.id, a.input as WebhookInput),
  }),
  deleteWebhook: t.field({
    type: WebhookRef,
    description: 'Deletes a webhook and its delivery log, as DELETE webhooks/v1/webhooks/<id> (manage_options); answers it as it was.',
    args: { id: t.arg.int({ required: true, description: 'The webhook\'s id.' }) },
    resolve: (_r, a, ctx) => deleteWebhook(ctx, a.id),
  }),
  pingWebhook: t.field({
    type: WebhookPingResultRef,
    description: 'Sends a signed `webhook.ping` to the webhook now and answers how it went, as POST webhooks/v1/webhooks/<id>/ping (manage_options).',
    args: { id: t.arg.int({ required: true, description: 'The webhook\'s id.' }) },
    resolve: (_r, a, ctx) => pingWebhook(ctx, a.id),
  }),
  redeliverWebhookDelivery: t.field({
    type: WebhookDeliveryRef,
    description: 'Sends a delivery again (same message id and body), as POST webhooks/v1/deliveries/<id>/redeliver (manage_options).',
    args: { id: t.arg.int({ required: true, description: 'The delivery\'s id.' }) },
    resolve: (_r, a, ctx) => redeliver(ctx, a.id),
  }),
}));
