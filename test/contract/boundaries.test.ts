// The import-boundary check (docs/architecture.md, "Layers and the import-boundary check"):
// dependency-cruiser runs the rules of .dependency-cruiser.cjs over src/ and gateway/, as
// `npm run lint:boundaries` does, with the violations recorded in
// .dependency-cruiser-known-violations.json tolerated. A violation not on that list fails, and so
// does a listed one that no longer occurs, so the list can only shrink. A second cruise, over a
// few made-up modules that each break one rule, shows that every rule can fail at all.
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '../..');
const CLI = join(ROOT, 'node_modules/dependency-cruiser/bin/dependency-cruiser.mjs');
const CONFIG = join(ROOT, '.dependency-cruiser.cjs');
const BASELINE = join(ROOT, '.dependency-cruiser-known-violations.json');
const SHRINK = 'npx depcruise src gateway --config .dependency-cruiser.cjs --baseline --baseline-mode shrink-only';

interface Violation {
  type: string;
  from: string;
  to: string;
  rule: { name: string; severity: string };
  cycle?: { name: string }[];
}
interface Cruise {
  summary: {
    violations: Violation[];
    baselineStale?: number;
    totalCruised: number;
    ruleSetUsed: { forbidden: { name: string; comment?: string }[] };
  };
}

/** Runs the command-line tool from `cwd` with the project's rules, its JSON answer. */
function cruise(cwd: string, args: string[]): Cruise {
  // The node that runs the tests, not one a shell finds: the project's supported version.
  const run = spawnSync(process.execPath, [CLI, ...args, '--config', CONFIG, '--output-type', 'json'], {
    cwd,
    encoding: 'utf8',
    maxBuffer: 256 * 1024 * 1024,
  });
  if (run.error) throw run.error;
  if (!run.stdout.trim()) throw new Error(`dependency-cruiser answered nothing (exit ${run.status}):\n${run.stderr}`);
  return JSON.parse(run.stdout) as Cruise;
}

/** One violation on one line: the rule, then the import (or the whole cycle). */
function describeViolation(v: Violation): string {
  const path = v.cycle?.length ? [v.from, ...v.cycle.map((m) => m.name)].join(' → ') : `${v.from} → ${v.to}`;
  return `${v.rule.name}: ${path}`;
}

/** dependency-cruiser's own test of whether a recorded violation is a current one. */
function sameViolation(a: Violation, b: Violation): boolean {
  if (a.rule.name !== b.rule.name) return false;
  if (a.cycle && b.cycle) {
    const names = new Set(b.cycle.map((m) => m.name));
    return a.cycle.length === b.cycle.length && a.cycle.every((m) => names.has(m.name));
  }
  return a.from === b.from && a.to === b.to;
}

describe('import boundaries of src/ and gateway/', () => {
  let result: Cruise;
  beforeAll(() => {
    result = cruise(ROOT, ['src', 'gateway', '--ignore-known', BASELINE]);
  }, 120_000);

  it('reads the whole service', () => {
    // An empty or misdirected cruise would find no violations either.
    expect(result.summary.totalCruised).toBeGreaterThan(200);
  });

  it('has no violations beyond the recorded baseline', () => {
    const why = new Map(result.summary.ruleSetUsed.forbidden.map((r) => [r.name, r.comment ?? '']));
    const fresh = result.summary.violations.filter((v) => v.rule.severity !== 'ignore');
    const rules = [...new Set(fresh.map((v) => v.rule.name))].map((name) => `  ${name}: ${why.get(name)}`).join('\n');
    expect(
      fresh.map(describeViolation),
      `New import-boundary violations. Move the code to the layer that may import it (docs/architecture.md, ` +
        `"Layers and the import-boundary check"); do not add them to the baseline.\nWhy the rules exist:\n${rules}\n`,
    ).toEqual([]);
  });

  it('lists in its baseline only violations that still occur', () => {
    const known = JSON.parse(readFileSync(BASELINE, 'utf8')) as Violation[];
    const stale = known.filter((k) => !result.summary.violations.some((v) => sameViolation(k, v)));
    expect(
      stale.map(describeViolation),
      `These recorded violations are fixed: take them out of the baseline with \`${SHRINK}\`, so they cannot come back unnoticed.`,
    ).toEqual([]);
    expect(result.summary.baselineStale ?? 0).toBe(0);
  });
});

describe('the check itself', () => {
  let dir: string;
  let result: Cruise;

  /** Made-up modules, laid out as the service is: each import marked breaks the rule named. */
  const FILES: Record<string, string> = {
    'src/context.ts': 'export interface Context { id: number }\n',
    // infrastructure-not-upward, through a type-only import: types count too.
    'src/db/store.ts': "import type { Context } from '../context.js';\nexport type Store = Context;\n",
    'src/schema/fields.ts': 'export const field = 1;\n',
    // domain-not-to-schema
    'src/widgets/card.ts': "import { field } from '../schema/fields.js';\nexport const card = field;\n",
    'gateway/route.ts': 'export const route = 1;\n',
    // src-not-to-gateway
    'src/site/links.ts': "import { route } from '../../gateway/route.js';\nexport const links = route;\n",
    'test/helper.ts': 'export const helper = 1;\n',
    // not-to-tests-or-tooling
    'src/site/seed.ts': "import { helper } from '../../test/helper.js';\nexport const seed = helper;\n",
    // not-to-unresolvable
    'src/site/lost.ts': "import { gone } from './nowhere.js';\nexport const lost = gone;\n",
    // no-circular
    'src/forms/a.ts': "import { b } from './b.js';\nexport const a = (): number => b() + 1;\n",
    'src/forms/b.ts': "import { a } from './a.js';\nexport const b = (): number => a() - 1;\n",
  };

  beforeAll(() => {
    dir = mkdtempSync(join(tmpdir(), 'boundaries-'));
    for (const [path, text] of Object.entries(FILES)) {
      mkdirSync(dirname(join(dir, path)), { recursive: true });
      writeFileSync(join(dir, path), text);
    }
    result = cruise(dir, ['src', 'gateway']);
  }, 120_000);
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('reports each kind of violation', () => {
    expect(result.summary.violations.map(describeViolation).sort()).toEqual([
      'domain-not-to-schema: src/widgets/card.ts → src/schema/fields.ts',
      'infrastructure-not-upward: src/db/store.ts → src/context.ts',
      'no-circular: src/forms/a.ts → src/forms/b.ts → src/forms/a.ts',
      'not-to-tests-or-tooling: src/site/seed.ts → test/helper.ts',
      'not-to-unresolvable: src/site/lost.ts → ./nowhere.js',
      'src-not-to-gateway: src/site/links.ts → gateway/route.ts',
    ]);
  });

  it('has a made-up violation for every rule it enforces', () => {
    const reported = new Set(result.summary.violations.map((v) => v.rule.name));
    expect(result.summary.ruleSetUsed.forbidden.map((r) => r.name).filter((name) => !reported.has(name))).toEqual([]);
  });
});
