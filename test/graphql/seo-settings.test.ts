// The seo/v1 site settings over /graphql (deployment B): each field answers what its REST route
// answers on the same data, with the same refusals; deployment A refuses them as REST does.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestSite, type TestSite } from '../helpers/app.js';
import { expectGqlError } from '../helpers/gql.js';
import { getSiteRepresentation } from '../../src/seo/site/options.js';

let site: TestSite;
let a: TestSite;
beforeAll(async () => { [site, a] = await Promise.all([createTestSite({ deployment: 'B' }), createTestSite({ deployment: 'A' })]); });
afterAll(async () => { await site?.close(); await a?.close(); });

const RESULT = '{ success status message error failures }';
/** A REST `{success, status, …}` body as the SeoSettingsResult type prints it. */
const asResult = (body: any) => ({ message: null, error: null, failures: null, ...body });
const restError = (res: { status: number; body: any }) => [res.status, res.body?.code];

describe('deployment A', () => {
  it('refuses every field as an unknown REST route', async () => {
    for (const doc of [
      'mutation { dismissSeoAlert(key: "indexing-notice") { success } }',
      'mutation { setSeoIntegrationActive(integration: "shop", active: true) { success } }',
      'mutation { saveSeoWorkouts(cornerstone: {}) }',
      'mutation { saveSeoSiteRepresentation(input: { companyOrPerson: COMPANY }) { success } }',
      '{ seoConfigurationState { finishedSteps } }',
      '{ seoVideoEmbedPermission }',
    ]) expectGqlError(await a.gql(doc, {}, { as: 'administrator' }), 404, 'rest_no_route');
    expect(restError(await a.req('POST', '/seo/v1/alerts/dismiss', { as: 'administrator', json: { key: 'indexing-notice' } }))).toEqual([404, 'rest_no_route']);
  });
});

describe('notices and per-user state', () => {
  it('dismisses alerts as REST does, with its refusals', async () => {
    const DISMISS = `mutation($k: String!) { dismissSeoAlert(key: $k) ${RESULT} }`;
    const g = await site.gql(DISMISS, { k: 'indexing-notice' }, { as: 'contributor' });
    const rest = await site.req('POST', '/seo/v1/alerts/dismiss', { as: 'contributor', json: { key: 'upsell-notice' } });
    expect(g.data.dismissSeoAlert).toEqual(asResult(rest.body));
    for (const [as, status] of [[undefined, 401], ['subscriber', 403]] as const) {
      expect(restError(await site.req('POST', '/seo/v1/alerts/dismiss', { as, json: { key: 'indexing-notice' } }))).toEqual([status, 'rest_forbidden']);
      expectGqlError(await site.gql(DISMISS, { k: 'indexing-notice' }, { as }), status, 'rest_forbidden');
    }
    expect(restError(await site.req('POST', '/seo/v1/alerts/dismiss', { as: 'contributor', json: { key: 'made-up' } }))).toEqual([400, 'rest_invalid_param']);
    const bad = await site.gql(DISMISS, { k: 'made-up' }, { as: 'contributor' });
    expectGqlError(bad, 400, 'rest_invalid_param');
    expect(bad.errors![0].extensions!.data).toEqual({ params: { key: 'Invalid parameter.' } });
  });

  it('keeps the video embed permission and introductions per user', async () => {
    expect((await site.gql('{ seoVideoEmbedPermission }', {}, { as: 'author' })).data.seoVideoEmbedPermission).toBe(false);
    expect((await site.gql('mutation { setSeoVideoEmbedPermission }', {}, { as: 'author' })).data.setSeoVideoEmbedPermission).toBe(true);
    expect((await site.req('GET', '/seo/v1/video_embed_permission', { as: 'author' })).body).toEqual({ value: true });
    expect((await site.gql('{ seoVideoEmbedPermission }', {}, { as: 'author' })).data.seoVideoEmbedPermission).toBe(true);
    const rest = await site.req('POST', '/seo/v1/video_embed_permission', { as: 'editor', json: { value: false } });
    const g = await site.gql('mutation { setSeoVideoEmbedPermission(value: false) }', {}, { as: 'editor' });
    expect(g.data.setSeoVideoEmbedPermission).toBe(rest.body.value);
    expectGqlError(await site.gql('{ seoVideoEmbedPermission }', {}, { as: 'subscriber' }), 403, 'rest_forbidden');
    expectGqlError(await site.gql('mutation { setSeoVideoEmbedPermission }'), 401, 'rest_forbidden');

    const seen = await site.gql(`mutation { setSeoIntroductionSeen(id: "editor-tour", seen: false) ${RESULT} }`, {}, { as: 'author' });
    const restSeen = await site.req('POST', '/seo/v1/introductions/editor-tour/seen', { as: 'author', json: { is_seen: true } });
    expect(seen.data.setSeoIntroductionSeen).toEqual(asResult(restSeen.body));
    expectGqlError(await site.gql('mutation { setSeoIntroductionSeen(id: "a/b") { success } }', {}, { as: 'author' }), 400, 'rest_invalid_param');
    expectGqlError(await site.gql('mutation { setSeoIntroductionSeen(id: "x") { success } }', {}, { as: 'subscriber' }), 403, 'rest_forbidden');
  });

  it('dismisses new content types and switches integrations as REST does', async () => {
    const rest = await site.req('POST', '/seo/v1/new-content-type-visibility/dismiss-post-type', { as: 'administrator', json: { postTypeName: 'page' } });
    const g = await site.gql(`mutation { dismissSeoNewPostType(postTypeName: "post") ${RESULT} }`, {}, { as: 'administrator' });
    expect(g.data.dismissSeoNewPostType).toEqual(asResult(rest.body));
    const tax = await site.gql(`mutation { dismissSeoNewTaxonomy(taxonomyName: "category") ${RESULT} }`, {}, { as: 'administrator' });
    expect(tax.data.dismissSeoNewTaxonomy).toEqual(asResult((await site.req('POST', '/seo/v1/new-content-type-visibility/dismiss-taxonomy', { as: 'administrator', json: { taxonomyName: 'post_tag' } })).body));
    expectGqlError(await site.gql('mutation { dismissSeoNewPostType(postTypeName: "nope") { success } }', {}, { as: 'administrator' }), 400, 'rest_invalid_param');
    expectGqlError(await site.gql('mutation { dismissSeoNewTaxonomy { success } }', {}, { as: 'administrator' }), 400, 'rest_invalid_param');
    expect(restError(await site.req('POST', '/seo/v1/new-content-type-visibility/dismiss-post-type', { as: 'editor', json: { postTypeName: 'page' } }))).toEqual([403, 'rest_forbidden']);
    expectGqlError(await site.gql('mutation { dismissSeoNewPostType(postTypeName: "page") { success } }', {}, { as: 'editor' }), 403, 'rest_forbidden');

    const SET = `mutation($i: String!, $on: Boolean!) { setSeoIntegrationActive(integration: $i, active: $on) ${RESULT} }`;
    const restSet = await site.req('POST', '/seo/v1/integrations/set_active', { as: 'administrator', json: { active: true, integration: 'shop' } });
    expect((await site.gql(SET, { i: 'rank_tracker', on: false }, { as: 'administrator' })).data.setSeoIntegrationActive).toEqual(asResult(restSet.body));
    expect(restError(await site.req('POST', '/seo/v1/integrations/set_active', { as: 'administrator', json: { active: true, integration: 'nope' } }))).toEqual([400, 'rest_invalid_param']);
    expectGqlError(await site.gql(SET, { i: 'nope', on: true }, { as: 'administrator' }), 400, 'rest_invalid_param');
    for (const [as, status] of [[undefined, 401], ['subscriber', 403]] as const) {
      expect(restError(await site.req('POST', '/seo/v1/integrations/set_active', { as, json: { active: true, integration: 'shop' } }))).toEqual([status, 'rest_forbidden']);
      expectGqlError(await site.gql(SET, { i: 'shop', on: true }, { as }), status, 'rest_forbidden');
    }
  });
});

describe('configuration', () => {
  const REP = `mutation($i: SeoSiteRepresentationInput!) { saveSeoSiteRepresentation(input: $i) ${RESULT} }`;

  it('stores the site representation as REST does, failures included', async () => {
    const user = site.users.author.id;
    const g = await site.gql(REP, { i: { companyOrPerson: 'PERSON', companyOrPersonUserId: user, description: 'Hi' } }, { as: 'administrator' });
    const stored = await getSiteRepresentation({ prisma: site.db.prisma });
    expect(stored).toMatchObject({ company_or_person: 'person', company_or_person_user_id: user, description: 'Hi' });
    const rest = await site.req('POST', '/seo/v1/configuration/site_representation', { as: 'administrator', json: { company_or_person: 'person', company_or_person_user_id: user, description: 'Hi' } });
    expect(g.data.saveSeoSiteRepresentation).toEqual(asResult(rest.body));
    expect(await getSiteRepresentation({ prisma: site.db.prisma })).toEqual(stored);

    const badRest = await site.req('POST', '/seo/v1/configuration/site_representation', { as: 'administrator', json: { company_or_person: 'company', company_logo: 'ftp://x', company_logo_id: 999999 } });
    const bad = await site.gql(REP, { i: { companyOrPerson: 'COMPANY', companyLogo: 'ftp://x', companyLogoId: 999999 } }, { as: 'administrator' });
    expect(badRest.status).toBe(400);
    expect(bad.data.saveSeoSiteRepresentation).toEqual(asResult(badRest.body));
    for (const [as, status] of [[undefined, 401], ['subscriber', 403]] as const) {
      expect(restError(await site.req('POST', '/seo/v1/configuration/site_representation', { as, json: { company_or_person: 'company' } }))).toEqual([status, 'rest_forbidden']);
      expectGqlError(await site.gql(REP, { i: { companyOrPerson: 'COMPANY' } }, { as }), status, 'rest_forbidden');
    }
  });

  it('checks social profile URLs as REST does', async () => {
    const SOCIAL = `mutation($a: String, $b: String, $o: [String!]) { saveSeoSocialProfiles(networkASite: $a, networkBSite: $b, otherSocialUrls: $o) ${RESULT} }`;
    const bad = { network_a_site: 'not a url', other_social_urls: ['https://ok.example/', 'ftp://x'] };
    const restBad = await site.req('POST', '/seo/v1/configuration/social_profiles', { as: 'administrator', json: bad });
    expect((await site.gql(SOCIAL, { a: bad.network_a_site, o: bad.other_social_urls }, { as: 'administrator' })).data.saveSeoSocialProfiles).toEqual(asResult(restBad.body.json));
    const restOk = await site.req('POST', '/seo/v1/configuration/social_profiles', { as: 'administrator', json: { network_a_site: 'https://a.example/me', network_b_site: '@me' } });
    expect((await site.gql(SOCIAL, { a: 'https://a.example/you', b: '@you' }, { as: 'administrator' })).data.saveSeoSocialProfiles).toEqual(asResult(restOk.body.json));
    expectGqlError(await site.gql(SOCIAL, {}, { as: 'editor' }), 403, 'rest_forbidden');
  });

  it('saves and reads the workflow state and tracking as REST does', async () => {
    const SAVE = `mutation($s: [String!]!) { saveSeoConfigurationState(finishedSteps: $s) ${RESULT} }`;
    expect((await site.gql(SAVE, { s: ['a', 'b', 'a'] }, { as: 'administrator' })).data.saveSeoConfigurationState).toEqual({ success: true, status: 200, message: null, error: null, failures: null });
    const restState = await site.req('GET', '/seo/v1/configuration/get_configuration_state', { as: 'administrator' });
    expect(restState.body.data).toEqual({ finishedSteps: ['a', 'b'] });
    expect((await site.gql('{ seoConfigurationState { finishedSteps } }', {}, { as: 'administrator' })).data.seoConfigurationState).toEqual(restState.body.data);
    await site.req('POST', '/seo/v1/configuration/save_configuration_state', { as: 'administrator', json: { finishedSteps: ['c'] } });
    expect((await site.gql('{ seoConfigurationState { finishedSteps } }', {}, { as: 'administrator' })).data.seoConfigurationState).toEqual({ finishedSteps: ['c'] });
    expectGqlError(await site.gql('{ seoConfigurationState { finishedSteps } }', {}, { as: 'editor' }), 403, 'rest_forbidden');
    expectGqlError(await site.gql(SAVE, { s: [] }), 401, 'rest_forbidden');

    const restTrack = await site.req('POST', '/seo/v1/configuration/enable_tracking', { as: 'administrator', json: { tracking: true } });
    expect((await site.gql(`mutation { setSeoTracking(tracking: false) ${RESULT} }`, {}, { as: 'administrator' })).data.setSeoTracking).toEqual(asResult(restTrack.body));
    expectGqlError(await site.gql('mutation { setSeoTracking(tracking: true) { success } }', {}, { as: 'subscriber' }), 403, 'rest_forbidden');
  });
});

describe('workouts', () => {
  it('stores and reads workouts as REST does, for editors', async () => {
    const restSaved = await site.req('POST', '/seo/v1/workouts', { as: 'editor', json: { cornerstone: { finishedSteps: ['one'] } } });
    const g = await site.gql('mutation($c: JSON) { saveSeoWorkouts(cornerstone: $c) }', { c: { finishedSteps: ['one'] } }, { as: 'editor' });
    expect(g.data.saveSeoWorkouts).toEqual(restSaved.body.json);
    await site.gql('mutation { saveSeoWorkouts(orphaned: { finishedSteps: ["two"] }) }', {}, { as: 'editor' });
    const rest = await site.req('GET', '/seo/v1/workouts', { as: 'administrator' });
    expect(rest.body.json).toEqual({ cornerstone: { finishedSteps: ['one'] }, orphaned: { finishedSteps: ['two'] } });
    expect((await site.gql('{ seoWorkouts }', {}, { as: 'administrator' })).data.seoWorkouts).toEqual(rest.body.json);

    expect(restError(await site.req('POST', '/seo/v1/workouts', { as: 'editor', json: { orphaned: 'x' } }))).toEqual([400, 'rest_invalid_param']);
    expectGqlError(await site.gql('mutation { saveSeoWorkouts(orphaned: "x") }', {}, { as: 'editor' }), 400, 'rest_invalid_param');
    for (const [as, status] of [[undefined, 401], ['subscriber', 403]] as const) {
      expect(restError(await site.req('POST', '/seo/v1/workouts', { as, json: {} }))).toEqual([status, 'rest_forbidden']);
      expectGqlError(await site.gql('mutation { saveSeoWorkouts }', {}, { as }), status, 'rest_forbidden');
      expectGqlError(await site.gql('{ seoWorkouts }', {}, { as }), status, 'rest_forbidden');
    }
  });
});
