// seo/v1 providers against a fake provider on loopback: the forwarded request and the answer mapping.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createTestSite, type TestSite } from '../helpers/app.js';

interface Seen { method: string; url: string; auth: string | undefined; body: any }
const seen: Seen[] = [];
let server: Server;
let base = '';
let site: TestSite;
let bare: TestSite;

const read = (req: IncomingMessage) => new Promise<string>((ok) => { let s = ''; req.on('data', (c) => (s += c)); req.on('end', () => ok(s)); });

beforeAll(async () => {
  server = createServer(async (req, res) => {
    const text = await read(req);
    const body = text ? JSON.parse(text) : null;
    seen.push({ method: req.method!, url: req.url!, auth: req.headers.authorization, body });
    const send = (status: number, json: unknown) => { res.writeHead(status, { 'content-type': 'application/json' }); res.end(JSON.stringify(json)); };
    const path = req.url!.split('?')[0];
    if (path.endsWith('/oauth/token')) return body.code === 'good' ? send(200, { access_token: `tok-${path.split('/')[1]}`, refresh_token: 'r', expires_in: 3600 }) : send(401, { message: 'Bad code.' });
    if (path === '/kp/keyphrases/related') return send(200, { rows: [['engine parts', 1300]] });
    if (path === '/rt/websites/site-9/keyphrases/bulk') return send(201, { tracked: body.keyphrases.length });
    if (path === '/rt/websites/site-9/keyphrases') return req.method === 'DELETE' ? send(204, null) : send(200, { items: [{ keyphrase: 'engine', position: 4 }] });
    if (path === '/rt/account/limit') return send(200, { usage: 3, limit: 10 });
    send(404, { message: 'No such route.' });
  });
  await new Promise<void>((ok) => server.listen(0, '127.0.0.1', ok));
  const port = (server.address() as AddressInfo).port;
  base = `http://127.0.0.1:${port}`;
  site = await createTestSite({
    deployment: 'B', seoKeyphraseProviderUrl: `${base}/kp`, seoRankTrackerUrl: `${base}/rt`, seoRankTrackerClientId: 'client-1', seoAllowHosts: [`127.0.0.1:${port}`],
  });
  bare = await createTestSite({ deployment: 'B' });
});
afterAll(async () => { await site?.close(); await bare?.close(); await new Promise((ok) => server?.close(ok)); });

describe('keyphrase provider', () => {
  it('is a 400 naming the setting when not configured', async () => {
    const res = await bare.req('POST', '/seo/v1/keyphrase-provider-a/authenticate', { as: 'administrator', json: { code: 'good' } });
    expect([res.status, res.body.code, res.body.data.setting]).toEqual([400, 'seo_provider_not_configured', 'SEO_KEYPHRASE_PROVIDER_URL']);
  });

  it('refuses related keyphrases before authentication, then forwards them with the token', async () => {
    let res = await site.req('GET', '/seo/v1/keyphrase-provider-a/related_keyphrases?keyphrase=engine&country_code=US', { as: 'author' });
    expect([res.status, res.body.code]).toEqual([400, 'seo_provider_not_authenticated']);
    res = await site.req('POST', '/seo/v1/keyphrase-provider-a/authenticate', { as: 'editor', json: { code: 'good' } });
    expect([res.status, res.body.code]).toEqual([403, 'rest_forbidden']);
    res = await site.req('POST', '/seo/v1/keyphrase-provider-a/authenticate', { as: 'administrator', json: { code: 'bad' } });
    expect([res.status, res.body.code, res.body.data.provider_status]).toEqual([400, 'seo_provider_error', 401]);
    res = await site.req('POST', '/seo/v1/keyphrase-provider-a/authenticate', { as: 'administrator', json: { code: 'good' } });
    expect(res.status).toBe(200);
    expect(res.body.tokens.access_token).toBe('tok-kp');
    expect(seen.at(-1)).toMatchObject({ method: 'POST', url: '/kp/oauth/token', body: { grant_type: 'authorization_code', code: 'good' } });
    res = await site.req('GET', '/seo/v1/keyphrase-provider-a/related_keyphrases?keyphrase=engine&country_code=US', { as: 'author' });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ status: 200, results: { rows: [['engine parts', 1300]] } });
    expect(seen.at(-1)).toMatchObject({ method: 'GET', url: '/kp/keyphrases/related?phrase=engine&country=us', auth: 'Bearer tok-kp' });
  });

  it('stores a country code, refusing a malformed one', async () => {
    let res = await site.req('POST', '/seo/v1/keyphrase-provider-a/country_code', { as: 'administrator', json: { country_code: 'Germany' } });
    expect([res.status, res.body.code]).toEqual([400, 'rest_invalid_param']);
    res = await site.req('POST', '/seo/v1/keyphrase-provider-a/country_code', { as: 'administrator', json: { country_code: 'DE' } });
    expect([res.status, res.body]).toEqual([200, { status: 200, country_code: 'de' }]);
  });
});

describe('rank tracker', () => {
  it('gives the authorization address without a call', async () => {
    const n = seen.length;
    const res = await site.req('GET', '/seo/v1/rank-tracker/authorization-url', { as: 'administrator' });
    expect(res.status).toBe(200);
    const url = new URL(res.body.url);
    expect([url.origin + url.pathname, url.searchParams.get('client_id'), url.searchParams.get('response_type')]).toEqual([`${base}/rt/oauth/authorize`, 'client-1', 'code']);
    expect(seen.length).toBe(n);
  });

  it('authenticates, tracks, lists, untracks and reads the limit with the stored token and website id', async () => {
    let res = await site.req('POST', '/seo/v1/rank-tracker/keyphrases/track', { as: 'contributor', json: { keyphrases: ['engine'] } });
    expect([res.status, res.body.code]).toEqual([400, 'seo_provider_not_authenticated']);
    res = await site.req('POST', '/seo/v1/rank-tracker/authenticate', { as: 'administrator', json: { code: 'good', websiteId: 'site-9' } });
    expect([res.status, res.body]).toEqual([200, { status: 200, data: { website_id: 'site-9' } }]);
    res = await site.req('POST', '/seo/v1/rank-tracker/keyphrases/track', { as: 'contributor', json: { keyphrases: ['engine', 'loom'] } });
    expect([res.status, res.body]).toEqual([201, { status: 201, results: { tracked: 2 } }]);
    expect(seen.at(-1)).toMatchObject({ method: 'POST', url: '/rt/websites/site-9/keyphrases/bulk', auth: 'Bearer tok-rt', body: { keyphrases: ['engine', 'loom'] } });
    res = await site.req('POST', '/seo/v1/rank-tracker/keyphrases', { as: 'author', json: { permalink: 'http://site.test/x/', startAt: '2024-01-01' } });
    expect(res.body).toEqual({ status: 200, results: { items: [{ keyphrase: 'engine', position: 4 }] } });
    expect(seen.at(-1)!.body).toEqual({ permalink: 'http://site.test/x/', start_at: '2024-01-01' });
    res = await site.req('DELETE', '/seo/v1/rank-tracker/keyphrases/untrack?keyphrase=loom', { as: 'author' });
    expect([res.status, seen.at(-1)!.method, seen.at(-1)!.url]).toEqual([200, 'DELETE', '/rt/websites/site-9/keyphrases?phrase=loom']);
    res = await site.req('DELETE', '/seo/v1/rank-tracker/keyphrases/untrack', { as: 'author' });
    expect([res.status, res.body.code]).toEqual([400, 'rest_invalid_param']);
    res = await site.req('GET', '/seo/v1/rank-tracker/account/limit', { as: 'author' });
    expect(res.body).toEqual({ status: 200, usage: 3, limit: 10 });
    res = await site.req('GET', '/seo/v1/rank-tracker/account/upgrade-campaign', { as: 'author' });
    expect([res.status, res.body.code, res.body.data.provider_status]).toEqual([400, 'seo_provider_error', 404]);
    res = await site.req('GET', '/seo/v1/rank-tracker/account/limit', { as: 'subscriber' });
    expect([res.status, res.body.code]).toEqual([403, 'rest_forbidden']);
  });
});
