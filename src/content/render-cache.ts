// Rendering (texturize, autop, excerpt trimming) is pure but costs ~0.3 ms per post; lists repeat
// the same posts, so keep results keyed by the raw text itself (a changed text is a new key).
// Short texts too: a map lookup by a short key costs far less than autop and texturize on it.
const MAX = 20_000;
const cache = new Map<string, string>();

export function cachedRender(kind: string, raw: string, render: () => string): string {
  const key = `${kind}\u0000${raw}`;
  const hit = cache.get(key);
  if (hit !== undefined) return hit;
  const out = render();
  if (cache.size >= MAX) cache.delete(cache.keys().next().value!);
  cache.set(key, out);
  return out;
}
