// A client of the REST API written as a user writes one: types generated from the site's
// OpenAPI document (`npx tsx examples/client/generate-types.ts` → schema.d.ts) and openapi-fetch. It lists posts with
// their embedded links, creates a post with a plain-string title, uploads an image and reads every
// page of a list by `X-WP-TotalPages`.
//
//   SITE_URL=http://localhost:8080 WP_USER=admin WP_APP_PASSWORD='abcd efgh …' npx tsx examples/client/example.ts
import { openAsBlob } from 'node:fs';
import createClient from 'openapi-fetch';
import type { paths } from './schema.js';

const site = process.env.SITE_URL ?? 'http://127.0.0.1:8080';
const credentials = `${process.env.WP_USER ?? 'admin'}:${process.env.WP_APP_PASSWORD ?? ''}`;

const api = createClient<paths, 'application/json'>({
  baseUrl: `${site}/wp-json`,
  headers: { Authorization: `Basic ${Buffer.from(credentials).toString('base64')}` },
});

// The newest posts, with what their links point at (author, terms, featured image).
const { data: posts, error } = await api.GET('/core/v2/posts', { params: { query: { _embed: true, per_page: 5 } } });
if (error) throw new Error(`${error.code}: ${error.message}`);
const first = posts[0];
// An embedded link holds the user, or the error its link answered: `name` tells them apart.
const author = first?._embedded?.author?.[0];
const by = author && 'name' in author ? author.name : '(unknown)';
console.log(`newest: ${first ? first.title.rendered : '(none)'} by ${by}; embedded: ${Object.keys(first?._embedded ?? {}).join(', ')}`);

// A title as a plain string, as WordPress clients send it.
const { data: post, error: notCreated } = await api.POST('/core/v2/posts', {
  body: { title: 'Written by the typed client', content: 'Hello from openapi-fetch.', status: 'publish' },
});
if (notCreated) throw new Error(`${notCreated.code}: ${notCreated.message}`);
console.log(`created post ${post.id}: ${post.title.raw}`);

// An image as the raw body, named by Content-Disposition.
const { data: image, error: notUploaded } = await api.POST('/core/v2/media', {
  body: await openAsBlob(new URL('./pixel.png', import.meta.url), { type: 'image/png' }),
  bodySerializer: (file) => file,
  headers: { 'Content-Type': 'image/png', 'Content-Disposition': 'attachment; filename="pixel.png"' },
});
if (notUploaded) throw new Error(`${notUploaded.code}: ${notUploaded.message}`);
console.log(`uploaded ${image.media_type} ${image.id}: ${image.source_url}`);

// Every published post, two a page, for as many pages as the first answer counts.
const titles: string[] = [];
let pages = 1;
for (let page = 1; page <= pages; page++) {
  const { data, error: failed, response } = await api.GET('/core/v2/posts', { params: { query: { per_page: 2, page } } });
  if (failed) throw new Error(`${failed.code}: ${failed.message}`);
  pages = Number(response.headers.get('X-WP-TotalPages') ?? 1);
  titles.push(...data.map((p) => p.title.rendered));
}
console.log(`read ${titles.length} posts on ${pages} pages: ${titles.join(' | ')}`);
