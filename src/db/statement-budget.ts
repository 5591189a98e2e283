// A ceiling on the SQL statements one unit of work may send: the backstop behind /graphql's cost
// analysis (gateway/graphql-guards.ts), for whatever a document costs that its shape does not
// tell. The statements are counted where every one passes (the adapter wrap in ./client.ts), in
// the async context the budget was opened in, so batched loaders and nested resolvers count too.
import { AsyncLocalStorage } from 'node:async_hooks';

interface Budget { left: number; limit: number; exceeded: boolean }
const budgets = new AsyncLocalStorage<Budget>();

/** What a statement past the budget rejects with, before it is sent. */
export class StatementBudgetExceeded extends Error {
  constructor(readonly limit: number) {
    super(`SQL statement limit of ${limit} exceeded.`);
    this.name = 'StatementBudgetExceeded';
  }
}

/** Runs `fn` with at most `limit` statements; `exceeded()` tells afterwards whether it ran out. */
export function withStatementBudget<T>(limit: number, fn: () => T): { result: T; exceeded: () => boolean } {
  const budget: Budget = { left: limit, limit, exceeded: false };
  return { result: budgets.run(budget, fn), exceeded: () => budget.exceeded };
}

/** Counts one statement against the budget of the running unit of work, if it has one; throws past it. */
export function spendStatement(): void {
  const budget = budgets.getStore();
  if (!budget) return;
  if (budget.left <= 0) {
    budget.exceeded = true;
    throw new StatementBudgetExceeded(budget.limit);
  }
  budget.left--;
}
