// POST /batch/v1: up to 25 requests in one, answered 207 with one {body, status, headers} per item
// in request order, each run as the single request would run (the batch's caller, validation,
// errors, cache retirement); WordPress's two validation modes; and the atomic mode (not in
// WordPress), which runs every item in one transaction and undoes them all at the first failure.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestSite, API, type TestResponse, type TestSite } from '../helpers/app.js';

let site: TestSite;
beforeAll(async () => { site = await createTestSite(); });
afterAll(async () => { await site?.close(); });

type As = NonNullable<Parameters<TestSite['req']>[2]>['as'];
interface BatchRequest { method?: string; path: string; body?: Record<string, unknown>; headers?: Record<string, unknown> }
interface Envelope { status: number; body: any; headers: Record<string, string> }

/** As the administrator unless `as` says otherwise; `null` sends it anonymously. */
const batch = (json: Record<string, unknown>, as: As | null = 'administrator') => site.req('POST', '/batch/v1', { as: as ?? undefined, json });
/** One item of a 207 answer, shaped for toBeWpError. */
const item = (res: TestResponse, i: number): { status: number; body: any } => {
  const e = res.body.responses[i] as Envelope;
  return { status: e.status, body: e.body };
};
const createItem = (body: Record<string, unknown>, path = '/core/v2/posts'): BatchRequest => ({ path, body });

let serial = 0;
/** A word found by search in one test only. */
const token = () => `batchtoken${Date.now().toString(36)}x${++serial}`;

/** The ids of posts whose text holds `word`, in any status, as the administrator sees them. */
async function found(word: string): Promise<number[]> {
  const res = await site.req('GET', `/core/v2/posts?search=${word}&status=publish,draft,pending,private,future&per_page=100`, { as: 'administrator' });
  expect(res.status).toBe(200);
  return (res.body as { id: number }[]).map((p) => p.id).sort((a, b) => a - b);
}

describe('batch answers', () => {
  it('answers 207 with one envelope per item, in order, bodies and headers as single requests give them', async () => {
    const word = token();
    const res = await batch({
      requests: [
        createItem({ title: `First ${word}`, content: 'One' }),
        { method: 'POST', path: '/core/v2/posts', body: { title: `Second ${word}`, status: 'publish' } },
        createItem({ name: `Tag ${word}` }, '/core/v2/tags'),
      ],
    });
    expect(res.status).toBe(207);
    expect(Object.keys(res.body)).toEqual(['responses']);
    expect(res.body.responses).toHaveLength(3);
    for (const e of res.body.responses) expect(Object.keys(e).sort()).toEqual(['body', 'headers', 'status']);

    const [first, second, tag] = res.body.responses as Envelope[];
    expect(first.status).toBe(201);
    expect(first.body.title.raw).toBe(`First ${word}`);
    expect(first.body.status).toBe('draft');
    expect(second.status).toBe(201);
    expect(second.body.title.raw).toBe(`Second ${word}`);
    expect(second.body.status).toBe('publish');
    expect(second.body.id).toBeGreaterThan(first.body.id); // run in order
    expect(tag.status).toBe(201);
    expect(tag.body.name).toBe(`Tag ${word}`);

    // Created items carry Location and Allow, as the single requests' headers give them.
    const single = await site.req('POST', '/core/v2/posts', { as: 'administrator', json: { title: `Single ${word}`, content: 'One' } });
    expect(single.status).toBe(201);
    const singleTag = await site.req('POST', '/core/v2/tags', { as: 'administrator', json: { name: `Single tag ${word}` } });
    expect(singleTag.status).toBe(201);
    expect(first.headers.Location).toBe(`${API}/core/v2/posts/${first.body.id}`);
    expect(first.headers.Allow).toBeTruthy();
    expect(first.headers.Allow).toBe(single.headers.get('allow'));
    expect(second.headers.Location).toBe(`${API}/core/v2/posts/${second.body.id}`);
    expect(tag.headers.Location).toBe(`${API}/core/v2/tags/${tag.body.id}`);
    expect(tag.headers.Allow).toBeTruthy();
    expect(tag.headers.Allow).toBe(singleTag.headers.get('allow'));

    // The body is what the single request answers: the edit view with _links.
    expect(first.body._links.self[0].href).toBe(`${API}/core/v2/posts/${first.body.id}`);
    expect(first.body._links.collection[0].href).toBe(`${API}/core/v2/posts`);
    expect(Object.keys(first.body).sort()).toEqual(Object.keys(single.body).sort());
    expect(Object.keys(first.body._links).sort()).toEqual(Object.keys(single.body._links).sort());
    const stored = await site.req('GET', `/core/v2/posts/${first.body.id}?context=edit`, { as: 'administrator' });
    expect(stored.status).toBe(200);
    expect(first.body).toEqual(stored.body);

    expect(await found(word)).toEqual([first.body.id, second.body.id, single.body.id].sort((a, b) => a - b));
  });

  it('runs a mix of successes and failures in normal mode; a failure does not stop later items', async () => {
    const word = token();
    const doomed = await site.createPost({ title: `Doomed ${word}`, status: 'publish' });
    const edited = await site.createPost({ title: `Before ${word}`, status: 'publish' });
    const res = await batch({
      validation: 'normal',
      requests: [
        createItem({ title: `Made ${word}` }),
        createItem({ title: '', content: '', excerpt: '' }),
        { method: 'PATCH', path: '/core/v2/posts/987654', body: { title: 'Nobody' } },
        { method: 'DELETE', path: `/core/v2/posts/${doomed.id}?force=true` },
        { method: 'PUT', path: `/core/v2/posts/${edited.id}`, body: { title: `After ${word}` } },
      ],
    });
    expect(res.status).toBe(207);
    expect(res.body.failed).toBeUndefined();
    expect(res.body.responses).toHaveLength(5);
    expect(res.body.responses.map((e: Envelope) => e.status)).toEqual([201, 400, 404, 200, 200]);

    expect(res.body.responses[0].body.title.raw).toBe(`Made ${word}`);
    expect(item(res, 1)).toBeWpError(400, 'empty_content');
    expect(item(res, 2)).toBeWpError(404, 'rest_post_invalid_id');
    expect(res.body.responses[3].body.deleted).toBe(true);
    expect(res.body.responses[3].body.previous.id).toBe(doomed.id);
    expect(res.body.responses[4].body.title.raw).toBe(`After ${word}`);

    expect(await site.req('GET', `/core/v2/posts/${doomed.id}`, { as: 'administrator' })).toBeWpError(404, 'rest_post_invalid_id');
    expect((await site.req('GET', `/core/v2/posts/${edited.id}`)).body.title.rendered).toBe(`After ${word}`);
    expect(await found(word)).toEqual([res.body.responses[0].body.id, edited.id].sort((a, b) => a - b));
  });

  it('commits a normal batch once, keeping each item\'s outcome: the writes of all its items land together', async () => {
    const word = token();
    const before = site.db.localVersion;
    const res = await batch({
      requests: [
        createItem({ title: `One ${word}`, status: 'publish' }),
        { method: 'PATCH', path: '/core/v2/posts/987654', body: { title: 'Nobody' } },
        createItem({ title: `Two ${word}`, status: 'publish' }),
        createItem({ name: `Tag ${word}` }, '/core/v2/tags'),
      ],
    });
    expect(res.body.responses.map((e: Envelope) => e.status)).toEqual([201, 404, 201, 201]);
    expect(item(res, 1)).toBeWpError(404, 'rest_post_invalid_id');
    // One commit announced for the three writing items (one per item when each had its own transaction).
    expect(site.db.localVersion - before).toBe(1);
    expect(await found(word)).toEqual([res.body.responses[0].body.id, res.body.responses[2].body.id].sort((a, b) => a - b));
  });

  it('costs one savepoint statement per item on PostgreSQL (the release goes with the next savepoint, the last with the COMMIT), two on SQLite', async () => {
    const statements = async (atomic: boolean) => {
      const word = token();
      const before = site.db.statements;
      const res = await batch({ atomic, requests: [1, 2, 3].map((n) => createItem({ title: `Savepoint ${n} ${word}`, status: 'publish' })) });
      expect(res.body.responses.map((e: Envelope) => e.status)).toEqual([201, 201, 201]);
      return site.db.statements - before;
    };
    await statements(false);
    const plain = await statements(false);
    const atomic = await statements(true);
    expect(plain - atomic).toBe(site.db.provider === 'postgres' ? 3 : 6);
  });

  it('lets an item read what the items before it wrote, in normal and in atomic batches', async () => {
    for (const atomic of [false, true]) {
      const word = token();
      // The next id the table hands out: the batch's first item gets it.
      const next = (await site.createPost({ title: `Probe ${word}` })).id + 1;
      const res = await batch({
        ...(atomic ? { atomic: true } : {}),
        requests: [
          createItem({ title: `Made ${word}`, status: 'publish', categories: [1] }),
          { method: 'PATCH', path: `/core/v2/posts/${next}`, body: { title: `Changed ${word}` } },
          createItem({ title: `Child ${word}`, status: 'publish' }, '/core/v2/pages'),
        ],
      });
      expect(res.status, JSON.stringify(res.body)).toBe(207);
      expect(res.body.failed).toBeUndefined();
      expect(res.body.responses[0].body.id).toBe(next);
      expect(res.body.responses[1].status).toBe(200);
      expect(res.body.responses[1].body.id).toBe(next);
      expect(res.body.responses[1].body.title.raw).toBe(`Changed ${word}`);
      // What the update answers was read back inside the batch: the first item's category and its revisions.
      expect(res.body.responses[1].body.categories).toEqual([1]);
      expect(res.body.responses[1].body._links['version-history'][0].count).toBeGreaterThanOrEqual(1);
      expect((await site.req('GET', `/core/v2/posts/${next}`)).body.title.rendered).toBe(`Changed ${word}`);
    }
  });

  it('runs 25 items, all of them', async () => {
    const word = token();
    const requests = Array.from({ length: 25 }, (_, i) => createItem({ title: `Bulk ${i} ${word}`, status: 'publish' }));
    const res = await batch({ requests });
    expect(res.status).toBe(207);
    expect(res.body.responses).toHaveLength(25);
    expect(res.body.responses.every((e: Envelope) => e.status === 201)).toBe(true);
    expect(res.body.responses.map((e: Envelope) => e.body.title.raw)).toEqual(requests.map((r) => r.body!.title));

    const list = await site.req('GET', `/core/v2/posts?search=${word}&per_page=100`);
    expect(list.status).toBe(200);
    expect(list.headers.get('x-wp-total')).toBe('25');
    expect((list.body as { id: number }[]).map((p) => p.id).sort((a, b) => a - b))
      .toEqual(res.body.responses.map((e: Envelope) => e.body.id).sort((a: number, b: number) => a - b));
  });
});

describe('whole-batch refusals', () => {
  it('refuses 26 items with rest_invalid_param (rest_too_many_items) and runs none', async () => {
    const word = token();
    const before = await site.db.prisma.content.count();
    const res = await batch({ requests: Array.from({ length: 26 }, (_, i) => createItem({ title: `Too many ${i} ${word}` })) });
    expect(res).toBeWpError(400, 'rest_invalid_param');
    expect(res.body.data.params.requests).toBeTruthy();
    expect(res.body.data.details.requests.code).toBe('rest_too_many_items');
    expect(await site.db.prisma.content.count()).toBe(before);
    expect(await found(word)).toEqual([]);
  });

  it('refuses a batch without requests with rest_missing_callback_param', async () => {
    const res = await batch({ validation: 'normal' });
    expect(res).toBeWpError(400, 'rest_missing_callback_param');
    expect(res.body.data.params).toEqual(['requests']);
  });

  it('refuses malformed requests and items with rest_invalid_param naming requests', async () => {
    const before = await site.db.prisma.content.count();
    const cases: unknown[] = [
      'not an array',
      { path: '/core/v2/posts', body: { title: 'x' } },
      [{ body: { title: 'No path' } }],
      [{ method: 'GET', path: '/core/v2/posts' }],
      [{ method: 'FOO', path: '/core/v2/posts', body: { title: 'x' } }],
      [createItem({ title: 'Valid' }), { method: 'GET', path: '/core/v2/posts' }],
    ];
    for (const requests of cases) {
      const res = await batch({ requests });
      expect(res, JSON.stringify(requests)).toBeWpError(400, 'rest_invalid_param');
      expect(Object.keys(res.body.data.params), JSON.stringify(requests)).toEqual(['requests']);
    }
    expect(await site.db.prisma.content.count()).toBe(before);
  });

  it('refuses an unknown validation mode with rest_invalid_param naming validation', async () => {
    const before = await site.db.prisma.content.count();
    const res = await batch({ validation: 'bogus', requests: [createItem({ title: 'x' })] });
    expect(res).toBeWpError(400, 'rest_invalid_param');
    expect(Object.keys(res.body.data.params)).toEqual(['validation']);
    expect(await site.db.prisma.content.count()).toBe(before);
  });
});

describe('item routing', () => {
  it('answers rest_batch_not_allowed for media, a nested batch and revisions; rest_no_route for unknown paths', async () => {
    const word = token();
    const post = await site.createPost({ title: `Revised ${word}`, status: 'publish' });
    expect((await site.req('POST', `/core/v2/posts/${post.id}`, { as: 'administrator', json: { title: `Revised again ${word}` } })).status).toBe(200);
    const revisions = await site.req('GET', `/core/v2/posts/${post.id}/revisions`, { as: 'administrator' });
    expect(revisions.status).toBe(200);
    const revision = revisions.body[0].id;

    const res = await batch({
      requests: [
        createItem({ title: `Media ${word}` }, '/core/v2/media'),
        { path: '/batch/v1', body: { requests: [createItem({ title: `Nested ${word}` })] } },
        { method: 'DELETE', path: `/core/v2/posts/${post.id}/revisions/${revision}?force=true` },
        createItem({ title: `Nowhere ${word}` }, '/core/v2/nothing-here'),
        createItem({ title: `Prefixed ${word}` }, 'http://example.test/wp-json/core/v2/posts'),
        createItem({ title: `Full URL ${word}` }, 'http://example.test/core/v2/posts'),
        createItem({ title: `After ${word}` }),
      ],
    });
    expect(res.status).toBe(207);
    expect(res.body.responses).toHaveLength(7);
    expect(item(res, 0)).toBeWpError(400, 'rest_batch_not_allowed');
    expect(item(res, 1)).toBeWpError(400, 'rest_batch_not_allowed');
    expect(item(res, 2)).toBeWpError(400, 'rest_batch_not_allowed');
    expect(item(res, 3)).toBeWpError(404, 'rest_no_route');
    expect(item(res, 4)).toBeWpError(404, 'rest_no_route');
    expect(res.body.responses[5].status).toBe(201);
    expect(res.body.responses[5].body.title.raw).toBe(`Full URL ${word}`);
    expect(res.body.responses[6].status).toBe(201);

    // The refused items did nothing: the revision is still there, and only the two creates exist.
    const after = await site.req('GET', `/core/v2/posts/${post.id}/revisions/${revision}`, { as: 'administrator' });
    expect(after.status).toBe(200);
    expect(await found(word)).toEqual([post.id, res.body.responses[5].body.id, res.body.responses[6].body.id].sort((a, b) => a - b));
  });

  it('takes POST as the default method', async () => {
    const post = await site.createPost({ title: 'Untouched', status: 'publish' });
    const res = await batch({ requests: [{ path: `/core/v2/posts/${post.id}`, body: { title: 'Edited by default' } }] });
    expect(res.status).toBe(207);
    expect(res.body.responses[0].status).toBe(200);
    expect(res.body.responses[0].body.title.raw).toBe('Edited by default');
    expect(res.body.responses[0].headers.Allow).toBe('GET, POST, PUT, PATCH, DELETE');
    expect((await site.req('GET', `/core/v2/posts/${post.id}`)).body.title.rendered).toBe('Edited by default');
  });
});

describe('per-item rights', () => {
  it('checks each item as the caller: anonymous 401, subscriber 403, the batch itself 207', async () => {
    const word = token();
    const anonymous = await batch({ requests: [createItem({ title: `Anon ${word}` }), createItem({ title: `Anon 2 ${word}` })] }, null);
    expect(anonymous.status).toBe(207);
    expect(item(anonymous, 0)).toBeWpError(401, 'rest_cannot_create');
    expect(item(anonymous, 1)).toBeWpError(401, 'rest_cannot_create');

    const subscriber = await batch({ requests: [createItem({ title: `Sub ${word}` })] }, 'subscriber');
    expect(subscriber.status).toBe(207);
    expect(item(subscriber, 0)).toBeWpError(403, 'rest_cannot_create');

    const contributor = await batch({
      requests: [createItem({ title: `Contrib draft ${word}` }), createItem({ title: `Contrib publish ${word}`, status: 'publish' })],
    }, 'contributor');
    expect(contributor.status).toBe(207);
    expect(contributor.body.responses[0].status).toBe(201);
    expect(contributor.body.responses[0].body.status).toBe('draft');
    expect(contributor.body.responses[0].body.author).toBe(site.users.contributor.id);
    expect(item(contributor, 1)).toBeWpError(403, 'rest_cannot_publish');

    expect(await found(word)).toEqual([contributor.body.responses[0].body.id]);
  });
});

describe('require-all-validate', () => {
  it('runs nothing when one item fails validation, and answers failed: validation', async () => {
    const word = token();
    const before = await site.db.prisma.content.count();
    const res = await batch({
      validation: 'require-all-validate',
      requests: [createItem({ title: `Valid ${word}` }), createItem({ title: `Invalid ${word}`, status: 'bogus' })],
    });
    expect(res.status).toBe(207);
    expect(res.body.failed).toBe('validation');
    expect(res.body.responses).toHaveLength(2);
    expect(res.body.responses[0]).toBeNull();
    expect(item(res, 1)).toBeWpError(400, 'rest_invalid_param');
    expect(res.body.responses[1].body.data.params.status).toBeTruthy();
    expect(res.body.responses[1].headers).toEqual({});
    expect(await site.db.prisma.content.count()).toBe(before);
    expect(await found(word)).toEqual([]);
  });

  it('counts an unknown route and an unbatchable route as validation failures', async () => {
    const word = token();
    const before = await site.db.prisma.content.count();
    const res = await batch({
      validation: 'require-all-validate',
      requests: [createItem({ title: `Valid ${word}` }), createItem({ title: 'x' }, '/core/v2/nothing-here'), createItem({ title: 'x' }, '/core/v2/media')],
    });
    expect(res.status).toBe(207);
    expect(res.body.failed).toBe('validation');
    expect(res.body.responses[0]).toBeNull();
    expect(item(res, 1)).toBeWpError(404, 'rest_no_route');
    expect(item(res, 2)).toBeWpError(400, 'rest_batch_not_allowed');
    expect(await site.db.prisma.content.count()).toBe(before);
  });

  it('does not count permissions as validation: a subscriber\'s create validates, then fails 403 when run', async () => {
    const word = token();
    const res = await batch({ validation: 'require-all-validate', requests: [createItem({ title: `Sub ${word}` })] }, 'subscriber');
    expect(res.status).toBe(207);
    expect(res.body.failed).toBeUndefined();
    expect(item(res, 0)).toBeWpError(403, 'rest_cannot_create');
    expect(await found(word)).toEqual([]);
  });

  it('runs like normal when every item validates, with no failed key', async () => {
    const word = token();
    const res = await batch({
      validation: 'require-all-validate',
      requests: [createItem({ title: `One ${word}` }), createItem({ title: '', content: '', excerpt: '' }), createItem({ title: `Two ${word}` })],
    });
    expect(res.status).toBe(207);
    expect(Object.keys(res.body)).toEqual(['responses']);
    expect(res.body.responses[0].status).toBe(201);
    // empty_content is the handler's refusal, not param validation: that item fails alone.
    expect(item(res, 1)).toBeWpError(400, 'empty_content');
    expect(res.body.responses[2].status).toBe(201);
    expect(await found(word)).toEqual([res.body.responses[0].body.id, res.body.responses[2].body.id].sort((a, b) => a - b));
  });
});

describe('term counts in batches', () => {
  it('does not add a create\'s count again after a category delete recounted the default category', async () => {
    const word = token();
    const doomed = await site.createTerm('categories', { name: `Doomed ${word}` });
    await site.createPost({ title: `Orphan ${word}`, status: 'publish', categories: [doomed.id] });
    const defaultCount = async () => (await site.req('GET', '/core/v2/categories/1')).body.count;
    const before = await defaultCount();
    const res = await batch({
      requests: [
        createItem({ title: `Default ${word}`, status: 'publish' }),
        // Its post falls back to the default category, which is recounted from its links: the
        // create above is among them.
        { method: 'DELETE', path: `/core/v2/categories/${doomed.id}?force=true` },
      ],
    });
    expect(res.body.responses.map((e: Envelope) => e.status)).toEqual([201, 200]);
    expect(await defaultCount()).toBe(before + 2);
  });

  it('adds the items\' term counts when the batch ends, after any recount of the same terms', async () => {
    const word = token();
    const category = await site.createTerm('categories', { name: `Counted ${word}` });
    const tag = await site.createTerm('tags', { name: `Counted tag ${word}` });
    const existing = await site.createPost({ title: `Moved ${word}`, status: 'publish' });
    const res = await batch({
      requests: [
        createItem({ title: `Counted A ${word}`, status: 'publish', categories: [category.id], tags: [tag.id] }),
        createItem({ title: `Counted draft ${word}`, status: 'draft', categories: [category.id] }),
        createItem({ title: `Counted B ${word}`, status: 'publish', categories: [category.id] }),
        createItem({ title: '', content: '', excerpt: '' }),
        // An update recounts the category from its links, the two creates above included.
        { path: `/core/v2/posts/${existing.id}`, body: { categories: [category.id] } },
        createItem({ title: `Counted C ${word}`, status: 'publish', categories: [category.id], tags: [tag.id] }),
      ],
    });
    expect(res.status).toBe(207);
    expect(res.body.responses.map((r: { status: number }) => r.status)).toEqual([201, 201, 201, 400, 200, 201]);
    expect(item(res, 3)).toBeWpError(400, 'empty_content');
    // The answers show the terms (class_list) though their counts were not written yet.
    expect(res.body.responses[0].body.class_list).toEqual(expect.arrayContaining([`category-${category.slug}`, `tag-${tag.slug}`]));
    const published = await site.req('GET', `/core/v2/posts?categories=${category.id}&per_page=100&_fields=id`);
    expect(published.body).toHaveLength(4);
    expect((await site.req('GET', `/core/v2/categories/${category.id}`)).body.count).toBe(4);
    expect((await site.req('GET', `/core/v2/tags/${tag.id}`)).body.count).toBe(2);
  });
});

describe('atomic batches', () => {
  it('undoes every item at the first failure: failed: atomic, nothing left, term counts and sticky posts unchanged', async () => {
    const word = token();
    const tag = await site.createTerm('tags', { name: `Atomic tag ${word}` });
    const category = await site.createTerm('categories', { name: `Atomic category ${word}` });
    const stickyBefore = await site.req('GET', '/core/v2/posts?sticky=true&per_page=100', { as: 'administrator' });
    expect(stickyBefore.status).toBe(200);
    const before = await site.db.prisma.content.count();

    const res = await batch({
      atomic: true,
      requests: [
        createItem({ title: `Atomic A ${word}`, status: 'publish', sticky: true, tags: [tag.id], categories: [category.id] }),
        createItem({ title: `Atomic B ${word}`, status: 'publish', tags: [tag.id] }),
        createItem({ title: '', content: '', excerpt: '' }),
      ],
    });
    expect(res.status).toBe(207);
    expect(res.body.failed).toBe('atomic');
    expect(res.body.responses).toHaveLength(3);
    expect(res.body.responses[0].status).toBe(201);
    expect(res.body.responses[0].body.title.raw).toBe(`Atomic A ${word}`);
    expect(res.body.responses[0].headers.Location).toBe(`${API}/core/v2/posts/${res.body.responses[0].body.id}`);
    expect(res.body.responses[1].status).toBe(201);
    expect(res.body.responses[1].body.title.raw).toBe(`Atomic B ${word}`);
    expect(item(res, 2)).toBeWpError(400, 'empty_content');

    // Nothing is left of A or B.
    expect(await site.db.prisma.content.count()).toBe(before);
    expect(await found(word)).toEqual([]);
    for (const e of res.body.responses.slice(0, 2) as Envelope[]) {
      expect(await site.req('GET', `/core/v2/posts/${e.body.id}`, { as: 'administrator' })).toBeWpError(404, 'rest_post_invalid_id');
    }
    expect((await site.req('GET', `/core/v2/tags/${tag.id}`)).body.count).toBe(0);
    expect((await site.req('GET', `/core/v2/categories/${category.id}`)).body.count).toBe(0);
    // Nor of their term links and change events (on SQLite written straight on the transaction's connection).
    const ids = (res.body.responses.slice(0, 2) as Envelope[]).map((e) => e.body.id as number);
    expect(await site.db.prisma.termRelationship.count({ where: { contentId: { in: ids } } })).toBe(0);
    expect(await site.db.prisma.contentEvent.count({ where: { contentId: { in: ids } } })).toBe(0);
    const stickyAfter = await site.req('GET', '/core/v2/posts?sticky=true&per_page=100', { as: 'administrator' });
    expect(stickyAfter.body.map((p: { id: number }) => p.id)).toEqual(stickyBefore.body.map((p: { id: number }) => p.id));
    expect(stickyAfter.headers.get('x-wp-total')).toBe(stickyBefore.headers.get('x-wp-total'));
  });

  it('answers null for the items after the failing one, which never ran', async () => {
    const word = token();
    const before = await site.db.prisma.content.count();
    const res = await batch({
      atomic: true,
      requests: [
        createItem({ title: `First ${word}` }),
        { method: 'PATCH', path: '/core/v2/posts/987654', body: { title: 'Nobody' } },
        createItem({ title: `Never ${word}` }),
        createItem({ title: `Never either ${word}` }),
      ],
    });
    expect(res.status).toBe(207);
    expect(res.body.failed).toBe('atomic');
    expect(res.body.responses).toHaveLength(4);
    expect(res.body.responses[0].status).toBe(201);
    expect(item(res, 1)).toBeWpError(404, 'rest_post_invalid_id');
    expect(res.body.responses[2]).toBeNull();
    expect(res.body.responses[3]).toBeNull();
    expect(await site.db.prisma.content.count()).toBe(before);
    expect(await found(word)).toEqual([]);
  });

  it('rolls back on a permission failure too', async () => {
    const word = token();
    const before = await site.db.prisma.content.count();
    const res = await batch({
      atomic: true,
      requests: [createItem({ title: `Draft ${word}` }), createItem({ title: `Published ${word}`, status: 'publish' })],
    }, 'contributor');
    expect(res.status).toBe(207);
    expect(res.body.failed).toBe('atomic');
    expect(res.body.responses[0].status).toBe(201);
    expect(item(res, 1)).toBeWpError(403, 'rest_cannot_publish');
    expect(await site.db.prisma.content.count()).toBe(before);
    expect(await found(word)).toEqual([]);
  });

  it('commits every item when all succeed, with no failed key', async () => {
    const word = token();
    const res = await batch({ atomic: true, requests: [createItem({ title: `Kept A ${word}`, status: 'publish' }), createItem({ title: `Kept B ${word}` })] });
    expect(res.status).toBe(207);
    expect(Object.keys(res.body)).toEqual(['responses']);
    expect(res.body.responses.map((e: Envelope) => e.status)).toEqual([201, 201]);
    expect(res.body.responses[0].headers.Location).toBe(`${API}/core/v2/posts/${res.body.responses[0].body.id}`);
    expect(await found(word)).toEqual(res.body.responses.map((e: Envelope) => e.body.id).sort((a: number, b: number) => a - b));
    expect((await site.req('GET', `/core/v2/posts/${res.body.responses[0].body.id}`)).status).toBe(200);
  });

  it('validates every item first: an invalid param answers failed: validation and nothing runs', async () => {
    const word = token();
    const before = await site.db.prisma.content.count();
    const res = await batch({
      atomic: true,
      requests: [createItem({ title: `Would be ${word}` }), createItem({ title: `Bad ${word}`, status: 'bogus' }), createItem({ title: `Also ${word}` })],
    });
    expect(res.status).toBe(207);
    expect(res.body.failed).toBe('validation');
    expect(res.body.responses).toHaveLength(3);
    expect(res.body.responses[0]).toBeNull();
    expect(item(res, 1)).toBeWpError(400, 'rest_invalid_param');
    expect(res.body.responses[2]).toBeNull();
    expect(await site.db.prisma.content.count()).toBe(before);
    expect(await found(word)).toEqual([]);
  });

  it('commits a batch mixing posts, tags and categories', async () => {
    const word = token();
    const tag = await site.createTerm('tags', { name: `Existing tag ${word}` });
    const res = await batch({
      atomic: true,
      requests: [
        createItem({ name: `Mixed tag ${word}` }, '/core/v2/tags'),
        createItem({ name: `Mixed category ${word}` }, '/core/v2/categories'),
        createItem({ title: `Mixed post ${word}`, status: 'publish', tags: [tag.id] }),
        { method: 'PATCH', path: `/core/v2/tags/${tag.id}`, body: { description: `Described ${word}` } },
      ],
    });
    expect(res.status).toBe(207);
    expect(res.body.failed).toBeUndefined();
    expect(res.body.responses.map((e: Envelope) => e.status)).toEqual([201, 201, 201, 200]);
    const [newTag, newCategory, post] = res.body.responses.map((e: Envelope) => e.body);

    const tagGet = await site.req('GET', `/core/v2/tags/${newTag.id}`);
    expect(tagGet.status).toBe(200);
    expect(tagGet.body.name).toBe(`Mixed tag ${word}`);
    const categoryGet = await site.req('GET', `/core/v2/categories/${newCategory.id}`);
    expect(categoryGet.status).toBe(200);
    expect(categoryGet.body.name).toBe(`Mixed category ${word}`);
    const postGet = await site.req('GET', `/core/v2/posts/${post.id}`);
    expect(postGet.status).toBe(200);
    expect(postGet.body.tags).toEqual([tag.id]);
    const existing = (await site.req('GET', `/core/v2/tags/${tag.id}`)).body;
    expect(existing.count).toBe(1);
    expect(existing.description).toBe(`Described ${word}`);
  });

  it('leaves the anonymous response cache showing what it did before a rolled-back batch', async () => {
    const word = token();
    const before = await site.req('GET', '/core/v2/posts');
    expect(before.status).toBe(200);
    const res = await batch({
      atomic: true,
      requests: [createItem({ title: `Ghost ${word}`, status: 'publish' }), createItem({ title: '', content: '', excerpt: '' })],
    });
    expect(res.body.failed).toBe('atomic');
    expect(res.body.responses[0].status).toBe(201);
    const after = await site.req('GET', '/core/v2/posts');
    expect(after.status).toBe(200);
    expect(after.body).toEqual(before.body);
    expect(after.headers.get('x-wp-total')).toBe(before.headers.get('x-wp-total'));
    expect(after.text).not.toContain(`Ghost ${word}`);
    const search = await site.req('GET', `/core/v2/posts?search=${word}`);
    expect(search.body).toEqual([]);
  });
});

describe('cache retirement', () => {
  it('retires cached anonymous reads when a batch publishes', async () => {
    expect(site.app.cache).not.toBeNull();
    const word = token();
    const first = await site.req('GET', '/core/v2/posts');
    expect(first.status).toBe(200);
    const again = await site.req('GET', '/core/v2/posts');
    expect(again.text).toBe(first.text);
    expect(site.app.cache!.size).toBeGreaterThan(0);

    const res = await batch({ requests: [createItem({ title: `Fresh ${word}`, status: 'publish' })] });
    expect(res.body.responses[0].status).toBe(201);
    const id = res.body.responses[0].body.id;

    const after = await site.req('GET', '/core/v2/posts');
    expect(after.status).toBe(200);
    expect(after.body[0].id).toBe(id);
    expect(after.body[0].title.rendered).toBe(`Fresh ${word}`);
    expect(Number(after.headers.get('x-wp-total'))).toBe(Number(first.headers.get('x-wp-total')) + 1);
  });
});

describe('index', () => {
  it('lists /batch/v1 with an empty namespace, not among the namespaces; batchable endpoints show allow_batch', async () => {
    const index = await site.req('GET', '/');
    expect(index.status).toBe(200);
    const b = index.body;
    expect(b.namespaces).not.toContain('batch/v1');
    expect(b.namespaces).not.toContain('batch');
    const route = b.routes['/batch/v1'];
    expect(route).toBeDefined();
    expect(route.namespace).toBe('');
    expect(route.methods).toEqual(['POST']);
    expect(route.endpoints[0].args.requests.required).toBe(true);
    expect(route.endpoints[0].args.requests.maxItems).toBe(25);
    expect(route.endpoints[0].args.validation.enum).toEqual(expect.arrayContaining(['require-all-validate', 'normal']));

    for (const endpoint of b.routes['/core/v2/posts'].endpoints) expect(endpoint.allow_batch).toEqual({ v1: true });
    for (const endpoint of b.routes['/core/v2/posts/(?P<id>[\\d]+)'].endpoints) expect(endpoint.allow_batch).toEqual({ v1: true });
    const mediaPost = b.routes['/core/v2/media'].endpoints.find((e: { methods: string[] }) => e.methods.includes('POST'));
    expect(mediaPost).toBeDefined();
    expect(mediaPost.allow_batch).toBeUndefined();
  });
});
