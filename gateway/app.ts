// The application: the schema, the prepared operations, the route table and the dispatcher over
// one database. server.ts puts it behind node:http, which is what `npm start` serves and what the
// tests send their requests to; `fetch` is the in-process entry, with the same routing
// (gateway/router.ts), for the few tests that need to pass the HTTP door's own limits.
import type { IncomingMessage, ServerResponse } from 'node:http';
import { namespacesFor, type Config } from '../src/config.js';
import type { Db } from '../src/db/client.js';
import { schema } from '../src/schema/index.js';
import { createContext } from '../src/context.js';
import { authenticateRequest } from '../src/auth/request.js';
import { RestError } from '../src/errors.js';
import { buildStamp, loadOperations, VALIDATED_FILE } from './operations.js';
import { createRunner } from './execute.js';
import { buildRouteTable } from './routes/index.js';
import { CONTENT_VERSION, createDispatcher, mayWrite, type CoreRequest, type CoreResponse } from './dispatch.js';
import { createResponseCache } from './cache.js';
import { graphqlHttpCache } from './graphql-cache.js';
import { createAdminHandler } from './admin/authorize.js';
import { COMMENT_FORM_PATH, createSiteFront } from './site/front.js';
import { Readable } from 'node:stream';
import type { ReadableStream as WebReadableStream } from 'node:stream/web';
import { createStorage } from '../src/media/storage.js';
import { journalOf } from '../src/media/intents.js';
import { serveStored } from '../src/media/serve.js';
import type { MediaServices } from '../src/context.js';
import { seoIndexing } from '../src/seo/indexables/hooks.js';
import { createUrlDetailsFetcher } from '../src/url-details/service.js';
import type { HealthOptions } from '../src/site-health/checks.js';
import { createServices } from '../src/services.js';
import { createWebhookDispatcher } from '../src/webhooks/dispatcher.js';
import { configureEventLog } from '../src/content/events.js';
import { createApiDocs } from './openapi/serve.js';
import { loadPersistedOperations } from './persisted-operations.js';
import { clientAddress } from '../src/http/client-ip.js';
import { log } from '../src/log.js';
import { bodyTooLarge } from './errors.js';
import { boundedMap } from './bounded-map.js';
import { doorOf, type Door, type Doors } from './router.js';

/** A fetch Request's body, counted as it arrives; null once it passes `max` bytes (the rest is not read). */
async function readLimited(request: Request, max: number): Promise<Buffer | null> {
  if (Number(request.headers.get('content-length')) > max) { await request.body?.cancel().catch(() => undefined); return null; }
  if (!request.body) return Buffer.alloc(0);
  const reader = request.body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.byteLength;
    if (size > max) { await reader.cancel().catch(() => undefined); return null; }
    chunks.push(value);
  }
  return Buffer.concat(chunks);
}

/** Where the files of local storage are served (the storage's public URLs point here). */
export const UPLOADS_PATH = '/wp-content/uploads/';

export type App = Awaited<ReturnType<typeof createApp>>;

/** What the service uses of yoga: its fetch entry (in process) and its node:http listener (the third argument joins its server context: the client's address). */
export interface GraphqlServer {
  fetch(request: Request, context: { ip?: string }): Promise<Response> | Response;
  requestListener(req: IncomingMessage, res: ServerResponse, context: { ip?: string }): unknown;
}

/** Parsed GraphQL documents a process keeps (by their text), and as many parse errors. */
const DOCUMENTS_KEPT = 256;

/**
 * `deferDispatch`: the webhooks' dispatcher is made but not started; the caller starts it
 * (`app.webhooks.start()`, when WEBHOOK_DISPATCH is on). gateway/start.ts starts it once a new
 * worker has served and gone quiet: its first pass is the process's first Prisma queries, whose
 * query compiler's start-up cost otherwise landed on the first answers.
 */
export function createApp(config: Config, db: Db, options: { deferDispatch?: boolean } = {}) {
  const seo = {
    restRoot: `${config.siteUrl}${config.restPrefix}/`,
    providers: {
      keyphraseProviderUrl: config.seoKeyphraseProviderUrl, rankTrackerUrl: config.seoRankTrackerUrl,
      rankTrackerClientId: config.seoRankTrackerClientId, allowHosts: config.seoAllowHosts,
    },
    importChunkSize: config.seoImportChunkSize,
  };
  const siteHealth: HealthOptions = {
    siteUrl: config.siteUrl, loopbackUrl: config.loopbackUrl ?? config.siteUrl, restPrefix: config.restPrefix, databaseUrl: config.databaseUrl,
    uploadsDir: config.uploadsDir, s3: config.uploadsS3,
    cache: () => (cache ? { capacity: config.cacheEntries, entries: cache.size } : null),
  };
  // One url-details fetcher (allow-list and cache) for REST and GraphQL.
  const urlDetailsFetcher = createUrlDetailsFetcher({ allowHosts: config.urlDetailsAllowHosts ?? [] });
  const operations = loadOperations(schema, undefined, { validatedFile: VALIDATED_FILE, build: buildStamp() });
  const run = createRunner(schema, operations);
  const table = buildRouteTable({
    namespaces: namespacesFor(config.deployment),
    authorizationUrl: `${config.siteUrl}${config.adminPath}/authorize-application.php`,
    oembedAllowHosts: config.oembedAllowHosts,
    urlDetailsAllowHosts: config.urlDetailsAllowHosts,
    urlDetailsFetcher,
    siteHealth,
    seo,
  });
  // The app's services (src/services.ts), on its database handle: every context made over it
  // (REST, GraphQL, a batch's items, the site's pages) reads them from there.
  db.services = createServices(db, {
    // The site-health checks and url-details over GraphQL run with the REST routes' settings and fetcher.
    siteHealth,
    urlDetails: urlDetailsFetcher,
    // The seo/v1 site features over GraphQL use the same providers, hosts, chunk size and root.
    // Deployment B keeps the SEO index: content, term and user writes keep it current.
    seo: { ...seo, indexing: config.deployment === 'B' },
    writeHooks: config.deployment === 'B' ? [seoIndexing] : [],
    // contentChanged subscriptions hear every process's changes (PostgreSQL: on a connection of their own).
    databaseUrl: config.databaseUrl,
    // A webhook's ping is sent from the request, with the dispatcher's allow-list.
    webhookAllowHosts: config.webhookAllowHosts,
    forms: {
      restRoot: `${config.siteUrl}${config.restPrefix}/`, smtpUrl: config.smtpUrl, privateDir: config.formFilesDir, rateLimit: config.formRateLimit,
    },
  });
  // The event log's window (src/content/events.ts): its writes prune rows older than it.
  configureEventLog(db, { hours: config.eventLogHours });
  // The webhooks' dispatcher (src/webhooks/dispatcher.ts): fans the event log out into deliveries
  // and sends them, with every other process over the same database; stopped by close().
  const webhooks = createWebhookDispatcher(db, {
    allowHosts: config.webhookAllowHosts, retryDelays: config.webhookRetryDelays, leaseMs: config.webhookLeaseMs,
    restRoot: `${config.siteUrl}${config.restPrefix}/`,
  });
  if (config.webhookDispatch && !options.deferDispatch) webhooks.start();
  const cache = config.cacheEntries > 0 ? createResponseCache(config.cacheEntries, () => db.version(), config.cacheMaxBytes) : null;
  // Anonymous /graphql reads: their own cache (its own size and budget), retired by the same database version.
  const graphqlCache = config.graphqlCacheEntries > 0 ? createResponseCache(config.graphqlCacheEntries, () => db.version(), config.graphqlCacheMaxBytes) : null;
  const graphqlHttp = graphqlHttpCache(graphqlCache, config.graphqlGetMaxAge, (token) => db.caughtUp(token));
  const media: MediaServices = {
    storage: createStorage({ siteUrl: config.siteUrl, uploadsDir: config.uploadsDir, s3: config.uploadsS3 }),
    maxUploadBytes: config.uploadMaxBytes,
  };
  const dispatcher = createDispatcher({ db, run, table, restPrefix: config.restPrefix, siteUrl: config.siteUrl, cache, media });
  /** The OpenAPI document and the reference page, beside the route table (gateway/openapi/). */
  const apiDocs = createApiDocs(table, { siteUrl: config.siteUrl, restPrefix: config.restPrefix, namespaces: namespacesFor(config.deployment), deployment: config.deployment });

  /**
   * The GraphQL server (yoga and its guards), made on the first /graphql request, or when the
   * start (gateway/start.ts) asks for it 250 ms after the process listens: loading it is a good
   * part of a process's start, and the REST routes (whose operations run on the same schema
   * without it) answer meanwhile.
   */
  const persisted = config.graphqlPersisted === 'off' ? null : loadPersistedOperations(config.graphqlPersistedFile);
  let yoga: Promise<GraphqlServer> | null = null;
  const graphql = (): Promise<GraphqlServer> => (yoga ??= Promise.all([import('graphql-yoga'), import('./graphql-guards.js'), import('./graphiql.js'), import('./graphql-sse-ids.js')]).then(([{ createYoga, maskError }, { graphqlGuards }, { createGraphiQL }, { sseEventIds }]) => {
    const graphiql = createGraphiQL();
    return createYoga({
      schema,
      graphqlEndpoint: '/graphql',
      landingPage: false,
      graphiql: config.graphiql,
      // The page with everything inlined (gateway/graphiql.ts), not yoga's, which loads from a CDN.
      renderGraphiQL: graphiql.render,
      // The cache after the guards: it reads the document the persisted-query plugins put in the params.
      plugins: [...graphqlGuards(config, persisted), graphqlHttp.plugin, graphiql.plugin, sseEventIds()],
      logging: false,
      // Parsed documents kept by their text: yoga keeps 1,024, and a client that writes its values
      // into the document (not as variables) makes a new one each request; the bench's list
      // documents are about 13 KB each parsed, 13 MB a worker at 1,024.
      parserAndValidationCache: { documentCache: boundedMap(DOCUMENTS_KEPT), errorCache: boundedMap(DOCUMENTS_KEPT) },
      // Unexpected errors are masked (never a stack in the answer, whatever NODE_ENV says) and logged here.
      maskedErrors: {
        isDev: false,
        maskError(error, message) {
          const masked = maskError(error, message, false);
          if (masked !== error) {
            const original = (error as { originalError?: unknown }).originalError ?? error;
            log.error({ err: original, path: (error as { path?: unknown }).path }, 'unexpected GraphQL error');
          }
          return masked;
        },
      },
      context: async ({ request, ...server }) => {
        const query = Object.fromEntries(new URL(request.url).searchParams);
        const identity = await authenticateRequest(db, { headers: request.headers, query });
        // Refused before anything runs (a wrong password, a revoked application password): the
        // answer has no data, so its HTTP status is the refusal's (401), as the REST routes answer,
        // and as GraphQL over HTTP asks of a response without data.
        if (identity instanceof RestError) {
          identity.extensions.http = { status: identity.extensions.status };
          throw identity;
        }
        // The address: given by fetch() below, or the node:http socket (gateway/server.ts).
        const s = server as { ip?: string; req?: { socket?: { remoteAddress?: string } } };
        const ip = s.ip ?? s.req?.socket?.remoteAddress ?? '';
        return { ...createContext(db, identity.user, media), client: { ip, userAgent: request.headers.get('user-agent') ?? '' } };
      },
    }) as unknown as GraphqlServer;
  }));

  const admin = createAdminHandler(config, db);
  /** The public pages (HTML) at every other address: home, permalinks, embed cards, 404. */
  const site = createSiteFront({ config, db, media, cache, seoHead: config.deployment === 'B' });
  /** Which part answers a request (gateway/router.ts): the same order for the HTTP server and `fetch`. */
  const doors: Doors = { restPrefix: config.restPrefix, adminPath: config.adminPath, uploadsPath: UPLOADS_PATH, docs: apiDocs.claims };
  const door = (method: string, url: URL): Door => doorOf(doors, method, url);

  /** The client's address: the peer's, or (TRUST_PROXY) what a trusted proxy forwarded. */
  const clientIp = (peer: string | undefined, header: (name: string) => string | null | undefined) =>
    config.trustProxy ? clientAddress(peer, header(config.proxyHeader), config.trustProxy, config.proxyHeader) : peer;

  /**
   * Fetch-style entry: REST goes to the dispatcher, /graphql to yoga. `peer` is the socket's
   * address (behind TRUST_PROXY the client's is read from the forwarding header).
   */
  async function fetch(request: Request, peer?: string): Promise<Response> {
    const res = await answer(request, peer);
    // As the HTTP server does (gateway/server.ts `tellVersion`): a request that may write is told
    // the writes committed by the time its answer is made.
    if (mayWrite(request.method, request.url, request.headers.has('x-http-method-override'))) {
      try { res.headers.set(CONTENT_VERSION, db.writeToken()); } catch { /* a response whose headers are fixed (a redirect) */ }
    }
    return res;
  }

  async function answer(request: Request, peer?: string): Promise<Response> {
    const url = new URL(request.url);
    const ip = clientIp(peer, (name) => request.headers.get(name));
    switch (door(request.method, url)) {
      case 'graphql': return (await graphql()).fetch(request, { ip });
      case 'admin': return admin(request, ip);
      case 'docs': {
        const out = apiDocs.serve(request.method, url);
        return new Response(out.body === '' ? null : new Uint8Array(Buffer.from(out.body)), { status: out.status, headers: out.headers });
      }
      case 'upload': {
        const out = await serveUpload(url, request.method, request.headers);
        return new Response(out.body ? (Readable.toWeb(out.body as Readable) as ReadableStream) : null, { status: out.status, headers: out.headers });
      }
      case 'site': {
        // The comment form's post carries a body and its sender (gateway/site/front.ts).
        const form = request.method === 'POST' && url.pathname === COMMENT_FORM_PATH;
        const out = await site(form ? { method: request.method, url: request.url, body: await request.text(), ip, userAgent: request.headers.get('user-agent') ?? '' } : { method: request.method, url: request.url });
        return new Response(out.body === '' ? null : out.body, { status: out.status, headers: out.headers });
      }
      case 'rest': break;
    }
    const streamed = request.body && dispatcher.wantsStream(request.method, url.pathname + url.search, request.headers.get('content-type'));
    const stream = streamed ? Readable.fromWeb(request.body as unknown as WebReadableStream) : undefined;
    const core = { method: request.method, url: url.pathname + url.search, headers: request.headers, body: null as Buffer | null, stream, ip };
    if (!streamed && request.method !== 'GET' && request.method !== 'HEAD') {
      core.body = await readLimited(request, config.bodyMaxBytes);
      if (!core.body) {
        const refused = dispatcher.errorResponse(core, bodyTooLarge());
        return new Response(refused.body, { status: refused.status, headers: { ...refused.headers, Connection: 'close' } });
      }
    }
    const res = await dispatcher.handle(core);
    if (res.stream) return new Response(Readable.toWeb(Readable.from(res.stream)) as ReadableStream, { status: res.status, headers: res.headers });
    const body = res.bytes ? new Uint8Array(res.bytes) : res.body === '' ? null : res.body;
    return new Response(body, { status: res.status, headers: res.headers });
  }

  /** Files of local storage, under UPLOADS_PATH (with S3 their URLs point at the bucket's public base, but they are served here too). */
  const serveUpload = (url: URL, method: string, headers: Headers) => {
    let key: string;
    try { key = decodeURIComponent(url.pathname.slice(UPLOADS_PATH.length)); } catch { key = ''; }
    return serveStored(media.storage, key, method, headers);
  };

  return {
    clientIp,
    errorResponse: dispatcher.errorResponse,
    config, db, table, operations, run, graphql, cache, graphqlCache, fetch, door, admin, site, media, serveUpload, apiDocs,
    wantsStream: dispatcher.wantsStream,
    handle: (req: CoreRequest): Promise<CoreResponse> => dispatcher.handle(req),
    hitByUrl: dispatcher.hitByUrl,
    /** The hit lane's lookup for GET /graphql (gateway/graphql-cache.ts). */
    graphqlHitByUrl: graphqlHttp.hitByUrl,
    root: dispatcher.root,
    webhooks,
    /** Stops the app's background work (the webhooks' dispatcher, the upload journal's timers); the database stays open. */
    close: (): Promise<void> => { journalOf(media.storage).stop(); return webhooks.stop(); },
  };
}
