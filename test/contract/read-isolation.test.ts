// A read answered while another request's write transaction is open sees what is committed, not
// that transaction's rows: it may still roll back, and an answer made from them would be wrong and
// could stay in the response cache. The content reads go through `Db.read` (src/db/client.ts):
// on SQLite a connection of their own beside the one Prisma's adapter runs every transaction of
// the process on; on PostgreSQL a pooled connection.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestSite, type TestSite } from '../helpers/app.js';

let site: TestSite;
let id = 0;

beforeAll(async () => {
  site = await createTestSite();
  id = (await site.createPost({ title: 'Committed title', content: 'Words.', status: 'publish' })).id;
});
afterAll(async () => { await site?.close(); });

/** Runs `during` while a transaction holds an uncommitted change of the post's title and a new post, then rolls it back. */
async function whileUncommitted<T>(during: () => Promise<T>): Promise<T> {
  let result: T | undefined;
  const rolledBack = site.db.prisma.$transaction(async (tx) => {
    await tx.content.update({ where: { id }, data: { title: 'Uncommitted title' } });
    result = await during();
    throw new Error('roll back');
  }).catch((err: Error) => err.message);
  expect(await rolledBack).toBe('roll back');
  return result!;
}

describe('reads beside an open write transaction', () => {
  it('a post, a list and its total show what is committed, and the cache keeps nothing else', async () => {
    const total = Number((await site.req('GET', '/core/v2/posts')).headers.get('x-wp-total'));
    const [item, list] = await whileUncommitted(async () => {
      // Asked twice: the second answer is the one the cache keeps.
      await site.req('GET', `/core/v2/posts/${id}?_fields=id,title`);
      return [
        await site.req('GET', `/core/v2/posts/${id}?_fields=id,title`),
        await site.req('GET', `/core/v2/posts?include=${id}&_fields=id,title`),
      ];
    });
    expect(item.status).toBe(200);
    expect(item.body.title.rendered).toBe('Committed title');
    expect(list.body).toEqual([{ id, title: { rendered: 'Committed title' } }]);
    // After the rollback the cached answers (made during the transaction) are still the truth.
    const again = await site.req('GET', `/core/v2/posts/${id}?_fields=id,title`);
    expect(again.headers.get('x-cache')).toBe('HIT');
    expect(again.body.title.rendered).toBe('Committed title');
    expect(Number((await site.req('GET', '/core/v2/posts')).headers.get('x-wp-total'))).toBe(total);
  });
});
