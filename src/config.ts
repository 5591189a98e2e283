// Service configuration, read once from the environment. Every setting is optional.
import { availableParallelism } from 'node:os';
import { resolve } from 'node:path';

export type Deployment = 'A' | 'B';

export interface Config {
  port: number;
  host: string;
  /** Public base URL of the site, without a trailing slash. */
  siteUrl: string;
  databaseUrl: string;
  restPrefix: string;
  /** `B` also serves the seo/v1 namespace. */
  deployment: Deployment;
  /** Where media files go; read by the media routes (not built yet). */
  uploadsDir: string;
  adminUser: string;
  adminPassword: string | undefined;
  adminPath: string;
  /** Worker processes; defaults to the number of cores. */
  workers: number;
  /** Requests one process works on at once before answering 503. */
  maxInFlight: number;
  /** Entries in the shaped-response cache (0 disables it). */
  cacheEntries: number;
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
    adminUser: env.ADMIN_USER ?? 'admin',
    adminPassword: env.ADMIN_PASSWORD || undefined,
    adminPath: '/' + (env.ADMIN_PATH ?? 'wp-admin').replace(/^\/+|\/+$/g, ''),
    workers: Math.max(1, Number(env.WORKERS ?? 0) || availableParallelism()),
    maxInFlight: Math.max(1, Number(env.MAX_IN_FLIGHT ?? 512)),
    cacheEntries: Math.max(0, Number(env.CACHE_ENTRIES ?? 5000)),
  };
}

export function providerOf(databaseUrl: string): 'sqlite' | 'postgres' {
  return /^postgres(ql)?:\/\//.test(databaseUrl) ? 'postgres' : 'sqlite';
}
