// The load of the reliability run, in a process of its own: CONNECTIONS loops over keep-alive
// connections for DURATION seconds, mixing anonymous reads (lists and single posts, answered
// through the response cache) with authenticated creates and updates. Each loop updates only the
// posts it created, so a post's last acknowledged title is known. Prints one JSON line at the end.
import { Agent } from 'node:http';
import { basic, json, send, type Reply } from './http.js';

export interface LoadInput { base: string; user: string; password: string; duration: number; connections: number; categories: number[]; tags: number[] }

export interface LoadResult {
  requests: number;
  errors: number;
  /** The first few unexpected answers, for the report. */
  samples: string[];
  /** Reads of an acknowledged post whose title was older than its last acknowledged update (another worker's cache not yet retired). */
  staleReads: number;
  /** Acknowledged creates: id → last acknowledged title. */
  posts: Record<number, string>;
  createsAcknowledged: number;
  updatesAcknowledged: number;
  latenciesMs: number[];
  seconds: number;
}

const input = JSON.parse(process.env.RELIABILITY_LOAD ?? '{}') as LoadInput;
const agent = new Agent({ keepAlive: true, maxSockets: input.connections });
const auth = basic(input.user, input.password);
const result: LoadResult = { requests: 0, errors: 0, samples: [], staleReads: 0, posts: {}, createsAcknowledged: 0, updatesAcknowledged: 0, latenciesMs: [], seconds: 0 };
const ids: number[] = [];
/** Posts with an update on the wire: their title may be either one. */
const updating = new Set<number>();
const pick = <T>(list: T[]): T => list[Math.floor(Math.random() * list.length)];

function fail(what: string, detail: string): void {
  result.errors++;
  if (result.samples.length < 10) result.samples.push(`${what}: ${detail.slice(0, 300)}`);
}

async function timed(method: string, path: string, body?: unknown): Promise<Reply | null> {
  const start = performance.now();
  try {
    const reply = await send(input.base, method, path, {
      agent,
      body: body === undefined ? undefined : JSON.stringify(body),
      headers: body === undefined ? {} : { authorization: auth, 'content-type': 'application/json' },
    });
    result.latenciesMs.push(performance.now() - start);
    result.requests++;
    return reply;
  } catch (err) {
    result.requests++;
    fail(`${method} ${path}`, (err as Error).message);
    return null;
  }
}

async function loop(n: number, until: number): Promise<void> {
  const mine: number[] = [];
  let k = 0;
  while (Date.now() < until) {
    try { await step(); } catch (err) { fail('answer', (err as Error).message); }
  }

  async function step(): Promise<void> {
    const roll = Math.random();
    if (roll < 0.45) {
      const r = await timed('GET', `/wp-json/core/v2/posts?per_page=10&categories=${pick(input.categories)}`);
      if (r && (r.status !== 200 || !Array.isArray(json(r)))) fail('list', `HTTP ${r.status} ${r.body}`);
    } else if (roll < 0.7 && ids.length) {
      const id = pick(ids);
      const expected = result.posts[id];
      const wasUpdating = updating.has(id);
      const r = await timed('GET', `/wp-json/core/v2/posts/${id}`);
      if (!r) return;
      if (r.status !== 200) { fail(`read ${id}`, `HTTP ${r.status} ${r.body}`); return; }
      const title = json(r).title?.rendered;
      if (!wasUpdating && !updating.has(id) && title !== expected && result.posts[id] === expected) result.staleReads++;
    } else if (roll < 0.88 || !mine.length) {
      const title = `load c${n}-${++k}`;
      const r = await timed('POST', '/wp-json/core/v2/posts', {
        title, status: 'publish', content: `<p>${title}</p>`, categories: [pick(input.categories)], tags: [pick(input.tags), pick(input.tags)], meta: { footnotes: '' },
      });
      if (!r) return;
      const id = r.status === 201 ? json(r).id : undefined;
      if (typeof id !== 'number') { fail('create', `HTTP ${r.status} ${r.body}`); return; }
      result.posts[id] = title;
      result.createsAcknowledged++;
      ids.push(id);
      mine.push(id);
    } else {
      const id = pick(mine);
      const title = `${result.posts[id].replace(/ u\d+$/, '')} u${++k}`;
      updating.add(id);
      const r = await timed('POST', `/wp-json/core/v2/posts/${id}`, { title, categories: [pick(input.categories)], tags: [pick(input.tags)] });
      updating.delete(id);
      if (!r) return;
      if (r.status !== 200 || json(r).id !== id) { fail(`update ${id}`, `HTTP ${r.status} ${r.body}`); return; }
      result.posts[id] = title;
      result.updatesAcknowledged++;
    }
  }
}

const started = Date.now();
const until = started + input.duration * 1000;
await Promise.all(Array.from({ length: input.connections }, (_, i) => loop(i + 1, until)));
result.seconds = (Date.now() - started) / 1000;
agent.destroy();
process.stdout.write(`${JSON.stringify(result)}\n`);
