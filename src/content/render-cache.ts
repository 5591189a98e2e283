// Rendering (texturize, autop, excerpt trimming) is pure but costs ~0.3 ms per post; lists repeat
// the same posts, so keep results keyed by the raw text itself (a changed text is a new key).
// Short texts too: a map lookup by a short key costs far less than autop and texturize on it.
// Bounded by entries and by characters (texts and results): long posts would otherwise keep
// hundreds of MB per process. The oldest entries go first.
//
// Looked up by the raw text first, then by the kind of rendering: a key made of both would be a new
// string on every lookup, copied whole (a post's content, kilobytes) before it could be hashed;
// the raw text as read from the database is hashed as it is.
const MAX_ENTRIES = 20_000;
const MAX_CHARS = 8 * 1024 * 1024;
const cache = new Map<string, Map<string, string>>();
/** Entries in the order they were made: [raw, kind]. */
let order: [string, string][] = [];
let head = 0;
let entries = 0;
let chars = 0;

export function cachedRender(kind: string, raw: string, render: () => string): string {
  let byKind = cache.get(raw);
  const hit = byKind?.get(kind);
  if (hit !== undefined) return hit;
  const out = render();
  const size = raw.length + kind.length + out.length;
  if (size > MAX_CHARS / 16) return out;
  // Looked up again: `render` may have kept another kind of the same text meanwhile (an
  // excerpt renders its content through here), and a map made before it would replace that one's.
  byKind = cache.get(raw);
  if (!byKind) cache.set(raw, (byKind = new Map()));
  if (byKind.has(kind)) return out;
  byKind.set(kind, out);
  order.push([raw, kind]);
  entries++;
  chars += size;
  while (entries > MAX_ENTRIES || chars > MAX_CHARS) {
    const [oldRaw, oldKind] = order[head++];
    const kinds = cache.get(oldRaw)!;
    chars -= oldRaw.length + oldKind.length + kinds.get(oldKind)!.length;
    entries--;
    kinds.delete(oldKind);
    if (!kinds.size) cache.delete(oldRaw);
  }
  if (head > 1024 && head * 2 > order.length) { order = order.slice(head); head = 0; }
  return out;
}

/** Characters the cache holds (texts and results, a text counted once per kind kept for it). */
export function renderCacheChars(): number {
  return chars;
}
