// `npm run db:migrate` and `npm run db:seed`, spawned as an operator runs them, on a fresh SQLite file.
import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, describe, expect, it } from 'vitest';
import { migrationsFor } from '../../src/db/migrate.js';
import { openDb } from '../../src/db/client.js';

const run = promisify(execFile);
const root = join(import.meta.dirname, '../..');
const dir = mkdtempSync(join(tmpdir(), 'site-scripts-'));
const url = `file:${join(dir, 'site.db')}`;
afterAll(() => rmSync(dir, { recursive: true, force: true }));

function script(path: string, env: NodeJS.ProcessEnv = {}) {
  const base: NodeJS.ProcessEnv = { ...process.env, DATABASE_URL: url, ...env };
  for (const name of ['SITE_URL', 'HOST', 'PORT', 'ADMIN_USER', 'ADMIN_PASSWORD']) if (!(name in env)) delete base[name];
  return run('npx', ['tsx', path], { cwd: root, env: base });
}

async function inspect() {
  const db = await openDb(url);
  try {
    const p = db.prisma;
    const terms = await p.term.findMany({ orderBy: { id: 'asc' }, select: { id: true, taxonomy: true, slug: true, count: true, parentId: true } });
    const contents = await p.content.findMany({ where: { type: { in: ['post', 'page'] } }, orderBy: { id: 'asc' }, select: { type: true, status: true, slug: true, parentId: true } });
    const options = Object.fromEntries((await p.option.findMany({ where: { name: { in: ['siteurl', 'home'] } } })).map((o) => [o.name, JSON.parse(o.value)]));
    return { terms, contents, options, users: await p.user.count(), appPasswords: await p.appPassword.count(), revisions: await p.content.count({ where: { type: 'revision' } }) };
  } finally {
    await db.close();
  }
}

describe('db:migrate', () => {
  it('applies every migration to DATABASE_URL, then says it is up to date', async () => {
    const first = await script('scripts/migrate.ts');
    const names = migrationsFor('sqlite').map((m) => m.name);
    expect(first.stdout).toContain(`applied ${names.length} migrations to ${url}`);
    for (const name of names) expect(first.stdout).toContain(name);
    const again = await script('scripts/migrate.ts');
    expect(again.stdout.trim()).toBe(`${url} is up to date`);
  }, 60_000);
});

describe('db:seed', () => {
  it('creates the site and the sample content, through the services (term counts, parents)', async () => {
    const { stdout } = await script('prisma/seed.ts', { ADMIN_PASSWORD: 'seed-admin-password', SITE_URL: 'https://seeded.example' });
    expect(stdout).toContain('Site created.');
    expect(stdout).toContain('sample content added: 3 categories, 3 tags, 5 posts, 3 pages; already there: nothing');
    const state = await inspect();
    expect(state.options).toEqual({ siteurl: 'https://seeded.example', home: 'https://seeded.example' });
    expect(state.users).toBe(1);
    // Only the first start's password: the seed's own one is revoked.
    expect(state.appPasswords).toBe(1);
    const term = (slug: string) => state.terms.find((t) => t.slug === slug);
    expect(term('news')).toMatchObject({ taxonomy: 'category', count: 2 });
    expect(term('getting-started')).toMatchObject({ taxonomy: 'category', count: 1, parentId: term('guides')!.id });
    expect(term('tips')).toMatchObject({ taxonomy: 'post_tag', count: 2 });
    expect(state.contents.filter((c) => c.type === 'post').map((c) => [c.slug, c.status])).toEqual([
      ['welcome-to-the-site', 'publish'], ['five-tips-for-writing-posts', 'publish'], ['getting-started-with-the-api', 'publish'],
      ['release-notes-version-0-1', 'publish'], ['ideas-for-next-month', 'draft'],
    ]);
    const pages = state.contents.filter((c) => c.type === 'page');
    expect(pages.map((c) => c.slug)).toEqual(['about', 'team', 'contact']);
    expect(pages[1].parentId).not.toBeNull();
  }, 60_000);

  it('adds nothing the second time and leaves the site settings alone', async () => {
    const before = await inspect();
    const { stdout } = await script('prisma/seed.ts', { SITE_URL: 'http://127.0.0.1:9999' });
    expect(stdout).not.toContain('Site created.');
    expect(stdout).toContain('sample content added: nothing; already there: 3 categories, 3 tags, 5 posts, 3 pages');
    expect(await inspect()).toEqual(before);
  }, 60_000);
});
