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

/** What the automatic persisted queries of one process may hold in all, in characters of documents. */
const APQ_MAX_CHARS = 4 * 1024 * 1024;

/**
 * The documents clients registered as automatic persisted queries (Apollo's protocol, yoga's APQ
 * plugin): by their SHA-256, at most `maxEntries` of them and APQ_MAX_CHARS in all, the least
 * recently used going first. Per process and not kept over a restart: a client whose hash is
 * forgotten gets `PersistedQueryNotFound` and sends the document again, as the protocol expects,
 * so any number of clients registering documents costs a bounded amount of memory. A document over
 * a quarter of the budget is run but not kept.
 */
export function apqStore(maxEntries: number, maxChars = APQ_MAX_CHARS) {
  const docs = new Map<string, string>();
  let used = 0;
  const drop = (hash: string) => {
    const doc = docs.get(hash);
    if (doc === undefined) return;
    docs.delete(hash);
    used -= doc.length;
  };
  return {
    get(hash: string): string | null {
      const doc = docs.get(hash);
      if (doc === undefined) return null;
      docs.delete(hash);
      docs.set(hash, doc);
      return doc;
    },
    set(hash: string, doc: string): void {
      drop(hash);
      if (doc.length > maxChars / 4) return;
      docs.set(hash, doc);
      used += doc.length;
      while (docs.size > maxEntries || used > maxChars) drop(docs.keys().next().value!);
    },
    get size() { return docs.size; },
  };
}
