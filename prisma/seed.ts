// `npm run db:seed`: migrates DATABASE_URL, creates the site if there is none yet (printing the
// administrator's credentials once, as the first `npm start` does), then adds a small set of
// sample content: categories, tags, posts and pages. Idempotent: an item whose slug is already
// there is left alone, so running it again adds nothing. The settings of an existing site are
// never changed.
//
// The content goes through the service's own REST routes, in process, as the first administrator
// with a temporary application password (revoked at the end): the same rules as any client
// (slugs, term counts, revisions, the full-text index).
import { loadConfig } from '../src/config.js';
import { migrate } from '../src/db/migrate.js';
import { openDb, type Db } from '../src/db/client.js';
import { bootstrapSite } from '../src/site/bootstrap.js';
import { createApplicationPassword } from '../src/site/operator.js';
import { createApp } from '../gateway/app.js';

interface TermSeed { name: string; slug: string; description?: string; parent?: string }
interface ContentSeed { title: string; slug: string; content: string; status?: string; date?: string; excerpt?: string; categories?: string[]; tags?: string[]; parent?: string; menu_order?: number }

const SAMPLE = {
  categories: [
    { name: 'News', slug: 'news', description: 'Announcements and updates.' },
    { name: 'Guides', slug: 'guides', description: 'How to get things done.' },
    { name: 'Getting started', slug: 'getting-started', parent: 'guides' },
  ] as TermSeed[],
  tags: [
    { name: 'welcome', slug: 'welcome' },
    { name: 'tips', slug: 'tips' },
    { name: 'release notes', slug: 'release-notes' },
  ] as TermSeed[],
  posts: [
    {
      title: 'Welcome to the site', slug: 'welcome-to-the-site', date: '2025-01-06T09:00:00',
      content: 'This is the first post.\n\nEdit it, or write a new one through the REST API or GraphQL.',
      categories: ['news'], tags: ['welcome'],
    },
    {
      title: 'Five tips for writing posts', slug: 'five-tips-for-writing-posts', date: '2025-01-13T09:00:00',
      content: '<ol>\n<li>Start with the point.</li>\n<li>Keep paragraphs short.</li>\n<li>Use <strong>headings</strong>.</li>\n<li>Link to sources.</li>\n<li>Read it aloud.</li>\n</ol>',
      excerpt: 'Short advice for clearer posts.', categories: ['guides'], tags: ['tips'],
    },
    {
      title: 'Getting started with the API', slug: 'getting-started-with-the-api', date: '2025-01-20T09:00:00',
      content: 'List posts with <code>GET /wp-json/core/v2/posts</code>.\n\nCreate one with an application password and <code>POST</code>.',
      categories: ['getting-started'], tags: ['tips', 'welcome'],
    },
    {
      title: 'Release notes: version 0.1', slug: 'release-notes-version-0-1', date: '2025-02-03T09:00:00',
      content: 'Posts, pages, categories, tags, users and application passwords.',
      categories: ['news'], tags: ['release-notes'],
    },
    {
      title: 'Ideas for next month', slug: 'ideas-for-next-month', status: 'draft',
      content: 'A draft: only signed-in editors see it.', categories: ['news'],
    },
  ] as ContentSeed[],
  pages: [
    { title: 'About', slug: 'about', content: 'Who we are and what this site is for.', menu_order: 1 },
    { title: 'Team', slug: 'team', content: 'The people behind the site.', parent: 'about' },
    { title: 'Contact', slug: 'contact', content: 'Write to us at hello@example.com.', menu_order: 2 },
  ] as ContentSeed[],
};

interface SeedReport { created: Record<string, number>; existing: Record<string, number> }

/** Adds the sample content that is not there yet, through the REST routes. */
async function seedSampleContent(db: Db, config: ReturnType<typeof loadConfig>): Promise<SeedReport> {
  const admin = await db.prisma.user.findFirst({ where: { role: 'administrator' }, orderBy: { id: 'asc' }, select: { id: true, login: true } });
  if (!admin) throw new Error('no administrator: the site has none to write the sample content as');
  const key = await createApplicationPassword(db, admin.id, `db:seed ${new Date().toISOString()}`);
  const auth = 'Basic ' + Buffer.from(`${admin.login}:${key.password}`).toString('base64');
  const app = createApp({ ...config, cacheEntries: 0 }, db);
  const base = `${config.siteUrl}${config.restPrefix}/core/v2`;

  async function api(method: string, path: string, json?: unknown): Promise<any> {
    const res = await app.fetch(new Request(`${base}${path}`, {
      method,
      headers: { authorization: auth, ...(json ? { 'content-type': 'application/json' } : {}) },
      body: json ? JSON.stringify(json) : null,
    }));
    const body = await res.json();
    if (res.status >= 400) throw new Error(`${method} ${path}: ${res.status} ${body?.code}: ${body?.message}`);
    return body;
  }

  const report: SeedReport = { created: {}, existing: {} };
  const count = (kind: string, created: boolean) => {
    const into = created ? report.created : report.existing;
    into[kind] = (into[kind] ?? 0) + 1;
  };
  /** The id of the item with this slug, creating it with `data` when there is none. */
  async function ensure(kind: string, lookup: string, data: Record<string, unknown>): Promise<number> {
    const found = await api('GET', `/${kind}?slug=${encodeURIComponent(String(data.slug))}&context=edit${lookup}`);
    count(kind, !found.length);
    if (found.length) return found[0].id;
    return (await api('POST', `/${kind}`, data)).id;
  }

  try {
    const ids: Record<string, Record<string, number>> = { categories: {}, tags: {}, pages: {} };
    for (const kind of ['categories', 'tags'] as const) {
      for (const t of SAMPLE[kind]) {
        const { parent, ...data } = t;
        ids[kind][t.slug] = await ensure(kind, '', { ...data, ...(parent ? { parent: ids[kind][parent] } : {}) });
      }
    }
    for (const p of SAMPLE.posts) {
      const { categories, tags, ...data } = p;
      await ensure('posts', '&status=any', {
        status: 'publish', ...data,
        ...(categories ? { categories: categories.map((s) => ids.categories[s]) } : {}),
        ...(tags ? { tags: tags.map((s) => ids.tags[s]) } : {}),
      });
    }
    for (const p of SAMPLE.pages) {
      const { parent, ...data } = p;
      ids.pages[p.slug] = await ensure('pages', '&status=any', { status: 'publish', ...data, ...(parent ? { parent: ids.pages[parent] } : {}) });
    }
    return report;
  } finally {
    // The seed's own credential: gone whatever happened above.
    await db.prisma.appPassword.deleteMany({ where: { uuid: key.uuid } });
  }
}

async function main() {
  const config = loadConfig();
  const applied = await migrate(config.databaseUrl);
  if (applied.length) console.log(`applied migrations: ${applied.join(', ')}`);
  const db = await openDb(config.databaseUrl);
  try {
    const boot = await bootstrapSite(db, { siteUrl: config.siteUrl, adminUser: config.adminUser, adminPassword: config.adminPassword });
    if (boot.admin) {
      console.log([
        'Site created. Keep these credentials: they are shown only once.',
        `  administrator:        ${boot.admin.login}`,
        `  login password:       ${boot.admin.password}${boot.admin.generatedPassword ? ' (generated)' : ''}`,
        `  application password: ${boot.admin.applicationPassword}`,
      ].join('\n'));
    }
    const { created, existing } = await seedSampleContent(db, config);
    const list = (counts: Record<string, number>) => Object.entries(counts).map(([k, n]) => `${n} ${k}`).join(', ') || 'nothing';
    console.log(`sample content added: ${list(created)}; already there: ${list(existing)}`);
  } finally {
    await db.close();
  }
}

main().then(() => process.exit(0), (err) => {
  console.error(err);
  process.exit(1);
});
