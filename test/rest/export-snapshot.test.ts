// The content export reads one snapshot: writes made while it runs (here between its first page
// of rows and the next ones) do not reach the file, which equals an export taken before them.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestSite, type TestSite } from '../helpers/app.js';
import { createContext } from '../../src/context.js';
import { exportContent, type ExportFormat } from '../../src/export/content.js';

let site: TestSite;
beforeAll(async () => { site = await createTestSite(); });
afterAll(async () => { await site?.close(); });

const NOW = new Date(Date.UTC(2026, 10, 28, 12));

function adminContext() {
  const admin = site.users.administrator;
  return createContext(site.db, { id: admin.id, login: admin.login, role: admin.role });
}

async function exported(format: ExportFormat, afterRead?: () => Promise<void>): Promise<string> {
  const file = await exportContent(adminContext(), format, NOW, { afterRead });
  let text = '';
  for await (const piece of file.body) text += piece;
  return text;
}

describe('the export reads one snapshot', () => {
  it.each(['wxr', 'json'] as const)('%s: writes made between its reads do not reach the file', async (format) => {
    const word = `snap${format}${Date.now().toString(36)}`;
    const category = await site.createTerm('categories', { name: `Cat ${word}` });
    const kept = await site.createPost({ title: `Kept ${word}`, status: 'publish', categories: [category.id] });
    // A child page's link holds its parent's slug, read after the page of items itself.
    const parent = await site.createPage({ title: `Parent ${word}`, slug: `parent-${word}`, status: 'publish' });
    await site.createPage({ title: `Child ${word}`, slug: `child-${word}`, status: 'publish', parent: parent.id });
    const before = await exported(format);
    expect(before).toContain(`Kept ${word}`);

    let wrote = 0;
    const during = await exported(format, async () => {
      if (wrote++) return;
      // After the first page (the authors, or the JSON's first items): a new post, a renamed one, a renamed term.
      const made = await site.req('POST', '/core/v2/posts', { as: 'administrator', json: { title: `Added ${word}`, status: 'publish', categories: [category.id] } });
      expect(made.status).toBe(201);
      const renamed = await site.req('POST', `/core/v2/posts/${kept.id}`, { as: 'administrator', json: { title: `Renamed ${word}` } });
      expect(renamed.status).toBe(200);
      const term = await site.req('POST', `/core/v2/categories/${category.id}`, { as: 'administrator', json: { name: `Recat ${word}` } });
      expect(term.status).toBe(200);
      const moved = await site.req('POST', `/core/v2/pages/${parent.id}`, { as: 'administrator', json: { slug: `moved-${word}` } });
      expect(moved.status).toBe(200);
    });
    expect(wrote).toBeGreaterThan(0);
    expect(during).toBe(before);

    const after = await exported(format);
    expect(after).toContain(`Added ${word}`);
    expect(after).toContain(`Renamed ${word}`);
    expect(after).not.toContain(`Kept ${word}`);
    expect(after).toContain(`moved-${word}/child-${word}`);
  });

  it('a reader that stops early ends the export transaction (later exports and writes go on)', async () => {
    const file = await exportContent(adminContext(), 'wxr', NOW);
    const iterator = file.body[Symbol.asyncIterator]();
    const first = await iterator.next();
    expect(first.done).toBe(false);
    await iterator.return?.(undefined);
    const made = await site.req('POST', '/core/v2/posts', { as: 'administrator', json: { title: 'After an abandoned export', status: 'publish' } });
    expect(made.status).toBe(201);
    expect(await exported('wxr')).toContain('After an abandoned export');
  });
});
