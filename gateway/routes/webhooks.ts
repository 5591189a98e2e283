// webhooks/v1: the webhooks (src/webhooks/) for administrators (manage_options; 401 rest_forbidden
// anonymous, 403 others). Records are snake_case; the secret is shown on create and with
// context=edit. Each handler runs its GraphQL operation (gateway/operations/webhooks.graphql).
import type { ArgDef, Endpoint, GatewayRequest, RouteEntry, RouteResult } from '../types.js';

const NS = 'webhooks/v1';
const base = `/${NS}/webhooks`;
const item = `${base}/(?P<id>\\d+)`;

const CONTEXT = ['view', 'edit'];
const idArg: ArgDef = { description: 'Unique identifier for the webhook.', type: 'integer' };
const contextArg: ArgDef = { description: 'Scope under which the request is made; determines fields present in response.', type: 'string', enum: CONTEXT, default: 'view' };
const paging: Record<string, ArgDef> = {
  page: { description: 'Current page of the collection.', type: 'integer', default: 1, minimum: 1 },
  per_page: { description: 'Maximum number of items to be returned in result set.', type: 'integer', default: 10, minimum: 1, maximum: 100 },
};

const fields = (create: boolean): Record<string, ArgDef> => ({
  name: { description: 'A name for people.', type: 'string', maxLength: 200 },
  url: { description: 'Where deliveries are posted: an absolute http or https URL.', type: 'string', ...(create ? { required: true } : {}) },
  events: {
    description: 'The event names it subscribes to: `post.published`, `page.*`, `category.created`, `comment.created`, `*` …',
    type: 'array', items: { type: 'string' }, ...(create ? { required: true } : {}),
  },
  secret: { description: 'The signing secret: `whsec_` and 24 to 64 bytes in base64 (generated when not given).', type: 'string' },
  active: { description: 'Whether events are sent to it.', type: 'boolean' },
});

/** The item schema (OPTIONS, the OpenAPI document): the secret in the edit context only. */
const WEBHOOK_SCHEMA = {
  $schema: 'http://json-schema.org/draft-04/schema#',
  title: 'webhook',
  type: 'object',
  properties: {
    id: { description: 'Unique identifier for the webhook.', type: 'integer', context: CONTEXT, readonly: true },
    name: { description: 'A name for people.', type: 'string', context: CONTEXT },
    url: { description: 'Where deliveries are posted (http or https).', type: 'string', context: CONTEXT },
    events: { description: 'The event names it subscribes to.', type: 'array', items: { type: 'string' }, context: CONTEXT },
    secret: { description: 'The signing secret (`whsec_` and base64).', type: 'string', context: ['edit'] },
    active: { description: 'Whether events are sent to it.', type: 'boolean', context: CONTEXT },
    created: { description: 'When it was made (ISO 8601, UTC).', type: 'string', context: CONTEXT, readonly: true },
  },
};

type Hook = { id: number; name: string; url: string; events: string[]; secret: string; active: boolean; created: string };

function hookBody(req: GatewayRequest, h: Hook, context: string): Record<string, unknown> {
  const out: Record<string, unknown> = { id: h.id, name: h.name, url: h.url, events: h.events };
  if (context === 'edit') out.secret = h.secret;
  out.active = h.active;
  out.created = h.created;
  out._links = { self: [{ href: `${req.root}${NS}/webhooks/${h.id}` }], collection: [{ href: `${req.root}${NS}/webhooks` }] };
  return out;
}

type Delivery = {
  id: number; webhookId: number; eventId: number; messageId: string; event: string; status: string; attempts: number; nextAttempt: string | null;
  lastStatus: number | null; lastError: string; created: string; delivered: string | null; payload: unknown;
};

const deliveryBody = (d: Delivery): Record<string, unknown> => ({
  id: d.id, webhook: d.webhookId, event_id: d.eventId, message_id: d.messageId, event: d.event, status: d.status.toLowerCase(),
  attempts: d.attempts, next_attempt: d.nextAttempt, last_status: d.lastStatus, last_error: d.lastError,
  created: d.created, delivered: d.delivered, payload: d.payload,
});

/** The write body as the GraphQL input: only what was sent. */
function inputOf(p: Record<string, unknown>): Record<string, unknown> {
  const input: Record<string, unknown> = {};
  for (const k of ['name', 'url', 'events', 'secret', 'active']) if (p[k] !== undefined) input[k] = p[k];
  return input;
}

const paged = (nodes: unknown[], total: number, perPage: number): RouteResult => ({
  status: 200, body: nodes, headers: { 'X-WP-Total': total, 'X-WP-TotalPages': Math.ceil(total / perPage) },
});

const list: Endpoint = {
  methods: ['GET'], permission: 'manage_options', operation: 'WebhooksList', args: { context: contextArg, ...paging },
  async handler(req) {
    const perPage = Number(req.params.per_page);
    const data = await req.run(undefined, { page: Number(req.params.page), perPage });
    return paged(data.webhooks.nodes.map((h: Hook) => hookBody(req, h, String(req.params.context))), data.webhooks.total, perPage);
  },
};

const create: Endpoint = {
  methods: ['POST'], permission: 'manage_options', operation: 'WebhookCreate', args: fields(true),
  async handler(req) {
    const data = await req.run(undefined, { input: inputOf(req.params) });
    const h = data.createWebhook as Hook;
    return { status: 201, body: hookBody(req, h, 'edit'), headers: { Location: `${req.root}${NS}/webhooks/${h.id}` } };
  },
};

const get: Endpoint = {
  methods: ['GET'], permission: 'manage_options', operation: 'WebhookGet', args: { id: idArg, context: contextArg },
  async handler(req) {
    const data = await req.run(undefined, { id: Number(req.params.id) });
    return { status: 200, body: hookBody(req, data.webhook, String(req.params.context)) };
  },
};

const update: Endpoint = {
  methods: ['POST', 'PUT', 'PATCH'], permission: 'manage_options', operation: 'WebhookUpdate', args: { id: idArg, ...fields(false) },
  async handler(req) {
    const data = await req.run(undefined, { id: Number(req.params.id), input: inputOf(req.params) });
    return { status: 200, body: hookBody(req, data.updateWebhook, 'edit') };
  },
};

const remove: Endpoint = {
  methods: ['DELETE'], permission: 'manage_options', operation: 'WebhookDelete', args: { id: idArg },
  async handler(req) {
    const data = await req.run(undefined, { id: Number(req.params.id) });
    return { status: 200, body: { deleted: true, previous: hookBody(req, data.deleteWebhook, 'edit') } };
  },
};

const deliveries: Endpoint = {
  methods: ['GET'], permission: 'manage_options', operation: 'WebhookDeliveries',
  args: {
    id: idArg, ...paging,
    status: { description: 'Only deliveries in this state.', type: 'string', enum: ['pending', 'delivered', 'failed'] },
  },
  async handler(req) {
    const perPage = Number(req.params.per_page);
    const status = req.params.status === undefined ? undefined : String(req.params.status).toUpperCase();
    const data = await req.run(undefined, { id: Number(req.params.id), page: Number(req.params.page), perPage, status });
    const { total, nodes } = data.webhook.deliveries;
    return paged(nodes.map(deliveryBody), total, perPage);
  },
};

const redeliver: Endpoint = {
  methods: ['POST'], permission: 'manage_options', operation: 'WebhookRedeliver', args: { id: { description: 'Unique identifier for the delivery.', type: 'integer' } },
  async handler(req) {
    const data = await req.run(undefined, { id: Number(req.params.id) });
    return { status: 200, body: deliveryBody(data.redeliverWebhookDelivery) };
  },
};

const ping: Endpoint = {
  methods: ['POST'], permission: 'manage_options', operation: 'WebhookPing', args: { id: idArg },
  async handler(req) {
    const data = await req.run(undefined, { id: Number(req.params.id) });
    const r = data.pingWebhook;
    return { status: 200, body: { delivered: r.delivered, status: r.status, error: r.error, message_id: r.messageId } };
  },
};

export const webhookRoutes = (): RouteEntry[] => [
  { namespace: NS, pattern: base, endpoints: [list, create], schema: () => WEBHOOK_SCHEMA },
  { namespace: NS, pattern: item, endpoints: [get, update, remove], schema: () => WEBHOOK_SCHEMA },
  { namespace: NS, pattern: `${item}/deliveries`, endpoints: [deliveries] },
  { namespace: NS, pattern: `${item}/ping`, endpoints: [ping] },
  { namespace: NS, pattern: `/${NS}/deliveries/(?P<id>\\d+)/redeliver`, endpoints: [redeliver] },
];
