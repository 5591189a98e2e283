// Applies the SQL migrations in prisma/<provider>/migrations at start-up, keeping Prisma's
// `_prisma_migrations` bookkeeping so that `prisma migrate status` on a connected machine agrees.
// Runs on the plain drivers: the Prisma 7 CLI cannot run migrations without a native engine.
import { createHash, randomUUID } from 'node:crypto';
import { existsSync, mkdirSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import Database from 'better-sqlite3';
import { providerOf } from '../config.js';
import { projectRoot as root } from '../root.js';

export interface Migration { name: string; sql: string; checksum: string }

export function migrationsFor(provider: 'sqlite' | 'postgres'): Migration[] {
  const dir = join(root, 'prisma', provider, 'migrations');
  return readdirSync(dir, { withFileTypes: true })
    .filter((d) => d.isDirectory() && existsSync(join(dir, d.name, 'migration.sql')))
    .map((d) => d.name)
    .sort()
    .map((name) => {
      const sql = readFileSync(join(dir, name, 'migration.sql'), 'utf8');
      return { name, sql, checksum: createHash('sha256').update(sql).digest('hex') };
    });
}

export function sqlitePath(url: string): string {
  return url.replace(/^file:/, '').replace(/\?.*$/, '');
}

const SQLITE_BOOKKEEPING = `CREATE TABLE IF NOT EXISTS "_prisma_migrations" (
  "id" TEXT PRIMARY KEY NOT NULL, "checksum" TEXT NOT NULL, "finished_at" DATETIME,
  "migration_name" TEXT NOT NULL, "logs" TEXT, "rolled_back_at" DATETIME,
  "started_at" DATETIME NOT NULL DEFAULT current_timestamp, "applied_steps_count" INTEGER UNSIGNED NOT NULL DEFAULT 0)`;

const PG_BOOKKEEPING = `CREATE TABLE IF NOT EXISTS "_prisma_migrations" (
  "id" VARCHAR(36) PRIMARY KEY NOT NULL, "checksum" VARCHAR(64) NOT NULL, "finished_at" TIMESTAMPTZ,
  "migration_name" VARCHAR(255) NOT NULL, "logs" TEXT, "rolled_back_at" TIMESTAMPTZ,
  "started_at" TIMESTAMPTZ NOT NULL DEFAULT now(), "applied_steps_count" INTEGER NOT NULL DEFAULT 0)`;

/** Applies pending migrations; returns the names applied. Each migration runs in one transaction. */
export async function migrate(databaseUrl: string): Promise<string[]> {
  return providerOf(databaseUrl) === 'postgres' ? migratePostgres(databaseUrl) : migrateSqlite(databaseUrl);
}

function migrateSqlite(url: string): string[] {
  const path = sqlitePath(url);
  if (path !== ':memory:') mkdirSync(dirname(resolve(path)), { recursive: true });
  const db = new Database(path, { timeout: 10_000 });
  try {
    db.pragma('journal_mode = WAL');
    db.exec(SQLITE_BOOKKEEPING);
    const done = new Set(
      (db.prepare('SELECT migration_name FROM _prisma_migrations WHERE finished_at IS NOT NULL AND rolled_back_at IS NULL').all() as { migration_name: string }[]).map((r) => r.migration_name),
    );
    const applied: string[] = [];
    for (const m of migrationsFor('sqlite')) {
      if (done.has(m.name)) continue;
      db.transaction(() => {
        db.exec(m.sql);
        db.prepare(
          'INSERT INTO _prisma_migrations (id, checksum, finished_at, migration_name, started_at, applied_steps_count) VALUES (?, ?, ?, ?, ?, 1)',
        ).run(randomUUID(), m.checksum, Date.now(), m.name, Date.now());
      }).immediate();
      applied.push(m.name);
    }
    return applied;
  } finally {
    db.close();
  }
}

async function migratePostgres(url: string): Promise<string[]> {
  const { default: pg } = await import('pg');
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    // Several processes may start together: one migrates, the others wait on the lock.
    await client.query('SELECT pg_advisory_lock(72707369)');
    await client.query(PG_BOOKKEEPING);
    const { rows } = await client.query('SELECT migration_name FROM _prisma_migrations WHERE finished_at IS NOT NULL AND rolled_back_at IS NULL');
    const done = new Set(rows.map((r: { migration_name: string }) => r.migration_name));
    const applied: string[] = [];
    for (const m of migrationsFor('postgres')) {
      if (done.has(m.name)) continue;
      await client.query('BEGIN');
      try {
        await client.query(m.sql);
        await client.query(
          'INSERT INTO _prisma_migrations (id, checksum, finished_at, migration_name, started_at, applied_steps_count) VALUES ($1, $2, now(), $3, now(), 1)',
          [randomUUID(), m.checksum, m.name],
        );
        await client.query('COMMIT');
      } catch (err) {
        await client.query('ROLLBACK');
        throw err;
      }
      applied.push(m.name);
    }
    return applied;
  } finally {
    await client.query('SELECT pg_advisory_unlock(72707369)').catch(() => {});
    await client.end();
  }
}
