// What happens to an item's comments when the item goes to the trash or comes back, as WordPress's
// wp_trash_post_comments and wp_untrash_post_comments do: every comment takes the status
// post-trashed, its own status kept (in trashedStatus) and given back on untrash. Runs inside the
// item's own write transaction. Deleting the item deletes its comments by the foreign key.
import type { Db, Tx } from '../db/client.js';
import { placeholder, txStatements } from '../db/sql.js';

export async function trashPostComments(tx: Tx, db: Db, postId: number): Promise<void> {
  const p = (i: number) => placeholder(db.provider === 'postgres', i);
  await txStatements(tx, db).execute(`UPDATE "Comment" SET "trashedStatus" = "status", "status" = 'post-trashed' WHERE "postId" = ${p(0)} AND "status" <> 'post-trashed'`, postId);
}

export async function untrashPostComments(tx: Tx, db: Db, postId: number): Promise<void> {
  const p = (i: number) => placeholder(db.provider === 'postgres', i);
  await txStatements(tx, db).execute(`UPDATE "Comment" SET "status" = CASE WHEN "trashedStatus" = '' THEN 'hold' ELSE "trashedStatus" END, "trashedStatus" = '' WHERE "postId" = ${p(0)} AND "status" = 'post-trashed'`, postId);
}
