// The persisted-operations file of /graphql (GRAPHQL_PERSISTED, GRAPHQL_PERSISTED_FILE), read when
// the app is made: a bad file stops the start, before yoga (loaded later) would have read it.
import { readFileSync } from 'node:fs';
import { parse } from 'graphql';

/**
 * The persisted-operations file: a JSON object of id (by convention the SHA-256, hex, of the
 * document) → document. Read and parsed once at start; a bad file stops the start.
 */
export function loadPersistedOperations(path: string): Map<string, string> {
  let list: unknown;
  try { list = JSON.parse(readFileSync(path, 'utf8')); } catch (err) {
    throw new Error(`GRAPHQL_PERSISTED_FILE ${path}: ${(err as Error).message}`);
  }
  if (!list || typeof list !== 'object' || Array.isArray(list)) throw new Error(`GRAPHQL_PERSISTED_FILE ${path}: expected a JSON object of id → document`);
  const out = new Map<string, string>();
  for (const [id, doc] of Object.entries(list)) {
    if (typeof doc !== 'string') throw new Error(`GRAPHQL_PERSISTED_FILE ${path}: the document of ${id} is not a string`);
    try { parse(doc); } catch (err) { throw new Error(`GRAPHQL_PERSISTED_FILE ${path}: the document of ${id} does not parse: ${(err as Error).message}`); }
    out.set(id, doc);
  }
  return out;
}
