// Read-only REST helpers over GraphQL: the seo/v1 dashboard scores, statistics and head of a URL (deployment B),
// the oEmbed data of the site's items, the block editor's link previews and fallback navigation and the site-health checks. Each field runs the service
// function its REST route runs (src/seo/scores, src/navigation, src/site-health) with the settings
// the app registered for REST, so rights, validation and error codes are the same. The answers
// are the REST bodies as JSON, except the health checks, which have WordPress's fixed shape.
import { builder } from '../builder.js';
import { requireSeo } from '../seo/site/index.js';
import { scoreBuckets, seoStatistics } from '../../seo/scores/service.js';
import { headByUrl, type HeadByUrl } from '../../seo/head/by-url.js';
import { navigationFallback } from '../../navigation/fallback.js';
import { urlDetails } from '../../url-details/service.js';
import { oembedFor } from '../../oembed/embed.js';
import type { UrlDetails } from '../../url-details/details.js';
import { HEALTH_TESTS, directorySizes, healthOptions, requireManageOptions, type HealthResult } from '../../site-health/checks.js';

const ScoreKind = builder.enumType('SeoScoreKind', {
  description: 'Which score the dashboard buckets count.',
  values: {
    SEO: { value: 'seo', description: 'The SEO score (GET seo/v1/seo_scores).' },
    READABILITY: { value: 'readability', description: 'The readability score (GET seo/v1/readability_scores).' },
  } as const,
});

const TEST_NAMES: Record<string, string> = {
  database: 'DATABASE', 'uploads-directory': 'UPLOADS_DIRECTORY', 'page-cache': 'PAGE_CACHE',
  'loopback-requests': 'LOOPBACK_REQUESTS', 'authorization-header': 'AUTHORIZATION_HEADER', 'https-status': 'HTTPS_STATUS',
};

const SiteHealthTest = builder.enumType('SiteHealthTest', {
  description: 'A site-health test, by its REST route.',
  values: Object.fromEntries(Object.keys(HEALTH_TESTS).map((name) => [TEST_NAMES[name] ?? name.toUpperCase().replace(/-/g, '_'), {
    value: name, description: `GET site-health/v1/tests/${name}.`,
  }])) as Record<string, { value: string; description: string }>,
});

const BadgeRef = builder.objectRef<HealthResult['badge']>('SiteHealthBadge').implement({
  description: 'The category a test is grouped in.',
  fields: (t) => ({
    label: t.string({ description: 'The category.', resolve: (b) => b.label }),
    color: t.string({ description: 'The badge colour.', resolve: (b) => b.color }),
  }),
});

const HealthResultRef = builder.objectRef<HealthResult>('SiteHealthResult').implement({
  description: 'The result of a site-health test, as WordPress\'s wp-site-health-test object.',
  fields: (t) => ({
    test: t.string({ description: 'The name of the test.', resolve: (r) => r.test }),
    label: t.string({ description: 'A label describing the outcome.', resolve: (r) => r.label }),
    status: t.string({ description: '`good`, `recommended` or `critical`.', resolve: (r) => r.status }),
    badge: t.field({ type: BadgeRef, description: 'The category this test is grouped in.', resolve: (r) => r.badge }),
    description: t.string({ description: 'What the test looks for and why it matters (HTML).', resolve: (r) => r.description }),
    actions: t.string({ description: 'HTML with an action to resolve the issue; empty when there is none.', resolve: (r) => r.actions }),
  }),
});

const UrlDetailsRef = builder.objectRef<UrlDetails>('UrlDetails').implement({
  description: 'A link preview: the details of a page read from its head, as GET block-editor/v1/url-details answers them.',
  fields: (t) => ({
    title: t.string({ description: 'The contents of the <title> element from the URL.', resolve: (d) => d.title }),
    icon: t.string({ description: 'The absolute URL of the page\'s icon; empty when it names none.', resolve: (d) => d.icon }),
    description: t.string({ description: 'The content of the description meta element (or the Open Graph description).', resolve: (d) => d.description }),
    image: t.string({ description: 'The absolute URL of the page\'s Open Graph image; empty when it names none.', resolve: (d) => d.image }),
  }),
});

const HeadByUrlRef = builder.objectRef<HeadByUrl>('SeoHeadByUrl').implement({
  description: 'The SEO head of a URL of the site, as GET seo/v1/get_head answers it.',
  fields: (t) => ({
    html: t.string({ description: 'The head as HTML.', resolve: (h) => h.html }),
    json: t.field({ type: 'JSON', description: 'The head as an object.', resolve: (h) => h.json }),
    status: t.int({ description: 'The HTTP status the page answers with (404 for what resolves to nothing); REST answers with it.', resolve: (h) => h.status }),
  }),
});

builder.queryFields((t) => ({
  oembed: t.field({
    type: 'JSON',
    description: 'The oEmbed data of an item of the site, decided as for an anonymous reader, as the JSON of GET oembed/1.0/embed (public; what cannot be embedded is 404 oembed_invalid_url; the XML format is REST only).',
    args: {
      url: t.arg.string({ required: true, description: 'The URL of the item.' }),
      maxwidth: t.arg.int({ required: false, description: 'The largest width of the embed (clamped to 200–600; default 600).' }),
    },
    resolve: (_r, a, ctx) => oembedFor(ctx, a.url, a.maxwidth ?? 600),
  }),
  seoHeadByUrl: t.field({
    type: HeadByUrlRef,
    description: 'The SEO head of any URL of the site as an anonymous reader sees the page, as GET seo/v1/get_head (public; a URL that is not absolute http(s) is 400 rest_invalid_param; deployment B).',
    args: { url: t.arg.string({ required: true, description: 'The URL to get the head for.' }) },
    resolve: (_r, a, ctx) => { requireSeo(ctx); return headByUrl(ctx, a.url); },
  }),
  urlDetails: t.field({
    type: UrlDetailsRef,
    description: 'Fetches a page (through the guarded client, with the REST route\'s allow-list and cache) and reads its details, as GET block-editor/v1/url-details (a URL that is not absolute http(s) is 400 rest_invalid_param, checked first; edit_posts, refused with rest_cannot_view_url_details).',
    args: { url: t.arg.string({ required: true, description: 'The URL to process.' }) },
    resolve: (_r, a, ctx) => urlDetails(ctx, a.url),
  }),
  seoScores: t.field({
    type: 'JSON',
    description: 'The dashboard\'s score buckets of published items of a content type, as GET seo/v1/seo_scores or seo/v1/readability_scores (`{scores, cache_used}`; edit_posts; an unknown content type, taxonomy or term is 400 rest_invalid_param; deployment B).',
    args: {
      kind: t.arg({ type: ScoreKind, required: true, description: 'Which score is counted.' }),
      contentType: t.arg.string({ required: true, description: 'The content type whose items are counted (post or page).' }),
      taxonomy: t.arg.string({ required: false, description: 'A taxonomy to filter by; empty or absent for none.' }),
      term: t.arg.int({ required: false, description: 'The term of the taxonomy to filter by.' }),
    },
    resolve: (_r, a, ctx) => {
      requireSeo(ctx);
      return scoreBuckets(ctx, a.kind, { contentType: a.contentType, taxonomy: a.taxonomy ?? '', term: a.term ?? null });
    },
  }),
  seoStatistics: t.field({
    type: 'JSON',
    description: 'Published posts and pages per SEO rank, as GET seo/v1/statistics (`{header, seo_scores}`; read; deployment B).',
    resolve: (_r, _a, ctx) => { requireSeo(ctx); return seoStatistics(ctx); },
  }),
  navigationFallback: t.field({
    type: 'JSON',
    description: 'The fallback navigation of the site, as GET block-editor/v1/navigation-fallback (edit_theme_options; refused with rest_cannot_create).',
    resolve: (_r, _a, ctx) => navigationFallback(ctx),
  }),
  siteHealthCheck: t.field({
    type: HealthResultRef,
    description: 'Runs one site-health test, as GET site-health/v1/tests/{test} (manage_options).',
    args: { test: t.arg({ type: SiteHealthTest, required: true, description: 'The test to run.' }) },
    resolve: (_r, a, ctx) => {
      requireManageOptions(ctx);
      return HEALTH_TESTS[a.test](ctx.db, healthOptions(ctx));
    },
  }),
  siteHealthDirectorySizes: t.field({
    type: 'JSON',
    description: 'The sizes of the uploads, the database and their total, as GET site-health/v1/directory-sizes (`{uploads_size, database_size, total_size}`, each `{size, debug, raw}`; manage_options).',
    resolve: (_r, _a, ctx) => { requireManageOptions(ctx); return directorySizes(ctx.db, healthOptions(ctx)); },
  }),
}));
