// The media library over /graphql: lists and items as REST serves them, updates, deletes with every
// file, sub-sizes, image edits, and uploads through the GraphQL multipart request specification,
// with WordPress's codes and statuses in the error extensions.
import { mkdtemp, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestSite, SITE, type As, type TestResponse, type TestSite } from '../helpers/app.js';
import { expectGqlError } from '../helpers/gql.js';

let site: TestSite;
let uploadsDir: string;
const MAX_BYTES = 256 * 1024;

beforeAll(async () => {
  uploadsDir = await mkdtemp(join(tmpdir(), 'media-graphql-'));
  site = await createTestSite({ uploadsDir, uploadMaxBytes: MAX_BYTES });
});
afterAll(async () => {
  await site?.close();
  if (uploadsDir) await rm(uploadsDir, { recursive: true, force: true });
});

const png = (width: number, height: number, background = '#ff0000') => sharp({ create: { width, height, channels: 3, background } }).png().toBuffer();

/** Uploads through REST (raw body) as the administrator; returns the edit record. */
async function upload(bytes: Buffer, name: string, type = 'image/png', query = ''): Promise<any> {
  const res = await site.req('POST', `/core/v2/media${query ? `?${query}` : ''}`, {
    as: 'administrator', body: new Uint8Array(bytes), headers: { 'content-type': type, 'content-disposition': `attachment; filename="${name}"` },
  });
  expect(res.status, res.text.slice(0, 2000)).toBe(201);
  return res.body;
}

/** Files under the uploads directory, relative to it. */
async function filesOnDisk(): Promise<string[]> {
  const out: string[] = [];
  async function walk(dir: string) {
    for (const entry of await readdir(dir, { withFileTypes: true })) {
      const path = join(dir, entry.name);
      if (entry.isDirectory()) await walk(path);
      else out.push(relative(uploadsDir, path).split('\\').join('/'));
    }
  }
  await walk(uploadsDir);
  return out.sort();
}

/** The storage keys of an attachment: its file and every size (from its media details). */
function keysOf(details: any): string[] {
  const folder = details.file.replace(/[^/]+$/, '');
  return [details.file, ...Object.values(details.sizes as Record<string, { file: string }>).map((s) => folder + s.file)];
}

/** A GraphQL multipart request: `operations`, `map` and the file as part `0`. */
function multipart(query: string, variables: Record<string, unknown>, file: File, as?: As): Promise<TestResponse> {
  const form = new FormData();
  form.append('operations', JSON.stringify({ query, variables: { ...variables, file: null } }));
  form.append('map', JSON.stringify({ 0: ['variables.file'] }));
  form.append('0', file);
  return site.req('POST', `${SITE}/graphql`, { as, body: form });
}

const UPLOAD = `mutation($file: File!){ uploadMediaItem(file: $file, input: {title: "Up"}) { databaseId title { raw } mediaType mimeType sourceUrl mediaDetails { width height file filesize sizes { name } } } }`;
const ITEM = 'databaseId title { raw rendered } caption { raw rendered } altText mediaType mimeType mediaDetailsJson sourceUrl parentDatabaseId missingImageSizes';

describe('queries', () => {
  let image: any;
  let other: any;
  let notes: any;
  let hidden: any;
  beforeAll(async () => {
    image = await upload(await png(400, 300), 'gql-image.png', 'image/png', 'alt_text=Alt+one&caption=Cap+one');
    other = await upload(await sharp({ create: { width: 20, height: 20, channels: 3, background: '#00ff00' } }).jpeg().toBuffer(), 'gql-other.jpg', 'image/jpeg');
    notes = await upload(Buffer.from('some notes\n'), 'gql-notes.txt', 'text/plain');
    const draft = await site.createPost({ title: 'Draft parent', status: 'draft' });
    hidden = await upload(await png(10, 10), 'gql-hidden.png', 'image/png', `post=${draft.id}`);
  });

  it('lists images only with mediaType IMAGE, each as REST serves it', async () => {
    const res = await site.gql('query($f: MediaListFilter) { mediaItems(filter: $f, perPage: 100) { total nodes { databaseId sourceUrl mimeType mediaDetailsJson altText } } }', { f: { mediaType: ['IMAGE'] } }, { as: 'administrator' });
    expect(res.errors).toBeUndefined();
    const list = res.data.mediaItems;
    const ids = list.nodes.map((n: { databaseId: number }) => n.databaseId);
    expect(ids).toEqual(expect.arrayContaining([image.id, other.id, hidden.id]));
    expect(ids).not.toContain(notes.id);
    expect(list.total).toBe(list.nodes.length);
    for (const n of list.nodes) expect(n.mimeType).toMatch(/^image\//);
    const node = list.nodes.find((n: { databaseId: number }) => n.databaseId === image.id);
    expect(node).toEqual({ databaseId: image.id, sourceUrl: image.source_url, mimeType: 'image/png', mediaDetailsJson: image.media_details, altText: 'Alt one' });
    const files = await site.gql('query { mediaItems(filter: {mediaType: [TEXT]}) { total nodes { databaseId mediaType } } }', {}, { as: 'administrator' });
    expect(files.data.mediaItems.nodes).toEqual([{ databaseId: notes.id, mediaType: 'FILE' }]);
    const jpegs = await site.gql('query { mediaItems(filter: {mimeType: ["image/jpeg"]}) { nodes { databaseId } } }', {}, { as: 'administrator' });
    expect(jpegs.data.mediaItems.nodes).toEqual([{ databaseId: other.id }]);
  });

  it('hides media of a draft from anonymous callers', async () => {
    const res = await site.gql('query { mediaItems(perPage: 100) { nodes { databaseId } } }');
    expect(res.errors).toBeUndefined();
    const ids = res.data.mediaItems.nodes.map((n: { databaseId: number }) => n.databaseId);
    expect(ids).toEqual(expect.arrayContaining([image.id, other.id, notes.id]));
    expect(ids).not.toContain(hidden.id);
    expectGqlError(await site.gql(`query { mediaItem(id: ${hidden.id}) { databaseId } }`), 401, 'rest_forbidden');
  });

  it('reads one item with the values of the REST record', async () => {
    const res = await site.gql(`query($id: Int!) { mediaItem(id: $id) { ${ITEM} } }`, { id: image.id }, { as: 'administrator' });
    expect(res.errors).toBeUndefined();
    expect(res.data.mediaItem).toEqual({
      databaseId: image.id, title: image.title, caption: { raw: 'Cap one', rendered: '<p>Cap one</p>\n' }, altText: 'Alt one', mediaType: 'IMAGE',
      mimeType: 'image/png', mediaDetailsJson: image.media_details, sourceUrl: image.source_url, parentDatabaseId: null, missingImageSizes: [],
    });
    expect(Object.keys(res.data.mediaItem.mediaDetailsJson.sizes).sort()).toEqual(['full', 'medium', 'thumbnail']);
    const anon = await site.gql(`query($id: Int!) { mediaItem(id: $id) { databaseId caption { raw rendered } } }`, { id: image.id });
    expect(anon.data.mediaItem.caption).toEqual({ raw: null, rendered: '<p>Cap one</p>\n' });
    expectGqlError(await site.gql('query { mediaItem(id: 987654) { databaseId } }'), 404, 'rest_post_invalid_id');
    const post = await site.createPost({ title: 'Not media', status: 'publish' });
    expectGqlError(await site.gql(`query { mediaItem(id: ${post.id}) { databaseId } }`), 404, 'rest_post_invalid_id');
  });

  it('types mediaDetails: the REST media_details, sizes as a list with their names', async () => {
    const DETAILS = 'mediaDetails { width height file filesize originalImage sizes { name file width height filesize mimeType sourceUrl } medium: size(name: MEDIUM) { sourceUrl width height } large: size(name: LARGE) { sourceUrl } imageMeta { aperture camera createdTimestamp iso shutterSpeed title keywords } }';
    const res = await site.gql(`query($a: Int!, $b: Int!) { a: mediaItem(id: $a) { ${DETAILS} } b: mediaItem(id: $b) { ${DETAILS} } }`, { a: image.id, b: notes.id }, { as: 'administrator' });
    expect(res.errors).toBeUndefined();
    const rest = image.media_details;
    expect(res.data.a.mediaDetails).toEqual({
      width: 400, height: 300, file: rest.file, filesize: rest.filesize, originalImage: null,
      sizes: Object.entries(rest.sizes).map(([name, s]: [string, any]) => ({ name, file: s.file, width: s.width, height: s.height, filesize: s.filesize ?? null, mimeType: s.mime_type, sourceUrl: s.source_url })),
      medium: { sourceUrl: rest.sizes.medium.source_url, width: rest.sizes.medium.width, height: rest.sizes.medium.height },
      large: null,
      imageMeta: { aperture: 0, camera: '', createdTimestamp: 0, iso: 0, shutterSpeed: 0, title: '', keywords: [] },
    });
    expect(Object.keys(rest.sizes).at(-1)).toBe('full');
    // Another file: its size only, as REST's {filesize, sizes: {}}.
    expect(notes.media_details).toEqual({ filesize: 11, sizes: {} });
    expect(res.data.b.mediaDetails).toEqual({ width: null, height: null, file: null, filesize: 11, originalImage: null, sizes: [], medium: null, large: null, imageMeta: null });
  });
});

describe('mutations', () => {
  it('updates the alternative text and caption', async () => {
    const a = await upload(await png(10, 10), 'gql-update.png');
    const m = 'mutation($id: Int!, $i: MediaItemInput!) { updateMediaItem(id: $id, input: $i) { databaseId altText caption { raw rendered } title { raw } } }';
    const res = await site.gql(m, { id: a.id, i: { altText: 'New alt', caption: 'New caption' } }, { as: 'administrator' });
    expect(res.errors).toBeUndefined();
    expect(res.data.updateMediaItem).toEqual({ databaseId: a.id, altText: 'New alt', caption: { raw: 'New caption', rendered: '<p>New caption</p>\n' }, title: { raw: 'gql-update' } });
    const rest = await site.req('GET', `/core/v2/media/${a.id}`);
    expect(rest.body.alt_text).toBe('New alt');
    expectGqlError(await site.gql(m, { id: a.id, i: { altText: 'x' } }, { as: 'author' }), 403, 'rest_cannot_edit');
    expectGqlError(await site.gql(m, { id: a.id, i: { altText: 'x' } }), 401, 'rest_cannot_edit');
  });

  it('deletes for good with every file; without force there is no trash', async () => {
    const a = await upload(await png(900, 600), 'gql-delete.png');
    const keys = keysOf(a.media_details);
    expect(keys.length).toBe(1 + 4);
    expect(await filesOnDisk()).toEqual(expect.arrayContaining(keys));
    const m = 'mutation($id: Int!, $force: Boolean) { deleteMediaItem(id: $id, force: $force) { deleted previous { databaseId sourceUrl } } }';
    expectGqlError(await site.gql(m, { id: a.id, force: false }, { as: 'administrator' }), 501, 'rest_trash_not_supported');
    expectGqlError(await site.gql(m, { id: a.id }, { as: 'author' }), 403, 'rest_cannot_delete');
    expect(await filesOnDisk()).toEqual(expect.arrayContaining(keys));
    const res = await site.gql(m, { id: a.id }, { as: 'administrator' });
    expect(res.errors).toBeUndefined();
    expect(res.data.deleteMediaItem).toEqual({ deleted: true, previous: { databaseId: a.id, sourceUrl: a.source_url } });
    const left = await filesOnDisk();
    for (const key of keys) expect(left, key).not.toContain(key);
    expectGqlError(await site.gql(`query { mediaItem(id: ${a.id}) { databaseId } }`, {}, { as: 'administrator' }), 404, 'rest_post_invalid_id');
  });

  it('creates the sub-sizes of an image', async () => {
    const a = await upload(await png(800, 400), 'gql-sizes.png');
    const m = 'mutation($id: Int!) { createMediaItemSubsizes(id: $id) { databaseId missingImageSizes mediaDetails { sizes { name } } } }';
    const res = await site.gql(m, { id: a.id }, { as: 'administrator' });
    expect(res.errors).toBeUndefined();
    expect(res.data.createMediaItemSubsizes.databaseId).toBe(a.id);
    expect(res.data.createMediaItemSubsizes.missingImageSizes).toEqual([]);
    expect(res.data.createMediaItemSubsizes.mediaDetails.sizes.map((s: { name: string }) => s.name).sort()).toEqual(['full', 'medium', 'medium_large', 'thumbnail']);
    expectGqlError(await site.gql(m, { id: a.id }, { as: 'subscriber' }), 403, 'rest_cannot_edit');
    expectGqlError(await site.gql(m, { id: 987654 }, { as: 'administrator' }), 404, 'rest_post_invalid_id');
  });

  it('edits an image into a new attachment', async () => {
    const a = await upload(await png(400, 200), 'gql-edit.png', 'image/png', 'alt_text=Edit+alt');
    const m = 'mutation($id: Int!, $e: MediaEditInput!) { editMediaItem(id: $id, edit: $e) { databaseId altText sourceUrl mediaDetails { width height file } title { raw } } }';
    const res = await site.gql(`mutation { editMediaItem(id: ${a.id}, edit: {src: "${a.source_url}", modifiers: [{type: "rotate", args: {angle: 90}}]}) { databaseId altText sourceUrl mediaDetails { width height file } title { raw } } }`, {}, { as: 'administrator' });
    expect(res.errors).toBeUndefined();
    const e = res.data.editMediaItem;
    expect(e.databaseId).not.toBe(a.id);
    expect(e.altText).toBe('Edit alt');
    expect(e.title.raw).toBe('gql-edit');
    expect(e.sourceUrl).toMatch(/\/gql-edit-edited\.png$/);
    expect([e.mediaDetails.width, e.mediaDetails.height]).toEqual([200, 400]);
    const onDisk = await sharp(join(uploadsDir, ...e.mediaDetails.file.split('/'))).metadata();
    expect([onDisk.width, onDisk.height]).toEqual([200, 400]);
    const legacy = await site.gql(m, { id: a.id, e: { src: a.source_url, rotation: 180 } }, { as: 'administrator' });
    expect(legacy.errors).toBeUndefined();
    expect([legacy.data.editMediaItem.mediaDetails.width, legacy.data.editMediaItem.mediaDetails.height]).toEqual([400, 200]);
    expectGqlError(await site.gql(m, { id: a.id, e: { src: a.source_url } }, { as: 'administrator' }), 400, 'rest_image_not_edited');
    expectGqlError(await site.gql(m, { id: a.id, e: { src: `${SITE}/wp-content/uploads/elsewhere.png`, modifiers: [{ type: 'rotate', args: { angle: 90 } }] } }, { as: 'administrator' }), 404, 'rest_unknown_attachment');
    expectGqlError(await site.gql(m, { id: a.id, e: { src: a.source_url, modifiers: [{ type: 'rotate', args: { angle: 90 } }] } }, { as: 'subscriber' }), 403, 'rest_cannot_edit_image');
    expectGqlError(await site.gql(m, { id: a.id, e: { src: a.source_url, modifiers: [{ type: 'rotate', args: { angle: 90 } }] } }), 401, 'rest_cannot_edit_image');
  });
});

describe('upload (GraphQL multipart request)', () => {
  it('uploads a file with fields', async () => {
    const bytes = await png(400, 300);
    const res = await multipart(UPLOAD, {}, new File([new Uint8Array(bytes)], 'gql upload.png', { type: 'image/png' }), 'administrator');
    expect(res.status).toBe(200);
    expect(res.body.errors).toBeUndefined();
    const item = res.body.data.uploadMediaItem;
    expect(item).toMatchObject({ title: { raw: 'Up' }, mediaType: 'IMAGE', mimeType: 'image/png' });
    expect(item.sourceUrl).toMatch(/\/\d{4}\/\d{2}\/gql-upload\.png$/);
    expect(item.mediaDetails).toMatchObject({ width: 400, height: 300, filesize: bytes.length });
    expect(item.mediaDetails.sizes.map((s: { name: string }) => s.name).sort()).toEqual(['full', 'medium', 'thumbnail']);
    const rest = await site.req('GET', `/core/v2/media/${item.databaseId}?context=edit`, { as: 'administrator' });
    expect(rest.status).toBe(200);
    expect(rest.body.source_url).toBe(item.sourceUrl);
    expect(rest.body.author).toBe(site.users.administrator.id);
  });

  it('refuses callers without upload_files, and files REST refuses', async () => {
    const bytes = await png(10, 10);
    const file = () => new File([new Uint8Array(bytes)], 'refused.png', { type: 'image/png' });
    const before = await filesOnDisk();
    const anon = await multipart(UPLOAD, {}, file());
    expect(anon.body.errors?.[0]?.extensions).toMatchObject({ code: 'rest_cannot_create', status: 401 });
    expect(anon.body.data).toEqual({ uploadMediaItem: null });
    const contributor = await multipart(UPLOAD, {}, file(), 'contributor');
    expect(contributor.body.errors?.[0]?.extensions).toMatchObject({ code: 'rest_cannot_create', status: 403 });
    const wrongName = await multipart(UPLOAD, {}, new File([new Uint8Array(bytes)], 'refused.jpg', { type: 'image/jpeg' }), 'administrator');
    expect(wrongName.body.errors?.[0]?.extensions).toMatchObject({ code: 'rest_upload_sideload_error', status: 400 });
    const big = await multipart(UPLOAD, {}, new File([new Uint8Array(MAX_BYTES + 1).fill(120)], 'big.txt', { type: 'text/plain' }), 'administrator');
    expect(big.body.errors?.[0]?.extensions).toMatchObject({ code: 'rest_upload_file_too_big', status: 400 });
    expect(await filesOnDisk()).toEqual(before);
  });
});
