// The read-path targets (cold, warm, 304, p99) from one database's rows of `npm run bench`.
import type { Targets } from './targets.js';

interface ReadRow {
  scenario: string;
  ratioToBare?: number;
  ratioToFloor?: number;
  requests: number;
  latencyMs: { p99: number };
  cache?: { hits: number; misses: number };
}

/** Cold reads as a share of the bare server, on SQLite; PostgreSQL may be up to 1.5× slower. */
export const COLD_GOAL = 0.04;
export const POSTGRES_SLACK = 1.5;
export const WARM_GOAL = 0.8;
export const P99_GOAL_MS = 100;
/**
 * Cold reads against the floor (bench/floor-server.ts, hand-written SQL over the same database):
 * the list at least as fast, one post at least half as fast. A list can beat the floor, which
 * counts every total as WordPress does; one post has little but the service's own fixed cost.
 */
export const FLOOR_GOALS = { list: 1.0, item: 0.5 };

const measured = new Map<string, Map<string, ReadRow>>();

export function readTargets(targets: Targets, db: string, rows: ReadRow[]): void {
  const by = new Map(rows.map((r) => [r.scenario, r]));
  measured.set(db, by);
  const ratio = (scenario: string) => by.get(scenario)?.ratioToBare;
  const coldGoal = db === 'postgres' ? COLD_GOAL / POSTGRES_SLACK : COLD_GOAL;
  const coldNote = db === 'postgres' ? `${COLD_GOAL}× ÷ ${POSTGRES_SLACK} (within 1.5× of the SQLite goal)` : undefined;
  for (const [label, scenario] of [['list', 'rest list'], ['item', 'rest item']] as const) {
    const cold = by.get(`${scenario} cold`);
    targets.add({ db, name: `${db} ${label} cold`, value: ratio(`${scenario} cold`), goal: coldGoal, better: 'higher', unit: '× bare', note: coldNote });
    targets.add({ db, name: `${db} ${label} cold p99`, value: cold?.requests ? cold.latencyMs.p99 : undefined, goal: P99_GOAL_MS, better: 'lower', unit: 'ms' });
    // Cold means every request reached the database: the service's X-Cache must never say HIT.
    targets.add({
      db, name: `${db} ${label} cold: response-cache hits`, value: cold?.cache ? cold.cache.hits : undefined, goal: 1, better: 'lower', unit: 'hits',
      note: cold?.cache ? `${cold.cache.misses} MISS` : 'no X-Cache header seen',
    });
    targets.add({ db, name: `${db} ${label} cold vs the floor`, value: cold?.ratioToFloor, goal: FLOOR_GOALS[label], better: 'higher', unit: '× floor' });
    targets.add({ db, name: `${db} ${label} warm`, value: ratio(`${scenario} warm`), goal: WARM_GOAL, better: 'higher', unit: '× bare' });
  }
  targets.add({ db, name: `${db} item 304 (If-None-Match)`, value: ratio('rest item 304'), goal: WARM_GOAL, better: 'higher', unit: '× bare' });
  // When both ran: PostgreSQL's cold reads within 1.5× of SQLite's, measured.
  const sqlite = measured.get('sqlite');
  if (db === 'postgres' && sqlite) {
    for (const scenario of ['rest list cold', 'rest item cold']) {
      const s = sqlite.get(scenario)?.ratioToBare;
      const p = ratio(scenario);
      targets.add({
        db, name: `postgres ${scenario.slice(5)}: SQLite ÷ PostgreSQL`, value: s !== undefined && p ? s / p : undefined,
        goal: POSTGRES_SLACK, better: 'lower', unit: '×', note: 'at most 1.5 (printed as a ratio of ratios)',
      });
    }
  }
}
