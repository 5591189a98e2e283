// `npm start` runs the compiled copy of this file (dist/gateway/main.js, `npm run build`); the
// cluster primary and every worker start here. The service itself is gateway/start.ts, imported
// once V8's compile cache is on: on Node 22.1+ the compiled code of every module the service
// loads is kept under dist/.compile-cache, so later starts (and each worker of a start) skip most
// of the parsing and compiling. Where the runtime has no compile cache, or outside dist/ (tsx),
// it starts without one. NODE_COMPILE_CACHE, when set, takes precedence; NODE_DISABLE_COMPILE_CACHE=1 turns it off.
import module from 'node:module';
import { fileURLToPath } from 'node:url';

// `npm start` checks the version first (scripts/check-node.mjs); started directly on an older Node,
// the SQLite driver's binary would crash the process with no word of why.
const [major, minor] = process.versions.node.split('.').map(Number);
if (major < 22 || (major === 22 && minor < 15)) {
  console.error(`This service needs Node.js 22.15.0 or newer (24, the current LTS, is what it is tested on); this is Node.js ${process.versions.node}.`);
  process.exit(1);
}

const enableCompileCache = (module as { enableCompileCache?: (dir?: string) => unknown }).enableCompileCache;
if (typeof enableCompileCache === 'function' && import.meta.url.includes('/dist/gateway/')) {
  try { enableCompileCache(fileURLToPath(new URL('../.compile-cache', import.meta.url))); } catch { /* no cache: start anyway */ }
}
await import('./start.js');
