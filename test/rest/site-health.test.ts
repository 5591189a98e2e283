// site-health/v1: every test on a healthy site and on one where the condition is broken, the
// directory sizes against the disk and the database, and who may ask (manage_options).
// Loopback requests go to a real listening server on 127.0.0.1; nothing leaves the machine.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { chmodSync, mkdtempSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { connect, createServer as createNetServer } from 'node:net';
import { createServer, request as httpRequest, type Server } from 'node:http';
import { randomUUID } from 'node:crypto';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { AddressInfo } from 'node:net';
import { createTestSite, provider, type TestSite, service } from '../helpers/app.js';
import { migrationsFor, sqlitePath } from '../../src/db/migrate.js';
import { ROLES } from '../../src/auth/capabilities.js';

const TESTS = ['database', 'uploads-directory', 'page-cache', 'loopback-requests', 'authorization-header', 'https-status'];
const ROUTES = [...TESTS.map((t) => `/site-health/v1/tests/${t}`), '/site-health/v1/directory-sizes'];

/** A loopback port nothing listens on (bound, then released). */
async function freePort(): Promise<number> {
  const s = createNetServer();
  await new Promise<void>((resolve) => s.listen(0, '127.0.0.1', resolve));
  const port = (s.address() as AddressInfo).port;
  await new Promise((resolve) => s.close(resolve));
  return port;
}

/**
 * A loopback port that refuses connections and that no other test's server will take: below the
 * range the system hands out for port 0 (32768 and up here), where every test server listens. A
 * released port of that range was once taken by another test file's server before the check
 * reached it (it answered 404 instead of refusing). Port 1 and the like are no use: fetch refuses
 * them itself.
 */
async function closedPort(): Promise<number> {
  for (let i = 0; i < 50; i++) {
    const port = 20_000 + Math.floor(Math.random() * 5_000);
    const refused = await new Promise<boolean>((resolve) => {
      const socket = connect(port, '127.0.0.1');
      socket.once('connect', () => { socket.destroy(); resolve(false); });
      socket.once('error', (err: NodeJS.ErrnoException) => resolve(err.code === 'ECONNREFUSED'));
    });
    if (refused) return port;
  }
  throw new Error('no closed port found between 20000 and 25000');
}

const listen = async (server: Server) => {
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return (server.address() as AddressInfo).port;
};
const close = (server: Server | undefined) => server && new Promise((resolve) => { server.closeAllConnections(); server.close(resolve); });

/** A proxy on loopback that passes requests on to `port` without their Authorization header. */
function strippingProxy(port: number): Server {
  return createServer((req, res) => {
    const headers = { ...req.headers };
    delete headers.authorization;
    const out = httpRequest({ host: '127.0.0.1', port, path: req.url, method: req.method, headers }, (upstream) => {
      res.writeHead(upstream.statusCode ?? 502, upstream.headers);
      upstream.pipe(res);
    });
    out.on('error', () => { res.writeHead(502); res.end(); });
    req.pipe(out);
  });
}

let healthy: TestSite;
let broken: TestSite;
let proxied: TestSite;
let server: Server | undefined;
let proxy: Server | undefined;
const dirs: string[] = [];
let uploads = '';

const tmp = (prefix: string) => { const d = mkdtempSync(join(tmpdir(), prefix)); dirs.push(d); return d; };
const check = async (site: TestSite, test: string) => {
  const res = await site.req('GET', `/site-health/v1/tests/${test}`, { as: 'administrator' });
  expect(res.status, res.text).toBe(200);
  return res.body;
};

/** An uploads directory the service cannot write: a read-only directory, or (as root, whom modes do not stop) a path under a file. */
function unwritableDir(): string {
  const dir = tmp('health-ro-');
  if (process.getuid?.() === 0) {
    writeFileSync(join(dir, 'a-file'), 'x');
    return join(dir, 'a-file', 'uploads');
  }
  chmodSync(dir, 0o500);
  return dir;
}

beforeAll(async () => {
  uploads = tmp('health-uploads-');
  const port = await freePort();
  healthy = await createTestSite({ uploadsDir: uploads, loopbackUrl: `http://127.0.0.1:${port}` });
  server = service.createHttpServer(healthy.app);
  await new Promise<void>((resolve) => server!.listen(port, '127.0.0.1', resolve));

  broken = await createTestSite({
    siteUrl: 'https://site.test', loopbackUrl: `http://127.0.0.1:${await closedPort()}`, uploadsDir: unwritableDir(), cacheEntries: 0,
  });

  proxy = strippingProxy(port);
  const proxyPort = await listen(proxy);
  proxied = await createTestSite({
    loopbackUrl: `http://127.0.0.1:${proxyPort}`,
    uploadsS3: { bucket: 'health-media', region: 'eu-west-1', forcePathStyle: false, publicUrl: 'https://media.example' },
  });
});

afterAll(async () => {
  await close(server);
  await close(proxy);
  await healthy?.close();
  await broken?.close();
  await proxied?.close();
  for (const d of dirs) { try { chmodSync(d, 0o700); } catch { /* gone */ } rmSync(d, { recursive: true, force: true }); }
});

describe('site-health/v1 permissions', () => {
  it('answers administrators only: 401 rest_forbidden anonymous, 403 for other roles', async () => {
    for (const route of ROUTES) {
      const anon = await healthy.req('GET', route);
      expect([anon.status, anon.body.code], route).toEqual([401, 'rest_forbidden']);
      for (const role of ROLES.filter((r) => r !== 'administrator')) {
        const res = await healthy.req('GET', route, { as: role });
        expect([res.status, res.body.code], `${route} as ${role}`).toEqual([403, 'rest_forbidden']);
      }
    }
  });

  it('lists every route in the namespace index, and describes a test result on OPTIONS', async () => {
    const index = await healthy.req('GET', '/site-health/v1');
    expect(Object.keys(index.body.routes).sort()).toEqual(['/site-health/v1', ...ROUTES].sort());
    const options = await healthy.req('OPTIONS', '/site-health/v1/tests/database');
    expect(options.body.schema.title).toBe('wp-site-health-test');
    expect(options.body.schema.properties.status.enum).toEqual(['good', 'recommended', 'critical']);
  });
});

describe('site-health/v1 tests', () => {
  it('answers WordPress\'s result object for every test', async () => {
    for (const test of TESTS) {
      const body = await check(healthy, test);
      expect(Object.keys(body).sort(), test).toEqual(['actions', 'badge', 'description', 'label', 'status', 'test']);
      expect(body.test).toBe(test.replaceAll('-', '_'));
      expect(['good', 'recommended', 'critical']).toContain(body.status);
      expect(Object.keys(body.badge).sort()).toEqual(['color', 'label']);
      expect(body.description).toMatch(/^<p>/);
    }
  });

  it('database: good when every shipped migration is applied', async () => {
    const body = await check(healthy, 'database');
    expect(body.status).toBe('good');
    expect(body.description).toContain(`all ${migrationsFor(provider).length} migrations`);
  });

  it('database: critical when a shipped migration has no record, recommended for a record of no shipped one', async () => {
    const last = migrationsFor(provider).at(-1)!.name;
    const q = (sql: string) => healthy.db.prisma.$executeRawUnsafe(sql.replaceAll('?', provider === 'postgres' ? '$1' : '?'), last);
    await q('UPDATE "_prisma_migrations" SET rolled_back_at = finished_at WHERE migration_name = ?');
    try {
      const body = await check(healthy, 'database');
      expect(body.status).toBe('critical');
      expect(body.label).toBe('The database is missing migrations');
      expect(body.description).toContain(`<code>${last}</code>`);
    } finally {
      await q('UPDATE "_prisma_migrations" SET rolled_back_at = NULL WHERE migration_name = ?');
    }
    const extra = '29991231000000_from_a_newer_version';
    const now = provider === 'postgres' ? 'now()' : String(Date.now());
    await healthy.db.prisma.$executeRawUnsafe(
      `INSERT INTO "_prisma_migrations" (id, checksum, finished_at, migration_name, started_at, applied_steps_count) VALUES ('${randomUUID()}', 'x', ${now}, '${extra}', ${now}, 1)`,
    );
    try {
      const body = await check(healthy, 'database');
      expect(body.status).toBe('recommended');
      expect(body.description).toContain(`<code>${extra}</code>`);
    } finally {
      await healthy.db.prisma.$executeRawUnsafe(`DELETE FROM "_prisma_migrations" WHERE migration_name = '${extra}'`);
    }
    expect((await check(healthy, 'database')).status).toBe('good');
  });

  it('uploads-directory: good and sized when writable, critical when not, the bucket with S3', async () => {
    writeFileSync(join(uploads, 'sized.bin'), Buffer.alloc(3 * 1024));
    const good = await check(healthy, 'uploads-directory');
    expect(good.status).toBe('good');
    expect(good.description).toContain('It holds 3 KB.');
    const bad = await check(broken, 'uploads-directory');
    expect([bad.status, bad.label]).toEqual(['critical', 'The uploads directory is not writable']);
    const s3 = await check(proxied, 'uploads-directory');
    expect(s3.status).toBe('good');
    expect(s3.description).toContain('<code>health-media</code>');
    expect(s3.description).toContain('<code>eu-west-1</code>');
  });

  it('page-cache: good with the entries it holds, recommended when off', async () => {
    // Each answered twice: the cache keeps an answer the second time.
    for (const path of ['/core/v2/posts', '/core/v2/pages', '/core/v2/posts', '/core/v2/pages']) await healthy.req('GET', path);
    const held = healthy.app.cache!.size;
    expect(held).toBeGreaterThanOrEqual(2);
    const on = await check(healthy, 'page-cache');
    expect(on.status).toBe('good');
    expect(on.description).toContain(`It holds ${held} of at most ${healthy.app.config.cacheEntries} responses.`);
    const off = await check(broken, 'page-cache');
    expect([off.status, off.label]).toEqual(['recommended', 'The response cache is off']);
  });

  it('loopback-requests: good when the server reaches its REST index, critical on a closed port', async () => {
    const good = await check(healthy, 'loopback-requests');
    expect([good.status, good.label]).toEqual(['good', 'Your site can perform loopback requests']);
    const bad = await check(broken, 'loopback-requests');
    expect([bad.status, bad.label]).toEqual(['critical', 'Your site could not complete a loopback request']);
    expect(bad.description).toContain('ECONNREFUSED');
  });

  it('authorization-header: good when the header arrives, recommended when a proxy drops it or the server is unreachable', async () => {
    const good = await check(healthy, 'authorization-header');
    expect([good.status, good.label]).toEqual(['good', 'The Authorization header is working as expected']);
    const dropped = await check(proxied, 'authorization-header');
    expect([dropped.status, dropped.label]).toEqual(['recommended', 'The authorization header is missing']);
    const unreachable = await check(broken, 'authorization-header');
    expect([unreachable.status, unreachable.label]).toEqual(['recommended', 'The authorization header could not be checked']);
  });

  it('https-status: recommended for an http site address, good for https', async () => {
    const plain = await check(healthy, 'https-status');
    expect([plain.status, plain.label]).toEqual(['recommended', 'Your website does not use HTTPS']);
    const secure = await check(broken, 'https-status');
    expect([secure.status, secure.label]).toEqual(['good', 'Your website is using an active HTTPS connection']);
  });
});

describe('site-health/v1/directory-sizes', () => {
  async function databaseBytes(site: TestSite): Promise<number> {
    if (provider === 'postgres') {
      const rows = await site.db.prisma.$queryRawUnsafe<{ n: bigint }[]>('SELECT pg_database_size(current_database()) AS n');
      return Number(rows[0].n);
    }
    const file = sqlitePath(site.app.config.databaseUrl);
    let n = statSync(file).size;
    try { n += statSync(`${file}-wal`).size; } catch { /* no log */ }
    return n;
  }

  it('sizes the uploads directory and the database, and their total, as {size, debug, raw}', async () => {
    const dir = join(uploads, '2026', '11');
    rmSync(join(uploads, 'sized.bin'), { force: true });
    await import('node:fs/promises').then((fs) => fs.mkdir(dir, { recursive: true }));
    writeFileSync(join(dir, 'a.bin'), Buffer.alloc(1500));
    writeFileSync(join(uploads, 'b.bin'), Buffer.alloc(600));
    const res = await healthy.req('GET', '/site-health/v1/directory-sizes', { as: 'administrator' });
    expect(res.status).toBe(200);
    expect(Object.keys(res.body).sort()).toEqual(['database_size', 'total_size', 'uploads_size']);
    expect(res.body.uploads_size).toEqual({ size: '2 KB', debug: '2 KB (2100 bytes)', raw: 2100 });
    // Measured around the request: the database may grow between two reads (PostgreSQL's size moves with its own bookkeeping).
    const db = res.body.database_size.raw;
    expect(db).toBeGreaterThan(0);
    expect(Math.abs(db - (await databaseBytes(healthy)))).toBeLessThanOrEqual(provider === 'postgres' ? 1024 * 1024 : 64 * 1024);
    expect(res.body.total_size.raw).toBe(2100 + db);
  });

  it('reports the bucket instead of a size with S3', async () => {
    const res = await proxied.req('GET', '/site-health/v1/directory-sizes', { as: 'administrator' });
    expect(res.status).toBe(200);
    expect(res.body.uploads_size.raw).toBe(0);
    expect(res.body.uploads_size.size).toContain('health-media');
    expect(res.body.total_size.raw).toBe(res.body.database_size.raw);
  });
});
