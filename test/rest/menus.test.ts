// core/v2/menus, core/v2/menu-items and core/v2/menu-locations: who may read and write, menus with
// their locations and auto_add, items of every kind with their labels, URLs, links and nesting,
// items whose page is trashed, the list parameters and what a list costs in SQL statements.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestSite, SITE, type As, type TestSite } from '../helpers/app.js';

let site: TestSite;
beforeAll(async () => { site = await createTestSite(); });
afterAll(async () => { await site?.close(); });

const get = (path: string, as?: As) => site.req('GET', `/core/v2/${path}`, { as });
const post = (path: string, json: Record<string, unknown>, as: As = 'administrator') => site.req('POST', `/core/v2/${path}`, { as, json });
const del = (path: string, as: As = 'administrator') => site.req('DELETE', `/core/v2/${path}`, { as });

let serial = 0;
async function menu(json: Record<string, unknown> = {}): Promise<any> {
  const res = await post('menus', { name: `Menu ${++serial}`, ...json });
  expect(res.status, res.text).toBe(201);
  return res.body;
}
async function item(json: Record<string, unknown>): Promise<any> {
  const res = await post('menu-items', json);
  expect(res.status, res.text).toBe(201);
  return res.body;
}

describe('menu locations', () => {
  it('lists the declared locations keyed by name, with the menu in each (administrators only)', async () => {
    const res = await get('menu-locations', 'administrator');
    expect(res.status).toBe(200);
    expect(Object.keys(res.body)).toEqual(['primary', 'footer']);
    expect(res.body.primary).toMatchObject({ name: 'primary', description: 'Primary menu' });
    expect(res.body.footer._links.self[0].href).toBe(`${SITE}/wp-json/core/v2/menu-locations/footer`);
    expect(await get('menu-locations')).toBeWpError(401, 'rest_cannot_view');
    expect(await get('menu-locations', 'editor')).toBeWpError(403, 'rest_cannot_view');
  });

  it('answers one location; an undeclared one is 404 after the right is checked', async () => {
    expect((await get('menu-locations/primary', 'administrator')).body).toMatchObject({ name: 'primary', description: 'Primary menu' });
    expect(await get('menu-locations/sidebar', 'administrator')).toBeWpError(404, 'rest_menu_location_invalid');
    expect(await get('menu-locations/sidebar')).toBeWpError(401, 'rest_cannot_view');
    expect(await get('menu-locations/primary', 'author')).toBeWpError(403, 'rest_cannot_view');
  });
});

describe('menus', () => {
  it('refuses writes to everyone but administrators (edit_theme_options)', async () => {
    expect(await site.req('POST', '/core/v2/menus', { json: { name: 'Nope' } })).toBeWpError(401, 'rest_cannot_create');
    for (const role of ['subscriber', 'author', 'editor'] as const) expect(await post('menus', { name: 'Nope' }, role)).toBeWpError(403, 'rest_cannot_create');
    const m = await menu();
    expect(await post(`menus/${m.id}`, { name: 'Renamed' }, 'editor')).toBeWpError(403, 'rest_cannot_update');
    expect(await site.req('DELETE', `/core/v2/menus/${m.id}?force=true`, { as: 'editor' })).toBeWpError(403, 'rest_cannot_delete');
    expect(await site.req('DELETE', `/core/v2/menus/${m.id}?force=true`)).toBeWpError(401, 'rest_cannot_delete');
    expect((await get(`menus/${m.id}`, 'administrator')).body.name).toBe(m.name);
  });

  it('creates a menu with its locations and auto_add, answering 201 and its address', async () => {
    const res = await post('menus', { name: 'Main navigation', description: 'Top of every page', locations: ['primary'], auto_add: true });
    expect(res.status).toBe(201);
    expect(res.headers.get('location')).toBe(`${SITE}/wp-json/core/v2/menus/${res.body.id}`);
    expect(res.body).toMatchObject({ name: 'Main navigation', slug: 'main-navigation', description: 'Top of every page', locations: ['primary'], auto_add: true, meta: [] });
    expect(res.body._links['wp:menu-location']).toEqual([{ href: `${SITE}/wp-json/core/v2/menu-locations/primary`, embeddable: true }]);
    expect(res.body._links['wp:post_type'][0].href).toBe(`${SITE}/wp-json/core/v2/menu-items?menus=${res.body.id}`);
    expect((await get('menu-locations/primary', 'administrator')).body.menu).toBe(res.body.id);
  });

  it('refuses a second menu of the same name, an empty name and an undeclared location', async () => {
    const m = await menu();
    const clash = await post('menus', { name: m.name.toUpperCase() });
    expect(clash).toBeWpError(400, 'menu_exists');
    expect(clash.body.data.term_id).toBe(m.id);
    expect(await post('menus', { name: '   ' })).toBeWpError(400, 'empty_term_name');
    expect(await post('menus', { name: 'Elsewhere', locations: ['sidebar'] })).toBeWpError(400, 'rest_invalid_param');
    expect(await post('menus', {})).toBeWpError(400, 'rest_missing_callback_param');
    expect((await get(`menus?search=Elsewhere`, 'administrator')).body).toEqual([]);
  });

  it('moves a menu between locations; a location holds one menu', async () => {
    const a = await menu({ locations: ['footer'] });
    const b = await menu();
    let res = await post(`menus/${b.id}`, { locations: ['footer', 'primary'] });
    expect(res.status).toBe(200);
    expect(res.body.locations).toEqual(['primary', 'footer']);
    expect((await get(`menus/${a.id}`, 'administrator')).body.locations).toEqual([]);
    res = await post(`menus/${b.id}`, { locations: [] });
    expect(res.body.locations).toEqual([]);
    const locations = (await get('menu-locations', 'administrator')).body;
    expect([locations.primary.menu, locations.footer.menu]).toEqual([0, 0]);
    // Fields not given keep their value.
    res = await post(`menus/${b.id}`, { description: 'Only this' });
    expect(res.body).toMatchObject({ name: b.name, slug: b.slug, description: 'Only this', auto_add: false });
  });

  it('is read by whoever may edit content; others are refused, a missing menu is 404 first', async () => {
    const m = await menu({ locations: ['primary'] });
    expect(await get('menus')).toBeWpError(401, 'rest_cannot_view');
    expect(await get('menus', 'subscriber')).toBeWpError(403, 'rest_cannot_view');
    expect(await get(`menus/${m.id}`)).toBeWpError(401, 'rest_cannot_view');
    expect(await get(`menus/${m.id}`, 'subscriber')).toBeWpError(403, 'rest_cannot_view');
    expect(await get('menus/999999')).toBeWpError(404, 'rest_term_invalid');
    expect(await get(`menus/${m.id}?context=edit`, 'author')).toBeWpError(403, 'rest_forbidden_context');
    expect(await get('menus?context=edit', 'contributor')).toBeWpError(403, 'rest_forbidden_context');
    for (const role of ['contributor', 'author', 'editor'] as const) expect((await get(`menus/${m.id}`, role)).body.id).toBe(m.id);
    const list = await get(`menus?include=${m.id}`, 'contributor');
    expect(list.body.map((x: any) => x.id)).toEqual([m.id]);
    expect(list.headers.get('x-wp-total')).toBe('1');
    // A term of another taxonomy is no menu.
    const category = await site.createTerm('categories', { name: 'Not a menu' });
    expect(await get(`menus/${category.id}`, 'administrator')).toBeWpError(404, 'rest_term_invalid');
  });

  it('has no trash: deleting needs force, and takes the items and the locations with it', async () => {
    const m = await menu({ locations: ['footer'] });
    const link = await item({ title: 'Gone', url: 'https://example.test/', menus: m.id });
    expect(await del(`menus/${m.id}`)).toBeWpError(501, 'rest_trash_not_supported');
    const res = await site.req('DELETE', `/core/v2/menus/${m.id}?force=true`, { as: 'administrator' });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ deleted: true, previous: { id: m.id, name: m.name, locations: ['footer'] } });
    expect(await get(`menus/${m.id}`, 'administrator')).toBeWpError(404, 'rest_term_invalid');
    expect(await get(`menu-items/${link.id}`, 'administrator')).toBeWpError(404, 'rest_post_invalid_id');
    expect((await get('menu-locations/footer', 'administrator')).body.menu).toBe(0);
  });
});

describe('menu items', () => {
  let m: any;
  let about: any;
  let news: any;
  beforeAll(async () => {
    m = await menu();
    about = await site.createPage({ title: 'About us', status: 'publish' });
    news = await site.createTerm('categories', { name: 'News desk' });
  });

  it('refuses writes to everyone but administrators', async () => {
    const body = { title: 'Link', url: 'https://example.test/', menus: m.id };
    expect(await site.req('POST', '/core/v2/menu-items', { json: body })).toBeWpError(401, 'rest_cannot_create');
    for (const role of ['contributor', 'author', 'editor'] as const) expect(await post('menu-items', body, role)).toBeWpError(403, 'rest_cannot_create');
    const link = await item(body);
    expect(await post(`menu-items/${link.id}`, { title: 'Changed' }, 'editor')).toBeWpError(403, 'rest_cannot_edit');
    expect(await site.req('DELETE', `/core/v2/menu-items/${link.id}?force=true`, { as: 'editor' })).toBeWpError(403, 'rest_cannot_delete');
    expect(await post('menu-items/999999', { title: 'Changed' })).toBeWpError(404, 'rest_post_invalid_id');
    expect(await post('menu-items', { ...body, id: link.id })).toBeWpError(400, 'rest_post_exists');
  });

  it('links a page: its title, address, type label and the linked object', async () => {
    const res = await post('menu-items', { type: 'post_type', object_id: about.id, menus: m.id });
    expect(res.status).toBe(201);
    expect(res.headers.get('location')).toBe(`${SITE}/wp-json/core/v2/menu-items/${res.body.id}`);
    expect(res.body).toMatchObject({
      title: { raw: 'About us', rendered: 'About us' }, status: 'publish', url: about.link, type: 'post_type', type_label: 'Page',
      object: 'page', object_id: about.id, parent: 0, menu_order: 1, target: '', invalid: false, menus: m.id,
    });
    expect(res.body._links['wp:menu-item-object']).toEqual([{ href: `${SITE}/wp-json/core/v2/pages/${about.id}`, post_type: 'page', embeddable: true }]);
    expect(res.body._links['wp:term']).toEqual([{ taxonomy: 'nav_menu', embeddable: true, href: `${SITE}/wp-json/core/v2/menus?post=${res.body.id}` }]);
    // Its own label wins over the page's.
    const renamed = await post(`menu-items/${res.body.id}`, { title: 'Who we are' });
    expect(renamed.body.title).toEqual({ raw: 'Who we are', rendered: 'Who we are' });
    expect(renamed.body.url).toBe(about.link);
    // As WordPress: `menus` 0 keeps the item in its menu.
    expect((await post(`menu-items/${res.body.id}`, { menus: 0 })).body.menus).toBe(m.id);
  });

  it('links a term, an archive and a custom URL', async () => {
    const term = await item({ type: 'taxonomy', object_id: news.id, menus: m.id, menu_order: 2 });
    expect(term).toMatchObject({ title: { rendered: 'News desk' }, url: news.link, type_label: 'Category', object: 'category' });
    expect(term._links['wp:menu-item-object'][0]).toEqual({ href: `${SITE}/wp-json/core/v2/categories/${news.id}`, taxonomy: 'category', embeddable: true });
    const archive = await item({ type: 'post_type_archive', object: 'post', menus: m.id, menu_order: 3 });
    expect(archive).toMatchObject({ title: { rendered: 'Posts' }, url: `${SITE}/`, type_label: 'Post Type Archive', invalid: false });
    const custom = await item({ title: 'Docs', url: 'https://docs.example.test/start', target: '_blank', classes: ['big', 'b@d'], xfn: ['nofollow'], attr_title: '<b>Read</b> the docs', menus: m.id, menu_order: 4 });
    expect(custom).toMatchObject({ url: 'https://docs.example.test/start', type: 'custom', type_label: 'Custom Link', object: 'custom', object_id: custom.id, target: '_blank', classes: ['big', 'bd'], xfn: ['nofollow'], attr_title: 'Read the docs' });
    expect(custom._links['wp:menu-item-object']).toBeUndefined();
  });

  it('checks what an item links to and where it goes, with WordPress\'s codes', async () => {
    expect(await post('menu-items', { url: 'https://example.test/' })).toBeWpError(400, 'rest_title_required');
    expect(await post('menu-items', { title: 'No address' })).toBeWpError(400, 'rest_url_required');
    expect(await post('menu-items', { type: 'post_type', object_id: 999999 })).toBeWpError(400, 'rest_post_invalid_id');
    expect(await post('menu-items', { type: 'taxonomy', object_id: 999999 })).toBeWpError(400, 'rest_term_invalid_id');
    expect(await post('menu-items', { type: 'post_type_archive', object: 'nothing' })).toBeWpError(400, 'rest_post_invalid_type');
    expect(await post('menu-items', { title: 'X', url: 'https://example.test/', menus: news.id })).toBeWpError(400, 'invalid_menu_id');
    expect(await post('menu-items', { title: 'X', url: 'https://example.test/', parent: about.id })).toBeWpError(400, 'invalid_menu_item_parent');
    expect(await post('menu-items', { title: 'X', url: 'javascript:alert(1)' })).toBeWpError(400, 'rest_invalid_param');
    expect(await post('menu-items', { title: 'X', url: 'https://example.test/', target: '_self' })).toBeWpError(400, 'rest_invalid_param');
    expect(await post('menu-items', { title: 'X', url: 'https://example.test/', type: 'widget' })).toBeWpError(400, 'rest_invalid_param');
    // None of them left an item behind.
    expect((await get('menu-items?search=X&status=any', 'administrator')).body).toEqual([]);
  });

  it('nests items under a parent, refuses cycles, and moves children up when a parent goes', async () => {
    const n = await menu();
    const top = await item({ title: 'Top', url: 'https://example.test/top', menus: n.id, menu_order: 1 });
    const child = await item({ title: 'Child', url: 'https://example.test/child', menus: n.id, parent: top.id, menu_order: 2 });
    const grandchild = await item({ title: 'Grandchild', url: 'https://example.test/gc', menus: n.id, parent: child.id, menu_order: 3 });
    expect(await post(`menu-items/${top.id}`, { parent: grandchild.id })).toBeWpError(400, 'invalid_menu_item_parent');
    // An item named as its own parent goes to the top level, as WordPress resets it.
    expect((await post(`menu-items/${top.id}`, { parent: top.id })).body.parent).toBe(0);
    const list = await get(`menu-items?menus=${n.id}`, 'author');
    expect(list.body.map((i: any) => [i.title.rendered, i.parent])).toEqual([['Top', 0], ['Child', top.id], ['Grandchild', child.id]]);
    expect(await del(`menu-items/${child.id}`)).toBeWpError(501, 'rest_trash_not_supported');
    const gone = await site.req('DELETE', `/core/v2/menu-items/${child.id}?force=true`, { as: 'administrator' });
    expect(gone.status).toBe(200);
    expect(gone.body).toMatchObject({ deleted: true, previous: { id: child.id, parent: top.id } });
    expect((await get(`menu-items/${grandchild.id}`, 'administrator')).body.parent).toBe(top.id);
  });

  it('leaves items whose page is trashed out of reads by those who may not edit menus; editors of menus see them invalid', async () => {
    const n = await menu();
    const page = await site.createPage({ title: 'Soon trashed', status: 'publish' });
    const linked = await item({ type: 'post_type', object_id: page.id, menus: n.id });
    const kept = await item({ title: 'Kept', url: 'https://example.test/kept', menus: n.id, menu_order: 2 });
    expect((await get(`menu-items?menus=${n.id}`, 'author')).body.map((i: any) => i.id)).toEqual([linked.id, kept.id]);
    expect((await del(`pages/${page.id}`)).status).toBe(200);
    const forAuthor = await get(`menu-items?menus=${n.id}`, 'author');
    expect(forAuthor.body.map((i: any) => i.id)).toEqual([kept.id]);
    expect(forAuthor.headers.get('x-wp-total')).toBe('1');
    expect(await get(`menu-items/${linked.id}`, 'author')).toBeWpError(404, 'rest_post_invalid_id');
    const forAdmin = await get(`menu-items?menus=${n.id}`, 'administrator');
    expect(forAdmin.body.map((i: any) => [i.id, i.invalid])).toEqual([[linked.id, true], [kept.id, false]]);
    // Back from the trash, it is shown again.
    expect((await post(`pages/${page.id}`, { status: 'publish' })).status).toBe(200);
    expect((await get(`menu-items?menus=${n.id}`, 'author')).body.map((i: any) => i.id)).toEqual([linked.id, kept.id]);
  });

  it('lists published items by menu order for readers; drafts and other statuses for editors of menus', async () => {
    const n = await menu();
    const a = await item({ title: 'Second', url: 'https://example.test/2', menus: n.id, menu_order: 2 });
    const b = await item({ title: 'First', url: 'https://example.test/1', menus: n.id, menu_order: 1 });
    const draft = await item({ title: 'Draft', url: 'https://example.test/d', menus: n.id, menu_order: 3, status: 'pending' });
    expect(draft.status).toBe('draft');
    expect((await get(`menu-items?menus=${n.id}`, 'contributor')).body.map((i: any) => i.id)).toEqual([b.id, a.id]);
    expect((await get(`menu-items?menus=${n.id}&order=desc`, 'contributor')).body.map((i: any) => i.id)).toEqual([a.id, b.id]);
    expect((await get(`menu-items?menus=${n.id}&orderby=title`, 'contributor')).body.map((i: any) => i.id)).toEqual([b.id, a.id]);
    expect((await get(`menu-items?menus=${n.id}&status=draft`, 'administrator')).body.map((i: any) => i.id)).toEqual([draft.id]);
    expect(await get(`menu-items?menus=${n.id}&status=draft`, 'editor')).toBeWpError(403, 'rest_forbidden_status');
    expect(await get(`menu-items/${draft.id}`, 'editor')).toBeWpError(403, 'rest_forbidden');
    expect(await get(`menu-items?menus=${n.id}&orderby=relevance`, 'editor')).toBeWpError(400, 'rest_no_search_term_defined');
    expect(await get(`menu-items?menus=${n.id}&orderby=include`, 'editor')).toBeWpError(400, 'rest_orderby_include_missing_include');
    expect((await get(`menu-items?include=${a.id},${b.id}&orderby=include`, 'editor')).body.map((i: any) => i.id)).toEqual([a.id, b.id]);
    const paged = await get(`menu-items?menus=${n.id}&per_page=1&page=2`, 'editor');
    expect(paged.body.map((i: any) => i.id)).toEqual([a.id]);
    expect([paged.headers.get('x-wp-total'), paged.headers.get('x-wp-totalpages')]).toEqual(['2', '2']);
    expect(await get(`menu-items?menus=${n.id}&per_page=1&page=3`, 'editor')).toBeWpError(400, 'rest_post_invalid_page_number');
    expect(await get('menu-items')).toBeWpError(401, 'rest_cannot_view');
    expect(await get('menu-items', 'subscriber')).toBeWpError(403, 'rest_cannot_view');
    expect(await get('menu-items?context=edit', 'editor')).toBeWpError(403, 'rest_forbidden_context');
    expect(await get(`menu-items/${a.id}?context=edit`, 'author')).toBeWpError(403, 'rest_forbidden_context');
    expect(await get(`menu-items/${a.id}`)).toBeWpError(401, 'rest_cannot_view');
    expect((await get(`menu-items/${a.id}?context=edit`, 'administrator')).body.title.raw).toBe('Second');
    expect((await get(`menu-items/${a.id}`, 'author')).body.title.raw).toBeUndefined();
  });

  it('costs the same number of SQL statements whatever per_page is', async () => {
    const n = await menu();
    const pages = [];
    for (let i = 0; i < 4; i++) pages.push(await site.createPage({ title: `Listed ${i}`, status: 'publish' }));
    // The first page of two already links both kinds of object (a term, then pages): each kind is one read.
    await item({ type: 'taxonomy', object_id: news.id, menus: n.id, menu_order: 1 });
    for (const [i, p] of pages.entries()) await item({ type: 'post_type', object_id: p.id, menus: n.id, menu_order: i + 2 });
    const cost = async (query: string, as: As) => {
      const before = site.db.statements;
      const res = await get(`menu-items?menus=${n.id}&${query}`, as);
      expect(res.status).toBe(200);
      return { n: res.body.length, statements: site.db.statements - before };
    };
    for (const as of ['administrator', 'author'] as const) {
      const one = await cost('per_page=2', as);
      const all = await cost('per_page=100', as);
      expect([one.n, all.n]).toEqual([2, 5]);
      expect(one.statements).toBe(all.statements);
      expect(all.statements).toBeLessThanOrEqual(12);
    }
    const before = site.db.statements;
    expect((await get(`menus?per_page=100`, 'author')).status).toBe(200);
    const menus = site.db.statements - before;
    const before1 = site.db.statements;
    expect((await get(`menus?per_page=1`, 'author')).status).toBe(200);
    expect(site.db.statements - before1).toBe(menus);
  });

  it('embeds the linked page and the menu, and writes items in a batch', async () => {
    const n = await menu();
    const linked = await item({ type: 'post_type', object_id: about.id, menus: n.id });
    const res = await get(`menu-items/${linked.id}?_embed=1`, 'author');
    expect(res.status).toBe(200);
    expect(res.body._embedded['wp:menu-item-object'][0]).toMatchObject({ id: about.id, title: { rendered: 'About us' } });
    expect(res.body._embedded['wp:term'][0].map((x: any) => x.id)).toEqual([n.id]);
    const batch = await site.req('POST', '/batch/v1', {
      as: 'administrator',
      json: { validation: 'require-all-validate', requests: [
        { path: '/core/v2/menu-items', body: { title: 'One', url: 'https://example.test/1', menus: n.id, menu_order: 2 } },
        { path: '/core/v2/menu-items', body: { title: 'Two', url: 'https://example.test/2', menus: n.id, menu_order: 3 } },
      ] },
    });
    expect(batch.status).toBe(207);
    expect(batch.body.responses.map((r: any) => r.status)).toEqual([201, 201]);
    expect((await get(`menu-items?menus=${n.id}`, 'author')).body.map((i: any) => i.title.rendered)).toEqual(['About us', 'One', 'Two']);
    expect((await get(`menus/${n.id}`, 'author')).status).toBe(200);
  });

  it('records each write in the event log as a menu event', async () => {
    if (site.db.provider !== 'sqlite') return; // PostgreSQL announces events with NOTIFY, not rows
    const from = (await site.db.prisma.contentEvent.aggregate({ _max: { id: true } }))._max.id ?? 0;
    const n = await menu();
    const link = await item({ title: 'Logged', url: 'https://example.test/log', menus: n.id });
    await post(`menu-items/${link.id}`, { title: 'Logged again' });
    await site.req('DELETE', `/core/v2/menus/${n.id}?force=true`, { as: 'administrator' });
    const events = await site.db.prisma.contentEvent.findMany({ where: { id: { gt: from } }, orderBy: { id: 'asc' } });
    expect(events.map((e) => [e.kind, e.type, e.action, e.contentId])).toEqual([
      ['menu', 'nav_menu', 'created', n.id], ['menu', 'nav_menu_item', 'created', link.id], ['menu', 'nav_menu_item', 'updated', link.id], ['menu', 'nav_menu', 'deleted', n.id],
    ]);
    expect(JSON.parse(events[3].data)).toMatchObject({ name: n.name, items: [link.id] });
  });
});
