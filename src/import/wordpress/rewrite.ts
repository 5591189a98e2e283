// Rewrites what imported text says about the exporting site: the URLs of its uploads (the file,
// its sub-sizes and its original) become the new files' URLs, attachment ids in classes, block
// attributes and shortcodes become the new ids, and links to imported posts and pages (by
// permalink or by ?p= / ?page_id=) become their new permalinks. Anything else is left as written.

export interface Rewrites {
  /** Old absolute upload URL → new URL. */
  files: Map<string, string>;
  /** Old attachment id → new id. */
  attachments: Map<string, number>;
  /** Old permalink (no trailing slash, no query) → new permalink; old content id → new permalink. */
  links: Map<string, string>;
  linksById: Map<string, string>;
  /** The exporting site's base URLs (no trailing slash). */
  bases: string[];
}

const escape = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/** Both schemes of each base: exports mix http and https links to the same site. */
function baseVariants(bases: string[]): string[] {
  const out = new Set<string>();
  for (const b of bases) {
    if (!b) continue;
    out.add(b);
    if (b.startsWith('http://')) out.add(`https://${b.slice(7)}`);
    else if (b.startsWith('https://')) out.add(`http://${b.slice(8)}`);
  }
  return [...out].sort((a, b) => b.length - a.length);
}

/** The same URL under the export's first base (schemes unified), for map lookups. */
export function canonical(url: string, bases: string[]): string {
  for (const b of bases) {
    if (!b) continue;
    if (url.startsWith(b)) return url;
    const other = b.startsWith('https://') ? `http://${b.slice(8)}` : `https://${b.slice(7)}`;
    if (url.startsWith(other)) return b + url.slice(other.length);
  }
  return url;
}

export const withoutSlash = (u: string) => u.replace(/\/+$/, '');

/** Makes a rewriter for text of the exporting site. */
export function makeRewriter(r: Rewrites): (text: string) => string {
  const bases = baseVariants(r.bases);
  const urlPattern = bases.length ? new RegExp(`(?:${bases.map(escape).join('|')})(?:/[^\\s"'<>()\\[\\]]*)?`, 'g') : null;
  const id = (old: string) => r.attachments.get(old);
  const remapIds = (list: string, sep: string) => list.split(',').map((s) => { const n = id(s.trim()); return n === undefined ? s : String(n); }).join(sep);
  return (text: string) => {
    if (!text) return text;
    let out = text;
    if (urlPattern) {
      out = out.replace(urlPattern, (url) => {
        // Trailing punctuation of a sentence is not part of the URL.
        const m = /^(.*?)([.,;:!?]*)$/s.exec(url)!;
        return (rewriteUrl(m[1]) ?? m[1]) + m[2];
      });
    }
    if (r.attachments.size) {
      out = out
        .replace(/\bwp-image-(\d+)\b/g, (all, n: string) => (id(n) !== undefined ? `wp-image-${id(n)}` : all))
        .replace(/\battachment_(\d+)\b/g, (all, n: string) => (id(n) !== undefined ? `attachment_${id(n)}` : all))
        .replace(/\bdata-id="(\d+)"/g, (all, n: string) => (id(n) !== undefined ? `data-id="${id(n)}"` : all))
        .replace(/(\[gallery\b[^\]]*?\bids=)(["']?)([\d,\s]+)\2/g, (_all, head: string, q: string, ids: string) => `${head}${q}${remapIds(ids, ',')}${q}`)
        .replace(/<!-- wp:([a-z][a-z0-9-]*(?:\/[a-z][a-z0-9-]*)?) (\{.*?\}) (\/)?-->/gs, (all, name: string, attrs: string, self: string | undefined) => {
          if (!MEDIA_BLOCKS.has(name)) return all;
          const fixed = attrs
            .replace(/"(id|mediaId)":(\d+)/g, (a, k: string, n: string) => (id(n) !== undefined ? `"${k}":${id(n)}` : a))
            .replace(/"ids":\[([\d,\s]*)\]/g, (_a, ids: string) => `"ids":[${remapIds(ids, ',')}]`);
          return `<!-- wp:${name} ${fixed} ${self ?? ''}-->`;
        });
    }
    return out;
  };

  function rewriteUrl(url: string): string | null {
    const c = canonical(url, r.bases);
    const file = r.files.get(c);
    if (file) return file;
    let parsed: URL;
    try { parsed = new URL(c); } catch { return null; }
    const hash = parsed.hash;
    // ?p=12, ?page_id=12, ?attachment_id=12 (the plain links, and the guids of posts).
    for (const arg of ['p', 'page_id', 'attachment_id']) {
      const v = parsed.searchParams.get(arg);
      if (v && /^\d+$/.test(v) && (parsed.pathname === '/' || parsed.pathname === '')) {
        const to = r.linksById.get(v);
        if (to) return to + hash;
      }
    }
    if (parsed.search) return null;
    const to = r.links.get(withoutSlash(`${parsed.origin}${parsed.pathname}`));
    return to ? to + hash : null;
  }
}

/** Blocks whose attributes name attachments by id. */
const MEDIA_BLOCKS = new Set(['image', 'gallery', 'file', 'video', 'audio', 'cover', 'media-text']);
