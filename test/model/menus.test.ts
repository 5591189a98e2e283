// Menu locations of the content model (test/fixtures/content-model/events.json: `header` and
// `social-links`, instead of the default `primary` and `footer`), on REST and GraphQL.
import { afterAll, beforeAll, expect, it } from 'vitest';
import { createTestSite, type TestSite } from '../helpers/app.js';

let site: TestSite;
beforeAll(async () => { site = await createTestSite(); });
afterAll(async () => { await site?.close(); });

it('declares the model\'s locations, and only those', async () => {
  const res = await site.req('GET', '/core/v2/menu-locations', { as: 'administrator' });
  expect(res.status).toBe(200);
  expect(Object.values(res.body).map((l: any) => [l.name, l.description, l.menu])).toEqual([['header', 'Header menu', 0], ['social-links', 'Social links', 0]]);
  const refused = await site.req('POST', '/core/v2/menus', { as: 'administrator', json: { name: 'Old place', locations: ['primary'] } });
  expect([refused.status, refused.body.code]).toEqual([400, 'rest_invalid_param']);
  expect((await site.req('GET', '/core/v2/menu-locations/primary', { as: 'administrator' })).body.code).toBe('rest_menu_location_invalid');
  const made = await site.req('POST', '/core/v2/menus', { as: 'administrator', json: { name: 'Follow us', locations: ['social-links'] } });
  expect(made.status).toBe(201);
  const item = await site.req('POST', '/core/v2/menu-items', { as: 'administrator', json: { title: 'Feed', url: 'https://social.example.test/site', menus: made.body.id } });
  expect(item.status).toBe(201);
  const gql = await site.gql('{ menus(where: { location: "social-links" }) { nodes { name locations menuItems { nodes { label url } } } } }');
  expect(gql.data.menus.nodes).toEqual([{ name: 'Follow us', locations: ['social-links'], menuItems: { nodes: [{ label: 'Feed', url: 'https://social.example.test/site' }] } }]);
});
