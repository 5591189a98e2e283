// The term count additions a batch keeps until its transaction ends (src/content/term-counts.ts
// says why). The batch's database handle carries them (`Db.termCounts`), so the class lives with
// the handle in the database layer; the count statements themselves stay in src/content.

/**
 * The count changes of a batch's items, in order: `add` (one more published item) and `reset`
 * (the term was recounted from its links, which already holds every earlier addition). `mark` and
 * `undo` follow the items' savepoints.
 */
export class DeferredTermCounts {
  private log: { reset: boolean; id: number }[] = [];

  add(ids: number[]): void { for (const id of ids) this.log.push({ reset: false, id }); }
  reset(ids: number[]): void { for (const id of ids) this.log.push({ reset: true, id }); }
  mark(): number { return this.log.length; }
  /** Forgets what was noted since `mark` (the item was rolled back to its savepoint). */
  undo(mark: number): void { this.log.length = mark; }

  /** What to add to each term's stored count. */
  pending(): Map<number, number> {
    const counts = new Map<number, number>();
    for (const { reset, id } of this.log) counts.set(id, reset ? 0 : (counts.get(id) ?? 0) + 1);
    for (const [id, n] of counts) if (!n) counts.delete(id);
    return counts;
  }
}
