// The seo/v1 site settings: what the configuration workflow, the notices and the editor sidebar
// store and read. Rights are checked here, so GraphQL or a command could reuse the rules.
import type { Context } from '../../context.js';
import { restError, authStatus } from '../../errors.js';
import { CONTENT_TYPES, CATEGORY, POST_TAG } from '../../resources/content-types.js';
import { canEditContent } from '../../auth/content-permissions.js';
import { canEditUser } from '../../auth/user-permissions.js';
import {
  getSeoOption, getUserState, setSeoOption, updateUserState, type SiteRepresentation, type SocialProfiles,
} from './options.js';

/** A refused caller: 401 anonymous, 403 signed in (the plugin's permission callbacks give `rest_forbidden`). */
export function requireCap(ctx: Context, cap: string): void {
  if (!ctx.viewer || !ctx.can(cap)) throw restError('rest_forbidden', 'Sorry, you are not allowed to do that.', authStatus(!!ctx.viewer));
}

/** One bad argument, as a failed validate callback reports it. */
function invalid(param: string, message: string): never {
  throw restError('rest_invalid_param', `Invalid parameter(s): ${param}`, 400, { params: { [param]: message } });
}

/**
 * Notices an editor may dismiss. The plugin accepts only keys it registered; these are its
 * notices' keys with the brand words neutralised.
 */
export const ALERT_KEYS = [
  'indexing-notice', 'new-content-type-notice', 'configuration-workflow-notice', 'webinar-promo-notice',
  'black-friday-promo-notice', 'upsell-notice', 'review-request-notice', 'search-console-notice',
] as const;

export async function dismissAlert(ctx: Context, key: unknown): Promise<{ success: boolean; status: number }> {
  requireCap(ctx, 'edit_posts');
  if (typeof key !== 'string' || !(ALERT_KEYS as readonly string[]).includes(key)) invalid('key', 'Invalid parameter.');
  await updateUserState(ctx, ctx.viewer!.id, (s) => { if (!s.dismissed_alerts.includes(key)) s.dismissed_alerts.push(key); });
  return { success: true, status: 200 };
}

export async function setIntroductionSeen(ctx: Context, id: string, seen: boolean): Promise<{ success: boolean; status: number }> {
  requireCap(ctx, 'edit_posts');
  // The REST path only matches such ids; GraphQL passes any string.
  if (!/^[\w-]+$/.test(id)) invalid('introduction_id', 'introduction_id must be letters, digits, _ and -.');
  await updateUserState(ctx, ctx.viewer!.id, (s) => { s.introductions[id] = seen; });
  return { success: true, status: 200 };
}

export async function videoEmbedPermission(ctx: Context, value?: boolean): Promise<{ value: boolean }> {
  requireCap(ctx, 'edit_posts');
  if (value === undefined) {
    return { value: (await getUserState(ctx.prisma, ctx.viewer!.id)).video_embed_permission };
  }
  const state = await updateUserState(ctx, ctx.viewer!.id, (s) => { s.video_embed_permission = value; });
  return { value: state.video_embed_permission };
}

/** Hides the "new content type" notice for a type or taxonomy the site has. */
export async function dismissNewContentType(ctx: Context, kind: 'postType' | 'taxonomy', name: unknown): Promise<{ success: boolean; status: number; message: string }> {
  requireCap(ctx, 'manage_options');
  const param = kind === 'postType' ? 'postTypeName' : 'taxonomyName';
  const known = kind === 'postType' ? CONTENT_TYPES.map((t) => t.type) : [CATEGORY.taxonomy, POST_TAG.taxonomy];
  if (typeof name !== 'string' || !known.includes(name)) invalid(param, `${param} must be one of ${known.join(', ')}.`);
  const key = kind === 'postType' ? 'dismissedPostTypes' : 'dismissedTaxonomies';
  await ctx.prisma.$transaction(async (tx) => {
    const list = await getSeoOption(tx, key);
    if (!list.includes(name)) await setSeoOption(tx, key, [...list, name]);
  });
  return { success: true, status: 200, message: kind === 'postType' ? 'Post type dismissed.' : 'Taxonomy dismissed.' };
}

/** Integrations a site may switch on or off (neutral names of the plugin's integrations). */
export const INTEGRATIONS = ['keyphrase_provider_a', 'rank_tracker', 'search_index', 'site_statistics', 'shop'] as const;

export async function setIntegrationActive(ctx: Context, integration: string, active: boolean): Promise<{ success: boolean; status: number }> {
  requireCap(ctx, 'manage_options');
  if (!(INTEGRATIONS as readonly string[]).includes(integration)) invalid('integration', `integration must be one of ${INTEGRATIONS.join(', ')}.`);
  await ctx.prisma.$transaction(async (tx) => {
    const all = await getSeoOption(tx, 'integrations');
    await setSeoOption(tx, 'integrations', { ...all, [integration]: active });
  });
  return { success: true, status: 200 };
}

// ---------------------------------------------------------------- custom fields

/** PHP-serialized values are never offered (the plugin skips them). */
const SERIALIZED = /^(?:[aOs]:\d+:|[idb]:[^;]*;|N;$)/;
export const META_SEARCH_LIMIT = 3;

/**
 * Up to three custom fields of a post whose key starts with `query` (case-sensitive on both
 * databases), private `_` keys left out when the query is empty. One query for the rights, one
 * for the fields.
 */
export async function searchPostMeta(ctx: Context, postId: number, query: string): Promise<{ meta: { key: string; value: string }[] }> {
  const row = postId > 0 ? await ctx.prisma.content.findUnique({ where: { id: postId }, select: { id: true, type: true, status: true, authorId: true, trashedStatus: true } }) : null;
  // As the plugin's current_user_can('edit_post', id): a missing post is a refusal, not a 404.
  if (!ctx.viewer || !row || ['revision', 'autosave'].includes(row.type) || !canEditContent(ctx, row)) {
    throw restError('rest_forbidden', 'Sorry, you are not allowed to do that.', authStatus(!!ctx.viewer));
  }
  const rows = await ctx.prisma.postMeta.findMany({
    where: { contentId: postId, ...(query ? { key: { startsWith: query } } : { NOT: { key: { startsWith: '_' } } }) },
    orderBy: [{ key: 'asc' }, { id: 'asc' }],
    select: { key: true, value: true },
    take: 100,
  });
  const meta = rows
    .filter((r) => r.key.startsWith(query) && (query || !r.key.startsWith('_')) && !SERIALIZED.test(r.value))
    .slice(0, META_SEARCH_LIMIT);
  return { meta };
}

// ---------------------------------------------------------------- workouts

export async function getWorkouts(ctx: Context): Promise<{ json: Record<string, unknown> }> {
  requireCap(ctx, 'edit_others_posts');
  return { json: await getSeoOption(ctx.prisma, 'workouts') };
}

/** Stores the workouts the client sends (`cornerstone`, `orphaned`: objects), keeping the others. */
export async function saveWorkouts(ctx: Context, params: Record<string, unknown>): Promise<{ json: Record<string, unknown> }> {
  requireCap(ctx, 'edit_others_posts');
  const given: Record<string, unknown> = {};
  for (const name of ['cornerstone', 'orphaned']) {
    const v = params[name];
    if (v === undefined) continue;
    if (typeof v !== 'object' || v === null || Array.isArray(v)) invalid(name, `${name} must be an object.`);
    given[name] = v;
  }
  const json = await ctx.prisma.$transaction(async (tx) => {
    const next = { ...(await getSeoOption(tx, 'workouts')), ...given };
    await setSeoOption(tx, 'workouts', next);
    return next;
  });
  return { json };
}

// ---------------------------------------------------------------- configuration workflow

type Answer = { success: boolean; status: number; [key: string]: unknown };

export async function saveSiteRepresentation(ctx: Context, p: Partial<SiteRepresentation>): Promise<Answer> {
  requireCap(ctx, 'manage_options');
  const failures: string[] = [];
  if (p.company_or_person === 'person' && p.company_or_person_user_id) {
    const user = await ctx.prisma.user.findUnique({ where: { id: p.company_or_person_user_id }, select: { id: true } });
    if (!user) failures.push('company_or_person_user_id');
  }
  for (const key of ['company_logo_id', 'person_logo_id'] as const) {
    const id = p[key];
    if (!id) continue;
    const media = await ctx.prisma.content.findUnique({ where: { id }, select: { type: true } });
    if (media?.type !== 'attachment') failures.push(key);
  }
  for (const key of ['company_logo', 'person_logo'] as const) if (p[key] && !isHttpUrl(p[key]!)) failures.push(key);
  if (failures.length) return { success: false, status: 400, error: 'Invalid site representation.', failures };
  await ctx.prisma.$transaction(async (tx) => {
    const current = await getSeoOption(tx, 'siteRepresentation');
    const next: SiteRepresentation = { ...current };
    for (const key of Object.keys(current) as (keyof SiteRepresentation)[]) if (p[key] !== undefined) (next as unknown as Record<string, unknown>)[key] = p[key];
    await setSeoOption(tx, 'siteRepresentation', next);
  });
  return { success: true, status: 200 };
}

export function isHttpUrl(value: string): boolean {
  try {
    const u = new URL(value);
    return (u.protocol === 'http:' || u.protocol === 'https:') && !!u.hostname;
  } catch { return false; }
}

/**
 * The social profiles: every URL must be an absolute http(s) URL; the second network also
 * takes a handle (`@name` or `name`), as the plugin does for its short-message network.
 */
export async function saveSocialProfiles(ctx: Context, p: Partial<SocialProfiles>): Promise<{ json: Answer }> {
  requireCap(ctx, 'manage_options');
  const failures: string[] = [];
  if (p.network_a_site && !isHttpUrl(p.network_a_site)) failures.push('network_a_site');
  if (p.network_b_site && !isHttpUrl(p.network_b_site) && !/^@?\w{1,50}$/.test(p.network_b_site)) failures.push('network_b_site');
  (p.other_social_urls ?? []).forEach((u, i) => { if (typeof u !== 'string' || !isHttpUrl(u)) failures.push(`other_social_urls-${i}`); });
  if (failures.length) return { json: { success: false, status: 400, failures } };
  await ctx.prisma.$transaction(async (tx) => {
    const current = await getSeoOption(tx, 'socialProfiles');
    await setSeoOption(tx, 'socialProfiles', {
      network_a_site: p.network_a_site ?? current.network_a_site,
      network_b_site: p.network_b_site !== undefined ? p.network_b_site.replace(/^@/, '') : current.network_b_site,
      other_social_urls: p.other_social_urls ? p.other_social_urls.map(String) : current.other_social_urls,
    });
  });
  return { json: { success: true, status: 200 } };
}

export async function setTracking(ctx: Context, tracking: boolean): Promise<Answer> {
  requireCap(ctx, 'manage_options');
  await setSeoOption(ctx.prisma, 'tracking', tracking);
  return { success: true, status: 200 };
}

export async function saveConfigurationState(ctx: Context, finishedSteps: unknown[]): Promise<Answer> {
  requireCap(ctx, 'manage_options');
  // Each step through sanitize_text_field(), as the plugin does: a non-scalar (an array, an object)
  // becomes '', a boolean '1' or ''. String() on an object can throw (a `toString` key that is no function).
  const text = (v: unknown) => (typeof v === 'string' || typeof v === 'number' ? String(v) : v === true ? '1' : '');
  const steps = [...new Set(finishedSteps.map(text))];
  await setSeoOption(ctx.prisma, 'configurationState', { finishedSteps: steps });
  return { success: true, status: 200 };
}

export async function configurationState(ctx: Context): Promise<Answer> {
  requireCap(ctx, 'manage_options');
  return { success: true, status: 200, data: await getSeoOption(ctx.prisma, 'configurationState') };
}

/** Whether the caller may edit the user the site is to represent (the workflow's person step). */
export async function checkCapability(ctx: Context, userId: number): Promise<Answer> {
  requireCap(ctx, 'manage_options');
  const user = userId > 0 ? await ctx.prisma.user.findUnique({ where: { id: userId }, select: { id: true } }) : null;
  if (!user) return { success: false, status: 404, error: 'No such user.' };
  const ok = canEditUser(ctx, user.id);
  return { success: ok, status: ok ? 200 : 403 };
}
