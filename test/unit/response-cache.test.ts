// The response cache's bounds: entries, bytes, least recently used first, one database version.
import { describe, expect, it } from 'vitest';
import { createResponseCache, type CachedResponse, type ResponseCache } from '../../gateway/cache.js';

const answer = (size: number): CachedResponse => {
  const body = 'x'.repeat(size);
  return { status: 200, headers: { 'Content-Type': 'application/json' }, body, bytes: Buffer.from(body) };
};

/** Answers a key twice, as two requests would: the second answer is the one kept. */
const keep = (cache: ResponseCache, key: string, value: CachedResponse) => {
  cache.set(key, value, cache.begin());
  cache.set(key, value, cache.begin());
};

describe('response cache', () => {
  it('keeps an answer the second time its key is answered under a version, not the first', () => {
    let version = 1;
    const cache = createResponseCache(1000, () => version, 100_000);
    cache.set('a', answer(10), cache.begin());
    expect(cache.get('a')).toBeUndefined();
    expect(cache.size).toBe(0);
    cache.set('a', answer(10), cache.begin());
    expect(cache.get('a')).toBeDefined();
    // Another key, answered once, is not kept; a new version forgets what was answered once.
    cache.set('b', answer(10), cache.begin());
    expect(cache.get('b')).toBeUndefined();
    version = 2;
    cache.set('b', answer(10), cache.begin());
    expect(cache.get('b')).toBeUndefined();
    cache.set('b', answer(10), cache.begin());
    expect(cache.get('b')).toBeDefined();
    expect(cache.size).toBe(1);
  });

  it('keeps what the byte budget holds, the least recently used going first', () => {
    let version = 1;
    const cache = createResponseCache(1000, () => version, 10_000);
    for (const key of ['a', 'b', 'c']) keep(cache, key, answer(1_000));
    expect(cache.size).toBe(3);
    expect(cache.get('a')).toBeDefined(); // a is now the most recently used
    for (const key of ['d', 'e']) keep(cache, key, answer(1_000));
    // 5 entries of ~2 KB each (text and bytes) exceed 10,000: b and c went, a stayed.
    expect(cache.get('b')).toBeUndefined();
    expect(cache.get('a')).toBeDefined();
    expect(cache.bytes).toBeLessThanOrEqual(10_000);
    version = 2;
    expect(cache.get('a')).toBeUndefined();
    expect(cache.bytes).toBe(0);
  });

  it('does not keep an answer larger than a quarter of the budget', () => {
    const cache = createResponseCache(1000, () => 1, 10_000);
    keep(cache, 'big', answer(2_000));
    expect(cache.get('big')).toBeUndefined();
    expect(cache.size).toBe(0);
  });

  it('counts a replaced entry once', () => {
    const cache = createResponseCache(1000, () => 1, 100_000);
    keep(cache, 'k', answer(1_000));
    const once = cache.bytes;
    expect(once).toBeGreaterThan(1_000);
    cache.set('k', answer(1_000), cache.begin());
    expect(cache.bytes).toBe(once);
    expect(cache.size).toBe(1);
  });

  it('keeps an entry asked for between every new one, however many come', () => {
    const cache = createResponseCache(4, () => 1, 1_000_000);
    keep(cache, 'hot', answer(10));
    for (let i = 0; i < 100; i++) {
      keep(cache, `k${i}`, answer(10));
      expect(cache.get('hot')).toBeDefined();
      expect(cache.size).toBeLessThanOrEqual(4);
    }
    // The others went in their order: the newest few are there, the first long gone.
    expect(cache.get('k99')).toBeDefined();
    expect(cache.get('k0')).toBeUndefined();
  });

  it('still bounds the number of entries', () => {
    const cache = createResponseCache(2, () => 1, 1_000_000);
    for (const key of ['a', 'b', 'c']) keep(cache, key, answer(10));
    expect(cache.size).toBe(2);
    expect(cache.get('a')).toBeUndefined();
  });
});

describe('render cache', () => {
  it('stays within its character budget however long the texts', async () => {
    const { cachedRender, renderCacheChars } = await import('../../src/content/render-cache.js');
    for (let i = 0; i < 200; i++) {
      const raw = `${i} ${'word '.repeat(20_000)}`; // ~100,000 characters each, 20 MB in all
      expect(cachedRender('test', raw, () => raw.toUpperCase())).toBe(raw.toUpperCase());
    }
    expect(renderCacheChars()).toBeLessThanOrEqual(8 * 1024 * 1024);
    expect(renderCacheChars()).toBeGreaterThan(0);
  });

  it('keeps both kinds when one is rendered inside the other (an excerpt made from its content), and evicts them later', async () => {
    const { cachedRender, renderCacheChars } = await import('../../src/content/render-cache.js');
    const raw = `nested ${Math.random()}`;
    let contentRenders = 0;
    const content = () => cachedRender('content', raw, () => { contentRenders++; return `<p>${raw}</p>`; });
    expect(cachedRender('excerpt', raw, () => `${content()}!`)).toBe(`<p>${raw}</p>!`);
    // The content kept by the inner call is still there, not replaced by the outer one's map.
    expect(content()).toBe(`<p>${raw}</p>`);
    expect(contentRenders).toBe(1);
    // Pushed out by long texts: every entry found where its order says (this threw before).
    for (let i = 0; i < 120; i++) {
      const long = `${i} evict ${'word '.repeat(20_000)}`;
      cachedRender('test', long, () => long);
    }
    expect(renderCacheChars()).toBeLessThanOrEqual(8 * 1024 * 1024);
  });
});
