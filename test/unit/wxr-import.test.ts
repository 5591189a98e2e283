// The pieces of the WordPress import that need no database: PHP's serialised values as WordPress
// writes meta, and the rewriting of an export's URLs and attachment ids.
import { describe, expect, it } from 'vitest';
import { isSerialized, metaValueFromWxr, PhpSerialError, unserialize } from '../../src/import/wxr/php.js';
import { makeRewriter } from '../../src/import/wordpress/rewrite.js';
import { fetchTarget } from '../../src/import/wordpress/media.js';

describe('PHP serialised values', () => {
  it('reads strings by their UTF-8 byte length, numbers, booleans, null and nested arrays', () => {
    expect(unserialize('s:6:"Tomás";')).toBe('Tomás');
    expect(unserialize('a:2:{i:0;s:1:"a";i:1;s:0:"";}')).toEqual(['a', '']);
    expect(unserialize('a:3:{s:4:"work";s:3:"Sea";s:5:"pages";i:-3;s:4:"meta";a:2:{s:1:"x";d:1.5;s:1:"y";b:1;}}')).toEqual({ work: 'Sea', pages: -3, meta: { x: 1.5, y: true } });
    expect(unserialize('N;')).toBeNull();
    // Keys 0…n-1 in order make a list; any other keys an object.
    expect(unserialize('a:2:{i:1;s:1:"a";i:0;s:1:"b";}')).toEqual({ 1: 'a', 0: 'b' });
  });

  it('refuses objects, wrong lengths and trailing data', () => {
    for (const bad of ['O:8:"stdClass":0:{}', 's:5:"Tomás";', 'a:1:{i:0;s:1:"a";}x', 'a:1:{i:0;', 'i:1.5;']) {
      expect(() => unserialize(bad), bad).toThrow(PhpSerialError);
    }
  });

  it('keeps a meta value as JSON of what it holds, and anything else as written', () => {
    expect(metaValueFromWxr('a:2:{s:5:"venue";s:5:"Kaito";s:5:"price";s:2:"$$";}')).toBe('{"venue":"Kaito","price":"$$"}');
    expect(metaValueFromWxr('s:5:"hello";')).toBe('hello');
    expect(metaValueFromWxr('a:1:{i:0;O:1:"X":0:{}}')).toBe('a:1:{i:0;O:1:"X":0:{}}');
    expect(metaValueFromWxr('4.5')).toBe('4.5');
    expect(isSerialized('a:0:{}')).toBe(true);
    expect(isSerialized('a:0:{} and text')).toBe(false);
  });

  it('puts no key on Object.prototype', () => {
    const v = unserialize('a:1:{s:9:"__proto__";a:1:{s:6:"polled";b:1;}}') as Record<string, unknown>;
    expect(({} as Record<string, unknown>).polled).toBeUndefined();
    expect(Object.keys(v)).toEqual(['__proto__']);
  });
});

describe('rewriting an export’s text', () => {
  const rewrite = makeRewriter({
    bases: ['http://old.example'],
    files: new Map([['http://old.example/wp-content/uploads/2025/03/a-300x200.jpg', 'https://new.example/wp-content/uploads/2025/03/a-300x200.jpg']]),
    attachments: new Map([['5', 12], ['12', 40]]),
    links: new Map([['http://old.example/hello', 'https://new.example/hello-2/'], ['http://old.example', 'https://new.example/']]),
    linksById: new Map([['7', 'https://new.example/?p=31']]),
  });

  it('rewrites upload URLs, in either scheme, and links by permalink or id', () => {
    expect(rewrite('<img src="https://old.example/wp-content/uploads/2025/03/a-300x200.jpg">')).toBe('<img src="https://new.example/wp-content/uploads/2025/03/a-300x200.jpg">');
    expect(rewrite('<a href="http://old.example/hello/#top">x</a>, see http://old.example/hello.')).toBe('<a href="https://new.example/hello-2/#top">x</a>, see https://new.example/hello-2/.');
    expect(rewrite('<a href="http://old.example/?p=7">x</a> <a href="http://old.example/">home</a>')).toBe('<a href="https://new.example/?p=31">x</a> <a href="https://new.example/">home</a>');
    expect(rewrite('<a href="http://old.example/unknown/">x</a> http://other.example/hello/')).toBe('<a href="http://old.example/unknown/">x</a> http://other.example/hello/');
  });

  it('remaps attachment ids in classes, captions, media blocks and galleries, each once', () => {
    const text = '<!-- wp:image {"id":5,"sizeSlug":"large"} --><img class="wp-image-5"><!-- /wp:image -->[caption id="attachment_12"][gallery columns="3" ids="5,12,99"]<!-- wp:gallery {"ids":[5,12]} /--><!-- wp:paragraph {"id":5} -->';
    // 5 → 12 and 12 → 40 in one pass: the 12 that 5 became is not turned into 40.
    expect(rewrite(text)).toBe('<!-- wp:image {"id":12,"sizeSlug":"large"} --><img class="wp-image-12"><!-- /wp:image -->[caption id="attachment_40"][gallery columns="3" ids="12,40,99"]<!-- wp:gallery {"ids":[12,40]} /--><!-- wp:paragraph {"id":5} -->');
  });
});

describe('where a file may be fetched from', () => {
  const policy = { allowHosts: ['cdn.example'], siteHost: 'old.example', baseUrlMap: [['http://old.example', 'http://127.0.0.1:9000'] as [string, string]], maxBytes: 1, timeoutMs: 1 };
  it('the export’s own host (through the map), allowed hosts, and nothing else', () => {
    expect(fetchTarget('http://old.example/wp-content/uploads/a.jpg', policy)).toEqual({ url: 'http://127.0.0.1:9000/wp-content/uploads/a.jpg' });
    expect(fetchTarget('https://cdn.example/a.jpg', policy)).toEqual({ url: 'https://cdn.example/a.jpg' });
    expect(fetchTarget('http://old.example.org/a.jpg', policy)).toEqual({ refused: expect.stringMatching(/^host old\.example\.org is not allowed/) });
    expect(fetchTarget('http://evil.example/a.jpg', policy)).toEqual({ refused: expect.stringMatching(/^host evil\.example is not allowed/) });
  });
});
