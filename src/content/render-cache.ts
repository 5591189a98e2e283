// Rendering (texturize, autop, excerpt trimming) is pure but costs ~0.3 ms per post; lists repeat
// the same posts, so keep results keyed by the raw text itself (a changed text is a new key).
// Short texts too: a map lookup by a short key costs far less than autop and texturize on it.
// Bounded by entries and by characters (key and result): long posts would otherwise keep hundreds
// of MB per process. The oldest entries go first.
const MAX_ENTRIES = 20_000;
const MAX_CHARS = 8 * 1024 * 1024;
const cache = new Map<string, string>();
let chars = 0;

export function cachedRender(kind: string, raw: string, render: () => string): string {
  const key = `${kind}\u0000${raw}`;
  const hit = cache.get(key);
  if (hit !== undefined) return hit;
  const out = render();
  const size = key.length + out.length;
  if (size > MAX_CHARS / 16) return out;
  cache.set(key, out);
  chars += size;
  while (cache.size > MAX_ENTRIES || chars > MAX_CHARS) {
    const oldest = cache.keys().next().value!;
    chars -= oldest.length + cache.get(oldest)!.length;
    cache.delete(oldest);
  }
  return out;
}

/** Characters the cache holds (keys and results). */
export function renderCacheChars(): number {
  return chars;
}
