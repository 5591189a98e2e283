// `npm test`: the whole suite on SQLite, then again on PostgreSQL when one is reachable
// (TEST_DATABASE_URL, default the local server; REQUIRE_POSTGRES=1 makes an unreachable one a
// failure), then the bundle lane: the REST, GraphQL and site suites on SQLite against the built
// bundle (`npm run build`, as `npm start` serves it), through the production HTTP server
// (TEST_BUNDLE=1, test/helpers/app.ts). Files named on the command line narrow every pass.
import { spawnSync } from 'node:child_process';
import pg from 'pg';

const extra = process.argv.slice(2);
const vitest = (provider, args = []) => spawnSync('npx', ['vitest', 'run', ...args, ...extra], { stdio: 'inherit', env: { ...process.env, TEST_PROVIDER: provider } }).status ?? 1;

// Files that never open the test database (unit tests, the printed schema, and the command-line,
// start-up and script tests, which make their own SQLite files) run once, in the SQLite pass.
const PROVIDER_FREE = ['test/unit/**', 'test/contract/schema.test.ts', 'test/contract/cli.test.ts', 'test/contract/start.test.ts', 'test/contract/db-scripts.test.ts', 'test/contract/readme-commands.test.ts'];

console.log('\n== SQLite ==');
let failed = vitest('sqlite') !== 0;

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
  failed = vitest('postgres', PROVIDER_FREE.flatMap((glob) => ['--exclude', glob])) !== 0 || failed;
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
    failed = spawnSync('npx', ['vitest', 'run', ...filters, ...options], { stdio: 'inherit', env: { ...process.env, TEST_PROVIDER: 'sqlite', TEST_BUNDLE: '1' } }).status !== 0 || failed;
  } else console.log('(none of the files named is in the lane)');
}
process.exit(failed ? 1 : 0);
