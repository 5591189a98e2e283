// Who may call what: anonymous and the five roles × every route and method of the route table.
// The table is read from the running app, so a new route joins the matrix by itself and fails
// it until its expectations are declared below (one line per route and method group).
// The site runs deployment B, the larger one: every route of A plus seo/v1.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createTestSite, type TestSite, type TestUser } from '../helpers/app.js';
import { ROLES, type Role } from '../../src/auth/capabilities.js';
import { createApplicationPassword, createUser } from '../../src/site/operator.js';
import type { Method } from '../../gateway/types.js';

type Who = 'anonymous' | Role;
const WHO: Who[] = ['anonymous', ...ROLES];

/** An expected answer: "201", or "403 rest_cannot_create" (status and WordPress code). */
type Answer = string;
interface Cell {
  expect: Record<Who, Answer>;
  /** JSON body for writes; `n` makes values unique per cell. */
  body?: (n: number) => Record<string, unknown>;
  query?: () => string;
}

const all = (answer: Answer): Cell => ({ expect: Object.fromEntries(WHO.map((w) => [w, answer])) as Record<Who, Answer> });
/** `roles` get `ok`; everyone else is refused with `code`: 401 anonymous, 403 signed in. */
const only = (ok: Answer, roles: readonly Role[], code: string): Cell => ({
  expect: Object.fromEntries(WHO.map((w) => [w, w !== 'anonymous' && roles.includes(w) ? ok : `${w === 'anonymous' ? 401 : 403} ${code}`])) as Record<Who, Answer>,
});
/** Every signed-in role gets `ok`; anonymous gets `anon`. */
const signedIn = (ok: Answer, anon: Answer): Cell => ({ expect: Object.fromEntries(WHO.map((w) => [w, w === 'anonymous' ? anon : ok])) as Record<Who, Answer> });
const with_ = (cell: Cell, extra: Omit<Cell, 'expect'>): Cell => ({ ...cell, ...extra });

const ADMIN: Role[] = ['administrator'];
const EDITORS: Role[] = ['administrator', 'editor'];
const WRITERS: Role[] = ['administrator', 'editor', 'author', 'contributor'];
const ID = '(?P<id>[\\d]+)';
const USER_ID = '(?P<user_id>(?:[\\d]+|me))';
const UUID = '(?P<uuid>[\\w\\-]+)';
const write = (n: number) => ({ title: `Matrix ${n}` });
const FORM = '/forms/v1/contact-forms/(?P<id>\\d+)';
const WEBHOOK = '/webhooks/v1/webhooks/(?P<id>\\d+)';
/** Contact forms: `roles` get `ok`; everyone else, anonymous included, 403 wpcf7_forbidden. */
const forms = (ok: Answer, roles: readonly Role[]): Cell => ({
  expect: Object.fromEntries(WHO.map((w) => [w, w !== 'anonymous' && roles.includes(w) ? ok : '403 wpcf7_forbidden'])) as Record<Who, Answer>,
});

// Keys: "METHOD[|METHOD…] pattern". Placeholders are filled from FIXTURES.
const EXPECTATIONS: Record<string, Cell> = {
  'GET /': all('200'),
  'GET /oembed/1.0': all('200'),
  // Public: the same answer for everyone, about a published post (made in beforeAll).
  'GET /oembed/1.0/embed': with_(all('200'), { query: () => `url=${encodeURIComponent(fx.embed)}` }),
  // The proxy needs edit_posts; a URL of no known provider, without discovery, finds nothing (and fetches nothing).
  'GET /oembed/1.0/proxy': with_(only('404 oembed_invalid_url', WRITERS, 'rest_forbidden'), { query: () => `url=${encodeURIComponent('https://unknown.example/page')}&discover=false` }),
  'GET /forms/v1': all('200'),
  // Contact forms: the plugin answers 403 wpcf7_forbidden even to anonymous callers, before any lookup.
  'GET /forms/v1/contact-forms': forms('200', WRITERS),
  'POST /forms/v1/contact-forms': with_(forms('200', EDITORS), { body: (n) => ({ title: `Matrix form ${n}` }) }),
  [`GET ${FORM}`]: forms('200', EDITORS),
  [`POST|PUT|PATCH ${FORM}`]: with_(forms('200', EDITORS), { body: (n) => ({ title: `Matrix form ${n}` }) }),
  [`DELETE ${FORM}`]: forms('200', EDITORS),
  // Public; a JSON body is refused for everyone (the form posts multipart).
  [`POST ${FORM}/feedback`]: with_(all('415 wpcf7_unsupported_media_type'), { body: (n) => ({ n }) }),
  [`GET ${FORM}/feedback/schema`]: all('200'),
  [`GET ${FORM}/refill`]: all('200'),
  [`GET ${FORM}/submissions`]: forms('200', EDITORS),
  'GET /widgets/v1': all('200'),
  // The widget bundle: edit_posts (contributor and up), the plugin's message with the generic code.
  'POST /widgets/v1/widgets/forms': with_(only('200', WRITERS, 'rest_forbidden'), { body: (n) => ({ widgetClass: 'Heading_Widget', widgetData: { text: `Matrix ${n}` } }) }),
  'POST /widgets/v1/widgets/previews': with_(only('200', WRITERS, 'rest_forbidden'), { body: (n) => ({ widgetClass: 'Heading_Widget', widgetData: { text: `Matrix ${n}` } }) }),
  'GET /core/v2': all('200'),
  // seo/v1 head and indexing (deployment B): the head is public; indexing needs edit_posts; item
  // settings need the edit right on the item (an administrator's published post).
  'GET /seo/v1/get_head': with_(all('200'), { query: () => `url=${encodeURIComponent(fx.embed)}` }),
  ...Object.fromEntries(['indexing/prepare', 'indexing/posts', 'indexing/terms', 'indexing/post-type-archives', 'indexing/general', 'indexing/indexables-complete', 'indexing/complete', 'link-indexing/posts', 'link-indexing/terms']
    .map((path) => [`POST /seo/v1/${path}`, only('200', WRITERS, 'rest_forbidden')])),
  'GET /seo/v1/item_settings/(?P<id>[\\d]+)': only('200', EDITORS, 'rest_cannot_edit'),
  'POST|PUT|PATCH /seo/v1/item_settings/(?P<id>[\\d]+)': with_(only('200', EDITORS, 'rest_cannot_edit'), { body: (n) => ({ focus_keyphrase: `matrix ${n}` }) }),
  'GET /seo/v1': all('200'),
  // seo/v1 site routes (deployment B): settings for administrators (manage_options), notices and
  // the editor's helpers for writers, workouts for editors; providers are not configured here, so
  // callers who pass the permission check get 400 seo_provider_not_configured.
  'GET /seo/v1/file_size': with_(only('200', ADMIN, 'rest_forbidden'), { query: () => `url=${encodeURIComponent(fx.upload)}` }),
  'POST /seo/v1/new-content-type-visibility/dismiss-post-type': with_(only('200', ADMIN, 'rest_forbidden'), { body: () => ({ postTypeName: 'post' }) }),
  'POST /seo/v1/new-content-type-visibility/dismiss-taxonomy': with_(only('200', ADMIN, 'rest_forbidden'), { body: () => ({ taxonomyName: 'category' }) }),
  'POST /seo/v1/introductions/(?P<introduction_id>[\\w-]+)/seen': with_(only('200', WRITERS, 'rest_forbidden'), { body: () => ({ is_seen: true }) }),
  'GET|POST /seo/v1/video_embed_permission': only('200', WRITERS, 'rest_forbidden'),
  'POST /seo/v1/alerts/dismiss': with_(only('200', WRITERS, 'rest_forbidden'), { body: () => ({ key: 'indexing-notice' }) }),
  'POST /seo/v1/configuration/site_representation': with_(only('200', ADMIN, 'rest_forbidden'), { body: (n) => ({ company_or_person: 'company', company_name: `Matrix ${n}` }) }),
  'POST /seo/v1/configuration/social_profiles': with_(only('200', ADMIN, 'rest_forbidden'), { body: (n) => ({ network_a_site: `https://social.example/matrix-${n}` }) }),
  'GET /seo/v1/configuration/check_capability': with_(only('200', ADMIN, 'rest_forbidden'), { query: () => `user_id=${fx.admin}` }),
  'POST /seo/v1/configuration/enable_tracking': with_(only('200', ADMIN, 'rest_forbidden'), { body: () => ({ tracking: false }) }),
  'POST /seo/v1/configuration/save_configuration_state': with_(only('200', ADMIN, 'rest_forbidden'), { body: () => ({ finishedSteps: ['representation'] }) }),
  'GET /seo/v1/configuration/get_configuration_state': only('200', ADMIN, 'rest_forbidden'),
  // Refused before the body is read; a JSON body is no export.
  'POST /seo/v1/import/(?P<plugin>[\\w-]+)/(?P<type>[\\w-]+)': with_(only('400 seo_import_invalid_file', ADMIN, 'rest_forbidden'), { body: (n) => ({ n }) }),
  'POST /seo/v1/integrations/set_active': with_(only('200', ADMIN, 'rest_forbidden'), { body: () => ({ active: true, integration: 'search_index' }) }),
  // The edit right on the administrator's published post: editors and up.
  'GET /seo/v1/meta/search': with_(only('200', EDITORS, 'rest_forbidden'), { query: () => `post_id=${fx.post}&query=` }),
  'POST /seo/v1/keyphrase-provider-a/authenticate': with_(only('400 seo_provider_not_configured', ADMIN, 'rest_forbidden'), { body: () => ({ code: 'matrix' }) }),
  'POST /seo/v1/keyphrase-provider-a/country_code': with_(only('400 seo_provider_not_configured', ADMIN, 'rest_forbidden'), { body: () => ({ country_code: 'de' }) }),
  'GET /seo/v1/keyphrase-provider-a/related_keyphrases': with_(only('400 seo_provider_not_configured', WRITERS, 'rest_forbidden'), { query: () => 'keyphrase=engine&country_code=us' }),
  'GET /seo/v1/rank-tracker/authorization-url': only('400 seo_provider_not_configured', ADMIN, 'rest_forbidden'),
  'POST /seo/v1/rank-tracker/authenticate': with_(only('400 seo_provider_not_configured', ADMIN, 'rest_forbidden'), { body: () => ({ code: 'matrix', websiteId: '1' }) }),
  'POST /seo/v1/rank-tracker/keyphrases/track': with_(only('400 seo_provider_not_configured', WRITERS, 'rest_forbidden'), { body: () => ({ keyphrases: ['engine'] }) }),
  'POST /seo/v1/rank-tracker/keyphrases': with_(only('400 seo_provider_not_configured', WRITERS, 'rest_forbidden'), { body: () => ({ keyphrases: ['engine'] }) }),
  'DELETE /seo/v1/rank-tracker/keyphrases/untrack': with_(only('400 seo_provider_not_configured', WRITERS, 'rest_forbidden'), { query: () => 'keyphrase=engine' }),
  'GET /seo/v1/rank-tracker/account/limit': only('400 seo_provider_not_configured', WRITERS, 'rest_forbidden'),
  'GET /seo/v1/rank-tracker/account/upgrade-campaign': only('400 seo_provider_not_configured', WRITERS, 'rest_forbidden'),
  'GET /seo/v1/workouts': only('200', EDITORS, 'rest_forbidden'),
  'POST /seo/v1/workouts': with_(only('200', EDITORS, 'rest_forbidden'), { body: () => ({ cornerstone: { finishedSteps: [] } }) }),
  // seo/v1 score routes (deployment B): the score buckets need edit_posts; the statistics, read.
  'GET /seo/v1/readability_scores': with_(only('200', WRITERS, 'rest_forbidden'), { query: () => 'contentType=post' }),
  'GET /seo/v1/seo_scores': with_(only('200', WRITERS, 'rest_forbidden'), { query: () => 'contentType=post' }),
  'GET /seo/v1/statistics': signedIn('200', '401 rest_forbidden'),
  'GET /site-health/v1': all('200'),
  // Site health: administrators (manage_options). The loopback checks reach a closed loopback port here.
  ...Object.fromEntries(['database', 'uploads-directory', 'page-cache', 'loopback-requests', 'authorization-header', 'https-status']
    .map((test) => [`GET /site-health/v1/tests/${test}`, only('200', ADMIN, 'rest_forbidden')])),
  'GET /site-health/v1/directory-sizes': only('200', ADMIN, 'rest_forbidden'),
  'GET /block-editor/v1': all('200'),
  // Link previews need edit_posts; the target is a private address no allow list names, refused by the guarded client.
  'GET /block-editor/v1/url-details': with_(only('404 no_response', WRITERS, 'rest_cannot_view_url_details'), { query: () => `url=${encodeURIComponent('http://10.0.0.1/page')}` }),
  // The content export (export) and the generated fallback navigation (edit_theme_options): administrators.
  'GET /block-editor/v1/export': only('200', ADMIN, 'rest_cannot_export'),
  'GET /block-editor/v1/navigation-fallback': only('200', ADMIN, 'rest_cannot_create'),
  // Webhooks: administrators only (manage_options), refused as the other admin routes; made inactive (nothing is sent).
  'GET /webhooks/v1': all('200'),
  'GET /webhooks/v1/webhooks': only('200', ADMIN, 'rest_forbidden'),
  'POST /webhooks/v1/webhooks': with_(only('201', ADMIN, 'rest_forbidden'), { body: (n) => ({ url: `https://hooks.example/${n}`, events: ['post.published'], active: false }) }),
  [`GET ${WEBHOOK}`]: only('200', ADMIN, 'rest_forbidden'),
  [`POST|PUT|PATCH ${WEBHOOK}`]: with_(only('200', ADMIN, 'rest_forbidden'), { body: (n) => ({ name: `Matrix hook ${n}` }) }),
  [`DELETE ${WEBHOOK}`]: only('200', ADMIN, 'rest_forbidden'),
  [`GET ${WEBHOOK}/deliveries`]: only('200', ADMIN, 'rest_forbidden'),
  // The fixture's URL resolves nowhere: the ping answers 200 with delivered false.
  [`POST ${WEBHOOK}/ping`]: only('200', ADMIN, 'rest_forbidden'),
  'POST /webhooks/v1/deliveries/(?P<id>\\d+)/redeliver': only('200', ADMIN, 'rest_forbidden'),
  'GET /abilities/v1': all('200'),
  // Abilities: listing needs read. The run route's target is core/create-draft (not read-only):
  // GET is the wrong method for everyone (405 before any rights check); POST needs edit_posts.
  'GET /abilities/v1/abilities': signedIn('200', '401 rest_forbidden'),
  'GET /abilities/v1/abilities/(?P<name>[a-z0-9-]+/[a-z0-9-]+)': signedIn('200', '401 rest_forbidden'),
  'GET /abilities/v1/abilities/(?P<name>[a-z0-9-]+/[a-z0-9-]+)/run': all('405 rest_ability_invalid_method'),
  'POST /abilities/v1/abilities/(?P<name>[a-z0-9-]+/[a-z0-9-]+)/run': with_(only('200', WRITERS, 'rest_ability_cannot_execute'), { body: (n) => ({ input: { title: `Matrix draft ${n}` } }) }),
  // The batch route itself has no permission: every caller gets 207 (each item is checked as the caller).
  'POST /batch/v1': with_(all('207'), { body: (n) => ({ requests: [{ path: '/core/v2/posts', body: { title: `Matrix batch ${n}` } }] }) }),

  'GET /core/v2/posts': all('200'),
  'POST /core/v2/posts': with_(only('201', WRITERS, 'rest_cannot_create'), { body: write }),
  [`GET /core/v2/posts/${ID}`]: all('200'),
  [`POST|PUT|PATCH /core/v2/posts/${ID}`]: with_(only('200', EDITORS, 'rest_cannot_edit'), { body: write }),
  [`DELETE /core/v2/posts/${ID}`]: only('200', EDITORS, 'rest_cannot_delete'),
  // Revisions and autosaves of an administrator's published post: whoever may edit the post.
  'GET /core/v2/posts/(?P<parent>[\\d]+)/revisions': only('200', EDITORS, 'rest_cannot_read'),
  'GET /core/v2/posts/(?P<parent>[\\d]+)/revisions/(?P<id>[\\d]+)': only('200', EDITORS, 'rest_cannot_read'),
  'DELETE /core/v2/posts/(?P<parent>[\\d]+)/revisions/(?P<id>[\\d]+)': with_(only('200', EDITORS, 'rest_cannot_delete'), { query: () => 'force=true' }),
  'POST /core/v2/posts/(?P<parent>[\\d]+)/revisions/(?P<id>[\\d]+)/restore': only('200', EDITORS, 'rest_cannot_edit'),
  [`GET /core/v2/posts/${ID}/autosaves`]: only('200', EDITORS, 'rest_cannot_read'),
  [`POST /core/v2/posts/${ID}/autosaves`]: with_(only('200', EDITORS, 'rest_cannot_edit'), { body: write }),
  'GET /core/v2/posts/(?P<parent>[\\d]+)/autosaves/(?P<id>[\\d]+)': only('200', EDITORS, 'rest_cannot_read'),

  'GET /core/v2/pages': all('200'),
  'POST /core/v2/pages': with_(only('201', EDITORS, 'rest_cannot_create'), { body: write }),
  [`GET /core/v2/pages/${ID}`]: all('200'),
  [`POST|PUT|PATCH /core/v2/pages/${ID}`]: with_(only('200', EDITORS, 'rest_cannot_edit'), { body: write }),
  [`DELETE /core/v2/pages/${ID}`]: only('200', EDITORS, 'rest_cannot_delete'),
  'GET /core/v2/pages/(?P<parent>[\\d]+)/revisions': only('200', EDITORS, 'rest_cannot_read'),
  'GET /core/v2/pages/(?P<parent>[\\d]+)/revisions/(?P<id>[\\d]+)': only('200', EDITORS, 'rest_cannot_read'),
  'DELETE /core/v2/pages/(?P<parent>[\\d]+)/revisions/(?P<id>[\\d]+)': with_(only('200', EDITORS, 'rest_cannot_delete'), { query: () => 'force=true' }),
  'POST /core/v2/pages/(?P<parent>[\\d]+)/revisions/(?P<id>[\\d]+)/restore': only('200', EDITORS, 'rest_cannot_edit'),
  [`GET /core/v2/pages/${ID}/autosaves`]: only('200', EDITORS, 'rest_cannot_read'),
  [`POST /core/v2/pages/${ID}/autosaves`]: with_(only('200', EDITORS, 'rest_cannot_edit'), { body: write }),
  'GET /core/v2/pages/(?P<parent>[\\d]+)/autosaves/(?P<id>[\\d]+)': only('200', EDITORS, 'rest_cannot_read'),

  // Media: the target is an administrator's unattached image (a fresh upload per cell). The matrix
  // sends JSON, which an upload takes as a raw file without Content-Disposition: who may upload gets
  // that refusal, the others rest_cannot_create before the body is read.
  'GET /core/v2/media': all('200'),
  'POST /core/v2/media': with_(only('400 rest_upload_no_content_disposition', ['administrator', 'editor', 'author'], 'rest_cannot_create'), { body: write }),
  [`GET /core/v2/media/${ID}`]: all('200'),
  [`POST|PUT|PATCH /core/v2/media/${ID}`]: with_(only('200', EDITORS, 'rest_cannot_edit'), { body: write }),
  [`DELETE /core/v2/media/${ID}`]: with_(only('200', EDITORS, 'rest_cannot_delete'), { query: () => 'force=true' }),
  [`POST /core/v2/media/${ID}/post-process`]: with_(only('200', EDITORS, 'rest_cannot_edit'), { body: () => ({ action: 'create-image-subsizes' }) }),
  // Editing needs upload_files, then the right to edit the image: an author has the first only.
  [`POST /core/v2/media/${ID}/edit`]: {
    expect: { anonymous: '401 rest_cannot_edit_image', administrator: '201', editor: '201', author: '403 rest_cannot_edit', contributor: '403 rest_cannot_edit_image', subscriber: '403 rest_cannot_edit_image' },
    body: () => ({ src: mediaSource, modifiers: [{ type: 'rotate', args: { angle: 90 } }] }),
  },

  'GET /core/v2/categories': all('200'),
  'POST /core/v2/categories': with_(only('201', EDITORS, 'rest_cannot_create'), { body: (n) => ({ name: `Category ${n}` }) }),
  [`GET /core/v2/categories/${ID}`]: all('200'),
  [`POST|PUT|PATCH /core/v2/categories/${ID}`]: with_(only('200', EDITORS, 'rest_cannot_update'), { body: (n) => ({ name: `Renamed ${n}` }) }),
  [`DELETE /core/v2/categories/${ID}`]: with_(only('200', EDITORS, 'rest_cannot_delete'), { query: () => 'force=true' }),

  'GET /core/v2/tags': all('200'),
  'POST /core/v2/tags': with_(only('201', EDITORS, 'rest_cannot_create'), { body: (n) => ({ name: `Tag ${n}` }) }),
  [`GET /core/v2/tags/${ID}`]: all('200'),
  [`POST|PUT|PATCH /core/v2/tags/${ID}`]: with_(only('200', EDITORS, 'rest_cannot_update'), { body: (n) => ({ name: `Renamed tag ${n}` }) }),
  [`DELETE /core/v2/tags/${ID}`]: with_(only('200', EDITORS, 'rest_cannot_delete'), { query: () => 'force=true' }),

  // Comments: the target is an administrator's approved comment on a published post. Anonymous
  // comments are off by default (rest_allow_anonymous_comments); editors and up moderate every
  // comment, an author only those on their own items.
  'GET /core/v2/comments': all('200'),
  'POST /core/v2/comments': with_(signedIn('201', '401 rest_comment_login_required'), { body: (n) => ({ post: fx.post, content: `Matrix comment ${n}` }) }),
  [`GET /core/v2/comments/${ID}`]: all('200'),
  [`POST|PUT|PATCH /core/v2/comments/${ID}`]: with_(only('200', EDITORS, 'rest_cannot_edit'), { body: (n) => ({ content: `Edited comment ${n}` }) }),
  [`DELETE /core/v2/comments/${ID}`]: only('200', EDITORS, 'rest_cannot_delete'),

  // Menus and menu items: read by whoever may edit some content (rest_cannot_view otherwise),
  // written by administrators (edit_theme_options); the locations are administrators' alone.
  'GET /core/v2/menus': only('200', WRITERS, 'rest_cannot_view'),
  'POST /core/v2/menus': with_(only('201', ADMIN, 'rest_cannot_create'), { body: (n) => ({ name: `Matrix menu ${n}` }) }),
  [`GET /core/v2/menus/${ID}`]: only('200', WRITERS, 'rest_cannot_view'),
  [`POST|PUT|PATCH /core/v2/menus/${ID}`]: with_(only('200', ADMIN, 'rest_cannot_update'), { body: (n) => ({ name: `Renamed menu ${n}` }) }),
  [`DELETE /core/v2/menus/${ID}`]: with_(only('200', ADMIN, 'rest_cannot_delete'), { query: () => 'force=true' }),
  'GET /core/v2/menu-items': only('200', WRITERS, 'rest_cannot_view'),
  'POST /core/v2/menu-items': with_(only('201', ADMIN, 'rest_cannot_create'), { body: (n) => ({ title: `Matrix link ${n}`, url: `https://example.test/${n}` }) }),
  [`GET /core/v2/menu-items/${ID}`]: only('200', WRITERS, 'rest_cannot_view'),
  [`POST|PUT|PATCH /core/v2/menu-items/${ID}`]: with_(only('200', ADMIN, 'rest_cannot_edit'), { body: (n) => ({ title: `Renamed link ${n}` }) }),
  [`DELETE /core/v2/menu-items/${ID}`]: with_(only('200', ADMIN, 'rest_cannot_delete'), { query: () => 'force=true' }),
  'GET /core/v2/menu-locations': only('200', ADMIN, 'rest_cannot_view'),
  'GET /core/v2/menu-locations/(?P<location>[\\w-]+)': only('200', ADMIN, 'rest_cannot_view'),

  // Types, statuses and taxonomies: lists public; the targets are the page type in edit context
  // (edit_pages), the draft status (seen by whoever may edit content) and the category taxonomy in
  // edit context (assign_terms: edit_posts).
  'GET /core/v2/types': all('200'),
  'GET /core/v2/types/(?P<type>[\\w-]+)': with_(only('200', EDITORS, 'rest_forbidden_context'), { query: () => 'context=edit' }),
  'GET /core/v2/statuses': all('200'),
  'GET /core/v2/statuses/(?P<status>[\\w-]+)': only('200', WRITERS, 'rest_cannot_read_status'),
  'GET /core/v2/taxonomies': all('200'),
  'GET /core/v2/taxonomies/(?P<taxonomy>[\\w-]+)': with_(only('200', WRITERS, 'rest_forbidden_context'), { query: () => 'context=edit' }),

  // The target of users/{id} is a subscriber with no published content: only administrators see it.
  'GET /core/v2/users': all('200'),
  'POST /core/v2/users': with_(only('201', ADMIN, 'rest_cannot_create_user'), { body: (n) => ({ username: `made${n}`, email: `made${n}@example.test`, password: 'pw' }) }),
  [`GET /core/v2/users/${ID}`]: only('200', ADMIN, 'rest_user_cannot_view'),
  [`POST|PUT|PATCH /core/v2/users/${ID}`]: with_(only('200', ADMIN, 'rest_cannot_edit'), { body: (n) => ({ name: `Name ${n}` }) }),
  [`DELETE /core/v2/users/${ID}`]: with_(only('200', ADMIN, 'rest_user_cannot_delete'), { query: () => `force=true&reassign=${fx.admin}` }),
  'GET /core/v2/users/me': signedIn('200', '401 rest_not_logged_in'),
  'POST|PUT|PATCH /core/v2/users/me': with_(signedIn('200', '401 rest_not_logged_in'), { body: (n) => ({ description: `About ${n}` }) }),
  // Callers of DELETE users/me are fresh users of the role (the administrator deletes themself).
  'DELETE /core/v2/users/me': with_({ expect: { ...only('200', ADMIN, 'rest_user_cannot_delete').expect, anonymous: '401 rest_not_logged_in' } }, { query: () => `force=true&reassign=${fx.admin}` }),

  // Application passwords of another user (a subscriber): only administrators (edit_user).
  [`GET /core/v2/users/${USER_ID}/application-passwords`]: only('200', ADMIN, 'rest_cannot_list_application_passwords'),
  [`POST /core/v2/users/${USER_ID}/application-passwords`]: with_(only('201', ADMIN, 'rest_cannot_create_application_passwords'), { body: (n) => ({ name: `App ${n}` }) }),
  [`DELETE /core/v2/users/${USER_ID}/application-passwords`]: only('200', ADMIN, 'rest_cannot_delete_application_passwords'),
  [`GET /core/v2/users/${USER_ID}/application-passwords/introspect`]: only('200', [], 'rest_cannot_introspect_app_password_for_non_authenticated_user'),
  [`GET /core/v2/users/${USER_ID}/application-passwords/${UUID}`]: only('200', ADMIN, 'rest_cannot_read_application_password'),
  [`POST|PUT|PATCH /core/v2/users/${USER_ID}/application-passwords/${UUID}`]: with_(only('200', ADMIN, 'rest_cannot_edit_application_password'), { body: (n) => ({ name: `Renamed app ${n}` }) }),
  [`DELETE /core/v2/users/${USER_ID}/application-passwords/${UUID}`]: only('200', ADMIN, 'rest_cannot_delete_application_password'),
};

/** Cells whose caller is a fresh user of the role rather than the shared one. */
const FRESH_CALLER = new Set(['DELETE /core/v2/users/me']);

let site: TestSite;
/** The media fixtures' files go to a directory of their own, removed afterwards. */
let uploads = '';
let serial = 0;
const fx = { admin: 0, other: 0, embed: '', post: 0, upload: '' };

/** The source_url of the last media fixture (the edit route's body names it; fixtures are made before the body). */
let mediaSource = '';

// Placeholder fillers, keyed "<segment before the placeholder>:<name>"; each cell gets fresh
// fixtures (made by the administrator), so writes and deletes never disturb another cell.
const FIXTURES: Record<string, (filled: Record<string, string>) => Promise<string>> = {
  'posts:id': async () => String((await site.req('POST', '/core/v2/posts', { as: 'administrator', json: { title: `Fixture ${++serial}`, status: 'publish' } })).body.id),
  'pages:id': async () => String((await site.req('POST', '/core/v2/pages', { as: 'administrator', json: { title: `Fixture ${++serial}`, status: 'publish' } })).body.id),
  'categories:id': async () => String((await site.req('POST', '/core/v2/categories', { as: 'administrator', json: { name: `Fixture ${++serial}` } })).body.id),
  'tags:id': async () => String((await site.req('POST', '/core/v2/tags', { as: 'administrator', json: { name: `Fixture ${++serial}` } })).body.id),
  'comments:id': async () => String((await site.req('POST', '/core/v2/comments', { as: 'administrator', json: { post: fx.post, content: `Fixture comment ${++serial}`, status: 'approved' } })).body.id),
  'menus:id': async () => String((await site.req('POST', '/core/v2/menus', { as: 'administrator', json: { name: `Fixture menu ${++serial}` } })).body.id),
  'menu-items:id': async () => String((await site.req('POST', '/core/v2/menu-items', { as: 'administrator', json: { title: `Fixture link ${++serial}`, url: 'https://example.test/' } })).body.id),
  'menu-locations:location': async () => 'primary',
  // An administrator's unattached 4×2 PNG, uploaded as a raw body.
  'media:id': async () => {
    const png = Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAQAAAACCAIAAADwyuo0AAAACXBIWXMAAAPoAAAD6AG1e1JrAAAAEklEQVQImWP4z8AARwjWfwYGAG+qB/l/O6VpAAAAAElFTkSuQmCC', 'base64');
    const res = await site.req('POST', '/core/v2/media', {
      as: 'administrator', body: png, headers: { 'content-type': 'image/png', 'content-disposition': `attachment; filename="fixture-${++serial}.png"` },
    });
    if (res.status !== 201) throw new Error(`media fixture: expected 201, got ${res.status}: ${res.text.slice(0, 500)}`);
    mediaSource = res.body.source_url;
    return String(res.body.id);
  },
  'users:id': async () => String((await newUser('subscriber')).id),
  'item_settings:id': async () => String((await site.req('POST', '/core/v2/posts', { as: 'administrator', json: { title: `Fixture ${++serial}`, status: 'publish' } })).body.id),
  'contact-forms:id': async () => String((await site.req('POST', '/forms/v1/contact-forms?context=save', { as: 'administrator', json: { title: `Fixture form ${++serial}` } })).body.id),
  'webhooks:id': async () => String((await webhookFixture()).id),
  // A delivery of an inactive webhook (the dispatcher leaves it alone).
  'deliveries:id': async () => {
    const hook = await webhookFixture();
    const d = await site.db.prisma.webhookDelivery.create({ data: { webhookId: hook.id, eventId: ++serial, messageId: `msg_matrix_${serial}`, event: 'post.published', payload: '{}', status: 'failed' } });
    return String(d.id);
  },
  'users:user_id': async () => String(fx.other),
  'types:type': async () => 'page',
  'statuses:status': async () => 'draft',
  'taxonomies:taxonomy': async () => 'category',
  'introductions:introduction_id': async () => `matrix-intro-${++serial}`,
  // seo/v1 import: the plugin and type placeholders follow each other (the type is keyed by the plugin filled).
  'import:plugin': async () => 'wxr',
  'wxr:type': async () => 'content',
  'abilities:name': async () => 'core/create-draft',
  'application-passwords:uuid': async (filled) => (await createApplicationPassword(site.db, Number(filled.user_id), `Fixture ${++serial}`)).uuid,
  // A published item of the administrator with one revision (created, then retitled).
  'posts:parent': async () => {
    const id = (await site.req('POST', '/core/v2/posts', { as: 'administrator', json: { title: `Fixture ${++serial}`, status: 'publish' } })).body.id;
    await site.req('POST', `/core/v2/posts/${id}`, { as: 'administrator', json: { title: `Fixture ${serial} revised` } });
    return String(id);
  },
  'pages:parent': async () => {
    const id = (await site.req('POST', '/core/v2/pages', { as: 'administrator', json: { title: `Fixture ${++serial}`, status: 'publish' } })).body.id;
    await site.req('POST', `/core/v2/pages/${id}`, { as: 'administrator', json: { title: `Fixture ${serial} revised` } });
    return String(id);
  },
  // The newest revision of the parent filled just before (a post or a page).
  'revisions:id': async (filled) => {
    let res = await site.req('GET', `/core/v2/posts/${filled.parent}/revisions`, { as: 'administrator' });
    if (res.status !== 200) res = await site.req('GET', `/core/v2/pages/${filled.parent}/revisions`, { as: 'administrator' });
    return String(res.body[0].id);
  },
  // An administrator's autosave of the parent (the route answers the latest whatever the id).
  'autosaves:id': async (filled) => {
    let res = await site.req('POST', `/core/v2/posts/${filled.parent}/autosaves`, { as: 'administrator', json: { title: `Autosave ${++serial}` } });
    if (res.status !== 200) res = await site.req('POST', `/core/v2/pages/${filled.parent}/autosaves`, { as: 'administrator', json: { title: `Autosave ${serial}` } });
    return String(res.body.id);
  },
};

/** An inactive webhook, made by the administrator. */
async function webhookFixture(): Promise<{ id: number }> {
  const res = await site.req('POST', '/webhooks/v1/webhooks', { as: 'administrator', json: { url: `https://hooks.example/fixture-${++serial}`, events: ['*'], active: false } });
  if (res.status !== 201) throw new Error(`webhook fixture: expected 201, got ${res.status}: ${res.text.slice(0, 500)}`);
  return res.body;
}

async function newUser(role: Role): Promise<TestUser> {
  const login = `fx${++serial}`;
  const user = await createUser(site.db, { login, email: `${login}@example.test`, role, password: 'pw' });
  const { password } = await createApplicationPassword(site.db, user.id, 'matrix');
  return { id: user.id, login, role, password, auth: 'Basic ' + Buffer.from(`${login}:${password}`).toString('base64') };
}

async function fill(pattern: string): Promise<string> {
  const filled: Record<string, string> = {};
  let path = pattern;
  // Matched against the path as filled so far, so a placeholder right after another is keyed by the value filled before it.
  for (let m; (m = /\/([^/()]+)\/\(\?P<(\w+)>(?:[^()]|\([^()]*\))*\)/.exec(path)); ) {
    const key = `${m[1]}:${m[2]}`;
    const make = FIXTURES[key];
    if (!make) throw new Error(`no fixture for placeholder ${key} (in ${pattern}): add one to FIXTURES`);
    filled[m[2]] = await make(filled);
    path = path.replace(m[0], `/${m[1]}/${filled[m[2]]}`);
  }
  return path;
}

beforeAll(async () => {
  uploads = mkdtempSync(join(tmpdir(), 'matrix-uploads-'));
  site = await createTestSite({ uploadsDir: uploads, deployment: 'B', loopbackUrl: 'http://127.0.0.1:9' });
  fx.admin = site.users.administrator.id;
  fx.other = (await newUser('subscriber')).id;
  const embed = await site.createPost({ title: 'Embed target', status: 'publish' });
  fx.embed = embed.link;
  fx.post = embed.id;
  await FIXTURES['media:id']({});
  fx.upload = mediaSource;
});
afterAll(async () => { await site?.close(); if (uploads) rmSync(uploads, { recursive: true, force: true }); });

describe('authorization matrix', () => {
  it('declares every route and method of the table, and nothing else', () => {
    const inTable = new Set<string>();
    for (const route of site.app.table) for (const e of route.endpoints) for (const m of e.methods) inTable.add(`${m} ${route.pattern}`);
    const declared = new Set<string>();
    for (const key of Object.keys(EXPECTATIONS)) {
      const [methods, pattern] = key.split(' ');
      for (const m of methods.split('|')) declared.add(`${m} ${pattern}`);
    }
    expect([...inTable].filter((k) => !declared.has(k)), 'routes without expectations: declare them in EXPECTATIONS').toEqual([]);
    expect([...declared].filter((k) => !inTable.has(k)), 'expectations for routes that no longer exist').toEqual([]);
  });

  it('answers every cell as declared, with no unexpected allow', async () => {
    const mismatches: string[] = [];
    let cells = 0;
    let unexpectedAllows = 0;
    for (const route of site.app.table) {
      for (const endpoint of route.endpoints) {
        for (const method of endpoint.methods as Method[]) {
          const key = Object.keys(EXPECTATIONS).find((k) => {
            const [methods, pattern] = k.split(' ');
            return pattern === route.pattern && methods.split('|').includes(method);
          });
          if (!key) continue; // reported by the test above
          const cell = EXPECTATIONS[key];
          for (const who of WHO) {
            const n = ++serial;
            const path = await fill(route.pattern);
            const caller = who === 'anonymous' ? undefined : FRESH_CALLER.has(`${method} ${route.pattern}`) ? await newUser(who) : site.users[who];
            const query = cell.query ? `?${cell.query()}` : '';
            const res = await site.req(method, `${path}${query}`, { as: caller, json: cell.body?.(n) });
            const got = res.status < 300 ? String(res.status) : `${res.status} ${res.body?.code}`;
            const want = cell.expect[who];
            cells++;
            if (got !== want) mismatches.push(`${method} ${route.pattern} as ${who}: expected ${want}, got ${got}`);
            if (res.status < 300 && !want.startsWith('2')) unexpectedAllows++;
            if (res.status >= 400 && res.body?.data?.status !== res.status) mismatches.push(`${method} ${route.pattern} as ${who}: data.status ${res.body?.data?.status} ≠ ${res.status}`);
          }
        }
      }
    }
    console.log(`authorization matrix: ${cells} cells, ${mismatches.length} mismatches, ${unexpectedAllows} unexpected allows`);
    expect(unexpectedAllows).toBe(0);
    expect(mismatches).toEqual([]);
    expect(cells).toBeGreaterThanOrEqual(WHO.length * 50);
  }, 300_000);
});
