// Serving stored uploads over HTTP the way a static file server in front of wp-content/uploads
// would: validators, conditional requests, single byte ranges, long-lived caching.
import { isValidKey, typeOrGuess, type Storage, type StoredInfo } from './storage.js';

export interface ServeResult {
  status: number;
  headers: Record<string, string>;
  body: NodeJS.ReadableStream | null;
}

/** Uploads keep their name for life (a new upload gets a new name), so caches may hold them long. */
const CACHE_CONTROL = 'public, max-age=31536000';

const result = (status: number, headers: Record<string, string>, body: NodeJS.ReadableStream | null = null): ServeResult => ({
  status,
  headers: { 'X-Content-Type-Options': 'nosniff', ...headers },
  body,
});

/** Answers GET/HEAD for a stored key as a static file server would. */
export async function serveStored(storage: Storage, key: string, method: string, headers: Headers): Promise<ServeResult> {
  const verb = method.toUpperCase();
  if (verb !== 'GET' && verb !== 'HEAD') return result(405, { Allow: 'GET, HEAD' });
  // No directory listings, and nothing outside the plain key space.
  if (key === '' || key.endsWith('/') || !isValidKey(key)) return result(404, {});

  // A file replaced between the metadata and the bytes would mix two versions' headers and
  // bytes; start over when that happens (rare: only a concurrent overwrite).
  for (let attempt = 0; attempt < 3; attempt++) {
    const info = await storage.head(key);
    if (!info) return result(404, {});

    const validators: Record<string, string> = {
      ETag: info.etag,
      'Last-Modified': info.lastModified.toUTCString(),
      'Cache-Control': CACHE_CONTROL,
    };

    const precondition = evaluatePreconditions(info, headers);
    if (precondition === 412) return result(412, validators);
    if (precondition === 304) return result(304, validators);

    const common: Record<string, string> = {
      'Content-Type': typeOrGuess(info.contentType, key),
      ...validators,
      'Accept-Ranges': 'bytes',
    };

    // Range handling is defined for GET only (RFC 9110 §14.2); HEAD gets the full-response headers.
    const range = verb === 'GET' ? selectRange(info, headers) : null;
    if (range === 'unsatisfiable') {
      return result(416, { ...common, 'Content-Range': `bytes */${info.size}` });
    }

    if (verb === 'HEAD') return result(200, { ...common, 'Content-Length': String(info.size) });

    const read = await storage.read(key, range ?? undefined);
    if (!read) return result(404, {});
    if (read.etag !== info.etag || read.size !== info.size) {
      destroy(read.stream);
      continue;
    }
    if (range) {
      return result(
        206,
        {
          ...common,
          'Content-Range': `bytes ${range.start}-${range.end}/${info.size}`,
          'Content-Length': String(range.end - range.start + 1),
        },
        read.stream,
      );
    }
    return result(200, { ...common, 'Content-Length': String(info.size) }, read.stream);
  }
  return result(503, { 'Retry-After': '1' });
}

function destroy(stream: NodeJS.ReadableStream): void {
  const s = stream as NodeJS.ReadableStream & { destroy?: () => void };
  if (typeof s.destroy === 'function') s.destroy();
  else s.resume();
}

// ---------------------------------------------------------------------------
// Conditional requests (RFC 9110 §13)
// ---------------------------------------------------------------------------

/** The entity tags of an If-Match / If-None-Match value, or '*' for any. */
function parseEtagList(value: string): string[] | '*' {
  if (value.trim() === '*') return '*';
  return value.match(/(?:W\/)?"[^"]*"/g) ?? [];
}

const opaque = (tag: string) => (tag.startsWith('W/') ? tag.slice(2) : tag);
const weakMatch = (a: string, b: string) => opaque(a) === opaque(b);
const strongMatch = (a: string, b: string) => !a.startsWith('W/') && !b.startsWith('W/') && a === b;

/** HTTP dates carry whole seconds; compare at that precision. */
const seconds = (d: Date) => Math.floor(d.getTime() / 1000);

function parseHttpDate(value: string | null): number | null {
  if (!value) return null;
  const ms = Date.parse(value);
  return Number.isNaN(ms) ? null : Math.floor(ms / 1000);
}

function evaluatePreconditions(info: StoredInfo, headers: Headers): 200 | 304 | 412 {
  const ifMatch = headers.get('if-match');
  if (ifMatch !== null) {
    const tags = parseEtagList(ifMatch);
    if (tags !== '*' && !tags.some((t) => strongMatch(t, info.etag))) return 412;
  } else {
    const since = parseHttpDate(headers.get('if-unmodified-since'));
    if (since !== null && seconds(info.lastModified) > since) return 412;
  }

  const ifNoneMatch = headers.get('if-none-match');
  if (ifNoneMatch !== null) {
    const tags = parseEtagList(ifNoneMatch);
    return tags === '*' || tags.some((t) => weakMatch(t, info.etag)) ? 304 : 200;
  }
  const modifiedSince = parseHttpDate(headers.get('if-modified-since'));
  if (modifiedSince !== null && seconds(info.lastModified) <= modifiedSince) return 304;
  return 200;
}

// ---------------------------------------------------------------------------
// Byte ranges (RFC 9110 §14)
// ---------------------------------------------------------------------------

/**
 * The one byte range to send, null for the whole file (no Range, one we ignore, or a stale
 * If-Range), or 'unsatisfiable'. Several ranges get the whole file: allowed, and simpler than
 * multipart/byteranges, which browsers and media players do not ask for.
 */
function selectRange(info: StoredInfo, headers: Headers): { start: number; end: number } | null | 'unsatisfiable' {
  const value = headers.get('range');
  if (value === null) return null;

  const ifRange = headers.get('if-range');
  if (ifRange !== null && !ifRangeHolds(ifRange.trim(), info)) return null;

  const m = /^\s*bytes\s*=\s*(.*)$/i.exec(value);
  if (!m) return null;
  const specs = m[1].split(',').map((s) => s.trim()).filter((s) => s !== '');
  if (specs.length !== 1) return null;

  const spec = /^(\d*)\s*-\s*(\d*)$/.exec(specs[0]);
  if (!spec || (spec[1] === '' && spec[2] === '')) return null;
  const size = info.size;

  if (spec[1] === '') {
    // Suffix form: the last n bytes.
    const n = Number(spec[2]);
    if (n === 0 || size === 0) return 'unsatisfiable';
    return { start: Math.max(0, size - n), end: size - 1 };
  }
  const start = Number(spec[1]);
  const last = spec[2] === '' ? Infinity : Number(spec[2]);
  if (!Number.isSafeInteger(start) || last < start) return null; // malformed: ignored
  if (start >= size) return 'unsatisfiable';
  return { start, end: Math.min(last, size - 1) };
}

/** If-Range: an entity tag must match strongly; a date must equal Last-Modified exactly. */
function ifRangeHolds(value: string, info: StoredInfo): boolean {
  if (value.startsWith('"') || value.startsWith('W/"')) return strongMatch(value, info.etag);
  const date = parseHttpDate(value);
  return date !== null && date === seconds(info.lastModified);
}
