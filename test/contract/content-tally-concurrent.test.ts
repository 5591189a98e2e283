// The content tallies under concurrent writers. PostgreSQL's row triggers append deltas and a
// deferred trigger folds them in at commit in the order of the tally key, so writers that link the
// same terms in different orders neither wait on each other while they write nor deadlock when
// they commit; afterwards every tally equals COUNT(*). (SQLite runs writes one at a time: the REST
// case checks the same totals there.)
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestSite, provider, type TestSite } from '../helpers/app.js';
import { pgBase } from '../helpers/template.js';

let site: TestSite;
beforeAll(async () => { site = await createTestSite(); });
afterAll(async () => { await site?.close(); });

const WRITERS = 20;

/** The orders of `items` a writer links them in: every writer its own permutation of the five. */
function permutation<T>(items: T[], k: number): T[] {
  const rest = [...items];
  const out: T[] = [];
  for (let n = rest.length; n > 0; n--) {
    out.push(rest.splice(k % n, 1)[0]);
    k = Math.floor(k / n);
  }
  return out;
}

/** Every tally that differs from COUNT(*) over the rows (a missing tally row counts as 0). */
async function mismatches(): Promise<string[]> {
  const key = (r: Record<string, unknown>) => `${r.type}|${r.status}|${r.authorId}|${r.termId}`;
  const kept = new Map<string, number>();
  // A tally is the sum of its slots (PostgreSQL stripes it; SQLite keeps slot 0).
  for (const r of await site.db.read('SELECT "type", "status", "authorId", "termId", SUM("count") AS "n" FROM "ContentTally" GROUP BY "type", "status", "authorId", "termId"', [])) {
    if (Number(r.n) !== 0) kept.set(key(r), Number(r.n));
  }
  const counted = new Map<string, number>();
  const rows = [
    ...(await site.db.read('SELECT "type", "status", 0 AS "authorId", 0 AS "termId", COUNT(*) AS "n" FROM "Content" GROUP BY "type", "status"', [])),
    ...(await site.db.read('SELECT "type", "status", "authorId", 0 AS "termId", COUNT(*) AS "n" FROM "Content" GROUP BY "type", "status", "authorId"', [])),
    ...(await site.db.read('SELECT c."type", c."status", 0 AS "authorId", r."termId", COUNT(*) AS "n" FROM "TermRelationship" r JOIN "Content" c ON c."id" = r."contentId" GROUP BY c."type", c."status", r."termId"', [])),
  ];
  for (const r of rows) counted.set(key(r), Number(r.n));
  const wrong: string[] = [];
  for (const k of new Set([...kept.keys(), ...counted.keys()])) {
    if ((kept.get(k) ?? 0) !== (counted.get(k) ?? 0)) wrong.push(`${k}: tally ${kept.get(k) ?? 0}, COUNT(*) ${counted.get(k) ?? 0}`);
  }
  return wrong;
}

describe('content tallies under concurrent writers', () => {
  it(`${WRITERS} concurrent REST creates linking the same five terms in different orders all succeed, and the totals stay exact`, async () => {
    const terms = [
      ...(await Promise.all([0, 1, 2].map((i) => site.createTerm('categories', { name: `rest tally cat ${i}` })))).map((t) => ({ id: t.id as number, route: 'categories' })),
      ...(await Promise.all([0, 1].map((i) => site.createTerm('tags', { name: `rest tally tag ${i}` })))).map((t) => ({ id: t.id as number, route: 'tags' })),
    ];
    const answers = await Promise.all(Array.from({ length: WRITERS }, (_, i) => {
      const order = permutation(terms, i * 7);
      const json = {
        title: `concurrent ${i}`, status: i % 4 === 3 ? 'draft' : 'publish',
        categories: order.filter((t) => t.route === 'categories').map((t) => t.id),
        tags: order.filter((t) => t.route === 'tags').map((t) => t.id),
      };
      return site.req('POST', '/core/v2/posts', { as: 'administrator', json });
    }));
    for (const res of answers) expect(res.status, res.text.slice(0, 300)).toBe(201);

    expect(await mismatches()).toEqual([]);
    for (const t of terms) {
      const res = await site.req('GET', `/core/v2/posts?${t.route}=${t.id}&per_page=1`);
      expect(res.status).toBe(200);
      // Writers 3, 7, 11, 15 and 19 made drafts; the list shows the published ones.
      expect(Number(res.headers.get('x-wp-total')), `${t.route} ${t.id}`).toBe(WRITERS - 5);
    }
  });

  it.runIf(provider === 'postgres')(`${WRITERS} transactions open at once, each writing a post and its five links in its own order, all commit`, async () => {
    const termIds = (await Promise.all([0, 1, 2, 3, 4].map((i) => site.createTerm(i < 3 ? 'categories' : 'tags', { name: `open tally term ${i}` })))).map((t) => t.id as number);
    const taxonomy = (i: number) => (i < 3 ? 'category' : 'post_tag');
    const [{ d: name }] = await site.db.read('SELECT current_database() AS "d"', []);
    const url = new URL(pgBase());
    url.pathname = `/${String(name)}`;
    const clients = Array.from({ length: WRITERS }, () => new pg.Client({ connectionString: url.toString() }));
    await Promise.all(clients.map((c) => c.connect()));
    try {
      const before = Number((await site.db.read(`SELECT SUM("count") AS "n" FROM "ContentTally" WHERE "type" = 'post' AND "status" = 'publish' AND "authorId" = 0 AND "termId" = 0`, []))[0]?.n ?? 0);
      // Each writes everything before any commits. Were a tally row locked while writing (the
      // first design: row triggers adding to the tallies at once), the second writer would wait on
      // the type's row here; the lock timeout turns such a wait into an error instead of a hang.
      await Promise.all(clients.map(async (c, i) => {
        await c.query('BEGIN');
        await c.query(`SET LOCAL lock_timeout = '20s'`);
        const { rows: [post] } = await c.query(
          `INSERT INTO "Content" ("type", "status", "authorId", "title", "date", "dateGmt", "modified", "modifiedGmt")
           VALUES ('post', 'publish', $1, $2, now(), now(), now(), now()) RETURNING "id"`,
          [site.users.administrator.id, `open writer ${i}`],
        );
        for (const [order, term] of permutation(termIds.map((id, k) => [k, id] as const), i * 11).entries()) {
          await c.query('INSERT INTO "TermRelationship" ("contentId", "termId", "taxonomy", "termOrder") VALUES ($1, $2, $3, $4)', [post.id, term[1], taxonomy(term[0]), order]);
        }
      }));
      // While they are open, none of them holds a tally row: another session locks every one
      // without waiting (NOWAIT fails at once on a row a writer has locked).
      const probe = new pg.Client({ connectionString: url.toString() });
      await probe.connect();
      try {
        const locked = await probe.query('SELECT COUNT(*)::int AS "n" FROM (SELECT 1 FROM "ContentTally" FOR UPDATE NOWAIT) AS "t"').then(() => 'none', (err: Error) => err.message);
        expect(locked).toBe('none');
      } finally { await probe.end(); }
      const during = Number((await site.db.read(`SELECT SUM("count") AS "n" FROM "ContentTally" WHERE "type" = 'post' AND "status" = 'publish' AND "authorId" = 0 AND "termId" = 0`, []))[0]?.n ?? 0);
      expect(during).toBe(before);
      const commits = await Promise.allSettled(clients.map((c) => c.query('COMMIT')));
      expect(commits.filter((r) => r.status === 'rejected').map((r) => String((r as PromiseRejectedResult).reason))).toEqual([]);
      const after = Number((await site.db.read(`SELECT SUM("count") AS "n" FROM "ContentTally" WHERE "type" = 'post' AND "status" = 'publish' AND "authorId" = 0 AND "termId" = 0`, []))[0].n);
      expect(after).toBe(before + WRITERS);
      // Striped: the writers added to the slots of their transactions' ids, not all to one row.
      const slots = await site.db.read(`SELECT DISTINCT "slot" FROM "ContentTally" WHERE "type" = 'post' AND "status" = 'publish' AND "authorId" = 0 AND "termId" = 0`, []);
      expect(slots.length).toBeGreaterThan(1);
      expect(slots.every((r) => Number(r.slot) >= 0 && Number(r.slot) < 16)).toBe(true);
    } finally {
      await Promise.all(clients.map((c) => c.end()));
    }
    expect(await mismatches()).toEqual([]);
    expect(Number((await site.db.read('SELECT COUNT(*) AS "n" FROM "_ContentTallyDelta"', []))[0].n)).toBe(0);
    for (const id of termIds) {
      const n = Number((await site.db.read(`SELECT SUM("count") AS "n" FROM "ContentTally" WHERE "type" = 'post' AND "status" = 'publish' AND "authorId" = 0 AND "termId" = $1`, [id]))[0].n);
      expect(n).toBe(WRITERS);
    }
  });

  it.runIf(provider === 'postgres')('a savepoint rolled back takes its deltas and its queued fold with it; writes after an early fold, or with folds immediate, are folded', async () => {
    const [{ d: name }] = await site.db.read('SELECT current_database() AS "d"', []);
    const url = new URL(pgBase());
    url.pathname = `/${String(name)}`;
    const c = new pg.Client({ connectionString: url.toString() });
    await c.connect();
    try {
      const term = (await site.createTerm('tags', { name: 'savepoint tally tag' })).id as number;
      await c.query('BEGIN');
      const insert = `INSERT INTO "Content" ("type", "status", "authorId", "title", "date", "dateGmt", "modified", "modifiedGmt")
        VALUES ('page', 'pending', $1, 'savepoint', now(), now(), now(), now()) RETURNING "id"`;
      const kept = (await c.query(insert, [site.users.editor.id])).rows[0].id;
      await c.query('INSERT INTO "TermRelationship" ("contentId", "termId", "taxonomy") VALUES ($1, $2, $3)', [kept, term, 'post_tag']);
      await c.query('SAVEPOINT s');
      const dropped = (await c.query(insert, [site.users.editor.id])).rows[0].id;
      await c.query('INSERT INTO "TermRelationship" ("contentId", "termId", "taxonomy") VALUES ($1, $2, $3)', [dropped, term, 'post_tag']);
      await c.query('ROLLBACK TO SAVEPOINT s');
      // The deltas of this transaction: the kept page's three (type, author, term).
      const { rows: [pending] } = await c.query('SELECT COUNT(*)::int AS "n" FROM "_ContentTallyDelta" WHERE "txid" = txid_current()');
      expect(pending.n).toBe(3);
      // The marker that stops further folds from being queued is set.
      const { rows: [marker] } = await c.query(`SELECT current_setting('content_tally.queued', true) AS "v"`);
      expect(marker.v).toBe('on');
      // An early fold (constraints checked now) empties them; later writes queue a fold again.
      await c.query('SET CONSTRAINTS ALL IMMEDIATE');
      await c.query('SET CONSTRAINTS ALL DEFERRED');
      expect((await c.query('SELECT COUNT(*)::int AS "n" FROM "_ContentTallyDelta" WHERE "txid" = txid_current()')).rows[0].n).toBe(0);
      await c.query('DELETE FROM "TermRelationship" WHERE "contentId" = $1', [kept]);
      await c.query('COMMIT');
      // A transaction whose first deltas (and their queued fold, and the marker) went with a
      // rolled-back savepoint still folds what it writes after.
      await c.query('BEGIN');
      await c.query('SAVEPOINT s');
      await c.query(insert, [site.users.editor.id]);
      await c.query('ROLLBACK TO SAVEPOINT s');
      expect((await c.query(`SELECT current_setting('content_tally.queued', true) AS "v"`)).rows[0].v).not.toBe('on');
      await c.query('INSERT INTO "TermRelationship" ("contentId", "termId", "taxonomy") VALUES ($1, $2, $3)', [kept, term, 'post_tag']);
      await c.query('COMMIT');
      // Folds IMMEDIATE for the whole transaction: each appending statement folds at its end
      // (clearing the marker), so every one of several rows' deltas must queue a fold of its own.
      await c.query('BEGIN');
      await c.query('SET CONSTRAINTS ALL IMMEDIATE');
      const { rows: many } = await c.query(
        `INSERT INTO "Content" ("type", "status", "authorId", "title", "date", "dateGmt", "modified", "modifiedGmt")
         SELECT 'page', 'pending', $1, 'immediate ' || i, now(), now(), now(), now() FROM generate_series(1, 3) AS i RETURNING "id"`,
        [site.users.editor.id],
      );
      await c.query(`INSERT INTO "TermRelationship" ("contentId", "termId", "taxonomy") SELECT unnest($1::int[]), $2, 'post_tag'`, [many.map((r) => r.id), term]);
      await c.query(`UPDATE "Content" SET "status" = 'draft' WHERE "id" = ANY($1::int[])`, [many.map((r) => r.id)]);
      expect((await c.query('SELECT COUNT(*)::int AS "n" FROM "_ContentTallyDelta" WHERE "txid" = txid_current()')).rows[0].n).toBe(0);
      await c.query('COMMIT');
    } finally {
      await c.end();
    }
    expect(await mismatches()).toEqual([]);
    expect(Number((await site.db.read('SELECT COUNT(*) AS "n" FROM "_ContentTallyDelta"', []))[0].n)).toBe(0);
    const tagged = await site.db.read(`SELECT SUM("count") AS "n" FROM "ContentTally" WHERE "type" = 'page' AND "status" = 'pending' AND "authorId" = 0 AND "termId" <> 0 GROUP BY "termId"`, []);
    expect(tagged.map((r) => Number(r.n))).toEqual([1]);
  });
});
