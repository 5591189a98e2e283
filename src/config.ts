// Service configuration, read once from the environment. Every setting is optional.
import { availableParallelism } from 'node:os';
import { BlockList, isIP } from 'node:net';
import { resolve } from 'node:path';

export type Deployment = 'A' | 'B';

/** Namespaces the REST index advertises, in the order WordPress lists them. */
export function namespacesFor(deployment: Deployment): string[] {
  const list = ['oembed/1.0', 'forms/v1', 'widgets/v1', 'core/v2', 'site-health/v1', 'block-editor/v1', 'abilities/v1', 'webhooks/v1'];
  if (deployment === 'B') list.push('seo/v1');
  return list;
}

/** EVENT_LOG_HOURS: a positive number of hours (fractions allowed), else the default, 24. */
export function eventLogHours(value: string | undefined): number {
  const hours = Number(value ?? 24);
  return Number.isFinite(hours) && hours > 0 ? hours : 24;
}

export interface Config {
  port: number;
  host: string;
  /** Public base URL of the site, without a trailing slash. */
  siteUrl: string;
  /** Where the server reaches itself for its site-health loopback checks (LOOPBACK_URL); null: SITE_URL. */
  loopbackUrl: string | null;
  databaseUrl: string;
  restPrefix: string;
  /** `B` also serves the seo/v1 namespace. */
  deployment: Deployment;
  /** Where media files go (local storage), served under /wp-content/uploads/. */
  uploadsDir: string;
  /** S3-compatible object storage for media files instead of the directory (UPLOADS_S3_*). */
  uploadsS3: S3Settings | undefined;
  /** The largest upload accepted, counted while it streams in. */
  uploadMaxBytes: number;
  adminUser: string;
  adminPassword: string | undefined;
  adminPath: string;
  /** The largest JSON, form or sign-in-page body read into memory (BODY_MAX_BYTES); larger: 413 rest_request_too_large. */
  bodyMaxBytes: number;
  /** Time a client has to send a request's headers (HEADERS_TIMEOUT_MS) and the whole request (REQUEST_TIMEOUT_MS, 0: none); then 408. */
  headersTimeoutMs: number;
  requestTimeoutMs: number;
  /** Which peers' forwarding headers give the client's address (TRUST_PROXY); null: the socket's address. */
  trustProxy: TrustProxy | null;
  /** The forwarding header read when the peer is trusted (TRUST_PROXY_HEADER). */
  proxyHeader: ProxyHeader;
  /** Worker processes; defaults to the number of cores. */
  workers: number;
  /** Each worker's V8 heap limit in MB (WORKER_HEAP_MB, default 512; 0: V8's default). */
  workerHeapMb: number;
  /** WORKER_SEMI_SPACE_MB: a worker's young-generation semi-space in MB (0: V8's own). */
  workerSemiSpaceMb: number;
  /** Requests one process works on at once before answering 503. */
  maxInFlight: number;
  /** Entries in the shaped-response cache (0 disables it). */
  cacheEntries: number;
  /** What the cache's entries may weigh in all, per process (CACHE_MAX_BYTES, default 16 MiB). */
  cacheMaxBytes: number;
  /**
   * Hosts (`name` or `name:port`) that server-side fetches such as the oEmbed proxy may reach
   * even when they resolve to a private or loopback address (OEMBED_ALLOW_HOSTS, comma-separated).
   */
  oembedAllowHosts: string[];
  /** Hosts the block editor's link previews (url-details) may fetch on private addresses (URL_DETAILS_ALLOW_HOSTS, comma-separated). */
  urlDetailsAllowHosts: string[];
  /** Hosts webhook URLs may name even when they resolve to private addresses (WEBHOOK_ALLOW_HOSTS, comma-separated). */
  webhookAllowHosts: string[];
  /** Whether this process sends webhooks (WEBHOOK_DISPATCH=off: another process or instance does). */
  webhookDispatch: boolean;
  /** Waits before each webhook retry, in ms (WEBHOOK_RETRY_DELAYS: seconds, comma-separated; default 10,60,300,1800,7200). */
  webhookRetryDelays: number[];
  /**
   * How long the event log keeps its rows, in hours (EVENT_LOG_HOURS, default 24): how far back a
   * subscription can resume by Last-Event-ID. Rows an active webhook has not fanned out stay longer.
   */
  eventLogHours: number;
  /** How long a webhook sender's claim on a delivery lasts, in ms (WEBHOOK_LEASE_MS, default 60000). */
  webhookLeaseMs: number;
  /** SMTP server for contact-form mail (`smtp://user:pass@host:587`, `smtps://…`); null: mail fails (submissions are still stored). */
  smtpUrl: string | null;
  /** Where the files of contact-form submissions are kept: private, never served. */
  formFilesDir: string;
  /** Accepted contact-form submissions per address and form per minute (0: no limit). */
  formRateLimit: number;
  /** seo/v1 keyphrase research API base URL (SEO_KEYPHRASE_PROVIDER_URL); null: its routes answer 400 seo_provider_not_configured. */
  seoKeyphraseProviderUrl: string | null;
  /** seo/v1 rank tracker API base URL (SEO_RANK_TRACKER_URL) and the client id it knows the site by (SEO_RANK_TRACKER_CLIENT_ID). */
  seoRankTrackerUrl: string | null;
  seoRankTrackerClientId: string | null;
  /** Hosts the seo/v1 server-side fetches (providers, file_size) may reach on private addresses (SEO_ALLOW_HOSTS, comma-separated). */
  seoAllowHosts: string[];
  /** Authors, terms and items a seo/v1 import handles per call (SEO_IMPORT_CHUNK, default 50). */
  seoImportChunkSize: number;
  /**
   * /graphql: deepest selection (GRAPHQL_MAX_DEPTH, default 12); highest cost (GRAPHQL_MAX_COST,
   * default 25000: values the answer can hold, lists at the sizes asked, see gateway/graphql-cost.ts);
   * most aliases (GRAPHQL_MAX_ALIASES, default 30) and fields (GRAPHQL_MAX_FIELDS, default 500) in
   * an operation, fragments counted where spread. 0 turns a limit off.
   */
  graphqlMaxDepth: number;
  graphqlMaxCost: number;
  graphqlMaxAliases: number;
  graphqlMaxFields: number;
  /**
   * Most SQL statements one /graphql query may send (GRAPHQL_MAX_STATEMENTS, default 500; 0: no
   * limit): the backstop behind the cost limit. Mutations are not limited (their writes are whole).
   */
  graphqlMaxStatements: number;
  /** /graphql persisted operations (GRAPHQL_PERSISTED): off, allow (ids or documents), only (ids from the list only). */
  graphqlPersisted: 'off' | 'allow' | 'only';
  /** The JSON file of id → document (GRAPHQL_PERSISTED_FILE). */
  graphqlPersistedFile: string;
  /** /graphql answers introspection (GRAPHQL_INTROSPECTION=0 turns it off). */
  graphqlIntrospection: boolean;
  /** GraphiQL at GET /graphql in a browser (GRAPHIQL=0 turns it off). */
  graphiql: boolean;
  /**
   * Automatic persisted queries on /graphql (Apollo's protocol): documents a client registered by
   * their SHA-256, at most this many per process (GRAPHQL_APQ_ENTRIES, default 1000; 0 turns them
   * off). Off while GRAPHQL_PERSISTED is on: the allow-list answers every persisted query then.
   */
  graphqlApqEntries: number;
  /** Entries in the anonymous GraphQL response cache (GRAPHQL_CACHE_ENTRIES, default 1000; 0 turns it off). */
  graphqlCacheEntries: number;
  /** What its entries may weigh in all, per process (GRAPHQL_CACHE_MAX_BYTES, default 8 MiB). */
  graphqlCacheMaxBytes: number;
  /** `max-age` in seconds of an anonymous GET query's `Cache-Control: public` (GRAPHQL_GET_MAX_AGE, default 5; 0: revalidate each time). */
  graphqlGetMaxAge: number;
}

/** S3-compatible object storage for media files (src/media/storage.ts). */
export interface S3Settings {
  bucket: string;
  endpoint?: string;
  region: string;
  accessKeyId?: string;
  secretAccessKey?: string;
  forcePathStyle: boolean;
  publicUrl: string;
}

const trimSlashes = (s: string) => s.replace(/\/+$/, '');

/** Reads the S3 settings from the environment; undefined (local storage) when no bucket is set. */
export function s3ConfigFromEnv(env: NodeJS.ProcessEnv): S3Settings | undefined {
  const bucket = env.UPLOADS_S3_BUCKET?.trim();
  if (!bucket) return undefined;
  const endpoint = env.UPLOADS_S3_ENDPOINT?.trim() ? trimSlashes(env.UPLOADS_S3_ENDPOINT.trim()) : undefined;
  const region = env.UPLOADS_S3_REGION?.trim() || 'us-east-1';
  const pathStyle = env.UPLOADS_S3_FORCE_PATH_STYLE?.trim().toLowerCase();
  // Self-hosted services (MinIO and the like) rarely have wildcard DNS for bucket sub-domains,
  // so an explicit endpoint means path-style unless told otherwise.
  const forcePathStyle = pathStyle === undefined || pathStyle === '' ? endpoint !== undefined : pathStyle === '1' || pathStyle === 'true';
  const publicUrl = env.UPLOADS_S3_PUBLIC_URL?.trim()
    ? trimSlashes(env.UPLOADS_S3_PUBLIC_URL.trim())
    : endpoint
      ? `${endpoint}/${bucket}`
      : `https://${bucket}.s3.${region}.amazonaws.com`;
  return {
    bucket,
    endpoint,
    region,
    accessKeyId: env.UPLOADS_S3_ACCESS_KEY_ID || undefined,
    secretAccessKey: env.UPLOADS_S3_SECRET_ACCESS_KEY || undefined,
    forcePathStyle,
    publicUrl,
  };
}

/** Which peers are trusted proxies (src/http/client-ip.ts walks the forwarding header with it). */
export type TrustProxy = { hops: number } | { list: BlockList; text: string };
export type ProxyHeader = 'x-forwarded-for' | 'forwarded';

/** TRUST_PROXY: empty/`0`/`false`/`off` → null; `true` → one hop; `N` → N hops; otherwise addresses and CIDRs, comma-separated. */
export function parseTrustProxy(value: string | undefined): TrustProxy | null {
  const v = (value ?? '').trim();
  if (!v || /^(0|false|off|no)$/i.test(v)) return null;
  if (/^(true|on|yes)$/i.test(v)) return { hops: 1 };
  if (/^\d+$/.test(v)) return { hops: Number(v) };
  const list = new BlockList();
  for (const raw of v.split(',')) {
    const entry = raw.trim();
    if (!entry) continue;
    const [addr, bits, extra] = entry.split('/');
    const address = plainAddress(addr);
    const type = isIP(address);
    const prefix = bits === undefined ? (type === 6 ? 128 : 32) : Number(bits);
    if (!type || extra !== undefined || !/^\d*$/.test(bits ?? '') || prefix > (type === 6 ? 128 : 32)) {
      throw new Error(`TRUST_PROXY: "${entry}" is not an address or CIDR range (give true, a hop count, or addresses like 10.0.0.0/8, ::1)`);
    }
    list.addSubnet(address, prefix, type === 6 ? 'ipv6' : 'ipv4');
  }
  return { list, text: v };
}

/**
 * `::ffff:10.0.0.1` (an IPv4 peer on a dual-stack socket) as `10.0.0.1`. The TRUST_PROXY list holds
 * its addresses in this form, so the addresses checked against it are put in it too, by this same
 * function (src/http/client-ip.ts).
 */
export function plainAddress(ip: string): string {
  return ip.startsWith('::ffff:') && ip.includes('.') ? ip.slice(7) : ip;
}

/** WORKER_HEAP_MB: unset or not a number 512, `0` none (V8's default), otherwise at least 128. */
export function workerHeapMb(raw: string | undefined): number {
  const n = raw === undefined || raw.trim() === '' ? NaN : Number(raw);
  if (!Number.isFinite(n) || n < 0) return 512;
  return n === 0 ? 0 : Math.max(128, Math.floor(n));
}

/** WORKER_SEMI_SPACE_MB: unset or not a number 8, `0` none (V8's default), otherwise 1 to 64. */
export function workerSemiSpaceMb(raw: string | undefined): number {
  const n = raw === undefined || raw.trim() === '' ? NaN : Number(raw);
  if (!Number.isFinite(n) || n < 0) return 8;
  return n === 0 ? 0 : Math.min(64, Math.max(1, Math.floor(n)));
}

/** WEBHOOK_RETRY_DELAYS: seconds between webhook attempts, comma-separated (default 10 s, 1 min, 5 min, 30 min, 2 h). */
function retryDelays(text: string | undefined): number[] {
  const list = (text ?? '').split(',').map((s) => Number(s.trim())).filter((n) => Number.isFinite(n) && n >= 0);
  return (text && list.length ? list : [10, 60, 300, 1800, 7200]).map((s) => Math.round(s * 1000));
}

export function loadConfig(env: NodeJS.ProcessEnv = process.env): Config {
  const port = Number(env.PORT ?? 8080);
  const host = env.HOST ?? '127.0.0.1';
  const prefix = '/' + (env.REST_PREFIX ?? '/wp-json').replace(/^\/+|\/+$/g, '');
  return {
    port,
    host,
    siteUrl: (env.SITE_URL ?? `http://${host.includes(':') ? `[${host}]` : host}:${port}`).replace(/\/+$/, ''),
    databaseUrl: env.DATABASE_URL ?? 'file:./data/site.db',
    restPrefix: prefix,
    deployment: env.DEPLOYMENT === 'B' ? 'B' : 'A',
    uploadsDir: resolve(env.UPLOADS_DIR ?? './data/uploads'),
    uploadsS3: s3ConfigFromEnv(env),
    uploadMaxBytes: Math.max(1, Number(env.UPLOAD_MAX_BYTES ?? 64 * 1024 * 1024) || 64 * 1024 * 1024),
    bodyMaxBytes: Math.max(1, Number(env.BODY_MAX_BYTES ?? 10 * 1024 * 1024) || 10 * 1024 * 1024),
    headersTimeoutMs: Math.max(1, Number(env.HEADERS_TIMEOUT_MS ?? 20_000) || 20_000),
    requestTimeoutMs: Math.max(0, Number(env.REQUEST_TIMEOUT_MS ?? 300_000) || 0),
    trustProxy: parseTrustProxy(env.TRUST_PROXY),
    proxyHeader: (env.TRUST_PROXY_HEADER ?? '').trim().toLowerCase() === 'forwarded' ? 'forwarded' : 'x-forwarded-for',
    adminUser: env.ADMIN_USER ?? 'admin',
    adminPassword: env.ADMIN_PASSWORD || undefined,
    adminPath: '/' + (env.ADMIN_PATH ?? 'wp-admin').replace(/^\/+|\/+$/g, ''),
    workers: Math.max(1, Number(env.WORKERS ?? 0) || availableParallelism()),
    workerHeapMb: workerHeapMb(env.WORKER_HEAP_MB),
    workerSemiSpaceMb: workerSemiSpaceMb(env.WORKER_SEMI_SPACE_MB),
    maxInFlight: Math.max(1, Number(env.MAX_IN_FLIGHT ?? 512)),
    cacheEntries: Math.max(0, Number(env.CACHE_ENTRIES ?? 5000)),
    cacheMaxBytes: Math.max(0, Number(env.CACHE_MAX_BYTES ?? 16 * 1024 * 1024)) || 16 * 1024 * 1024,
    oembedAllowHosts: (env.OEMBED_ALLOW_HOSTS ?? '').split(',').map((h) => h.trim()).filter(Boolean),
    urlDetailsAllowHosts: (env.URL_DETAILS_ALLOW_HOSTS ?? '').split(',').map((h) => h.trim()).filter(Boolean),
    webhookAllowHosts: (env.WEBHOOK_ALLOW_HOSTS ?? '').split(',').map((h) => h.trim()).filter(Boolean),
    webhookDispatch: env.WEBHOOK_DISPATCH !== 'off',
    webhookRetryDelays: retryDelays(env.WEBHOOK_RETRY_DELAYS),
    webhookLeaseMs: Math.max(100, Number(env.WEBHOOK_LEASE_MS ?? 60_000) || 60_000),
    eventLogHours: eventLogHours(env.EVENT_LOG_HOURS),
    smtpUrl: env.SMTP_URL || null,
    formFilesDir: resolve(env.FORM_FILES_DIR ?? './data/form-files'),
    formRateLimit: Math.max(0, Number(env.FORM_RATE_LIMIT ?? 5)) || 0,
    seoKeyphraseProviderUrl: env.SEO_KEYPHRASE_PROVIDER_URL || null,
    seoRankTrackerUrl: env.SEO_RANK_TRACKER_URL || null,
    seoRankTrackerClientId: env.SEO_RANK_TRACKER_CLIENT_ID || null,
    seoAllowHosts: (env.SEO_ALLOW_HOSTS ?? '').split(',').map((h) => h.trim()).filter(Boolean),
    seoImportChunkSize: Math.max(1, Number(env.SEO_IMPORT_CHUNK ?? 50) || 50),
    loopbackUrl: env.LOOPBACK_URL ? env.LOOPBACK_URL.replace(/\/+$/, '') : null,
    graphqlMaxDepth: Math.max(0, Number(env.GRAPHQL_MAX_DEPTH ?? 12) || 0),
    graphqlMaxCost: Math.max(0, Number(env.GRAPHQL_MAX_COST ?? 25_000) || 0),
    graphqlMaxAliases: Math.max(0, Number(env.GRAPHQL_MAX_ALIASES ?? 30) || 0),
    graphqlMaxFields: Math.max(0, Number(env.GRAPHQL_MAX_FIELDS ?? 500) || 0),
    graphqlMaxStatements: Math.max(0, Number(env.GRAPHQL_MAX_STATEMENTS ?? 500) || 0),
    graphqlPersisted: env.GRAPHQL_PERSISTED === 'allow' || env.GRAPHQL_PERSISTED === 'only' ? env.GRAPHQL_PERSISTED : 'off',
    graphqlPersistedFile: resolve(env.GRAPHQL_PERSISTED_FILE ?? './persisted-operations.json'),
    graphqlIntrospection: env.GRAPHQL_INTROSPECTION !== '0',
    graphiql: env.GRAPHIQL !== '0',
    graphqlApqEntries: Math.max(0, Number(env.GRAPHQL_APQ_ENTRIES ?? 1000) || 0),
    graphqlCacheEntries: Math.max(0, Number(env.GRAPHQL_CACHE_ENTRIES ?? 1000) || 0),
    graphqlCacheMaxBytes: Math.max(0, Number(env.GRAPHQL_CACHE_MAX_BYTES ?? 8 * 1024 * 1024)) || 8 * 1024 * 1024,
    graphqlGetMaxAge: Math.max(0, Math.floor(Number(env.GRAPHQL_GET_MAX_AGE ?? 5)) || 0),
  };
}

export function providerOf(databaseUrl: string): 'sqlite' | 'postgres' {
  return /^postgres(ql)?:\/\//.test(databaseUrl) ? 'postgres' : 'sqlite';
}
