// The repository root: the nearest directory above this module that holds package.json. The same
// directory whether this runs from the TypeScript sources (src/root.ts) or from the compiled copy
// (dist/src/root.js, `npm run build`), so files read at run time (migrations, the GraphQL
// operations, package.json) are always read from the sources, never copied into the build.
import { existsSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

function findRoot(from: string): string {
  for (let dir = from; ; dir = dirname(dir)) {
    if (existsSync(join(dir, 'package.json'))) return dir;
    if (dirname(dir) === dir) throw new Error(`no package.json above ${from}`);
  }
}

export const projectRoot = findRoot(dirname(fileURLToPath(import.meta.url)));
