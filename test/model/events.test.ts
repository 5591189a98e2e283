// A content type, a taxonomy and custom fields declared in a content model only
// (test/fixtures/content-model/events.json: `event`, its tree of `event_category` terms, an enum,
// an integer and a guarded boolean field), round-tripped through the real database on every
// surface the built-in types have: REST in its three contexts, list filters, OPTIONS, the types
// and taxonomies records, batch, revisions, GraphQL with relations both ways, the OpenAPI
// document, the public permalink and nodeByUri, and deployment B's head. Nothing about events is
// written anywhere else; test/contract/content-model.test.ts checks that without the model none
// of it exists.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { API, SITE, createTestSite, type TestSite } from '../helpers/app.js';

let site: TestSite;
let b: TestSite;
let parentCat: any, childCat: any, otherCat: any;
let meetup: any, conference: any;

const create = async (path: string, json: Record<string, unknown>, as = 'administrator' as const) => {
  const res = await site.req('POST', path, { as, json });
  expect(res.status, res.text).toBe(201);
  return res.body;
};

beforeAll(async () => {
  site = await createTestSite();
  parentCat = await create('/core/v2/event-categories', { name: 'Tech talks' });
  childCat = await create('/core/v2/event-categories', { name: 'JavaScript', parent: parentCat.id });
  otherCat = await create('/core/v2/event-categories', { name: 'Cooking' });
  meetup = await create('/core/v2/events', {
    title: 'Node meetup', content: '<p>Talks about Node.</p>', status: 'publish',
    'event-categories': [childCat.id], meta: { event_kind: 'meetup', capacity: 40 },
  });
  conference = await create('/core/v2/events', {
    title: 'Kitchen conference', status: 'publish', 'event-categories': [otherCat.id], meta: { event_kind: 'conference', capacity: 300, sold_out: true },
  });
});
afterAll(async () => { await site?.close(); await b?.close(); });

describe('REST: core/v2/events', () => {
  it('creates an event with its terms and typed fields, answered in the edit context', () => {
    expect(meetup).toMatchObject({
      type: 'event', status: 'publish', slug: 'node-meetup', 'event-categories': [childCat.id],
      meta: { event_kind: 'meetup', capacity: 40, sold_out: false, footnotes: '' },
      link: `${SITE}/events/node-meetup/`, permalink_template: `${SITE}/events/%event%/`,
    });
    expect(meetup.title).toEqual({ raw: 'Node meetup', rendered: 'Node meetup' });
    expect(meetup).not.toHaveProperty('categories');
    expect(meetup).not.toHaveProperty('sticky');
    expect(meetup.class_list).toContain(`event_category-${childCat.slug}`);
    expect(meetup._links.self).toMatchObject([{ href: `${API}/core/v2/events/${meetup.id}` }]);
    expect(meetup._links.collection).toEqual([{ href: `${API}/core/v2/events` }]);
    expect(meetup._links.about).toEqual([{ href: `${API}/core/v2/types/event` }]);
    expect(meetup._links['wp:term']).toEqual([{ taxonomy: 'event_category', embeddable: true, href: `${API}/core/v2/event-categories?post=${meetup.id}` }]);
  });

  it('reads in view, embed and edit contexts with the fields each context shows', async () => {
    const view = await site.req('GET', `/core/v2/events/${meetup.id}`);
    expect(view.status).toBe(200);
    expect(view.body).toMatchObject({ id: meetup.id, type: 'event', 'event-categories': [childCat.id], meta: { event_kind: 'meetup', capacity: 40, sold_out: false } });
    expect(view.body.title).toEqual({ rendered: 'Node meetup' });
    expect(view.body).not.toHaveProperty('permalink_template');
    const embed = await site.req('GET', `/core/v2/events/${meetup.id}?context=embed`);
    expect(Object.keys(embed.body).filter((k) => k !== '_links')).toEqual(['id', 'date', 'slug', 'type', 'link', 'title', 'excerpt', 'author', 'featured_media']);
    const anonymousEdit = await site.req('GET', `/core/v2/events/${meetup.id}?context=edit`);
    expect(anonymousEdit).toBeWpError(401, 'rest_forbidden_context');
    const edit = await site.req('GET', `/core/v2/events/${meetup.id}?context=edit`, { as: 'editor' });
    expect(edit.body.content.raw).toBe('<p>Talks about Node.</p>');
  });

  it('updates fields and terms, and keeps a revision of the text', async () => {
    const res = await site.req('POST', `/core/v2/events/${meetup.id}`, { as: 'editor', json: { title: 'Node meetup #2', meta: { capacity: 45 }, 'event-categories': [childCat.id, parentCat.id] } });
    expect(res.status, res.text).toBe(200);
    expect(res.body).toMatchObject({ 'event-categories': [childCat.id, parentCat.id], meta: { event_kind: 'meetup', capacity: 45 } });
    const revisions = await site.req('GET', `/core/v2/events/${meetup.id}/revisions`, { as: 'editor' });
    expect(revisions.status).toBe(200);
    expect(revisions.body.map((r: any) => r.title.rendered)).toContain('Node meetup #2');
    expect(revisions.body[0]).toMatchObject({ parent: meetup.id });
  });

  it('refuses values outside a field\'s type or enum, and unknown terms, with WordPress\'s codes', async () => {
    const kind = await site.req('POST', `/core/v2/events/${meetup.id}`, { as: 'editor', json: { meta: { event_kind: 'party' } } });
    expect(kind).toBeWpError(400, 'rest_invalid_param');
    expect(kind.body.data.params.meta).toMatch(/meta\[event_kind\] is not one of meetup, conference, and workshop/);
    const capacity = await site.req('POST', `/core/v2/events/${meetup.id}`, { as: 'editor', json: { meta: { capacity: 'many' } } });
    expect(capacity).toBeWpError(400, 'rest_invalid_param');
    // As for a post's categories: the parameter is refused, with the term's own error inside.
    const term = await site.req('POST', '/core/v2/events', { as: 'editor', json: { title: 'x', 'event-categories': [999999] } });
    expect(term).toBeWpError(400, 'rest_invalid_param');
    expect(term.body.data.details['event-categories'].code).toBe('rest_term_invalid');
    // A category id is not a term of this taxonomy.
    const categories = await site.req('GET', '/core/v2/categories', { as: 'editor' });
    const wrong = await site.req('POST', '/core/v2/events', { as: 'editor', json: { title: 'x', 'event-categories': [categories.body[0].id] } });
    expect(wrong).toBeWpError(400, 'rest_invalid_param');
    expect(wrong.body.data.details['event-categories'].code).toBe('rest_term_invalid');
  });

  it('guards a field with its write capability', async () => {
    const mine = await create('/core/v2/events', { title: 'Contributor event' }, 'contributor' as 'administrator');
    const res = await site.req('POST', `/core/v2/events/${mine.id}`, { as: 'contributor', json: { meta: { sold_out: true } } });
    expect(res).toBeWpError(403, 'rest_cannot_update');
    const fine = await site.req('POST', `/core/v2/events/${mine.id}`, { as: 'contributor', json: { meta: { capacity: 12 } } });
    expect(fine.status, fine.text).toBe(200);
    expect(fine.body.meta).toMatchObject({ capacity: 12, sold_out: false });
  });

  it('filters the list by the taxonomy, with children and exclusion, and counts it', async () => {
    const ids = async (q: string) => {
      const res = await site.req('GET', `/core/v2/events?${q}`);
      expect(res.status, res.text).toBe(200);
      return { ids: res.body.map((e: any) => e.id), total: res.headers.get('x-wp-total') };
    };
    expect(await ids(`event-categories=${otherCat.id}`)).toEqual({ ids: [conference.id], total: '1' });
    expect((await ids(`event-categories[terms]=${parentCat.id}&event-categories[include_children]=true`)).ids).toEqual([meetup.id]);
    expect((await ids(`event-categories_exclude=${otherCat.id}`)).ids).not.toContain(conference.id);
    // Posts know nothing of events, and events nothing of categories.
    const posts = await site.req('GET', `/core/v2/posts?event-categories=${otherCat.id}`);
    expect(posts.status).toBe(200);
    expect(posts.body.every((p: any) => p.type === 'post')).toBe(true);
  });

  it('lists the taxonomy\'s terms with counts and links to the events', async () => {
    const res = await site.req('GET', `/core/v2/event-categories/${otherCat.id}`);
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ taxonomy: 'event_category', count: 1, link: `${SITE}/event_category/cooking/` });
    expect(res.body._links['wp:post_type']).toEqual([{ href: `${API}/core/v2/events?event-categories=${otherCat.id}` }]);
    const child = await site.req('GET', `/core/v2/event-categories/${childCat.id}`);
    expect(child.body).toMatchObject({ parent: parentCat.id, link: `${SITE}/event_category/tech-talks/javascript/` });
  });

  it('describes itself in OPTIONS with the fields, terms and enum', async () => {
    const res = await site.req('OPTIONS', '/core/v2/events', { as: 'administrator' });
    expect(res.status).toBe(200);
    const props = res.body.schema.properties;
    expect(res.body.schema.title).toBe('event');
    expect(props['event-categories']).toMatchObject({ type: 'array', items: { type: 'integer' } });
    expect(props.meta.properties.event_kind).toMatchObject({ type: 'string', enum: ['meetup', 'conference', 'workshop'], default: 'meetup' });
    expect(props.meta.properties.capacity).toMatchObject({ type: 'integer', description: 'How many seats there are.' });
    expect(res.headers.get('allow')).toBe('GET, POST');
    expect(Object.keys(res.body.endpoints[0].args)).toEqual(expect.arrayContaining(['event-categories', 'event-categories_exclude', 'search']));
  });

  it('shows in the types and taxonomies records', async () => {
    const type = await site.req('GET', '/core/v2/types/event');
    expect(type.status).toBe(200);
    expect(type.body).toMatchObject({ slug: 'event', name: 'Events', rest_base: 'events', taxonomies: ['event_category'], hierarchical: false, icon: 'dashicons-calendar' });
    const types = await site.req('GET', '/core/v2/types');
    expect(Object.keys(types.body)).toEqual(['post', 'page', 'attachment', 'event']);
    const taxonomy = await site.req('GET', '/core/v2/taxonomies/event_category');
    expect(taxonomy.body).toMatchObject({ slug: 'event_category', name: 'Event categories', types: ['event'], hierarchical: true, rest_base: 'event-categories' });
    const forEvents = await site.req('GET', '/core/v2/taxonomies?type=event');
    expect(Object.keys(forEvents.body)).toEqual(['event_category']);
  });

  it('is listed in the index and served in a batch', async () => {
    const index = await site.req('GET', '/');
    expect(index.body.routes).toHaveProperty(['/core/v2/events']);
    expect(index.body.routes).toHaveProperty(['/core/v2/event-categories/(?P<id>[\\d]+)']);
    const res = await site.req('POST', '/batch/v1', {
      as: 'editor',
      json: { requests: [{ path: '/core/v2/events', body: { title: 'Batched event', meta: { event_kind: 'workshop' } } }, { method: 'POST', path: '/core/v2/event-categories', body: { name: 'Batched' } }] },
    });
    expect(res.status, res.text).toBe(207);
    expect(res.body.responses.map((r: any) => r.status)).toEqual([201, 201]);
    expect(res.body.responses[0].body).toMatchObject({ type: 'event', meta: { event_kind: 'workshop' } });
  });

  it('trashes and deletes', async () => {
    const e = await create('/core/v2/events', { title: 'Short lived' });
    const trashed = await site.req('DELETE', `/core/v2/events/${e.id}`, { as: 'administrator' });
    expect(trashed.body.status).toBe('trash');
    const gone = await site.req('DELETE', `/core/v2/events/${e.id}?force=true`, { as: 'administrator' });
    expect(gone.body).toMatchObject({ deleted: true, previous: { id: e.id } });
    expect(await site.req('GET', `/core/v2/events/${e.id}`)).toBeWpError(404, 'rest_post_invalid_id');
  });
});

describe('custom fields on a built-in type', () => {
  it('adds a typed field to posts beside their footnotes, on REST and GraphQL', async () => {
    const post = await create('/core/v2/posts', { title: 'Loud post', meta: { mood: 'loud', footnotes: '[]' } });
    expect(post.meta).toEqual({ footnotes: '[]', mood: 'loud' });
    const plain = await create('/core/v2/posts', { title: 'Plain post' });
    expect(plain.meta).toEqual({ footnotes: '', mood: 'calm' });
    expect(await site.req('POST', `/core/v2/posts/${post.id}`, { as: 'editor', json: { meta: { mood: 'quiet' } } })).toBeWpError(400, 'rest_invalid_param');
    const res = await site.gql(`{ post(id: ${post.id}) { meta { mood footnotes } } }`, {}, { as: 'editor' });
    expect(res.errors).toBeUndefined();
    expect(res.data.post.meta).toEqual({ mood: 'loud', footnotes: '[]' });
    // Pages have no such field: their meta is the footnotes alone.
    const page = await create('/core/v2/pages', { title: 'A page', meta: { mood: 'loud' } });
    expect(page.meta).toEqual({ footnotes: '' });
  });
});

describe('who may do what', () => {
  // Events use posts' capabilities and event categories categories' rules, so each role gets the
  // same answer (status and code) from them as from posts and categories: the matrix's lines for
  // posts and categories (test/rest/authorization-matrix.test.ts) are the events' too.
  const answer = (res: { status: number; body: any }) => `${res.status}${res.status >= 400 ? ` ${res.body?.code}` : ''}`;
  const ROLES = [undefined, 'subscriber', 'contributor', 'author', 'editor', 'administrator'] as const;

  it('answers every role as posts and categories answer it', async () => {
    const post = await create('/core/v2/posts', { title: 'A post for the matrix', status: 'publish' });
    const category = await create('/core/v2/categories', { name: 'Matrix' });
    const got: Record<string, string[]> = {};
    const want: Record<string, string[]> = {};
    for (const as of ROLES) {
      const who = as ?? 'anonymous';
      const pair = async (label: string, method: string, path: (base: string, id: number) => string, json?: Record<string, unknown>) => {
        const mine = await site.req(method, path('events', meetup.id), { as, json });
        const theirs = await site.req(method, path('posts', post.id), { as, json });
        (got[label] ??= []).push(`${who}: ${answer(mine)}`);
        (want[label] ??= []).push(`${who}: ${answer(theirs)}`);
      };
      await pair('list edit', 'GET', (b) => `/core/v2/${b}?context=edit`);
      await pair('item edit', 'GET', (b, id) => `/core/v2/${b}/${id}?context=edit`);
      await pair('create', 'POST', (b) => `/core/v2/${b}`, { title: `by ${who}` });
      await pair('update', 'POST', (b, id) => `/core/v2/${b}/${id}`, { excerpt: `touched by ${who}` });
      await pair('delete (to the trash)', 'DELETE', (b, id) => `/core/v2/${b}/${id}`);
      const term = async (base: string, id: number) => answer(await site.req('POST', `/core/v2/${base}/${id}`, { as, json: { description: `by ${who}` } }));
      (got.terms ??= []).push(`${who}: ${await term('event-categories', otherCat.id)}`);
      (want.terms ??= []).push(`${who}: ${await term('categories', category.id)}`);
      // Put back what a delete trashed, for the next role.
      await site.req('POST', `/core/v2/events/${meetup.id}`, { as: 'administrator', json: { status: 'publish' } });
      await site.req('POST', `/core/v2/posts/${post.id}`, { as: 'administrator', json: { status: 'publish' } });
    }
    expect(got).toEqual(want);
    // And the answers are not all alike: the comparison can tell roles apart.
    expect(new Set(got.create).size).toBeGreaterThan(2);
  });
});

describe('GraphQL', () => {
  it('reads events with their terms, and terms with their events', async () => {
    const res = await site.gql(`query($id: Int!) {
      event(id: $id) { databaseId title { rendered } meta { eventKind: event_kind capacity soldOut: sold_out } eventCategoriesDatabaseIds eventCategories { nodes { databaseId name parent { node { databaseId } } } } author { node { databaseId } } }
      eventCategories(filter: { include: [${otherCat.id}] }) { nodes { name events { nodes { databaseId } } } }
    }`, { id: conference.id });
    expect(res.errors).toBeUndefined();
    expect(res.data.event).toMatchObject({ databaseId: conference.id, title: { rendered: 'Kitchen conference' }, meta: { eventKind: 'conference', capacity: 300, soldOut: true } });
    expect(res.data.event.eventCategories.nodes).toEqual([{ databaseId: otherCat.id, name: 'Cooking', parent: null }]);
    expect(res.data.event.eventCategoriesDatabaseIds).toEqual([otherCat.id]);
    expect(res.data.event.author).toEqual({ node: { databaseId: conference.author } });
    expect(res.data.eventCategories.nodes).toEqual([{ name: 'Cooking', events: { nodes: [{ databaseId: conference.id }] } }]);
  });

  it('creates with a mutation, typed to the enum', async () => {
    const res = await site.gql(`mutation { createEvent(input: { title: "GraphQL day", status: PUBLISH, eventCategories: [${parentCat.id}], meta: { event_kind: workshop, capacity: 8 } }) { databaseId link meta { event_kind capacity } eventCategoriesDatabaseIds } }`, {}, { as: 'editor' });
    expect(res.errors).toBeUndefined();
    expect(res.data.createEvent).toMatchObject({ link: `${SITE}/events/graphql-day/`, meta: { event_kind: 'workshop', capacity: 8 }, eventCategoriesDatabaseIds: [parentCat.id] });
    const bad = await site.gql('mutation { createEvent(input: { title: "x", meta: { event_kind: party } }) { databaseId } }', {}, { as: 'editor' });
    expect(bad.errors?.[0].extensions?.code).toBe('graphql_validation_failed');
  });

  it('resolves the permalink with nodeByUri, and pages of a list with the connection', async () => {
    const res = await site.gql(`{ nodeByUri(uri: "/events/kitchen-conference/") { __typename ... on Event { databaseId } } eventsConnection(first: 1) { totalCount nodes { databaseId } } }`);
    expect(res.errors).toBeUndefined();
    expect(res.data.nodeByUri).toEqual({ __typename: 'Event', databaseId: conference.id });
    expect(res.data.eventsConnection.nodes).toHaveLength(1);
  });
});

describe('the rest of the site', () => {
  it('documents the routes in the OpenAPI document', async () => {
    const res = await site.req('GET', '/openapi.json');
    expect(res.status).toBe(200);
    expect(Object.keys(res.body.paths)).toEqual(expect.arrayContaining(['/core/v2/events', '/core/v2/events/{id}', '/core/v2/events/{parent}/revisions', '/core/v2/event-categories']));
    expect(res.body.paths['/core/v2/events'].post).toBeDefined();
  });

  it('serves the public page at its permalink, and the plain link of a draft to no one', async () => {
    const page = await site.req('GET', `${SITE}/events/kitchen-conference/`);
    expect(page.status).toBe(200);
    expect(page.headers.get('content-type')).toMatch(/text\/html/);
    expect(page.text).toContain('Kitchen conference');
    const draft = await create('/core/v2/events', { title: 'Secret event', status: 'draft' });
    expect(draft.link).toBe(`${SITE}/?post_type=event&p=${draft.id}`);
    expect((await site.req('GET', draft.link)).status).toBe(404);
    expect((await site.req('GET', `${SITE}/events/no-such-event/`)).status).toBe(404);
  });

  it('serves a taxonomy\'s archive at its permalink base, with its children\'s events, and its plain query moves there', async () => {
    expect(parentCat.link).toBe(`${SITE}/event_category/tech-talks/`);
    const res = await site.req('GET', parentCat.link);
    expect(res.status, res.text.slice(0, 300)).toBe(200);
    expect(res.text).toContain('<h1 class="page-title">Event category: <span>Tech talks</span></h1>');
    expect(res.text).toContain(`<body class="archive tax-event_category term-tech-talks term-${parentCat.id}">`);
    // The meetup is in the term and in its child: listed once.
    expect(res.text.match(new RegExp(`<article class="post-${meetup.id} type-event">`, 'g'))).toHaveLength(1);
    expect(res.text).toContain(`<a href="${SITE}/events/node-meetup/" rel="bookmark">`);
    expect(res.text).not.toContain('Kitchen conference');
    expect(res.headers.get('link')).toContain(`<${API}/core/v2/event-categories/${parentCat.id}>; rel="alternate"; title="JSON"; type="application/json"`);
    const plain = await site.req('GET', `${SITE}/?event_category=cooking`);
    expect(plain.status).toBe(301);
    expect(plain.headers.get('location')).toBe(otherCat.link);
    expect((await site.req('GET', otherCat.link)).text).toContain('Kitchen conference');
    expect((await site.req('GET', `${SITE}/event_category/javascript/`)).headers.get('location')).toBe(childCat.link);
    expect((await site.req('GET', `${SITE}/event_category/no-such-term/`)).status).toBe(404);
  });

  it('exports events and their terms in both formats', async () => {
    const wxr = await site.req('GET', '/block-editor/v1/export', { as: 'administrator' });
    expect(wxr.status, wxr.text.slice(0, 300)).toBe(200);
    expect(wxr.text).toContain(`<wp:term><wp:term_id>${otherCat.id}</wp:term_id><wp:term_taxonomy><![CDATA[event_category]]></wp:term_taxonomy><wp:term_slug><![CDATA[cooking]]></wp:term_slug>`);
    expect(wxr.text).toContain('<wp:post_type><![CDATA[event]]></wp:post_type>');
    expect(wxr.text).toContain('<category domain="event_category" nicename="cooking"><![CDATA[Cooking]]></category>');
    const json = await site.req('GET', '/block-editor/v1/export?format=json', { as: 'administrator' });
    const item = (json.body as any[]).find((i) => i.id === conference.id);
    expect(item).toMatchObject({ type: 'event', event_category: [{ slug: 'cooking', name: 'Cooking' }] });
    expect(item).not.toHaveProperty('sticky', true);
  });

  it('carries the SEO head in deployment B', async () => {
    b = await createTestSite({ deployment: 'B' });
    const e = await b.req('POST', '/core/v2/events', { as: 'administrator', json: { title: 'Head event', status: 'publish', excerpt: 'An event with a head' } });
    expect(e.status, e.text).toBe(201);
    const res = await b.req('GET', `/core/v2/events/${e.body.id}`);
    expect(res.body.seo_head).toContain(`<link rel="canonical" href="${SITE}/events/head-event/"`);
    const head = await b.req('GET', `/seo/v1/get_head?url=${encodeURIComponent(`${SITE}/events/head-event/`)}`);
    expect(head.status).toBe(200);
    expect(head.body.json.title).toContain('Head event');
  });
});
