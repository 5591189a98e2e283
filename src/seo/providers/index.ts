// External keyphrase services behind one small interface: a keyphrase research provider and a
// rank tracker, each an HTTP API at a configured base URL (SEO_KEYPHRASE_PROVIDER_URL,
// SEO_RANK_TRACKER_URL). Every call goes through the guarded client, with the same allow list
// mechanism as the oEmbed proxy (SEO_ALLOW_HOSTS). Tokens from `authenticate` are kept per site
// in options (src/seo/site/options.ts); a provider not configured is a 400 naming the setting.
import { randomBytes } from 'node:crypto';
import type { Context } from '../../context.js';
import { restError } from '../../errors.js';
import { GuardedFetchError, guardedFetch } from '../../http/guarded-client.js';
import { getSeoOption, setSeoOption, type ProviderTokens } from '../site/options.js';

export interface ProviderSettings {
  /** Base URL of the keyphrase research API (SEO_KEYPHRASE_PROVIDER_URL). */
  keyphraseProviderUrl?: string | null;
  /** Base URL of the rank tracker API (SEO_RANK_TRACKER_URL). */
  rankTrackerUrl?: string | null;
  /** The client id the rank tracker knows this site by (SEO_RANK_TRACKER_CLIENT_ID). */
  rankTrackerClientId?: string | null;
  /** Hosts the calls may reach even on private addresses (SEO_ALLOW_HOSTS). */
  allowHosts?: string[];
  timeoutMs?: number;
}

type Json = Record<string, unknown>;
type TokenKey = 'keyphraseTokens' | 'rankTrackerTokens';

/** One API: a base URL, a setting name for the error when it is missing, a token slot. */
class ProviderApi {
  constructor(
    readonly label: string,
    private readonly base: string | null | undefined,
    private readonly setting: string,
    readonly tokenKey: TokenKey,
    private readonly o: ProviderSettings,
  ) {}

  baseUrl(): string {
    if (!this.base) {
      throw restError('seo_provider_not_configured', `The ${this.label} is not configured: set ${this.setting}.`, 400, { setting: this.setting });
    }
    return this.base.replace(/\/+$/, '');
  }

  async tokens(ctx: Context): Promise<ProviderTokens> {
    const t = await getSeoOption(ctx.prisma, this.tokenKey);
    if (!t?.access_token) throw restError('seo_provider_not_authenticated', `The site has not been connected to the ${this.label} yet: authenticate first.`, 400);
    return t;
  }

  /** One call; the provider's JSON answer with its status. Refusals and failures become WP-style errors. */
  async call(method: 'GET' | 'POST' | 'DELETE', path: string, o: { query?: Record<string, string>; body?: Json; token?: string } = {}): Promise<{ status: number; data: unknown }> {
    const url = new URL(this.baseUrl() + path);
    for (const [k, v] of Object.entries(o.query ?? {})) url.searchParams.set(k, v);
    const headers: Record<string, string> = { accept: 'application/json' };
    if (o.body) headers['content-type'] = 'application/json';
    if (o.token) headers.authorization = `Bearer ${o.token}`;
    let res;
    try {
      res = await guardedFetch(url.href, {
        method, headers, body: o.body ? JSON.stringify(o.body) : undefined, anyStatus: true, allowHosts: this.o.allowHosts ?? [], timeoutMs: this.o.timeoutMs,
      });
    } catch (err) {
      const reason = err instanceof GuardedFetchError ? err.message : 'The request failed.';
      throw restError('seo_provider_unreachable', `The ${this.label} could not be reached: ${reason}`, 502);
    }
    let data: unknown = null;
    try { data = res.text ? JSON.parse(res.text) : null; } catch { data = res.text; }
    if (res.status >= 400) {
      const message = (data && typeof data === 'object' && typeof (data as Json).message === 'string') ? String((data as Json).message) : `The ${this.label} answered ${res.status}.`;
      // The provider's refusal of the caller's input (a bad code, an unknown keyphrase) is the caller's 400; its own failure a 502.
      throw restError('seo_provider_error', message, res.status < 500 ? 400 : 502, { provider_status: res.status });
    }
    return { status: res.status, data };
  }

  async storeTokens(ctx: Context, answer: unknown, extra: Json = {}): Promise<ProviderTokens> {
    const a = (answer && typeof answer === 'object' ? answer : {}) as Json;
    if (typeof a.access_token !== 'string' || !a.access_token) throw restError('seo_provider_error', `The ${this.label} gave no access token.`, 502);
    const tokens: ProviderTokens = {
      access_token: a.access_token,
      ...(typeof a.refresh_token === 'string' ? { refresh_token: a.refresh_token } : {}),
      ...(typeof a.expires_in === 'number' ? { expires_at: Math.floor(Date.now() / 1000) + a.expires_in } : {}),
      ...extra,
    };
    await setSeoOption(ctx.prisma, this.tokenKey, tokens);
    return tokens;
  }
}

/** A required parameter absent or blank, as the route's validation reports it. */
function missing(param: string): never {
  throw restError('rest_invalid_param', `Invalid parameter(s): ${param}`, 400, { params: { [param]: `${param} is required.` } });
}

/** The keyphrases to track: a list or one value, each trimmed, blanks left out; none left is a 400. */
export function keyphrasesToTrack(v: unknown): string[] {
  const all = Array.isArray(v) ? v.map(String) : v === undefined || v === null || v === '' ? [] : [String(v)];
  const list = all.map((k) => k.trim()).filter(Boolean);
  if (!list.length) missing('keyphrases');
  return list;
}

/** The keyphrase to stop tracking, trimmed; absent or blank is a 400. */
export function keyphraseToUntrack(v: unknown): string {
  const keyphrase = v === undefined || v === null ? undefined : String(v).trim();
  if (!keyphrase) missing('keyphrase');
  return keyphrase;
}

export interface SeoProviders {
  keyphrase: KeyphraseProvider;
  rankTracker: RankTracker;
}

export function createProviders(o: ProviderSettings): SeoProviders {
  return { keyphrase: new KeyphraseProvider(o), rankTracker: new RankTracker(o) };
}

/** Related keyphrases and their volumes, per country database. */
export class KeyphraseProvider {
  private readonly api: ProviderApi;
  constructor(o: ProviderSettings) {
    this.api = new ProviderApi('keyphrase provider', o.keyphraseProviderUrl, 'SEO_KEYPHRASE_PROVIDER_URL', 'keyphraseTokens', o);
  }

  /** Trades the authorization code for tokens (POST {base}/oauth/token) and keeps them for the site. */
  async authenticate(ctx: Context, code: string): Promise<{ status: number; tokens: { access_token: string; expires_at?: number } }> {
    const { data } = await this.api.call('POST', '/oauth/token', { body: { grant_type: 'authorization_code', code } });
    const t = await this.api.storeTokens(ctx, data);
    return { status: 200, tokens: { access_token: t.access_token, ...(t.expires_at ? { expires_at: t.expires_at } : {}) } };
  }

  /** The country database used by default. Stored only: no call. */
  async setCountryCode(ctx: Context, countryCode: string): Promise<{ status: number; country_code: string }> {
    const code = countryCode.trim().toLowerCase();
    if (!/^[a-z]{2}$/.test(code)) throw restError('rest_invalid_param', 'Invalid parameter(s): country_code', 400, { params: { country_code: 'A two-letter country code is expected.' } });
    this.api.baseUrl();
    await setSeoOption(ctx.prisma, 'keyphraseCountry', code);
    return { status: 200, country_code: code };
  }

  /** GET {base}/keyphrases/related?phrase=&country= with the site's token; answers the provider's list. */
  async related(ctx: Context, keyphrase: string, countryCode: string): Promise<{ status: number; results: unknown }> {
    this.api.baseUrl();
    const { access_token } = await this.api.tokens(ctx);
    const { data } = await this.api.call('GET', '/keyphrases/related', { query: { phrase: keyphrase, country: countryCode.toLowerCase() }, token: access_token });
    return { status: 200, results: data };
  }
}

/** Tracks the positions of a site's keyphrases in search results. */
export class RankTracker {
  private readonly api: ProviderApi;
  constructor(private readonly o: ProviderSettings) {
    this.api = new ProviderApi('rank tracker', o.rankTrackerUrl, 'SEO_RANK_TRACKER_URL', 'rankTrackerTokens', o);
  }

  /** Where to send the user to connect the site (no call is made). */
  authorizationUrl(redirectUri: string): { status: number; url: string } {
    const url = new URL(this.api.baseUrl() + '/oauth/authorize');
    url.searchParams.set('response_type', 'code');
    if (this.o.rankTrackerClientId) url.searchParams.set('client_id', this.o.rankTrackerClientId);
    url.searchParams.set('redirect_uri', redirectUri);
    url.searchParams.set('state', randomBytes(12).toString('hex'));
    return { status: 200, url: url.href };
  }

  async authenticate(ctx: Context, code: string, websiteId: string): Promise<{ status: number; data: { website_id: string } }> {
    const { data } = await this.api.call('POST', '/oauth/token', { body: { grant_type: 'authorization_code', code, website_id: websiteId } });
    await this.api.storeTokens(ctx, data, { website_id: websiteId });
    return { status: 200, data: { website_id: websiteId } };
  }

  private async session(ctx: Context): Promise<{ token: string; site: string }> {
    this.api.baseUrl();
    const t = await this.api.tokens(ctx);
    return { token: t.access_token, site: encodeURIComponent(String(t.website_id ?? '')) };
  }

  /** POST {base}/websites/{id}/keyphrases/bulk {keyphrases}. */
  async track(ctx: Context, keyphrases: string[]): Promise<{ status: number; results: unknown }> {
    const s = await this.session(ctx);
    const { data } = await this.api.call('POST', `/websites/${s.site}/keyphrases/bulk`, { body: { keyphrases }, token: s.token });
    return { status: 201, results: data };
  }

  /** POST {base}/websites/{id}/keyphrases {keyphrases?, permalink?, start_at?}: the tracked keyphrases and their positions. */
  async keyphrases(ctx: Context, q: { keyphrases?: string[]; permalink?: string; startAt?: string }): Promise<{ status: number; results: unknown }> {
    const s = await this.session(ctx);
    const body: Json = {};
    if (q.keyphrases) body.keyphrases = q.keyphrases;
    if (q.permalink) body.permalink = q.permalink;
    if (q.startAt) body.start_at = q.startAt;
    const { data } = await this.api.call('POST', `/websites/${s.site}/keyphrases`, { body, token: s.token });
    return { status: 200, results: data };
  }

  /** DELETE {base}/websites/{id}/keyphrases?phrase=. */
  async untrack(ctx: Context, keyphrase: string): Promise<{ status: number }> {
    const s = await this.session(ctx);
    await this.api.call('DELETE', `/websites/${s.site}/keyphrases`, { query: { phrase: keyphrase }, token: s.token });
    return { status: 200 };
  }

  /** GET {base}/account/limit: `{usage, limit}` of the account. */
  async limit(ctx: Context): Promise<{ status: number; usage: unknown; limit: unknown }> {
    const s = await this.session(ctx);
    const { data } = await this.api.call('GET', '/account/limit', { token: s.token });
    const d = (data ?? {}) as Json;
    return { status: 200, usage: d.usage ?? null, limit: d.limit ?? null };
  }

  async upgradeCampaign(ctx: Context): Promise<{ status: number; campaign: unknown }> {
    const s = await this.session(ctx);
    const { data } = await this.api.call('GET', '/account/upgrade-campaign', { token: s.token });
    return { status: 200, campaign: data };
  }
}
