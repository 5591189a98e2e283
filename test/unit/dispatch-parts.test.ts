// The dispatcher's parts on their own (gateway/dispatch/): routing, WordPress's parameter merge
// order, the HTTP cache's validators and hit lane, and how a result becomes a response. The REST
// suites cover them end to end; these pin the rules each module owns without a site.
import { describe, expect, it } from 'vitest';
import { compileRoutes, decodePath, matchRoute, requestMethod, restPath, routePath } from '../../gateway/dispatch/router.js';
import { embedParams, itemParams, requestParams, withPathParams } from '../../gateway/dispatch/params.js';
import { cacheKey, createHitLane, fromCache } from '../../gateway/dispatch/http-cache.js';
import { discoveryLink, errorResult, finish, withFields } from '../../gateway/dispatch/respond.js';
import { createResponseCache } from '../../gateway/cache.js';
import { WpError } from '../../gateway/errors.js';
import type { CoreRequest } from '../../gateway/dispatch/core.js';
import type { RouteEntry } from '../../gateway/types.js';

const route = (pattern: string): RouteEntry => ({ namespace: 'test/v1', pattern, endpoints: [] });
const request = (headers: Record<string, string> = {}, method = 'GET', url = '/wp-json/test/v1/things'): CoreRequest =>
  ({ method, url, headers: new Headers(headers), body: null });

describe('router', () => {
  it('finds the route path under the prefix or in rest_route, decoded, without extra slashes', () => {
    const at = (u: string) => restPath(new URL(u, 'http://localhost'), '/wp-json');
    expect(at('/wp-json/test/v1/things/')).toBe('/test/v1/things');
    expect(at('/wp-json//test/v1/th%69ngs')).toBe('/test/v1/things');
    expect(at('/wp-json')).toBe('/');
    expect(at('/?rest_route=/test/v1/things/')).toBe('/test/v1/things');
    expect(at('/index.php?rest_route=test/v1')).toBe('/test/v1');
    expect(at('/other?rest_route=/test/v1')).toBeNull();
    expect(at('/wp-jsonx/test')).toBeNull();
    expect(routePath('//a//')).toBe('/a');
  });

  it('leaves an escape that is not UTF-8 as written', () => {
    expect(decodePath('/a%20b%E0%A4%A')).toBe('/a b%E0%A4%A');
  });

  it('matches the first route in table order, case-insensitively, with its placeholders', () => {
    const routes = compileRoutes([route('/test/v1/things/(?P<id>[\\d]+)'), route('/test/v1/things/(?P<slug>[\\w]+)')]);
    expect(matchRoute(routes, '/test/v1/THINGS/42')).toMatchObject({ pathParams: { id: '42' } });
    expect(matchRoute(routes, '/test/v1/things/abc')).toMatchObject({ pathParams: { slug: 'abc' } });
    expect(matchRoute(routes, '/test/v1/things/a-b')).toBeNull();
  });

  it('serves the method _method or X-HTTP-Method-Override names', () => {
    expect(requestMethod(request({}, 'post'), {})).toBe('POST');
    expect(requestMethod(request({}, 'POST'), { _method: 'delete' })).toBe('DELETE');
    expect(requestMethod(request({ 'x-http-method-override': 'put' }, 'POST'), {})).toBe('PUT');
    expect(requestMethod(request({}, 'HEAD'), {})).toBe('HEAD');
  });
});

describe('params', () => {
  it('merges the path, the query, a form body and a JSON body, later ones winning', () => {
    const json = requestParams({ id: '5' }, { a: 'query', b: 'query' }, new Headers({ 'content-type': 'application/json' }), Buffer.from('{"b":"json","id":null}'));
    // A JSON null does not hide the value the path gave (WordPress reads the first source that is set).
    expect(json).toEqual({ id: '5', a: 'query', b: 'json' });
    const form = requestParams({}, { a: 'query' }, new Headers({ 'content-type': 'application/x-www-form-urlencoded' }), Buffer.from('a=form&c[]=1'));
    expect(form).toEqual({ a: 'form', c: ['1'] });
    expect(withPathParams({ id: undefined }, { id: '7' })).toEqual({ id: '7' });
  });

  it('gives batch items and _embed sub-requests the params a single request would have', () => {
    expect(itemParams({ id: '3' }, '?x=1&id=9', { y: 2 })).toEqual({ id: '9', x: '1', y: 2 });
    expect(embedParams(route('/test/v1/things'), {}, { a: '1' })).toEqual({ a: '1', context: 'embed', per_page: '100' });
    expect(embedParams(route('/test/v1/things/(?P<id>\\d+)'), { id: '1' }, { per_page: '5' })).toEqual({ id: '1', per_page: '5', context: 'embed' });
  });
});

describe('http cache', () => {
  it('keys a read by its path and its query in sorted order', () => {
    expect(cacheKey('/p', new URLSearchParams('b=2&a=1&a=0'))).toBe('/p?a=1&a=0&b=2');
  });

  it('answers a raw URL seen before from the cache, 304 when If-None-Match names its ETag', () => {
    const cache = createResponseCache(10, () => 1);
    const hitByUrl = createHitLane(cache);
    const body = '[]';
    const answer = { status: 200, headers: { 'Content-Type': 'application/json', ETag: '"abc"' }, body: '', bytes: Buffer.from(body) };
    cache.set('/p?', answer, cache.begin());
    cache.set('/p?', answer, cache.begin());
    expect(hitByUrl('/wp-json/p', undefined)).toBeNull();
    const hit = fromCache(cache, answer, '/p?', request({}, 'GET', '/wp-json/p'), {}, undefined, false, 'HIT');
    expect(hit.headers['X-Cache']).toBe('HIT');
    const lane = hitByUrl('/wp-json/p', undefined)!;
    expect(lane.status).toBe(200);
    expect(lane.headers).toEqual(['X-Request-Id', '', 'Content-Type', 'application/json', 'ETag', '"abc"', 'X-Cache', 'HIT', 'Content-Length', '2']);
    for (const condition of ['"abc"', 'W/"abc"', '"x", "abc"', '*']) expect(hitByUrl('/wp-json/p', condition)!.status).toBe(304);
    expect(hitByUrl('/wp-json/p', '"x"')!.status).toBe(200);
    expect(createHitLane(null)('/wp-json/p', undefined)).toBeNull();
  });

  it('gives a cross-origin caller its own CORS headers and keeps its read off the hit lane', () => {
    const cache = createResponseCache(10, () => 1);
    const hitByUrl = createHitLane(cache);
    const answer = { status: 200, headers: { ETag: '"abc"' }, body: '', bytes: Buffer.from('1') };
    cache.set('/q?', answer, cache.begin());
    cache.set('/q?', answer, cache.begin());
    const out = fromCache(cache, answer, '/q?', request({ origin: 'http://o.test' }, 'GET', '/wp-json/q'), {}, undefined, false, 'MISS');
    expect(out.headers).toMatchObject({ 'X-Cache': 'MISS', 'Access-Control-Allow-Origin': 'http://o.test', Vary: 'Origin' });
    expect(hitByUrl('/wp-json/q', undefined)).toBeNull();
  });
});

describe('respond', () => {
  const link = discoveryLink('http://site.test/wp-json/');

  it('adds the REST headers, the discovery Link unless the result names one, and Allow', () => {
    const out = finish(link, request({ origin: 'http://o.test' }), null, {}, { status: 200, body: { a: 1 } }, ['GET', 'POST']);
    expect(Object.keys(out.headers)).toEqual([
      'Content-Type', 'X-Robots-Tag', 'X-Content-Type-Options', 'Access-Control-Expose-Headers', 'Access-Control-Allow-Headers',
      'Access-Control-Allow-Origin', 'Access-Control-Allow-Methods', 'Access-Control-Allow-Credentials', 'Vary', 'Link', 'Allow',
    ]);
    expect(out.headers.Link).toBe('<http://site.test/wp-json/>; rel="https://api.w.org/"');
    expect(out.headers.Allow).toBe('GET, POST');
    expect(finish(link, request(), null, {}, { status: 200, body: 1, headers: { Link: '<x>' } }, null).headers.Link).toBe('<x>');
  });

  it('envelopes, pads for JSONP, and refuses a JSONP callback that is not a name', () => {
    const result = { status: 404, body: { code: 'x' }, headers: { 'X-WP-Total': 3 } };
    const enveloped = finish(link, request(), null, { _envelope: '' }, result, null);
    expect(enveloped.status).toBe(200);
    expect(JSON.parse(enveloped.body)).toEqual({ body: { code: 'x' }, status: 404, headers: { 'X-WP-Total': 3 } });
    expect(finish(link, request(), null, { _jsonp: 'cb.x' }, result, null).body).toBe('/**/cb.x({"code":"x"})');
    expect(finish(link, request(), null, { _jsonp: 'cb(' }, result, null).status).toBe(400);
  });

  it('never cuts an error to _fields', () => {
    const error = errorResult(new WpError('rest_nope', 'No.', 404));
    expect(withFields(error, ['id'])).toBe(error);
    expect(withFields({ status: 200, body: { id: 1, title: 't' } }, ['id']).body).toEqual({ id: 1 });
  });
});
