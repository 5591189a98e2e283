// `npm run cli -- site demo [--posts N]`: fills the site with made-up but plausible content —
// categories (some nested), tags, N posts (some drafts, some edited once so they have revisions)
// and a few pages — through the service's own REST routes, in process, as the first administrator
// with a temporary application password (revoked at the end), so slugs, term counts, revisions
// and the search index behave as for any client. Terms already there (same slug) are reused;
// posts and pages are always added. Progress: a bar on a terminal, plain lines otherwise.
import { SingleBar, Presets } from 'cli-progress';
import type { loadConfig } from '../src/config.js';
import type { Db } from '../src/db/client.js';
import { createApplicationPassword } from '../src/site/operator.js';
import { createApp } from '../gateway/app.js';

type Config = ReturnType<typeof loadConfig>;

const TOPICS = ['Gardening', 'Cooking', 'Travel', 'Photography', 'Cycling', 'Reading'];
const SUBTOPICS: Record<string, string[]> = { Gardening: ['Vegetables', 'Roses'], Cooking: ['Baking'], Travel: ['City breaks'] };
const TAGS = ['beginner', 'weekend', 'budget', 'how-to', 'review', 'checklist', 'seasonal', 'family', 'quick', 'long read', 'tools', 'interview'];
const OPENERS = ['A practical guide to', 'What I learned from', 'Ten notes on', 'Getting better at', 'The quiet joy of', 'Common mistakes in', 'A first look at', 'Why we keep coming back to'];
const SUBJECTS = ['morning routines', 'small spaces', 'a rainy week', 'the right equipment', 'slow afternoons', 'a tight budget', 'planning ahead', 'starting over', 'local markets', 'old habits'];
const SENTENCES = [
  'Most of it comes down to patience and a little planning.',
  'The first attempt rarely goes to plan, and that is fine.',
  'Start small, keep notes, and change one thing at a time.',
  'A good checklist saves more time than any clever trick.',
  'Friends who had tried it before gave the most useful advice.',
  'It costs less than people expect once the basics are in place.',
  'The weather decided more than we would like to admit.',
  'Looking back, the simple choices were the right ones.',
  'There is always one detail that nobody mentions in advance.',
  'Take photos along the way; you will want them later.',
];
const PAGES = [
  { title: 'About us', content: 'We write about the things we enjoy doing on weekends and evenings.' },
  { title: 'Contact', content: 'Write to us at hello@example.com; we answer within a few days.' },
  { title: 'Newsletter', content: 'Once a month, the best posts in one e-mail. No advertising.' },
  { title: 'Privacy', content: 'We keep only what we need to send the newsletter, and nothing else.' },
  { title: 'Archive', content: 'Every post, by topic and by month.' },
];

/** A small deterministic generator, so two runs with the same size make the same kind of site. */
function random(seed: number) {
  let s = seed >>> 0;
  const next = () => { s = (s * 1664525 + 1013904223) >>> 0; return s / 2 ** 32; };
  const pick = <T>(list: T[]): T => list[Math.floor(next() * list.length)];
  const some = <T>(list: T[], max: number): T[] => [...new Set(Array.from({ length: 1 + Math.floor(next() * max) }, () => pick(list)))];
  return { next, pick, some };
}

export interface DemoReport { posts: number; pages: number; categories: number; tags: number; revisions: number }

export async function fillDemoContent(db: Db, config: Config, o: { posts: number; out?: NodeJS.WriteStream }): Promise<DemoReport> {
  const out = o.out ?? process.stderr;
  const admin = await db.prisma.user.findFirst({ where: { role: 'administrator' }, orderBy: { id: 'asc' }, select: { id: true, login: true } });
  if (!admin) throw new Error('no administrator: the site has none to write the demo content as');
  const key = await createApplicationPassword(db, admin.id, `site demo ${new Date().toISOString()}`);
  const auth = 'Basic ' + Buffer.from(`${admin.login}:${key.password}`).toString('base64');
  const app = createApp({ ...config, cacheEntries: 0 }, db);
  const base = `${config.siteUrl}${config.restPrefix}/core/v2`;
  const api = async (method: string, path: string, json?: unknown): Promise<any> => {
    const res = await app.fetch(new Request(`${base}${path}`, {
      method, headers: { authorization: auth, ...(json ? { 'content-type': 'application/json' } : {}) }, body: json ? JSON.stringify(json) : null,
    }));
    const body = await res.json();
    if (res.status >= 400) throw new Error(`${method} ${path}: ${res.status} ${body.code}: ${body.message}`);
    return body;
  };
  /** A term by its name: the one with that slug if there is one, else a new one. */
  const term = async (base_: 'categories' | 'tags', name: string, parent?: number): Promise<{ id: number; created: boolean }> => {
    const slug = name.toLowerCase().replace(/[^a-z0-9]+/g, '-');
    const found = await api('GET', `/${base_}?slug=${slug}&context=edit`);
    if (found.length) return { id: found[0].id, created: false };
    const made = await api('POST', `/${base_}`, { name, slug, ...(parent ? { parent } : {}) });
    return { id: made.id, created: true };
  };

  const pageCount = Math.min(PAGES.length, Math.max(1, Math.ceil(o.posts / 10)));
  const steps = TOPICS.length + Object.values(SUBTOPICS).flat().length + TAGS.length + o.posts + pageCount;
  const tty = !!out.isTTY;
  const bar = tty ? new SingleBar({ format: 'demo content [{bar}] {percentage}% {value}/{total} {step}', stream: out, hideCursor: true }, Presets.shades_classic) : null;
  let done = 0;
  let lastLine = -1;
  const step = (what: string) => {
    done++;
    if (bar) bar.update(done, { step: what });
    else {
      // One line per tenth of the work, and the last.
      const tenth = Math.floor((done * 10) / steps);
      if (tenth !== lastLine || done === steps) { lastLine = tenth; out.write(`demo content: ${done}/${steps} (${what})\n`); }
    }
  };
  bar?.start(steps, 0, { step: '' });

  const report: DemoReport = { posts: 0, pages: 0, categories: 0, tags: 0, revisions: 0 };
  try {
    const rnd = random(o.posts);
    const categoryIds: number[] = [];
    for (const topic of TOPICS) {
      const parent = await term('categories', topic);
      categoryIds.push(parent.id);
      if (parent.created) report.categories++;
      step(`category ${topic}`);
      for (const sub of SUBTOPICS[topic] ?? []) {
        const child = await term('categories', sub, parent.id);
        categoryIds.push(child.id);
        if (child.created) report.categories++;
        step(`category ${sub}`);
      }
    }
    const tagIds: number[] = [];
    for (const name of TAGS) {
      const t = await term('tags', name);
      tagIds.push(t.id);
      if (t.created) report.tags++;
      step(`tag ${name}`);
    }
    const day = 24 * 3600 * 1000;
    const start = Date.now() - o.posts * day;
    for (let i = 0; i < o.posts; i++) {
      const subject = rnd.pick(SUBJECTS);
      const title = `${rnd.pick(OPENERS)} ${subject}`;
      const paragraphs = Array.from({ length: 2 + Math.floor(rnd.next() * 4) }, () => rnd.some(SENTENCES, 4).join(' '));
      const draft = rnd.next() < 0.1;
      const post = await api('POST', '/posts', {
        title, content: paragraphs.join('\n\n'), excerpt: paragraphs[0],
        status: draft ? 'draft' : 'publish',
        ...(draft ? {} : { date: new Date(start + i * day).toISOString().slice(0, 19) }),
        categories: rnd.some(categoryIds, 2), tags: rnd.some(tagIds, 3),
      });
      report.posts++;
      // About one post in four is edited once afterwards: it gets a revision.
      if (rnd.next() < 0.25) {
        await api('POST', `/posts/${post.id}`, { content: `${paragraphs.join('\n\n')}\n\nUpdate: ${rnd.pick(SENTENCES)}` });
        report.revisions++;
      }
      step(`post ${i + 1}`);
    }
    for (const page of PAGES.slice(0, pageCount)) {
      await api('POST', '/pages', { ...page, status: 'publish' });
      report.pages++;
      step(`page ${page.title}`);
    }
  } finally {
    bar?.stop();
    await db.prisma.appPassword.deleteMany({ where: { uuid: key.uuid } });
  }
  return report;
}
