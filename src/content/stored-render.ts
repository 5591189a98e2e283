// Rendered text stored with the item. `content.rendered` and the default `excerpt.rendered` cost
// about 0.3 ms of CPU per item (texturize, autop, trimming); the in-process memo
// (./render-cache.ts) spares that for the items a process sees again, but a read of an item it has
// not seen lately (a cold read, a crawl over a large site) rendered it every time. The content
// service renders both when it saves an item, before its write transaction begins, and stores
// them beside the raw text with a key: the renderer's version and a digest of the raw content and
// excerpt they were made from. A read takes the stored rendering when the key matches the row's
// raw text as read; anything else (a row saved before this existed, text changed by a path that
// does not render, or by SQL, a newer renderer) renders as before. Nothing is written on a read.
import { renderContent, renderExcerpt } from './render.js';

/** Raise when the renderers' output changes: every stored rendering then counts as absent. */
export const RENDER_VERSION = 1;

/** The words of the stored excerpt (WordPress's default `excerpt_length`). */
export const STORED_EXCERPT_WORDS = 55;

// Two 32-bit digests of the UTF-16 units (FNV-1a and a multiplicative one with another seed):
// with the lengths, a changed text that keeps the key is a 1-in-2^64 chance, and a read of a
// 30 KB post spends about 0.05 ms on them against several for rendering it.
function digest(s: string): string {
  let a = 0x811c9dc5;
  let b = 0x9e3779b9;
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    a = Math.imul(a ^ c, 0x01000193);
    b = Math.imul(b + c, 0x85ebca6b) ^ (b >>> 13);
  }
  return `${(a >>> 0).toString(36)}${(b >>> 0).toString(36)}`;
}

export function renderKey(content: string, excerpt: string): string {
  return `${RENDER_VERSION}.${content.length}.${digest(content)}.${excerpt.length}.${digest(excerpt)}`;
}

export interface StoredColumns { renderedContent: string; renderedExcerpt: string; renderedKey: string }

/** What a save stores beside the raw content and excerpt. */
export function renderedColumns(content: string, excerpt: string): StoredColumns {
  const renderedContent = renderContent(content);
  return {
    renderedContent,
    renderedExcerpt: renderExcerpt(excerpt, content, STORED_EXCERPT_WORDS, () => renderedContent),
    renderedKey: renderKey(content, excerpt),
  };
}

interface RenderedRow { content: string; excerpt: string; renderedContent?: string; renderedExcerpt?: string; renderedKey?: string }

const checked = new WeakMap<object, { content: string; excerpt: string } | null>();

/**
 * The stored rendering of a row read from the database, when it was made from the row's present
 * raw text by this renderer; null otherwise. Checked once per row object.
 */
export function storedRender(row: RenderedRow): { content: string; excerpt: string } | null {
  if (!row.renderedKey) return null;
  let out = checked.get(row);
  if (out === undefined) {
    out = row.renderedKey === renderKey(row.content, row.excerpt) ? { content: row.renderedContent ?? '', excerpt: row.renderedExcerpt ?? '' } : null;
    checked.set(row, out);
  }
  return out;
}
