// One definition per resource: a field added to a definition shows up everywhere it should —
// REST arguments, the item schema of OPTIONS and `context=help`, the GraphQL object and input
// types, and the REST answers of the contexts it names — with no other edit.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import SchemaBuilder from '@pothos/core';
import { execute, parse, printSchema } from 'graphql';
import { createTestSite, type TestSite } from '../helpers/app.js';
import { ALL_CONTEXTS, EDIT, VIEW_EDIT, defineEnum, defineResource, type FieldDef } from '../../src/resources/define.js';
import { itemSchema } from '../../src/resources/json-schema.js';
import { RESOURCES } from '../../src/resources/index.js';
import { GraphQLJSON } from 'graphql-scalars';
import { resourceFields, resourceInput } from '../../src/schema/resource-types.js';
import { fragmentsOf, inputOf, restValues, selectionOf, writeArgs } from '../../gateway/resources.js';
import { createDispatcher } from '../../gateway/dispatch.js';
import { buildRouteTable } from '../../gateway/routes/index.js';
import type { RouteEntry } from '../../gateway/types.js';

const Shade = defineEnum('Shade', 'How dark a colour is.', ['light', 'dark-ish'] as const);

/** A resource that exists only here, with or without the field under test. */
function gadget(extra: Record<string, FieldDef> = {}) {
  return defineResource({
    name: 'Gadget', title: 'gadget', description: 'A thing for tests.',
    fields: {
      id: { kind: 'integer', description: 'Unique identifier for the gadget.', contexts: ALL_CONTEXTS, readonly: true },
      label: { kind: 'string', description: 'Label of the gadget.', contexts: ALL_CONTEXTS },
      ...extra,
    },
  });
}

// The one edit: a field with its REST name, type, contexts and storage.
const withShade = gadget({ shadeOfGrey: { kind: 'enum', enum: Shade, description: 'The shade of the gadget.', contexts: VIEW_EDIT, column: 'shade' } });

function graphqlFor(resource: ReturnType<typeof gadget>) {
  const builder = new SchemaBuilder<{ Context: object }>({} as never);
  const Gadget = builder.objectRef<Record<string, unknown>>('Gadget').implement({ description: resource.description, fields: (t) => resourceFields(t, resource, builder) as never });
  const Input = resourceInput(resource, {}, builder);
  builder.queryType({ fields: (t) => ({ gadget: t.field({ type: Gadget, resolve: () => ({ id: 7, label: 'box', shade: 'dark-ish' }) }) }) });
  builder.mutationType({ fields: (t) => ({ saveGadget: t.field({ type: 'JSON' as never, args: { input: t.arg({ type: Input, required: true }) }, resolve: (_r, a) => a.input }) }) });
  builder.addScalarType('JSON' as never, GraphQLJSON as never);
  return builder.toSchema();
}

describe('a field added to a definition', () => {
  it('appears in the REST write arguments, with its enum values', () => {
    expect(Object.keys(writeArgs(gadget(), { create: true }))).toEqual(['label']);
    expect(writeArgs(withShade, { create: true }).shade_of_grey).toEqual({ description: 'The shade of the gadget.', type: 'string', enum: ['light', 'dark-ish'] });
  });

  it('appears in the item schema with its contexts', () => {
    expect(itemSchema(gadget()).properties).not.toHaveProperty('shade_of_grey');
    expect(itemSchema(withShade)).toMatchObject({
      $schema: 'http://json-schema.org/draft-04/schema#', title: 'gadget', type: 'object',
      properties: { shade_of_grey: { description: 'The shade of the gadget.', type: 'string', enum: ['light', 'dark-ish'], context: ['view', 'edit'] } },
    });
  });

  it('appears in the GraphQL object, input and enum types', () => {
    const before = printSchema(graphqlFor(gadget()));
    const after = printSchema(graphqlFor(withShade));
    expect(before).not.toContain('shadeOfGrey');
    expect(after).toMatch(/type Gadget \{[^}]*shadeOfGrey: Shade!/);
    expect(after).toMatch(/input GadgetInput \{[^}]*shadeOfGrey: Shade/);
    expect(after).toMatch(/enum Shade \{\s*DARK_ISH\s*LIGHT|enum Shade \{\s*LIGHT\s*DARK_ISH/);
  });

  it('is selected in the contexts it names and not in the others', () => {
    expect(selectionOf(withShade, 'view')).toContain('shade_of_grey: shadeOfGrey');
    expect(selectionOf(withShade, 'edit')).toContain('shade_of_grey: shadeOfGrey');
    expect(selectionOf(withShade, 'embed')).not.toContain('shadeOfGrey');
  });

  it('round-trips between REST values and GraphQL enum names', async () => {
    const schema = graphqlFor(withShade);
    for (const context of ['view', 'edit'] as const) {
      const doc = parse(`${fragmentsOf(withShade)}\nquery { gadget { ...Gadget${context === 'view' ? 'View' : 'Edit'} } }`);
      const result = await execute({ schema, document: doc, contextValue: {} });
      expect(result.errors).toBeUndefined();
      expect(restValues(withShade)({ ...(result.data!.gadget as object) })).toEqual({ id: 7, label: 'box', shade_of_grey: 'dark-ish' });
    }
    const input = inputOf(withShade, { label: 'x', shade_of_grey: 'dark-ish', ignored: 1 });
    expect(input).toEqual({ label: 'x', shadeOfGrey: 'DARK_ISH' });
    const saved = await execute({ schema, document: parse('mutation($i: GadgetInput!) { saveGadget(input: $i) }'), variableValues: { i: input }, contextValue: {} });
    expect(saved.data?.saveGadget).toEqual({ label: 'x', shadeOfGrey: 'dark-ish' });
  });
});

describe('every route serves its resource schema', () => {
  let site: TestSite;
  beforeAll(async () => { site = await createTestSite(); });
  afterAll(async () => { await site?.close(); });

  const table = () => buildRouteTable({ namespaces: ['core/v2'], authorizationUrl: 'http://x/authorize' });
  const isIndex = (r: RouteEntry) => r.pattern === '/' || r.endpoints.every((e) => !e.operation && 'namespace' in e.args);

  // WordPress registers these without a schema: batch takes a list of requests, and the
  // oEmbed routes answer a provider's document rather than a resource.
  const schemaless = ['/batch/v1', '/oembed/1.0/embed', '/oembed/1.0/proxy', '/widgets/v1/widgets/forms', '/widgets/v1/widgets/previews',
    // The export is a file; the fallback navigation is generated, not a stored resource.
    '/block-editor/v1/export', '/block-editor/v1/navigation-fallback',
    // The contact-form plugin registers no schema but on feedback/schema (its rules' meta-schema).
    '/forms/v1/contact-forms', '/forms/v1/contact-forms/(?P<id>\\d+)', '/forms/v1/contact-forms/(?P<id>\\d+)/feedback',
    '/forms/v1/contact-forms/(?P<id>\\d+)/refill', '/forms/v1/contact-forms/(?P<id>\\d+)/submissions'];

  it('declares a schema on every route but the indexes and the schemaless ones (as WordPress)', () => {
    const missing = table().filter((r) => !isIndex(r) && !r.schema).map((r) => r.pattern);
    expect(missing.sort()).toEqual([...schemaless].sort());
    expect(table().filter((r) => r.schema).length).toBeGreaterThanOrEqual(12);
  });

  it('answers it on OPTIONS of every route, and per route in the index with context=help', async () => {
    const index = await site.req('GET', '/?context=help');
    expect(index.status).toBe(200);
    for (const route of table().filter((r) => r.schema)) {
      const path = route.pattern.replace('(?P<id>[\\d]+)', '1').replace('(?P<id>\\d+)', '1').replace('(?P<parent>[\\d]+)', '1').replace('(?P<user_id>(?:[\\d]+|me))', 'me').replace('(?P<uuid>[\\w\\-]+)', '0b6f8b02-0000-4000-8000-000000000000').replace(/\(\?P<(type|status|taxonomy|location)>\[\\w-\]\+\)/, 'any-slug');
      const res = await site.req('OPTIONS', path);
      expect(res.status, path).toBe(200);
      // As sent: JSON (the document's own marks, symbols such as SENT_ONLY, are not on the wire).
      const sent = JSON.parse(JSON.stringify(route.schema!()));
      expect(res.body.schema, path).toEqual(sent);
      expect(index.body.routes[route.pattern].schema, route.pattern).toEqual(sent);
    }
    const plain = await site.req('GET', '/');
    expect(plain.body.routes['/core/v2/posts']).not.toHaveProperty('schema');
    const ns = await site.req('GET', '/core/v2?context=help');
    expect(ns.body.routes['/core/v2/tags'].schema.title).toBe('tag');
  });

  it('describes each property of every resource with a type and its contexts', () => {
    for (const r of RESOURCES) {
      for (const [key, p] of Object.entries(itemSchema(r).properties as Record<string, Record<string, unknown>>)) {
        expect(p.type, `${r.title}.${key}`).toBeDefined();
        expect(Array.isArray(p.context), `${r.title}.${key}`).toBe(true);
        expect(typeof p.description, `${r.title}.${key}`).toBe('string');
      }
    }
  });

  it('gives a post the schema WordPress gives it', () => {
    const post = RESOURCES.find((r) => r.title === 'post')!;
    const { properties } = itemSchema(post) as { properties: Record<string, Record<string, unknown>> };
    expect(properties.id).toEqual({ description: 'Unique identifier for the post.', type: 'integer', context: ['view', 'edit', 'embed'], readonly: true });
    expect(properties.date).toEqual({ description: "The date the post was published, in the site's timezone.", type: ['string', 'null'], format: 'date-time', context: ['view', 'edit', 'embed'] });
    expect(properties.status.enum).toEqual(['publish', 'future', 'draft', 'pending', 'private']);
    expect((properties.content.properties as Record<string, unknown>).raw).toEqual({ description: 'Content for the post, as it exists in the database.', type: 'string', context: EDIT });
    expect(properties).not.toHaveProperty('_can_edit');
    expect(Object.keys(properties)).not.toContain('viewer_can_edit');
  });

  it('uses the same dispatcher for a resource defined only here', async () => {
    const route: RouteEntry = {
      namespace: 'test/v1', pattern: '/test/v1/gadgets', schema: () => itemSchema(withShade),
      endpoints: [{ methods: ['POST'], permission: 'public', args: writeArgs(withShade, { create: true }), handler: async (req) => ({ status: 201, body: inputOf(withShade, req.params) }) }],
    };
    const dispatcher = createDispatcher({ db: site.db, run: site.app.run, table: [route], restPrefix: '/wp-json', siteUrl: 'http://site.test', cache: null });
    const options = await dispatcher.handle({ method: 'OPTIONS', url: '/wp-json/test/v1/gadgets', headers: new Headers(), body: null });
    expect(JSON.parse(options.body).schema.properties.shade_of_grey.enum).toEqual(['light', 'dark-ish']);
    expect(JSON.parse(options.body).endpoints[0].args.shade_of_grey).toMatchObject({ type: 'string', enum: ['light', 'dark-ish'], required: false });
    const bad = await dispatcher.handle({ method: 'POST', url: '/wp-json/test/v1/gadgets', headers: new Headers({ 'content-type': 'application/json' }), body: Buffer.from('{"shade_of_grey":"pink"}') });
    expect(bad.status).toBe(400);
    expect(JSON.parse(bad.body)).toMatchObject({ code: 'rest_invalid_param', data: { status: 400, params: { shade_of_grey: 'shade_of_grey is not one of light and dark-ish.' } } });
    const good = await dispatcher.handle({ method: 'POST', url: '/wp-json/test/v1/gadgets', headers: new Headers({ 'content-type': 'application/json' }), body: Buffer.from('{"shade_of_grey":"light","label":"l"}') });
    expect(good.status).toBe(201);
    expect(JSON.parse(good.body)).toEqual({ label: 'l', shadeOfGrey: 'LIGHT' });
  });
});
