// The targets `npm run bench` checks: each a measured value against a goal, printed as one table
// with pass/fail. Scenarios add theirs with `targets.add(...)`; the table prints at the end of a run
// and goes into bench/results-<db>.json.
//
//   targets.add({ db: 'sqlite', name: 'list cold', value: row.ratioToBare, goal: 0.04, better: 'higher', unit: '× bare' });

export interface TargetCheck {
  /** Which database run it belongs to (or 'all'). */
  db: string;
  /** What is measured, e.g. "list cold ≥ 0.04× bare". */
  name: string;
  /** The measured value; undefined when the scenario did not run (reported, counted as failed). */
  value: number | undefined;
  goal: number;
  /** Whether a value above the goal passes ('higher', `value >= goal`) or below it ('lower', `value < goal`). */
  better: 'higher' | 'lower';
  /** How the value is printed: '× bare', 'ms', 'req/s', 'hits', … */
  unit: string;
  /** Anything the reader should know (e.g. what it is relative to). */
  note?: string;
}

export interface TargetResult extends TargetCheck { pass: boolean }

export function createTargets() {
  const all: TargetResult[] = [];
  const passes = (t: TargetCheck) => t.value !== undefined && Number.isFinite(t.value) && (t.better === 'higher' ? t.value >= t.goal : t.value < t.goal);
  const show = (v: number | undefined, unit: string) => {
    if (v === undefined || !Number.isFinite(v)) return 'not measured';
    const digits = unit.startsWith('×') ? (Math.abs(v) < 0.1 ? 3 : 2) : Math.abs(v) < 10 ? 2 : 0;
    return unit.startsWith('×') ? `${v.toFixed(digits)}${unit}` : `${v.toFixed(digits)} ${unit}`;
  };
  return {
    add(t: TargetCheck): TargetResult {
      const r = { ...t, pass: passes(t) };
      all.push(r);
      return r;
    },
    get results(): readonly TargetResult[] { return all; },
    /** The table: target, goal, measured, pass/fail; for one database or all. */
    print(db?: string): void {
      const rows = all.filter((t) => db === undefined || t.db === db || t.db === 'all');
      if (!rows.length) return;
      const body = rows.map((t) => [
        t.name, `${t.better === 'higher' ? '≥' : '<'} ${show(t.goal, t.unit)}`, show(t.value, t.unit), t.pass ? 'pass' : 'FAIL', t.note ?? '',
      ]);
      const head = ['target', 'goal', 'measured', 'result', 'note'];
      const widths = head.map((h, i) => Math.max(h.length, ...body.map((b) => b[i].length)));
      const line = (cells: string[]) => cells.map((c, i) => c.padEnd(widths[i])).join('  ').trimEnd();
      console.log(`\ntargets${db ? ` (${db})` : ''}: ${rows.filter((t) => t.pass).length} of ${rows.length} met`);
      console.log(line(head));
      console.log(widths.map((w) => '-'.repeat(w)).join('  '));
      for (const b of body) console.log(line(b));
    },
  };
}

export type Targets = ReturnType<typeof createTargets>;

/** The targets of the whole bench run; scenarios in any file add to this one. */
export const targets = createTargets();
