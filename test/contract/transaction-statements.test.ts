// The hand-written statements of a write transaction (src/db/sql.ts txStatements) run on the
// connection that transaction holds, past Prisma's client: they see its uncommitted rows, are
// undone with it, and (PostgreSQL) announce their writes at commit. On PostgreSQL each concurrent
// transaction gets its own connection's statements.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestSite, provider, type TestSite } from '../helpers/app.js';
import { txStatements } from '../../src/db/sql.js';

let site: TestSite;
beforeAll(async () => { site = await createTestSite({ cacheEntries: 0 }); });
afterAll(async () => { await site?.close(); });

const pg = provider === 'postgres';
const p = (i: number) => (pg ? `$${i}` : '?');
const termCount = async (slug: string) => Number((await site.db.read(`SELECT COUNT(*) AS n FROM "Term" WHERE "slug" = ${p(1)}`, [slug]))[0].n);

describe('transaction statements', () => {
  it('run on the transaction\'s own connection, outside Prisma\'s client', async () => {
    expect(site.db.transactionStatement?.() ?? null).toBeNull();
    let direct: unknown;
    let seen: unknown[] = [];
    const before = site.db.statements;
    await site.db.prisma.$transaction(async (tx) => {
      await tx.term.create({ data: { taxonomy: 'post_tag', name: 'Inside', slug: 'tx-inside' } });
      const statements = txStatements(tx, site.db);
      direct = pg ? site.db.transactionStatement!() : site.db.inTransaction;
      // The row is not committed yet: only the transaction's connection sees it.
      seen = await statements.query(`SELECT "slug" FROM "Term" WHERE "slug" = ${p(1)}`, 'tx-inside');
      expect(await termCount('tx-inside')).toBe(0);
      expect(statements.announces).toBe(pg);
    });
    expect(typeof direct).toBe('function');
    expect(seen).toEqual([{ slug: 'tx-inside' }]);
    expect(await termCount('tx-inside')).toBe(1);
    // create, the direct SELECT, the count outside, and the transaction's own BEGIN/COMMIT at most.
    expect(site.db.statements - before).toBeGreaterThanOrEqual(3);
  });

  it('are undone with the transaction', async () => {
    await expect(site.db.prisma.$transaction(async (tx) => {
      await tx.term.create({ data: { taxonomy: 'post_tag', name: 'Undone', slug: 'tx-undone' } });
      await txStatements(tx, site.db).execute(`UPDATE "Term" SET "name" = ${p(1)} WHERE "slug" = ${p(2)}`, 'Undone, renamed', 'tx-undone');
      throw new Error('undo');
    })).rejects.toThrow('undo');
    expect(await termCount('tx-undone')).toBe(0);
  });

  it.skipIf(!pg)('announce their own writes at commit, and only then (PostgreSQL)', async () => {
    const [row] = await site.db.read(`INSERT INTO "Term" ("taxonomy", "name", "slug") VALUES ('post_tag', 'Announced', 'tx-announced') RETURNING "id"`, []);
    const id = Number(row.id);
    const version = site.db.version();
    let during = -1;
    await site.db.prisma.$transaction(async (tx) => {
      // The transaction's only write goes past Prisma.
      await txStatements(tx, site.db).execute(`UPDATE "Term" SET "name" = $1 WHERE "id" = $2`, 'Announced, renamed', id);
      during = site.db.version();
    });
    expect(during).toBe(version);
    expect(site.db.version()).toBeGreaterThan(version);
    const rolledBack = site.db.version();
    await expect(site.db.prisma.$transaction(async (tx) => {
      await txStatements(tx, site.db).execute(`UPDATE "Term" SET "name" = $1 WHERE "id" = $2`, 'Never', id);
      throw new Error('undo');
    })).rejects.toThrow('undo');
    expect(site.db.version()).toBe(rolledBack);
  });

  it.skipIf(!pg)('keep two concurrent transactions apart (PostgreSQL)', async () => {
    /** Resolves for everyone once all `n` have arrived. */
    const meeting = (n: number) => {
      let arrived = 0;
      let open!: () => void;
      const all = new Promise<void>((resolve) => { open = resolve; });
      return () => { if (++arrived === n) open(); return all; };
    };
    // Both rows are written before either reads, and both read before either commits.
    const written = meeting(2);
    const read = meeting(2);
    const run = (slug: string) => site.db.prisma.$transaction(async (tx) => {
      await tx.term.create({ data: { taxonomy: 'post_tag', name: slug, slug } });
      await written();
      const rows = await txStatements(tx, site.db).query<{ slug: string }>(`SELECT "slug" FROM "Term" WHERE "slug" IN ('tx-a', 'tx-b') ORDER BY "slug"`);
      await read();
      return rows.map((r) => r.slug);
    });
    // Each sees its own uncommitted row and not the other's.
    expect(await Promise.all([run('tx-a'), run('tx-b')])).toEqual([['tx-a'], ['tx-b']]);
  });

  describe('the last statement (finish)', () => {
    it('commits with it on PostgreSQL (the write is visible before the transaction returns); an ordinary statement on SQLite', async () => {
      const [row] = await site.db.read(`INSERT INTO "Term" ("taxonomy", "name", "slug") VALUES ('post_tag', 'Last', 'tx-last') RETURNING "id"`, []);
      const id = Number(row.id);
      const version = site.db.version();
      let seenBeforeReturn = -1;
      let returned: unknown[] = [];
      await site.db.prisma.$transaction(async (tx) => {
        await tx.term.update({ where: { id }, data: { name: 'Last, first step' } });
        returned = await txStatements(tx, site.db).finish<{ count: number }>(`UPDATE "Term" SET "count" = "count" + ${p(1)} WHERE "id" = ${p(2)} RETURNING "count"`, 5, id);
        // Read on another connection, still inside the callback.
        seenBeforeReturn = Number((await site.db.read(`SELECT "count" FROM "Term" WHERE "id" = ${p(1)}`, [id]))[0].count);
      });
      expect(returned.map((r) => Number((r as { count: number }).count))).toEqual([5]);
      // PostgreSQL committed with the statement; SQLite's one connection is the transaction's, and
      // the reads' connection sees only what is committed.
      expect(seenBeforeReturn).toBe(pg ? 5 : 0);
      const stored = await site.db.read(`SELECT "name", "count" FROM "Term" WHERE "id" = ${p(1)}`, [id]);
      expect(stored.map((r) => [r.name, Number(r.count)])).toEqual([['Last, first step', 5]]);
      expect(site.db.version()).toBeGreaterThan(version);
    });

    it.skipIf(!pg)('lets nothing run after it, and takes integers only (PostgreSQL)', async () => {
      const [row] = await site.db.read(`INSERT INTO "Term" ("taxonomy", "name", "slug") VALUES ('post_tag', 'After', 'tx-after') RETURNING "id"`, []);
      const id = Number(row.id);
      await expect(site.db.prisma.$transaction(async (tx) => {
        const statements = txStatements(tx, site.db);
        await statements.finish(`UPDATE "Term" SET "count" = $1 WHERE "id" = $2`, 1, id);
        await statements.query(`UPDATE "Term" SET "count" = 2 WHERE "id" = $1`, id);
      })).rejects.toThrow(/no statement may follow/);
      expect(Number((await site.db.read(`SELECT "count" FROM "Term" WHERE "id" = $1`, [id]))[0].count)).toBe(1);
      await expect(site.db.prisma.$transaction(async (tx) => {
        await txStatements(tx, site.db).finish(`UPDATE "Term" SET "name" = $1 WHERE "id" = $2`, 'text', id);
      })).rejects.toThrow(/only integers/);
      expect((await site.db.read(`SELECT "name" FROM "Term" WHERE "id" = $1`, [id]))[0].name).toBe('After');
    });

    it.skipIf(!pg)('a failing last statement leaves nothing of the transaction, and the connection serves the next one (PostgreSQL)', async () => {
      await expect(site.db.prisma.$transaction(async (tx) => {
        await tx.term.create({ data: { taxonomy: 'post_tag', name: 'Failing last', slug: 'tx-failing-last' } });
        await txStatements(tx, site.db).finish(`UPDATE "Term" SET "count" = 1 / ($1 - 1) WHERE "slug" = 'tx-failing-last'`, 1);
      })).rejects.toThrow();
      expect(await termCount('tx-failing-last')).toBe(0);
      // Every pooled connection still works inside a transaction.
      for (let i = 0; i < 12; i++) {
        await site.db.prisma.$transaction(async (tx) => {
          await tx.term.create({ data: { taxonomy: 'post_tag', name: `After failing ${i}`, slug: `tx-after-failing-${i}` } });
          await txStatements(tx, site.db).finish(`UPDATE "Term" SET "count" = $1 WHERE "slug" = 'tx-after-failing-${i}'`, i);
        });
      }
      expect(await termCount('tx-after-failing-11')).toBe(1);
    });
  });
});
