// PostgreSQL content tallies, measured in process: on a new database of 100,000 posts (made with
// INSERT … SELECT generate_series, the triggers on), a list total from COUNT(*) against the tally
// read (published posts, one author's published posts); then single-post creates through the app
// (no HTTP) with the tally triggers and without them, in alternating rounds.
//   npx tsx bench/content-tally.ts [postgresUrl] [posts] [creates]
// The database of the URL (default bench_content_tally) is dropped and made again.
import pg from 'pg';
import { loadConfig } from '../src/config.js';
import { migrate } from '../src/db/migrate.js';
import { openDb } from '../src/db/client.js';
import { countContentRows, tallyCount } from '../src/db/content-read.js';
import { bootstrapSite } from '../src/site/bootstrap.js';
import { createApplicationPassword } from '../src/site/operator.js';
import { createApp } from '../gateway/app.js';
import { recreateDatabase } from './seed.js';

const url = process.argv[2] ?? 'postgresql://postgres@127.0.0.1:5432/bench_content_tally';
const POSTS = Number(process.argv[3] ?? 100_000);
const CREATES = Number(process.argv[4] ?? 2_000);
const ROUNDS = 4;

await recreateDatabase(url);
await migrate(url);
let db = await openDb(url);
await bootstrapSite(db, { siteUrl: 'http://127.0.0.1', adminUser: 'admin', adminPassword: 'bench-admin-password' });
await db.close();

const client = new pg.Client({ connectionString: url });
await client.connect();
const sql = async (text: string, args: unknown[] = []) => (await client.query(text, args)).rows;
await sql(`INSERT INTO "User" ("login", "email", "slug", "role") SELECT 'author' || i, 'author' || i || '@example.test', 'author-' || i, 'author' FROM generate_series(1, 4) i`);
const authors = (await sql(`SELECT "id" FROM "User" ORDER BY "id"`)).map((r) => r.id as number);
const [category] = await sql(`SELECT "id" FROM "Term" WHERE "taxonomy" = 'category' AND "slug" = 'uncategorized'`);
let t = performance.now();
// Seven in ten published, the rest drafts, pending or private; five authors in turn; each in the
// default category. One statement each: the triggers' deltas are folded once, at its commit.
await sql(`INSERT INTO "Content" ("type", "status", "authorId", "title", "slug", "date", "dateGmt", "modified", "modifiedGmt")
  SELECT 'post', (ARRAY['publish','publish','publish','publish','publish','publish','publish','draft','pending','private'])[1 + i % 10],
         ($1::int[])[1 + i % ${authors.length}], 'Post ' || i, 'post-' || i,
         now() - i * interval '1 minute', now() - i * interval '1 minute', now(), now()
  FROM generate_series(1, ${POSTS}) i`, [authors]);
await sql(`INSERT INTO "TermRelationship" ("contentId", "termId", "taxonomy") SELECT "id", $1, 'category' FROM "Content" WHERE "type" = 'post'`, [category.id]);
console.log(`${POSTS} posts and their category links inserted (triggers on): ${Math.round(performance.now() - t)} ms`);
await sql('VACUUM ANALYZE');

db = await openDb(url);
const published = { AND: [{ type: 'post' }, { status: { in: ['publish'] } }] };
const byAuthor = { AND: [{ type: 'post' }, { status: { in: ['publish'] } }, { authorId: { in: [authors[2]] } }] };
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
async function time(label: string, fn: () => Promise<number | null>): Promise<number | null> {
  let value: number | null = null;
  for (let i = 0; i < 5; i++) value = await fn();
  const ms: number[] = [];
  for (let i = 0; i < 31; i++) {
    const s = performance.now();
    await fn();
    ms.push(performance.now() - s);
  }
  console.log(`${label}: ${value} — median ${median(ms).toFixed(3)} ms (min ${Math.min(...ms).toFixed(3)}, max ${Math.max(...ms).toFixed(3)})`);
  return value;
}
for (const [name, where] of [['published posts', published], ['one author\'s published posts', byAuthor]] as const) {
  const counted = await time(`${name}, COUNT(*)`, () => countContentRows(db, where));
  const tallied = await time(`${name}, tally`, () => tallyCount(db, where));
  if (counted !== tallied) throw new Error(`${name}: tally ${tallied}, COUNT(*) ${counted}`);
}

// Writes: alternating rounds with the triggers and without (dropped, then made again).
const admin = await db.prisma.user.findFirstOrThrow({ where: { role: 'administrator' }, orderBy: { id: 'asc' } });
const { password } = await createApplicationPassword(db, admin.id, 'tally bench');
const auth = 'Basic ' + Buffer.from(`${admin.login}:${password}`).toString('base64');
const app = createApp({ ...loadConfig({}), databaseUrl: url, siteUrl: 'http://x' }, db);
let serial = 0;
async function create(): Promise<void> {
  const headers = new Headers({ authorization: auth, 'content-type': 'application/json' });
  const body = Buffer.from(JSON.stringify({ title: `Created ${++serial}`, content: 'Made in process.', status: 'publish' }));
  const res = await app.handle({ method: 'POST', url: '/wp-json/core/v2/posts', headers, body } as never);
  if (res.status !== 201) throw new Error(`create answered ${res.status}`);
}
const TRIGGERS = [
  ['content_tally_insert', '"Content"', 'AFTER INSERT ON "Content" FOR EACH ROW EXECUTE FUNCTION content_tally_delta_content()'],
  ['content_tally_update', '"Content"', 'AFTER UPDATE OF "type", "status", "authorId" ON "Content" FOR EACH ROW EXECUTE FUNCTION content_tally_delta_content()'],
  ['content_tally_delete', '"Content"', 'BEFORE DELETE ON "Content" FOR EACH ROW EXECUTE FUNCTION content_tally_delta_content()'],
  ['content_tally_term', '"TermRelationship"', 'AFTER INSERT OR DELETE OR UPDATE OF "termId", "contentId" ON "TermRelationship" FOR EACH ROW EXECUTE FUNCTION content_tally_delta_term()'],
] as const;
let triggersOn = true;
const setTriggers = async (on: boolean) => {
  if (on === triggersOn) return;
  for (const [name, table, def] of TRIGGERS) await sql(on ? `CREATE TRIGGER ${name} ${def}` : `DROP TRIGGER ${name} ON ${table}`);
  triggersOn = on;
};
for (let i = 0; i < 50; i++) await create();
const totals = { on: 0, off: 0 };
const cpu = { on: 0, off: 0 };
const statements = { on: 0, off: 0 };
for (let round = 0; round < ROUNDS; round++) {
  for (const mode of (round % 2 ? ['off', 'on'] : ['on', 'off']) as ('on' | 'off')[]) {
    await setTriggers(mode === 'on');
    const s0 = db.statements;
    const c0 = process.cpuUsage();
    t = performance.now();
    for (let i = 0; i < CREATES / ROUNDS; i++) await create();
    totals[mode] += performance.now() - t;
    const c = process.cpuUsage(c0);
    cpu[mode] += (c.user + c.system) / 1000;
    statements[mode] += db.statements - s0;
  }
}
for (const mode of ['on', 'off'] as const) {
  console.log(`${CREATES} creates, triggers ${mode}: ${Math.round(totals[mode])} ms (${(totals[mode] / CREATES).toFixed(2)} ms a create, ${(cpu[mode] / CREATES).toFixed(2)} ms of this process's CPU, ${(statements[mode] / CREATES).toFixed(1)} statements)`);
}
await setTriggers(true);
await db.close();
await client.end();
