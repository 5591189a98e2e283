// `npm run build`: compiles the service (src/ and gateway/, Prisma's generated client included) to
// JavaScript under dist/, one .js file per .ts module, with esbuild (no type check: `npm run
// typecheck` does that). Nothing else is copied: the files read at run time (the SQL migrations,
// gateway/operations/*.graphql, package.json) are read from the repository (src/root.ts).
//
// `--if-stale` (what `npm start` runs first) builds only when dist/ is missing or older than a
// source: a changed, added or removed .ts file, package.json, tsconfig.json or this script.
// Builds of one tree take turns (a lock directory), so starts that race do not read half-written
// files. Files are overwritten in place, never deleted first: a running server's later imports still resolve.
//
// esbuild comes with tsx, a dependency (not a dev dependency), so it is there after
// `npm ci --omit=dev`; TypeScript's own compiler is a dev dependency and may not be.
import { mkdirSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const out = join(root, 'dist');
const stampFile = join(out, '.build-stamp.json');
const lock = join(root, 'dist.lock');
const SOURCES = ['src', 'gateway'];
const INPUTS = ['package.json', 'tsconfig.json', 'scripts/build.mjs'];

function sources() {
  const files = [];
  const walk = (dir) => {
    for (const entry of readdirSync(dir, { withFileTypes: true })) {
      const path = join(dir, entry.name);
      if (entry.isDirectory()) walk(path);
      else if (entry.name.endsWith('.ts') && !entry.name.endsWith('.d.ts')) files.push(path);
    }
  };
  for (const dir of SOURCES) walk(join(root, dir));
  return files.sort();
}

/** Why dist/ needs building, or null when it is up to date. */
function staleness(files) {
  let stamp;
  try { stamp = JSON.parse(readFileSync(stampFile, 'utf8')); } catch { return 'no build yet'; }
  const names = files.map((f) => relative(root, f));
  if (JSON.stringify(stamp.files) !== JSON.stringify(names)) return 'sources added or removed';
  for (const f of [...files, ...INPUTS.map((i) => join(root, i))]) {
    if (statSync(f).mtimeMs > stamp.builtAt) return `${relative(root, f)} changed`;
  }
  return null;
}

async function takeLock() {
  for (let waited = 0; ; waited += 100) {
    try { mkdirSync(lock); return; } catch (err) {
      if (err.code !== 'EEXIST') throw err;
      // A build that died holding the lock: builds take seconds, not minutes.
      try { if (Date.now() - statSync(lock).mtimeMs > 120_000) rmSync(lock, { recursive: true, force: true }); } catch { /* gone */ }
      if (waited > 180_000) throw new Error(`build: ${lock} is still held after 3 minutes`);
      await new Promise((r) => setTimeout(r, 100));
    }
  }
}

export async function buildService({ ifStale = false, quiet = false } = {}) {
  await takeLock();
  try {
    const files = sources();
    const reason = ifStale ? staleness(files) : 'asked';
    if (!reason) return false;
    const { build } = await import('esbuild');
    const started = Date.now();
    // Timestamp before reading the sources: an edit during the build makes the next start rebuild.
    const builtAt = Date.now();
    await build({
      entryPoints: files,
      outdir: out,
      outbase: root,
      bundle: false,
      platform: 'node',
      format: 'esm',
      target: 'node22',
      logLevel: 'warning',
    });
    writeFileSync(stampFile, JSON.stringify({ builtAt, files: files.map((f) => relative(root, f)) }));
    if (!quiet) console.log(`built ${files.length} modules into dist/ in ${Date.now() - started} ms${ifStale ? ` (${reason})` : ''}`);
    return true;
  } finally {
    rmSync(lock, { recursive: true, force: true });
  }
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  buildService({ ifStale: process.argv.includes('--if-stale') }).catch((err) => {
    console.error(err);
    process.exit(1);
  });
}
