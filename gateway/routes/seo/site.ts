// seo/v1 site routes: settings of the configuration workflow, per-user notices, custom-field
// search, workouts, file sizes, the content importer and the external keyphrase providers.
// None is a resource: the plugin answers fixed shapes (`{success, status, …}` with the HTTP
// status mirroring `status`, or `{json: …}`), and registers no schema. The rules live in
// src/seo/{site,import,providers}; handlers only read params and shape the answer.
import { readFile } from 'node:fs/promises';
import type { ArgDef, Endpoint, GatewayRequest, RouteEntry, RouteResult } from '../../types.js';
import type { SeoRouteOptions } from './options.js';
import { clampInt } from '../../int-range.js';
import {
  checkCapability, configurationState, dismissAlert, dismissNewContentType, getWorkouts, requireCap, saveConfigurationState,
  saveSiteRepresentation, saveSocialProfiles, saveWorkouts, searchPostMeta, setIntegrationActive, setIntroductionSeen, setTracking,
  videoEmbedPermission,
} from '../../../src/seo/site/service.js';
import { fileSize } from '../../../src/seo/site/file-size.js';
import { importAnswer, runImport } from '../../../src/seo/import/service.js';
import { createProviders, keyphrasesToTrack, keyphraseToUntrack } from '../../../src/seo/providers/index.js';

const NS = 'seo/v1';
const route = (path: string, ...endpoints: Endpoint[]): RouteEntry => ({ namespace: NS, pattern: `/${NS}/${path}`, endpoints });

/** A `{success, status, …}` answer, sent with the HTTP status it names. */
const mirrored = (body: { status: number }): RouteResult => ({ status: body.status, body });
const str = (v: unknown) => (v === undefined || v === null ? undefined : String(v));
const strings = (v: unknown): string[] => (Array.isArray(v) ? v.map(String) : v === undefined || v === null || v === '' ? [] : [String(v)]);

export function seoSiteRoutes(o: SeoRouteOptions): RouteEntry[] {
  const providers = createProviders(o.providers ?? {});
  const allowHosts = o.providers?.allowHosts ?? [];
  const chunk = o.importChunkSize ?? 50;
  const edit = (cap: string, handler: (req: GatewayRequest) => Promise<RouteResult>) => async (req: GatewayRequest) => { requireCap(req.ctx, cap); return handler(req); };

  const representation: Record<string, ArgDef> = {
    company_or_person: { description: 'Whether the site represents a company or a person.', type: 'string', enum: ['company', 'person'], required: true },
    company_name: { description: 'The name of the company.', type: 'string' },
    company_logo: { description: 'The URL of the company logo.', type: 'string' },
    company_logo_id: { description: 'The media id of the company logo.', type: 'integer' },
    person_logo: { description: 'The URL of the person logo.', type: 'string' },
    person_logo_id: { description: 'The media id of the person logo.', type: 'integer' },
    company_or_person_user_id: { description: 'The user the site represents as a person.', type: 'integer' },
    description: { description: 'A description of the site.', type: 'string' },
  };

  return [
    route('file_size', {
      methods: ['GET'], permission: 'manage_options',
      args: { url: { description: 'The URL of the file.', type: 'string', required: true } },
      handler: edit('manage_options', async (req) => {
        const answer = await fileSize(String(req.params.url), { storage: req.ctx.media?.storage ?? null, allowHosts });
        return { status: answer.type === 'success' ? 200 : 404, body: answer };
      }),
    }),
    route('new-content-type-visibility/dismiss-post-type', {
      methods: ['POST'], permission: 'manage_options',
      args: { postTypeName: { description: 'The post type whose new-content notice is dismissed.' } },
      handler: async (req) => mirrored(await dismissNewContentType(req.ctx, 'postType', req.params.postTypeName)),
    }),
    route('new-content-type-visibility/dismiss-taxonomy', {
      methods: ['POST'], permission: 'manage_options',
      args: { taxonomyName: { description: 'The taxonomy whose new-content notice is dismissed.' } },
      handler: async (req) => mirrored(await dismissNewContentType(req.ctx, 'taxonomy', req.params.taxonomyName)),
    }),
    route('introductions/(?P<introduction_id>[\\w-]+)/seen', {
      methods: ['POST'], permission: 'edit_posts',
      args: {
        introduction_id: { description: 'The introduction id.', type: 'string', required: true },
        is_seen: { description: 'Whether the introduction was seen.', type: 'boolean', default: true },
      },
      handler: async (req) => mirrored(await setIntroductionSeen(req.ctx, String(req.params.introduction_id), req.params.is_seen !== false)),
    }),
    route('video_embed_permission',
      {
        methods: ['GET'], permission: 'edit_posts', args: {},
        handler: async (req) => ({ status: 200, body: await videoEmbedPermission(req.ctx) }),
      },
      {
        methods: ['POST'], permission: 'edit_posts',
        args: { value: { description: 'Whether videos may be embedded for this user.', type: 'boolean', default: true } },
        handler: async (req) => ({ status: 200, body: await videoEmbedPermission(req.ctx, req.params.value !== false) }),
      }),
    route('alerts/dismiss', {
      methods: ['POST'], permission: 'edit_posts',
      args: { key: { description: 'The key of the alert to dismiss.', required: true } },
      handler: async (req) => mirrored(await dismissAlert(req.ctx, req.params.key)),
    }),
    route('configuration/site_representation', {
      methods: ['POST'], permission: 'manage_options', args: representation,
      handler: async (req) => {
        const p = req.params;
        const int = (v: unknown) => (v === undefined ? undefined : Number(v));
        return mirrored(await saveSiteRepresentation(req.ctx, {
          company_or_person: p.company_or_person as 'company' | 'person', company_name: str(p.company_name), company_logo: str(p.company_logo),
          company_logo_id: int(p.company_logo_id), person_logo: str(p.person_logo), person_logo_id: int(p.person_logo_id),
          company_or_person_user_id: int(p.company_or_person_user_id), description: str(p.description),
        }));
      },
    }),
    route('configuration/social_profiles', {
      methods: ['POST'], permission: 'manage_options',
      args: {
        network_a_site: { description: 'The profile URL on the first social network.', type: 'string' },
        network_b_site: { description: 'The profile URL or handle on the second social network.', type: 'string' },
        other_social_urls: { description: 'Other profile URLs.', type: 'array' },
      },
      handler: async (req) => {
        const p = req.params;
        const answer = await saveSocialProfiles(req.ctx, {
          network_a_site: str(p.network_a_site), network_b_site: str(p.network_b_site),
          other_social_urls: p.other_social_urls === undefined ? undefined : (p.other_social_urls as string[]),
        });
        return { status: answer.json.status, body: answer };
      },
    }),
    route('configuration/check_capability', {
      methods: ['GET'], permission: 'manage_options',
      args: { user_id: { description: 'The user to check.', required: true } },
      handler: async (req) => mirrored(await checkCapability(req.ctx, clampInt(Number.parseInt(String(req.params.user_id), 10) || 0))),
    }),
    route('configuration/enable_tracking', {
      methods: ['POST'], permission: 'manage_options',
      args: { tracking: { description: 'Whether usage tracking is enabled.', type: 'boolean', required: true } },
      handler: async (req) => mirrored(await setTracking(req.ctx, req.params.tracking === true)),
    }),
    route('configuration/save_configuration_state', {
      methods: ['POST'], permission: 'manage_options',
      args: { finishedSteps: { description: 'The steps of the configuration workflow that are finished.', type: 'array', required: true } },
      handler: async (req) => mirrored(await saveConfigurationState(req.ctx, req.params.finishedSteps as unknown[])),
    }),
    route('configuration/get_configuration_state', {
      methods: ['GET'], permission: 'manage_options', args: {},
      handler: async (req) => mirrored(await configurationState(req.ctx)),
    }),
    route('import/(?P<plugin>[\\w-]+)/(?P<type>[\\w-]+)', {
      // The export comes as the multipart field `file` or as the whole body; an empty body goes on with the pending job.
      methods: ['POST'], permission: 'manage_options', args: {}, upload: true,
      uploadRefusal: { code: 'rest_forbidden', message: 'Sorry, you are not allowed to do that.' },
      handler: async (req) => {
        const file = req.upload?.file;
        const document = file ? await readFile(file.path, 'utf8') : null;
        const plugin = req.pathParams.plugin;
        const type = req.pathParams.type;
        const p = await runImport(req.ctx, plugin, type, document, chunk);
        return { status: p.status, body: importAnswer(p, req.root, plugin, type) };
      },
    }),
    route('integrations/set_active', {
      methods: ['POST'], permission: 'manage_options',
      args: {
        active: { description: 'Whether the integration is active.', type: 'boolean', required: true },
        integration: { description: 'The integration.', type: 'string', required: true },
      },
      handler: async (req) => mirrored(await setIntegrationActive(req.ctx, String(req.params.integration), req.params.active === true)),
    }),
    route('meta/search', {
      methods: ['GET'], permission: 'edit_posts', args: {},
      handler: async (req) => ({
        status: 200,
        body: await searchPostMeta(req.ctx, clampInt(Number.parseInt(String(req.params.post_id ?? ''), 10) || 0), String(req.params.query ?? '')),
      }),
    }),
    route('keyphrase-provider-a/authenticate', {
      methods: ['POST'], permission: 'manage_options',
      args: { code: { description: 'The authorization code the provider gave.', required: true } },
      handler: edit('manage_options', async (req) => mirrored(await providers.keyphrase.authenticate(req.ctx, String(req.params.code)))),
    }),
    route('keyphrase-provider-a/country_code', {
      methods: ['POST'], permission: 'manage_options',
      args: { country_code: { description: 'The country database to use by default.', required: true } },
      handler: edit('manage_options', async (req) => mirrored(await providers.keyphrase.setCountryCode(req.ctx, String(req.params.country_code)))),
    }),
    route('keyphrase-provider-a/related_keyphrases', {
      methods: ['GET'], permission: 'edit_posts',
      args: {
        keyphrase: { description: 'The keyphrase.', required: true },
        country_code: { description: 'The country database.', required: true },
      },
      handler: edit('edit_posts', async (req) => mirrored(await providers.keyphrase.related(req.ctx, String(req.params.keyphrase), String(req.params.country_code)))),
    }),
    route('rank-tracker/authorization-url', {
      methods: ['GET'], permission: 'manage_options', args: {},
      handler: edit('manage_options', async (req) => mirrored(providers.rankTracker.authorizationUrl(`${req.root}${NS}/rank-tracker/authenticate`))),
    }),
    route('rank-tracker/authenticate', {
      methods: ['POST'], permission: 'manage_options',
      args: {
        code: { description: 'The authorization code the rank tracker gave.', required: true },
        websiteId: { description: 'The rank tracker\'s id of this site.', required: true },
      },
      handler: edit('manage_options', async (req) => mirrored(await providers.rankTracker.authenticate(req.ctx, String(req.params.code), String(req.params.websiteId)))),
    }),
    route('rank-tracker/keyphrases/track', {
      methods: ['POST'], permission: 'edit_posts',
      args: { keyphrases: { description: 'The keyphrases to track.', required: true } },
      handler: edit('edit_posts', async (req) => mirrored(await providers.rankTracker.track(req.ctx, keyphrasesToTrack(req.params.keyphrases)))),
    }),
    route('rank-tracker/keyphrases', {
      methods: ['POST'], permission: 'edit_posts',
      args: {
        keyphrases: { description: 'Only these keyphrases.' },
        permalink: { description: 'Only positions of this URL.' },
        startAt: { description: 'Positions since this date.' },
      },
      handler: edit('edit_posts', async (req) => {
        const p = req.params;
        return mirrored(await providers.rankTracker.keyphrases(req.ctx, {
          keyphrases: p.keyphrases === undefined ? undefined : strings(p.keyphrases), permalink: str(p.permalink), startAt: str(p.startAt),
        }));
      }),
    }),
    route('rank-tracker/keyphrases/untrack', {
      methods: ['DELETE'], permission: 'edit_posts', args: {},
      handler: edit('edit_posts', async (req) => mirrored(await providers.rankTracker.untrack(req.ctx, keyphraseToUntrack(req.params.keyphrase)))),
    }),
    route('rank-tracker/account/limit', {
      methods: ['GET'], permission: 'edit_posts', args: {},
      handler: edit('edit_posts', async (req) => mirrored(await providers.rankTracker.limit(req.ctx))),
    }),
    route('rank-tracker/account/upgrade-campaign', {
      methods: ['GET'], permission: 'edit_posts', args: {},
      handler: edit('edit_posts', async (req) => mirrored(await providers.rankTracker.upgradeCampaign(req.ctx))),
    }),
    route('workouts',
      { methods: ['GET'], permission: 'edit_others_posts', args: {}, handler: async (req) => ({ status: 200, body: await getWorkouts(req.ctx) }) },
      { methods: ['POST'], permission: 'edit_others_posts', args: {}, handler: async (req) => ({ status: 200, body: await saveWorkouts(req.ctx, req.params) }) }),
  ];
}
