// The remaining seo/v1 site routes over /graphql (deployment B): file sizes, custom-field search,
// the capability check, the importer (test/fixtures/export.wxr) and the providers against a fake
// provider on loopback. Each field answers what its REST route answers on the same data, with
// the same refusals; deployment A refuses them as REST does.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createTestSite, type TestSite } from '../helpers/app.js';
import { expectGqlError } from '../helpers/gql.js';

const WXR = readFileSync(fileURLToPath(new URL('../fixtures/export.wxr', import.meta.url)), 'utf8');
const FILE = Buffer.from('twelve bytes');

let server: Server;
let base = '';
let site: TestSite;
let other: TestSite;
let a: TestSite;

const read = (req: IncomingMessage) => new Promise<string>((ok) => { let s = ''; req.on('data', (c) => (s += c)); req.on('end', () => ok(s)); });

beforeAll(async () => {
  server = createServer(async (req, res) => {
    const text = await read(req);
    const body = text ? JSON.parse(text) : null;
    const send = (status: number, json: unknown) => { res.writeHead(status, { 'content-type': 'application/json' }); res.end(JSON.stringify(json)); };
    const path = req.url!.split('?')[0];
    if (path === '/file.bin') { res.writeHead(200, { 'content-length': String(FILE.length) }); return res.end(req.method === 'HEAD' ? undefined : FILE); }
    if (path.endsWith('/oauth/token')) return body.code === 'good' ? send(200, { access_token: `tok-${path.split('/')[1]}`, refresh_token: 'r' }) : send(401, { message: 'Bad code.' });
    if (path === '/kp/keyphrases/related') return send(200, { rows: [['engine parts', 1300]] });
    if (path === '/rt/websites/site-9/keyphrases/bulk') return send(201, { tracked: body.keyphrases.length });
    if (path === '/rt/websites/site-9/keyphrases') return req.method === 'DELETE' ? send(204, null) : send(200, { items: [{ keyphrase: 'engine', position: 4 }] });
    if (path === '/rt/account/limit') return send(200, { usage: 3, limit: 10 });
    if (path === '/rt/account/upgrade-campaign') return send(200, { discount: 20 });
    send(404, { message: 'No such route.' });
  });
  await new Promise<void>((ok) => server.listen(0, '127.0.0.1', ok));
  const port = (server.address() as AddressInfo).port;
  base = `http://127.0.0.1:${port}`;
  const providers = { seoKeyphraseProviderUrl: `${base}/kp`, seoRankTrackerUrl: `${base}/rt`, seoRankTrackerClientId: 'client-1', seoAllowHosts: [`127.0.0.1:${port}`] };
  [site, other, a] = await Promise.all([
    createTestSite({ deployment: 'B', seoImportChunkSize: 4, ...providers }),
    createTestSite({ deployment: 'B', seoImportChunkSize: 4 }),
    createTestSite({ deployment: 'A' }),
  ]);
});
afterAll(async () => { await site?.close(); await other?.close(); await a?.close(); await new Promise((ok) => server?.close(ok)); });

const restError = (res: { status: number; body: any }) => [res.status, res.body?.code];
const IMPORT = 'mutation($p: String!, $t: String!, $d: String) { runSeoImport(plugin: $p, type: $t, document: $d) { success status total imported skipped nextUrl errors { item code message } } }';
/** A REST import answer as SeoImportProgress prints it. */
const asProgress = (b: any) => ({ success: b.success, status: b.status, total: b.total, imported: b.imported, skipped: b.skipped, nextUrl: b.next_url === false ? null : b.next_url, errors: b.errors });

describe('deployment A', () => {
  it('refuses every field as an unknown REST route', async () => {
    for (const doc of [
      '{ seoFileSize(url: "http://x/") { type } }',
      '{ seoMetaSearch(postId: 1) { key } }',
      '{ seoCheckCapability(userId: 1) { success } }',
      '{ seoRelatedKeyphrases(keyphrase: "a", countryCode: "us") }',
      '{ seoRankTrackerAuthorizationUrl }',
      '{ seoRankTrackerLimit }',
      '{ seoRankTrackerUpgradeCampaign }',
      'mutation { runSeoImport(plugin: "wxr", type: "content") { success } }',
      'mutation { authenticateSeoKeyphraseProvider(code: "good") }',
      'mutation { setSeoKeyphraseCountryCode(countryCode: "us") }',
      'mutation { authenticateSeoRankTracker(code: "good", websiteId: "site-9") }',
      'mutation { trackSeoKeyphrases(keyphrases: ["a"]) }',
      'mutation { seoRankTrackerKeyphrases }',
      'mutation { untrackSeoKeyphrase(keyphrase: "a") }',
    ]) expectGqlError(await a.gql(doc, {}, { as: 'administrator' }), 404, 'rest_no_route');
    expect(restError(await a.req('GET', '/seo/v1/meta/search?post_id=1', { as: 'administrator' }))).toEqual([404, 'rest_no_route']);
  });
});

describe('import', () => {
  it('imports the export step by step as REST does, with its refusals', async () => {
    const multipart = (xml: string) => {
      const boundary = 'seoimportboundary';
      return { body: `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="export.xml"\r\nContent-Type: text/xml\r\n\r\n${xml}\r\n--${boundary}--\r\n`, headers: { 'content-type': `multipart/form-data; boundary=${boundary}` } };
    };
    const restSteps: any[] = [];
    let res = await other.req('POST', '/seo/v1/import/wxr/content', { as: 'administrator', ...multipart(WXR) });
    restSteps.push(res.body);
    while (res.body.next_url) { res = await other.req('POST', '/seo/v1/import/wxr/content', { as: 'administrator' }); restSteps.push(res.body); }
    const gqlSteps: any[] = [];
    let g = await site.gql(IMPORT, { p: 'wxr', t: 'content', d: WXR }, { as: 'administrator' });
    gqlSteps.push(g.data.runSeoImport);
    while (g.data.runSeoImport.nextUrl) { g = await site.gql(IMPORT, { p: 'wxr', t: 'content' }, { as: 'administrator' }); gqlSteps.push(g.data.runSeoImport); }
    expect(restSteps.length).toBeGreaterThan(1);
    expect(gqlSteps.map((s) => ({ ...s, nextUrl: s.nextUrl && new URL(s.nextUrl).pathname }))).toEqual(restSteps.map((b) => {
      const p = asProgress(b);
      return { ...p, nextUrl: p.nextUrl && new URL(p.nextUrl).pathname };
    }));
    // The same content on both sites.
    const slugs = async (s: TestSite) => ((await s.req('GET', '/core/v2/posts?per_page=100&status=publish,draft&context=edit', { as: 'administrator' })).body as any[]).map((p) => [p.slug, p.status, p.content.raw]).sort();
    expect(await slugs(site)).toEqual(await slugs(other));

    for (const [as, status] of [[undefined, 401], ['editor', 403]] as const) {
      expect(restError(await other.req('POST', '/seo/v1/import/wxr/content', { as, ...multipart(WXR) }))).toEqual([status, 'rest_forbidden']);
      expectGqlError(await site.gql(IMPORT, { p: 'wxr', t: 'content', d: WXR }, { as }), status, 'rest_forbidden');
    }
    for (const [p, t, d, code] of [['other', 'content', WXR, 'seo_import_unknown_plugin'], ['wxr', 'comments', WXR, 'seo_import_unknown_type'], ['wxr', 'content', '<rss><channel><item></channel></rss>', 'seo_import_invalid_file'], ['wxr', 'content', null, 'seo_import_no_file']] as const) {
      const rest = d === null ? await other.req('POST', `/seo/v1/import/${p}/${t}`, { as: 'administrator' }) : await other.req('POST', `/seo/v1/import/${p}/${t}`, { as: 'administrator', ...multipart(d) });
      expect(restError(rest)).toEqual([400, code]);
      expectGqlError(await site.gql(IMPORT, { p, t, d }, { as: 'administrator' }), 400, code);
    }
  });
});

describe('site reads', () => {
  it('answers file sizes as REST does', async () => {
    const png = Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAQAAAACCAIAAADwyuo0AAAACXBIWXMAAAPoAAAD6AG1e1JrAAAAEklEQVQImWP4z8AARwjWfwYGAG+qB/l/O6VpAAAAAElFTkSuQmCC', 'base64');
    const media = await site.req('POST', '/core/v2/media', { as: 'administrator', body: new Blob([png]), headers: { 'content-type': 'image/png', 'content-disposition': 'attachment; filename="s.png"' } });
    expect(media.status).toBe(201);
    const SIZE = 'query($u: String!) { seoFileSize(url: $u) { type sizeInBytes response } }';
    for (const url of [media.body.source_url, `${base}/file.bin`, `${media.body.source_url}.gone`, 'http://127.0.0.2:9/x']) {
      const rest = await site.req('GET', `/seo/v1/file_size?url=${encodeURIComponent(url)}`, { as: 'administrator' });
      const g = await site.gql(SIZE, { u: url }, { as: 'administrator' });
      expect(g.data.seoFileSize, url).toEqual({ type: rest.body.type, sizeInBytes: rest.body.size_in_bytes ?? null, response: rest.body.response ?? null });
    }
    expect(restError(await site.req('GET', '/seo/v1/file_size?url=x', { as: 'editor' }))).toEqual([403, 'rest_forbidden']);
    expectGqlError(await site.gql(SIZE, { u: 'x' }, { as: 'editor' }), 403, 'rest_forbidden');
    expectGqlError(await site.gql(SIZE, { u: 'x' }), 401, 'rest_forbidden');
  });

  it('searches custom fields and checks capabilities as REST does', async () => {
    const post = await site.createPost({ title: 'Meta', status: 'publish' });
    for (const key of ['color', 'colour', 'columns', 'column_gap', '_private', 'comment']) await site.db.prisma.postMeta.create({ data: { contentId: post.id, key, value: `v-${key}` } });
    const SEARCH = 'query($p: Int!, $q: String) { seoMetaSearch(postId: $p, query: $q) { key value } }';
    for (const q of ['col', '', 'c', 'zzz']) {
      const rest = await site.req('GET', `/seo/v1/meta/search?post_id=${post.id}&query=${q}`, { as: 'editor' });
      expect((await site.gql(SEARCH, { p: post.id, q }, { as: 'editor' })).data.seoMetaSearch, q).toEqual(rest.body.meta);
    }
    for (const [as, status] of [[undefined, 401], ['subscriber', 403], ['contributor', 403]] as const) {
      expect(restError(await site.req('GET', `/seo/v1/meta/search?post_id=${post.id}&query=c`, { as }))).toEqual([status, 'rest_forbidden']);
      expectGqlError(await site.gql(SEARCH, { p: post.id, q: 'c' }, { as }), status, 'rest_forbidden');
    }
    expect(restError(await site.req('GET', '/seo/v1/meta/search?post_id=999999&query=c', { as: 'editor' }))).toEqual([403, 'rest_forbidden']);
    expectGqlError(await site.gql(SEARCH, { p: 999999, q: 'c' }, { as: 'editor' }), 403, 'rest_forbidden');

    const CHECK = 'query($u: Int!) { seoCheckCapability(userId: $u) { success status message error failures } }';
    for (const id of [site.users.author.id, 999999]) {
      const rest = await site.req('GET', `/seo/v1/configuration/check_capability?user_id=${id}`, { as: 'administrator' });
      expect((await site.gql(CHECK, { u: id }, { as: 'administrator' })).data.seoCheckCapability).toEqual({ message: null, error: null, failures: null, ...rest.body });
    }
    expect(restError(await site.req('GET', '/seo/v1/configuration/check_capability?user_id=1', { as: 'editor' }))).toEqual([403, 'rest_forbidden']);
    expectGqlError(await site.gql(CHECK, { u: 1 }, { as: 'editor' }), 403, 'rest_forbidden');
  });
});

describe('providers', () => {
  it('authenticates, stores the country and reads related keyphrases as REST does', async () => {
    const RELATED = 'query($k: String!, $c: String!) { seoRelatedKeyphrases(keyphrase: $k, countryCode: $c) }';
    expect(restError(await site.req('GET', '/seo/v1/keyphrase-provider-a/related_keyphrases?keyphrase=engine&country_code=US', { as: 'author' }))).toEqual([400, 'seo_provider_not_authenticated']);
    expectGqlError(await site.gql(RELATED, { k: 'engine', c: 'US' }, { as: 'author' }), 400, 'seo_provider_not_authenticated');
    const AUTH = 'mutation($c: String!) { authenticateSeoKeyphraseProvider(code: $c) }';
    expect(restError(await site.req('POST', '/seo/v1/keyphrase-provider-a/authenticate', { as: 'editor', json: { code: 'good' } }))).toEqual([403, 'rest_forbidden']);
    expectGqlError(await site.gql(AUTH, { c: 'good' }, { as: 'editor' }), 403, 'rest_forbidden');
    expect(restError(await site.req('POST', '/seo/v1/keyphrase-provider-a/authenticate', { as: 'administrator', json: { code: 'bad' } }))).toEqual([400, 'seo_provider_error']);
    expectGqlError(await site.gql(AUTH, { c: 'bad' }, { as: 'administrator' }), 400, 'seo_provider_error');
    const rest = await site.req('POST', '/seo/v1/keyphrase-provider-a/authenticate', { as: 'administrator', json: { code: 'good' } });
    expect((await site.gql(AUTH, { c: 'good' }, { as: 'administrator' })).data.authenticateSeoKeyphraseProvider).toEqual(rest.body);

    const restRelated = await site.req('GET', '/seo/v1/keyphrase-provider-a/related_keyphrases?keyphrase=engine&country_code=US', { as: 'author' });
    expect(restRelated.status).toBe(200);
    expect((await site.gql(RELATED, { k: 'engine', c: 'US' }, { as: 'author' })).data.seoRelatedKeyphrases).toEqual(restRelated.body);
    expectGqlError(await site.gql(RELATED, { k: 'engine', c: 'US' }, { as: 'subscriber' }), 403, 'rest_forbidden');

    const COUNTRY = 'mutation($c: String!) { setSeoKeyphraseCountryCode(countryCode: $c) }';
    const restCountry = await site.req('POST', '/seo/v1/keyphrase-provider-a/country_code', { as: 'administrator', json: { country_code: 'DE' } });
    expect((await site.gql(COUNTRY, { c: 'DE' }, { as: 'administrator' })).data.setSeoKeyphraseCountryCode).toEqual(restCountry.body);
    expect(restError(await site.req('POST', '/seo/v1/keyphrase-provider-a/country_code', { as: 'administrator', json: { country_code: 'usa' } }))).toEqual([400, 'rest_invalid_param']);
    expectGqlError(await site.gql(COUNTRY, { c: 'usa' }, { as: 'administrator' }), 400, 'rest_invalid_param');
  });

  it('connects the rank tracker and tracks keyphrases as REST does', async () => {
    const URL_Q = '{ seoRankTrackerAuthorizationUrl }';
    const restUrl = await site.req('GET', '/seo/v1/rank-tracker/authorization-url', { as: 'administrator' });
    const gUrl = (await site.gql(URL_Q, {}, { as: 'administrator' })).data.seoRankTrackerAuthorizationUrl;
    const noState = (u: string) => { const x = new URL(u); x.searchParams.delete('state'); return x.href; };
    expect({ ...gUrl, url: noState(gUrl.url) }).toEqual({ ...restUrl.body, url: noState(restUrl.body.url) });
    expectGqlError(await site.gql(URL_Q, {}, { as: 'editor' }), 403, 'rest_forbidden');

    expectGqlError(await site.gql('{ seoRankTrackerLimit }', {}, { as: 'author' }), 400, 'seo_provider_not_authenticated');
    const AUTH = 'mutation($c: String!) { authenticateSeoRankTracker(code: $c, websiteId: "site-9") }';
    const restAuth = await site.req('POST', '/seo/v1/rank-tracker/authenticate', { as: 'administrator', json: { code: 'good', websiteId: 'site-9' } });
    expect((await site.gql(AUTH, { c: 'good' }, { as: 'administrator' })).data.authenticateSeoRankTracker).toEqual(restAuth.body);
    expectGqlError(await site.gql(AUTH, { c: 'good' }, { as: 'author' }), 403, 'rest_forbidden');

    const TRACK = 'mutation($k: [String!]!) { trackSeoKeyphrases(keyphrases: $k) }';
    const restTrack = await site.req('POST', '/seo/v1/rank-tracker/keyphrases/track', { as: 'author', json: { keyphrases: ['engine', ' parts '] } });
    expect(restTrack.status).toBe(201);
    expect((await site.gql(TRACK, { k: ['engine', ' parts '] }, { as: 'author' })).data.trackSeoKeyphrases).toEqual(restTrack.body);
    expect(restError(await site.req('POST', '/seo/v1/rank-tracker/keyphrases/track', { as: 'author', json: { keyphrases: ['  '] } }))).toEqual([400, 'rest_invalid_param']);
    expectGqlError(await site.gql(TRACK, { k: ['  '] }, { as: 'author' }), 400, 'rest_invalid_param');
    for (const [as, status] of [[undefined, 401], ['subscriber', 403]] as const) {
      expect(restError(await site.req('POST', '/seo/v1/rank-tracker/keyphrases/track', { as, json: { keyphrases: ['a'] } }))).toEqual([status, 'rest_forbidden']);
      expectGqlError(await site.gql(TRACK, { k: ['a'] }, { as }), status, 'rest_forbidden');
    }

    const restList = await site.req('POST', '/seo/v1/rank-tracker/keyphrases', { as: 'author', json: { keyphrases: ['engine'], permalink: 'https://x/' } });
    expect((await site.gql('mutation { seoRankTrackerKeyphrases(keyphrases: ["engine"], permalink: "https://x/") }', {}, { as: 'author' })).data.seoRankTrackerKeyphrases).toEqual(restList.body);
    const UNTRACK = 'mutation($k: String!) { untrackSeoKeyphrase(keyphrase: $k) }';
    const restUntrack = await site.req('DELETE', '/seo/v1/rank-tracker/keyphrases/untrack?keyphrase=engine', { as: 'author' });
    expect((await site.gql(UNTRACK, { k: 'engine' }, { as: 'author' })).data.untrackSeoKeyphrase).toEqual(restUntrack.body);
    expect(restError(await site.req('DELETE', '/seo/v1/rank-tracker/keyphrases/untrack?keyphrase=%20', { as: 'author' }))).toEqual([400, 'rest_invalid_param']);
    expectGqlError(await site.gql(UNTRACK, { k: ' ' }, { as: 'author' }), 400, 'rest_invalid_param');

    for (const [field, path] of [['seoRankTrackerLimit', 'account/limit'], ['seoRankTrackerUpgradeCampaign', 'account/upgrade-campaign']]) {
      const r = await site.req('GET', `/seo/v1/rank-tracker/${path}`, { as: 'author' });
      expect(r.status).toBe(200);
      expect((await site.gql(`{ ${field} }`, {}, { as: 'author' })).data[field]).toEqual(r.body);
      expectGqlError(await site.gql(`{ ${field} }`, {}, { as: 'subscriber' }), 403, 'rest_forbidden');
    }
  });
});
