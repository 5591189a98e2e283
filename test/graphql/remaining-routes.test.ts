// The last REST routes given GraphQL fields: the contact-form feedback submission, the seo/v1
// indexing steps, the seo/v1 scores and statistics, the fallback navigation and site health. Each field answers what its REST route answers on the same data, with the same
// refusals; deployment A refuses the seo fields as REST does.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createTestSite, SITE, type TestSite } from '../helpers/app.js';
import { expectGqlError } from '../helpers/gql.js';

let site: TestSite;
let twin: TestSite;
let a: TestSite;
let server: Server;
let base = '';

beforeAll(async () => {
  // Pages for the link previews.
  server = createServer((req, res) => {
    if (req.url === '/page') {
      res.writeHead(200, { 'content-type': 'text/html' });
      return res.end('<html><head><title>Fish &amp; Chips</title><link rel="icon" href="/favicon.ico"><meta name="description" content="Proper fish"><meta property="og:image" content="img/cover.png"></head><body></body></html>');
    }
    res.writeHead(404, { 'content-type': 'text/plain' });
    res.end('none');
  });
  await new Promise<void>((ok) => server.listen(0, '127.0.0.1', ok));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  [site, twin, a] = await Promise.all([
    createTestSite({ deployment: 'B', formRateLimit: 1000 }),
    createTestSite({ deployment: 'B', formRateLimit: 1000 }),
    createTestSite({ deployment: 'A', urlDetailsAllowHosts: ['127.0.0.1'] }),
  ]);
});
afterAll(async () => { await site?.close(); await twin?.close(); await a?.close(); await new Promise((ok) => server?.close(ok)); });

const restError = (res: { status: number; body: any }) => [res.status, res.body?.code];
const UA = { 'user-agent': 'test-agent/1.0' };

describe('contact-form feedback', () => {
  const SUBMIT = `mutation($id: Int!, $u: String, $f: JSON!, $files: [ContactFormFileInput!]) {
    submitContactForm(id: $id, unitTag: $u, fields: $f, files: $files) { contactFormId status message postedDataHash into invalidFields { field message idref errorId } demoMode } }`;
  /** A REST feedback answer as ContactFormFeedback prints it. */
  const asFeedback = (b: any) => ({
    contactFormId: b.contact_form_id, status: b.status, message: b.message, postedDataHash: b.posted_data_hash ?? null, into: b.into,
    invalidFields: b.invalid_fields.map((f: any) => ({ field: f.field, message: f.message, idref: f.idref, errorId: f.error_id })), demoMode: b.demo_mode ?? null,
  });
  const multipart = (fields: Record<string, string>, file?: [string, string, string]) => {
    const fd = new FormData();
    for (const [k, v] of Object.entries(fields)) fd.append(k, v);
    if (file) fd.append(file[0], new File([file[2]], file[1], { type: 'text/plain' }));
    return fd;
  };
  /** A GraphQL multipart request (operations, map, files) with one file under $files.0.file. */
  const gqlUpload = async (variables: Record<string, unknown>, file: [string, string, string]) => {
    const fd = new FormData();
    fd.append('operations', JSON.stringify({ query: SUBMIT, variables: { ...variables, files: [{ field: file[0], file: null }] } }));
    fd.append('map', JSON.stringify({ 0: ['variables.files.0.file'] }));
    fd.append('0', new File([file[2]], file[1], { type: 'text/plain' }));
    const res = await site.req('POST', `${SITE}/graphql`, { body: fd, headers: { ...UA, 'graphql-preflight': '1' } });
    return res;
  };

  it('answers every outcome as REST does, with the same refusals', async () => {
    const created = await site.req('POST', '/forms/v1/contact-forms?context=save', {
      as: 'administrator', json: { title: 'Feedback', form: '[text* your-name] [email* your-email] [file up limit:100 filetypes:txt] [submit "Send"]' },
    });
    expect(created.status, created.text).toBe(200);
    const id = created.body.id as number;
    const unit = `wpcf7-f${id}-p0-o1`;
    const cases: Record<string, string>[] = [
      { _wpcf7: String(id), _wpcf7_unit_tag: unit },
      { _wpcf7: String(id), _wpcf7_unit_tag: unit, 'your-name': 'Ann', 'your-email': 'not an address' },
      { _wpcf7: String(id), _wpcf7_unit_tag: unit, 'your-name': 'Ann', 'your-email': 'ann@example.net' },
    ];
    for (const fields of cases) {
      const rest = await site.req('POST', `/forms/v1/contact-forms/${id}/feedback`, { body: multipart(fields), headers: UA });
      expect(rest.status, rest.text).toBe(200);
      const g = await site.gql(SUBMIT, { id, f: fields }, { headers: UA });
      expect(g.data?.submitContactForm, JSON.stringify(g.errors)).toEqual(asFeedback(rest.body));
    }
    // The unit tag as its own argument, and a file.
    const fields = { _wpcf7: String(id), 'your-name': 'Ann', 'your-email': 'ann@example.net' };
    const rest = await site.req('POST', `/forms/v1/contact-forms/${id}/feedback`, { body: multipart({ ...fields, _wpcf7_unit_tag: unit }, ['up', 'note.txt', 'hello']), headers: UA });
    const g = await gqlUpload({ id, u: unit, f: fields }, ['up', 'note.txt', 'hello']);
    expect(g.body.data?.submitContactForm, g.text).toEqual(asFeedback(rest.body));
    const tooBig = await site.req('POST', `/forms/v1/contact-forms/${id}/feedback`, { body: multipart({ ...fields, _wpcf7_unit_tag: unit }, ['up', 'big.txt', 'x'.repeat(200)]), headers: UA });
    expect(tooBig.body.status).toBe('validation_failed');
    expect((await gqlUpload({ id, u: unit, f: fields }, ['up', 'big.txt', 'x'.repeat(200)])).body.data.submitContactForm).toEqual(asFeedback(tooBig.body));

    // Refusals: an unknown form, no unit tag.
    expect(restError(await site.req('POST', '/forms/v1/contact-forms/999999/feedback', { body: multipart(cases[0]), headers: UA }))).toEqual([404, 'wpcf7_not_found']);
    expectGqlError(await site.gql(SUBMIT, { id: 999999, f: cases[0] }, { headers: UA }), 404, 'wpcf7_not_found');
    expect(restError(await site.req('POST', `/forms/v1/contact-forms/${id}/feedback`, { body: multipart({ 'your-name': 'Ann' }), headers: UA }))).toEqual([400, 'wpcf7_unit_tag_not_found']);
    expectGqlError(await site.gql(SUBMIT, { id, f: { 'your-name': 'Ann' } }, { headers: UA }), 400, 'wpcf7_unit_tag_not_found');
  });
});

describe('seo indexing', () => {
  const RUN = 'mutation($s: SeoIndexingStep!) { runSeoIndexing(step: $s) { objects nextStep done } }';
  const STEPS: [string, string][] = [
    ['PREPARE', 'indexing/prepare'], ['POSTS', 'indexing/posts'], ['TERMS', 'indexing/terms'], ['POST_TYPE_ARCHIVES', 'indexing/post-type-archives'],
    ['GENERAL', 'indexing/general'], ['INDEXABLES_COMPLETE', 'indexing/indexables-complete'], ['LINK_POSTS', 'link-indexing/posts'],
    ['LINK_TERMS', 'link-indexing/terms'], ['COMPLETE', 'indexing/complete'],
  ];

  it('runs every step as REST does on the same data', async () => {
    const now = new Date('2026-01-02T03:04:05Z');
    for (const s of [site, twin]) {
      await s.db.prisma.content.createMany({
        data: Array.from({ length: 30 }, (_, i) => ({
          type: 'post', status: 'publish', authorId: s.users.administrator.id, title: `Post ${i}`, slug: `post-${i}`,
          content: `<p><a href="https://elsewhere.example/${i}">x</a></p>`, date: now, dateGmt: now, modified: now, modifiedGmt: now,
        })),
      });
    }
    for (const [step, path] of STEPS) {
      for (let call = 0; call < 5; call++) {
        const rest = await twin.req('POST', `/seo/v1/${path}`, { as: 'editor' });
        expect(rest.status, rest.text).toBe(200);
        const g = await site.gql(RUN, { s: step }, { as: 'editor' });
        expect(g.data?.runSeoIndexing, JSON.stringify(g.errors)).toEqual({ objects: rest.body.objects, nextStep: rest.body.next_url ? step : null, done: rest.body.next_url === false });
        if (rest.body.next_url === false) break;
      }
    }
    expect(await site.db.prisma.indexable.count()).toBe(await twin.db.prisma.indexable.count());
  });

  it('refuses as REST does', async () => {
    for (const [as, status] of [[undefined, 401], ['subscriber', 403]] as const) {
      expect(restError(await twin.req('POST', '/seo/v1/indexing/posts', { as }))).toEqual([status, 'rest_forbidden']);
      expectGqlError(await site.gql(RUN, { s: 'POSTS' }, { as }), status, 'rest_forbidden');
    }
    expect(restError(await a.req('POST', '/seo/v1/indexing/posts', { as: 'administrator' }))).toEqual([404, 'rest_no_route']);
    expectGqlError(await a.gql(RUN, { s: 'POSTS' }, { as: 'administrator' }), 404, 'rest_no_route');
  });
});

describe('reads', () => {
  it('answers the seo scores and statistics as REST does', async () => {
    const cat = await site.createTerm('categories', { name: 'Scored' });
    await site.createPost({ title: 'Scored', status: 'publish', content: '<p>Engines and more engines.</p>', categories: [cat.id] });
    const SCORES = 'query($k: SeoScoreKind!, $c: String!, $t: String, $term: Int) { seoScores(kind: $k, contentType: $c, taxonomy: $t, term: $term) }';
    for (const [k, path] of [['SEO', 'seo_scores'], ['READABILITY', 'readability_scores']] as const) {
      for (const [query, vars] of [['contentType=post', { c: 'post' }], ['contentType=page', { c: 'page' }], [`contentType=post&taxonomy=category&term=${cat.id}`, { c: 'post', t: 'category', term: cat.id }]] as const) {
        const rest = await site.req('GET', `/seo/v1/${path}?${query}`, { as: 'editor' });
        expect(rest.status, rest.text).toBe(200);
        expect((await site.gql(SCORES, { k, ...vars }, { as: 'editor' })).data.seoScores).toEqual(rest.body);
      }
      expect(restError(await site.req('GET', `/seo/v1/${path}?contentType=book`, { as: 'editor' }))).toEqual([400, 'rest_invalid_param']);
      expectGqlError(await site.gql(SCORES, { k, c: 'book' }, { as: 'editor' }), 400, 'rest_invalid_param');
      expect(restError(await site.req('GET', `/seo/v1/${path}?contentType=post`, { as: 'subscriber' }))).toEqual([403, 'rest_forbidden']);
      expectGqlError(await site.gql(SCORES, { k, c: 'post' }, { as: 'subscriber' }), 403, 'rest_forbidden');
    }
    const rest = await site.req('GET', '/seo/v1/statistics', { as: 'subscriber' });
    expect(rest.status).toBe(200);
    expect((await site.gql('{ seoStatistics }', {}, { as: 'subscriber' })).data.seoStatistics).toEqual(rest.body);
    expect(restError(await site.req('GET', '/seo/v1/statistics'))).toEqual([401, 'rest_forbidden']);
    expectGqlError(await site.gql('{ seoStatistics }'), 401, 'rest_forbidden');
    for (const doc of ['{ seoStatistics }', '{ seoScores(kind: SEO, contentType: "post") }']) expectGqlError(await a.gql(doc, {}, { as: 'administrator' }), 404, 'rest_no_route');
  });

  it('answers the head of a URL as REST does', async () => {
    const post = await site.createPost({ title: 'Headed', status: 'publish' });
    const draft = await site.createPost({ title: 'Hidden', status: 'draft' });
    const HEAD = 'query($u: String!) { seoHeadByUrl(url: $u) { html json status } }';
    for (const u of [post.link, `${post.link}?x=1`, draft.link, 'http://example.test/', 'https://elsewhere.example/page/']) {
      const rest = await site.req('GET', `/seo/v1/get_head?url=${encodeURIComponent(u)}`, { as: 'editor' });
      expect((await site.gql(HEAD, { u }, { as: 'editor' })).data.seoHeadByUrl, u).toEqual(rest.body);
    }
    for (const u of ['not a url', 'ftp://example.test/']) {
      expect(restError(await site.req('GET', `/seo/v1/get_head?url=${encodeURIComponent(u)}`))).toEqual([400, 'rest_invalid_param']);
      expectGqlError(await site.gql(HEAD, { u }), 400, 'rest_invalid_param');
    }
    expectGqlError(await a.gql(HEAD, { u: 'http://example.test/' }), 404, 'rest_no_route');
  });

  it('answers oEmbed data as REST does', async () => {
    const post = await a.createPost({ title: 'Embedded', status: 'publish', content: '<p>Embed me.</p>' });
    const draft = await a.createPost({ title: 'Not yet', status: 'draft' });
    const OEMBED = 'query($u: String!, $w: Int) { oembed(url: $u, maxwidth: $w) }';
    // The embed HTML carries a random secret per answer.
    const noSecret = (d: any) => ({ ...d, html: String(d.html).replace(/secret=[A-Za-z0-9]+/g, 'secret=').replace(/data-secret="[A-Za-z0-9]+"/g, 'data-secret=""') });
    for (const w of [undefined, 320, 50]) {
      const rest = await a.req('GET', `/oembed/1.0/embed?url=${encodeURIComponent(post.link)}${w === undefined ? '' : `&maxwidth=${w}`}`);
      expect(rest.status, rest.text).toBe(200);
      expect(noSecret((await a.gql(OEMBED, { u: post.link, w })).data.oembed)).toEqual(noSecret(rest.body));
    }
    expect(restError(await a.req('GET', `/oembed/1.0/embed?url=${encodeURIComponent(draft.link)}`, { as: 'editor' }))).toEqual([404, 'oembed_invalid_url']);
    expectGqlError(await a.gql(OEMBED, { u: draft.link }, { as: 'editor' }), 404, 'oembed_invalid_url');
  });

  it('previews links as REST does', async () => {
    const DETAILS = 'query($u: String!) { urlDetails(url: $u) { title icon description image } }';
    const path = (u: string) => `/block-editor/v1/url-details?${new URLSearchParams({ url: u })}`;
    const rest = await a.req('GET', path(`${base}/page`), { as: 'contributor' });
    expect(rest.status, rest.text).toBe(200);
    expect(rest.body.title).toBe('Fish & Chips');
    expect((await a.gql(DETAILS, { u: `${base}/page` }, { as: 'contributor' })).data.urlDetails).toEqual(rest.body);
    for (const u of [`${base}/missing`, 'ftp://example.org/x', 'not a url']) {
      const r = await a.req('GET', path(u), { as: 'contributor' });
      expect(r.status).toBeGreaterThanOrEqual(400);
      expectGqlError(await a.gql(DETAILS, { u }, { as: 'contributor' }), r.status, r.body.code);
    }
    expect(restError(await a.req('GET', path(`${base}/page`), { as: 'subscriber' }))).toEqual([403, 'rest_cannot_view_url_details']);
    expectGqlError(await a.gql(DETAILS, { u: `${base}/page` }, { as: 'subscriber' }), 403, 'rest_cannot_view_url_details');
    expectGqlError(await a.gql(DETAILS, { u: `${base}/page` }), 401, 'rest_cannot_view_url_details');
  });

  it('answers the fallback navigation as REST does', async () => {
    await site.createPage({ title: 'About', status: 'publish' });
    const rest = await site.req('GET', '/block-editor/v1/navigation-fallback', { as: 'administrator' });
    expect(rest.status, rest.text).toBe(200);
    expect((await site.gql('{ navigationFallback }', {}, { as: 'administrator' })).data.navigationFallback).toEqual(rest.body);
    for (const [as, status] of [[undefined, 401], ['editor', 403]] as const) {
      expect(restError(await site.req('GET', '/block-editor/v1/navigation-fallback', { as }))).toEqual([status, 'rest_cannot_create']);
      expectGqlError(await site.gql('{ navigationFallback }', {}, { as }), status, 'rest_cannot_create');
    }
  });

  it('runs the site-health checks as REST does', async () => {
    const HEALTH = 'query($t: SiteHealthTest!) { siteHealthCheck(test: $t) { test label status badge { label color } description actions } }';
    for (const [name, path] of [['DATABASE', 'database'], ['UPLOADS_DIRECTORY', 'uploads-directory'], ['PAGE_CACHE', 'page-cache'], ['HTTPS_STATUS', 'https-status'], ['LOOPBACK_REQUESTS', 'loopback-requests']] as const) {
      const rest = await a.req('GET', `/site-health/v1/tests/${path}`, { as: 'administrator' });
      expect(rest.status, rest.text).toBe(200);
      expect((await a.gql(HEALTH, { t: name }, { as: 'administrator' })).data.siteHealthCheck, path).toEqual(rest.body);
    }
    const sizes = await a.req('GET', '/site-health/v1/directory-sizes', { as: 'administrator' });
    const g = (await a.gql('{ siteHealthDirectorySizes }', {}, { as: 'administrator' })).data.siteHealthDirectorySizes;
    // The database grows between the two reads only by what other tests write: compare the shape and the uploads.
    expect(Object.keys(g)).toEqual(Object.keys(sizes.body));
    expect(g.uploads_size).toEqual(sizes.body.uploads_size);
    for (const [as, status] of [[undefined, 401], ['editor', 403]] as const) {
      expect(restError(await a.req('GET', '/site-health/v1/tests/database', { as }))).toEqual([status, 'rest_forbidden']);
      expectGqlError(await a.gql(HEALTH, { t: 'DATABASE' }, { as }), status, 'rest_forbidden');
      expectGqlError(await a.gql('{ siteHealthDirectorySizes }', {}, { as }), status, 'rest_forbidden');
    }
  });
});
