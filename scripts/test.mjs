// `npm test`: the whole suite on SQLite, then again on PostgreSQL when one is reachable
// (TEST_DATABASE_URL, default the local server). REQUIRE_POSTGRES=1 makes an unreachable one a failure.
import { spawnSync } from 'node:child_process';
import pg from 'pg';

const extra = process.argv.slice(2);
const vitest = (provider) => spawnSync('npx', ['vitest', 'run', ...extra], { stdio: 'inherit', env: { ...process.env, TEST_PROVIDER: provider } }).status ?? 1;

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
  failed = vitest('postgres') !== 0 || failed;
}
process.exit(failed ? 1 : 0);
