// Every option the seo/v1 site routes store, with its name, shape and default, in one place:
// nothing else reads these option names. Values are JSON in the Option table (src/site/options.ts).
import type { Context } from '../../context.js';
import type { Tx } from '../../db/client.js';
import { setOption } from '../../site/options.js';

type OptionReader = { option: { findUnique(args: { where: { name: string } }): Promise<{ value: string } | null> } };
type OptionStore = Parameters<typeof setOption>[0];

/** Who the site represents, as the head's JSON-LD (Organization or Person) reads it. */
export interface SiteRepresentation {
  company_or_person: 'company' | 'person';
  company_name: string;
  company_logo: string;
  company_logo_id: number;
  person_logo: string;
  person_logo_id: number;
  /** The user the site represents when it is a person (0: none chosen). */
  company_or_person_user_id: number;
  description: string;
}

export interface SocialProfiles {
  network_a_site: string;
  network_b_site: string;
  other_social_urls: string[];
}

/** What one user has seen, dismissed or allowed. */
export interface SeoUserState {
  introductions: Record<string, boolean>;
  video_embed_permission: boolean;
  dismissed_alerts: string[];
}

/** A WXR import not finished yet: the uploaded document and how far the import got. */
export interface ImportJob {
  plugin: string;
  type: string;
  /** The document itself (kept so the next call continues without the upload). */
  document: string;
  /** Items done so far, in document order (terms and authors first, then posts). */
  position: number;
  total: number;
  imported: number;
  skipped: number;
  errors: { item: string; code: string; message: string }[];
  /** Source post id → id created here (for page parents met later). */
  ids: Record<string, number>;
}

/** Tokens a provider gave on authenticate, per site. */
export interface ProviderTokens {
  access_token: string;
  refresh_token?: string;
  expires_at?: number;
  /** Extra values the provider returned (e.g. the rank tracker's website id). */
  [key: string]: unknown;
}

export const SEO_OPTIONS = {
  siteRepresentation: {
    name: 'seo_site_representation',
    default: (): SiteRepresentation => ({
      company_or_person: 'company', company_name: '', company_logo: '', company_logo_id: 0,
      person_logo: '', person_logo_id: 0, company_or_person_user_id: 0, description: '',
    }),
  },
  socialProfiles: {
    name: 'seo_social_profiles',
    default: (): SocialProfiles => ({ network_a_site: '', network_b_site: '', other_social_urls: [] }),
  },
  tracking: { name: 'seo_tracking', default: (): boolean => false },
  configurationState: { name: 'seo_configuration_state', default: (): { finishedSteps: string[] } => ({ finishedSteps: [] }) },
  integrations: { name: 'seo_integrations', default: (): Record<string, boolean> => ({}) },
  dismissedPostTypes: { name: 'seo_dismissed_post_types', default: (): string[] => [] },
  dismissedTaxonomies: { name: 'seo_dismissed_taxonomies', default: (): string[] => [] },
  workouts: { name: 'seo_workouts', default: (): Record<string, unknown> => ({}) },
  keyphraseCountry: { name: 'seo_keyphrase_country_code', default: (): string => 'us' },
  keyphraseTokens: { name: 'seo_keyphrase_provider_tokens', default: (): ProviderTokens | null => null },
  rankTrackerTokens: { name: 'seo_rank_tracker_tokens', default: (): ProviderTokens | null => null },
} as const;

export type SeoOptionKey = keyof typeof SEO_OPTIONS;
export type SeoOptionValue<K extends SeoOptionKey> = ReturnType<(typeof SEO_OPTIONS)[K]['default']>;

async function readJson(prisma: OptionReader, name: string): Promise<unknown> {
  const row = await prisma.option.findUnique({ where: { name } });
  if (!row) return undefined;
  try { return JSON.parse(row.value); } catch { return undefined; }
}

/** An option's stored value merged over its default (objects), or the default when absent. */
export async function getSeoOption<K extends SeoOptionKey>(prisma: OptionReader, key: K): Promise<SeoOptionValue<K>> {
  const def = SEO_OPTIONS[key].default() as SeoOptionValue<K>;
  const stored = await readJson(prisma, SEO_OPTIONS[key].name);
  if (stored === undefined || stored === null) return def;
  if (def && typeof def === 'object' && !Array.isArray(def) && typeof stored === 'object' && !Array.isArray(stored)) return { ...def, ...(stored as object) } as SeoOptionValue<K>;
  if (Array.isArray(def) !== Array.isArray(stored)) return def;
  return stored as SeoOptionValue<K>;
}

export function setSeoOption<K extends SeoOptionKey>(prisma: OptionStore, key: K, value: SeoOptionValue<K>): Promise<void> {
  return setOption(prisma, SEO_OPTIONS[key].name, value);
}

/** The site representation (the head's JSON-LD reads it through here). */
export function getSiteRepresentation(ctx: Pick<Context, 'prisma'>): Promise<SiteRepresentation> {
  return getSeoOption(ctx.prisma, 'siteRepresentation');
}

export function getSocialProfiles(ctx: Pick<Context, 'prisma'>): Promise<SocialProfiles> {
  return getSeoOption(ctx.prisma, 'socialProfiles');
}

// ---------------------------------------------------------------- per user and per job

const userStateName = (userId: number) => `seo_user_state_${userId}`;

export async function getUserState(prisma: OptionReader, userId: number): Promise<SeoUserState> {
  const def: SeoUserState = { introductions: {}, video_embed_permission: false, dismissed_alerts: [] };
  const stored = await readJson(prisma, userStateName(userId));
  return stored && typeof stored === 'object' ? { ...def, ...(stored as Partial<SeoUserState>) } : def;
}

/** Reads, changes and stores one user's state in a transaction (two requests cannot lose each other's change). */
export async function updateUserState(ctx: Pick<Context, 'prisma'>, userId: number, change: (s: SeoUserState) => void): Promise<SeoUserState> {
  return ctx.prisma.$transaction(async (tx: Tx) => {
    const state = await getUserState(tx, userId);
    change(state);
    await setOption(tx, userStateName(userId), state);
    return state;
  });
}

const jobName = (plugin: string, type: string) => `seo_import_job_${plugin}_${type}`;

export async function getImportJob(prisma: OptionReader, plugin: string, type: string): Promise<ImportJob | null> {
  const stored = await readJson(prisma, jobName(plugin, type));
  return stored && typeof stored === 'object' ? (stored as ImportJob) : null;
}

export function setImportJob(prisma: OptionStore, job: ImportJob): Promise<void> {
  return setOption(prisma, jobName(job.plugin, job.type), job);
}

export async function clearImportJob(prisma: Pick<Context['prisma'], 'option'>, plugin: string, type: string): Promise<void> {
  await prisma.option.deleteMany({ where: { name: jobName(plugin, type) } });
}
