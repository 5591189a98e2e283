// Content reads past Prisma's query engine, for the hot read paths (a post, a page of posts).
//
// Prisma turns `findMany({ where, orderBy, skip, take, include })` into a few plain statements:
// the rows, then one statement per included relation over the rows' ids. The engine's own work
// (building the query plan's arguments, interpreting it, mapping each value) cost as much CPU as
// SQLite's, about 0.25 ms a statement here. For the argument shapes the content resolvers send,
// this module writes the same statements itself (on PostgreSQL one statement, the relations as
// JSON columns of the rows') and sends them through `Db.read`, then gives the rows Prisma's shape
// (dates as Date, booleans as booleans, included relations as arrays).
//
// Anything it does not know (another operator, a relation filter, a `select` of the row) makes it
// answer `null`, and the caller asks Prisma: the fast path is an optimisation, never a second
// definition of what a query means. A context whose client is a transaction's while its handle's
// is not (`direct`) always asks Prisma: these reads run on a connection of their own (SQLite's
// second one, PostgreSQL's pool), which does not see the transaction's writes. (A batch gives its
// items a handle whose root client is the transaction's own and whose `read` runs inside the
// transaction: their reads still come here, and see what the batch wrote.)
// test/contract/direct-reads.test.ts runs each shape both ways and compares the results.
import type { Db, DbScope } from './client.js';
import { placeholder } from './sql.js';
import { getDatamodel } from '../generated/pothos-types.js';

type Args = { where?: unknown; orderBy?: unknown; skip?: number; take?: number; include?: unknown; select?: unknown };
type Row = Record<string, unknown>;

// The columns come from the data model Prisma generates from prisma/models.prisma, in its order,
// so a column added to a model is read here with no other edit (a hand-written list that missed
// one failed at run time, and on this path only). Field names are written as column names: the
// models read here map none to another name (test/contract/model-columns.test.ts checks).
const MODELS = getDatamodel().datamodel.models;

/** A model's stored columns (its relation fields left out): name, Prisma type, whether it may be null. */
function columnsOf(model: string): { name: string; type: string; nullable: boolean }[] {
  return MODELS[model].fields.filter((f) => f.kind !== 'object').map((f) => ({ name: f.name, type: f.kind === 'enum' ? 'String' : f.type, nullable: !f.isRequired }));
}

/**
 * Types both drivers give as Prisma does (numbers and text). Dates and booleans are converted in
 * asContentRow; any other type (a BigInt, a Decimal, JSON) would come back in a driver's form
 * instead of Prisma's, so a model with one stops the module from loading, not a read in production.
 */
const AS_STORED = new Set(['Int', 'String']);
const CONVERTED = new Set(['DateTime', 'Boolean']);
const unconvertible = (model: string, c: { name: string; type: string }) =>
  new Error(`The direct content reads (src/db/content-read.ts) do not convert ${model}.${c.name}, a ${c.type}, to Prisma's form: teach them how, or leave the column out of the models they read`);

const CONTENT = columnsOf('Content');
for (const c of CONTENT) if (!AS_STORED.has(c.type) && !CONVERTED.has(c.type)) throw unconvertible('Content', c);
/** Content's columns, with the ones whose stored form Prisma converts. */
const CONTENT_COLUMNS = CONTENT.map((c) => c.name);
/** Every column of the Content model, in its order. */
export const CONTENT_COLUMN_NAMES: readonly string[] = CONTENT_COLUMNS;
const DATES = new Set(CONTENT.filter((c) => c.type === 'DateTime').map((c) => c.name));
const BOOLEANS = new Set(CONTENT.filter((c) => c.type === 'Boolean').map((c) => c.name));
const NULLABLE = new Set(CONTENT.filter((c) => c.nullable).map((c) => c.name));
const COLUMN_SET = new Set<string>(CONTENT_COLUMNS);

/**
 * An included relation of Content: its table, its column pointing at Content, and its columns.
 * Their values are passed on as the driver gives them (on PostgreSQL inside a JSON column), which
 * is Prisma's form for integers and text only.
 */
function relationOf(name: string): { table: string; fk: string; columns: readonly string[] } {
  const field = MODELS.Content.fields.find((f) => f.name === name && f.kind === 'object' && f.isList);
  const back = field && MODELS[field.type].fields.find((f) => f.relationName === field.relationName && f.type === 'Content');
  if (!field || back?.relationFromFields?.length !== 1) throw new Error(`The direct content reads know no one-column list relation Content.${name}`);
  const columns = columnsOf(field.type);
  for (const c of columns) if (!AS_STORED.has(c.type)) throw unconvertible(field.type, c);
  return { table: field.type, fk: back.relationFromFields[0], columns: columns.map((c) => c.name) };
}
/** The relations a direct read may include (a choice: the ones the content resolvers ask for). */
const RELATIONS: Record<string, { table: string; fk: string; columns: readonly string[] }> = { terms: relationOf('terms'), meta: relationOf('meta') };

/** An item's revisions and autosaves of one kind: how many, the highest id and the newest date. */
export type RevisionGroup = { parentId: number | null; type: string; _count: { _all: number }; _max: { id: number | null; date: Date | null } };

/**
 * Where a row read with `{ revisionGroups: true }` (a direct read) carries its
 * revision groups: what `revisionGroupsStatement` answers for its id, read in the row's statement.
 */
export const REVISION_GROUPS = Symbol('revisionGroups');

/**
 * The grouped statement behind an item's revision count and newest revision (the `_links` of
 * every post and page): revisions and autosaves of the parents `parentCondition` picks, counted
 * per parent and kind with the highest id and date. `from` names the table (an alias when it is a
 * subquery of another statement over Content).
 */
export function revisionGroupsStatement(from: string, parentCondition: string, kinds = `'revision', 'autosave'`): string {
  return `SELECT "parentId", "type", COUNT(*) AS "n", MAX("id") AS "maxId", MAX("date") AS "maxDate" FROM ${from} WHERE ${parentCondition} AND "type" IN (${kinds}) GROUP BY "parentId", "type"`;
}

/** A row of `revisionGroupsStatement` (its JSON form too: dates as text without a zone, in UTC). */
export function asRevisionGroup(r: Row): RevisionGroup {
  const date = r.maxDate instanceof Date ? r.maxDate : typeof r.maxDate === 'string' ? new Date(/[zZ]|[+-]\d\d:?\d\d$/.test(r.maxDate) ? r.maxDate : `${r.maxDate}Z`) : null;
  return { parentId: r.parentId as number, type: r.type as string, _count: { _all: Number(r.n) }, _max: { id: r.maxId as number, date } };
}

/** Thrown inside the translation when a shape is not handled; the caller falls back to Prisma. */
class Unsupported extends Error {}
const unsupported = (): never => { throw new Unsupported(); };

const MAX_BOUND = 32_000;

class Statement {
  readonly args: unknown[] = [];
  /** The item's columns its WHERE tests. */
  readonly filtered = new Set<string>();
  constructor(private readonly postgres: boolean) {}
  /** A placeholder bound to `value`. */
  bind(value: unknown): string {
    if (value === undefined || (typeof value === 'object' && value !== null && !(value instanceof Date))) unsupported();
    // More than one statement can bind (SQLite 32,766, PostgreSQL 65,535): Prisma's answer (400) stands.
    if (this.args.length >= MAX_BOUND) unsupported();
    this.args.push(value);
    return placeholder(this.postgres, this.args.length - 1);
  }
  /**
   * SQLite: a placeholder the planner does not look into, for a value of a column with one plan for
   * every value (GENERIC_SAFE, the tallies' key). SQLite's build here plans with the values bound
   * (STAT4), so a statement comparing an indexed column with a bare `?` is prepared again each time
   * it is bound, the same values or not: the page statement of a cold list took 380-430 µs with
   * its values bound that way and 130 µs with them written in (`+?` keeps one prepared statement
   * and the same plan). PostgreSQL's placeholder as it is.
   */
  fixed(value: unknown): string {
    const p = this.bind(value);
    return this.postgres ? p : `+${p}`;
  }
  /**
   * A LIMIT or OFFSET on SQLite: `(? + 0)`, since SQLite (3.47 on) reads a bare bound LIMIT when it
   * plans, with the same cost as above; `+?` is read through. PostgreSQL's placeholder as it is.
   */
  rows(n: number): string {
    const p = this.bind(n);
    return this.postgres ? p : `(${p} + 0)`;
  }
}

const q = (name: string) => `"${name}"`;

/** A Prisma scalar filter on one column: `value`, or `{ equals, in, notIn, gt, gte, lt, lte, not }`. */
function columnFilter(s: Statement, table: string, column: string, filter: unknown): string {
  const col = `${q(table)}.${q(column)}`;
  // The id is the rowid, whose lookups SQLite does not plan by value: bound as it is.
  const bind = table === 'Content' && column !== 'id' && GENERIC_SAFE.has(column) ? (v: unknown) => s.fixed(v) : (v: unknown) => s.bind(v);
  if (filter === null) return `${col} IS NULL`;
  if (typeof filter !== 'object' || filter instanceof Date) return `${col} = ${bind(filter)}`;
  const parts: string[] = [];
  for (const [op, v] of Object.entries(filter as Record<string, unknown>)) {
    if (v === undefined) continue;
    switch (op) {
      case 'equals': parts.push(v === null ? `${col} IS NULL` : `${col} = ${bind(v)}`); break;
      case 'in':
      case 'notIn': {
        if (!Array.isArray(v)) unsupported();
        const list = v as unknown[];
        // Prisma's NOT IN leaves NULLs out on one database and not the other: not handled here.
        if (op === 'notIn' && NULLABLE.has(column)) unsupported();
        if (!list.length) parts.push(op === 'in' ? '1=0' : '1=1');
        else parts.push(`${col} ${op === 'in' ? 'IN' : 'NOT IN'} (${list.map((x) => bind(x)).join(',')})`);
        break;
      }
      case 'gt': parts.push(`${col} > ${bind(v)}`); break;
      case 'gte': parts.push(`${col} >= ${bind(v)}`); break;
      case 'lt': parts.push(`${col} < ${bind(v)}`); break;
      case 'lte': parts.push(`${col} <= ${bind(v)}`); break;
      case 'not':
        if (NULLABLE.has(column)) unsupported();
        if (v === null) parts.push(`${col} IS NOT NULL`);
        else if (typeof v === 'object' && !(v instanceof Date)) unsupported();
        else parts.push(`${col} <> ${bind(v)}`);
        break;
      default: unsupported();
    }
  }
  return parts.length ? parts.join(' AND ') : '1=1';
}

/** A Prisma `where` on Content (columns, AND, OR, NOT); relation filters are not handled. */
function whereClause(s: Statement, where: unknown): string {
  if (where === undefined || where === null) return '1=1';
  if (typeof where !== 'object' || Array.isArray(where)) unsupported();
  const parts: string[] = [];
  for (const [key, v] of Object.entries(where as Record<string, unknown>)) {
    if (v === undefined) continue;
    if (key === 'AND' || key === 'NOT') {
      const list = Array.isArray(v) ? v : [v];
      const inner = list.map((w) => `(${whereClause(s, w)})`);
      if (key === 'AND') parts.push(inner.length ? inner.join(' AND ') : '1=1');
      else for (const clause of inner) parts.push(`NOT ${clause}`);
    } else if (key === 'OR') {
      if (!Array.isArray(v)) unsupported();
      const list = v as unknown[];
      parts.push(list.length ? `(${list.map((w) => `(${whereClause(s, w)})`).join(' OR ')})` : '1=0');
    } else if (COLUMN_SET.has(key)) {
      s.filtered.add(key);
      parts.push(`(${columnFilter(s, 'Content', key, v)})`);
    } else unsupported();
  }
  return parts.length ? parts.join(' AND ') : '1=1';
}

/** `[{ column: 'asc' | 'desc' }, …]` or one such object. */
function orderClause(orderBy: unknown): string {
  if (orderBy === undefined) return '';
  const list = Array.isArray(orderBy) ? orderBy : [orderBy];
  const parts: string[] = [];
  for (const item of list) {
    if (!item || typeof item !== 'object') unsupported();
    const entries = Object.entries(item as Record<string, unknown>);
    if (entries.length !== 1) unsupported();
    const [column, dir] = entries[0];
    if (!COLUMN_SET.has(column) || (dir !== 'asc' && dir !== 'desc')) unsupported();
    parts.push(`${q('Content')}.${q(column)} ${dir === 'asc' ? 'ASC' : 'DESC'}`);
  }
  return parts.length ? ` ORDER BY ${parts.join(', ')}` : '';
}

interface RelationPlan { name: string; table: string; fk: string; columns: string[]; where?: unknown; orderBy?: string }

/** The included relations: `true`, or `{ select, where, orderBy }` over the relation's own columns. */
function relationPlans(include: unknown): RelationPlan[] {
  if (include === undefined) return [];
  if (!include || typeof include !== 'object') unsupported();
  const plans: RelationPlan[] = [];
  for (const [name, spec] of Object.entries(include as Record<string, unknown>)) {
    if (spec === undefined || spec === false) continue;
    const rel = RELATIONS[name] ?? unsupported();
    const plan: RelationPlan = { name, table: rel.table, fk: rel.fk, columns: [...rel.columns] };
    if (spec !== true) {
      if (typeof spec !== 'object' || spec === null) unsupported();
      for (const [key, v] of Object.entries(spec as Record<string, unknown>)) {
        if (v === undefined) continue;
        if (key === 'select') {
          const cols = Object.entries(v as Record<string, unknown>).filter(([, on]) => on !== undefined && on !== false);
          if (cols.some(([c, on]) => on !== true || !rel.columns.includes(c))) unsupported();
          plan.columns = cols.map(([c]) => c);
        } else if (key === 'where') {
          if (typeof v !== 'object' || v === null) unsupported();
          for (const [c, f] of Object.entries(v as Record<string, unknown>)) if (!rel.columns.includes(c) || (f !== null && typeof f === 'object' && !Array.isArray(f) && Object.keys(f).some((op) => op !== 'in' && op !== 'equals'))) unsupported();
          plan.where = v;
        } else if (key === 'orderBy') {
          const entries = Object.entries((Array.isArray(v) ? (v.length === 1 ? v[0] : unsupported()) : v) as Record<string, unknown>);
          if (entries.length !== 1 || !rel.columns.includes(entries[0][0]) || (entries[0][1] !== 'asc' && entries[0][1] !== 'desc')) unsupported();
          plan.orderBy = `${q(rel.table)}.${q(entries[0][0])} ${entries[0][1] === 'asc' ? 'ASC' : 'DESC'}`;
        } else unsupported();
      }
    }
    plans.push(plan);
  }
  return plans;
}

const asContentRow = (raw: Row): Row => {
  const row: Row = {};
  for (const c of CONTENT_COLUMNS) {
    const v = raw[c];
    row[c] = v === null || v === undefined ? null : DATES.has(c) ? (v instanceof Date ? v : new Date(v as string)) : BOOLEANS.has(c) ? v === true || v === 1 : v;
  }
  return row;
};

/** Whether reads of `ctx` may take the direct path (the root client, not a transaction's). */
export const direct = (ctx: DbScope) => ctx.prisma === ctx.db.prisma;

/**
 * PostgreSQL: the columns a page may filter on and still have its LIMIT and OFFSET written into
 * the statement (checked integers). A direct read is a named prepared statement; with the limit
 * bound, the server planned it again on every call (about 0.15 ms of its CPU, twice the
 * execution), since a plan for an unknown limit looks worse than any planned for 10 rows. With the
 * limit written in, it settles on one plan after five calls. Only for these columns: each is the
 * head of the (type, status, date, id) index or the id, so one plan suits every value, where an
 * author or a parent of a few posts and one of thousands want different plans.
 */
const GENERIC_SAFE = new Set(['type', 'status', 'id', 'password']);

/** Content's columns as the statements name them. */
const SELECTED_COLUMNS = CONTENT_COLUMNS.map((c) => `${q('Content')}.${q(c)}`).join(', ');

/**
 * A key for an `include` made only of plain objects, arrays, text, numbers and booleans (what the
 * resolvers send: relation selections and filters by key), or null: a Date or anything else whose
 * JSON form another value shares.
 */
function includeKey(include: unknown): string | null {
  let plain = true;
  const key = JSON.stringify(include ?? null, function (this: Record<string, unknown>, name, value) {
    const raw = this[name];
    if (raw !== null && typeof raw === 'object' && !Array.isArray(raw) && Object.getPrototypeOf(raw) !== Object.prototype) plain = false;
    return value;
  });
  return plain ? key : null;
}

/**
 * The relation columns' text and bound values by include (and revision groups, and on PostgreSQL
 * the number of values bound before them): the resolvers send the same few includes on every
 * read, and writing the columns again each time was a tenth of a cold post's SQL work.
 */
const relationColumns = new Map<string, { relations: RelationPlan[]; extra: string; args: unknown[] }>();
const RELATION_COLUMNS_KEPT = 256;

/**
 * `prisma.content.findMany(args)` for the shapes above, or null when the caller must ask Prisma.
 * One statement carries the relations too (relationColumn), and the revision groups when asked.
 */
export async function findContentRows(db: Db, args: Args, options: ReadOptions = {}): Promise<Row[] | null> {
  let plan: { sql: string; args: unknown[]; relations: RelationPlan[] };
  const postgres = db.provider === 'postgres';
  try {
    if (args.select !== undefined) unsupported();
    for (const key of Object.keys(args)) if (!['where', 'orderBy', 'skip', 'take', 'include'].includes(key)) unsupported();
    const s = new Statement(postgres);
    const columns = SELECTED_COLUMNS;
    const order = orderClause(args.orderBy);
    const where = whereClause(s, args.where);
    let sql = `SELECT ${columns} FROM ${q('Content')} WHERE ${where}${order}`;
    if (args.take !== undefined || args.skip !== undefined) {
      // A negative take is Prisma's "from the end": not handled.
      const take = args.take ?? -1;
      if ((args.take !== undefined && (!Number.isInteger(args.take) || args.take < 0)) || !Number.isInteger(args.skip ?? 0) || (args.skip ?? 0) < 0) unsupported();
      const written = postgres && [...s.filtered].every((c) => GENERIC_SAFE.has(c));
      const value = (n: number) => (written ? String(n) : s.rows(n));
      const page = `${postgres && take < 0 ? '' : ` LIMIT ${value(take)}`} OFFSET ${value(args.skip ?? 0)}`;
      // PostgreSQL, past the first rows: the page is cut on the ids alone, and only its own rows
      // are read whole. A plain index scan reads from the table every row it passes over, the
      // OFFSET's too (10,000 for page 1,000 of 10); cut on the ids, it can be an index-only scan
      // of (type, status, date, id), which passes over index entries alone where the table's
      // pages are all visible (after a vacuum). Page 1,000 of a 40,000-row table, EXPLAIN
      // ANALYZE: 3.4 ms and 8,805 buffers read, against 1.6 ms and 94.
      sql = postgres && (args.skip ?? 0) > 0
        ? `SELECT ${columns} FROM ${q('Content')} JOIN (SELECT ${q('Content')}.${q('id')} FROM ${q('Content')} WHERE ${where}${order}${page}) AS ${q('page')} ON ${q('page')}.${q('id')} = ${q('Content')}.${q('id')}${order}`
        : sql + page;
    }
    // Each included relation is a JSON array column, computed over the page's rows only (a column
    // of the inner statement would be computed for every row its OFFSET passes over). On SQLite too:
    // one statement instead of one per relation and one for the revision groups (in process, one
    // cold post took 0.53-0.75 ms of CPU with four statements and 0.27-0.46 ms with one; a page of
    // ten 1.32-1.64 and 1.30-1.56 ms).
    const groups = options.revisionGroups === true;
    let args_ = s.args;
    const include = includeKey(args.include);
    const key = include === null ? null : `${postgres ? s.args.length : ''}|${groups}|${include}`;
    let kept = key === null ? undefined : relationColumns.get(key);
    if (!kept) {
      const relations = relationPlans(args.include);
      // SQLite numbers its `?` by position: the columns' values, which come first in the text, are
      // bound first (PostgreSQL's `$n` go on from the inner statement's).
      const rs = new Statement(postgres);
      if (postgres) for (let i = 0; i < s.args.length; i++) rs.args.push(undefined);
      let extra = relations.map((rel) => `, ${relationColumn(rs, rel, postgres)} AS ${q(`rel_${rel.name}`)}`).join('');
      if (groups) extra += `, ${postgres ? REVISION_GROUPS_COLUMN : REVISION_GROUPS_COLUMN_SQLITE} AS ${q('rel_revisionGroups')}`;
      kept = { relations, extra, args: postgres ? rs.args.slice(s.args.length) : rs.args };
      if (key !== null) {
        if (relationColumns.size >= RELATION_COLUMNS_KEPT) relationColumns.clear();
        relationColumns.set(key, kept);
      }
    }
    if (kept.relations.length || groups) {
      sql = `SELECT ${q('Content')}.*${kept.extra} FROM (${sql}) AS ${q('Content')}${order}`;
      args_ = postgres ? [...s.args, ...kept.args] : [...kept.args, ...s.args];
    }
    plan = { sql, args: args_, relations: kept.relations };
  } catch (err) {
    if (err instanceof Unsupported) return null;
    throw err;
  }
  const raw = await db.read(plan.sql, plan.args);
  const rows = raw.map(asContentRow);
  if (options.revisionGroups === true) {
    raw.forEach((r, i) => { (rows[i] as Record<symbol, unknown>)[REVISION_GROUPS] = (jsonColumn(r.rel_revisionGroups) as Row[]).map((g) => asRevisionGroup({ ...g, parentId: rows[i].id })); });
  }
  raw.forEach((r, i) => { for (const rel of plan.relations) rows[i][rel.name] = jsonColumn(r[`rel_${rel.name}`]); });
  return rows;
}

/**
 * An included relation as a column of the rows' statement, the row's related records as a JSON
 * array of objects with the selected columns, in the relation's order. On PostgreSQL each
 * statement is a round trip to the server, whose CPU the service shares on one machine; on SQLite
 * each costs a call into the driver, its binding and its result objects. A page of posts with its
 * terms and footnotes took three statements, and takes one. (The relations hold integers and text
 * only, which JSON carries as they are.)
 */
function relationColumn(s: Statement, rel: RelationPlan, postgres: boolean): string {
  const t = q(rel.table);
  const conditions = [`${t}.${q(rel.fk)} = ${q('Content')}.${q('id')}`];
  for (const [c, f] of Object.entries((rel.where ?? {}) as Record<string, unknown>)) {
    if (f !== undefined) conditions.push(columnFilter(s, rel.table, c, f));
  }
  const pairs = rel.columns.map((c) => `'${c}', ${t}.${q(c)}`).join(', ');
  const order = rel.orderBy ? ` ORDER BY ${rel.orderBy}` : '';
  return postgres
    ? `(SELECT COALESCE(json_agg(json_build_object(${pairs})${order}), '[]'::json) FROM ${t} WHERE ${conditions.join(' AND ')})`
    : `(SELECT json_group_array(json_object(${pairs})${order}) FROM ${t} WHERE ${conditions.join(' AND ')})`;
}

/** A JSON array column as read: parsed by PostgreSQL's driver, text from SQLite. */
const jsonColumn = (v: unknown): unknown[] => (typeof v === 'string' ? JSON.parse(v) as unknown[] : (v as unknown[] | null | undefined) ?? []);

/**
 * PostgreSQL: the row's revision groups as a JSON array column (see `revisionGroupsStatement`),
 * so a page of posts and its `_links` take one statement instead of two round trips, the second
 * waiting for the first's ids. (In process, `bench/profile-reads.ts`, the two alternated: a cold
 * list page 1.02–1.08 → 0.91–0.97 ms of the service's CPU and 270–297 → 235–262 µs of the
 * server's; one post 0.77–0.82 → 0.68 ms and 175–197 → 120 µs.)
 */
const REVISION_GROUPS_COLUMN = `(SELECT COALESCE(json_agg(json_build_object('type', ${q('g')}.${q('type')}, 'n', ${q('g')}.${q('n')}, 'maxId', ${q('g')}.${q('maxId')}, 'maxDate', ${q('g')}.${q('maxDate')})), '[]'::json) FROM (${
  revisionGroupsStatement(`${q('Content')} AS ${q('r')}`, `${q('r')}.${q('parentId')} = ${q('Content')}.${q('id')}`)
}) AS ${q('g')})`;

/** SQLite's form of REVISION_GROUPS_COLUMN (JSON as text). */
const REVISION_GROUPS_COLUMN_SQLITE = `(SELECT json_group_array(json_object('type', ${q('g')}.${q('type')}, 'n', ${q('g')}.${q('n')}, 'maxId', ${q('g')}.${q('maxId')}, 'maxDate', ${q('g')}.${q('maxDate')})) FROM (${
  revisionGroupsStatement(`${q('Content')} AS ${q('r')}`, `${q('r')}.${q('parentId')} = ${q('Content')}.${q('id')}`)
}) AS ${q('g')})`;

type Clause = Record<string, unknown>;
const onlyKey = (c: unknown, key: string): c is Clause => !!c && typeof c === 'object' && Object.keys(c).length === 1 && key in c;
/** `{ in: [...] }` of integers or strings, with at least one value. */
const inList = (v: unknown): (string | number)[] | null => {
  if (!onlyKey(v, 'in') || !Array.isArray(v.in) || !v.in.length) return null;
  return v.in.every((x) => typeof x === 'number' || typeof x === 'string') ? (v.in as (string | number)[]) : null;
};
/** The one term of `{ terms: { some: { termId: { in: [t] } } } }` (or `termId: t`), else null. */
const oneTerm = (c: unknown): number | null => {
  if (!onlyKey(c, 'terms') || !onlyKey(c.terms, 'some') || !onlyKey(c.terms.some, 'termId')) return null;
  const t = c.terms.some.termId;
  if (typeof t === 'number') return t;
  const ids = inList(t);
  return ids && ids.length === 1 && typeof ids[0] === 'number' ? ids[0] : null;
};

/**
 * The count of a list filter from the tallies the database keeps (ContentTally, kept by triggers in
 * every writing transaction; on PostgreSQL folded in from per-transaction deltas at commit, see
 * the migration content_tally_postgres_deltas): type and statuses, with at most one of: authors (an
 * item has one, so their tallies add up), one term, or every item but those with one term (all
 * less that term's). One statement over a few rows of a primary key, where COUNT(*) reads every
 * matching row. Null for any other shape: the caller counts.
 */
export async function tallyCount(db: Db, where: unknown): Promise<number | null> {
  if (!onlyKey(where, 'AND') || !Array.isArray(where.AND)) return null;
  const [typeClause, statusClause, ...rest] = where.AND as unknown[];
  if (!onlyKey(typeClause, 'type') || typeof typeClause.type !== 'string') return null;
  const statuses = onlyKey(statusClause, 'status') ? inList(statusClause.status) : null;
  if (!statuses || rest.length > 1) return null;
  const s = new Statement(db.provider === 'postgres');
  // A few rows of a primary key whatever the values: none of them is shown to SQLite's planner.
  const base = `${q('type')} = ${s.fixed(typeClause.type)} AND ${q('status')} IN (${statuses.map((v) => s.fixed(v)).join(', ')})`;
  let filter = `${q('authorId')} = 0 AND ${q('termId')} = 0`;
  let value = q('count');
  const extra = rest[0] as Clause | undefined;
  if (extra) {
    // A taxonomy filter comes wrapped: `{ AND: [spec] }` (or OR, for one spec the same).
    const keys = Object.keys(extra);
    const wrapped = keys.length === 1 && (keys[0] === 'AND' || keys[0] === 'OR') ? extra[keys[0]] : null;
    const spec = Array.isArray(wrapped) && wrapped.length === 1 ? wrapped[0] : null;
    const authors = onlyKey(extra, 'authorId') ? inList(extra.authorId) : null;
    const term = spec ? oneTerm(spec) : null;
    const notTerm = spec && onlyKey(spec, 'NOT') ? oneTerm(spec.NOT) : null;
    if (authors && authors.every((a) => typeof a === 'number' && a > 0)) filter = `${q('termId')} = 0 AND ${q('authorId')} IN (${authors.map((a) => s.fixed(a)).join(', ')})`;
    else if (term !== null) filter = `${q('authorId')} = 0 AND ${q('termId')} = ${s.fixed(term)}`;
    else if (notTerm !== null) {
      // All of them less those with the term: the term's rows count negatively.
      filter = `${q('authorId')} = 0 AND ${q('termId')} IN (0, ${s.fixed(notTerm)})`;
      value = `CASE WHEN ${q('termId')} = 0 THEN ${q('count')} ELSE -${q('count')} END`;
    } else return null;
  }
  const sql = `SELECT COALESCE(SUM(${value}), 0) AS "n" FROM ${q('ContentTally')} WHERE ${base} AND ${filter}`;
  return Number((await db.read(sql, s.args))[0].n);
}

/** `prisma.content.count({ where })` for the filters above, or null when the caller must ask Prisma. */
export async function countContentRows(db: Db, where: unknown): Promise<number | null> {
  let sql: string;
  const s = new Statement(db.provider === 'postgres');
  try {
    sql = `SELECT COUNT(*) AS "n" FROM ${q('Content')} WHERE ${whereClause(s, where)}`;
  } catch (err) {
    if (err instanceof Unsupported) return null;
    throw err;
  }
  return Number((await db.read(sql, s.args))[0].n);
}

/**
 * What a direct read adds to Prisma's answer. `revisionGroups`: each row carries its revision
 * groups under REVISION_GROUPS (read in the rows' statement); on Prisma's path rows come without
 * them and whoever needs them asks (withRevisionStats).
 */
export interface ReadOptions { revisionGroups?: boolean }

/** The options of a read whose rows are the answer (a page of posts, one post): with their revision groups. */
export const ANSWER_ROWS: ReadOptions = { revisionGroups: true };

/** `ctx.prisma.content.findUnique(args)` (`where: { id }`), through the direct path when it can take it. */
export async function contentRow<T = Row>(ctx: DbScope, args: Args & { where: { id: number } }, options?: ReadOptions): Promise<T | null> {
  if (direct(ctx)) {
    const rows = await findContentRows(ctx.db, args, options);
    if (rows) return (rows[0] ?? null) as T | null;
  }
  return (await ctx.prisma.content.findUnique(args as never)) as T | null;
}

/** `ctx.prisma.content.findMany(args)`, through the direct path when it can take it. */
export async function contentRows<T = Row>(ctx: DbScope, args: Args, options?: ReadOptions): Promise<T[]> {
  if (direct(ctx)) {
    const rows = await findContentRows(ctx.db, args, options);
    if (rows) return rows as T[];
  }
  return (await ctx.prisma.content.findMany(args as never)) as T[];
}
