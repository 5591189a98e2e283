// A closed database handle sends nothing more (src/db/client.ts, Db.closed): its statements and
// its version throw, it does not connect again, and the background work of an app that was never
// closed (its webhook dispatcher) stops instead of using, or trying to reach, the database. Before
// this, Prisma connected again for any statement sent after `$disconnect`, and on PostgreSQL an
// abandoned dispatcher kept a pool of connections busy; once its database was dropped, it tried
// to connect several times a second for the rest of the process.
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { createTestSite, provider, service, type TestSite } from '../helpers/app.js';
import { createWebhookDispatcher } from '../../src/webhooks/dispatcher.js';

let site: TestSite;
beforeAll(async () => { site = await createTestSite(); });
afterAll(async () => { await site?.close(); });

/** A URL of the site's database whose connections say who made them (PostgreSQL), or the site's own. */
const NAME = 'closed-handle-test';
const url = () => (provider === 'postgres' ? `${site.app.config.databaseUrl}${site.app.config.databaseUrl.includes('?') ? '&' : '?'}application_name=${NAME}` : site.app.config.databaseUrl);

/** The server's connections made through `url()` (PostgreSQL). */
async function connections(): Promise<number> {
  const c = new pg.Client({ connectionString: site.app.config.databaseUrl });
  await c.connect();
  try {
    const { rows } = await c.query<{ n: number }>('SELECT count(*)::int AS n FROM pg_stat_activity WHERE datname = current_database() AND application_name = $1', [NAME]);
    return rows[0].n;
  } finally { await c.end(); }
}

describe('a closed handle', () => {
  it('refuses statements, direct reads and version(), and says it is closed', async () => {
    const db = await service.openDb(url());
    expect(await db.prisma.content.count()).toBeGreaterThanOrEqual(0);
    expect(db.closed).toBe(false);
    await db.close();
    expect(db.closed).toBe(true);
    await expect(db.prisma.content.count()).rejects.toThrow(/the database handle is closed/);
    await expect(db.read('SELECT 1 AS "one"', [])).rejects.toThrow(/the database handle is closed/);
    expect(() => db.version()).toThrow(/the database handle is closed/);
  });

  it.runIf(provider === 'postgres')('does not connect again (PostgreSQL)', async () => {
    const db = await service.openDb(url());
    await db.prisma.content.count();
    expect(await connections()).toBeGreaterThan(0);
    await db.close();
    expect(await connections()).toBe(0);
    await expect(db.prisma.content.findMany({ take: 1 })).rejects.toThrow(/the database handle is closed/);
    await expect(db.read('SELECT 1 AS "one"', [])).rejects.toThrow(/the database handle is closed/);
    expect(await connections()).toBe(0);
  });

  it('stops a dispatcher nobody stopped at its next look', async () => {
    const db = await service.openDb(url());
    vi.useFakeTimers({ toFake: ['setInterval', 'clearInterval'] });
    try {
      const dispatcher = createWebhookDispatcher(db, { pollMs: 100 });
      dispatcher.start();
      expect(vi.getTimerCount()).toBe(1);
      await db.close();
      await vi.advanceTimersByTimeAsync(100);
      expect(vi.getTimerCount()).toBe(0);
      await dispatcher.stop();
    } finally { vi.useRealTimers(); }
  });
});
