// The served OpenAPI document under Redocly's `recommended` ruleset: no error and no warning, for
// both deployments. A rule is turned off only where the document cannot follow it, each with why.
// And the lint itself: a small broken document must give findings, so a passing run means something.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createConfig, lintFromString, type NormalizedProblem } from '@redocly/openapi-core';
import { createTestSite, type TestSite } from '../helpers/app.js';

/** Rules of `recommended` turned off, each with its reason. */
const OFF = {
  // package.json says `UNLICENSED` (private, all rights reserved): no SPDX identifier or licence
  // text exists to point at; the licence is still named in `info.license`.
  'info-license-strict': 'off' as const,
};

async function lint(doc: unknown): Promise<NormalizedProblem[]> {
  const config = await createConfig({ extends: ['recommended'], rules: OFF });
  return lintFromString({ source: JSON.stringify(doc), absoluteRef: 'openapi.json', config });
}

/** One line per finding: severity, rule, where (a JSON pointer) and what. */
const describeProblem = (p: NormalizedProblem) => `${p.severity} ${p.ruleId} ${p.location[0]?.pointer ?? ''}: ${p.message}`;

describe.each(['A', 'B'] as const)('the OpenAPI document of deployment %s under Redocly recommended', (deployment) => {
  let site: TestSite;
  beforeAll(async () => { site = await createTestSite({ deployment }); });
  afterAll(() => site?.close());

  it('has no errors and no warnings', async () => {
    const res = await site.req('GET', '/openapi.json');
    expect(res.status).toBe(200);
    const problems = await lint(res.body);
    expect(problems.map(describeProblem)).toEqual([]);
  });
});

describe('the lint', () => {
  it('finds what is wrong with a broken document', async () => {
    const broken = {
      openapi: '3.1.0',
      info: { title: 'Broken', version: '1' },
      paths: {
        '/things/{id}': {
          get: { operationId: 'same', responses: { 200: { description: 'A thing.' } } },
          delete: { operationId: 'same', parameters: [{ name: 'id', in: 'path', required: true, schema: { type: 'integer' } }], responses: { 200: { description: 'Gone.' } } },
        },
      },
    };
    const problems = await lint(broken);
    const rules = new Set(problems.map((p) => p.ruleId));
    for (const rule of ['operation-operationId-unique', 'path-parameters-defined', 'operation-4xx-response', 'info-license', 'security-defined', 'no-empty-servers']) {
      expect(rules, `${rule} in ${[...rules].join(', ')}`).toContain(rule);
    }
    expect(problems.every((p) => p.location[0]?.pointer?.startsWith('#/'))).toBe(true);
    expect(problems.map(describeProblem).join('\n')).toMatch(/operation-operationId-unique #\/paths\/~1things~1\{id\}\/delete/);
  });
});
