// `npm run cli -- webhook …`: the webhooks (docs/webhooks.md) from the command line, through the
// same service as webhooks/v1, as an administrator.
import type { Db } from '../src/db/client.js';
import { createContext } from '../src/context.js';
import { servicesOf } from '../src/services.js';
import { createWebhook, deleteWebhook, eventsOf, listWebhooks, type WebhookRow } from '../src/webhooks/service.js';

export const WEBHOOK_USAGE = `cli webhook create <url> --events=<event,event…> [--name=<name>] [--secret=<whsec_…>]
  cli webhook list
  cli webhook delete <id>`;

const shown = (w: WebhookRow, secret: boolean) => ({
  id: w.id, name: w.name, url: w.url, events: eventsOf(w), active: w.active, created: w.created.toISOString(), ...(secret ? { secret: w.secret } : {}),
});

/** Runs a webhook command; answers the exit code (2: not a webhook command this knows). */
export async function webhookCommand(db: Db, args: string[], flags: Record<string, string | true>): Promise<number> {
  servicesOf(db);
  const ctx = createContext(db, { id: 0, login: 'cli', role: 'administrator' });
  const [verb, ...rest] = args;
  if (verb === 'create' && rest.length === 1) {
    if (typeof flags.events !== 'string') { console.error('error: --events=<event,event…> is required (e.g. post.published,comment.created or *)'); return 2; }
    const made = await createWebhook(ctx, {
      url: rest[0], events: flags.events.split(',').map((e) => e.trim()).filter(Boolean),
      name: typeof flags.name === 'string' ? flags.name : undefined, secret: typeof flags.secret === 'string' ? flags.secret : undefined,
    });
    // The secret once, as on create over REST.
    console.log(JSON.stringify(shown(made, true)));
    return 0;
  }
  if (verb === 'list' && rest.length === 0) {
    for (let page = 1; ; page++) {
      const { nodes, total } = await listWebhooks(ctx, page, 100);
      for (const w of nodes) console.log(JSON.stringify(shown(w, false)));
      if (page * 100 >= total) return 0;
    }
  }
  if (verb === 'delete' && rest.length === 1 && /^\d+$/.test(rest[0])) {
    const gone = await deleteWebhook(ctx, Number(rest[0]));
    console.log(JSON.stringify({ deleted: true, previous: shown(gone, false) }));
    return 0;
  }
  return 2;
}
