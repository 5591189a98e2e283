// Site health: the checks behind site-health/v1. Each answers WordPress's result object
// (`{label, status, badge, description, actions, test}`, HTML in description and actions), so
// a client written for WordPress's Site Health screen reads them unchanged. The checks look at
// this service's own parts: the database and its migrations, the uploads storage, the response
// cache, whether the server can reach itself, and whether the Authorization header survives the
// way in.
import { randomBytes } from 'node:crypto';
import { mkdir, readdir, rm, stat, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { Db } from '../db/client.js';
import type { Context } from '../context.js';
import { authStatus, restError } from '../errors.js';
import { migrationsFor, sqlitePath } from '../db/migrate.js';
import { escHtml as escapeHtml } from '../content/escape.js';

export type HealthStatus = 'good' | 'recommended' | 'critical';

export interface HealthResult {
  label: string;
  status: HealthStatus;
  badge: { label: string; color: 'blue' | 'green' | 'red' | 'orange' | 'purple' | 'gray' };
  description: string;
  actions: string;
  test: string;
}

export interface HealthOptions {
  /** Public base URL of the site, without a trailing slash. */
  siteUrl: string;
  /** Where the server reaches itself (defaults to siteUrl). */
  loopbackUrl: string;
  restPrefix: string;
  databaseUrl: string;
  /** Local storage directory (used when no bucket is set). */
  uploadsDir: string;
  /** The S3 bucket media goes to, if any. */
  s3?: { bucket: string; endpoint?: string; region: string };
  /** The response cache, when enabled: its capacity and the entries it holds now. */
  cache: () => { capacity: number; entries: number } | null;
}

const p = (text: string) => `<p>${text}</p>`;
const result = (test: string, badge: HealthResult['badge']['label'], r: Pick<HealthResult, 'label' | 'status' | 'description'> & { actions?: string }): HealthResult => ({
  label: r.label, status: r.status, badge: { label: badge, color: 'blue' }, description: r.description, actions: r.actions ?? '', test,
});

/** How long a request of the server to itself may take. */
const LOOPBACK_TIMEOUT_MS = 5000;

// ---------------------------------------------------------------- database

interface AppliedMigration { migration_name: string; checksum: string }

/** The database answers, and every migration this version ships is applied (and nothing unknown). */
export async function databaseCheck(db: Db): Promise<HealthResult> {
  let applied: AppliedMigration[];
  try {
    applied = await db.prisma.$queryRawUnsafe<AppliedMigration[]>(
      'SELECT migration_name, checksum FROM "_prisma_migrations" WHERE finished_at IS NOT NULL AND rolled_back_at IS NULL',
    );
  } catch (err) {
    return result('database', 'Performance', {
      label: 'The database cannot be reached', status: 'critical',
      description: p('The service could not read its migration records from the database.') + p(`<code>${escapeHtml(String((err as Error).message).split('\n')[0])}</code>`),
    });
  }
  const shipped = migrationsFor(db.provider);
  const byName = new Map(applied.map((m) => [m.migration_name, m]));
  const missing = shipped.filter((m) => !byName.has(m.name)).map((m) => m.name);
  const changed = shipped.filter((m) => byName.has(m.name) && byName.get(m.name)!.checksum !== m.checksum).map((m) => m.name);
  const shippedNames = new Set(shipped.map((m) => m.name));
  const unknown = applied.map((m) => m.migration_name).filter((n) => !shippedNames.has(n));
  const list = (names: string[]) => `<ul>${names.map((n) => `<li><code>${escapeHtml(n)}</code></li>`).join('')}</ul>`;
  const provider = db.provider === 'postgres' ? 'PostgreSQL' : 'SQLite';
  if (missing.length) {
    return result('database', 'Performance', {
      label: 'The database is missing migrations', status: 'critical',
      description: p(`The ${provider} database answers, but ${missing.length} of the ${shipped.length} migrations this version ships are not applied:`) + list(missing),
      actions: p('Run <code>npm run db:migrate</code>, or restart the service (it applies pending migrations at start-up).'),
    });
  }
  if (changed.length || unknown.length) {
    return result('database', 'Performance', {
      label: 'The database migrations differ from the ones shipped', status: 'recommended',
      description: p(`The ${provider} database has every migration this version ships, but its records differ:`)
        + (changed.length ? p('Applied with another text:') + list(changed) : '')
        + (unknown.length ? p('Applied, but not shipped with this version:') + list(unknown) : ''),
    });
  }
  return result('database', 'Performance', {
    label: 'The database is reachable and up to date', status: 'good',
    description: p(`The ${provider} database answers, and all ${shipped.length} migrations this version ships are applied.`),
  });
}

// ---------------------------------------------------------------- uploads

/** Bytes of every file under a directory (0 when it does not exist). */
export async function directorySize(dir: string): Promise<number> {
  let total = 0;
  let entries;
  try { entries = await readdir(dir, { withFileTypes: true }); } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return 0;
    throw err;
  }
  for (const e of entries) {
    const path = join(dir, e.name);
    if (e.isDirectory()) total += await directorySize(path);
    else if (e.isFile()) total += (await stat(path)).size;
  }
  return total;
}

/** The uploads directory exists (or can be made) and takes a file; for a bucket, its setting. */
export async function uploadsCheck(o: HealthOptions): Promise<HealthResult> {
  if (o.s3) {
    const where = o.s3.endpoint ? ` at <code>${escapeHtml(o.s3.endpoint)}</code>` : ` in region <code>${escapeHtml(o.s3.region)}</code>`;
    return result('uploads_directory', 'Performance', {
      label: 'Media files are stored in an S3 bucket', status: 'good',
      description: p(`Uploads go to the bucket <code>${escapeHtml(o.s3.bucket)}</code>${where}. The service does not write to a local directory, so no directory is checked.`),
    });
  }
  const probe = join(o.uploadsDir, `.site-health-${randomBytes(6).toString('hex')}`);
  try {
    await mkdir(o.uploadsDir, { recursive: true });
    await writeFile(probe, 'site health');
    await rm(probe, { force: true });
  } catch (err) {
    return result('uploads_directory', 'Performance', {
      label: 'The uploads directory is not writable', status: 'critical',
      description: p('Media uploads will fail: the service cannot write to its uploads directory.') + p(`<code>${escapeHtml((err as NodeJS.ErrnoException).code ?? (err as Error).message)}</code>`),
      actions: p('Give the service user write access to the directory set in <code>UPLOADS_DIR</code>, or set another one.'),
    });
  }
  let size = '';
  try { size = ` It holds ${formatSize(await directorySize(o.uploadsDir))}.`; } catch { /* the size is a courtesy */ }
  return result('uploads_directory', 'Performance', {
    label: 'The uploads directory is writable', status: 'good',
    description: p(`The service can store media files in its uploads directory.${size}`),
  });
}

// ---------------------------------------------------------------- response cache

export function pageCacheCheck(o: HealthOptions): HealthResult {
  const cache = o.cache();
  if (!cache) {
    return result('page_cache', 'Performance', {
      label: 'The response cache is off', status: 'recommended',
      description: p('Anonymous reads are built afresh on every request. A response cache answers repeated reads from memory and is dropped on every write.'),
      actions: p('Set <code>CACHE_ENTRIES</code> to a positive number (the default is 5000).'),
    });
  }
  return result('page_cache', 'Performance', {
    label: 'The response cache is on', status: 'good',
    description: p(`Anonymous reads are answered from memory until the next write. It holds ${cache.entries} of at most ${cache.capacity} responses.`),
  });
}

// ---------------------------------------------------------------- loopback and Authorization

const restIndex = (o: HealthOptions) => `${o.loopbackUrl}${o.restPrefix}/`;

/** The server fetches its own REST index: webhooks-style work and the health checks below need that. */
export async function loopbackCheck(o: HealthOptions): Promise<HealthResult> {
  const url = restIndex(o);
  let failure: string;
  try {
    const res = await fetch(url, { signal: AbortSignal.timeout(LOOPBACK_TIMEOUT_MS), redirect: 'manual', headers: { accept: 'application/json' } });
    const body = await res.json().catch(() => null) as { namespaces?: unknown } | null;
    if (res.status === 200 && Array.isArray(body?.namespaces)) {
      return result('loopback_requests', 'Performance', {
        label: 'Your site can perform loopback requests', status: 'good',
        description: p(`The server reached its own REST index at <code>${escapeHtml(url)}</code>.`),
      });
    }
    failure = `The server answered HTTP ${res.status}${res.status === 200 ? ' without a REST index' : ''}.`;
  } catch (err) {
    const e = err as Error & { cause?: { code?: string } };
    failure = e.name === 'TimeoutError' ? `No answer within ${LOOPBACK_TIMEOUT_MS / 1000} seconds.` : `The request failed: ${e.cause?.code ?? e.message}.`;
  }
  return result('loopback_requests', 'Performance', {
    label: 'Your site could not complete a loopback request', status: 'critical',
    description: p(`The server could not reach its own REST index at <code>${escapeHtml(url)}</code>. ${escapeHtml(failure)}`),
    actions: p('Check that <code>SITE_URL</code> is reachable from the server itself (or set <code>LOOPBACK_URL</code> to an address that is).'),
  });
}

/**
 * As WordPress: a request with made-up Basic credentials, sent the way clients come in (through
 * SITE_URL), must reach the service with its Authorization header. Credentials that do not
 * verify are refused with 401 here, so that answer shows the header arrived; the anonymous
 * answer (200) shows something on the way dropped it.
 */
export async function authorizationHeaderCheck(o: HealthOptions): Promise<HealthResult> {
  const url = `${o.loopbackUrl}${o.restPrefix}/site-health/v1`;
  const probe = 'Basic ' + Buffer.from(`site-health-probe-${randomBytes(4).toString('hex')}:not-a-password`).toString('base64');
  let problem: { label: string; detail: string };
  try {
    const res = await fetch(url, { signal: AbortSignal.timeout(LOOPBACK_TIMEOUT_MS), redirect: 'manual', headers: { authorization: probe, accept: 'application/json' } });
    const body = await res.json().catch(() => null) as { code?: unknown } | null;
    if (res.status === 401 && (body?.code === 'invalid_username' || body?.code === 'incorrect_password')) {
      return result('authorization_header', 'Security', {
        label: 'The Authorization header is working as expected', status: 'good',
        description: p('Requests signed with an application password reach the service with their Authorization header.'),
      });
    }
    problem = res.status === 200
      ? { label: 'The authorization header is missing', detail: 'A request sent with Basic credentials was answered as an anonymous one: the header did not reach the service.' }
      : { label: 'The authorization header could not be checked', detail: `A request sent with Basic credentials was answered with HTTP ${res.status}.` };
  } catch (err) {
    const e = err as Error & { cause?: { code?: string } };
    problem = { label: 'The authorization header could not be checked', detail: `The server could not reach itself: ${e.name === 'TimeoutError' ? 'timeout' : e.cause?.code ?? e.message}.` };
  }
  return result('authorization_header', 'Security', {
    label: problem.label, status: 'recommended',
    description: p('Application passwords are sent in the Authorization header; without it, remote clients cannot sign in.') + p(escapeHtml(problem.detail)),
    actions: p('Make the web server or proxy in front of the service pass the <code>Authorization</code> header on.'),
  });
}

// ---------------------------------------------------------------- HTTPS

export function httpsCheck(o: HealthOptions): HealthResult {
  if (o.siteUrl.toLowerCase().startsWith('https://')) {
    return result('https_status', 'Security', {
      label: 'Your website is using an active HTTPS connection', status: 'good',
      description: p('The site address uses HTTPS, so credentials and content travel encrypted.'),
    });
  }
  return result('https_status', 'Security', {
    label: 'Your website does not use HTTPS', status: 'recommended',
    description: p(`The site address <code>${escapeHtml(o.siteUrl)}</code> is not an HTTPS address: application passwords and content travel unencrypted.`),
    actions: p('Serve the site over HTTPS and set <code>SITE_URL</code> to its <code>https://</code> address.'),
  });
}

// ---------------------------------------------------------------- sizes

/** WordPress's size_format(): binary units, no decimals. */
export function formatSize(bytes: number): string {
  const units = ['B', 'KB', 'MB', 'GB', 'TB'];
  let i = 0;
  while (i < units.length - 1 && bytes >= 1024 ** (i + 1)) i++;
  return `${Math.floor(bytes / 1024 ** i)} ${units[i]}`;
}

export interface SizeEntry { size: string; debug: string; raw: number }
const entry = (bytes: number): SizeEntry => ({ size: formatSize(bytes), debug: `${formatSize(bytes)} (${bytes} bytes)`, raw: bytes });
const unavailable = (why: string): SizeEntry => ({ size: why, debug: why, raw: 0 });

/** The database's bytes: the SQLite file with its write-ahead log, or pg_database_size. */
export async function databaseSize(db: Db, databaseUrl: string): Promise<number> {
  if (db.provider === 'postgres') {
    const rows = await db.prisma.$queryRawUnsafe<{ size: bigint | number | string }[]>('SELECT pg_database_size(current_database()) AS size');
    return Number(rows[0]?.size ?? 0);
  }
  const file = sqlitePath(databaseUrl);
  let total = 0;
  for (const path of [file, `${file}-wal`]) {
    try { total += (await stat(path)).size; } catch { /* no log yet */ }
  }
  return total;
}

/** `{uploads_size, database_size, total_size}` in WordPress's `{size, debug, raw}` shape. */
export async function directorySizes(db: Db, o: HealthOptions): Promise<Record<string, SizeEntry>> {
  const out: Record<string, SizeEntry> = {};
  let total = 0;
  if (o.s3) out.uploads_size = unavailable(`Not available: media files are stored in the S3 bucket ${o.s3.bucket}.`);
  else {
    try { const bytes = await directorySize(o.uploadsDir); out.uploads_size = entry(bytes); total += bytes; } catch {
      out.uploads_size = unavailable('The size cannot be calculated. The directory is not accessible.');
    }
  }
  try { const bytes = await databaseSize(db, o.databaseUrl); out.database_size = entry(bytes); total += bytes; } catch {
    out.database_size = unavailable('The size cannot be calculated. The database is not accessible.');
  }
  out.total_size = entry(total);
  return out;
}

// ---------------------------------------------------------------- the tests by name, for REST and GraphQL

/** The tests of site-health/v1/tests/{test}, by their route name. */
export const HEALTH_TESTS: Record<string, (db: Db, o: HealthOptions) => Promise<HealthResult>> = {
  database: (db) => databaseCheck(db),
  'uploads-directory': (_db, o) => uploadsCheck(o),
  'page-cache': async (_db, o) => pageCacheCheck(o),
  'loopback-requests': (_db, o) => loopbackCheck(o),
  'authorization-header': (_db, o) => authorizationHeaderCheck(o),
  'https-status': async (_db, o) => httpsCheck(o),
};

/** Administrators only (manage_options), refused with WordPress's rest_forbidden. */
export function requireManageOptions(ctx: Context): void {
  if (!ctx.viewer || !ctx.can('manage_options')) throw restError('rest_forbidden', 'Sorry, you are not allowed to do that.', authStatus(!!ctx.viewer));
}

/**
 * The app's settings of the checks (among its services), so that GraphQL runs them as the REST
 * routes do; without them (code outside an app) the checks are not served (rest_no_route, as REST).
 */
export function healthOptions(ctx: Context): HealthOptions {
  const o = ctx.services.siteHealth;
  if (!o) throw restError('rest_no_route', 'No route was found matching the URL and request method.', 404);
  return o;
}
