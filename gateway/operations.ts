// Loads the named GraphQL documents the routes run, once at start-up: those of the registry's
// types are written from the schema (./generated-operations.ts), the rest are the .graphql files. An operation that spreads
// `...XFields` gets one document per context, with the spread pointing at XView, XEdit or XEmbed;
// those fragments are made from the resource definitions (gateway/resources.ts), so a field added
// to a definition shows in the contexts it names. Every document is validated against the schema
// here: an invalid one stops the boot.
//
// Validating them all is a few hundred milliseconds of every start. The compiled service (`npm
// start`) remembers that it passed: `validatedFile` holds a digest of the build (dist/'s stamp,
// which every build rewrites, so a changed schema means a new one) and of every document source;
// a process that finds the same digest there skips validate(), and makes each operation's
// documents when a route first asks for them instead of all at start. Anything changed validates
// them all again at start.
import { createHash } from 'node:crypto';
import { readFileSync, readdirSync, renameSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import {
  Kind, parse, validate, visit,
  type DocumentNode, type FragmentDefinitionNode, type GraphQLSchema, type OperationDefinitionNode,
} from 'graphql';

import type { ResourceDef, RestContext } from '../src/resources/define.js';
import { RESOURCES } from '../src/resources/index.js';
import { projectRoot } from '../src/root.js';
import { fragmentsOf } from './resources.js';
import { generatedOperations } from './generated-operations.js';

export type { RestContext };
const SUFFIX: Record<RestContext, string> = { view: 'View', edit: 'Edit', embed: 'Embed' };

export interface Operations {
  get(name: string, context?: RestContext): DocumentNode;
  names(): string[];
}

const dir = join(projectRoot, 'gateway', 'operations');

/** Where the compiled service keeps the digest of its validated operations (beside dist/'s build stamp). */
export const VALIDATED_FILE = join(projectRoot, 'dist', '.operations-validated');

export interface LoadOptions {
  /** A file holding the digest of the last documents that passed, and the build they passed against. */
  validatedFile?: string;
  /** What identifies the schema's code (dist/'s build stamp); without it nothing is remembered. */
  build?: string;
}

function readOr(file: string, fallback: string): string {
  try { return readFileSync(file, 'utf8'); } catch { return fallback; }
}

/** The build stamp of the compiled copy this module runs from, or undefined from the TypeScript sources. */
export function buildStamp(moduleUrl: string = import.meta.url): string | undefined {
  // In the build this module is part of a chunk (dist/chunks/), not a file of its own.
  if (!moduleUrl.startsWith(`${pathToFileURL(join(projectRoot, 'dist')).href}/`)) return undefined;
  return readOr(join(projectRoot, 'dist', '.build-stamp.json'), '') || undefined;
}

export function loadOperations(schema: GraphQLSchema, resources: ResourceDef[] = RESOURCES, options: LoadOptions = {}): Operations {
  const fragments = new Map<string, FragmentDefinitionNode>();
  const operations = new Map<string, OperationDefinitionNode>();
  const sources = [
    ...resources.map((r) => fragmentsOf(r)),
    // Posts, pages, taxonomies and the site's own types: written from the schema (gateway/generated-operations.ts).
    generatedOperations(schema),
    ...readdirSync(dir).filter((f) => f.endsWith('.graphql')).sort().map((f) => readFileSync(join(dir, f), 'utf8')),
  ];
  let digest: string | undefined;
  if (options.validatedFile && options.build) {
    const hash = createHash('sha256').update(options.build);
    for (const source of sources) hash.update('\0').update(source);
    digest = hash.digest('hex');
  }
  const validated = digest !== undefined && readOr(options.validatedFile!, '') === digest;
  for (const source of sources) {
    for (const def of parse(source).definitions) {
      if (def.kind === Kind.FRAGMENT_DEFINITION) fragments.set(def.name.value, def);
      else if (def.kind === Kind.OPERATION_DEFINITION && def.name) operations.set(def.name.value, def);
    }
  }

  const spreadsOf = (node: OperationDefinitionNode | FragmentDefinitionNode): string[] => {
    const names: string[] = [];
    visit(node, { FragmentSpread: (s) => void names.push(s.name.value) });
    return names;
  };

  /** The documents of `name`: one per context when it spreads a `...XFields` placeholder, else one. */
  const build = (name: string, op: OperationDefinitionNode): [string, DocumentNode][] => {
    const built: [string, DocumentNode][] = [];
    const placeholder = spreadsOf(op).some((s) => s.endsWith('Fields'));
    for (const context of placeholder ? (Object.keys(SUFFIX) as RestContext[]) : [undefined]) {
      const concrete = visit(op, {
        FragmentSpread: (s) => (s.name.value.endsWith('Fields') && context
          ? { ...s, name: { ...s.name, value: s.name.value.slice(0, -'Fields'.length) + SUFFIX[context] } }
          : undefined),
      }) as OperationDefinitionNode;
      const used = new Set<string>();
      const queue = spreadsOf(concrete);
      while (queue.length) {
        const next = queue.pop()!;
        if (used.has(next)) continue;
        const fragment = fragments.get(next);
        if (!fragment) throw new Error(`operation ${name}: unknown fragment ${next}`);
        used.add(next);
        queue.push(...spreadsOf(fragment));
      }
      const document: DocumentNode = { kind: Kind.DOCUMENT, definitions: [concrete, ...[...used].map((f) => fragments.get(f)!)] };
      const errors = validated ? [] : validate(schema, document);
      if (errors.length) throw new Error(`operation ${name}${context ? ` (${context})` : ''} is invalid: ${errors.map((e) => e.message).join('; ')}`);
      built.push([context ? `${name}:${context}` : name, document]);
    }
    return built;
  };

  // Documents that must be validated are all made now (an invalid one stops the boot). Once these
  // sources have passed against this build, each is made when a route first runs it: a worker
  // then starts without making the hundreds it may never run.
  const documents = new Map<string, DocumentNode>();
  const made = new Set<string>();
  const make = (name: string): void => {
    if (made.has(name)) return;
    const op = operations.get(name);
    if (!op) return;
    for (const [key, document] of build(name, op)) documents.set(key, document);
    made.add(name);
  };
  if (!validated) for (const name of operations.keys()) make(name);

  if (digest !== undefined && !validated) {
    // Written whole under another name, then renamed: processes starting together never read half of it.
    const tmp = `${options.validatedFile}.${process.pid}`;
    try { writeFileSync(tmp, digest); renameSync(tmp, options.validatedFile!); } catch { /* read-only: validate every start */ }
  }

  return {
    get(name, context) {
      make(name);
      const doc = documents.get(context ? `${name}:${context}` : name) ?? documents.get(name);
      if (!doc) throw new Error(`no operation ${name}`);
      return doc;
    },
    names: () => [...operations.keys()],
  };
}
