// Writes made through batch/v1 reach the app's write hooks (deployment B's SEO index) once the
// batch has committed, for the items that kept their writes: an item rolled back to its savepoint,
// or an atomic batch undone, leaves no trace in the index.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestSite, type TestSite } from '../helpers/app.js';

let site: TestSite;
beforeAll(async () => { site = await createTestSite({ deployment: 'B' }); });
afterAll(async () => { await site?.close(); });

const indexed = async (id: number) => !!(await site.db.prisma.indexable.findUnique({ where: { objectType_objectId: { objectType: 'post', objectId: id } } }));
const batch = (requests: unknown[], atomic = false) =>
  site.req('POST', '/batch/v1', { as: 'administrator', json: { atomic, requests } });

describe('batch writes and the write hooks', () => {
  it('indexes what a batch created and updated, as single requests are', async () => {
    const res = await batch([
      { path: '/core/v2/posts', body: { title: 'Batched and indexed', status: 'publish' } },
      { path: '/core/v2/categories', body: { name: 'Batched category' } },
    ]);
    expect(res.status, res.text).toBe(207);
    const [post, term] = res.body.responses.map((r: any) => r.body);
    expect(await indexed(post.id)).toBe(true);
    expect(await site.db.prisma.indexable.findUnique({ where: { objectType_objectId: { objectType: 'term', objectId: term.id } } })).not.toBeNull();
    const update = await batch([{ path: `/core/v2/posts/${post.id}`, body: { title: 'Renamed in a batch' } }]);
    expect(update.body.responses[0].status).toBe(200);
    const row = await site.db.prisma.indexable.findUniqueOrThrow({ where: { objectType_objectId: { objectType: 'post', objectId: post.id } } });
    expect(row.permalink).toContain('/batched-and-indexed/');
    expect(row.breadcrumbTitle).toBe('Renamed in a batch');
  });

  it('indexes nothing of an atomic batch that was undone', async () => {
    const before = await site.db.prisma.indexable.count();
    // The first item's create wrote and noted its event; the second fails, so the batch is rolled
    // back and the event with it.
    const res = await batch([
      { path: '/core/v2/posts', body: { title: 'Undone with its batch', status: 'publish' } },
      { path: '/core/v2/posts', body: { title: 'Refused', status: 'publish', categories: [999999] } },
    ], true);
    expect(res.status).toBe(207);
    expect(res.body.responses[1].status).toBe(400);
    expect(await site.db.prisma.indexable.count()).toBe(before);
    // In a batch that is not atomic the first item keeps its write and is indexed.
    const kept = await batch([
      { path: '/core/v2/posts', body: { title: 'Kept', status: 'publish' } },
      { path: '/core/v2/posts', body: { title: 'Refused again', status: 'publish', categories: [999999] } },
    ]);
    expect(kept.body.responses.map((r: any) => r.status)).toEqual([201, 400]);
    expect(await indexed(kept.body.responses[0].body.id)).toBe(true);
    expect(await site.db.prisma.indexable.count()).toBe(before + 1);
  });
});
