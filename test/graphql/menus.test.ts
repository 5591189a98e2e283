// GraphQL menus in WPGraphQL's shapes: a nested menu read by an anonymous front end through its
// location (items, childItems, connectedNode, url/uri/label), what it may and may not see, the
// connections' paging, lookups by id, and the writes (menu editors only).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestSite, SITE, type TestSite } from '../helpers/app.js';

let site: TestSite;
const fx: Record<string, any> = {};

beforeAll(async () => {
  site = await createTestSite();
  const rest = async (path: string, json: Record<string, unknown>) => {
    const res = await site.req('POST', `/core/v2/${path}`, { as: 'administrator', json });
    if (res.status !== 201) throw new Error(`${path}: ${res.status} ${res.text}`);
    return res.body;
  };
  fx.about = await site.createPage({ title: 'About', status: 'publish' });
  fx.team = await site.createPage({ title: 'Team', status: 'publish', parent: fx.about.id });
  fx.draft = await site.createPage({ title: 'Secret plans', status: 'draft' });
  fx.news = await site.createTerm('categories', { name: 'News' });
  fx.main = await rest('menus', { name: 'Main', locations: ['primary'] });
  fx.hidden = await rest('menus', { name: 'Backstage' });
  fx.home = await rest('menu-items', { title: 'Home', url: `${SITE}/`, menus: fx.main.id, menu_order: 1 });
  fx.aboutItem = await rest('menu-items', { type: 'post_type', object_id: fx.about.id, menus: fx.main.id, menu_order: 2 });
  fx.teamItem = await rest('menu-items', { type: 'post_type', object_id: fx.team.id, menus: fx.main.id, parent: fx.aboutItem.id, menu_order: 3, target: '_blank', classes: ['highlight'] });
  fx.draftItem = await rest('menu-items', { type: 'post_type', object_id: fx.draft.id, menus: fx.main.id, parent: fx.aboutItem.id, menu_order: 4 });
  fx.newsItem = await rest('menu-items', { type: 'taxonomy', object_id: fx.news.id, menus: fx.main.id, menu_order: 5, title: 'Latest' });
  fx.backstageItem = await rest('menu-items', { title: 'Staff only', url: 'https://intranet.example.test/', menus: fx.hidden.id });
});
afterAll(async () => { await site?.close(); });

const NESTED = `query Nav($location: String!) {
  menus(where: { location: $location }) {
    nodes { id databaseId name slug locations count }
  }
  menuItems(where: { location: $location, parentDatabaseId: 0 }, first: 20) {
    nodes {
      __typename id databaseId label url uri target cssClasses parentId parentDatabaseId
      connectedNode { node { __typename id ... on Page { databaseId title { rendered } } ... on Category { databaseId name } } }
      childItems { nodes { databaseId label url uri target cssClasses parentId parentDatabaseId connectedNode { node { ... on Page { title { rendered } } } } } }
    }
  }
}`;

describe('a menu read by its location', () => {
  it('gives an anonymous front end the nested menu with the linked pages and terms', async () => {
    const res = await site.gql(NESTED, { location: 'primary' });
    expect(res.errors).toBeUndefined();
    expect(res.data.menus.nodes).toEqual([{ id: expect.any(String), databaseId: fx.main.id, name: 'Main', slug: 'main', locations: ['primary'], count: 5 }]);
    const items = res.data.menuItems.nodes;
    expect(items.map((i: any) => i.label)).toEqual(['Home', 'About', 'Latest']);
    expect(items[0]).toMatchObject({ __typename: 'MenuItem', databaseId: fx.home.id, url: `${SITE}/`, uri: '/', connectedNode: null, parentId: null, parentDatabaseId: 0 });
    expect(items[1]).toMatchObject({ url: fx.about.link, uri: '/about/', connectedNode: { node: { __typename: 'Page', databaseId: fx.about.id, title: { rendered: 'About' } } } });
    expect(items[2].connectedNode.node).toMatchObject({ __typename: 'Category', databaseId: fx.news.id, name: 'News' });
    // The draft page's item is not shown to a reader who may not read the page.
    expect(items[1].childItems.nodes).toEqual([{
      databaseId: fx.teamItem.id, label: 'Team', url: fx.team.link, uri: '/about/team/', target: '_blank', cssClasses: ['highlight'],
      parentId: items[1].id, parentDatabaseId: fx.aboutItem.id, connectedNode: { node: { title: { rendered: 'Team' } } },
    }]);
  });

  it('reads the nested menu in a fixed number of statements, however many items it has', async () => {
    const n = await site.req('POST', '/core/v2/menus', { as: 'administrator', json: { name: 'Counted', locations: ['footer'] } });
    const cost = async () => {
      const before = site.db.statements;
      const res = await site.gql(NESTED, { location: 'footer' });
      expect(res.errors).toBeUndefined();
      return { items: res.data.menuItems.nodes.length, statements: site.db.statements - before };
    };
    const grow = async (k: number) => {
      // Each write also retires any cached answer, so every read below is a cold one.
      const page = await site.createPage({ title: `Counted ${k}`, status: 'publish' });
      const top = await site.req('POST', '/core/v2/menu-items', { as: 'administrator', json: { type: 'post_type', object_id: page.id, menus: n.body.id, menu_order: k } });
      await site.req('POST', '/core/v2/menu-items', { as: 'administrator', json: { type: 'taxonomy', object_id: fx.news.id, menus: n.body.id, parent: top.body.id, menu_order: k } });
    };
    await grow(1);
    const small = await cost();
    for (let k = 2; k <= 4; k++) await grow(k);
    const large = await cost();
    expect([small.items, large.items]).toEqual([1, 4]);
    expect(large.statements).toBe(small.statements);
    expect((await site.req('DELETE', `/core/v2/menus/${n.body.id}?force=true`, { as: 'administrator' })).status).toBe(200);
  });

  it('shows a menu editor every item, the draft page\'s too', async () => {
    const res = await site.gql(NESTED, { location: 'primary' }, { as: 'administrator' });
    expect(res.errors).toBeUndefined();
    expect(res.data.menuItems.nodes[1].childItems.nodes.map((i: any) => i.label)).toEqual(['Team', 'Secret plans']);
  });

  it('hides menus in no location, and their items, from anonymous readers', async () => {
    const all = await site.gql('{ menus { nodes { name } } menuItems(first: 50) { nodes { label } } }');
    expect(all.data.menus.nodes.map((m: any) => m.name)).toEqual(['Main']);
    expect(all.data.menuItems.nodes.map((i: any) => i.label)).not.toContain('Staff only');
    const one = await site.gql('query($id: ID!) { menu(id: $id, idType: DATABASE_ID) { name } }', { id: String(fx.hidden.id) });
    expect(one.errors?.[0].extensions).toMatchObject({ code: 'rest_cannot_view', status: 401 });
    expect((await site.gql('{ menu(id: "primary", idType: LOCATION) { name } }')).data.menu).toEqual({ name: 'Main' });
    expect((await site.gql('{ menu(id: "backstage", idType: SLUG) { name } }')).data.menu).toBeNull();
    // Whoever may edit content sees every menu.
    const author = await site.gql('{ menus { nodes { name } } }', {}, { as: 'author' });
    expect(author.data.menus.nodes.map((m: any) => m.name)).toEqual(['Backstage', 'Main']);
  });

  it('drops an item from public reads when its page goes to the trash', async () => {
    expect((await site.req('DELETE', `/core/v2/pages/${fx.team.id}`, { as: 'administrator' })).status).toBe(200);
    const res = await site.gql('{ menuItems(where: { location: "primary" }, first: 50) { nodes { databaseId invalid } } }');
    expect(res.data.menuItems.nodes.map((i: any) => i.databaseId)).not.toContain(fx.teamItem.id);
    const admin = await site.gql('{ menuItems(where: { location: "primary" }, first: 50) { nodes { databaseId invalid } } }', {}, { as: 'administrator' });
    expect(admin.data.menuItems.nodes.find((i: any) => i.databaseId === fx.teamItem.id)).toEqual({ databaseId: fx.teamItem.id, invalid: true });
    expect((await site.req('POST', `/core/v2/pages/${fx.team.id}`, { as: 'administrator', json: { status: 'publish' } })).status).toBe(200);
  });
});

describe('connections and lookups', () => {
  it('pages menu items with first and after', async () => {
    const q = 'query($after: String) { menuItems(where: { menuId: %ID% }, first: 2, after: $after) { nodes { label } pageInfo { hasNextPage endCursor } } }'.replace('%ID%', String(fx.main.id));
    const first = await site.gql(q, {}, { as: 'administrator' });
    expect(first.data.menuItems.nodes.map((i: any) => i.label)).toEqual(['Home', 'About']);
    expect(first.data.menuItems.pageInfo.hasNextPage).toBe(true);
    const next = await site.gql(q, { after: first.data.menuItems.pageInfo.endCursor }, { as: 'administrator' });
    expect(next.data.menuItems.nodes.map((i: any) => i.label)).toEqual(['Team', 'Secret plans']);
    const bad = await site.gql(q, { after: 'bm90LWEtY3Vyc29y' }, { as: 'administrator' });
    expect(bad.errors?.[0].extensions).toMatchObject({ code: 'rest_invalid_param', status: 400 });
  });

  it('reads a menu and an item back by their global ids, the item\'s menu as an edge', async () => {
    const listed = await site.gql('{ menus(where: { location: "primary" }) { nodes { id } } }');
    const id = listed.data.menus.nodes[0].id;
    const res = await site.gql('query($id: ID!) { menu(id: $id) { databaseId menuItems(where: { parentDatabaseId: 0 }) { nodes { id label menu { node { name } } locations } } } }', { id });
    expect(res.data.menu.databaseId).toBe(fx.main.id);
    const home = res.data.menu.menuItems.nodes[0];
    expect(home).toMatchObject({ label: 'Home', menu: { node: { name: 'Main' } }, locations: ['primary'] });
    const again = await site.gql('query($id: ID!) { menuItem(id: $id) { databaseId label } }', { id: home.id });
    expect(again.data.menuItem).toEqual({ databaseId: fx.home.id, label: 'Home' });
    const nodes = await site.gql('query($m: ID!, $i: ID!) { m: node(id: $m) { __typename ... on Menu { name } } i: node(id: $i) { __typename ... on MenuItem { label } } }', { m: id, i: home.id });
    expect(nodes.data).toEqual({ m: { __typename: 'Menu', name: 'Main' }, i: { __typename: 'MenuItem', label: 'Home' } });
    // A menu in no location is no node for an anonymous reader; an author reads it.
    const hidden = Buffer.from(`Menu:${fx.hidden.id}`).toString('base64url');
    expect((await site.gql('query($id: ID!) { node(id: $id) { id } }', { id: hidden })).data.node).toBeNull();
    expect((await site.gql('query($id: ID!) { node(id: $id) { ... on Menu { name } } }', { id: hidden }, { as: 'author' })).data.node).toEqual({ name: 'Backstage' });
  });

  it('keeps menu items out of nodeByUri and contentNodes', async () => {
    // An item's slug is its id: `/{id}/` names no page.
    const res = await site.gql('query($uri: String!) { nodeByUri(uri: $uri) { __typename } contentNodes(first: 100) { nodes { __typename } } }', { uri: `/${fx.home.id}/` });
    expect(res.errors).toBeUndefined();
    expect(res.data.nodeByUri).toBeNull();
    expect(res.data.contentNodes.nodes.map((n: any) => n.__typename)).not.toContain('MenuItem');
    expect((await site.req('GET', `/${fx.home.id}/`)).status).toBe(404);
  });

  it('lists the locations for menu editors only', async () => {
    const res = await site.gql('{ menuLocations { name description menuDatabaseId menu { node { name } } } }', {}, { as: 'administrator' });
    expect(res.data.menuLocations).toEqual([
      { name: 'primary', description: 'Primary menu', menuDatabaseId: fx.main.id, menu: { node: { name: 'Main' } } },
      { name: 'footer', description: 'Footer menu', menuDatabaseId: 0, menu: null },
    ]);
    const refused = await site.gql('{ menuLocations { name } }', {}, { as: 'editor' });
    expect(refused.errors?.[0].extensions).toMatchObject({ code: 'rest_cannot_view', status: 403 });
  });
});

describe('writes', () => {
  it('creates, updates and deletes menus and items as an administrator; others are refused', async () => {
    const refused = await site.gql('mutation { createMenu(input: { name: "Nope" }) { databaseId } }', {}, { as: 'editor' });
    expect(refused.errors?.[0].extensions).toMatchObject({ code: 'rest_cannot_create', status: 403 });
    const made = await site.gql('mutation { createMenu(input: { name: "Footer links", locations: ["footer"] }) { databaseId locations } }', {}, { as: 'administrator' });
    expect(made.errors).toBeUndefined();
    const menuId = made.data.createMenu.databaseId;
    expect(made.data.createMenu.locations).toEqual(['footer']);
    const link = await site.gql('mutation($m: Int!) { createMenuItem(input: { title: { raw: "Imprint" }, url: "/imprint/", menuId: $m }) { databaseId label url menuDatabaseId } }', { m: menuId }, { as: 'administrator' });
    // ContentText input is a plain string; an object is refused by GraphQL validation.
    expect(link.errors?.[0]).toBeDefined();
    const item = await site.gql('mutation($m: Int!) { createMenuItem(input: { title: "Imprint", url: "/imprint/", menuId: $m }) { databaseId label url uri menuDatabaseId } }', { m: menuId }, { as: 'administrator' });
    expect(item.data.createMenuItem).toMatchObject({ label: 'Imprint', url: '/imprint/', uri: '/imprint/', menuDatabaseId: menuId });
    const id = item.data.createMenuItem.databaseId;
    const changed = await site.gql('mutation($id: Int!) { updateMenuItem(id: $id, input: { target: "_blank", cssClasses: ["a", "b"] }) { target cssClasses label } }', { id }, { as: 'administrator' });
    expect(changed.data.updateMenuItem).toEqual({ target: '_blank', cssClasses: ['a', 'b'], label: 'Imprint' });
    const noForce = await site.gql('mutation($id: Int!) { deleteMenuItem(id: $id) { deleted } }', { id }, { as: 'administrator' });
    expect(noForce.errors?.[0].extensions).toMatchObject({ code: 'rest_trash_not_supported', status: 501 });
    const gone = await site.gql('mutation($id: Int!) { deleteMenu(id: $id, force: true) { deleted previous { name } } }', { id: menuId }, { as: 'administrator' });
    expect(gone.data.deleteMenu).toEqual({ deleted: true, previous: { name: 'Footer links' } });
    const after = await site.gql('query($id: ID!) { menuItem(id: $id, idType: DATABASE_ID) { label } }', { id: String(id) }, { as: 'administrator' });
    expect(after.errors?.[0].extensions).toMatchObject({ code: 'rest_post_invalid_id', status: 404 });
  });
});
