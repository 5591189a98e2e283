// The seo/v1 site settings over GraphQL (deployment B): notices, per-user state, integrations,
// workouts and the configuration workflow. Each field runs the service function the REST route
// runs (src/seo/site/service.ts), so rights, validation and error codes are the same. The schema
// is the same in both deployments; in A, which keeps no SEO settings, every field refuses as an
// unknown REST route would (rest_no_route, 404).
import { builder } from '../../builder.js';
import { restError } from '../../../errors.js';
import type { Context } from '../../../context.js';
import {
  configurationState, dismissAlert, dismissNewContentType, getWorkouts, saveConfigurationState, saveSiteRepresentation,
  saveSocialProfiles, saveWorkouts, setIntegrationActive, setIntroductionSeen, setTracking, videoEmbedPermission,
} from '../../../seo/site/service.js';

/** Deployment A keeps no SEO settings: every seo field refuses as an unknown REST route would. */
export function requireSeo(ctx: Context): void {
  if (!ctx.services.seo.indexing) throw restError('rest_no_route', 'No route was found matching the URL and request method.', 404);
}

interface Answer { success: boolean; status: number; message?: unknown; error?: unknown; failures?: unknown }

export const ResultRef = builder.objectRef<Answer>('SeoSettingsResult').implement({
  description: 'The answer of a seo/v1 settings write, as the REST route sends it (`{success, status, …}`).',
  fields: (t) => ({
    success: t.boolean({ description: 'Whether the change was stored.', resolve: (r) => r.success }),
    status: t.int({ description: 'The HTTP status the REST route answers with (400 when a value was refused).', resolve: (r) => r.status }),
    message: t.string({ nullable: true, description: 'A confirmation, for the writes that give one.', resolve: (r) => (typeof r.message === 'string' ? r.message : null) }),
    error: t.string({ nullable: true, description: 'Why nothing was stored, for the writes that say so.', resolve: (r) => (typeof r.error === 'string' ? r.error : null) }),
    failures: t.stringList({ nullable: true, description: 'The fields whose values were refused (nothing is stored then); null on success.', resolve: (r) => (Array.isArray(r.failures) ? r.failures.map(String) : null) }),
  }),
});

const ConfigurationStateRef = builder.objectRef<{ finishedSteps: string[] }>('SeoConfigurationState').implement({
  description: 'Where the configuration workflow stands.',
  fields: (t) => ({
    finishedSteps: t.exposeStringList('finishedSteps', { description: 'The steps that are finished, each once, in the order first saved.' }),
  }),
});

const CompanyOrPerson = builder.enumType('SeoCompanyOrPerson', {
  description: 'Whether the site represents a company or a person.',
  values: { COMPANY: { value: 'company', description: 'An organization.' }, PERSON: { value: 'person', description: 'One of the site\'s users.' } } as const,
});

const SiteRepresentationInput = builder.inputType('SeoSiteRepresentationInput', {
  description: 'Who the site represents (configuration/site_representation); each value absent is kept.',
  fields: (t) => ({
    companyOrPerson: t.field({ type: CompanyOrPerson, required: true, description: 'Whether the site represents a company or a person.' }),
    companyName: t.string({ required: false, description: 'The name of the company.' }),
    companyLogo: t.string({ required: false, description: 'The URL of the company logo (http or https).' }),
    companyLogoId: t.int({ required: false, description: 'The media id of the company logo.' }),
    personLogo: t.string({ required: false, description: 'The URL of the person logo (http or https).' }),
    personLogoId: t.int({ required: false, description: 'The media id of the person logo.' }),
    companyOrPersonUserId: t.int({ required: false, description: 'The user the site represents as a person.' }),
    description: t.string({ required: false, description: 'A description of the site.' }),
  }),
});

/** GraphQL's null for an optional value means "not given", as an absent REST parameter. */
const opt = <T>(v: T | null | undefined): T | undefined => (v === null ? undefined : v);

builder.queryFields((t) => ({
  seoConfigurationState: t.field({
    type: ConfigurationStateRef,
    description: 'The configuration workflow\'s state, as GET seo/v1/configuration/get_configuration_state (manage_options; deployment B).',
    resolve: async (_r, _a, ctx) => { requireSeo(ctx); return (await configurationState(ctx)).data as { finishedSteps: string[] }; },
  }),
  seoVideoEmbedPermission: t.boolean({
    description: 'Whether videos may be embedded for the caller, as GET seo/v1/video_embed_permission (edit_posts; deployment B).',
    resolve: async (_r, _a, ctx) => { requireSeo(ctx); return (await videoEmbedPermission(ctx)).value; },
  }),
  seoWorkouts: t.field({
    type: 'JSON',
    description: 'The stored workouts (`cornerstone`, `orphaned` …), as the `json` of GET seo/v1/workouts (edit_others_posts; deployment B).',
    resolve: async (_r, _a, ctx) => { requireSeo(ctx); return (await getWorkouts(ctx)).json; },
  }),
}));

builder.mutationFields((t) => ({
  dismissSeoAlert: t.field({
    type: ResultRef,
    description: 'Dismisses a notice for the caller, as POST seo/v1/alerts/dismiss (edit_posts; an unknown key is 400 rest_invalid_param; deployment B).',
    args: { key: t.arg.string({ required: true, description: 'The key of the alert to dismiss.' }) },
    resolve: (_r, a, ctx) => { requireSeo(ctx); return dismissAlert(ctx, a.key); },
  }),
  setSeoIntroductionSeen: t.field({
    type: ResultRef,
    description: 'Marks an introduction seen or unseen for the caller, as POST seo/v1/introductions/{id}/seen (edit_posts; deployment B).',
    args: {
      id: t.arg.string({ required: true, description: 'The introduction id (letters, digits, _ and -).' }),
      seen: t.arg.boolean({ required: false, defaultValue: true, description: 'Whether the introduction was seen.' }),
    },
    resolve: (_r, a, ctx) => { requireSeo(ctx); return setIntroductionSeen(ctx, a.id, a.seen !== false); },
  }),
  setSeoVideoEmbedPermission: t.boolean({
    description: 'Sets whether videos may be embedded for the caller and answers the stored value, as POST seo/v1/video_embed_permission (edit_posts; deployment B).',
    args: { value: t.arg.boolean({ required: false, defaultValue: true, description: 'Whether videos may be embedded for this user.' }) },
    resolve: async (_r, a, ctx) => { requireSeo(ctx); return (await videoEmbedPermission(ctx, a.value !== false)).value; },
  }),
  dismissSeoNewPostType: t.field({
    type: ResultRef,
    description: 'Hides the new-content notice of a post type, as POST seo/v1/new-content-type-visibility/dismiss-post-type (manage_options; a type the site lacks is 400 rest_invalid_param; deployment B).',
    args: { postTypeName: t.arg.string({ required: false, description: 'The post type whose new-content notice is dismissed.' }) },
    resolve: (_r, a, ctx) => { requireSeo(ctx); return dismissNewContentType(ctx, 'postType', opt(a.postTypeName)); },
  }),
  dismissSeoNewTaxonomy: t.field({
    type: ResultRef,
    description: 'Hides the new-content notice of a taxonomy, as POST seo/v1/new-content-type-visibility/dismiss-taxonomy (manage_options; a taxonomy the site lacks is 400 rest_invalid_param; deployment B).',
    args: { taxonomyName: t.arg.string({ required: false, description: 'The taxonomy whose new-content notice is dismissed.' }) },
    resolve: (_r, a, ctx) => { requireSeo(ctx); return dismissNewContentType(ctx, 'taxonomy', opt(a.taxonomyName)); },
  }),
  setSeoIntegrationActive: t.field({
    type: ResultRef,
    description: 'Switches an integration on or off, as POST seo/v1/integrations/set_active (manage_options; an unknown integration is 400 rest_invalid_param; deployment B).',
    args: {
      integration: t.arg.string({ required: true, description: 'The integration.' }),
      active: t.arg.boolean({ required: true, description: 'Whether the integration is active.' }),
    },
    resolve: (_r, a, ctx) => { requireSeo(ctx); return setIntegrationActive(ctx, a.integration, a.active); },
  }),
  saveSeoWorkouts: t.field({
    type: 'JSON',
    description: 'Stores the given workouts, keeping the others, and answers all of them, as the `json` of POST seo/v1/workouts (edit_others_posts; a workout that is not an object is 400 rest_invalid_param; deployment B).',
    args: {
      cornerstone: t.arg({ type: 'JSON', required: false, description: 'The cornerstone workout\'s state: an object.' }),
      orphaned: t.arg({ type: 'JSON', required: false, description: 'The orphaned-content workout\'s state: an object.' }),
    },
    resolve: async (_r, a, ctx) => { requireSeo(ctx); return (await saveWorkouts(ctx, { cornerstone: a.cornerstone, orphaned: a.orphaned })).json; },
  }),
  saveSeoSiteRepresentation: t.field({
    type: ResultRef,
    description: 'Stores who the site represents, as POST seo/v1/configuration/site_representation (manage_options; a user, media id or URL that does not fit gives success false, status 400 and the failures; deployment B).',
    args: { input: t.arg({ type: SiteRepresentationInput, required: true, description: 'The values to store.' }) },
    resolve: (_r, a, ctx) => {
      requireSeo(ctx);
      const i = a.input;
      return saveSiteRepresentation(ctx, {
        company_or_person: i.companyOrPerson, company_name: opt(i.companyName), company_logo: opt(i.companyLogo),
        company_logo_id: opt(i.companyLogoId), person_logo: opt(i.personLogo), person_logo_id: opt(i.personLogoId),
        company_or_person_user_id: opt(i.companyOrPersonUserId), description: opt(i.description),
      });
    },
  }),
  saveSeoSocialProfiles: t.field({
    type: ResultRef,
    description: 'Stores the social profiles, as the `json` of POST seo/v1/configuration/social_profiles (manage_options; URLs that do not fit give success false, status 400 and the failures; deployment B).',
    args: {
      networkASite: t.arg.string({ required: false, description: 'The profile URL on the first social network.' }),
      networkBSite: t.arg.string({ required: false, description: 'The profile URL or handle on the second social network.' }),
      otherSocialUrls: t.arg.stringList({ required: false, description: 'Other profile URLs; given, they replace the stored ones.' }),
    },
    resolve: async (_r, a, ctx) => {
      requireSeo(ctx);
      return (await saveSocialProfiles(ctx, {
        network_a_site: opt(a.networkASite), network_b_site: opt(a.networkBSite), other_social_urls: opt(a.otherSocialUrls),
      })).json;
    },
  }),
  setSeoTracking: t.field({
    type: ResultRef,
    description: 'Switches usage tracking on or off, as POST seo/v1/configuration/enable_tracking (manage_options; deployment B).',
    args: { tracking: t.arg.boolean({ required: true, description: 'Whether usage tracking is enabled.' }) },
    resolve: (_r, a, ctx) => { requireSeo(ctx); return setTracking(ctx, a.tracking); },
  }),
  saveSeoConfigurationState: t.field({
    type: ResultRef,
    description: 'Stores the finished steps of the configuration workflow (each once), as POST seo/v1/configuration/save_configuration_state (manage_options; deployment B).',
    args: { finishedSteps: t.arg.stringList({ required: true, description: 'The steps of the configuration workflow that are finished.' }) },
    resolve: (_r, a, ctx) => { requireSeo(ctx); return saveConfigurationState(ctx, a.finishedSteps); },
  }),
}));
