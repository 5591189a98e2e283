// The scenarios of large sites (issue 15): a deep page of the list (page 1,000 = OFFSET 9,990),
// the list of one category, and full-text search with a word most posts hold and with a word few
// hold. All cold: each request excludes a different post, so the response cache never answers
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

export function scaleScenarios(ids: number[], categoryId = 1): ScaleScenario[] {
  const cold = (name: string, query: string): ScaleScenario => {
    const next = cycle(ids);
    let n = 0;
    // After a full round of ids a pass number keeps the requests distinct (the routes ignore it).
    return { name, next: () => ({ method: 'GET', path: `${LIST}${query}&exclude=${next()}${++n > ids.length ? `&pass=${Math.floor(n / ids.length)}` : ''}` }), check: checkPage };
  };
  const out: ScaleScenario[] = [];
  if (ids.length >= 10_010) out.push(cold('rest page 1000 cold', '&page=1000'));
  out.push(
    cold('rest category cold', `&categories=${categoryId}`),
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
