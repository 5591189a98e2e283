// `npm run build`: compiles the service (src/ and gateway/, Prisma's generated client included) to
// JavaScript under dist/ with esbuild (no type check: `npm run typecheck` does that): one bundle,
// dist/gateway/main.js, with the modules a process loads later (the primary's set-up, the
// service, the GraphQL server) split into chunks under dist/chunks/ that it imports when it needs
// them. The libraries are bundled in too, except those that find files of their own at run time
// (native addons, Prisma's runtime and its query compiler, the AWS SDK, the log's worker thread,
// swagger-ui-dist's assets) and GraphiQL's page (see EXTERNAL), which load from node_modules as
// before. Bundled, a worker loads one file and a few chunks instead of about 700 modules: here its
// modules loaded in 0.3 s instead of 0.95 s on Node 20, most of it saved on resolving and opening
// files. Nothing else is copied: the files read at run time (the SQL migrations,
// gateway/operations/*.graphql, package.json) are read from the repository (src/root.ts).
//
// `--if-stale` (what `npm start` runs first) builds only when dist/ is missing or older than a
// source: a changed, added or removed .ts file, package.json, package-lock.json (the bundled
// libraries), tsconfig.json or this script. Builds of one tree take turns (a lock directory), so
// starts that race do not read half-written files. Files are overwritten in place, never deleted
// first: a running server's later imports still resolve (the chunks of the two latest builds are
// kept; older ones are removed).
//
// esbuild comes with tsx, a dependency (not a dev dependency), so it is there after
// `npm ci --omit=dev`; TypeScript's own compiler is a dev dependency and may not be.
import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const out = join(root, 'dist');
const stampFile = join(out, '.build-stamp.json');
const lock = join(root, 'dist.lock');
const SOURCES = ['src', 'gateway'];
const INPUTS = ['package.json', 'package-lock.json', 'tsconfig.json', 'scripts/build.mjs'];
/**
 * Packages loaded from node_modules at run time, not bundled: native addons, and those that find
 * files beside their own code (Prisma's runtime reads its query compiler, pino starts a worker
 * thread from a file, the S3 client loads parts of itself lazily). Also GraphiQL's page
 * (@graphql-yoga/render-graphiql, gateway/graphiql.ts): about 9 MB of strings imported on the
 * first GraphiQL request only, so bundled it would be a chunk of its own all the same, copied
 * into every build (two kept) and adding about half again to the build's time, for nothing.
 */
const EXTERNAL = [
  'better-sqlite3', 'sharp', '@node-rs/argon2', 'pg', 'pg-native', '@prisma/client', '@prisma/adapter-better-sqlite3', '@prisma/adapter-pg',
  '@prisma/client/*', '@aws-sdk/*', 'pino', 'thread-stream', 'swagger-ui-dist', 'swagger-ui-dist/*', '@graphql-yoga/render-graphiql',
];
/** The build's entries, as files of dist/gateway: the server, and the service as a library (gateway/embed.ts). */
const ENTRIES = ['main.js', 'embed.js'];
/** ESM output of bundled CommonJS code calls `require` for node's own modules: each output file gets one. */
const REQUIRE_BANNER = "import { createRequire as __serviceRequire } from 'node:module'; const require = __serviceRequire(import.meta.url);";

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

/**
 * Removes what older builds left in dist/: chunks neither this build nor the one before it wrote
 * (a server started from the previous build may still import its chunks), and the per-module
 * files of the builds before bundling.
 */
function pruneChunks(current) {
  let previous = [];
  try { previous = JSON.parse(readFileSync(stampFile, 'utf8')).chunks ?? []; } catch { /* first build */ }
  const keep = new Set([...current, ...previous]);
  const dir = join(out, 'chunks');
  for (const name of readdirSync(dir)) if (!keep.has(`chunks/${name}`)) rmSync(join(dir, name), { force: true });
  rmSync(join(out, 'src'), { recursive: true, force: true });
  for (const name of readdirSync(join(out, 'gateway'))) if (!ENTRIES.includes(name)) rmSync(join(out, 'gateway', name), { recursive: true, force: true });
}

/**
 * Fills V8's compile cache (dist/.compile-cache, turned on by gateway/main.ts) with the new build's
 * code, so that the first start after a build is as quick as the later ones. V8 caches a script's
 * code as compiled when the cache entry is written, at the process's exit: loading the modules
 * alone leaves out every function that had not run yet (making the app, serving), so this starts
 * the built service once, on a database of its own in a temporary directory, in one process (which
 * runs what the primary and a worker run), asks it for the index, a list, a post and a GraphQL
 * query, and stops it. Spawn to the first answer with an empty cache took 1.24–1.35 s here, against
 * 0.89–1.02 s with one. Where the runtime has no compile cache, or this fails, starts compile as
 * before. False when it did not fill the cache.
 */
async function primeCompileCache() {
  const cache = join(out, '.compile-cache');
  // Entries of older builds' files are never read again.
  rmSync(cache, { recursive: true, force: true });
  const dir = mkdtempSync(join(tmpdir(), 'service-prime-'));
  const env = { ...process.env, DATABASE_URL: `file:${join(dir, 'site.db')}`, UPLOADS_DIR: join(dir, 'uploads'), PORT: '0', HOST: '127.0.0.1', WORKERS: '1', LOG_LEVEL: 'error' };
  for (const name of ['NODE_COMPILE_CACHE', 'NODE_DISABLE_COMPILE_CACHE', 'SITE_URL', 'DEPLOYMENT']) delete env[name];
  const child = spawn(process.execPath, [join(out, 'gateway', 'main.js')], { cwd: root, env, stdio: ['ignore', 'pipe', 'ignore'] });
  const exited = new Promise((resolve) => child.once('exit', (code) => resolve(code)));
  const timer = setTimeout(() => child.kill('SIGKILL'), 60_000);
  try {
    const base = await new Promise((resolve, reject) => {
      let text = '';
      child.stdout.on('data', (chunk) => {
        text += chunk;
        const m = /listening on (http:\/\/\S+)/.exec(text);
        if (m) resolve(m[1]);
      });
      exited.then(() => reject(new Error('the service stopped before it listened')));
    });
    child.stdout.resume();
    const posts = await (await fetch(`${base}/wp-json/core/v2/posts`)).json();
    for (const path of ['/wp-json/', `/wp-json/core/v2/posts/${posts[0]?.id ?? 1}`, '/graphql?query=%7Bposts%7Bnodes%7Bid%20title%7D%7D%7D']) {
      await (await fetch(base + path)).arrayBuffer();
    }
    child.kill('SIGTERM');
    return (await exited) === 0 && existsSync(cache);
  } catch {
    child.kill('SIGKILL');
    await exited;
    return false;
  } finally {
    clearTimeout(timer);
    rmSync(dir, { recursive: true, force: true });
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
    const result = await build({
      entryPoints: [join(root, 'gateway', 'main.ts'), join(root, 'gateway', 'embed.ts')],
      absWorkingDir: root, // the metafile's paths are relative to it
      outdir: out,
      outbase: root,
      bundle: true,
      splitting: true,
      chunkNames: 'chunks/[name]-[hash]',
      external: EXTERNAL,
      banner: { js: REQUIRE_BANNER },
      platform: 'node',
      format: 'esm',
      target: 'node20',
      metafile: true,
      logLevel: 'warning',
    });
    const chunks = Object.keys(result.metafile.outputs).map((f) => relative(out, join(root, f))).filter((f) => f.startsWith('chunks/')).sort();
    pruneChunks(chunks);
    writeFileSync(stampFile, JSON.stringify({ builtAt, files: files.map((f) => relative(root, f)), chunks }));
    // After the stamp: the start below also validates the operations once for this build (dist/.operations-validated, keyed by it).
    const primed = await primeCompileCache();
    if (!quiet) console.log(`built ${files.length} modules into dist/gateway/main.js and ${chunks.length} chunks in ${Date.now() - started} ms${ifStale ? ` (${reason})` : ''}${primed ? '' : '; the compile cache was not filled'}`);
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
