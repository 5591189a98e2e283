// `npm run db:migrate`: applies the pending migrations to DATABASE_URL (the server also does this
// at start) and says what it applied. The PostgreSQL database itself must exist.
import { loadConfig } from '../src/config.js';
import { migrate } from '../src/db/migrate.js';

const { databaseUrl } = loadConfig();
/** The address without credentials, for printing. */
const where = databaseUrl.replace(/\/\/[^@/]*@/, '//');

migrate(databaseUrl).then(
  (applied) => {
    if (applied.length) console.log(`applied ${applied.length} migration${applied.length === 1 ? '' : 's'} to ${where}:\n${applied.map((m) => `  ${m}`).join('\n')}`);
    else console.log(`${where} is up to date`);
  },
  (err) => {
    console.error(`migrating ${where} failed:`, err);
    process.exit(1);
  },
);
