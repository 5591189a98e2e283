// What the content definitions (src/resources/content.ts) resolve their fields with: text values
// with raw/rendered forms, custom field values, and per-request batched lookups of an item's terms,
// meta, revisions and ancestors. The GraphQL types these values fill are in
// src/schema/content/objects.ts; the domain modules below the GraphQL layer use these helpers too.
import type { Context } from '../context.js';
import type { Content } from '../generated/sqlite/client.js';
import { canEditContent } from '../auth/content-permissions.js';
import { ancestorChain, type SlugNode } from './ancestors.js';
import { contentTypeOf } from '../resources/content-types.js';
import { versionCache } from '../db/version-cache.js';
import { asRevisionGroup, direct, REVISION_GROUPS, revisionGroupsStatement, type RevisionGroup } from '../db/content-read.js';
import { placeholder } from '../db/sql.js';
import { fieldDefault, type FieldConfig } from '../model/config.js';

/** A text field with its stored (`raw`) and displayed (`rendered`) forms. */
export interface TextValue { raw: string; rendered: string; isProtected: boolean; showRaw: boolean; blockVersion: number }

/** Stored text of a custom field's value (post meta holds strings, as WordPress's does). */
export function storedMetaValue(f: FieldConfig, value: unknown): string {
  if (f.type === 'boolean') return value ? '1' : '';
  return String(value);
}

/** The typed values of a row's meta rows; a field with no row has its default. */
export function customMetaValues(fields: Record<string, FieldConfig>, meta: MetaRow[], footnotes: boolean): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  if (footnotes) out.footnotes = meta.find((m) => m.key === 'footnotes')?.value ?? '';
  for (const [k, f] of Object.entries(fields)) {
    const raw = meta.find((m) => m.key === k)?.value;
    const fallback = fieldDefault(f);
    if (raw === undefined) { out[k] = fallback; continue; }
    if (f.type === 'integer') { const n = Number.parseInt(raw, 10); out[k] = Number.isFinite(n) ? n : fallback; }
    else if (f.type === 'number') { const n = Number(raw); out[k] = Number.isFinite(n) ? n : fallback; }
    else if (f.type === 'boolean') out[k] = raw !== '' && raw !== '0' && raw !== 'false';
    else out[k] = f.enum && !f.enum.includes(raw) ? fallback : raw;
  }
  return out;
}

export const customMetaSelect = (keys: string[]) => ({ meta: { where: { key: { in: keys } }, select: { key: true, value: true } } });

/** Whether the caller sees raw values of this content type (WordPress shows them in edit context). */
function showsRaw(ctx: Context, row: Content): boolean {
  return ctx.viewer !== null && ctx.can(contentTypeOf(row.type).caps.edit_posts);
}

/** A password stands between the caller and the text unless they may edit it or offered the right one. */
export function passwordRequired(ctx: Context, row: Content): boolean {
  if (!row.password) return false;
  if (canEditContent(ctx, row)) return false;
  return ctx.offeredPasswords.get(row.id) !== row.password;
}

/**
 * `locked`: the text is behind a password the caller neither may bypass nor offered; its raw
 * form stays hidden too (a contributor may hold edit_posts, not the password of another's post).
 */
export function textValue(raw: string, rendered: string, ctx: Context, row: Content, locked = false): TextValue {
  return { raw, rendered, isProtected: false, showRaw: !locked && showsRaw(ctx, row), blockVersion: 0 };
}

/**
 * `fn` of an item's revision count and newest revision (or autosave: the first of the revisions list, by date then
 * id) of an item, from the grouped statement (`revisionGroupsStatement`): the groups the row
 * came with (direct reads carry them, REVISION_GROUPS), or one grouped query for
 * every item of the request that needs them. Revisions are stored in date order, so a group's
 * highest id is its newest; an autosave is rewritten in place, so only a parent with several
 * autosaves needs a second look at which is newest.
 */
export function withRevisionStats<T>(ctx: Context, row: { id: number }, fn: (stats: RevisionStats) => T): T | Promise<T> {
  const had = (row as { [REVISION_GROUPS]?: RevisionGroup[] })[REVISION_GROUPS];
  if (had && !had.some(crowded)) return fn(statsOf(row.id, had, []));
  return revisionStatsLoader(ctx).load(row.id).then(fn);
}

type RevisionStats = { count: number; latest: number | null };

/** A parent's autosaves are several: which is newest takes a look at their dates. */
const crowded = (g: RevisionGroup) => g.type === 'autosave' && g._count._all > 1;

type Stamp = { id: number; date: Date };
const newer = (a: Stamp | null, b: Stamp | null) => (!a ? b : !b ? a : b.date > a.date || (+b.date === +a.date && b.id > a.id) ? b : a);

/** `pid`'s stats from the groups (any parents'), and the autosaves of the crowded ones. */
function statsOf(pid: number, groups: RevisionGroup[], autosaves: { id: number; parentId: number | null; date: Date }[]): RevisionStats {
  const mine = groups.filter((g) => g.parentId === pid);
  let latest: Stamp | null = null;
  for (const g of mine) {
    if (crowded(g)) {
      for (const a of autosaves) if (a.parentId === pid) latest = newer(latest, a);
    } else latest = newer(latest, { id: g._max.id!, date: g._max.date! });
  }
  return { count: mine.reduce((n, g) => n + g._count._all, 0), latest: latest?.id ?? null };
}

/** A new item has no revisions yet: its answer needs no grouped query for them. */
export function primeNoRevisions(ctx: Context, id: number): void {
  revisionStatsLoader(ctx).prime(id, { count: 0, latest: null });
}

function revisionStatsLoader(ctx: Context) {
  return ctx.loader<number, RevisionStats>('revisionStats', async (ids) => {
    const groups = await revisionGroups(ctx, [...ids]);
    const several = groups.filter(crowded).map((g) => g.parentId!);
    const autosaves = several.length
      ? await ctx.prisma.content.findMany({ where: { parentId: { in: several }, type: 'autosave' }, select: { id: true, parentId: true, date: true } })
      : [];
    return ids.map((pid) => statsOf(pid, groups, autosaves));
  });
}

/** Revisions and autosaves of `ids`, counted per parent and kind with the highest id and date. */
async function revisionGroups(ctx: Context, ids: number[]): Promise<RevisionGroup[]> {
  if (!direct(ctx)) {
    const groups = await ctx.prisma.content.groupBy({
      by: ['parentId', 'type'], where: { parentId: { in: ids }, type: { in: ['revision', 'autosave'] } }, _count: { _all: true }, _max: { id: true, date: true },
    });
    return groups as RevisionGroup[];
  }
  // The statement Prisma sends for the groupBy above, without its engine (src/db/content-read.ts).
  // PostgreSQL: one text for any number of ids, with the kinds written in, so its prepared
  // statement settles on a generic plan instead of being planned again on every call (about
  // 0.1 ms of the server's CPU; planning dominated the statement).
  const pg = ctx.db.provider === 'postgres';
  const at = (i: number) => placeholder(pg, i);
  const rows = await (pg
    ? ctx.db.read(revisionGroupsStatement('"Content"', '"parentId" = ANY($1::int[])'), [ids])
    : ctx.db.read(revisionGroupsStatement('"Content"', `"parentId" IN (${ids.map((_, i) => at(i)).join(',')})`, `${at(ids.length)},${at(ids.length + 1)}`), [...ids, 'revision', 'autosave']));
  return rows.map(asRevisionGroup);
}

/** Slugs of a hierarchical item's ancestors, nearest last; none for flat types. */
export async function ancestorSlugs(ctx: Context, row: { type: string; parentId: number | null }): Promise<string[]> {
  if (!contentTypeOf(row.type).hierarchical) return [];
  return ancestorChain(ctx.loader<number, SlugNode | null>('contentSlugParent', async (ids) => {
    const rows = await ctx.prisma.content.findMany({ where: { id: { in: [...ids] } }, select: { id: true, slug: true, parentId: true } });
    return ids.map((id) => rows.find((r) => r.id === id) ?? null);
  }), row.parentId);
}

export const termSelect = { terms: { select: { termId: true, taxonomy: true }, orderBy: { termOrder: 'asc' as const } } };

/** The Prisma selection of a post's footnotes meta row. */
export const footnotesSelect = { meta: { where: { key: 'footnotes' }, select: { key: true, value: true } } };

type TermRow = { termId: number; taxonomy: string };
type MetaRow = { key: string; value: string };

/**
 * `fn` of a relation of a row: the records read with the row (the field's `select`, when the query
 * that loaded the row asked for such a field), or, for a row read without them, `read` of every
 * such row of the request in one batched statement (by `name`). Synchronous when they came with it.
 */
function withRelation<R, T>(ctx: Context, name: string, id: number, had: R[] | undefined, read: (ids: number[]) => Promise<(R & { contentId: number })[]>, fn: (records: R[]) => T): T | Promise<T> {
  if (had) return fn(had);
  return ctx.loader<number, R[]>(name, async (ids) => {
    const byRow = new Map<number, R[]>(ids.map((i) => [i, []]));
    for (const { contentId, ...record } of await read([...ids])) byRow.get(contentId)?.push(record as R);
    return ids.map((i) => byRow.get(i)!);
  }).load(id).then(fn);
}

/** `fn` of a row's term assignments, in their order (see `withRelation`). */
export function withTerms<T>(ctx: Context, p: { id: number; terms?: TermRow[] }, fn: (terms: TermRow[]) => T): T | Promise<T> {
  return withRelation(ctx, 'contentTerms', p.id, p.terms, (ids) => ctx.prisma.termRelationship.findMany({
    where: { contentId: { in: ids } }, orderBy: { termOrder: 'asc' }, select: { contentId: true, termId: true, taxonomy: true },
  }), fn);
}

/** `fn` of a row's footnotes meta (see `withRelation`). */
export function withFootnotes<T>(ctx: Context, p: { id: number; meta?: MetaRow[] }, fn: (meta: MetaRow[]) => T): T | Promise<T> {
  return withRelation(ctx, 'contentFootnotes', p.id, p.meta, (ids) => ctx.prisma.postMeta.findMany({
    where: { contentId: { in: ids }, key: 'footnotes' }, select: { contentId: true, key: true, value: true },
  }), fn);
}

/** `fn` of a row's meta rows of these keys (see `withRelation`). */
export function withCustomMeta<T>(ctx: Context, p: { id: number; meta?: MetaRow[] }, keys: string[], fn: (meta: MetaRow[]) => T): T | Promise<T> {
  return withRelation(ctx, `contentMeta:${keys.join(',')}`, p.id, p.meta, (ids) => ctx.prisma.postMeta.findMany({
    where: { contentId: { in: ids }, key: { in: keys } }, select: { contentId: true, key: true, value: true },
  }), fn);
}

const slugs = versionCache<string | null>(5000);

/**
 * A term's slug, read once per database version (any write retires it) and batched per request:
 * class_list needs the slugs of every item's terms, and the same few terms recur on every page.
 * A transaction's handle has its own entries (versionCache keys by handle).
 */
function termSlug(ctx: Context, id: number): Promise<string | null> {
  return slugs(ctx.db, String(id), () => termSlugLoader(ctx).load(id));
}

function termSlugLoader(ctx: Context) {
  return ctx.loader<number, string | null>('termSlug', async (ids) => {
    const rows = await ctx.prisma.term.findMany({ where: { id: { in: [...ids] } }, select: { id: true, slug: true } });
    const byId = new Map(rows.map((r) => [r.id, r.slug]));
    return ids.map((i) => byId.get(i) ?? null);
  });
}

/** Slugs of terms a write of this request read in its transaction: its answer asks for them again. */
export function primeTermSlugs(ctx: Context, terms: { id: number; slug: string }[]): void {
  const loader = termSlugLoader(ctx);
  for (const t of terms) loader.prime(t.id, t.slug);
}

/** CSS classes as a theme's post_class() gives them. */
export async function classList(ctx: Context, p: Content & { terms?: { taxonomy: string; termId: number }[] }, withTermClasses = true): Promise<string[]> {
  const type = contentTypeOf(p.type);
  const sticky = type.supports.sticky && (await ctx.site()).stickyPosts.includes(p.id);
  const terms = withTermClasses ? await withTerms(ctx, p, (t) => t) : [];
  const termSlugs = await Promise.all(terms.map((r) => termSlug(ctx, r.termId)));
  return [
    `post-${p.id}`, p.type, `type-${p.type}`, `status-${p.status}`,
    ...(type.supports.formats ? [`format-${p.format || 'standard'}`] : []),
    ...(p.featuredMedia ? ['has-post-thumbnail'] : []), ...(sticky ? ['sticky'] : []), 'hentry',
    // post_class(): category-{slug}, tag-{slug}, and {taxonomy}-{slug} for any other taxonomy.
    ...terms.map((r, i) => `${r.taxonomy === 'category' ? 'category' : r.taxonomy === 'post_tag' ? 'tag' : r.taxonomy}-${termSlugs[i]}`),
  ];
}
