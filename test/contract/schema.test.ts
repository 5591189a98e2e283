import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { describe, expect, it } from 'vitest';
import { GraphQLObjectType, GraphQLSchema, printSchema, getNamedType, isObjectType, isInputObjectType } from 'graphql';
import { schema, sortedSchema } from '../../src/schema/index.js';
import { buildStamp, loadOperations } from '../../gateway/operations.js';
import { RESOURCES } from '../../src/resources/index.js';
import { buildRouteTable } from '../../gateway/routes/index.js';
import { projectRoot } from '../../src/root.js';

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

  it('remembers a validation per build and document sources; anything changed is validated again', () => {
    const dir = mkdtempSync(join(tmpdir(), 'operations-'));
    const validatedFile = join(dir, 'validated');
    // The schema less `site`: the documents written from the schema (posts, pages, terms …) come
    // out the same, and the hand-written SiteIndex is invalid against it.
    const config = schema.toConfig();
    const { site: _site, ...fields } = config.query!.toConfig().fields;
    const other = new GraphQLSchema({ ...config, query: new GraphQLObjectType({ ...config.query!.toConfig(), fields }), types: config.types.filter((t) => t !== config.query) });
    expect(other.getQueryType()!.getFields().site).toBeUndefined();
    try {
      // Nothing remembered: documents invalid against the schema stop the load.
      expect(() => loadOperations(other, RESOURCES, { validatedFile, build: 'build 1' })).toThrow(/is invalid/);
      expect(existsSync(validatedFile)).toBe(false);
      // They pass against the real schema; the digest is written.
      loadOperations(schema, RESOURCES, { validatedFile, build: 'build 1' });
      expect(readFileSync(validatedFile, 'utf8')).toMatch(/^[0-9a-f]{64}$/);
      // Same build, same sources: validation is skipped (the build stands for the schema's code).
      expect(loadOperations(other, RESOURCES, { validatedFile, build: 'build 1' }).names()).toContain('PostsList');
      // Another build, or other sources, and it validates again.
      expect(() => loadOperations(other, RESOURCES, { validatedFile, build: 'build 2' })).toThrow(/is invalid/);
      expect(() => loadOperations(other, [...RESOURCES].reverse(), { validatedFile, build: 'build 1' })).toThrow(/is invalid/);
      // Without a build (the TypeScript sources) nothing is remembered.
      expect(() => loadOperations(other, RESOURCES, { validatedFile })).toThrow(/is invalid/);
      expect(buildStamp('file:///srv/site/gateway/operations.ts')).toBeUndefined();
      // The build is one bundle: this module runs from a chunk of it, and the chunk has the build's stamp.
      const stampFile = join(projectRoot, 'dist', '.build-stamp.json');
      const chunk = pathToFileURL(join(projectRoot, 'dist', 'chunks', 'app-ABCDEFGH.js')).href;
      expect(buildStamp(chunk)).toBe(existsSync(stampFile) ? readFileSync(stampFile, 'utf8') : undefined);
      expect(buildStamp(pathToFileURL(join(projectRoot, 'gateway', 'operations.ts')).href)).toBeUndefined();
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
