// An attachment's `post` (its parent) as WordPress's attachments controller takes it. An upload
// needs edit_post on the parent (create_item_permissions_check), which nothing behind the id ever
// grants: 403/401 rest_cannot_edit. A revision, an autosave or an attachment cannot be the parent,
// on upload and on update: 400 rest_invalid_param "Invalid parent type.". An update asks no right
// over the parent and stores an id with nothing behind it as given; everything that reads the
// parent (the record, lists filtered by parent, search, GraphQL, the export) then shows that id.
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestSite, type As, type TestSite } from '../helpers/app.js';

let site: TestSite;
let uploadsDir: string;
beforeAll(async () => {
  uploadsDir = await mkdtemp(join(tmpdir(), 'media-parent-'));
  site = await createTestSite({ uploadsDir });
});
afterAll(async () => {
  await site?.close();
  if (uploadsDir) await rm(uploadsDir, { recursive: true, force: true });
});

/** A 4×2 PNG. */
const PNG = Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAQAAAACCAIAAADwyuo0AAAACXBIWXMAAAPoAAAD6AG1e1JrAAAAEklEQVQImWP4z8AARwjWfwYGAG+qB/l/O6VpAAAAAElFTkSuQmCC', 'base64');
const NOTHING = 999999;

function uploadRaw(name: string, query = '', as: As | null = 'administrator') {
  return site.req('POST', `/core/v2/media${query ? `?${query}` : ''}`, {
    as: as ?? undefined, body: new Uint8Array(PNG), headers: { 'content-type': 'image/png', 'content-disposition': `attachment; filename="${name}"` },
  });
}

function uploadForm(name: string, fields: Record<string, string | number>, as: As = 'administrator') {
  const form = new FormData();
  form.append('file', new File([new Uint8Array(PNG)], name, { type: 'image/png' }));
  for (const [k, v] of Object.entries(fields)) form.append(k, String(v));
  return site.req('POST', '/core/v2/media', { as, body: form });
}

async function upload(name: string, as: As = 'administrator') {
  const res = await uploadRaw(name, '', as);
  expect(res.status, res.text).toBe(201);
  return res.body;
}

const update = (id: number, json: Record<string, unknown>, as: As = 'administrator') => site.req('POST', `/core/v2/media/${id}`, { as, json });
const attachments = () => site.db.prisma.content.count({ where: { type: 'attachment' } });

/** The ids of a media list (edit context, any parent) with these parameters. */
async function listed(query: string): Promise<number[]> {
  const res = await site.req('GET', `/core/v2/media?${query}&per_page=100`, { as: 'administrator' });
  expect(res.status, res.text).toBe(200);
  return res.body.map((m: { id: number }) => m.id);
}

/** A revision of a post: its first update stores one. */
async function revisionOf(postId: number, as: As = 'administrator'): Promise<number> {
  expect((await site.req('POST', `/core/v2/posts/${postId}`, { as, json: { content: 'Changed' } })).status).toBe(200);
  const revisions = await site.req('GET', `/core/v2/posts/${postId}/revisions`, { as });
  expect(revisions.status).toBe(200);
  return revisions.body[0].id;
}

describe('upload with a parent', () => {
  it('nothing behind the id: 403 rest_cannot_edit (raw body and form), nothing stored', async () => {
    const before = await attachments();
    for (const res of [await uploadRaw('none.png', `post=${NOTHING}`), await uploadForm('none.png', { post: NOTHING })]) {
      expect(res).toBeWpError(403, 'rest_cannot_edit');
      expect(res.body.message).toBe('Sorry, you are not allowed to upload media to this post.');
    }
    // A negative id has nothing behind it either.
    expect(await uploadRaw('negative.png', 'post=-3')).toBeWpError(403, 'rest_cannot_edit');
    expect(await uploadRaw('author.png', `post=${NOTHING}`, 'author')).toBeWpError(403, 'rest_cannot_edit');
    expect(await attachments()).toBe(before);
  });

  it('a post the caller may not edit: 403 rest_cannot_edit; one they may edit: attached', async () => {
    const adminPost = await site.createPost({ title: 'Admin parent', status: 'publish' });
    const own = await site.createPost({ title: 'Author parent', status: 'publish' }, 'author');
    const refused = await uploadRaw('x.png', `post=${adminPost.id}`, 'author');
    expect(refused).toBeWpError(403, 'rest_cannot_edit');
    expect(refused.body.message).toBe('Sorry, you are not allowed to upload media to this post.');
    const made = await uploadRaw('own.png', `post=${own.id}`, 'author');
    expect(made.status).toBe(201);
    expect(made.body.post).toBe(own.id);
  });

  it('a revision, an autosave or an attachment: 400 rest_invalid_param "Invalid parent type." once the parent may be edited', async () => {
    const adminPost = await site.createPost({ title: 'Revised parent', status: 'publish' });
    const own = await site.createPost({ title: 'Revised author parent', status: 'draft' }, 'author');
    const revision = await revisionOf(adminPost.id);
    const ownRevision = await revisionOf(own.id, 'author');
    const autosave = await site.req('POST', `/core/v2/posts/${adminPost.id}/autosaves`, { as: 'administrator', json: { content: 'Autosaved' } });
    expect(autosave.status).toBe(200);
    const attachment = await upload('parent-attachment.png');
    const before = await attachments();
    for (const id of [revision, autosave.body.id, attachment.id]) {
      const res = await uploadRaw('typed.png', `post=${id}`);
      expect(res).toBeWpError(400, 'rest_invalid_param');
      expect(res.body.message).toBe('Invalid parent type.');
    }
    // edit_post over a revision is edit_post over its post: asked first.
    expect(await uploadRaw('typed.png', `post=${revision}`, 'author')).toBeWpError(403, 'rest_cannot_edit');
    expect(await uploadRaw('typed.png', `post=${ownRevision}`, 'author')).toBeWpError(400, 'rest_invalid_param');
    expect(await attachments()).toBe(before);
  });
});

describe('update with a parent', () => {
  it('a revision, an attachment or the item itself: 400 rest_invalid_param "Invalid parent type.", the parent unchanged', async () => {
    const parent = await site.createPost({ title: 'Kept parent', status: 'publish' });
    const a = await upload('typed-update.png');
    expect((await update(a.id, { post: parent.id })).body.post).toBe(parent.id);
    const other = await upload('other.png');
    for (const id of [await revisionOf(parent.id), other.id, a.id]) {
      const res = await update(a.id, { post: id });
      expect(res).toBeWpError(400, 'rest_invalid_param');
      expect(res.body.message).toBe('Invalid parent type.');
    }
    expect((await site.req('GET', `/core/v2/media/${a.id}?context=edit`, { as: 'administrator' })).body.post).toBe(parent.id);
  });

  it('asks no right over the parent: an author attaches their file to a post they may not edit', async () => {
    const adminPost = await site.createPost({ title: 'Not the author\'s', status: 'publish' });
    const a = await upload('author-file.png', 'author');
    const res = await update(a.id, { post: adminPost.id }, 'author');
    expect(res.status).toBe(200);
    expect(res.body.post).toBe(adminPost.id);
  });

  describe('nothing behind the id', () => {
    let a: { id: number };
    let attached: { id: number };
    let free: { id: number };
    beforeAll(async () => {
      a = await upload('filterset-dangling.png');
      const parent = await site.createPost({ title: 'A real parent', status: 'publish' });
      attached = await upload('filterset-attached.png');
      expect((await update(attached.id, { post: parent.id })).status).toBe(200);
      free = await upload('filterset-free.png');
    });

    it('is stored as given and read back, in every context and by an author too', async () => {
      const res = await update(a.id, { post: NOTHING });
      expect(res.status, res.text).toBe(200);
      expect(res.body.post).toBe(NOTHING);
      const edit = await site.req('GET', `/core/v2/media/${a.id}?context=edit`, { as: 'administrator' });
      expect(edit.status).toBe(200);
      expect(edit.body.post).toBe(NOTHING);
      // No parent to inherit from: readable as WordPress reads it (as published).
      const view = await site.req('GET', `/core/v2/media/${a.id}`);
      expect(view.status).toBe(200);
      expect(view.body.post).toBe(NOTHING);
      expect(view.body.link).toBe(`${view.body.link.split('?')[0]}?attachment_id=${a.id}`);
      // An attachment has no `up` link (not a hierarchical type); embedding does not fail.
      expect(edit.body._links.up).toBeUndefined();
      const embedded = await site.req('GET', `/core/v2/media/${a.id}?_embed=1`, { as: 'administrator' });
      expect(embedded.status).toBe(200);
      expect(embedded.body.post).toBe(NOTHING);

      const mine = await upload('author-dangling.png', 'author');
      const byAuthor = await update(mine.id, { post: NOTHING + 1 }, 'author');
      expect(byAuthor.status).toBe(200);
      expect(byAuthor.body.post).toBe(NOTHING + 1);
    });

    it('matches the parent filters as that id, with and without a search', async () => {
      // The search runs as its own SQL statement (full-text): the same filters there.
      for (const search of ['', '&search=filterset']) {
        const dangling = await listed(`parent=${NOTHING}${search}`);
        expect(dangling).toContain(a.id);
        expect(dangling).not.toContain(free.id);
        const unattached = await listed(`parent=0${search}`);
        expect(unattached).toContain(free.id);
        expect(unattached).not.toContain(a.id);
        expect(unattached).not.toContain(attached.id);
        const both = await listed(`parent=0,${NOTHING}${search}`);
        expect(both).toEqual(expect.arrayContaining([a.id, free.id]));
        expect(both).not.toContain(attached.id);
        const notDangling = await listed(`parent_exclude=${NOTHING}${search}`);
        expect(notDangling).toEqual(expect.arrayContaining([free.id, attached.id]));
        expect(notDangling).not.toContain(a.id);
        const notUnattached = await listed(`parent_exclude=0${search}`);
        expect(notUnattached).toContain(a.id);
        expect(notUnattached).not.toContain(free.id);
      }
    });

    it('reads through GraphQL: `parentDatabaseId` is the id, `parent` null', async () => {
      const res = await site.gql('query($id: Int!) { mediaItem(id: $id) { databaseId parentDatabaseId parent { node { __typename } } } }', { id: a.id }, { as: 'administrator' });
      expect(res.errors).toBeUndefined();
      expect(res.data.mediaItem).toEqual({ databaseId: a.id, parentDatabaseId: NOTHING, parent: null });
    });

    it('is exported as stored (JSON and WXR)', async () => {
      const json = await site.req('GET', '/block-editor/v1/export?format=json', { as: 'administrator' });
      expect(json.status).toBe(200);
      expect(json.body.find((i: { id: number }) => i.id === a.id).parent).toBe(NOTHING);
      const wxr = await site.req('GET', '/block-editor/v1/export?format=wxr', { as: 'administrator' });
      expect(wxr.status).toBe(200);
      const item = wxr.text.split('<item>').find((part) => part.includes(`<wp:post_id>${a.id}</wp:post_id>`));
      expect(item).toContain(`<wp:post_parent>${NOTHING}</wp:post_parent>`);
    });

    it('gives way to a real parent or none, and a negative id stores none (an unsigned column in WordPress)', async () => {
      const b = await upload('changing.png');
      const parent = await site.createPost({ title: 'Later parent', status: 'publish' });
      expect((await update(b.id, { post: NOTHING + 2 })).body.post).toBe(NOTHING + 2);
      expect((await update(b.id, { post: parent.id })).body.post).toBe(parent.id);
      expect(await listed(`parent=${NOTHING + 2}`)).not.toContain(b.id);
      expect((await update(b.id, { post: NOTHING + 2 })).body.post).toBe(NOTHING + 2);
      const detached = await update(b.id, { post: 0 });
      expect(detached.status).toBe(200);
      expect(detached.body.post).toBeNull();
      expect(await listed('parent=0')).toContain(b.id);
      expect((await update(b.id, { post: NOTHING + 2 })).body.post).toBe(NOTHING + 2);
      const negative = await update(b.id, { post: -4 });
      expect(negative.status).toBe(200);
      expect(negative.body.post).toBeNull();
      expect((await site.req('GET', `/core/v2/media/${b.id}?context=edit`, { as: 'administrator' })).body.post).toBeNull();
      // Another field alone leaves the kept parent as it is.
      expect((await update(b.id, { post: NOTHING + 2 })).body.post).toBe(NOTHING + 2);
      const titled = await update(b.id, { title: 'Renamed' });
      expect(titled.body.post).toBe(NOTHING + 2);
    });
  });
});
