// The direct content reads (src/db/content-read.ts) answer exactly what Prisma answers for the
// same arguments, on the test run's database, and step aside for the shapes they do not handle.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestSite, provider, type TestSite } from '../helpers/app.js';
import { ANSWER_ROWS, countContentRows, findContentRows, REVISION_GROUPS, type RevisionGroup } from '../../src/db/content-read.js';

let site: TestSite;
let ids: number[];
let category: number;

beforeAll(async () => {
  site = await createTestSite({ cacheEntries: 0 });
  category = (await site.createTerm('categories', { name: 'Direct' })).id;
  const tag = (await site.createTerm('tags', { name: 'Read' })).id;
  ids = [];
  for (let i = 0; i < 6; i++) {
    const post = await site.createPost({
      title: `Direct ${i}`, content: `<p>Body ${i}</p>`, status: i === 5 ? 'draft' : 'publish', date: `2024-0${i + 1}-0${i + 1}T10:00:00`,
      categories: i % 2 ? [category] : [], tags: [tag], meta: { footnotes: i === 1 ? '[{"id":"a","content":"note"}]' : '' },
    });
    ids.push(post.id);
  }
  // A revision (an update of a published post keeps one) and a page with a parent.
  expect((await site.req('POST', `/core/v2/posts/${ids[0]}`, { as: 'administrator', json: { title: 'Direct 0, again' } })).status).toBe(200);
  const parent = await site.createPage({ title: 'Parent', status: 'publish' });
  await site.createPage({ title: 'Child', status: 'publish', parent: parent.id, menu_order: 3 });
});
afterAll(async () => { await site?.close(); });

const include = {
  terms: { select: { termId: true, taxonomy: true }, orderBy: { termOrder: 'asc' } },
  meta: { where: { key: 'footnotes' }, select: { key: true, value: true } },
};

const shapes: Record<string, () => object> = {
  'a page of published posts, newest first': () => ({ where: { AND: [{ type: 'post' }, { status: { in: ['publish'] } }] }, orderBy: [{ date: 'desc' }, { id: 'desc' }], skip: 0, take: 3, include }),
  'the next page, oldest first': () => ({ where: { AND: [{ type: 'post' }, { status: { in: ['publish', 'draft'] } }] }, orderBy: [{ date: 'asc' }, { id: 'asc' }], skip: 2, take: 3, include }),
  'excluded ids and a date range': () => ({ where: { AND: [{ type: 'post' }, { id: { notIn: [ids[1], ids[2]] } }, { date: { gte: new Date('2024-02-01T00:00:00Z'), lt: new Date('2024-06-01T00:00:00Z') } }] }, orderBy: [{ id: 'desc' }], include }),
  'ids in a given list': () => ({ where: { id: { in: [ids[3], ids[0], 999_999] } }, include }),
  'an empty id list': () => ({ where: { id: { in: [] } }, include }),
  'one row by id with every relation whole': () => ({ where: { id: ids[1] }, include: { terms: true, meta: true } }),
  'OR and NOT': () => ({ where: { OR: [{ status: 'draft' }, { AND: [{ type: 'page' }, { NOT: { menuOrder: 0 } }] }] }, orderBy: [{ id: 'asc' }] }),
  'no parent, and a parent': () => ({ where: { AND: [{ type: { in: ['page', 'revision'] } }, { parentId: null }] }, orderBy: [{ id: 'asc' }] }),
  // The relation columns are kept by include (and on PostgreSQL by the values bound before them):
  // the same shapes again with another key, and with more values bound before the relations.
  'the same relations with another meta key': () => ({ where: { id: { in: [ids[1], ids[2]] } }, include: { ...include, meta: { where: { key: 'another' }, select: { key: true, value: true } } } }),
  'the first shape again, after the other key': () => ({ where: { id: { in: [ids[1], ids[2]] } }, include }),
  'the relations after more bound values': () => ({ where: { AND: [{ type: 'post' }, { id: { in: [ids[0], ids[1], ids[2], ids[3]] } }, { status: { in: ['publish', 'draft'] } }] }, orderBy: [{ id: 'asc' }], include }),
  'rows only, no include': () => ({ where: { type: 'revision' }, orderBy: [{ modified: 'desc' }, { id: 'asc' }] }),
};

describe('direct content reads', () => {
  for (const [name, args] of Object.entries(shapes)) {
    it(`match Prisma: ${name}`, async () => {
      const before = site.db.statements;
      const mine = await findContentRows(site.db, args());
      const statements = site.db.statements - before;
      const prisma = await site.db.prisma.content.findMany(args() as never);
      expect(mine).not.toBeNull();
      expect(mine).toEqual(prisma);
      // One statement on both databases, the relations as JSON columns of the rows' statement
      // (Prisma sends one per included relation after the rows).
      expect(statements).toBe(1);
      const where = (args() as { where?: object }).where;
      expect(await countContentRows(site.db, where)).toBe(await site.db.prisma.content.count({ where } as never));
    });
  }

  it('computes the relation columns over the page only, not over the rows its OFFSET skips', async () => {
    const sent: string[] = [];
    const read = site.db.read.bind(site.db);
    site.db.read = (sql, args) => { sent.push(sql); return read(sql, args); };
    try {
      expect(await findContentRows(site.db, shapes['the next page, oldest first']())).toEqual(await site.db.prisma.content.findMany(shapes['the next page, oldest first']() as never));
    } finally {
      site.db.read = read;
    }
    expect(sent).toHaveLength(1);
    // The page (LIMIT, OFFSET) is cut in a subquery, on the ids alone (past the first rows, only
    // the page's own rows are read whole); the JSON columns are computed outside it. Filtered on
    // type and status only, the page's LIMIT and OFFSET are written in (one plan suits every
    // value: see GENERIC_SAFE in src/db/content-read.ts).
    if (site.db.provider === 'postgres') {
      expect(sent[0]).toMatch(/^SELECT "Content"\.\*, \(SELECT COALESCE\(json_agg.* FROM \(SELECT .* FROM "Content" JOIN \(SELECT "Content"\."id" FROM "Content" WHERE .* LIMIT 3 OFFSET 2\) AS "page" ON "page"\."id" = "Content"\."id" ORDER BY .*\) AS "Content" ORDER BY/);
    } else {
      // SQLite: the page's LIMIT and OFFSET bound after the columns' own values (numbered by
      // position), none of them where the planner reads it: type and status as `+?`, the LIMIT and
      // OFFSET as `(? + 0)`. A value SQLite's planner reads has the statement prepared again each
      // time it is bound (see Statement.fixed in src/db/content-read.ts).
      expect(sent[0]).toMatch(/^SELECT "Content"\.\*, \(SELECT json_group_array\(json_object\(.* FROM \(SELECT .* FROM "Content" WHERE .* LIMIT \(\? \+ 0\) OFFSET \(\? \+ 0\)\) AS "Content" ORDER BY/);
      expect(sent[0]).toContain('(("Content"."type" = +?)) AND (("Content"."status" IN (+?');
      expect(sent[0]).not.toMatch(/"(type|status)" (=|IN \() ?\?/);
    }
  });

  it.skipIf(provider !== 'postgres')('on PostgreSQL, binds the LIMIT and OFFSET of a page filtered on a column whose values want different plans', async () => {
    const sent: string[] = [];
    const read = site.db.read.bind(site.db);
    site.db.read = (sql, args) => { sent.push(sql); return read(sql, args); };
    const byAuthor = { where: { AND: [{ type: 'post' }, { authorId: { in: [1] } }] }, orderBy: [{ date: 'desc' }, { id: 'desc' }], skip: 1, take: 2 };
    try {
      expect(await findContentRows(site.db, byAuthor)).toEqual(await site.db.prisma.content.findMany(byAuthor as never));
    } finally {
      site.db.read = read;
    }
    expect(sent[0]).toMatch(/ LIMIT \$\d+ OFFSET \$\d+\) AS "page" ON /);
  });

  it('answers rows that really are in the database (the comparison is not between two empty lists)', async () => {
    const rows = await findContentRows(site.db, shapes['a page of published posts, newest first']());
    expect(rows!.map((r) => r.title)).toEqual(['Direct 4', 'Direct 3', 'Direct 2']);
    const one = (await findContentRows(site.db, shapes['one row by id with every relation whole']()))![0] as { terms: { termId: number }[]; meta: { value: string }[]; date: Date; dateFloating: boolean };
    expect(one.terms.map((t) => t.termId)).toContain(category);
    expect(one.meta.find((m) => m.value.includes('note'))).toBeTruthy();
    expect(one.date).toBeInstanceOf(Date);
    expect(typeof one.dateFloating).toBe('boolean');
  });

  it('steps aside (null) for shapes it does not handle, sending nothing', async () => {
    const before = site.db.statements;
    for (const args of [
      { where: { terms: { some: { termId: { in: [category] } } } } },
      { where: { title: { contains: 'Direct' } } },
      { where: { parentId: { notIn: [1] } } },
      { select: { id: true } },
      { where: { type: 'post' }, take: -2 },
      { where: { type: 'post' }, orderBy: [{ parentId: { sort: 'asc', nulls: 'first' } }] },
      { where: { type: 'post' }, include: { author: true } },
      { where: { type: 'post' }, distinct: ['slug'] },
      { where: { id: { in: Array.from({ length: 40_000 }, (_, i) => i + 1) } } },
    ]) expect(await findContentRows(site.db, args)).toBeNull();
    expect(await countContentRows(site.db, { terms: { none: {} } })).toBeNull();
    expect(site.db.statements - before).toBe(0);
  });
});

describe('revision groups read with the rows (the `_links` of a post)', () => {
  // Posts with: nothing; two revisions and a newer autosave; two autosaves (several: which is
  // newest takes a second look at their dates) and a revision; revisions whose newest date is
  // shared by two ids (the higher id is the newer).
  let posts: number[];
  const expected = new Map<number, { count: number; latest: number | null }>();
  beforeAll(async () => {
    posts = [];
    for (let i = 0; i < 4; i++) posts.push((await site.createPost({ title: `Kept ${i}`, status: 'publish', date: `2023-0${i + 1}-01T10:00:00` })).id);
    const add = async (parentId: number, type: string, at: string) => {
      const date = new Date(at);
      return (await site.db.prisma.content.create({ data: { type, status: 'inherit', authorId: 1, parentId, title: `${type} of ${parentId}`, date, dateGmt: date, modified: date, modifiedGmt: date } })).id;
    };
    expected.set(posts[0], { count: 0, latest: null });
    await add(posts[1], 'revision', '2023-05-01T10:00:00Z');
    await add(posts[1], 'revision', '2023-05-02T10:00:00Z');
    expected.set(posts[1], { count: 3, latest: await add(posts[1], 'autosave', '2023-05-03T10:00:00Z') });
    const newest = await add(posts[2], 'autosave', '2023-06-05T10:00:00Z');
    await add(posts[2], 'autosave', '2023-06-01T10:00:00Z');
    await add(posts[2], 'revision', '2023-06-03T10:00:00Z');
    expected.set(posts[2], { count: 3, latest: newest });
    await add(posts[3], 'revision', '2023-07-01T10:00:00Z');
    const tied = await add(posts[3], 'revision', '2023-07-01T10:00:00Z');
    expected.set(posts[3], { count: 2, latest: tied });
  });

  it('in the rows\' statement, equal to what Prisma\'s groupBy answers', async () => {
    const before = site.db.statements;
    const rows = (await findContentRows(site.db, { where: { id: { in: posts } }, orderBy: [{ id: 'asc' }] }, ANSWER_ROWS))!;
    expect(site.db.statements - before).toBe(1);
    expect(rows.map((r) => r.id)).toEqual(posts);
    const prisma = await site.db.prisma.content.groupBy({
      by: ['parentId', 'type'], where: { parentId: { in: posts }, type: { in: ['revision', 'autosave'] } }, _count: { _all: true }, _max: { id: true, date: true },
    });
    const sorted = (groups: RevisionGroup[]) => [...groups].sort((a, b) => a.parentId! - b.parentId! || a.type.localeCompare(b.type));
    const carried = rows.flatMap((r) => (r as Record<symbol, RevisionGroup[]>)[REVISION_GROUPS] ?? []);
    expect(sorted(carried)).toEqual(sorted(prisma as RevisionGroup[]));
    expect(carried.length).toBe(5);
    // Every row carries its groups, none for the post without revisions.
    expect(rows.every((r) => REVISION_GROUPS in r)).toBe(true);
    expect((rows[0] as Record<symbol, RevisionGroup[]>)[REVISION_GROUPS]).toEqual([]);
  });

  it('give the same version-history count and predecessor in the list and in each post (both databases)', async () => {
    const list = await site.req('GET', `/core/v2/posts?include=${posts.join(',')}&orderby=include`);
    expect(list.status).toBe(200);
    for (const post of posts) {
      const want = expected.get(post)!;
      const one = await site.req('GET', `/core/v2/posts/${post}`);
      expect(one.status).toBe(200);
      for (const links of [list.body.find((p: { id: number }) => p.id === post)._links, one.body._links]) {
        expect(links['version-history'][0].count).toBe(want.count);
        expect(links['predecessor-version']?.[0].id ?? null).toBe(want.latest);
      }
    }
  });
});
