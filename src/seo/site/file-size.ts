// The size of a file by its URL: from the media storage for the site's own uploads, otherwise
// asked of the server that holds it through the guarded client (HEAD, then a capped GET when
// the answer names no length).
import type { Storage } from '../../media/storage.js';
import { GuardedFetchError, guardedFetch } from '../../http/guarded-client.js';

export type FileSizeAnswer = { type: 'success'; size_in_bytes: number } | { type: 'failure'; response: string };

export interface FileSizeOptions {
  storage: Storage | null;
  /** Hosts the server may fetch even on private addresses. */
  allowHosts: string[];
  /** The largest remote body counted when no Content-Length comes with HEAD (default 32 MB). */
  maxBytes?: number;
}

/** The storage key of a URL under the storage's public base, or null for any other URL. */
function storageKey(storage: Storage, url: string): string | null {
  const base = storage.url('x').slice(0, -1);
  let target: URL;
  try { target = new URL(url); } catch { return null; }
  target.search = '';
  target.hash = '';
  const href = target.href;
  if (!href.startsWith(base)) return null;
  try { return decodeURIComponent(href.slice(base.length)); } catch { return null; }
}

export async function fileSize(url: string, o: FileSizeOptions): Promise<FileSizeAnswer> {
  const key = o.storage ? storageKey(o.storage, url) : null;
  if (o.storage && key !== null) {
    const info = await o.storage.head(key).catch(() => null);
    return info ? { type: 'success', size_in_bytes: info.size } : { type: 'failure', response: `Cannot retrieve the file size of ${url}: the file does not exist.` };
  }
  try {
    const head = await guardedFetch(url, { method: 'HEAD', allowHosts: o.allowHosts });
    const length = Number(head.headers.get('content-length'));
    if (head.headers.has('content-length') && Number.isFinite(length) && length >= 0) return { type: 'success', size_in_bytes: length };
    const got = await guardedFetch(url, { allowHosts: o.allowHosts, maxBytes: o.maxBytes ?? 32 * 1024 * 1024 });
    return { type: 'success', size_in_bytes: got.size };
  } catch (err) {
    const reason = err instanceof GuardedFetchError ? err.message : 'The request failed.';
    return { type: 'failure', response: `Cannot retrieve the file size of ${url}: ${reason}` };
  }
}
