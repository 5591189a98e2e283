// Without a content model (CONTENT_MODEL unset, as in this suite), nothing of the test model's
// event type exists: no route, no record, no GraphQL type. test/model/ runs with it.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestSite, SITE, type TestSite } from '../helpers/app.js';

let site: TestSite;
beforeAll(async () => { site = await createTestSite(); });
afterAll(async () => { await site?.close(); });

describe('no content model', () => {
  it('serves the built-in types only', async () => {
    expect(await site.req('GET', '/core/v2/events')).toBeWpError(404, 'rest_no_route');
    expect(await site.req('GET', '/core/v2/event-categories')).toBeWpError(404, 'rest_no_route');
    expect(await site.req('GET', '/core/v2/types/event')).toBeWpError(404, 'rest_type_invalid');
    expect(Object.keys((await site.req('GET', '/core/v2/taxonomies')).body)).toEqual(['category', 'post_tag']);
    const index = await site.req('GET', '/');
    expect(Object.keys(index.body.routes).filter((r) => r.includes('event'))).toEqual([]);
    const doc = await site.req('GET', '/openapi.json');
    expect(Object.keys(doc.body.paths).filter((p) => p.includes('event'))).toEqual([]);
    expect((await site.req('GET', `${SITE}/events/anything/`)).status).toBe(404);
    const gql = await site.gql('{ events { nodes { id } } }');
    expect(gql.errors?.[0].extensions?.code).toBe('graphql_validation_failed');
  });
});
