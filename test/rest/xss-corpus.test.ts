// Stored XSS: every vector of the corpus (test/fixtures/xss-vectors.json), written by an author
// (no unfiltered_html) wherever an author can write text that is rendered, must not make any
// rendered output executable. Each output is parsed with htmlparser2 and its executable parts
// listed (script elements, on* attributes, javascript:/vbscript:/data: URLs after the parser has
// decoded the entities and the browser's ignored characters are removed, srcdoc, frames and
// objects, meta refresh, base, style expressions, broken JSON-LD); a vector's list must hold
// nothing the same output does not hold for a benign value (the service's own template).
//
// Outputs: REST rendered title/content/excerpt and seo_head (deployment B) of posts; the media
// caption/description/title/alt; the public permalink page, its embed page, oEmbed `html` and
// seo/v1/get_head; the author's name and description as they appear on those pages; widget
// previews and settings forms (widgets/v1, every field of every class); the contact-form
// shortcode with the vector in its attributes. Terms and contact forms themselves are written by
// editors and up only, who have unfiltered_html (as in WordPress).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createTestSite, provider, SITE, type TestSite } from '../helpers/app.js';
import { WIDGETS } from '../../src/widgets/registry.js';
import { beyond, executables, XSS_VECTORS } from '../helpers/xss.js';

const VECTORS = XSS_VECTORS;
const BENIGN = 'Benign value';

let site: TestSite;
let uploads = '';
let formId = 0;
let mediaId = 0;
let bylinePost: { id: number; link: string };

/** Every rendered output for one value, by name. */
async function outputs(value: string): Promise<Record<string, string>> {
  const out: Record<string, string> = {};
  const get = async (path: string, as?: 'author') => site.req('GET', path, { as });
  // A post: title, content (with the contact-form shortcode carrying the value), excerpt.
  const created = await site.req('POST', '/core/v2/posts', {
    as: 'author',
    json: { title: value, content: `${value}\n\n[contact-form id="${formId}" title="${value}"]\n\n[contact-form-7 id="${formId}" html_class="${value}" html_id="${value}"]`, excerpt: value, status: 'publish' },
  });
  // A value the post refuses (400, e.g. empty_content once filtered) is stored nowhere.
  if (created.status !== 201) {
    expect(created.status, `${JSON.stringify(value)}: ${created.text}`).toBe(400);
    refused.push(`post ${created.body?.code} ← ${JSON.stringify(value)}`);
  } else {
    const post = (await get(`/core/v2/posts/${created.body.id}`)).body;
    out['post title.rendered'] = post.title.rendered;
    out['post content.rendered'] = post.content.rendered;
    out['post excerpt.rendered'] = post.excerpt.rendered;
    out['post seo_head'] = post.seo_head ?? '';
    const link: string = post.link;
    // The public pages of the post.
    out['permalink page'] = (await site.req('GET', link)).text;
    out['embed page'] = (await site.req('GET', link.includes('?') ? `${link}&embed=true` : `${link.replace(/\/?$/, '/')}embed/`)).text;
    out['oEmbed html'] = (await get(`/oembed/1.0/embed?url=${encodeURIComponent(link)}`)).body?.html ?? '';
    out['seo get_head'] = (await get(`/seo/v1/get_head?url=${encodeURIComponent(link)}`)).body?.html ?? '';
  }
  // The author's own name and description, as the byline post's pages show them.
  const me = await site.req('POST', '/core/v2/users/me', { as: 'author', json: { name: value, description: value, first_name: value, last_name: value, nickname: value } });
  // A value the user fields refuse (400) is stored nowhere: the pages then show the last one stored.
  if (me.status !== 200) { expect(me.status, me.text).toBe(400); refused.push(`user ${me.body?.code} ← ${JSON.stringify(value)}`); }
  out['byline permalink page'] = (await site.req('GET', bylinePost.link)).text;
  out['byline embed page'] = (await site.req('GET', `${bylinePost.link.replace(/\/?$/, '/')}embed/`)).text;
  out['byline oEmbed html'] = (await get(`/oembed/1.0/embed?url=${encodeURIComponent(bylinePost.link)}`)).body?.html ?? '';
  out['byline seo_head'] = (await get(`/core/v2/posts/${bylinePost.id}`)).body.seo_head ?? '';
  // The author's image: caption, description, title and alt text.
  const media = await site.req('POST', `/core/v2/media/${mediaId}`, { as: 'author', json: { caption: value, description: value, title: value, alt_text: value } });
  if (media.status !== 200) throw new Error(`media update refused: ${media.status} ${media.text.slice(0, 300)}`);
  const m = (await get(`/core/v2/media/${mediaId}`)).body;
  out['media caption.rendered'] = m.caption.rendered;
  out['media description.rendered'] = m.description.rendered;
  out['media title.rendered'] = m.title.rendered;
  out['media page'] = (await site.req('GET', m.link)).text;
  // Widgets: every field of every class set to the value.
  for (const widget of WIDGETS) {
    const widgetData = Object.fromEntries(Object.keys(widget.fields).map((k) => [k, value]));
    const preview = await site.req('POST', '/widgets/v1/widgets/previews', { as: 'author', json: { widgetClass: widget.name, widgetData, anchor: value } });
    out[`widget preview ${widget.name}`] = typeof preview.body?.html === 'string' ? preview.body.html : '';
    const form = await site.req('POST', '/widgets/v1/widgets/forms', { as: 'author', json: { widgetClass: widget.name, widgetData } });
    out[`widget form ${widget.name}`] = typeof form.body === 'string' ? form.body : '';
  }
  return out;
}

let baseline: Record<string, string[]>;
/** Outputs a benign value does not reach (the check would be empty there). */
let withoutValue: string[] = [];
/** Writes refused with a 400 (nothing stored), for the log. */
const refused: string[] = [];

beforeAll(async () => {
  uploads = mkdtempSync(join(tmpdir(), 'xss-uploads-'));
  site = await createTestSite({ uploadsDir: uploads, deployment: 'B' });
  const form = await site.req('POST', '/forms/v1/contact-forms?context=save', { as: 'administrator', json: { title: 'Contact' } });
  formId = form.body.id;
  const png = Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAQAAAACCAIAAADwyuo0AAAACXBIWXMAAAPoAAAD6AG1e1JrAAAAEklEQVQImWP4z8AARwjWfwYGAG+qB/l/O6VpAAAAAElFTkSuQmCC', 'base64');
  const upload = await site.req('POST', '/core/v2/media', { as: 'author', body: png, headers: { 'content-type': 'image/png', 'content-disposition': 'attachment; filename="xss.png"' } });
  expect(upload.status).toBe(201);
  mediaId = upload.body.id;
  const byline = await site.req('POST', '/core/v2/posts', { as: 'author', json: { title: 'Byline', content: 'By the author', status: 'publish' } });
  bylinePost = { id: byline.body.id, link: byline.body.link };
  expect(bylinePost.link.startsWith(SITE)).toBe(true);
  const benign = await outputs(BENIGN);
  withoutValue = Object.entries(benign).filter(([, html]) => !html.includes(BENIGN)).map(([k]) => k);
  baseline = Object.fromEntries(Object.entries(benign).map(([k, html]) => [k, executables(html)]));
});
afterAll(async () => { await site?.close(); if (uploads) rmSync(uploads, { recursive: true, force: true }); });

describe(`stored XSS corpus, written by an author (${provider})`, () => {
  it('the detector sees each kind of executable it looks for', () => {
    expect(executables('<img src=x onerror=alert(1)>')).toEqual(['img[onerror]']);
    expect(executables('<a href="&#106;ava&#x09;script:alert(1)">x</a>')).toEqual(['a[href] url']);
    expect(executables('<iframe srcdoc="x"></iframe>')).toEqual(['iframe', 'iframe[srcdoc]']);
    expect(executables('<script type="application/ld+json">{"a":</script>')).toEqual(['script type=application/ld+json src=no', 'script ld+json broken']);
    expect(executables('<p style="width:expression(alert(1))">')).toEqual(['p[style]']);
    expect(executables('<meta http-equiv="refresh" content="0">')).toEqual(['meta refresh']);
    expect(executables('<p title="&lt;script&gt;">x</p> &lt;img onerror=1&gt;')).toEqual([]);
  });

  it('each output shows the value written (the embed card and oEmbed html of another post name no author)', () => {
    expect(withoutValue).toEqual(['byline embed page', 'byline oEmbed html']);
  });

  it(`no vector of ${VECTORS.length} adds anything executable to any output`, async () => {
    const problems: string[] = [];
    let checked = 0;
    for (const vector of VECTORS) {
      const out = await outputs(vector);
      for (const [name, html] of Object.entries(out)) {
        checked++;
        const extra = beyond(executables(html), baseline[name] ?? []);
        if (extra.length) problems.push(`${name}: ${extra.join(', ')} ← ${JSON.stringify(vector)}\n  ${html.length > 600 ? html.slice(0, 600) + '…' : html}`);
      }
    }
    console.log(`xss corpus (${provider}): ${VECTORS.length} vectors, ${checked} outputs parsed (${Object.keys(baseline).length} kinds); writes refused with 400: ${refused.length ? refused.join('; ') : 'none'}`);
    expect(problems).toEqual([]);
  }, 600_000);

  it('an administrator (unfiltered_html) still stores raw HTML, as WordPress', async () => {
    const res = await site.req('POST', '/core/v2/posts', { as: 'administrator', json: { title: 'Raw', content: '<script>alert(1)</script>' } });
    expect(res.status).toBe(201);
    expect(res.body.content.raw).toBe('<script>alert(1)</script>');
  });
});
