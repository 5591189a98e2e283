// The batch unit of work: several writes in one database transaction, each step kept or undone on
// its own (a savepoint per step) or all undone at the first that fails (atomic). It is the
// domain's: what a step is (a REST batch item, an import's record) is the caller's business.
import type { Db } from '../db/client.js';
import { txStatements } from '../db/sql.js';
import { DeferredTermCounts } from '../db/deferred-term-counts.js';
import { addToTermCounts } from './term-counts.js';
import { createContext, type Context } from '../context.js';
import type { WriteEvent, WriteHook } from './write-hooks.js';
import { log } from '../log.js';

/** A step: a failure known before it runs (nothing is written for it), or work on the batch's database. */
export type Step<T> = { failed: T } | ((db: Db) => Promise<{ value: T; ok: boolean }>);

/** Thrown to undo an atomic batch once a step failed. */
const ROLLBACK = Symbol('rollback');

/**
 * Runs the steps in order in one transaction (the steps' own transactions join it): one write lock
 * and one commit for the batch instead of one per step.
 * - Atomic: rolled back at the first failing step, which is the last one run.
 * - Otherwise each step runs inside a savepoint: a failing step's writes are rolled back to it and
 *   the next steps run, so every step keeps or loses its own writes as it would have on its own;
 *   what the batch kept is committed once all have run.
 * Every read inside goes through the transaction (the `Db` handed to a step), so a step sees what
 * the steps before it wrote.
 */
export async function runUnitOfWork<T>(base: Db, steps: Step<T>[], atomic: boolean): Promise<{ results: T[]; rolledBack: boolean }> {
  const results: T[] = [];
  let rolledBack = false;
  // Write events of the steps, by step; a step whose writes were rolled back loses its events.
  const events: { step: number; ctx: Context; event: WriteEvent }[] = [];
  const undone = new Set<number>();
  let current = -1;
  const noteEvent: WriteHook = async (ctx, event) => { events.push({ step: current, ctx, event }); };
  try {
    await base.prisma.$transaction(async (tx) => {
      const statements = txStatements(tx, base);
      const termCounts = new DeferredTermCounts();
      const db: Db = Object.create(base, {
        prisma: { value: joined(tx) },
        read: { value: (sql: string, args: readonly unknown[]) => statements.query(sql, ...args) },
        termCounts: { value: termCounts },
        // A step's last statement is not the batch's: the batch commits once all have run.
        transactionFinish: { value: () => null },
        // The steps' contexts get the app's services (the same objects as `base`'s), but their
        // write hooks only note the event: a hook runs once its write's transaction has committed,
        // and a step's writes commit with the batch's (run inside it, a hook's failed statement
        // would abort the batch's transaction on PostgreSQL). The noted events of the steps that
        // kept their writes run the app's hooks after the commit, below.
        ...(base.services ? { services: { value: { ...base.services, writeHooks: base.services.writeHooks.length ? [noteEvent] : [] } } } : {}),
      });
      // On PostgreSQL's own connection, a step's savepoint is released together with the next
      // step's SAVEPOINT (one message of two statements: one round trip per step fewer), and the
      // last one by the COMMIT.
      const joinRelease = base.transactionStatement?.() != null;
      // The notices the steps' events leave for after the commit: a step rolled back takes its own back.
      const notices = base.commitNotices?.() ?? null;
      let unreleased = false;
      for (const step of steps) {
        current++;
        if (typeof step !== 'function') {
          results.push(step.failed);
          if (atomic) throw ROLLBACK;
          continue;
        }
        if (!atomic) {
          await statements.execute(unreleased ? 'RELEASE SAVEPOINT batch_item; SAVEPOINT batch_item' : 'SAVEPOINT batch_item');
          unreleased = false;
        }
        const counted = termCounts.mark();
        const noticed = notices?.length ?? 0;
        const { value, ok } = await step(db);
        results.push(value);
        if (atomic) {
          if (!ok) throw ROLLBACK;
          continue;
        }
        if (!ok) {
          await statements.execute('ROLLBACK TO SAVEPOINT batch_item');
          termCounts.undo(counted);
          if (notices) notices.length = noticed;
          undone.add(current);
        }
        if (joinRelease) unreleased = true;
        else await statements.execute('RELEASE SAVEPOINT batch_item');
      }
      // The steps' term count additions, last: on PostgreSQL the terms' rows stay locked from
      // here to the COMMIT, not from the first step's create on.
      const counts = termCounts.pending();
      if (counts.size) await addToTermCounts(statements, base.provider === 'postgres', counts, true);
    }, { maxWait: 15_000, timeout: 120_000 });
  } catch (err) {
    if (err !== ROLLBACK) throw err;
    rolledBack = true;
  }
  // The batch committed: the app's write hooks hear what its steps kept, in order, each with a
  // context on the app's handle (the steps' handle belonged to the finished transaction). As after
  // a single write, the write stands whatever a hook does; a failing hook is logged.
  if (!rolledBack && base.services) {
    for (const e of events) {
      if (undone.has(e.step)) continue;
      const ctx = createContext(base, e.ctx.viewer, e.ctx.media);
      for (const hook of base.services.writeHooks) {
        try { await hook(ctx, e.event); } catch (err) { log.error({ err, event: e.event }, 'a write hook failed after a batch'); }
      }
    }
  }
  return { results, rolledBack };
}

/** A transaction client whose own `$transaction` joins it (Prisma cannot nest transactions). */
function joined(tx: unknown): Db['prisma'] {
  const transaction = async (arg: unknown) => (typeof arg === 'function' ? (arg as (t: unknown) => unknown)(proxy) : Promise.all(arg as Promise<unknown>[]));
  // What the transaction's client answers for a name does not change while it lasts: asked
  // once (its own lookups go through Prisma's proxy, several per model call of every step).
  const seen = new Map<PropertyKey, unknown>();
  const proxy: unknown = new Proxy(tx as object, {
    get(target, prop, receiver) {
      if (prop === '$transaction') return transaction;
      if (seen.has(prop)) return seen.get(prop);
      const value = Reflect.get(target, prop, receiver);
      seen.set(prop, value);
      return value;
    },
  });
  return proxy as Db['prisma'];
}
