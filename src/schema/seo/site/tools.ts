// The remaining seo/v1 site routes over GraphQL (deployment B): file sizes, custom-field search,
// the capability check of the configuration workflow, the content importer and the external
// keyphrase providers. Each field runs what its REST route runs (src/seo/site, src/seo/import,
// src/seo/providers) with the providers, hosts and chunk size the app gave its REST routes (its
// SEO services, src/seo/services.ts), so rights, validation and error codes are the same. In
// deployment A every field refuses as an unknown REST route would (rest_no_route, 404).
import { builder } from '../../builder.js';
import { ResultRef, requireSeo } from './index.js';
import { checkCapability, requireCap, searchPostMeta } from '../../../seo/site/service.js';
import { fileSize, type FileSizeAnswer } from '../../../seo/site/file-size.js';
import { importAnswer, runImport, type ImportAnswer } from '../../../seo/import/service.js';
import { keyphrasesToTrack, keyphraseToUntrack } from '../../../seo/providers/index.js';

const FileSizeRef = builder.objectRef<FileSizeAnswer>('SeoFileSize').implement({
  description: 'The size of a file by its URL, as GET seo/v1/file_size answers it (`{type, size_in_bytes}` or `{type, response}`).',
  fields: (t) => ({
    type: t.string({ description: '`success` when the size is known, `failure` otherwise (REST answers 404 then).', resolve: (r) => r.type }),
    sizeInBytes: t.float({ nullable: true, description: 'The size in bytes; null on failure.', resolve: (r) => (r.type === 'success' ? r.size_in_bytes : null) }),
    response: t.string({ nullable: true, description: 'Why the size is unknown; null on success.', resolve: (r) => (r.type === 'failure' ? r.response : null) }),
  }),
});

const MetaFieldRef = builder.objectRef<{ key: string; value: string }>('SeoMetaField').implement({
  description: 'A custom field of a post.',
  fields: (t) => ({
    key: t.exposeString('key', { description: 'The meta key.' }),
    value: t.exposeString('value', { description: 'The meta value.' }),
  }),
});

const ImportErrorRef = builder.objectRef<ImportAnswer['errors'][number]>('SeoImportError').implement({
  description: 'A unit of the export that could not be imported.',
  fields: (t) => ({
    item: t.exposeString('item', { description: 'The unit: `author {login}`, `{taxonomy} {slug}` or `{type} {id} ({slug})`.' }),
    code: t.exposeString('code', { description: 'The WordPress error code of the failure.' }),
    message: t.exposeString('message', { description: 'What went wrong.' }),
  }),
});

const ImportProgressRef = builder.objectRef<ImportAnswer>('SeoImportProgress').implement({
  description: 'One step of an import, as POST seo/v1/import/{plugin}/{type} answers it.',
  fields: (t) => ({
    success: t.boolean({ description: 'Whether the step ran.', resolve: (r) => r.success }),
    status: t.int({ description: 'The HTTP status the REST route answers with.', resolve: (r) => r.status }),
    total: t.int({ description: 'Units in the export: authors, terms and items.', resolve: (r) => r.total }),
    imported: t.int({ description: 'Units imported so far.', resolve: (r) => r.imported }),
    skipped: t.int({ description: 'Units skipped so far (already on the site, or of a kind not imported).', resolve: (r) => r.skipped }),
    nextUrl: t.string({ nullable: true, description: 'The REST address to call again while more is to do (or run this mutation again without a document); null once done (REST: `next_url` false).', resolve: (r) => (r.next_url === false ? null : r.next_url) }),
    errors: t.field({ type: [ImportErrorRef], description: 'The units that failed so far.', resolve: (r) => r.errors }),
  }),
});

const PROVIDER_BODY = 'the REST body as a JSON object (`{status, …}`)';

builder.queryFields((t) => ({
  seoFileSize: t.field({
    type: FileSizeRef,
    description: 'The size of a file by its URL, as GET seo/v1/file_size (manage_options; the site\'s uploads from the media storage, other URLs asked of their server; deployment B).',
    args: { url: t.arg.string({ required: true, description: 'The URL of the file.' }) },
    resolve: (_r, a, ctx) => {
      requireSeo(ctx);
      requireCap(ctx, 'manage_options');
      return fileSize(a.url, { storage: ctx.media?.storage ?? null, allowHosts: ctx.services.seo.allowHosts });
    },
  }),
  seoMetaSearch: t.field({
    type: [MetaFieldRef],
    description: 'Up to three custom fields of a post whose key starts with the query (private `_` keys left out when it is empty), as the `meta` of GET seo/v1/meta/search (edit_posts and the right to edit that post, else rest_forbidden; deployment B).',
    args: {
      postId: t.arg.int({ required: true, description: 'The post whose custom fields are searched.' }),
      query: t.arg.string({ required: false, defaultValue: '', description: 'The start of the meta key (case-sensitive).' }),
    },
    resolve: async (_r, a, ctx) => {
      requireSeo(ctx);
      requireCap(ctx, 'edit_posts');
      return (await searchPostMeta(ctx, a.postId, a.query ?? '')).meta;
    },
  }),
  seoCheckCapability: t.field({
    type: ResultRef,
    description: 'Whether the caller may edit a user the site is to represent, as GET seo/v1/configuration/check_capability (manage_options; an unknown user gives success false and status 404; deployment B).',
    args: { userId: t.arg.int({ required: true, description: 'The user to check.' }) },
    resolve: (_r, a, ctx) => { requireSeo(ctx); return checkCapability(ctx, a.userId); },
  }),
  seoRelatedKeyphrases: t.field({
    type: 'JSON',
    description: `Related keyphrases from the keyphrase provider, as GET seo/v1/keyphrase-provider-a/related_keyphrases: ${PROVIDER_BODY} with the provider's \`results\` (edit_posts; seo_provider_not_configured / seo_provider_not_authenticated 400 before any call; deployment B).`,
    args: {
      keyphrase: t.arg.string({ required: true, description: 'The keyphrase.' }),
      countryCode: t.arg.string({ required: true, description: 'The country database.' }),
    },
    resolve: (_r, a, ctx) => {
      requireSeo(ctx);
      requireCap(ctx, 'edit_posts');
      return ctx.services.seo.providers.keyphrase.related(ctx, a.keyphrase, a.countryCode);
    },
  }),
  seoRankTrackerAuthorizationUrl: t.field({
    type: 'JSON',
    description: `Where to send the user to connect the site to the rank tracker, as GET seo/v1/rank-tracker/authorization-url: ${PROVIDER_BODY} with \`url\` (its redirect is the REST authenticate route; manage_options; deployment B).`,
    resolve: (_r, _a, ctx) => {
      requireSeo(ctx);
      requireCap(ctx, 'manage_options');
      const s = ctx.services.seo;
      return s.providers.rankTracker.authorizationUrl(`${s.restRoot}seo/v1/rank-tracker/authenticate`);
    },
  }),
  seoRankTrackerLimit: t.field({
    type: 'JSON',
    description: `The rank tracker account's usage and limit, as GET seo/v1/rank-tracker/account/limit: ${PROVIDER_BODY} with \`usage\` and \`limit\` (edit_posts; deployment B).`,
    resolve: (_r, _a, ctx) => { requireSeo(ctx); requireCap(ctx, 'edit_posts'); return ctx.services.seo.providers.rankTracker.limit(ctx); },
  }),
  seoRankTrackerUpgradeCampaign: t.field({
    type: 'JSON',
    description: `The rank tracker's upgrade offer, as GET seo/v1/rank-tracker/account/upgrade-campaign: ${PROVIDER_BODY} with the provider's \`campaign\` (edit_posts; deployment B).`,
    resolve: (_r, _a, ctx) => { requireSeo(ctx); requireCap(ctx, 'edit_posts'); return ctx.services.seo.providers.rankTracker.upgradeCampaign(ctx); },
  }),
}));

builder.mutationFields((t) => ({
  runSeoImport: t.field({
    type: ImportProgressRef,
    description: 'One step of importing an export, as POST seo/v1/import/{plugin}/{type} (manage_options; unknown plugin or type 400 seo_import_unknown_plugin / seo_import_unknown_type, a broken document 400 seo_import_invalid_file, no document and nothing pending 400 seo_import_no_file; deployment B). The export is given as its text: the importer reads one XML document, so a String fits it without an upload.',
    args: {
      plugin: t.arg.string({ required: true, description: 'The importer (`wxr`).' }),
      type: t.arg.string({ required: true, description: 'What it imports (`content`).' }),
      document: t.arg.string({ required: false, description: 'The export (WXR) as text: starts a new import, replacing a pending one. Absent or empty goes on with the pending import, as an empty REST body does.' }),
    },
    resolve: async (_r, a, ctx) => {
      requireSeo(ctx);
      const s = ctx.services.seo;
      const p = await runImport(ctx, a.plugin, a.type, a.document ? a.document : null, s.importChunkSize);
      return importAnswer(p, s.restRoot, a.plugin, a.type);
    },
  }),
  authenticateSeoKeyphraseProvider: t.field({
    type: 'JSON',
    description: `Trades the keyphrase provider's authorization code for tokens kept for the site, as POST seo/v1/keyphrase-provider-a/authenticate: ${PROVIDER_BODY} with \`tokens\` (manage_options; a code the provider refuses is 400 seo_provider_error; deployment B).`,
    args: { code: t.arg.string({ required: true, description: 'The authorization code the provider gave.' }) },
    resolve: (_r, a, ctx) => { requireSeo(ctx); requireCap(ctx, 'manage_options'); return ctx.services.seo.providers.keyphrase.authenticate(ctx, a.code); },
  }),
  setSeoKeyphraseCountryCode: t.field({
    type: 'JSON',
    description: `Stores the keyphrase provider's default country database, as POST seo/v1/keyphrase-provider-a/country_code: ${PROVIDER_BODY} with \`country_code\` (manage_options; not two letters is 400 rest_invalid_param; deployment B).`,
    args: { countryCode: t.arg.string({ required: true, description: 'The country database to use by default (two letters).' }) },
    resolve: (_r, a, ctx) => { requireSeo(ctx); requireCap(ctx, 'manage_options'); return ctx.services.seo.providers.keyphrase.setCountryCode(ctx, a.countryCode); },
  }),
  authenticateSeoRankTracker: t.field({
    type: 'JSON',
    description: `Trades the rank tracker's authorization code for tokens kept for the site, as POST seo/v1/rank-tracker/authenticate: ${PROVIDER_BODY} with \`data.website_id\` (manage_options; deployment B).`,
    args: {
      code: t.arg.string({ required: true, description: 'The authorization code the rank tracker gave.' }),
      websiteId: t.arg.string({ required: true, description: 'The rank tracker\'s id of this site.' }),
    },
    resolve: (_r, a, ctx) => { requireSeo(ctx); requireCap(ctx, 'manage_options'); return ctx.services.seo.providers.rankTracker.authenticate(ctx, a.code, a.websiteId); },
  }),
  trackSeoKeyphrases: t.field({
    type: 'JSON',
    description: `Starts tracking keyphrases, as POST seo/v1/rank-tracker/keyphrases/track: ${PROVIDER_BODY} with the tracker's \`results\`, status 201 (edit_posts; none left after trimming is 400 rest_invalid_param; deployment B).`,
    args: { keyphrases: t.arg.stringList({ required: true, description: 'The keyphrases to track (trimmed; blanks left out).' }) },
    resolve: (_r, a, ctx) => {
      requireSeo(ctx);
      requireCap(ctx, 'edit_posts');
      return ctx.services.seo.providers.rankTracker.track(ctx, keyphrasesToTrack(a.keyphrases));
    },
  }),
  seoRankTrackerKeyphrases: t.field({
    type: 'JSON',
    description: `The tracked keyphrases and their positions, as POST seo/v1/rank-tracker/keyphrases (a read the REST API sends as POST): ${PROVIDER_BODY} with the tracker's \`results\` (edit_posts; deployment B).`,
    args: {
      keyphrases: t.arg.stringList({ required: false, description: 'Only these keyphrases.' }),
      permalink: t.arg.string({ required: false, description: 'Only positions of this URL.' }),
      startAt: t.arg.string({ required: false, description: 'Positions since this date.' }),
    },
    resolve: (_r, a, ctx) => {
      requireSeo(ctx);
      requireCap(ctx, 'edit_posts');
      return ctx.services.seo.providers.rankTracker.keyphrases(ctx, {
        keyphrases: a.keyphrases ?? undefined, permalink: a.permalink ?? undefined, startAt: a.startAt ?? undefined,
      });
    },
  }),
  untrackSeoKeyphrase: t.field({
    type: 'JSON',
    description: `Stops tracking a keyphrase, as DELETE seo/v1/rank-tracker/keyphrases/untrack: ${PROVIDER_BODY} (edit_posts; blank is 400 rest_invalid_param; deployment B).`,
    args: { keyphrase: t.arg.string({ required: true, description: 'The keyphrase to stop tracking.' }) },
    resolve: (_r, a, ctx) => {
      requireSeo(ctx);
      requireCap(ctx, 'edit_posts');
      return ctx.services.seo.providers.rankTracker.untrack(ctx, keyphraseToUntrack(a.keyphrase));
    },
  }),
}));
