// The OpenAPI document ({prefix}/openapi.json) and the reference page ({prefix}/reference).
// What the document must hold is computed here from the route table and the routes' item
// schemas, never read back from the document itself.
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Validator } from '@seriousme/openapi-schema-validator';
import { createTestSite, SITE, type TestSite } from '../helpers/app.js';
import { compilePattern } from '../../gateway/dispatch.js';
import type { Endpoint, Method, RouteEntry } from '../../gateway/types.js';

const require = createRequire(import.meta.url);
const RENDERER = dirname(require.resolve('swagger-ui-dist/package.json'));

/** A named group of a WordPress pattern, one level of nested groups allowed. */
const GROUP = /\(\?P<(\w+)>((?:[^()\\]|\\.|\((?:[^()\\]|\\.)*\))*)\)/g;
/** The OpenAPI path of a pattern, and each placeholder's regular expression. */
function expected(pattern: string): { path: string; groups: Record<string, string> } {
  const groups: Record<string, string> = {};
  const path = pattern.replace(GROUP, (_m, name: string, regex: string) => { groups[name] = regex; return `{${name}}`; }).replace(/\\(.)/g, '$1');
  return { path, groups };
}

/** Per OpenAPI path and method, the endpoint that answers it: the first route of the table that has the method. */
function operationsOf(table: RouteEntry[]): Map<string, { route: RouteEntry; endpoint: Endpoint; method: Method }> {
  const out = new Map<string, { route: RouteEntry; endpoint: Endpoint; method: Method }>();
  for (const route of table) {
    for (const endpoint of route.endpoints) {
      for (const method of endpoint.methods) {
        const key = `${method} ${expected(route.pattern).path}`;
        if (!out.has(key)) out.set(key, { route, endpoint, method });
      }
    }
  }
  return out;
}

type Doc = Record<string, any>;
const deref = (doc: Doc, node: any): any => {
  if (!node?.$ref) return node;
  return deref(doc, (node.$ref as string).replace(/^#\//, '').split('/').reduce((o: any, k) => o?.[k], doc));
};

describe('OpenAPI document', () => {
  let b: TestSite;
  let a: TestSite;
  let docB: Doc;
  let docA: Doc;

  beforeAll(async () => {
    b = await createTestSite({ deployment: 'B' });
    a = await createTestSite({ deployment: 'A' });
    const resB = await b.req('GET', '/openapi.json');
    expect(resB.status).toBe(200);
    expect(resB.headers.get('content-type')).toMatch(/^application\/json/);
    docB = resB.body;
    const resA = await a.req('GET', '/openapi.json');
    expect(resA.status).toBe(200);
    docA = resA.body;
  });
  afterAll(async () => { await b?.close(); await a?.close(); });

  it('is a valid OpenAPI 3.1 document, for both deployments', async () => {
    for (const doc of [docA, docB]) {
      expect(doc.openapi).toMatch(/^3\.1\./);
      const result = await new Validator().validate(doc);
      expect(result.errors ?? []).toEqual([]);
      expect(result.valid).toBe(true);
    }
  });

  it('names the site as its server', () => {
    expect(docB.servers.map((s: any) => s.url)).toEqual([`${SITE}/wp-json`]);
  });

  it('has every route and method of the table, with the pattern placeholders as path parameters', () => {
    for (const [site, doc] of [[a, docA], [b, docB]] as const) {
      for (const route of site.app.table) {
        const { path, groups } = expected(route.pattern);
        expect(doc.paths, route.pattern).toHaveProperty([path]);
        for (const method of route.endpoints.flatMap((e) => e.methods)) {
          const op = doc.paths[path][method.toLowerCase()];
          expect(op, `${method} ${route.pattern}`).toBeDefined();
          const inPath = (op.parameters ?? []).filter((p: any) => p.in === 'path');
          expect(Object.fromEntries(inPath.map((p: any) => [p.name, p.schema.pattern])), `${method} ${route.pattern}`)
            .toEqual(Object.fromEntries(Object.entries(groups).map(([name, regex]) => [name, `^${regex}$`])));
          for (const p of inPath) expect(p.required).toBe(true);
        }
      }
      // Nothing else: one path per distinct pattern.
      expect(Object.keys(doc.paths).sort()).toEqual([...new Set(site.app.table.map((r) => expected(r.pattern).path))].sort());
    }
  });

  it('lists WordPress\'s global parameters as shared components on the operations they apply to', () => {
    const params = docB.components.parameters;
    expect(Object.keys(params).sort()).toEqual(['_embed', '_envelope', '_fields', '_jsonp', '_method', '_pretty']);
    for (const [name, p] of Object.entries<any>(params)) expect(p).toMatchObject({ name, in: 'query', required: false });
    expect(params._envelope['x-answer']).toMatchObject({ type: 'object', required: ['body', 'status', 'headers'] });
    const refs = (op: any) => (op.parameters ?? []).filter((p: any) => p.$ref).map((p: any) => p.$ref.split('/').pop());
    let posts = 0;
    for (const [path, item] of Object.entries<any>(docB.paths)) {
      const methods = Object.keys(item).map((m) => m.toUpperCase());
      for (const [method, op] of Object.entries<any>(item)) {
        const own = new Set((op.parameters ?? []).filter((p: any) => !p.$ref).map((p: any) => p.name));
        const expected = [
          ...(method === 'get' || method === 'head' ? ['_embed', '_fields', '_jsonp'] : []),
          ...(method === 'post' && methods.some((m) => ['PUT', 'PATCH', 'DELETE'].includes(m)) ? ['_method'] : []),
          '_envelope', '_pretty',
        ].filter((n) => !own.has(n));
        expect(refs(op).sort(), `${method} ${path}`).toEqual(expected.sort());
        if (method === 'post' && expected.includes('_method')) posts++;
      }
    }
    expect(refs(docB.paths['/core/v2/posts/{id}'].post)).toContain('_method');
    expect(refs(docB.paths['/core/v2/posts'].post)).not.toContain('_method');
    expect(posts).toBeGreaterThan(5);
  });

  it('describes OPTIONS on every path and HEAD beside every GET, with operationIds of their own', () => {
    for (const doc of [docA, docB]) {
      const ids = Object.values<any>(doc.paths).flatMap((item) => Object.values<any>(item).map((op) => op.operationId));
      expect(new Set(ids).size).toBe(ids.length);
      for (const [path, item] of Object.entries<any>(doc.paths)) {
        const words = path.split(/[^A-Za-z0-9]+/).filter(Boolean).map((w) => w[0].toUpperCase() + w.slice(1)).join('');
        expect(item.options?.operationId, path).toMatch(new RegExp(`^options${words}\\d*$`));
        expect(item.options.responses['200'].content['application/json'].schema).toEqual({ $ref: '#/components/schemas/RouteDescription' });
        expect(item.options.security).toContainEqual({});
        const inPath = (op: any) => (op.parameters ?? []).filter((p: any) => p.in === 'path');
        expect(inPath(item.options), path).toEqual(inPath(Object.values<any>(item)[0]));
        if (!item.get) { expect(item.head, path).toBeUndefined(); continue; }
        expect(item.head.operationId, path).toMatch(new RegExp(`^head${words}\\d*$`));
        expect(item.head.parameters).toEqual(item.get.parameters);
        expect(Object.keys(item.head.responses)).toEqual(Object.keys(item.get.responses));
        for (const [status, r] of Object.entries<any>(item.head.responses)) {
          expect(r, `${path} ${status}`).not.toHaveProperty('content');
          expect(r.headers, `${path} ${status}`).toEqual(deref(doc, item.get.responses[status]).headers);
        }
      }
    }
    const route = deref(docB, { $ref: '#/components/schemas/RouteDescription' });
    expect(route.required).toEqual(['namespace', 'methods', 'endpoints']);
    expect(docB.paths['/core/v2/posts'].head.responses['200'].headers['X-WP-Total'].required).toBe(true);
  });

  it('converts a placeholder as WordPress writes it', () => {
    expect(docB.paths).toHaveProperty(['/core/v2/posts/{id}']);
    const id = docB.paths['/core/v2/posts/{id}'].get.parameters.find((p: any) => p.name === 'id');
    expect(id).toMatchObject({ in: 'path', required: true, schema: { pattern: '^[\\d]+$' } });
    expect(new RegExp(id.schema.pattern).test('12')).toBe(true);
    expect(new RegExp(id.schema.pattern).test('12a')).toBe(false);
  });

  it('has every declared arg: a path or query parameter for GET and DELETE, a body property for writes', () => {
    for (const [site, doc] of [[a, docA], [b, docB]] as const) {
      for (const [key, { route, endpoint, method }] of operationsOf(site.app.table)) {
        const op = doc.paths[expected(route.pattern).path][method.toLowerCase()];
        const groups = Object.keys(expected(route.pattern).groups);
        const params = op.parameters ?? [];
        for (const [name, arg] of Object.entries(endpoint.args)) {
          if (groups.includes(name)) {
            expect(params.find((p: any) => p.in === 'path' && p.name === name), `${key} ${name}`).toBeDefined();
          } else if (method === 'GET' || method === 'DELETE') {
            const param = params.find((p: any) => p.in === 'query' && p.name === name);
            expect(param, `${key} ${name}`).toBeDefined();
            expect(param.required, `${key} ${name}`).toBe(arg.required === true);
            if (arg.enum) expect(param.schema.enum, `${key} ${name}`).toEqual(arg.enum);
            // A default the arg's own schema refuses is published as one it takes: a single value as
            // the list an array wants, null dropped where null is not a value.
            if (arg.default === null && arg.type !== 'null') expect(param.schema, `${key} ${name}`).not.toHaveProperty('default');
            else if (arg.type === 'array' && !Array.isArray(arg.default) && arg.default !== undefined) expect(param.schema.default, `${key} ${name}`).toEqual(String(arg.default).split(/[\s,]+/));
            else if (arg.default !== undefined) expect(param.schema.default, `${key} ${name}`).toEqual(arg.default);
            if (typeof arg.type === 'string') expect(param.schema.type, `${key} ${name}`).toBe(arg.type);
          } else {
            const content = op.requestBody?.content ?? {};
            const type = endpoint.upload ? 'multipart/form-data' : 'application/json';
            const body = deref(doc, content[type]?.schema);
            expect(body?.properties, `${key} ${type}`).toHaveProperty([name]);
            const prop = body.properties[name];
            if (arg.enum) expect(prop.enum, `${key} ${name}`).toEqual(arg.enum);
            // A text field (title, content …) takes a plain string or `{raw}`, as WordPress clients send it.
            if (arg.skipValidation && arg.type === 'object') expect(prop.oneOf?.map((b: any) => b.type), `${key} ${name}`).toEqual(['string', 'object', 'null']);
            else if (typeof arg.type === 'string') expect(prop.type, `${key} ${name}`).toBe(arg.type);
            expect((body.required ?? []).includes(name), `${key} ${name} required`).toBe(arg.required === true);
          }
        }
      }
    }
  });

  it('takes uploads as a multipart form or a raw body, and a contact form post as JSON or multipart', () => {
    const upload = docB.paths['/core/v2/media'].post.requestBody.content;
    expect(Object.keys(upload).sort()).toEqual(['application/octet-stream', 'multipart/form-data']);
    expect(upload['multipart/form-data'].schema).toEqual({ $ref: '#/components/schemas/AttachmentCreate' });
    expect(deref(docB, upload['multipart/form-data'].schema).properties.file).toMatchObject({ type: 'string' });
    const feedback = docB.paths['/forms/v1/contact-forms/{id}/feedback'].post.requestBody.content;
    expect(Object.keys(feedback)).toEqual(expect.arrayContaining(['application/json', 'multipart/form-data']));
  });

  it('marks public endpoints as needing no credentials, and asks Basic (application passwords) of the others', () => {
    expect(docB.components.securitySchemes.applicationPassword).toMatchObject({ type: 'http', scheme: 'basic' });
    expect(docB.security).toEqual([{ applicationPassword: [] }]);
    let publicOnes = 0;
    for (const [key, { route, endpoint, method }] of operationsOf(b.app.table)) {
      const op = docB.paths[expected(route.pattern).path][method.toLowerCase()];
      if (endpoint.permission === 'public') {
        publicOnes++;
        expect(op.security, key).toEqual([{}, { applicationPassword: [] }]);
      } else {
        expect(op.security, key).toBeUndefined();
        expect(op['x-permission'], key).toBe(endpoint.permission);
        expect(op.responses, key).toHaveProperty(['403']);
      }
    }
    expect(publicOnes).toBeGreaterThan(5);
  });

  it('answers each view of an item schema: the properties of that context, as OPTIONS prints the schema', () => {
    const route = b.app.table.find((r) => r.pattern === '/core/v2/posts')!;
    const schema = route.schema!() as { properties: Record<string, { context?: string[] }> };
    const inView = (c: string) => Object.entries(schema.properties).filter(([, p]) => !p.context || p.context.includes(c)).map(([k]) => k).sort();
    const list = docB.paths['/core/v2/posts'].get.responses['200'].content['application/json'].schema;
    expect(list.type).toBe('array');
    const refs: string[] = list.items.anyOf.map((x: any) => x.$ref);
    expect(refs).toHaveLength(3);
    for (const context of ['view', 'edit', 'embed']) {
      const view = deref(docB, { $ref: `#/components/schemas/Post${context[0].toUpperCase()}${context.slice(1)}` });
      expect(refs).toContain(`#/components/schemas/Post${context[0].toUpperCase()}${context.slice(1)}`);
      // The keys the REST server adds beside the schema's: `_links`, and `_embedded` with `_embed`.
      const own = Object.keys(view.properties).filter((k) => k !== '_links' && k !== '_embedded').sort();
      expect(own, context).toEqual(inView(context));
      // Required: every property of the view, as every answer in it carries them all (the fields
      // other parts add, seo_head, included, in reads and writes alike).
      expect([...view.required].sort(), context).toEqual(inView(context));
      expect(view.required, context).toEqual(expect.arrayContaining(['id', 'title', 'link']));
      expect(view.properties.title.required, context).toEqual(context === 'edit' ? ['raw', 'rendered'] : ['rendered']);
    }
    expect(inView('edit').length).toBeGreaterThan(inView('embed').length);
    // A write answers the edit view; a create is a 201.
    const created = docB.paths['/core/v2/posts'].post.responses['201'].content['application/json'].schema;
    expect(created).toEqual({ $ref: '#/components/schemas/PostEdit' });
    // A single item is not a list.
    const one = docB.paths['/core/v2/posts/{id}'].get.responses['200'].content['application/json'].schema;
    expect(one.anyOf).toHaveLength(3);
  });

  it('promises every field of a view but the ones sent in some answers only (an application password\'s password)', async () => {
    const edit = deref(docB, { $ref: '#/components/schemas/ApplicationPasswordEdit' });
    expect(Object.keys(edit.properties)).toContain('password');
    expect(edit.required).not.toContain('password');
    expect(edit.required).toEqual(expect.arrayContaining(['uuid', 'app_id', 'name', 'created', 'last_used', 'last_ip']));
    // The created one carries it; read back, it is not sent at all.
    const made = await b.req('POST', '/core/v2/users/me/application-passwords', { as: 'administrator', json: { name: 'sent once' } });
    expect(made.status).toBe(201);
    expect(typeof made.body.password).toBe('string');
    const read = await b.req('GET', `/core/v2/users/me/application-passwords/${made.body.uuid}?context=edit`, { as: 'administrator' });
    expect(read.status).toBe(200);
    expect(read.body).not.toHaveProperty('password');
    // OPTIONS prints the item schema as WordPress does: the marker is the document's alone.
    const options = await b.req('OPTIONS', '/core/v2/users/me/application-passwords', { as: 'administrator' });
    expect(JSON.stringify(options.body.schema.properties.password)).not.toMatch(/sent/i);
  });

  it('describes the WordPress error body, and it is what an error answers', async () => {
    const error = docB.components.schemas.WP_Error;
    expect(error.required).toEqual(['code', 'message', 'data']);
    expect(error.properties.data.required).toEqual(['status']);
    for (const status of ['400', '401', '403', '404']) {
      const response = deref(docB, docB.paths['/core/v2/posts/{id}'].delete.responses[status]);
      expect(response.content['application/json'].schema, status).toEqual({ $ref: '#/components/schemas/WP_Error' });
    }
    const res = await b.req('GET', '/core/v2/posts/999999');
    expect(res.status).toBe(404);
    expect(res.body.code).toBe('rest_post_invalid_id');
    for (const key of error.required) expect(res.body).toHaveProperty([key]);
    expect(Object.keys(res.body).every((k) => k in error.properties)).toBe(true);
    expect(res.body.data.status).toBe(404);
  });

  it('tags operations by namespace; seo/v1 only in deployment B', () => {
    const seoRoutes = b.app.table.filter((r) => r.namespace === 'seo/v1');
    expect(seoRoutes.length).toBeGreaterThan(10);
    for (const route of seoRoutes) {
      for (const op of Object.values(docB.paths[expected(route.pattern).path]) as any[]) expect(op.tags, route.pattern).toEqual(['seo/v1']);
    }
    expect(docB.tags.map((t: any) => t.name)).toContain('seo/v1');
    expect(Object.keys(docA.paths).filter((p) => p.startsWith('/seo/'))).toEqual([]);
    expect(docA.tags.map((t: any) => t.name)).not.toContain('seo/v1');
    expect(docA.paths['/core/v2/posts'].get.tags).toEqual(['core/v2']);
  });

  it('is the same document on every request (built once per process)', async () => {
    const again = await b.req('GET', '/openapi.json');
    expect(again.status).toBe(200);
    expect(again.body).toEqual(docB);
    expect(b.app.apiDocs.document()).toEqual(docB);
  });

  it('lives beside the route table: no route matches its addresses, and other methods are no route', async () => {
    for (const path of ['/openapi.json', '/reference', '/reference/swagger-ui-bundle.js']) {
      expect(b.app.table.filter((r) => compilePattern(r.pattern).test(path)).map((r) => r.pattern), path).toEqual([]);
    }
    const index = await b.req('GET', '/');
    expect(Object.keys(index.body.routes)).not.toContain('/openapi.json');
    const post = await b.req('POST', '/openapi.json', { json: {} });
    expect(post.status).toBe(404);
    expect(post.body.code).toBe('rest_no_route');
  });
});

describe('API reference page', () => {
  let site: TestSite;
  beforeAll(async () => { site = await createTestSite(); });
  afterAll(async () => { await site?.close(); });

  it('answers HTML that loads the renderer served here and points it at the document', async () => {
    const res = await site.req('GET', '/reference');
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/^text\/html/);
    expect(res.text).toContain('<script src="/wp-json/reference/swagger-ui-bundle.js"></script>');
    expect(res.text).toContain('<script src="/wp-json/reference/reference.js"></script>');
    expect(res.text).toContain('href="/wp-json/reference/swagger-ui.css"');
    expect(res.text).toContain('data-document="/wp-json/openapi.json"');
    expect(res.text).not.toMatch(/https?:\/\//);
  });

  it('serves the renderer from the installed package, with a JavaScript content type', async () => {
    const res = await site.req('GET', '/reference/swagger-ui-bundle.js');
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/^text\/javascript/);
    expect(res.text).toBe(readFileSync(join(RENDERER, 'swagger-ui-bundle.js'), 'utf8'));
    const css = await site.req('GET', '/reference/swagger-ui.css');
    expect(css.status).toBe(200);
    expect(css.headers.get('content-type')).toMatch(/^text\/css/);
    const own = await site.req('GET', '/reference/reference.js');
    expect(own.status).toBe(200);
    expect(own.headers.get('content-type')).toMatch(/^text\/javascript/);
    expect(own.text).toContain('SwaggerUIBundle');
  });

  it('refuses other files, and answers HEAD without a body', async () => {
    for (const path of ['/reference/package.json', '/reference/swagger-ui-bundle.js.map', '/reference/index.html']) {
      const res = await site.req('GET', path);
      expect(res.status, path).toBe(404);
      expect(res.body.code, path).toBe('rest_no_route');
    }
    const head = await site.req('HEAD', '/reference');
    expect(head.status).toBe(200);
    expect(head.text).toBe('');
  });

  it('sends the address with a trailing slash to the page, keeping the query', async () => {
    const bare = await site.req('GET', '/reference/');
    expect(bare.status).toBe(301);
    expect(bare.headers.get('location')).toBe('/wp-json/reference');
    const query = '?urls.primaryName=core&next=%2Fwp-json%2F&x=a+b';
    const asked = await site.req('GET', `/reference/${query}`);
    expect(asked.status).toBe(301);
    expect(asked.headers.get('location')).toBe(`/wp-json/reference${query}`);
    const head = await site.req('HEAD', '/reference/');
    expect(head.status).toBe(301);
    expect(head.headers.get('location')).toBe('/wp-json/reference');
    expect(head.text).toBe('');
    // Where it points is the page itself.
    const page = await site.req('GET', `${SITE}${asked.headers.get('location')}`);
    expect(page.status).toBe(200);
    expect(page.headers.get('content-type')).toMatch(/^text\/html/);
    // Other methods are still no route.
    const post = await site.req('POST', '/reference/', { json: {} });
    expect(post.status).toBe(404);
    expect(post.body.code).toBe('rest_no_route');
  });

  it('redirects under the configured REST prefix', async () => {
    const other = await createTestSite({ restPrefix: '/api' });
    try {
      const res = await other.req('GET', `${SITE}/api/reference/?a=1`);
      expect(res.status).toBe(301);
      expect(res.headers.get('location')).toBe('/api/reference?a=1');
      const page = await other.req('GET', `${SITE}/api/reference`);
      expect(page.status).toBe(200);
      expect(page.text).toContain('<script src="/api/reference/reference.js"></script>');
    } finally {
      await other.close();
    }
  });
});
