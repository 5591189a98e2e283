// Adding to term counts: one statement for any number of terms, and, inside a batch, the additions
// of every item kept until the batch's transaction ends. On PostgreSQL a term's row stays locked
// from its count's UPDATE to the COMMIT; in a batch of creates into one category, the first item's
// UPDATE would hold that lock for the rest of the batch, so concurrent batches would run one after
// another. The batch sends its counts as its last statement instead; what it keeps until then is a
// `DeferredTermCounts` (src/db/deferred-term-counts.ts) on the batch's database handle.
import type { Db, Tx } from '../db/client.js';
import type { TxStatements } from '../db/sql.js';
import { placeholder, txStatements } from '../db/sql.js';

/**
 * Adds `n` to each term's count in one statement, returning each term's id and slug. On PostgreSQL
 * several terms are locked in id order within the statement (two writes locking them in opposite
 * orders would deadlock). `last`: the transaction's last statement (`TxStatements.finish`).
 */
export function addToTermCounts(statements: TxStatements, pg: boolean, counts: Map<number, number>, last = false): Promise<{ id: number | bigint; slug: string }[]> {
  const ids = [...counts.keys()].sort((a, b) => a - b);
  const args: unknown[] = [];
  const p = (v: unknown) => { args.push(v); return placeholder(pg, args.length - 1); };
  const same = new Set(counts.values()).size === 1;
  // The same amount for every term (one create's terms): no CASE.
  const int = (v: unknown) => `CAST(${p(v)} AS INTEGER)`; // a bare parameter in a CASE would be text on PostgreSQL
  const amount = same ? int(counts.get(ids[0])) : `CASE "id" ${ids.map((id) => `WHEN ${p(id)} THEN ${int(counts.get(id))}`).join(' ')} END`;
  const list = ids.map(p).join(', ');
  const target = pg && ids.length > 1 ? `IN (SELECT "id" FROM "Term" WHERE "id" IN (${list}) ORDER BY "id" FOR NO KEY UPDATE)` : `IN (${list})`;
  const sql = `UPDATE "Term" SET "count" = "count" + ${amount} WHERE "id" ${target} RETURNING "id", "slug"`;
  return last ? statements.finish(sql, ...args) : statements.query(sql, ...args);
}

/**
 * Sets each term's count to its published items, counted from its links: two statements on
 * PostgreSQL, one on SQLite, for any number of terms. On PostgreSQL the terms' rows are locked
 * first, in id order, by a statement of their own (read committed: a statement counts what was
 * committed when it began, so the count must begin after the lock is held, or a write committed
 * while this one waited for the lock would go uncounted). The lock (NO KEY UPDATE) does not hold
 * up the links other writes insert. SQLite runs one write transaction at a time already. The count
 * is the transaction's last statement (`TxStatements.finish`).
 */
async function recountTerms(statements: TxStatements, pg: boolean, termIds: number[]): Promise<void> {
  const ids = [...new Set(termIds)].filter(Number.isSafeInteger).sort((a, b) => a - b);
  if (!ids.length) return;
  const list = ids.map((_, i) => placeholder(pg, i)).join(', ');
  if (pg) await statements.query(`SELECT "id" FROM "Term" WHERE "id" IN (${list}) ORDER BY "id" FOR NO KEY UPDATE`, ...ids);
  const sql = `UPDATE "Term" SET "count" = (SELECT COUNT(*) FROM "TermRelationship" r JOIN "Content" c ON c."id" = r."contentId" WHERE r."termId" = "Term"."id" AND c."status" = 'publish') WHERE "id" IN (${list})`;
  await statements.finish(sql, ...ids);
}

/**
 * Recounts terms from their links as the transaction's last statements (`recountTerms`, with the
 * COMMIT on PostgreSQL outside a batch). In a batch the recount already holds every earlier item's
 * additions to those terms (`DeferredTermCounts`): they are dropped, or the batch's end would add
 * them again.
 */
export async function recountTermsLast(tx: Tx, db: Db, termIds: number[]): Promise<void> {
  db.termCounts?.reset([...new Set(termIds)]);
  await recountTerms(txStatements(tx, db), db.provider === 'postgres', termIds);
}
