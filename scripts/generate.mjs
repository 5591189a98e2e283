// Writes one Prisma schema per provider from prisma/models.prisma and generates each client
// (Prisma 7, no native engine needed) plus the Pothos types. Runs on `npm install`.
import { readFileSync, writeFileSync, mkdirSync } from 'node:fs';
import { execFileSync } from 'node:child_process';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const models = readFileSync(join(root, 'prisma/models.prisma'), 'utf8');

export const providers = {
  sqlite: { dir: 'sqlite', provider: 'sqlite' },
  postgres: { dir: 'postgres', provider: 'postgresql' },
};

export function schemaFor(name) {
  const { provider } = providers[name];
  const pothos =
    name === 'sqlite'
      ? `
generator pothos {
  provider     = "prisma-pothos-types"
  clientOutput = "./sqlite/client.js"
  output       = "../../src/generated/pothos-types.ts"
}
`
      : '';
  return `// Generated from prisma/models.prisma by scripts/generate.mjs: do not edit.

datasource db {
  provider = "${provider}"
}

generator client {
  provider               = "prisma-client"
  output                 = "../../src/generated/${name}"
  moduleFormat           = "esm"
  importFileExtension    = "js"
}
${pothos}
${models}`;
}

const check = process.argv.includes('--check');
let drift = false;
for (const name of Object.keys(providers)) {
  const file = join(root, 'prisma', providers[name].dir, 'schema.prisma');
  const text = schemaFor(name);
  if (check) {
    let current = '';
    try { current = readFileSync(file, 'utf8'); } catch {}
    if (current !== text) { console.error(`${file} is out of date: run npm run generate`); drift = true; }
    continue;
  }
  mkdirSync(dirname(file), { recursive: true });
  writeFileSync(file, text);
  // Generation never starts the schema engine, but the CLI tries to download one unless this is set.
  execFileSync(process.execPath, [join(root, 'node_modules/prisma/build/index.js'), 'generate', '--schema', file], {
    cwd: root,
    stdio: ['ignore', 'ignore', 'inherit'],
    env: { ...process.env, PATH: join(root, 'node_modules/.bin') + ':' + process.env.PATH, PRISMA_SCHEMA_ENGINE_BINARY: process.env.PRISMA_SCHEMA_ENGINE_BINARY ?? process.execPath, PRISMA_HIDE_UPDATE_MESSAGE: '1', CHECKPOINT_DISABLE: '1' },
  });
}
if (!check) for (const name of Object.keys(providers)) loadCompilerFromFile(name);
if (drift) process.exit(1);
if (!check) console.log('generated Prisma clients for sqlite and postgres');

/**
 * The generated client loads Prisma's query compiler (WebAssembly) from a module that exports it
 * as one base64 string, 4.4 MB of source. A module stays loaded for the life of the process, so
 * its source text and the string both stayed on the heap (about 9 MB per process, measured in a
 * heap snapshot) after the compiler was built from them. The client is changed to read the same
 * file's text instead: the strings are garbage once the module is compiled.
 */
function loadCompilerFromFile(name) {
  const file = join(root, 'src/generated', providers[name].dir, 'internal/class.ts');
  const text = readFileSync(file, 'utf8');
  const pattern = /const \{ wasm \} = await import\("(@prisma\/client\/runtime\/[^"]+)\.mjs"\)\n(\s*)return await decodeBase64AsWasm\(wasm\)/;
  const found = pattern.exec(text);
  if (!found) throw new Error(`${file}: the query compiler's loader is not the one scripts/generate.mjs knows; look at loadCompilerFromFile`);
  const [, spec, indent] = found;
  const loader = [
    `// Changed by scripts/generate.mjs (loadCompilerFromFile): the base64 text is read, not imported, so it is not kept.`,
    `const { readFile } = await import('node:fs/promises')`,
    `const { createRequire } = await import('node:module')`,
    `const source = await readFile(createRequire(import.meta.url).resolve("${spec}.js"), 'latin1')`,
    `const start = source.indexOf('"') + 1`,
    `return await decodeBase64AsWasm(source.slice(start, source.indexOf('"', start)))`,
  ].join(`\n${indent}`);
  writeFileSync(file, text.replace(pattern, loader));
}
