// Which SQL texts the database layer treats as writes (each one retires the response cache).
import { describe, expect, it } from 'vitest';
import { isWrite } from '../../src/db/client.js';

describe('isWrite', () => {
  it('takes what Prisma sends for model writes, on both databases', () => {
    expect(isWrite('INSERT INTO `main`.`Content` (`type`) VALUES (?) RETURNING `id` AS `id`')).toBe(true);
    expect(isWrite('INSERT INTO "public"."Option" ("name","value") VALUES ($1,$2) ON CONFLICT ("name") DO UPDATE SET "value" = $3 RETURNING "name"')).toBe(true);
    expect(isWrite('UPDATE "public"."Content" SET "title" = $1 WHERE "id" = $2')).toBe(true);
    expect(isWrite('DELETE FROM `main`.`Session` WHERE `userId` = ?')).toBe(true);
  });

  it('takes hand-written writes and schema changes, whatever their case and leading blanks or comments', () => {
    for (const sql of [
      'update "Content" set title = 1', '\n  Delete from x', 'replace into x values (1)', 'REPLACE INTO x VALUES (1)',
      'upsert into x values (1)', 'MERGE INTO x USING y ON true WHEN MATCHED THEN DELETE', 'create table x (a int)',
      'DROP TABLE x', 'alter table x add column b int', 'TRUNCATE x', '-- note\nINSERT INTO x VALUES (1)',
      '/* a */ /* b */ UPDATE x SET a = 1', '(INSERT INTO x VALUES (1))',
      'WITH gone AS (DELETE FROM x RETURNING id) SELECT count(*) FROM gone',
      'with t as (select 1) insert into x select * from t',
    ]) expect(isWrite(sql), sql).toBe(true);
  });

  it('leaves reads and the transaction statements alone', () => {
    for (const sql of [
      'SELECT `main`.`Content`.`id` FROM `main`.`Content` WHERE `id` = ?', 'select 1', ' SELECT 1', '(SELECT 1) UNION (SELECT 2)',
      'BEGIN', 'COMMIT', 'ROLLBACK', 'SAVEPOINT s1', 'ROLLBACK TO SAVEPOINT s1', 'RELEASE SAVEPOINT s1',
      'SET TRANSACTION ISOLATION LEVEL SERIALIZABLE', 'PRAGMA data_version', 'EXPLAIN SELECT 1', 'VALUES (1)',
      'WITH RECURSIVE a AS (SELECT id FROM "Content" WHERE id = $1) SELECT id FROM a',
      'SELECT "updated_at", "deleted" FROM x', 'WITH t AS (SELECT "updatedAt" FROM x) SELECT * FROM t',
      'INSERTED', 'updates', '',
    ]) expect(isWrite(sql), sql).toBe(false);
  });
});
