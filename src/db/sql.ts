// Bind placeholders of hand-written SQL, for the statements sent past Prisma's model queries
// (`$queryRawUnsafe`, `Db.read`): SQLite numbers `?` by position, PostgreSQL names `$1`, `$2`, ….

/** The i-th (0-based) bind placeholder of a statement. */
export const placeholder = (pg: boolean, i: number): string => (pg ? `$${i + 1}` : '?');

/** A function that appends a value to `params` and answers the placeholder it is bound by. */
export function binder(pg: boolean, params: unknown[]): (value: unknown) => string {
  return (value) => {
    params.push(value);
    return placeholder(pg, params.length - 1);
  };
}
