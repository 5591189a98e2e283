// Inside one batch (one database transaction), a later item sees an earlier item's writes in every
// cache kept per database version (term slugs, list and search totals): the version moves only
// when the batch commits, so those caches load afresh on the batch's handle (src/db/version-cache.ts).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestSite, type TestSite } from '../helpers/app.js';
import { createContext } from '../../src/context.js';
import { runUnitOfWork } from '../../src/content/unit-of-work.js';
import { cachedCount } from '../../src/db/list.js';
import { saveContent } from '../../src/content/service.js';
import { withinTransaction } from '../../src/db/version-cache.js';
import type { Db } from '../../src/db/client.js';

let site: TestSite;
beforeAll(async () => { site = await createTestSite(); });
afterAll(async () => { await site?.close(); });

describe('per-version caches inside a batch', () => {
  it.each(['require-all-validate', 'atomic'] as const)('a %s batch: a post answered after its category was renamed shows the new slug', async (mode) => {
    const word = `cachecat${mode.replace(/-/g, '')}${Date.now().toString(36)}`;
    const category = await site.createTerm('categories', { name: word, slug: word });
    const post = await site.createPost({ title: `Classed ${word}`, status: 'publish', categories: [category.id] });
    const res = await site.req('POST', '/batch/v1', {
      as: 'administrator',
      json: {
        ...(mode === 'atomic' ? { atomic: true } : { validation: 'require-all-validate' }),
        requests: [
          { method: 'POST', path: `/core/v2/posts/${post.id}`, body: { title: `First ${word}` } },
          { method: 'POST', path: `/core/v2/categories/${category.id}`, body: { slug: `${word}-renamed` } },
          { method: 'POST', path: `/core/v2/posts/${post.id}`, body: { title: `Second ${word}` } },
        ],
      },
    });
    expect(res.status, res.text.slice(0, 1000)).toBe(207);
    const [first, renamed, second] = res.body.responses as { status: number; body: any }[];
    expect([first.status, renamed.status, second.status]).toEqual([200, 200, 200]);
    expect(first.body.class_list).toContain(`category-${word}`);
    expect(renamed.body.slug).toBe(`${word}-renamed`);
    expect(second.body.class_list).toContain(`category-${word}-renamed`);
    expect(second.body.class_list).not.toContain(`category-${word}`);
    // After the commit, a single request agrees.
    const after = await site.req('GET', `/core/v2/posts/${post.id}?context=edit`, { as: 'administrator' });
    expect(after.status).toBe(200);
    expect(after.body.class_list).toContain(`category-${word}-renamed`);
  });

  it('a post made sticky by an earlier item is answered sticky by a later one (the site settings)', async () => {
    const post = await site.createPost({ title: `Sticky later ${Date.now().toString(36)}`, status: 'publish' });
    const res = await site.req('POST', '/batch/v1', {
      as: 'administrator',
      json: {
        validation: 'require-all-validate',
        requests: [
          { method: 'POST', path: `/core/v2/posts/${post.id}`, body: { title: 'read the settings' } },
          { method: 'POST', path: `/core/v2/posts/${post.id}`, body: { sticky: true } },
          { method: 'POST', path: `/core/v2/posts/${post.id}`, body: { title: 'answered after' } },
        ],
      },
    });
    expect(res.status, res.text.slice(0, 1000)).toBe(207);
    const [first, made, after] = res.body.responses as { status: number; body: any }[];
    expect([first.status, made.status, after.status]).toEqual([200, 200, 200]);
    expect([first.body.sticky, made.body.sticky, after.body.sticky]).toEqual([false, true, true]);
    await site.req('POST', `/core/v2/posts/${post.id}`, { as: 'administrator', json: { sticky: false } });
  });

  it('a list total counted early in a batch is counted again after a later step wrote', async () => {
    const word = `cachetotal${Date.now().toString(36)}`;
    const category = await site.createTerm('categories', { name: word });
    await site.createPost({ title: `Counted ${word}`, status: 'publish', categories: [category.id] });
    const where = { AND: [{ type: 'post' }, { status: { in: ['publish'] } }, { terms: { some: { termId: category.id } } }] };
    const seen: number[] = [];
    let batched = false;
    const count = async (db: Db) => {
      batched ||= withinTransaction(db);
      seen.push(await cachedCount(createContext(db, null), 'content', where));
      return { value: null, ok: true };
    };
    const write = async (db: Db) => {
      const admin = site.users.administrator;
      await saveContent(createContext(db, { id: admin.id, login: admin.login, role: admin.role }), 'post', null, { title: `Also ${word}`, status: 'publish', categories: [category.id] });
      return { value: null, ok: true };
    };
    const { rolledBack } = await runUnitOfWork<null>(site.db, [count, write, count], true);
    expect(rolledBack).toBe(false);
    expect(batched).toBe(true);
    expect(seen).toEqual([1, 2]);
  });
});
