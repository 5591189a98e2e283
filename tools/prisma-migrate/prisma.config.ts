// Prisma 6.19 CLI config (js schema engine + driver adapters): runs every migrate command offline.
// Used only to author migrations; the service applies them itself (src/db/migrate.ts).
import { defineConfig } from "prisma/config";
import { sqliteMigrationAdapter } from "./sqlite-adapter";
import { pgMigrationAdapter } from "./pg-adapter";

const db = process.env.DB === "postgres" ? "postgres" : "sqlite";
process.env.DATABASE_URL ??= db === "postgres" ? "postgresql://postgres@127.0.0.1:5432/postgres" : "file:./.author.db";
const url = process.env.DATABASE_URL;

export default defineConfig({
  experimental: { adapter: true },
  engine: "js",
  schema: `.work/${db}/schema.prisma`,
  migrations: { path: `../../prisma/${db}/migrations` },
  adapter: async () => (db === "postgres" ? pgMigrationAdapter(url) : sqliteMigrationAdapter(url)),
});
