// The WordPress import with a content model (test/fixtures/content-model/events.json): items of
// the model's `event` type and terms of its `event_category` taxonomy come in like posts and
// categories, their custom fields read through `meta`; a type and a taxonomy the model does not
// declare are skipped with the reason.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Writable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestSite, SITE, type TestSite } from '../helpers/app.js';
import { importCommand } from '../../scripts/import-wordpress.js';

const BASE = 'https://events.example';
const tmp = mkdtempSync(join(tmpdir(), 'wxr-model-'));

const term = (id: number, taxonomy: string, slug: string, name: string, parent = '') =>
  `<wp:term><wp:term_id>${id}</wp:term_id><wp:term_taxonomy>${taxonomy}</wp:term_taxonomy><wp:term_slug><![CDATA[${slug}]]></wp:term_slug><wp:term_parent><![CDATA[${parent}]]></wp:term_parent><wp:term_name><![CDATA[${name}]]></wp:term_name></wp:term>`;
const item = (id: number, type: string, slug: string, terms: string, meta: [string, string][]) => `<item>
<title><![CDATA[${slug} title]]></title><link>${BASE}/${type}s/${slug}/</link><dc:creator><![CDATA[admin]]></dc:creator>
<content:encoded><![CDATA[<p>About ${slug}. See <a href="${BASE}/events/${slug === 'node-day' ? 'js-night' : 'node-day'}/">the other one</a>.</p>]]></content:encoded><excerpt:encoded><![CDATA[]]></excerpt:encoded>
<wp:post_id>${id}</wp:post_id><wp:post_date><![CDATA[2025-05-01 10:00:00]]></wp:post_date><wp:post_date_gmt><![CDATA[2025-05-01 08:00:00]]></wp:post_date_gmt>
<wp:post_name><![CDATA[${slug}]]></wp:post_name><wp:status><![CDATA[publish]]></wp:status><wp:post_parent>0</wp:post_parent><wp:menu_order>0</wp:menu_order>
<wp:post_type><![CDATA[${type}]]></wp:post_type><wp:post_password><![CDATA[]]></wp:post_password><wp:is_sticky>0</wp:is_sticky>
${terms}
${meta.map(([k, v]) => `<wp:postmeta><wp:meta_key><![CDATA[${k}]]></wp:meta_key><wp:meta_value><![CDATA[${v}]]></wp:meta_value></wp:postmeta>`).join('')}
</item>`;

const WXR = `<?xml version="1.0" encoding="UTF-8" ?>
<rss version="2.0" xmlns:excerpt="http://wordpress.org/export/1.2/excerpt/" xmlns:content="http://purl.org/rss/1.0/modules/content/" xmlns:dc="http://purl.org/dc/elements/1.1/" xmlns:wp="http://wordpress.org/export/1.2/">
<channel><title>Events</title><link>${BASE}</link><wp:wxr_version>1.2</wp:wxr_version><wp:base_site_url>${BASE}</wp:base_site_url><wp:base_blog_url>${BASE}</wp:base_blog_url>
${term(5, 'event_category', 'js', 'JavaScript', 'tech')}
${term(4, 'event_category', 'tech', 'Tech talks')}
${term(6, 'genre', 'jazz', 'Jazz')}
${item(10, 'event', 'node-day', '<category domain="event_category" nicename="js"><![CDATA[JavaScript]]></category>', [['capacity', '40'], ['event_kind', 'conference']])}
${item(11, 'event', 'js-night', '<category domain="event_category" nicename="tech"><![CDATA[Tech talks]]></category>', [['capacity', '12']])}
${item(12, 'product', 'mug', '', [])}
${item(13, 'post', 'loud-post', '', [['mood', 'loud']])}
</channel></rss>`;

class Sink extends Writable {
  text = '';
  override _write(chunk: Buffer, _enc: string, done: () => void) { this.text += chunk.toString(); done(); }
}

let site: TestSite;
let out: Sink;
let code: number;

beforeAll(async () => {
  site = await createTestSite();
  const file = join(tmp, 'events.xml');
  writeFileSync(file, WXR);
  out = new Sink();
  code = await importCommand({ db: site.db, config: site.app.config, file, flags: { 'skip-media': true }, media: site.app.media, out, err: new Sink() });
});
afterAll(async () => {
  await site?.close();
  rmSync(tmp, { recursive: true, force: true });
});

describe('import wordpress with a content model', () => {
  it("brings the model's type and taxonomy, with the tree, the terms and the custom fields", async () => {
    expect(code, out.text).toBe(0);
    const cats = (await site.req('GET', '/core/v2/event-categories?per_page=100')).body as any[];
    const tech = cats.find((c) => c.slug === 'tech');
    const js = cats.find((c) => c.slug === 'js');
    expect(js.parent).toBe(tech.id);
    const events = (await site.req('GET', '/core/v2/events?per_page=100&orderby=id&order=asc')).body as any[];
    expect(events.map((e) => e.slug)).toEqual(['node-day', 'js-night']);
    expect(events[0]['event-categories']).toEqual([js.id]);
    expect(events[0].meta).toMatchObject({ capacity: 40, event_kind: 'conference' });
    expect(events[1].meta).toMatchObject({ capacity: 12, event_kind: 'meetup' });
    // Links between them name the new permalinks, both ways.
    expect(events[0].content.rendered).toContain(`href="${SITE}/events/js-night/"`);
    expect(events[1].content.rendered).toContain(`href="${SITE}/events/node-day/"`);
    const post = (await site.req('GET', '/core/v2/posts?slug=loud-post')).body[0];
    expect(post.meta.mood).toBe('loud');
  });

  it('skips a type and a taxonomy the model does not declare, with the reason', () => {
    expect(out.text).toMatch(/^ {2}event: imported 2, /m);
    expect(out.text).toMatch(/^ {2}genre 6 genre jazz: the taxonomy genre is not declared in the site's content model$/m);
    expect(out.text).toMatch(/^ {2}product 12 mug title \[publish\]: the type product is not declared in the site's content model$/m);
  });
});
