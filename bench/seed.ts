// Fills a bench database with published posts: migrate, create the site, then insert posts in
// batches (bench/bulk.ts: the plain drivers, several thousand rows a statement or transaction)
// with explicit ids, each in the default category; then the category's count and statistics.
// `npx tsx bench/seed.ts <databaseUrl> [count]` runs it alone.
import { pathToFileURL } from 'node:url';
import pg from 'pg';
import { providerOf } from '../src/config.js';
import { migrate } from '../src/db/migrate.js';
import { openDb } from '../src/db/client.js';
import { bootstrapSite } from '../src/site/bootstrap.js';
import { BULK_BATCH, bulkTarget, type PostRow } from './bulk.js';

const BATCH = 1000;
const YEARS = 6;

/** Creates the PostgreSQL database of `databaseUrl` if it does not exist (no-op for SQLite). */
export async function ensureDatabase(databaseUrl: string): Promise<void> {
  if (providerOf(databaseUrl) !== 'postgres') return;
  const url = new URL(databaseUrl);
  const name = decodeURIComponent(url.pathname.replace(/^\//, ''));
  url.pathname = '/postgres';
  const admin = new pg.Client({ connectionString: url.toString() });
  await admin.connect();
  try {
    const { rowCount } = await admin.query('SELECT 1 FROM pg_database WHERE datname = $1', [name]);
    if (!rowCount) await admin.query(`CREATE DATABASE "${name.replace(/"/g, '""')}"`);
  } finally {
    await admin.end();
  }
}

/**
 * PostgreSQL: VACUUM the content tables, as autovacuum would soon after on a live site. After the
 * write warm-up's undone batches (10,000 dead rows and their index entries, the full-text
 * index's pending list among them) the single creates measured 406–529 posts/s, against 535–759
 * before; SQLite has nothing to do (a rolled-back transaction leaves nothing behind).
 */
export async function vacuumContent(databaseUrl: string): Promise<void> {
  if (!databaseUrl.startsWith('postgres')) return;
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  try {
    await client.query('VACUUM "Content", "TermRelationship", "PostMeta", "Term"');
  } finally {
    await client.end();
  }
}

/** Drops and recreates a PostgreSQL database (the bench uses it when it holds too many posts). */
export async function recreateDatabase(databaseUrl: string): Promise<void> {
  const url = new URL(databaseUrl);
  const name = decodeURIComponent(url.pathname.replace(/^\//, ''));
  url.pathname = '/postgres';
  const admin = new pg.Client({ connectionString: url.toString() });
  await admin.connect();
  try {
    await admin.query(`DROP DATABASE IF EXISTS "${name.replace(/"/g, '""')}" WITH (FORCE)`);
    await admin.query(`CREATE DATABASE "${name.replace(/"/g, '""')}"`);
  } finally {
    await admin.end();
  }
}

// ------------------------------------------------------------------ text

/** Small deterministic PRNG (mulberry32): the same count gives the same posts. */
function rng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const SUBJECTS = ['garden', 'kitchen', 'city', 'coastline', 'workshop', 'library', 'mountain trail', 'bakery', 'harbour', 'studio',
  'winter market', 'railway', 'orchard', 'river', 'old town', 'newsroom', 'festival', 'classroom', 'vineyard', 'museum',
  'bicycle', 'camera', 'typewriter', 'piano', 'sourdough', 'compost heap', 'night sky', 'allotment', 'lighthouse', 'bookshop'];
const ADJECTIVES = ['quiet', 'forgotten', 'practical', 'surprising', 'long', 'honest', 'small', 'early', 'simple', 'unexpected',
  'patient', 'modern', 'local', 'slow', 'careful', 'bright', 'hidden', 'seasonal', 'stubborn', 'generous'];
const PATTERNS = [
  (a: string, s: string) => `Notes from the ${a} ${s}`,
  (a: string, s: string) => `What the ${s} taught me about being ${a}`,
  (a: string, s: string) => `A ${a} guide to the ${s}`,
  (a: string, s: string) => `Why the ${s} still matters`,
  (a: string, s: string) => `Ten ${a} lessons from the ${s}`,
  (a: string, s: string) => `The ${a} history of the ${s}`,
  (a: string, s: string) => `Back to the ${s}, again`,
  (a: string, s: string) => `Learning to love the ${a} ${s}`,
];
const WORDS = ('the of and to in a is that for it as was with be by on not he this are or his from at which but have an they ' +
  'you were her all she there would their we him been has when who will more no if out so said what up its about into than them ' +
  'can only other new some could time these two may then do first any my now such like our over man me even most made after also ' +
  'did many before must through back years where much your way well down should because each just those people how too little ' +
  'state good very make world still own see men work long get here between both life being under never day same another know while ' +
  'last might us great old year off come since against go came right used take three morning light water window road table letter ' +
  'garden season market evening river neighbour bread coffee story journey weather summer autumn winter spring harvest station').split(' ');

function capitalize(s: string): string {
  return s.charAt(0).toUpperCase() + s.slice(1);
}

function sentence(r: () => number): string {
  const n = 8 + Math.floor(r() * 14);
  const words: string[] = [];
  for (let i = 0; i < n; i++) words.push(WORDS[Math.floor(r() * WORDS.length)]);
  if (n > 12 && r() < 0.5) words[Math.floor(n / 2)] += ',';
  return capitalize(words.join(' ')) + (r() < 0.1 ? '?' : '.');
}

function paragraph(r: () => number): string {
  const n = 3 + Math.floor(r() * 4);
  const out: string[] = [];
  for (let i = 0; i < n; i++) out.push(sentence(r));
  return out.join(' ');
}

function slugify(s: string): string {
  return s.toLowerCase().replace(/[^a-z0-9]+/g, '-').replace(/^-+|-+$/g, '');
}

function post(r: () => number, n: number): { title: string; content: string; slug: string } {
  const a = ADJECTIVES[Math.floor(r() * ADJECTIVES.length)];
  const s = SUBJECTS[Math.floor(r() * SUBJECTS.length)];
  const title = PATTERNS[Math.floor(r() * PATTERNS.length)](a, s);
  const paragraphs: string[] = [];
  const count = 3 + Math.floor(r() * 3);
  for (let i = 0; i < count; i++) paragraphs.push(paragraph(r));
  // Classic-editor content: paragraphs separated by blank lines, some inline markup.
  if (r() < 0.5) paragraphs[1] = paragraphs[1].replace(/ (\w+) (\w+)\./, ' <strong>$1 $2</strong>.');
  if (r() < 0.3) paragraphs.splice(2, 0, `<a href="https://example.org/${slugify(s)}">More about the ${s}</a>`);
  return { title, content: paragraphs.join('\n\n'), slug: `${slugify(title)}-${n}` };
}

/** Whole seconds, as WordPress stores them. */
function seconds(ms: number): Date {
  return new Date(Math.floor(ms / 1000) * 1000);
}

// ------------------------------------------------------------------ seeding

export interface SeedResult { existing: number; inserted: number; ms: number }

/**
 * Migrates, creates the site, then inserts published posts until `count` are there. Skips the
 * inserts when the database already holds that many. `onProgress` gets the posts present so far.
 */
export async function seed(databaseUrl: string, count: number, onProgress?: (done: number) => void, onFinishing?: () => void): Promise<SeedResult> {
  const started = Date.now();
  await ensureDatabase(databaseUrl);
  await migrate(databaseUrl);
  const db = await openDb(databaseUrl);
  let open = true;
  try {
    const prisma = db.prisma;
    await bootstrapSite(db, {
      siteUrl: process.env.SITE_URL ?? 'http://127.0.0.1',
      adminUser: process.env.ADMIN_USER ?? 'admin',
      adminPassword: process.env.ADMIN_PASSWORD ?? 'bench-admin-password',
    });
    const where = { type: 'post', status: 'publish' };
    const existing = await prisma.content.count({ where });
    onProgress?.(Math.min(existing, count));
    if (existing >= count) return { existing, inserted: 0, ms: Date.now() - started };

    const admin = await prisma.user.findFirst({ where: { role: 'administrator' }, orderBy: { id: 'asc' } });
    if (!admin) throw new Error('seed: no administrator after bootstrap');
    const category = await prisma.term.findUnique({ where: { taxonomy_slug: { taxonomy: 'category', slug: 'uncategorized' } } });
    if (!category) throw new Error('seed: no default category after bootstrap');
    const siteUrl = (await prisma.option.findUnique({ where: { name: 'siteurl' } }))?.value;
    const home = siteUrl ? String(JSON.parse(siteUrl)).replace(/\/+$/, '') : 'http://127.0.0.1';

    const last = await prisma.content.findFirst({ orderBy: { id: 'desc' }, select: { id: true } });
    let nextId = (last?.id ?? 0) + 1;
    const todo = count - existing;
    const r = rng(0x5eed ^ count ^ existing);
    // Dates rise with ids over the past YEARS years (gmt_offset 0: site time = UTC).
    const now = Date.now();
    const from = now - YEARS * 365 * 86_400_000;
    const step = (now - from) / todo;

    // The rows go in on the plain driver (bench/bulk.ts), with the Prisma handle closed meanwhile.
    open = false;
    await db.close();
    const target = await bulkTarget(databaseUrl, db.provider, todo);
    try {
      let done = existing;
      for (let offset = 0; offset < todo; offset += BULK_BATCH) {
        const size = Math.min(BULK_BATCH, todo - offset);
        const rows: PostRow[] = [];
        for (let i = 0; i < size; i++) {
          const id = nextId++;
          const n = offset + i;
          const { title, content, slug } = post(r, id);
          const date = seconds(from + (n + r() * 0.9) * step);
          const modified = r() < 0.7 ? date : seconds(Math.min(now, date.getTime() + r() * 30 * 86_400_000));
          rows.push({ id, authorId: admin.id, title, content, slug, date, modified, guid: `${home}/?p=${id}` });
        }
        await target.insert(rows, category.id);
        done += size;
        onProgress?.(done);
      }
      onFinishing?.();
      await target.finish(category.id);
    } finally {
      await target.close();
    }
    return { existing, inserted: todo, ms: Date.now() - started };
  } finally {
    if (open) await db.close();
  }
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const url = process.argv[2] ?? 'file:./data/bench-sqlite.db';
  const count = Number(process.argv[3] ?? 10_000);
  seed(url, count, (done) => process.stdout.write(`\rseeding ${done}/${count} posts`))
    .then((res) => console.log(`\rseeded ${url}: ${res.existing} existing, ${res.inserted} inserted in ${(res.ms / 1000).toFixed(1)} s`))
    .catch((err) => { console.error(err); process.exit(1); });
}
