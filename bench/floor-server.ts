// The floor the service's cold reads are measured against: a hand-written server with no ORM, no
// GraphQL and no general routing, clustered like the service (one process per worker), reading the
// service's own database with prepared statements (better-sqlite3) or plain queries (pg). It
// answers the two cold read scenarios of bench/run.ts with the same records as the service: the
// published posts newest first, `exclude`, `per_page`, `page`, each post's categories and tags,
// `X-WP-Total` counted as WordPress counts it (a COUNT over the same conditions for every
// request), and one post by id. Text is sent as stored: the title raw, the content and excerpt as the
// service stored them rendered when the posts were saved (the seed stores them as a save does), no
// rendering here; `_links` minimal: whatever
// the service spends beyond this is its own. Started by bench/run.ts.
// Env: FLOOR_PORT, FLOOR_HOST (127.0.0.1), FLOOR_WORKERS, FLOOR_DATABASE_URL (file:… or postgresql://…), FLOOR_SITE_URL.
import cluster from 'node:cluster';
import { createServer, type ServerResponse } from 'node:http';
import { resolve } from 'node:path';

const port = Number(process.env.FLOOR_PORT ?? 0);
const host = process.env.FLOOR_HOST ?? '127.0.0.1';
const workers = Math.max(1, Number(process.env.FLOOR_WORKERS ?? 1));
const databaseUrl = process.env.FLOOR_DATABASE_URL ?? '';
const site = (process.env.FLOOR_SITE_URL ?? `http://${host}:${port}`).replace(/\/$/, '');

interface PostRow {
  id: number; date: unknown; dateGmt: unknown; modified: unknown; modifiedGmt: unknown; guid: string; slug: string; status: string; type: string;
  title: string; content: string; excerpt: string; authorId: number; featuredMedia: number; commentStatus: string; pingStatus: string;
  template: string; format: string;
}
interface TermRow { contentId: number; termId: number; taxonomy: string }

/** What the floor needs of a database: a page of posts, their total, one post, the posts' terms. */
interface Store {
  page(exclude: number[], limit: number, offset: number): Promise<PostRow[]>;
  total(exclude: number[]): Promise<number>;
  one(id: number): Promise<PostRow | undefined>;
  terms(ids: number[]): Promise<TermRow[]>;
}

const COLUMNS = '"id", "date", "dateGmt", "modified", "modifiedGmt", "guid", "slug", "status", "type", "title", "renderedContent" AS "content", "renderedExcerpt" AS "excerpt", "authorId", "featuredMedia", "commentStatus", "pingStatus", "template", "format"';
const PUBLISHED = `"type" = 'post' AND "status" = 'publish'`;

async function sqliteStore(file: string): Promise<Store> {
  const { default: Database } = await import('better-sqlite3');
  const db = new Database(file, { readonly: true, fileMustExist: true });
  // One statement per shape, prepared once: the exclude lists of the bench hold one id (more fall back to a fresh statement).
  const pageOne = db.prepare(`SELECT ${COLUMNS} FROM "Content" WHERE ${PUBLISHED} AND "id" <> ? ORDER BY "date" DESC, "id" DESC LIMIT ? OFFSET ?`);
  const pageAll = db.prepare(`SELECT ${COLUMNS} FROM "Content" WHERE ${PUBLISHED} ORDER BY "date" DESC, "id" DESC LIMIT ? OFFSET ?`);
  const totalOne = db.prepare(`SELECT COUNT(*) AS n FROM "Content" WHERE ${PUBLISHED} AND "id" <> ?`);
  const totalAll = db.prepare(`SELECT COUNT(*) AS n FROM "Content" WHERE ${PUBLISHED}`);
  const one = db.prepare(`SELECT ${COLUMNS} FROM "Content" WHERE "id" = ? AND ${PUBLISHED}`);
  const terms = new Map<number, ReturnType<typeof db.prepare<number[]>>>();
  const termsOf = (n: number) => {
    let s = terms.get(n);
    if (!s) terms.set(n, (s = db.prepare<number[]>(`SELECT "contentId", "termId", "taxonomy" FROM "TermRelationship" WHERE "contentId" IN (${Array(n).fill('?').join(', ')}) ORDER BY "termOrder", "termId"`)));
    return s;
  };
  const notIn = (exclude: number[]) => `SELECT ${COLUMNS} FROM "Content" WHERE ${PUBLISHED} AND "id" NOT IN (${exclude.map(() => '?').join(', ')}) ORDER BY "date" DESC, "id" DESC LIMIT ? OFFSET ?`;
  return {
    async page(exclude, limit, offset) {
      if (!exclude.length) return pageAll.all(limit, offset) as PostRow[];
      if (exclude.length === 1) return pageOne.all(exclude[0], limit, offset) as PostRow[];
      return db.prepare(notIn(exclude)).all(...exclude, limit, offset) as PostRow[];
    },
    async total(exclude) {
      if (!exclude.length) return (totalAll.get() as { n: number }).n;
      if (exclude.length === 1) return (totalOne.get(exclude[0]) as { n: number }).n;
      return (db.prepare(`SELECT COUNT(*) AS n FROM "Content" WHERE ${PUBLISHED} AND "id" NOT IN (${exclude.map(() => '?').join(', ')})`).get(...exclude) as { n: number }).n;
    },
    async one(id) { return one.get(id) as PostRow | undefined; },
    async terms(ids) { return ids.length ? (termsOf(ids.length).all(...ids) as TermRow[]) : []; },
  };
}

async function postgresStore(url: string): Promise<Store> {
  const { default: pg } = await import('pg');
  // Timestamps without a zone hold UTC here (as the service writes them): read as text, not as local time.
  pg.types.setTypeParser(1114, (v: string) => v);
  const pool = new pg.Pool({ connectionString: url, max: 10 });
  return {
    async page(exclude, limit, offset) {
      return (await pool.query<PostRow>(`SELECT ${COLUMNS} FROM "Content" WHERE ${PUBLISHED} AND NOT ("id" = ANY($1::int[])) ORDER BY "date" DESC, "id" DESC LIMIT $2 OFFSET $3`, [exclude, limit, offset])).rows;
    },
    async total(exclude) {
      return Number((await pool.query<{ n: string }>(`SELECT COUNT(*) AS n FROM "Content" WHERE ${PUBLISHED} AND NOT ("id" = ANY($1::int[]))`, [exclude])).rows[0].n);
    },
    async one(id) { return (await pool.query<PostRow>(`SELECT ${COLUMNS} FROM "Content" WHERE "id" = $1 AND ${PUBLISHED}`, [id])).rows[0]; },
    async terms(ids) {
      return ids.length ? (await pool.query<TermRow>(`SELECT "contentId", "termId", "taxonomy" FROM "TermRelationship" WHERE "contentId" = ANY($1::int[]) ORDER BY "termOrder", "termId"`, [ids])).rows : [];
    },
  };
}

/** WordPress's date form (site time, no offset) from what the driver gives: a Date, an ISO string, or milliseconds. */
function wpDate(v: unknown): string {
  if (typeof v === 'string' && /^\d{4}-\d{2}-\d{2}[ T]\d{2}:\d{2}:\d{2}/.test(v)) return `${v.slice(0, 10)}T${v.slice(11, 19)}`;
  return new Date(v as string | number | Date).toISOString().slice(0, 19);
}

function record(p: PostRow, terms: TermRow[]) {
  const self = `${site}/wp-json/core/v2/posts/${p.id}`;
  return {
    id: p.id, date: wpDate(p.date), date_gmt: wpDate(p.dateGmt), guid: { rendered: p.guid }, modified: wpDate(p.modified), modified_gmt: wpDate(p.modifiedGmt),
    slug: p.slug, status: p.status, type: p.type, link: `${site}/?p=${p.id}`,
    title: { rendered: p.title }, content: { rendered: p.content, protected: false }, excerpt: { rendered: p.excerpt, protected: false },
    author: p.authorId, featured_media: p.featuredMedia, comment_status: p.commentStatus, ping_status: p.pingStatus, sticky: false,
    template: p.template, format: p.format, meta: [],
    categories: terms.filter((t) => t.contentId === p.id && t.taxonomy === 'category').map((t) => t.termId),
    tags: terms.filter((t) => t.contentId === p.id && t.taxonomy === 'post_tag').map((t) => t.termId),
    _links: { self: [{ href: self }], collection: [{ href: `${site}/wp-json/core/v2/posts` }], author: [{ embeddable: true, href: `${site}/wp-json/core/v2/users/${p.authorId}` }] },
  };
}

function answer(res: ServerResponse, status: number, body: unknown, headers: Record<string, string | number> = {}): void {
  const text = JSON.stringify(body);
  res.writeHead(status, { 'Content-Type': 'application/json; charset=UTF-8', 'Content-Length': Buffer.byteLength(text), ...headers });
  res.end(text);
}

/** Whole numbers of a query value as WordPress reads a list: `1,2` or repeated `exclude[]=`. */
const ids = (values: string[]) => values.flatMap((v) => v.split(',')).map(Number).filter((n) => Number.isInteger(n) && n > 0);

async function serve(): Promise<void> {
  // `file:PATH` as the service reads it: a path, relative to where it runs, without the query.
  const store = databaseUrl.startsWith('file:') ? await sqliteStore(resolve(databaseUrl.slice('file:'.length).split('?')[0])) : await postgresStore(databaseUrl);
  const server = createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://floor');
    const item = /^\/wp-json\/core\/v2\/posts\/(\d+)$/.exec(url.pathname);
    (async () => {
      if (url.pathname === '/wp-json/' || url.pathname === '/wp-json') return answer(res, 200, { name: 'floor' });
      if (item) {
        const post = await store.one(Number(item[1]));
        if (!post) return answer(res, 404, { code: 'rest_post_invalid_id', message: 'Invalid post ID.', data: { status: 404 } });
        return answer(res, 200, record(post, await store.terms([post.id])));
      }
      if (url.pathname !== '/wp-json/core/v2/posts') return answer(res, 404, { code: 'rest_no_route', message: 'No route was found matching the URL and request method.', data: { status: 404 } });
      const perPage = Math.min(100, Math.max(1, Number(url.searchParams.get('per_page') ?? 10) || 10));
      const page = Math.max(1, Number(url.searchParams.get('page') ?? 1) || 1);
      const exclude = ids([...url.searchParams.getAll('exclude'), ...url.searchParams.getAll('exclude[]')]);
      const [rows, total] = await Promise.all([store.page(exclude, perPage, (page - 1) * perPage), store.total(exclude)]);
      const terms = await store.terms(rows.map((r) => r.id));
      answer(res, 200, rows.map((r) => record(r, terms)), { 'X-WP-Total': total, 'X-WP-TotalPages': Math.ceil(total / perPage) });
    })().catch((err) => answer(res, 500, { code: 'floor_error', message: String(err), data: { status: 500 } }));
  });
  server.keepAliveTimeout = 65_000;
  server.listen(port, host, () => { if (cluster.isPrimary) console.log(`floor server listening on http://${host}:${port}`); });
  const stop = () => server.close(() => process.exit(0));
  process.on('SIGTERM', stop);
  process.on('SIGINT', stop);
}

if (cluster.isPrimary && workers > 1) {
  for (let i = 0; i < workers; i++) cluster.fork();
  let listening = 0;
  cluster.on('listening', () => { if (++listening === workers) console.log(`floor server listening on http://${host}:${port} with ${workers} workers`); });
  cluster.on('exit', (worker, code) => { if (code !== 0) console.error(`floor worker ${worker.process.pid} exited (${code})`); });
} else {
  await serve();
}
