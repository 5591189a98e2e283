// `npm run client:types` (`tsx examples/client/generate-types.ts`): the service's OpenAPI document as TypeScript types for openapi-fetch
// (schema.d.ts beside this file, not committed: it is made from the running code, as a client
// makes it from a site's `/wp-json/openapi.json`). The document is the one the service serves,
// built by the app itself on an empty SQLite file (building it reads no table), for the
// deployment DEPLOYMENT names (A unless set).
//
// Binary bodies (`contentMediaType`) become `Blob`, as openapi-typescript's documentation
// suggests, so an upload passes a file without a cast.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import ts from 'typescript';
import openapiTS, { astToString } from 'openapi-typescript';

const BLOB = ts.factory.createTypeReferenceNode(ts.factory.createIdentifier('Blob'));

/** The document's types, as the text of a `.d.ts` module exporting `paths` and `components`. */
export async function typesOf(document: Record<string, unknown>): Promise<string> {
  const ast = await openapiTS(JSON.stringify(document), {
    transform(schema) {
      if ('contentMediaType' in schema && typeof schema.contentMediaType === 'string' && schema.type === 'string') return BLOB;
      return undefined;
    },
  });
  return astToString(ast);
}

/** The document the service serves, built by the app for a deployment (`DEPLOYMENT` when not given). */
export async function servedDocument(deployment?: string): Promise<Record<string, unknown>> {
  const { createApp, loadConfig, openDb } = await import('../../gateway/embed.js');
  const dir = mkdtempSync(join(tmpdir(), 'client-types-'));
  const db = await openDb(`file:${join(dir, 'empty.db')}`);
  try {
    const app = createApp(loadConfig(deployment ? { ...process.env, DEPLOYMENT: deployment } : process.env), db);
    return app.apiDocs.document();
  } finally {
    await db.close();
    rmSync(dir, { recursive: true, force: true });
  }
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const out = join(import.meta.dirname, 'schema.d.ts');
  writeFileSync(out, await typesOf(await servedDocument(process.env.DEPLOYMENT)));
  console.log(`wrote ${out}`);
}
