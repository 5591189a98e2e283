// The scenarios of large sites: a deep page of the list (page 1,000 = OFFSET 9,990), the list of
// one category, the list of one author, and full-text search with a word most posts hold and with
// a word few hold. All cold: each request excludes a different post, so the response cache never answers
// and each one costs its query and its total (X-WP-Total, cached per filter until a write).
const LIST = '/wp-json/core/v2/posts?per_page=10';

/** The search words: in most posts (subjects and body words of bench/seed.ts), and in few. */
export const COMMON_WORD = 'garden';
export const RARE_WORD = 'lighthouse';

interface Target { method: 'GET' | 'POST'; path: string; body?: string }
interface ScaleScenario { name: string; next: () => Target; check: (status: number, body: string) => string | null }

function checkPage(status: number, body: string): string | null {
  if (status !== 200) return `HTTP ${status}: ${body.slice(0, 200)}`;
  let json: unknown;
  try { json = JSON.parse(body); } catch { return 'not JSON'; }
  return Array.isArray(json) && json.length > 0 && typeof (json[0] as { id?: unknown }).id === 'number' ? null : `not a list of posts: ${body.slice(0, 200)}`;
}

/** `ids` in random order, walked round (a repeat only after every id was used once). */
function cycle(ids: number[]): () => number {
  const a = ids.slice();
  for (let i = a.length - 1; i > 0; i--) { const j = Math.floor(Math.random() * (i + 1)); [a[i], a[j]] = [a[j], a[i]]; }
  let k = 0;
  return () => a[k++ % a.length];
}

export function scaleScenarios(ids: number[], categoryId = 1, authorId = 1): ScaleScenario[] {
  const cold = (name: string, query: string): ScaleScenario => {
    const next = cycle(ids);
    let n = 0;
    // After a full round of ids a pass number keeps the requests distinct (the routes ignore it).
    return { name, next: () => ({ method: 'GET', path: `${LIST}${query}&exclude=${next()}${++n > ids.length ? `&pass=${Math.floor(n / ids.length)}` : ''}` }), check: checkPage };
  };
  const out: ScaleScenario[] = [];
  // Page 1,000 exists from 10,000 posts on (one of them excluded, its last page holds 9).
  if (ids.length >= 10_000) out.push(cold('rest page 1000 cold', '&page=1000'));
  out.push(
    cold('rest category cold', `&categories=${categoryId}`),
    cold('rest author cold', `&author=${authorId}`),
    cold('rest search common cold', `&search=${COMMON_WORD}`),
    cold('rest search rare cold', `&search=${RARE_WORD}`),
  );
  return out;
}

/** Connections for the search scenarios of a large site (see `forSiteSize`). */
export const SEARCH_CONNECTIONS = 2;

/**
 * The scenarios in the order to run them for a site of `posts` posts. From 100,000 posts on, the
 * full-text ones (search, and the list filtered by category and a word) run last and with
 * SEARCH_CONNECTIONS connections: a request that takes seconds holds a worker for its whole run
 * (SQLite's calls are synchronous), and 32 of them queue minutes of work that would still be
 * running, and timing out, through every scenario after them.
 */
export function forSiteSize<S extends { name: string; connections?: number }>(scenarios: S[], posts: number): S[] {
  if (posts < 100_000) return scenarios;
  const slow = (s: S) => /search|filtered/.test(s.name);
  return [...scenarios.filter((s) => !slow(s)), ...scenarios.filter(slow).map((s) => ({ ...s, connections: SEARCH_CONNECTIONS }))];
}

/** The scenarios a large site's figures are held to against the same ones at 10,000 posts. */
export const SCALE_SCENARIOS = ['rest list cold', 'rest page 1000 cold', 'rest category cold', 'rest author cold', 'rest search common cold', 'rest search rare cold'];
/** Sites from this size on are compared with the 10,000-post figures. */
export const SCALE_FROM = 100_000;
export const SCALE_POSTS_REFERENCE = 10_000;
/** At most this much slower per request than at 10,000 posts. */
export const SCALE_GOAL = 1.25;
/** No read of a large site's scenarios may take longer, its scenario's first request included. */
export const SCALE_SLOWEST_MS = 1000;

/** Where the targets are collected (bench/targets.ts), as far as these functions use it. */
interface Targets { add(t: { db: string; name: string; value: number | undefined; goal: number; better: 'higher' | 'lower'; unit: string; note?: string }): unknown }

interface ThroughputRow { scenario: string; server: string; requests: number; reqPerSec: number }

/**
 * The flat-at-scale targets (issue 15): each scenario's throughput at this size within SCALE_GOAL×
 * of its throughput at 10,000 posts (value: req/s at 10,000 ÷ req/s now), read from `reference`
 * (the results file of a 10,000-post run of the same database; a run of another size writes its
 * own file, so the reference stays). Requests per second, not latency: from 100,000 posts on the
 * full-text scenarios run with 2 connections instead of 32, and with every connection busy the
 * rate follows the work per request whatever the number of connections, the latency does not.
 */
export function scaleTargets(targets: Targets, db: string, posts: number, rows: ThroughputRow[], reference: { posts?: number; scenarios?: ThroughputRow[] } | null): void {
  if (posts < SCALE_FROM) return;
  const usable = reference?.posts === SCALE_POSTS_REFERENCE ? reference : null;
  const rate = (list: ThroughputRow[] | undefined, scenario: string) => {
    // Large sites run the full-text scenarios with fewer connections: "<name> (2 conn.)".
    const r = list?.find((x) => (x.scenario === scenario || x.scenario.startsWith(`${scenario} (`)) && x.server === 'service' && x.requests > 0);
    return r?.reqPerSec;
  };
  for (const scenario of SCALE_SCENARIOS) {
    const now = rate(rows, scenario);
    const then = rate(usable?.scenarios, scenario);
    targets.add({
      db, name: `${db} ${scenario.replace(/^rest /, '')}: req/s at 10,000 ÷ at ${posts.toLocaleString('en-US')}`,
      value: now && then ? then / now : undefined, goal: SCALE_GOAL, better: 'lower', unit: '×',
      note: !usable ? 'no 10,000-post results of this database (run `npm run bench` first)' : `${then?.toFixed(0) ?? '—'} vs ${now?.toFixed(0) ?? '—'} req/s`,
    });
  }
}

interface LatencyRow { scenario: string; server: string; latencyMs: { max: number }; firstMs?: number; errors: number; timeouts: number }

/**
 * The slowest read of the service's scenarios on a large site: the longest answer of any run, or a
 * scenario's first request (timed on its own before the run: a total counted for the first time
 * falls there). A request that timed out took at least the load generator's timeout
 * (`timeoutMs`), which is what is shown for it.
 */
export function slowestTarget(targets: Targets, db: string, posts: number, rows: LatencyRow[], timeoutMs: number): void {
  if (posts < SCALE_FROM) return;
  const service = rows.filter((r) => r.server.startsWith('service'));
  let worst: LatencyRow | undefined;
  let worstMs = 0;
  for (const r of service) {
    const ms = Math.max(r.latencyMs.max, r.firstMs ?? 0);
    if (ms >= worstMs) { worst = r; worstMs = ms; }
  }
  const failed = service.filter((r) => r.errors + r.timeouts > 0);
  targets.add({
    db, name: `${db} slowest read at ${posts.toLocaleString('en-US')} posts (first requests included)`,
    value: failed.length ? Math.max(worstMs, timeoutMs) : worst ? worstMs : undefined, goal: SCALE_SLOWEST_MS, better: 'lower', unit: 'ms',
    note: failed.length ? `requests failed or timed out (${timeoutMs / 1000} s) in: ${failed.map((r) => r.scenario).join(', ')}` : worst ? `in ${worst.scenario}` : undefined,
  });
}
