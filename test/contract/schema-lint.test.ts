// The schema's lint (eslint.config.mjs: @graphql-eslint's schema-recommended rules, a description
// required everywhere) over the printed schema.graphql, as `npm run lint:schema` runs it, so `npm
// test` fails on a finding; and the same demand for descriptions checked on the schema the code
// builds, so a missing one fails even before schema.graphql is printed again.
import { join } from 'node:path';
import { ESLint } from 'eslint';
import { isEnumType, isInputObjectType, isInterfaceType, isObjectType, isSpecifiedScalarType, type GraphQLSchema } from 'graphql';
import { describe, expect, it } from 'vitest';
import { schema } from '../../src/schema/index.js';
import { projectRoot } from '../../src/root.js';

const eslint = () => new ESLint({ cwd: projectRoot });
const findings = (results: ESLint.LintResult[]) =>
  results.flatMap((r) => r.messages.map((m) => `${m.line}:${m.column} ${m.ruleId ?? 'parse'}: ${m.message}`));

/** Every type, field, argument, input field and enum value without a description. */
function undescribed(s: GraphQLSchema): string[] {
  const missing: string[] = [];
  const lacks = (d: string | null | undefined) => !d?.trim();
  for (const type of Object.values(s.getTypeMap())) {
    if (type.name.startsWith('__') || isSpecifiedScalarType(type)) continue;
    if (lacks(type.description)) missing.push(type.name);
    if (isObjectType(type) || isInterfaceType(type)) {
      for (const f of Object.values(type.getFields())) {
        if (lacks(f.description)) missing.push(`${type.name}.${f.name}`);
        for (const a of f.args) if (lacks(a.description)) missing.push(`${type.name}.${f.name}(${a.name})`);
      }
    }
    if (isInputObjectType(type)) for (const f of Object.values(type.getFields())) if (lacks(f.description)) missing.push(`${type.name}.${f.name}`);
    if (isEnumType(type)) for (const v of type.getValues()) if (lacks(v.description)) missing.push(`${type.name}.${v.name}`);
  }
  return missing;
}

describe('the schema lint', () => {
  it('finds nothing in schema.graphql: no error, no warning', async () => {
    const results = await eslint().lintFiles(['schema.graphql']);
    expect(results).toHaveLength(1);
    expect(findings(results)).toEqual([]);
    expect(results[0].warningCount + results[0].errorCount).toBe(0);
  });

  it('reports what it should: an undescribed field, argument and enum value of a small schema', async () => {
    const bad = [
      '"""Root."""', 'type Query {', '  """Described."""', '  ok: Boolean', '  bare(n: Int): Int', '}', '',
      '"""An enum."""', 'enum Colour {', '  RED', '}', '',
    ].join('\n');
    const results = await eslint().lintText(bad, { filePath: join(projectRoot, 'schema.graphql') });
    const missing = results[0].messages.filter((m) => m.ruleId === '@graphql-eslint/require-description');
    expect(missing.map((m) => m.message)).toEqual(expect.arrayContaining([
      expect.stringMatching(/field "bare"/i),
      expect.stringMatching(/input value "n"/i),
      expect.stringMatching(/enum value "RED"/i),
    ]));
    expect(missing.some((m) => /"ok"/.test(m.message))).toBe(false);
  });
});

describe('descriptions in the built schema', () => {
  it('describe every type, field, argument, input field and enum value', () => {
    expect(undescribed(schema)).toEqual([]);
  });
});
