// Rendered text stored on save (src/content/stored-render.ts): a save stores content.rendered and
// the default excerpt.rendered with a key of the raw text they were made from; reads answer the
// stored text only while the key matches, so text changed behind the service's back (SQL, a path
// that does not render) or a row saved before the columns existed is rendered on read as before.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestSite, provider, type TestSite } from '../helpers/app.js';
import { renderContent, renderExcerpt } from '../../src/content/render.js';
import { renderKey, renderedColumns, storedRender } from '../../src/content/stored-render.js';

let site: TestSite;
beforeAll(async () => { site = await createTestSite(); });
afterAll(async () => { await site.close(); });

const RAW = 'She said "hello" -- twice...\n\nA second paragraph with Wordpress in it.';

async function raw(sql: string, ...args: unknown[]): Promise<void> {
  const p = provider === 'postgres' ? sql.replace(/\?/g, (() => { let i = 0; return () => `$${++i}`; })()) : sql;
  await site.db.prisma.$executeRawUnsafe(p, ...args);
}

describe('the key', () => {
  it('follows the raw content and excerpt, and the stored text is what the renderers make', () => {
    expect(renderKey('a', '')).toBe(renderKey('a', ''));
    expect(new Set([renderKey('a', ''), renderKey('b', ''), renderKey('a', 'b'), renderKey('ab', ''), renderKey('', 'a')]).size).toBe(5);
    const stored = renderedColumns(RAW, '');
    expect(stored.renderedContent).toBe(renderContent(RAW));
    expect(stored.renderedExcerpt).toBe(renderExcerpt('', RAW));
    const row = { content: RAW, excerpt: '', ...stored };
    expect(storedRender(row)).toEqual({ content: stored.renderedContent, excerpt: stored.renderedExcerpt });
    expect(storedRender({ ...row, content: `${RAW}!` })).toBeNull();
    expect(storedRender({ ...row, renderedKey: '' })).toBeNull();
  });
});

describe('a saved post', () => {
  it('stores its rendering, answers it, and renders again when its text changes', async () => {
    const post = await site.createPost({ title: 'Stored', content: RAW, status: 'publish' });
    const row = await site.db.prisma.content.findUniqueOrThrow({ where: { id: post.id } });
    expect([row.renderedContent, row.renderedKey]).toEqual([renderContent(RAW), renderKey(RAW, '')]);
    const read = await site.req('GET', `/core/v2/posts/${post.id}`);
    expect([read.status, read.body.content.rendered, read.body.excerpt.rendered]).toEqual([200, renderContent(RAW), renderExcerpt('', RAW)]);

    // A stored rendering that no longer matches the text is not answered.
    await raw('UPDATE "Content" SET "renderedContent" = ? WHERE "id" = ?', '<p>planted</p>', post.id);
    await raw('UPDATE "Content" SET "content" = ? WHERE "id" = ?', 'Changed -- by SQL', post.id);
    const changed = await site.req('GET', `/core/v2/posts/${post.id}?_=1`);
    expect(changed.body.content.rendered).toBe(renderContent('Changed -- by SQL'));

    // Proof that the stored text is what is answered while the key matches.
    await raw('UPDATE "Content" SET "content" = ?, "renderedContent" = ?, "renderedKey" = ? WHERE "id" = ?', RAW, '<p>planted</p>', renderKey(RAW, ''), post.id);
    expect((await site.req('GET', `/core/v2/posts/${post.id}?_=2`)).body.content.rendered).toBe('<p>planted</p>');

    // An update stores the new rendering; another excerpt length renders on read.
    const updated = await site.req('POST', `/core/v2/posts/${post.id}`, { as: 'editor', json: { content: 'New -- text', excerpt: 'Own excerpt' } });
    expect([updated.status, updated.body.content.rendered, updated.body.excerpt.rendered]).toEqual([200, renderContent('New -- text'), renderExcerpt('Own excerpt', 'New -- text')]);
    const after = await site.db.prisma.content.findUniqueOrThrow({ where: { id: post.id } });
    expect([after.renderedContent, after.renderedExcerpt, after.renderedKey]).toEqual([renderContent('New -- text'), renderExcerpt('Own excerpt', 'New -- text'), renderKey('New -- text', 'Own excerpt')]);
    const gql = await site.gql(`{ post(id: ${post.id}) { content { rendered } excerpt(length: 1) { rendered } } }`);
    expect(gql.data.post).toEqual({ content: { rendered: renderContent('New -- text') }, excerpt: { rendered: renderExcerpt('Own excerpt', 'New -- text', 1) } });
  });

  it('a row saved before the columns existed renders on read', async () => {
    const post = await site.createPost({ title: 'Old', content: RAW, status: 'publish' });
    await raw('UPDATE "Content" SET "renderedContent" = ?, "renderedExcerpt" = ?, "renderedKey" = ? WHERE "id" = ?', '', '', '', post.id);
    const read = await site.req('GET', `/core/v2/posts/${post.id}`);
    expect([read.status, read.body.content.rendered, read.body.excerpt.rendered]).toEqual([200, renderContent(RAW), renderExcerpt('', RAW)]);
  });

  it('a password-protected post keeps its text from readers without the password', async () => {
    const post = await site.createPost({ title: 'Locked', content: RAW, status: 'publish', password: 'sesame' });
    const read = await site.req('GET', `/core/v2/posts/${post.id}`);
    expect([read.status, read.body.content.rendered, read.body.excerpt.rendered, read.body.content.protected]).toEqual([200, '', '', true]);
    const withPassword = await site.req('GET', `/core/v2/posts/${post.id}?password=sesame`);
    expect(withPassword.body.content.rendered).toBe(renderContent(RAW));
  });
});
