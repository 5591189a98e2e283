// What a server's primary reads at its start, through the plain driver, to tell whether the start
// has anything to write: a restart of a set-up site whose address stays and which has no media
// write in flight needs no ORM in the primary at all. Prisma's first statements compile its query
// plans (a few hundred milliseconds of CPU); done while the first worker loads the service on the
// other core, they slowed that worker, and so the first answer, by about as much on this kind of
// machine. The migrations are read the same way (src/db/migrate.ts).
import Database from 'better-sqlite3';
import { providerOf } from '../config.js';
import { sqlitePath } from './migrate.js';

export interface StartProbe {
  /** The stored values (their JSON text) of the options asked for; a name not stored is absent. */
  options: Map<string, string>;
  /** Whether an upload intent is recorded: a media write in flight, or one a stopped process left. */
  uploadIntents: boolean;
}

const INTENTS = 'SELECT EXISTS (SELECT 1 FROM "UploadIntent") AS "any"';

/** Reads `optionNames` and whether upload intents exist; run after the migrations (the tables exist). */
export async function probeStart(databaseUrl: string, optionNames: readonly string[]): Promise<StartProbe> {
  return providerOf(databaseUrl) === 'postgres' ? probePostgres(databaseUrl, optionNames) : probeSqlite(databaseUrl, optionNames);
}

function probeSqlite(url: string, names: readonly string[]): StartProbe {
  // An in-memory database is another one on every connection: the start takes the whole path.
  if (sqlitePath(url) === ':memory:') return { options: new Map(), uploadIntents: true };
  const db = new Database(sqlitePath(url), { readonly: true, fileMustExist: true, timeout: 10_000 });
  try {
    const rows = db.prepare(`SELECT "name", "value" FROM "Option" WHERE "name" IN (${names.map(() => '?').join(', ')})`).all(...names) as { name: string; value: string }[];
    const { any } = db.prepare(INTENTS).get() as { any: number };
    return { options: new Map(rows.map((r) => [r.name, r.value])), uploadIntents: any !== 0 };
  } finally {
    db.close();
  }
}

async function probePostgres(url: string, names: readonly string[]): Promise<StartProbe> {
  const { default: pg } = await import('pg');
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    const { rows } = await client.query<{ name: string; value: string }>('SELECT "name", "value" FROM "Option" WHERE "name" = ANY($1::text[])', [names]);
    const intents = await client.query<{ any: boolean }>(INTENTS);
    return { options: new Map(rows.map((r) => [r.name, r.value])), uploadIntents: intents.rows[0].any };
  } finally {
    await client.end();
  }
}
