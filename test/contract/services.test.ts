// The services of an app (src/services.ts): made once by createApp and kept on its database handle,
// read by every context made over it, inherited by a batch's handle (its write hooks run after the commit), and
// the defaults for a handle no app set up. Both databases.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestSite, type TestSite } from '../helpers/app.js';
import { createContext } from '../../src/context.js';
import { servicesOf } from '../../src/services.js';
import { runUnitOfWork } from '../../src/content/unit-of-work.js';
import { afterWrite } from '../../src/content/write-hooks.js';
import { seoIndexing } from '../../src/seo/indexables/hooks.js';
import type { Db } from '../../src/db/client.js';

let a: TestSite;
let b: TestSite;
beforeAll(async () => { [a, b] = await Promise.all([createTestSite({ formRateLimit: 3 }), createTestSite({ deployment: 'B' })]); });
afterAll(async () => { await Promise.all([a?.close(), b?.close()]); });

describe('the services of an app', () => {
  it('are set on the handle once, and every context over it has them', () => {
    const s = a.db.services!;
    expect(s).toBeDefined();
    expect(createContext(a.db, null).services).toBe(s);
    expect(createContext(a.db, { id: 1, login: 'x', role: 'editor' }).services).toBe(s);
    expect(s.forms).toMatchObject({ rateLimit: 3, restRoot: `${a.app.config.siteUrl}${a.app.config.restPrefix}/` });
    expect(s.siteHealth).toMatchObject({ siteUrl: a.app.config.siteUrl, restPrefix: a.app.config.restPrefix });
  });

  it('are each app\'s own, and follow its deployment', () => {
    const [sa, sb] = [a.db.services!, b.db.services!];
    for (const key of ['forms', 'seo', 'urlDetails', 'contentEvents'] as const) expect(sa[key]).not.toBe(sb[key]);
    expect(sa.seo.indexing).toBe(false);
    expect(sa.writeHooks).toEqual([]);
    expect(sb.seo.indexing).toBe(true);
    expect(sb.writeHooks).toEqual([seoIndexing]);
  });

  it('run the write hooks of a batch\'s steps after the commit, for the steps that kept their writes', async () => {
    const heard: string[] = [];
    // A handle like a's with a hook of this test's.
    const db: Db = Object.create(a.db, {
      services: { value: { ...a.db.services!, writeHooks: [async (ctx: { db: Db }, e: { id: number }) => { heard.push(`${e.id} on ${ctx.db === db ? 'the app handle' : 'another handle'}`); }] } },
    });
    const step = (id: number, ok: boolean) => async (stepDb: Db) => {
      await afterWrite(createContext(stepDb, null), { object: 'content', id, action: 'save' });
      // Nothing is heard while the batch's transaction is open.
      expect(heard).toEqual([]);
      return { value: id, ok };
    };
    await runUnitOfWork(db, [step(1, true), step(2, false), step(3, true)], false);
    expect(heard).toEqual(['1 on the app handle', '3 on the app handle']);
    heard.length = 0;
    const atomic = await runUnitOfWork(db, [step(4, true), step(5, false)], true);
    expect(atomic.rolledBack).toBe(true);
    expect(heard).toEqual([]);
  });

  it('reach a batch\'s steps, the same objects, with write hooks that wait for the commit', async () => {
    const base = b.db.services!;
    const seen: Db[] = [];
    const { results } = await runUnitOfWork(b.db, [async (db) => { seen.push(db); return { value: createContext(db, null).services, ok: true }; }], false);
    expect(seen[0]).not.toBe(b.db);
    const step = results[0];
    for (const key of ['forms', 'seo', 'urlDetails', 'siteHealth', 'contentEvents'] as const) expect(step[key]).toBe(base[key]);
    // The step's hooks only note events (run after the commit, src/content/unit-of-work.ts).
    expect(step.writeHooks).toHaveLength(1);
    expect(step.writeHooks[0]).not.toBe(seoIndexing);
    // The app's own list is untouched.
    expect(base.writeHooks).toEqual([seoIndexing]);
  });

  it('are the defaults, kept on the handle, where no app set them; a context needs them first', () => {
    const bare: Db = Object.create(a.db, { services: { value: undefined, writable: true } });
    expect(() => createContext(bare, null)).toThrow(/no services/);
    const s = servicesOf(bare);
    expect(servicesOf(bare)).toBe(s);
    expect(createContext(bare, null).services).toBe(s);
    expect(s.forms).toMatchObject({ restRoot: null, smtpUrl: null, rateLimit: 5 });
    expect(s.seo).toMatchObject({ indexing: false, restRoot: '/', importChunkSize: 50 });
    expect(s.siteHealth).toBeNull();
    expect(s.writeHooks).toEqual([]);
    // The app's handle keeps its own.
    expect(a.db.services).not.toBe(s);
  });
});
