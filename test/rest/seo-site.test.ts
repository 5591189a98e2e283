// seo/v1 site settings routes: success, permission per role and bad input; deployment A has none of them.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createServer, type Server } from 'node:http';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { AddressInfo } from 'node:net';
import { createTestSite, type TestSite } from '../helpers/app.js';
import { getSiteRepresentation } from '../../src/seo/site/options.js';

let site: TestSite;
let a: TestSite;
let server: Server;
let remote = '';
let uploads = '';
const REMOTE_BYTES = 'x'.repeat(1234);

beforeAll(async () => {
  server = createServer((req, res) => {
    if (req.url === '/file.bin') { res.writeHead(200, { 'content-length': String(REMOTE_BYTES.length) }); res.end(req.method === 'HEAD' ? undefined : REMOTE_BYTES); return; }
    res.writeHead(404); res.end();
  });
  await new Promise<void>((ok) => server.listen(0, '127.0.0.1', ok));
  const port = (server.address() as AddressInfo).port;
  remote = `http://127.0.0.1:${port}`;
  uploads = mkdtempSync(join(tmpdir(), 'seo-site-'));
  site = await createTestSite({ deployment: 'B', uploadsDir: uploads, seoAllowHosts: [`127.0.0.1:${port}`] });
  a = await createTestSite({ deployment: 'A' });
});
afterAll(async () => { await site?.close(); await a?.close(); await new Promise((ok) => server?.close(ok)); if (uploads) rmSync(uploads, { recursive: true, force: true }); });

const expectError = (res: { status: number; body: any }, status: number, code: string) => expect([res.status, res.body?.code, res.body?.data?.status]).toEqual([status, code, status]);

describe('deployment A', () => {
  it('has none of the routes', async () => {
    for (const [m, p] of [['GET', '/seo/v1/file_size?url=x'], ['POST', '/seo/v1/alerts/dismiss'], ['POST', '/seo/v1/import/wxr/content'], ['GET', '/seo/v1/workouts']]) {
      expectError(await a.req(m, p, { as: 'administrator' }), 404, 'rest_no_route');
    }
  });
});

describe('file_size', () => {
  it('reads an upload from the storage and a remote file through the guarded client', async () => {
    const png = Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAQAAAACCAIAAADwyuo0AAAACXBIWXMAAAPoAAAD6AG1e1JrAAAAEklEQVQImWP4z8AARwjWfwYGAG+qB/l/O6VpAAAAAElFTkSuQmCC', 'base64');
    const media = await site.req('POST', '/core/v2/media', { as: 'administrator', body: new Blob([png]), headers: { 'content-type': 'image/png', 'content-disposition': 'attachment; filename="s.png"' } });
    expect(media.status).toBe(201);
    let res = await site.req('GET', `/seo/v1/file_size?url=${encodeURIComponent(media.body.source_url)}`, { as: 'administrator' });
    expect([res.status, res.body]).toEqual([200, { type: 'success', size_in_bytes: png.length }]);
    res = await site.req('GET', `/seo/v1/file_size?url=${encodeURIComponent(`${remote}/file.bin`)}`, { as: 'administrator' });
    expect([res.status, res.body]).toEqual([200, { type: 'success', size_in_bytes: REMOTE_BYTES.length }]);
    res = await site.req('GET', `/seo/v1/file_size?url=${encodeURIComponent(`${remote}/missing`)}`, { as: 'administrator' });
    expect([res.status, res.body.type, typeof res.body.response]).toEqual([404, 'failure', 'string']);
    res = await site.req('GET', `/seo/v1/file_size?url=${encodeURIComponent(media.body.source_url + '.gone')}`, { as: 'administrator' });
    expect([res.status, res.body.type]).toEqual([404, 'failure']);
    // A loopback address not on the allow list is never fetched.
    res = await site.req('GET', `/seo/v1/file_size?url=${encodeURIComponent('http://127.0.0.2:9/x')}`, { as: 'administrator' });
    expect([res.status, res.body.type]).toEqual([404, 'failure']);
    expectError(await site.req('GET', '/seo/v1/file_size', { as: 'administrator' }), 400, 'rest_missing_callback_param');
    expectError(await site.req('GET', '/seo/v1/file_size?url=x', { as: 'editor' }), 403, 'rest_forbidden');
    expectError(await site.req('GET', '/seo/v1/file_size?url=x'), 401, 'rest_forbidden');
  });
});

describe('notices and per-user state', () => {
  it('dismisses known alerts only', async () => {
    const res = await site.req('POST', '/seo/v1/alerts/dismiss', { as: 'contributor', json: { key: 'indexing-notice' } });
    expect([res.status, res.body]).toEqual([200, { success: true, status: 200 }]);
    expectError(await site.req('POST', '/seo/v1/alerts/dismiss', { as: 'contributor', json: { key: 'made-up' } }), 400, 'rest_invalid_param');
    expectError(await site.req('POST', '/seo/v1/alerts/dismiss', { as: 'contributor', json: {} }), 400, 'rest_missing_callback_param');
    expectError(await site.req('POST', '/seo/v1/alerts/dismiss', { as: 'subscriber', json: { key: 'indexing-notice' } }), 403, 'rest_forbidden');
  });

  it('keeps the video embed permission per user', async () => {
    expect((await site.req('GET', '/seo/v1/video_embed_permission', { as: 'author' })).body).toEqual({ value: false });
    expect((await site.req('POST', '/seo/v1/video_embed_permission', { as: 'author', json: {} })).body).toEqual({ value: true });
    expect((await site.req('GET', '/seo/v1/video_embed_permission', { as: 'author' })).body).toEqual({ value: true });
    expect((await site.req('GET', '/seo/v1/video_embed_permission', { as: 'editor' })).body).toEqual({ value: false });
    expectError(await site.req('POST', '/seo/v1/video_embed_permission', { as: 'author', json: { value: 'maybe' } }), 400, 'rest_invalid_param');
    const res = await site.req('POST', '/seo/v1/introductions/editor-tour/seen', { as: 'author', json: { is_seen: false } });
    expect([res.status, res.body.success]).toEqual([200, true]);
  });

  it('dismisses new content types and taxonomies the site has', async () => {
    expect((await site.req('POST', '/seo/v1/new-content-type-visibility/dismiss-post-type', { as: 'administrator', json: { postTypeName: 'page' } })).status).toBe(200);
    expectError(await site.req('POST', '/seo/v1/new-content-type-visibility/dismiss-post-type', { as: 'administrator', json: { postTypeName: 'nope' } }), 400, 'rest_invalid_param');
    expectError(await site.req('POST', '/seo/v1/new-content-type-visibility/dismiss-taxonomy', { as: 'administrator', json: {} }), 400, 'rest_invalid_param');
    expectError(await site.req('POST', '/seo/v1/integrations/set_active', { as: 'administrator', json: { active: true, integration: 'nope' } }), 400, 'rest_invalid_param');
  });
});

describe('configuration', () => {
  it('stores the site representation in one option the head reads', async () => {
    const user = site.users.author.id;
    let res = await site.req('POST', '/seo/v1/configuration/site_representation', { as: 'administrator', json: { company_or_person: 'person', company_or_person_user_id: user, description: 'Hi' } });
    expect([res.status, res.body]).toEqual([200, { success: true, status: 200 }]);
    expect(await getSiteRepresentation({ prisma: site.db.prisma })).toMatchObject({ company_or_person: 'person', company_or_person_user_id: user, description: 'Hi', company_name: '' });
    res = await site.req('POST', '/seo/v1/configuration/site_representation', { as: 'administrator', json: { company_or_person: 'person', company_or_person_user_id: 999999 } });
    expect([res.status, res.body.success, res.body.failures]).toEqual([400, false, ['company_or_person_user_id']]);
    expectError(await site.req('POST', '/seo/v1/configuration/site_representation', { as: 'administrator', json: { company_or_person: 'robot' } }), 400, 'rest_invalid_param');
    expectError(await site.req('POST', '/seo/v1/configuration/site_representation', { as: 'editor', json: { company_or_person: 'company' } }), 403, 'rest_forbidden');
  });

  it('checks social profile URLs and answers {json}', async () => {
    let res = await site.req('POST', '/seo/v1/configuration/social_profiles', { as: 'administrator', json: { network_a_site: 'not a url', other_social_urls: ['https://ok.example/', 'ftp://x'] } });
    expect([res.status, res.body]).toEqual([400, { json: { success: false, status: 400, failures: ['network_a_site', 'other_social_urls-1'] } }]);
    res = await site.req('POST', '/seo/v1/configuration/social_profiles', { as: 'administrator', json: { network_a_site: 'https://a.example/me', network_b_site: '@me' } });
    expect([res.status, res.body]).toEqual([200, { json: { success: true, status: 200 } }]);
  });

  it('saves and reads the workflow state, tracking and capability checks', async () => {
    expectError(await site.req('POST', '/seo/v1/configuration/save_configuration_state', { as: 'administrator', json: {} }), 400, 'rest_missing_callback_param');
    expect((await site.req('POST', '/seo/v1/configuration/save_configuration_state', { as: 'administrator', json: { finishedSteps: ['a', 'b', 'a'] } })).status).toBe(200);
    expect((await site.req('GET', '/seo/v1/configuration/get_configuration_state', { as: 'administrator' })).body).toEqual({ success: true, status: 200, data: { finishedSteps: ['a', 'b'] } });
    expectError(await site.req('POST', '/seo/v1/configuration/enable_tracking', { as: 'administrator', json: { tracking: 'often' } }), 400, 'rest_invalid_param');
    const res = await site.req('GET', '/seo/v1/configuration/check_capability?user_id=999999', { as: 'administrator' });
    expect([res.status, res.body.success]).toEqual([404, false]);
  });
});

describe('meta/search and workouts', () => {
  it('offers at most three matching custom fields of a post the caller may edit, in a fixed number of queries', async () => {
    const post = await site.createPost({ title: 'Meta', status: 'publish' });
    const keys = ['color', 'colour', 'columns', 'column_gap', '_private', 'comment'];
    for (const key of keys) await site.db.prisma.postMeta.create({ data: { contentId: post.id, key, value: `v-${key}` } });
    await site.db.prisma.postMeta.create({ data: { contentId: post.id, key: 'colors', value: 'a:1:{i:0;s:1:"x";}' } });
    await site.req('GET', `/seo/v1/meta/search?post_id=${post.id}&query=zzz`, { as: 'editor' }); // the sign-in's daily usage stamp
    const before = site.db.statements;
    let res = await site.req('GET', `/seo/v1/meta/search?post_id=${post.id}&query=col`, { as: 'editor' });
    const statements = site.db.statements - before;
    const expected = keys.filter((k) => k.startsWith('col')).sort().slice(0, 3);
    expect(res.body.meta.map((m: any) => m.key)).toEqual(expected);
    // The same count whatever the number of fields (sign-in, the post, the fields).
    const again = site.db.statements;
    await site.req('GET', `/seo/v1/meta/search?post_id=${post.id}&query=c`, { as: 'editor' });
    expect(site.db.statements - again).toBe(statements);
    res = await site.req('GET', `/seo/v1/meta/search?post_id=${post.id}&query=`, { as: 'editor' });
    expect(res.body.meta.every((m: any) => !m.key.startsWith('_'))).toBe(true);
    expectError(await site.req('GET', '/seo/v1/meta/search?query=col', { as: 'editor' }), 403, 'rest_forbidden');
    expectError(await site.req('GET', '/seo/v1/meta/search?query=col'), 401, 'rest_forbidden');
    expectError(await site.req('GET', `/seo/v1/meta/search?post_id=${post.id}`, { as: 'author' }), 403, 'rest_forbidden');
  });

  it('stores workouts for editors', async () => {
    let res = await site.req('POST', '/seo/v1/workouts', { as: 'editor', json: { cornerstone: { finishedSteps: ['one'] } } });
    expect(res.body).toEqual({ json: { cornerstone: { finishedSteps: ['one'] } } });
    res = await site.req('GET', '/seo/v1/workouts', { as: 'administrator' });
    expect(res.body.json.cornerstone).toEqual({ finishedSteps: ['one'] });
    expectError(await site.req('POST', '/seo/v1/workouts', { as: 'editor', json: { orphaned: 'x' } }), 400, 'rest_invalid_param');
    expectError(await site.req('GET', '/seo/v1/workouts', { as: 'author' }), 403, 'rest_forbidden');
  });
});
