// Webhooks managed by administrators (manage_options): what REST (webhooks/v1) and GraphQL both
// run. A webhook is a URL, the events it subscribes to (src/webhooks/names.ts), a signing secret
// (Standard Webhooks: `whsec_` and base64) and whether it is active. Its deliveries are made by the
// dispatcher (src/webhooks/dispatcher.ts); here they are listed and sent again.
import { randomBytes } from 'node:crypto';
import { Webhook as Signer } from 'standardwebhooks';
import type { Context } from '../context.js';
import type { Tx } from '../db/client.js';
import { authStatus, invalidParam, restError } from '../errors.js';
import { knownSubjects, patternProblem } from './names.js';
import { sendSigned } from './send.js';

export interface WebhookRow {
  id: number;
  name: string;
  url: string;
  events: string;
  secret: string;
  active: boolean;
  created: Date;
  cursor: number;
}

export interface WebhookDeliveryRow {
  id: number;
  webhookId: number;
  eventId: number;
  messageId: string;
  event: string;
  payload: string;
  status: string;
  attempts: number;
  nextAttempt: Date;
  lockedUntil: Date | null;
  lastStatus: number | null;
  lastError: string;
  created: Date;
  delivered: Date | null;
}

export interface WebhookInput {
  name?: string | null;
  url?: string | null;
  events?: string[] | null;
  secret?: string | null;
  active?: boolean | null;
}

/** Delivery states. */
export const DELIVERY_STATUSES = ['pending', 'delivered', 'failed'] as const;

const MAX_NAME = 200;
const MAX_URL = 2000;
const MAX_EVENTS = 100;

/** Administrators only: 401 for anonymous callers, 403 for others, as the other admin routes. */
export function requireWebhookAdmin(ctx: Context): void {
  if (!ctx.viewer || !ctx.can('manage_options')) throw restError('rest_forbidden', 'Sorry, you are not allowed to do that.', authStatus(!!ctx.viewer));
}

/** The events a webhook subscribes to, as stored (a JSON array). */
export const eventsOf = (row: Pick<WebhookRow, 'events'>): string[] => {
  try {
    const v = JSON.parse(row.events) as unknown;
    return Array.isArray(v) ? v.filter((x): x is string => typeof x === 'string') : [];
  } catch { return []; }
};

/** A new signing secret: `whsec_` and 32 random bytes in base64. */
export const newSecret = (): string => `whsec_${randomBytes(32).toString('base64')}`;

function checkUrl(url: string): string {
  const trimmed = url.trim();
  let parsed: URL | null = null;
  try { parsed = new URL(trimmed); } catch { /* below */ }
  if (!parsed || (parsed.protocol !== 'http:' && parsed.protocol !== 'https:') || !parsed.hostname || trimmed.length > MAX_URL) {
    invalidParam('url', 'rest_invalid_url', 'The URL must be an absolute http or https URL.');
  }
  if (parsed.username || parsed.password) invalidParam('url', 'rest_invalid_url', 'The URL may not carry credentials.');
  return parsed.href;
}

function checkEvents(events: string[]): string[] {
  const list = [...new Set(events.map((e) => e.trim()))];
  if (!list.length) invalidParam('events', 'rest_invalid_events', 'At least one event is required.');
  if (list.length > MAX_EVENTS) invalidParam('events', 'rest_invalid_events', `At most ${MAX_EVENTS} events.`);
  const subjects = knownSubjects();
  for (const e of list) {
    const problem = patternProblem(e, subjects);
    if (problem) invalidParam('events', 'rest_invalid_events', problem);
  }
  return list;
}

function checkSecret(secret: string): string {
  const ok = /^whsec_[A-Za-z0-9+/]+={0,2}$/.test(secret) && (() => {
    const bytes = Buffer.from(secret.slice('whsec_'.length), 'base64').length;
    if (bytes < 24 || bytes > 64) return false;
    try { new Signer(secret); return true; } catch { return false; }
  })();
  if (!ok) invalidParam('secret', 'rest_invalid_secret', 'The secret must be "whsec_" followed by 24 to 64 bytes in base64.');
  return secret;
}

function checkName(name: string): string {
  if (name.length > MAX_NAME) invalidParam('name', 'rest_invalid_param', `The name may have at most ${MAX_NAME} characters.`);
  return name;
}

/** The newest event log id: a webhook made or switched on now starts after it (no backlog). */
async function newestEvent(tx: Tx): Promise<number> {
  return (await tx.contentEvent.aggregate({ _max: { id: true } }))._max.id ?? 0;
}

export async function listWebhooks(ctx: Context, page: number, perPage: number): Promise<{ total: number; nodes: WebhookRow[] }> {
  requireWebhookAdmin(ctx);
  checkPaging(page, perPage);
  const [total, nodes] = await Promise.all([
    ctx.prisma.webhook.count(),
    ctx.prisma.webhook.findMany({ orderBy: { id: 'asc' }, skip: (page - 1) * perPage, take: perPage }),
  ]);
  return { total, nodes };
}

function checkPaging(page: number, perPage: number): void {
  if (!Number.isInteger(page) || page < 1) invalidParam('page', 'rest_invalid_param', 'page must be greater than or equal to 1');
  if (!Number.isInteger(perPage) || perPage < 1 || perPage > 100) invalidParam('per_page', 'rest_invalid_param', 'per_page must be between 1 (inclusive) and 100 (inclusive)');
}

export async function getWebhook(ctx: Context, id: number): Promise<WebhookRow> {
  requireWebhookAdmin(ctx);
  const row = await ctx.prisma.webhook.findUnique({ where: { id } });
  if (!row) throw restError('rest_webhook_invalid_id', 'Invalid webhook ID.', 404);
  return row;
}

export async function createWebhook(ctx: Context, input: WebhookInput): Promise<WebhookRow> {
  requireWebhookAdmin(ctx);
  if (input.url == null) invalidParam('url', 'rest_missing_callback_param', 'The URL is required.');
  if (input.events == null) invalidParam('events', 'rest_missing_callback_param', 'The events are required.');
  const data = {
    name: checkName(input.name ?? ''),
    url: checkUrl(input.url),
    events: JSON.stringify(checkEvents(input.events)),
    secret: input.secret != null && input.secret !== '' ? checkSecret(input.secret) : newSecret(),
    active: input.active ?? true,
  };
  return ctx.prisma.$transaction(async (tx) => tx.webhook.create({ data: { ...data, cursor: await newestEvent(tx) } }));
}

export async function updateWebhook(ctx: Context, id: number, input: WebhookInput): Promise<WebhookRow> {
  const existing = await getWebhook(ctx, id);
  const data: Partial<WebhookRow> = {};
  if (input.name != null) data.name = checkName(input.name);
  if (input.url != null) data.url = checkUrl(input.url);
  if (input.events != null) data.events = JSON.stringify(checkEvents(input.events));
  if (input.secret != null && input.secret !== '') data.secret = checkSecret(input.secret);
  if (input.active != null) data.active = input.active;
  return ctx.prisma.$transaction(async (tx) => {
    // Switched back on: from the newest event (what happened while it was off is not sent).
    if (data.active && !existing.active) data.cursor = await newestEvent(tx);
    return tx.webhook.update({ where: { id }, data });
  });
}

/** Deletes a webhook and its delivery log; answers it as it was. */
export async function deleteWebhook(ctx: Context, id: number): Promise<WebhookRow> {
  const existing = await getWebhook(ctx, id);
  await ctx.prisma.webhook.delete({ where: { id } });
  return existing;
}

export async function listDeliveries(ctx: Context, webhookId: number, page: number, perPage: number, status: string | null): Promise<{ total: number; nodes: WebhookDeliveryRow[] }> {
  await getWebhook(ctx, webhookId);
  checkPaging(page, perPage);
  if (status != null && !(DELIVERY_STATUSES as readonly string[]).includes(status)) invalidParam('status', 'rest_not_in_enum', `status is not one of ${DELIVERY_STATUSES.join(', ')}.`);
  const where = { webhookId, ...(status != null ? { status } : {}) };
  const [total, nodes] = await Promise.all([
    ctx.prisma.webhookDelivery.count({ where }),
    ctx.prisma.webhookDelivery.findMany({ where, orderBy: { id: 'desc' }, skip: (page - 1) * perPage, take: perPage }),
  ]);
  return { total, nodes };
}

/**
 * Sends a delivery again, whatever became of it: back to pending, due now, with a fresh count of
 * attempts; the same message id and body (receivers that have it already drop it).
 */
export async function redeliver(ctx: Context, id: number): Promise<WebhookDeliveryRow> {
  requireWebhookAdmin(ctx);
  const row = await ctx.prisma.webhookDelivery.findUnique({ where: { id }, select: { id: true } });
  if (!row) throw restError('rest_webhook_delivery_invalid_id', 'Invalid webhook delivery ID.', 404);
  return ctx.prisma.webhookDelivery.update({
    where: { id },
    data: { status: 'pending', attempts: 0, nextAttempt: new Date(), lockedUntil: null, delivered: null },
  });
}

export interface PingResult {
  delivered: boolean;
  /** The receiver's status; null when no answer came. */
  status: number | null;
  error: string;
  messageId: string;
}

/**
 * Sends a `webhook.ping` to the webhook now, from the request (inactive ones too), and answers how
 * it went; nothing is logged or retried. Body: `{type: 'webhook.ping', timestamp, data: {webhook}}`.
 */
export async function pingWebhook(ctx: Context, id: number): Promise<PingResult> {
  const hook = await getWebhook(ctx, id);
  const messageId = `msg_${randomBytes(12).toString('base64url')}`;
  const body = JSON.stringify({ type: 'webhook.ping', timestamp: new Date().toISOString(), data: { webhook: hook.id } });
  const r = await sendSigned(hook.url, hook.secret, messageId, body, { allowHosts: ctx.services.webhooks?.allowHosts ?? [], timeoutMs: 5_000 });
  return { delivered: r.ok, status: r.status, error: r.error, messageId };
}
