// The services of an app: what the domain needs from the running service besides the database and
// the request (settings, clients and their caches, the work that follows a write). createApp
// (gateway/app.ts) makes them once and hangs them on its database handle (`db.services`), and every
// request context carries them (`ctx.services`, src/context.ts).
//
// On the handle, not in registries keyed by it: a handle derived from the app's with
// Object.create (the one a batch gives its items, src/content/unit-of-work.ts, which leaves out
// the write hooks) inherits them, and code that holds only a Db reaches them with no lookup. Two apps in one process (tests) each set
// their own on their own handle; two apps over one handle share the last one's, as the registries
// they replace did.
import type { Db } from './db/client.js';
import { createFormServices, type FormServices, type FormSettings } from './forms/services.js';
import { makeSeoServices, type SeoServiceSettings, type SeoServices } from './seo/services.js';
import { createUrlDetailsFetcher, type UrlDetailsFetcher } from './url-details/service.js';
import type { HealthOptions } from './site-health/checks.js';
import { createContentEvents, type ContentEvents } from './content/events.js';
import type { WriteHook } from './content/write-hooks.js';

export interface Services {
  /** The contact forms: REST root, mail, private files, spam limits (src/forms/services.ts). */
  forms: FormServices;
  /** The seo/v1 features: providers, hosts, import chunk size, whether the index is kept (src/seo/services.ts). */
  seo: SeoServices;
  /** Link previews: the allow-list and cache the REST route and GraphQL share (src/url-details/service.ts). */
  urlDetails: UrlDetailsFetcher;
  /** The site-health checks' settings; null: the checks are not served (src/site-health/checks.ts). */
  siteHealth: HealthOptions | null;
  /** The contentChanged subscriptions' hub (src/content/events.ts). */
  contentEvents: ContentEvents;
  /** Work that follows a committed write, in order (src/content/write-hooks.ts). */
  writeHooks: readonly WriteHook[];
  /** How webhooks are sent from a request (a ping): the hosts allowed on private addresses. */
  webhooks: { allowHosts: string[] };
}

// The database layer declares `Db.services` with no members, since it may not import the domain;
// they are these.
declare module './db/client.js' {
  interface DbServices extends Services {}
}

/** How the app sets its services up; what it leaves out gets the defaults of code without an app. */
export interface ServiceSettings {
  forms?: Partial<FormSettings>;
  seo?: SeoServiceSettings;
  urlDetails?: UrlDetailsFetcher;
  siteHealth?: HealthOptions;
  /** Where the database lives: PostgreSQL's content events listen on a connection of their own. */
  databaseUrl?: string;
  writeHooks?: WriteHook[];
  /** Hosts webhook URLs may name on private addresses (WEBHOOK_ALLOW_HOSTS). */
  webhookAllowHosts?: string[];
}

/** The services over `db`: made once per app (gateway/app.ts), not per request. */
export function createServices(db: Db, o: ServiceSettings = {}): Services {
  return {
    forms: createFormServices(o.forms),
    seo: makeSeoServices(o.seo ?? {}),
    urlDetails: o.urlDetails ?? createUrlDetailsFetcher(),
    siteHealth: o.siteHealth ?? null,
    contentEvents: createContentEvents(db, o.databaseUrl ?? null),
    writeHooks: o.writeHooks ?? [],
    webhooks: { allowHosts: o.webhookAllowHosts ?? [] },
  };
}

/**
 * The services of `db`: its app's, or for code without an app (operator commands, test set-up)
 * the defaults, made on first use and kept on the handle so that later calls share them.
 */
export function servicesOf(db: Db): Services {
  return (db.services ??= createServices(db));
}
