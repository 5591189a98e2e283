// Pages (spec §2.2, §4.6; reference §1.1, §2.3, §4): the post route set under /core/v2/pages with
// parent and menu_order, links that follow the parent chain, slugs unique per parent, page rights.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestSite, API, SITE, type TestSite } from '../helpers/app.js';

let site: TestSite;
beforeAll(async () => { site = await createTestSite(); });
afterAll(async () => { await site?.close(); });

type As = NonNullable<Parameters<TestSite['req']>[2]>['as'];
type Res = Awaited<ReturnType<TestSite['req']>>;

const create = (json: Record<string, unknown>, as: As = 'editor') => site.req('POST', '/core/v2/pages', { as, json });
async function page(json: Record<string, unknown>, as: As = 'editor'): Promise<any> {
  const res = await create(json, as);
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return res.body;
}
const list = (query: string, as?: As) => site.req('GET', `/core/v2/pages${query}`, { as });
const idsOf = (res: Res): number[] => {
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return (res.body as { id: number }[]).map((p) => p.id);
};
const sorted = (a: number[]) => [...a].sort((x, y) => x - y);

describe('PageCreate and PageGet', () => {
  it('creates a page with parent and menu_order, and none of the post-only fields', async () => {
    const res = await create({ title: 'About us', content: 'Who we are', status: 'publish', menu_order: 4 });
    expect(res.status).toBe(201);
    expect(res.headers.get('location')).toBe(`${API}/core/v2/pages/${res.body.id}`);
    const p = res.body;
    expect(p.type).toBe('page');
    expect(p.parent).toBe(0);
    expect(p.menu_order).toBe(4);
    expect(p.slug).toBe('about-us');
    expect(p.link).toBe(`${SITE}/about-us/`);
    expect(p.comment_status).toBe('closed');
    expect(p.permalink_template).toBe(`${SITE}/%pagename%/`);
    // post_class() names every item post-<id>, pages and attachments too.
    expect(p.class_list).toEqual([`post-${p.id}`, 'page', 'type-page', 'status-publish', 'hentry']);
    for (const k of ['format', 'sticky', 'categories', 'tags']) expect(p, k).not.toHaveProperty(k);

    const view = await site.req('GET', `/core/v2/pages/${p.id}`);
    expect(view.status).toBe(200);
    expect(view.body).toMatchObject({ id: p.id, type: 'page', parent: 0, menu_order: 4, title: { rendered: 'About us' }, content: { rendered: '<p>Who we are</p>\n', protected: false } });
    expect(Object.keys(view.body)).toEqual(expect.arrayContaining(['id', 'date', 'date_gmt', 'guid', 'modified', 'slug', 'status', 'type', 'link', 'title', 'content', 'author', 'featured_media', 'parent', 'menu_order', 'comment_status', 'ping_status', 'template', 'meta', '_links']));
    for (const k of ['format', 'sticky', 'categories', 'tags', 'password']) expect(view.body, k).not.toHaveProperty(k);
    expect(view.body._links['wp:term']).toBeUndefined();
    expect(view.body._links.up).toBeUndefined();
  });

  it('accepts a page without title or content (no empty_content for pages)', async () => {
    const res = await create({});
    expect(res.status).toBe(201);
    expect(res.body.status).toBe('draft');
    expect(res.body.title.raw).toBe('');
    expect(res.body.link).toBe(`${SITE}/?page_id=${res.body.id}`);
  });

  it('accepts string forms of menu_order and parent', async () => {
    const parent = await page({ title: 'Stringly', status: 'publish' });
    const child = await page({ title: 'Typed', status: 'publish', menu_order: '3', parent: String(parent.id) });
    expect(child.menu_order).toBe(3);
    expect(child.parent).toBe(parent.id);
    const bad = await create({ title: 'x', menu_order: 'first' });
    expect(bad).toBeWpError(400, 'rest_invalid_param');
    expect(bad.body.data.details.menu_order.code).toBe('rest_invalid_type');
  });

  it('applies page rights: editors may create, authors and contributors may not', async () => {
    expect(await site.req('POST', '/core/v2/pages', { json: { title: 'x' } })).toBeWpError(401, 'rest_cannot_create');
    expect(await create({ title: 'x' }, 'subscriber')).toBeWpError(403, 'rest_cannot_create');
    expect(await create({ title: 'x' }, 'contributor')).toBeWpError(403, 'rest_cannot_create');
    expect(await create({ title: 'x' }, 'author')).toBeWpError(403, 'rest_cannot_create');
    expect((await create({ title: 'By the editor', status: 'publish' }, 'editor')).status).toBe(201);
    expect((await create({ title: 'By the administrator', status: 'publish' }, 'administrator')).status).toBe(201);
  });

  it('refuses an unknown parent with rest_post_invalid_id 400 and stores nothing', async () => {
    const before = await site.db.prisma.content.count();
    expect(await create({ title: 'Orphan', parent: 987654 })).toBeWpError(400, 'rest_post_invalid_id');
    expect(await site.db.prisma.content.count()).toBe(before);
  });

  it('keeps pages and posts apart: a page id under /posts is 404 and vice versa', async () => {
    const p = await page({ title: 'Only a page', status: 'publish' });
    const post = (await site.req('POST', '/core/v2/posts', { as: 'editor', json: { title: 'Only a post', status: 'publish' } })).body;
    expect(await site.req('GET', `/core/v2/posts/${p.id}`)).toBeWpError(404, 'rest_post_invalid_id');
    expect(await site.req('GET', `/core/v2/pages/${post.id}`)).toBeWpError(404, 'rest_post_invalid_id');
    expect(await site.req('POST', `/core/v2/posts/${p.id}`, { as: 'editor', json: { title: 'x' } })).toBeWpError(404, 'rest_post_invalid_id');
    expect(await site.req('PATCH', `/core/v2/pages/${post.id}`, { as: 'editor', json: { title: 'x' } })).toBeWpError(404, 'rest_post_invalid_id');
    expect(await site.req('DELETE', `/core/v2/posts/${p.id}`, { as: 'editor' })).toBeWpError(404, 'rest_post_invalid_id');
    expect(await site.req('DELETE', `/core/v2/pages/${post.id}?force=true`, { as: 'editor' })).toBeWpError(404, 'rest_post_invalid_id');
    expect(await site.req('GET', '/core/v2/pages/987654')).toBeWpError(404, 'rest_post_invalid_id');
    // Neither list shows the other type.
    expect(idsOf(await list('?per_page=100'))).not.toContain(post.id);
    expect(idsOf(await site.req('GET', '/core/v2/posts?per_page=100'))).not.toContain(p.id);
  });

  it('hides draft pages from those who cannot edit them', async () => {
    const draft = await page({ title: 'Unfinished page' });
    expect(await site.req('GET', `/core/v2/pages/${draft.id}`)).toBeWpError(401, 'rest_forbidden');
    expect(await site.req('GET', `/core/v2/pages/${draft.id}`, { as: 'author' })).toBeWpError(403, 'rest_forbidden');
    expect((await site.req('GET', `/core/v2/pages/${draft.id}?context=edit`, { as: 'editor' })).body.title.raw).toBe('Unfinished page');
  });
});

describe('parents, links and slugs', () => {
  let about: any, team: any, lead: any, services: any;
  beforeAll(async () => {
    about = await page({ title: 'Company', status: 'publish' });
    team = await page({ title: 'Team', status: 'publish', parent: about.id });
    lead = await page({ title: 'Lead', status: 'publish', parent: team.id });
    services = await page({ title: 'Services', status: 'publish' });
  });

  it('builds link from the parent chain', async () => {
    expect(team.link).toBe(`${SITE}/company/team/`);
    expect(lead.link).toBe(`${SITE}/company/team/lead/`);
    expect((await site.req('GET', `/core/v2/pages/${lead.id}`)).body.link).toBe(`${SITE}/company/team/lead/`);
  });

  it('updates child links when an ancestor is renamed or moved', async () => {
    const root = await page({ title: 'Old root', status: 'publish' });
    const leaf = await page({ title: 'Leaf', status: 'publish', parent: root.id });
    await site.req('PATCH', `/core/v2/pages/${root.id}`, { as: 'editor', json: { slug: 'new-root' } });
    expect((await site.req('GET', `/core/v2/pages/${leaf.id}`)).body.link).toBe(`${SITE}/new-root/leaf/`);
    const moved = await site.req('PATCH', `/core/v2/pages/${leaf.id}`, { as: 'editor', json: { parent: services.id } });
    expect(moved.status).toBe(200);
    expect(moved.body.parent).toBe(services.id);
    expect(moved.body.link).toBe(`${SITE}/services/leaf/`);
  });

  it('links a child page up to its parent (embeddable)', async () => {
    const res = await site.req('GET', `/core/v2/pages/${team.id}`);
    expect(res.body._links.up).toEqual([{ embeddable: true, href: `${API}/core/v2/pages/${about.id}` }]);
    expect((await site.req('GET', `/core/v2/pages/${about.id}`)).body._links.up).toBeUndefined();
  });

  it('stores a page made its own parent with parent 0 (200)', async () => {
    const res = await site.req('POST', `/core/v2/pages/${services.id}`, { as: 'editor', json: { parent: services.id } });
    expect(res.status).toBe(200);
    expect(res.body.parent).toBe(0);
    expect((await site.req('GET', `/core/v2/pages/${services.id}`)).body.parent).toBe(0);
  });

  it('refuses an unknown parent on update with rest_post_invalid_id 400', async () => {
    const res = await site.req('PATCH', `/core/v2/pages/${team.id}`, { as: 'editor', json: { parent: 987654 } });
    expect(res).toBeWpError(400, 'rest_post_invalid_id');
    expect((await site.req('GET', `/core/v2/pages/${team.id}`)).body.parent).toBe(about.id);
  });

  it('keeps slugs unique per parent only', async () => {
    const a = await page({ title: 'History', status: 'publish', parent: about.id });
    const b = await page({ title: 'History', status: 'publish', parent: services.id });
    const c = await page({ title: 'History', status: 'publish', parent: about.id });
    const top = await page({ title: 'History', status: 'publish' });
    expect(a.slug).toBe('history');
    expect(b.slug).toBe('history');
    expect(c.slug).toBe('history-2');
    expect(top.slug).toBe('history');
    expect(a.link).toBe(`${SITE}/company/history/`);
    expect(b.link).toBe(`${SITE}/services/history/`);
    expect(c.link).toBe(`${SITE}/company/history-2/`);
    // An explicit slug that clashes with a sibling is suffixed too.
    const d = await page({ title: 'Other', slug: 'history', status: 'publish', parent: services.id });
    expect(d.slug).toBe('history-2');
  });
});

describe('PageUpdate and PageDelete', () => {
  it('updates partially with POST, PUT and PATCH', async () => {
    const p = await page({ title: 'Mutable', content: 'One', status: 'publish' });
    const put = await site.req('PUT', `/core/v2/pages/${p.id}`, { as: 'editor', json: { menu_order: 7 } });
    expect(put.status).toBe(200);
    expect(put.body.menu_order).toBe(7);
    expect(put.body.title.raw).toBe('Mutable');
    const patch = await site.req('PATCH', `/core/v2/pages/${p.id}`, { as: 'editor', json: { title: 'Mutated' } });
    expect(patch.body.title.raw).toBe('Mutated');
    expect(patch.body.menu_order).toBe(7);
    expect(patch.body._links['version-history'][0].count).toBe(2); // first update always stores one (§4.2), the title change another
    const post = await site.req('POST', `/core/v2/pages/${p.id}`, { as: 'editor', json: { content: 'Two' } });
    expect(post.body.content.raw).toBe('Two');
  });

  it('applies edit and delete rights on pages', async () => {
    const p = await page({ title: 'Guarded', status: 'publish' }, 'editor');
    expect(await site.req('PATCH', `/core/v2/pages/${p.id}`, { json: { title: 'x' } })).toBeWpError(401, 'rest_cannot_edit');
    expect(await site.req('PATCH', `/core/v2/pages/${p.id}`, { as: 'author', json: { title: 'x' } })).toBeWpError(403, 'rest_cannot_edit');
    expect(await site.req('PATCH', `/core/v2/pages/${p.id}`, { as: 'contributor', json: { title: 'x' } })).toBeWpError(403, 'rest_cannot_edit');
    expect(await site.req('DELETE', `/core/v2/pages/${p.id}`)).toBeWpError(401, 'rest_cannot_delete');
    expect(await site.req('DELETE', `/core/v2/pages/${p.id}`, { as: 'author' })).toBeWpError(403, 'rest_cannot_delete');
    expect((await site.req('PATCH', `/core/v2/pages/${p.id}`, { as: 'administrator', json: { title: 'Admin edit' } })).status).toBe(200);
  });

  it('trashes, refuses a second trash, restores, then deletes for good', async () => {
    const p = await page({ title: 'Binned page', status: 'publish' });
    const trashed = await site.req('DELETE', `/core/v2/pages/${p.id}`, { as: 'editor' });
    expect(trashed.status).toBe(200);
    expect(trashed.body.status).toBe('trash');
    expect(trashed.body.type).toBe('page');
    expect(trashed.body.slug).toBe('binned-page__trashed');
    expect(await site.req('DELETE', `/core/v2/pages/${p.id}`, { as: 'editor' })).toBeWpError(410, 'rest_already_trashed');
    expect(idsOf(await list('?status=trash', 'editor'))).toContain(p.id);
    const restored = await site.req('PATCH', `/core/v2/pages/${p.id}`, { as: 'editor', json: { status: 'publish' } });
    expect(restored.body.slug).toBe('binned-page');
    const gone = await site.req('DELETE', `/core/v2/pages/${p.id}?force=true`, { as: 'editor' });
    expect(gone.status).toBe(200);
    expect(gone.body.deleted).toBe(true);
    expect(gone.body.previous).toMatchObject({ id: p.id, type: 'page', title: { raw: 'Binned page' } });
    expect(await site.req('GET', `/core/v2/pages/${p.id}`, { as: 'editor' })).toBeWpError(404, 'rest_post_invalid_id');
  });
});

describe('PagesList', () => {
  const g: Record<string, number> = {};
  let scope: string;
  beforeAll(async () => {
    g.rootA = (await page({ title: 'List root A', status: 'publish', menu_order: 2, date: '2016-01-01T00:00:00' })).id;
    g.rootB = (await page({ title: 'List root B', status: 'publish', menu_order: 1, date: '2016-01-02T00:00:00' })).id;
    g.a1 = (await page({ title: 'List child A1', status: 'publish', parent: g.rootA, menu_order: 3, date: '2016-01-03T00:00:00' })).id;
    g.a2 = (await page({ title: 'List child A2', status: 'publish', parent: g.rootA, menu_order: 0, date: '2016-01-04T00:00:00' })).id;
    g.b1 = (await page({ title: 'List child B1', status: 'publish', parent: g.rootB, menu_order: 3, date: '2016-01-05T00:00:00' })).id;
    scope = `include=${Object.values(g).join(',')}&per_page=100`;
  });
  const q = (rest: string) => list(`?${scope}&${rest}`);
  const of = (...keys: string[]) => keys.map((k) => g[k]);

  it('filters by parent, 0 meaning top level', async () => {
    expect(idsOf(await q('parent=0'))).toEqual(of('rootB', 'rootA'));
    expect(idsOf(await list(`?parent=${g.rootA}`))).toEqual(of('a2', 'a1'));
    expect(idsOf(await list(`?parent=${g.rootA},${g.rootB}`))).toEqual(of('b1', 'a2', 'a1'));
    expect(idsOf(await list(`?parent[]=${g.rootB}`))).toEqual(of('b1'));
  });

  it('excludes parents with parent_exclude', async () => {
    expect(idsOf(await q(`parent_exclude=${g.rootA}`))).toEqual(of('b1', 'rootB', 'rootA'));
    expect(idsOf(await q(`parent_exclude=${g.rootA},0`))).toEqual(of('b1'));
    // 0 alone excludes the top level too (post_parent NOT IN (0)).
    expect(idsOf(await q('parent_exclude=0'))).toEqual(of('b1', 'a2', 'a1'));
  });

  it('filters by exact menu_order', async () => {
    expect(idsOf(await q('menu_order=3'))).toEqual(of('b1', 'a1'));
    expect(idsOf(await q('menu_order=0'))).toEqual(of('a2'));
    expect(await q('menu_order=abc')).toBeWpError(400, 'rest_invalid_param');
  });

  it('orders by menu_order', async () => {
    const byMenu = idsOf(await q('orderby=menu_order&order=asc'));
    expect(byMenu[0]).toBe(g.a2);
    expect(byMenu[1]).toBe(g.rootB);
    expect(byMenu[2]).toBe(g.rootA);
    expect(sorted(byMenu.slice(3))).toEqual(sorted(of('a1', 'b1')));
    const byMenuDesc = idsOf(await q('orderby=menu_order&order=desc'));
    expect(byMenuDesc.slice(2)).toEqual(of('rootA', 'rootB', 'a2'));
  });

  it('orders by parent, top-level pages (parent 0) first in ascending order', async () => {
    const byParent = idsOf(await q('orderby=parent&order=asc'));
    expect(sorted(byParent.slice(0, 2))).toEqual(sorted(of('rootA', 'rootB')));
    expect(sorted(byParent.slice(2, 4))).toEqual(sorted(of('a1', 'a2')));
    expect(byParent[4]).toBe(g.b1);
  });

  it('counts the filtered pages in the paging headers', async () => {
    const res = await list(`?parent=${g.rootA},${g.rootB}&per_page=2`);
    expect(res.headers.get('x-wp-total')).toBe('3');
    expect(res.headers.get('x-wp-totalpages')).toBe('2');
  });

  it('has no post-only list parameters: orderby keys of posts only stay posts-only', async () => {
    expect(await site.req('GET', '/core/v2/posts?orderby=menu_order')).toBeWpError(400, 'rest_invalid_param');
    expect(await list('?orderby=bogus')).toBeWpError(400, 'rest_invalid_param');
    expect(await list('?parent=abc')).toBeWpError(400, 'rest_invalid_param');
  });
});
