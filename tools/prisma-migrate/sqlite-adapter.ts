// SQLite adapter for the Prisma 6.19 js schema engine, mending two of its defects:
// shadow-database replay sends whole migration files through executeRaw, which better-sqlite3
// refuses for several statements (so such a call is retried as a script), and `migrate dev`
// on a fresh file expects the bookkeeping table to exist already (so it is created on connect).
import { PrismaBetterSQLite3 } from "@prisma/adapter-better-sqlite3";
import type { SqlDriverAdapter, SqlMigrationAwareDriverAdapterFactory, SqlQuery } from "@prisma/driver-adapter-utils";

const BOOKKEEPING = `CREATE TABLE IF NOT EXISTS "_prisma_migrations" (
  "id" TEXT PRIMARY KEY NOT NULL, "checksum" TEXT NOT NULL, "finished_at" DATETIME,
  "migration_name" TEXT NOT NULL, "logs" TEXT, "rolled_back_at" DATETIME,
  "started_at" DATETIME NOT NULL DEFAULT current_timestamp, "applied_steps_count" INTEGER UNSIGNED NOT NULL DEFAULT 0
);`;

function scriptFallback(adapter: SqlDriverAdapter): SqlDriverAdapter {
  const raw = adapter.executeRaw.bind(adapter);
  adapter.executeRaw = async (q: SqlQuery) => {
    try {
      return await raw(q);
    } catch (err) {
      if (q.args.length > 0 || !/more than one statement/.test(String((err as Error)?.message))) throw err;
      await adapter.executeScript(q.sql);
      return 0;
    }
  };
  return adapter;
}

export function sqliteMigrationAdapter(url: string): SqlMigrationAwareDriverAdapterFactory {
  const base = new PrismaBetterSQLite3({ url });
  return {
    provider: base.provider,
    adapterName: base.adapterName,
    async connect() {
      const adapter = scriptFallback(await base.connect());
      await adapter.executeScript(BOOKKEEPING);
      return adapter;
    },
    connectToShadowDb: async () => scriptFallback(await base.connectToShadowDb()),
  };
}
