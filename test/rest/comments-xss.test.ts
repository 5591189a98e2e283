// Stored XSS through comments: every vector of the corpus (test/fixtures/xss-vectors.json), sent
// by an anonymous reader as the text, the name and the website of a comment, must not make its
// rendered outputs executable: the REST record (content.rendered, author_name, author_url) and
// the item's page, where approved comments are printed. Outputs are parsed as the main corpus
// test parses them (test/helpers/xss.ts) and compared with those of a benign comment.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestSite, provider, type TestSite } from '../helpers/app.js';
import { setOption } from '../../src/site/options.js';
import { beyond, executables, XSS_VECTORS } from '../helpers/xss.js';

let site: TestSite;
let post: { id: number; link: string };
let n = 0;

/** An anonymous comment from an address and e-mail of its own (no flood, no duplicate). */
const send = (value: string) => {
  n++;
  return site.req('POST', '/core/v2/comments', {
    json: { post: post.id, content: value, author_name: `${n} ${value}`, author_email: `xss${n}@example.test`, author_url: value },
    headers: { 'x-forwarded-for': `198.18.${n >> 8}.${n & 255}` },
  });
};

/** The outputs of one comment: its REST record's rendered parts, and the item's page. */
async function outputs(value: string): Promise<Record<string, string> | null> {
  const res = await send(value);
  if (res.status !== 201) {
    // Refused (empty once trimmed, too long …): stored nowhere.
    expect(res.status, `${JSON.stringify(value)}: ${res.text}`).toBe(400);
    return null;
  }
  const c = res.body;
  const page = (await site.req('GET', post.link)).text;
  return {
    'content.rendered': c.content.rendered,
    author_name: `<b>${c.author_name}</b>`,
    author_url: `<a href="${c.author_url}">x</a>`,
    'item page': page,
  };
}

beforeAll(async () => {
  site = await createTestSite({ trustProxy: { hops: 1 } });
  await setOption(site.db.prisma, 'rest_allow_anonymous_comments', true);
  // Approved at once, so each comment is on the item's page.
  await setOption(site.db.prisma, 'comment_previously_approved', 0);
  post = await site.createPost({ title: 'Comment on this', status: 'publish' });
});
afterAll(async () => { await site?.close(); });

describe(`stored XSS corpus through comments (${provider})`, () => {
  it(`no vector of ${XSS_VECTORS.length} adds anything executable to a comment's outputs`, async () => {
    const baseline = (await outputs('Benign value'))!;
    const allowed = Object.fromEntries(Object.entries(baseline).map(([k, html]) => [k, executables(html)]));
    const problems: string[] = [];
    let checked = 0;
    for (const vector of XSS_VECTORS) {
      const out = await outputs(vector);
      if (!out) continue;
      for (const [name, html] of Object.entries(out)) {
        checked++;
        const extra = beyond(executables(html), allowed[name] ?? []);
        if (extra.length) problems.push(`${name}: ${extra.join(', ')} ← ${JSON.stringify(vector)}`);
      }
    }
    expect(checked).toBeGreaterThan(XSS_VECTORS.length * 2);
    expect(problems).toEqual([]);
  }, 300_000);
});
