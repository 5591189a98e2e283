import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { printSchema, getNamedType, isObjectType, isInputObjectType } from 'graphql';
import { schema, sortedSchema } from '../../src/schema/index.js';
import { loadOperations } from '../../gateway/operations.js';
import { buildRouteTable } from '../../gateway/routes/index.js';

describe('schema.graphql', () => {
  it('matches the schema built from the code (run npm run schema:print after a change)', () => {
    expect(readFileSync(new URL('../../schema.graphql', import.meta.url), 'utf8')).toBe(printSchema(sortedSchema()) + '\n');
  });

  it('describes every type and every field', () => {
    const missing: string[] = [];
    for (const type of Object.values(schema.getTypeMap())) {
      if (type.name.startsWith('__') || ['String', 'Int', 'Boolean', 'Float', 'ID'].includes(type.name)) continue;
      if (!type.description) missing.push(type.name);
      if (isObjectType(type)) for (const f of Object.values(type.getFields())) if (!f.description) missing.push(`${type.name}.${f.name}`);
    }
    expect(missing).toEqual([]);
  });

  it('validates every route operation at start-up, one document per context', () => {
    const ops = loadOperations(schema);
    expect(ops.names()).toEqual(expect.arrayContaining(['PostsList', 'PostGet', 'PostCreate', 'PostUpdate', 'PostTrash', 'PostDelete', 'SiteIndex']));
    expect(ops.get('PostGet', 'edit')).not.toBe(ops.get('PostGet', 'view'));
    expect(getNamedType(schema.getType('PostInput')!) && isInputObjectType(schema.getType('PostInput'))).toBe(true);
  });

  it('names only operations that exist, for every endpoint of the route table', () => {
    const names = new Set(loadOperations(schema).names());
    const table = buildRouteTable({ namespaces: ['core/v2'], authorizationUrl: 'http://x/authorize' });
    const named = table.flatMap((r) => r.endpoints.map((e) => e.operation)).filter((n): n is string => !!n);
    expect(named.length).toBeGreaterThan(20);
    expect(named.filter((n) => !names.has(n))).toEqual([]);
  });
});
