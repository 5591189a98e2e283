// The SQL migrations must build exactly the tables, columns and indexes of prisma/models.prisma.
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { describe, expect, it } from 'vitest';
import { getDatamodel } from '../../src/generated/pothos-types.js';
import { migrate, migrationsFor } from '../../src/db/migrate.js';

describe('migrations', () => {
  it('produce every model, scalar column and index of the data model (SQLite)', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'migrations-'));
    try {
      const file = join(dir, 'm.db');
      expect(await migrate(`file:${file}`)).toEqual(migrationsFor('sqlite').map((m) => m.name));
      expect(await migrate(`file:${file}`)).toEqual([]);
      const db = new Database(file);
      const models = getDatamodel().datamodel.models as unknown as Record<string, { fields: { name: string; kind: string }[] }>;
      for (const [name, model] of Object.entries(models)) {
        const columns = (db.prepare(`PRAGMA table_info("${name}")`).all() as { name: string }[]).map((c) => c.name).sort();
        const scalars = model.fields.filter((f) => f.kind === 'scalar' || f.kind === 'enum').map((f) => f.name).sort();
        expect(columns, name).toEqual(scalars);
      }
      const tables = (db.prepare(`SELECT name FROM sqlite_master WHERE type='table' AND name NOT LIKE '\\_%' ESCAPE '\\' AND name NOT LIKE 'sqlite_%' AND name NOT LIKE 'content_fts%'`).all() as { name: string }[]).map((t) => t.name).sort();
      expect(tables).toEqual(Object.keys(models).sort());
      const indexes = (db.prepare(`SELECT name FROM sqlite_master WHERE type='index' AND sql IS NOT NULL`).all() as { name: string }[]).map((i) => i.name);
      expect(indexes).toEqual(expect.arrayContaining(['Content_type_status_date_id_idx', 'Content_type_slug_idx', 'TermRelationship_termId_contentId_idx']));
      db.close();
    } finally { rmSync(dir, { recursive: true, force: true }); }
  });

  it('were generated from the current models (provider copies are not stale)', () => {
    execFileSync(process.execPath, ['scripts/generate.mjs', '--check'], { stdio: 'pipe' });
  });
});
