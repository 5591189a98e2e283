// `npm test`: the whole suite on SQLite, then again on PostgreSQL when one is reachable
// (TEST_DATABASE_URL, default the local server; REQUIRE_POSTGRES=1 makes an unreachable one a
// failure), then the bundle lane: the REST, GraphQL and site suites on SQLite against the built
// bundle (`npm run build`, as `npm start` serves it), through the production HTTP server
// (TEST_BUNDLE=1, test/helpers/app.ts), each answer checked against the OpenAPI document by the
// validating proxy in front of the server (CONTRACT_PROXY=1, scripts/contract/proxy.ts) instead of
// in the test helper. Files named on the command line narrow every pass.
//
// Interrupted (SIGINT, SIGTERM), it passes the signal on to the vitest it runs, waits for that to
// end, runs nothing more and ends by the same signal. vitest does not tear down when signalled:
// the next run's global setup removes what this one left (test/helpers/template.ts).
import { spawn, spawnSync } from 'node:child_process';
import { createRequire } from 'node:module';
import { constants } from 'node:os';
import { dirname, join } from 'node:path';
import pg from 'pg';

const extra = process.argv.slice(2);
// vitest itself, not through npx and a shell: the signal is for the process that runs the tests.
const VITEST = join(dirname(createRequire(import.meta.url).resolve('vitest/package.json')), 'vitest.mjs');

/** The vitest that runs now, if one does; the signal that interrupted the tests, once one has. */
let child = null;
let interrupted = null;
for (const signal of ['SIGINT', 'SIGTERM']) {
  process.on(signal, () => {
    interrupted ??= signal;
    // Ctrl-C in a terminal reaches the whole group, vitest too; a second one only ends it sooner.
    if (child) child.kill(signal);
    else stop();
  });
}

/** Ends this process as the signal would have, so whatever started it sees an interruption. */
function stop() {
  process.removeAllListeners(interrupted);
  process.kill(process.pid, interrupted);
  process.exit(128 + constants.signals[interrupted]);
}

/** Runs vitest with these arguments and environment, and waits for it; its exit status. */
function runVitest(args, env) {
  return new Promise((resolve) => {
    child = spawn(process.execPath, [VITEST, 'run', ...args], { stdio: 'inherit', env: { ...process.env, ...env } });
    const ended = (status) => { child = null; if (interrupted) stop(); resolve(status); };
    child.on('error', (err) => { console.error(err); ended(1); });
    child.on('exit', (code) => ended(code ?? 1));
  });
}

const vitest = (provider, args = []) => runVitest([...args, ...extra], { TEST_PROVIDER: provider });

// The content-model suite (test/model/) runs in a run of its own, with the tests' model file
// (vitest.model.config.ts); it follows each pass, on the same database and lane. Files named on
// the command line narrow it as they narrow the others (none of them in test/model: it is skipped).
const MODEL_CONFIG = ['--config', 'vitest.model.config.ts'];
const modelFilesNamed = () => extra.filter((a) => !a.startsWith('-'));
const wantsModel = () => !modelFilesNamed().length || modelFilesNamed().some((f) => f.startsWith('test/model'));
const modelArgs = () => [...MODEL_CONFIG, ...(modelFilesNamed().length ? modelFilesNamed().filter((f) => f.startsWith('test/model')) : []), ...extra.filter((a) => a.startsWith('-'))];
async function modelPass(env) {
  if (!wantsModel()) return false;
  console.log('\n-- content model (test/model) --');
  return (await runVitest(modelArgs(), env)) !== 0;
}

// Files that never open the test database (unit tests, the printed schema, the import-boundary
// check, and the command-line, start-up and script tests, which make their own SQLite files) run
// once, in the SQLite pass.
const PROVIDER_FREE = ['test/unit/**', 'test/contract/schema.test.ts', 'test/contract/cli.test.ts', 'test/contract/start.test.ts', 'test/contract/db-scripts.test.ts', 'test/contract/readme-commands.test.ts', 'test/contract/boundaries.test.ts', 'test/contract/model-columns.test.ts'];

console.log('\n== SQLite ==');
let failed = (await vitest('sqlite')) !== 0;
failed = (await modelPass({ TEST_PROVIDER: 'sqlite' })) || failed;

const url = process.env.TEST_DATABASE_URL ?? 'postgresql://postgres@127.0.0.1:5432/postgres';
let reachable = false;
try {
  const client = new pg.Client({ connectionString: url, connectionTimeoutMillis: 2000 });
  await client.connect();
  await client.end();
  reachable = true;
} catch (err) {
  const message = `PostgreSQL at ${url.replace(/\/\/[^@]*@/, '//')} is not reachable (${err.message})`;
  if (process.env.REQUIRE_POSTGRES === '1') { console.error(message); process.exit(1); }
  console.log(`\n${message}: skipping the PostgreSQL run`);
}
if (reachable) {
  console.log('\n== PostgreSQL ==');
  failed = (await vitest('postgres', PROVIDER_FREE.flatMap((glob) => ['--exclude', glob]))) !== 0 || failed;
  failed = (await modelPass({ TEST_PROVIDER: 'postgres' })) || failed;
}

// The bundle lane: what only the built code can get wrong (how esbuild joins a library's modules,
// what the build leaves out) is found here, not in production.
const BUNDLE_LANE = ['test/rest', 'test/graphql', 'test/site'];
console.log('\n== Bundle (dist/, SQLite, over HTTP) ==');
const built = spawnSync(process.execPath, ['scripts/build.mjs', '--if-stale'], { stdio: 'inherit' }).status === 0;
if (!built) failed = true;
else {
  const files = extra.filter((a) => !a.startsWith('-'));
  const filters = files.length ? files.filter((f) => BUNDLE_LANE.some((dir) => f.startsWith(dir))) : BUNDLE_LANE;
  if (!files.length || filters.length) {
    const options = extra.filter((a) => a.startsWith('-'));
    failed = (await runVitest([...filters, ...options], { TEST_PROVIDER: 'sqlite', TEST_BUNDLE: '1', CONTRACT_PROXY: '1' })) !== 0 || failed;
  } else console.log('(none of the files named is in the lane)');
  failed = (await modelPass({ TEST_PROVIDER: 'sqlite', TEST_BUNDLE: '1' })) || failed;
}
process.exit(failed ? 1 : 0);
