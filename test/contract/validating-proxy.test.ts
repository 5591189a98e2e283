// The validating proxy (scripts/contract/proxy.ts): it passes answers through unchanged, checks
// each against the document, says what broke it in a header and keeps a report. The bundle lane of
// `npm test` runs the REST, GraphQL and site suites through it (CONTRACT_PROXY=1).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestSite, type TestSite } from '../helpers/app.js';
import { createContractProxy, VIOLATIONS_HEADER, violationsOf, type ContractProxy } from '../../scripts/contract/proxy.js';

describe('the validating proxy', () => {
  let site: TestSite;
  let doc: Record<string, any>;
  const proxies: ContractProxy[] = [];

  beforeAll(async () => {
    site = await createTestSite();
    doc = (await site.req('GET', '/openapi.json')).body;
    await site.createPost({ title: 'Through the proxy', content: 'Body', status: 'publish' });
  });
  afterAll(async () => {
    for (const p of proxies) await p.close();
    await site?.close();
  });

  /** A proxy in front of the site's production server (the helper's own requests may pass another one). */
  async function proxyOf(document?: Record<string, unknown>): Promise<ContractProxy> {
    const p = createContractProxy({ target: site.origin, document });
    await p.listen();
    proxies.push(p);
    return p;
  }

  it('passes an answer through unchanged and reports it kept the document', async () => {
    const p = await proxyOf();
    const direct = await fetch(`${site.origin}/wp-json/core/v2/posts?per_page=5`);
    const proxied = await fetch(`${p.origin}/wp-json/core/v2/posts?per_page=5`);
    expect(proxied.status).toBe(direct.status);
    const [a, b] = [await direct.text(), await proxied.text()];
    expect(b).toBe(a);
    for (const name of ['content-type', 'x-wp-total', 'x-wp-totalpages', 'link', 'etag']) expect(proxied.headers.get(name), name).toBe(direct.headers.get(name));
    expect(proxied.headers.has(VIOLATIONS_HEADER)).toBe(false);
    expect(p.report).toMatchObject({ checked: 1, passed: 1, violations: [] });
    // A write and a refusal pass as well, with their statuses and bodies.
    const refused = await fetch(`${p.origin}/wp-json/core/v2/posts/999999`);
    expect(refused.status).toBe(404);
    expect((await refused.json()).code).toBe('rest_post_invalid_id');
    expect(p.report).toMatchObject({ checked: 2, passed: 2 });
    // Not a REST answer: passed on, not counted.
    expect((await fetch(`${p.origin}/`)).status).toBe(200);
    expect(p.report.checked).toBe(2);
  });

  it('says in a header and in its report what broke the document, where', async () => {
    const changed = structuredClone(doc);
    for (const view of ['PostView', 'PostEdit', 'PostEmbed']) changed.components.schemas[view].properties.title.type = 'string';
    const p = await proxyOf(changed);
    const res = await fetch(`${p.origin}/wp-json/core/v2/posts?per_page=1`);
    expect(res.status).toBe(200);
    const found = violationsOf(res.headers);
    expect(found.map((v) => [v.operation, v.kind, v.instancePath])).toEqual([['getCoreV2Posts', 'body breaks its schema', '/0/title']]);
    expect(p.report.violations).toEqual(found);
    expect(p.report).toMatchObject({ checked: 1, passed: 0 });
    // The body is still the service's.
    expect((await res.json())[0].title.rendered).toBe('Through the proxy');
  });

  it('checks an undocumented status and a missing required header', async () => {
    const changed = structuredClone(doc);
    delete changed.paths['/core/v2/posts/{id}'].get.responses['404'];
    delete changed.paths['/core/v2/posts/{id}'].get.responses['4XX'];
    delete changed.paths['/core/v2/posts/{id}'].get.responses.default;
    changed.paths['/core/v2/posts'].get.responses['200'].headers['X-Made-Up'] = { required: true, schema: { type: 'string' } };
    const p = await proxyOf(changed);
    const missing = await fetch(`${p.origin}/wp-json/core/v2/posts/999999`);
    expect(violationsOf(missing.headers).map((v) => v.kind)).toEqual(['undocumented status']);
    const list = await fetch(`${p.origin}/wp-json/core/v2/posts`);
    expect(violationsOf(list.headers).map((v) => [v.kind, v.message])).toEqual([['missing header', 'the required header X-Made-Up is not sent']]);
  });

  it('sends request bodies on unchanged: a signed-in write through it is made once', async () => {
    const p = await proxyOf();
    const res = await fetch(`${p.origin}/wp-json/core/v2/posts`, {
      method: 'POST',
      headers: { authorization: site.users.administrator.auth, 'content-type': 'application/json' },
      body: JSON.stringify({ title: 'Written through the proxy', status: 'draft' }),
    });
    expect(res.status).toBe(201);
    expect(res.headers.get('location')).toMatch(/\/core\/v2\/posts\/\d+$/);
    const body = await res.json();
    expect(body.title.raw).toBe('Written through the proxy');
    expect(p.report).toMatchObject({ checked: 1, passed: 1 });
    const read = await site.req('GET', `/core/v2/posts/${body.id}?context=edit`, { as: 'administrator' });
    expect(read.body.title.raw).toBe('Written through the proxy');
  });
});
