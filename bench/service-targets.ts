// The targets besides the read ratios (bench/read-targets.ts): write rates, start-up, memory per
// process and search latency, added to the one target table of the run.
import type { Targets } from './targets.js';
import type { ProcessMemory } from './processes.js';

interface Measured {
  batches?: { atomic: boolean; postsPerSecond: number }[];
  single?: { postsPerSecond: number };
  firstAnswerMs?: number;
  /** Every scenario's per-process memory, the uploads' included. */
  processes: (ProcessMemory[] | undefined)[];
  /** The search scenarios' p50 latency, ms, by scenario name. */
  searchP50: Record<string, number>;
}

export function serviceTargets(targets: Targets, db: string, m: Measured): void {
  const sqlite = db === 'sqlite';
  for (const b of m.batches ?? []) {
    targets.add({ db, name: `${db} creates through batch/v1${b.atomic ? ' (atomic)' : ''}`, value: b.postsPerSecond, goal: 1500, better: 'higher', unit: 'posts/s', note: sqlite ? '25 per batch' : 'goal set for SQLite' });
  }
  if (m.single) targets.add({ db, name: `${db} single creates, 25 clients`, value: m.single.postsPerSecond, goal: 800, better: 'higher', unit: 'posts/s', note: sqlite ? '' : 'goal set for SQLite' });
  targets.add({ db, name: `${db} first answer after start`, value: m.firstAnswerMs, goal: 1000, better: 'lower', unit: 'ms', note: 'spawn to the first 200 on /wp-json/, migrated database' });
  const peak = new Map<string, number>();
  for (const list of m.processes) for (const p of list ?? []) {
    const key = p.role === 'primary' ? 'primary' : 'worker';
    peak.set(key, Math.max(peak.get(key) ?? 0, p.peakMB));
  }
  for (const [role, mb] of peak) targets.add({ db, name: `${db} RSS per process (${role}, peak)`, value: mb, goal: 200, better: 'lower', unit: 'MB', note: 'highest sampled VmRSS over all scenarios' });
  for (const [name, p50] of Object.entries(m.searchP50)) targets.add({ db, name: `${db} ${name} p50`, value: p50, goal: 50, better: 'lower', unit: 'ms' });
}
