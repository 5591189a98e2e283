// Where an imported attachment's file comes from and how it is fetched: the upload itself (the
// original WordPress names in `original_image` when the attachment's file is its -scaled or
// -rotated copy, so the sizes are made again from it as an upload's are), through the guarded
// client, from the hosts the operator allowed.
import { guardedFetch, GuardedFetchError } from '../../http/guarded-client.js';
import type { PhpValue } from '../wxr/php.js';

export interface FetchPolicy {
  /** Hosts (`name` or `name:port`) files may come from besides the export's own; also exempt from the private-address check. */
  allowHosts: string[];
  /** The exporting site's host (`name[:port]`): its files are fetched, from public addresses only unless also allowed. */
  siteHost: string;
  /** `from` prefix → `to` prefix, applied to the URL fetched (the rewritten content keeps the export's URLs as keys). */
  baseUrlMap: [string, string][];
  maxBytes: number;
  timeoutMs: number;
}

export class SkipError extends Error {}

/** The export's metadata of an attachment, as much of it as the import reads. */
export interface ExportedMeta {
  file?: string;
  original_image?: string;
  sizes?: Record<string, { file?: string }>;
}

export function exportedMeta(value: PhpValue | undefined): ExportedMeta {
  if (!value || typeof value !== 'object' || Array.isArray(value)) return {};
  const v = value as Record<string, PhpValue>;
  const sizes: Record<string, { file?: string }> = {};
  if (v.sizes && typeof v.sizes === 'object' && !Array.isArray(v.sizes)) {
    for (const [name, s] of Object.entries(v.sizes as Record<string, PhpValue>)) {
      if (s && typeof s === 'object' && !Array.isArray(s) && typeof (s as Record<string, PhpValue>).file === 'string') sizes[name] = { file: (s as Record<string, string>).file };
    }
  }
  return {
    ...(typeof v.file === 'string' ? { file: v.file } : {}),
    ...(typeof v.original_image === 'string' ? { original_image: v.original_image } : {}),
    sizes,
  };
}

/** The folder URL of an upload URL (through its last slash). */
export const folderUrl = (url: string) => url.slice(0, url.lastIndexOf('/') + 1);

/** The URL the upload itself is at: the original beside a -scaled/-rotated file, else the attachment URL. */
export function sourceFileUrl(attachmentUrl: string, meta: ExportedMeta): string {
  return meta.original_image ? folderUrl(attachmentUrl) + encodeURIComponent(meta.original_image) : attachmentUrl;
}

const hostOf = (url: string): string | null => {
  try { return new URL(url).host.toLowerCase(); } catch { return null; }
};

/** Where a file would be fetched from, or why it is not: a host neither the export's nor allowed. */
export function fetchTarget(url: string, p: FetchPolicy): { url: string } | { refused: string } {
  let target = url;
  for (const [from, to] of p.baseUrlMap) {
    // A prefix ending where a path segment does (http://a.example does not match http://a.example.org/…).
    if (target.startsWith(from) && (from.endsWith('/') || ['', '/', '?', '#'].includes(target.charAt(from.length)))) { target = to + target.slice(from.length); break; }
  }
  const host = hostOf(target);
  if (!host) return { refused: `not a valid URL: ${url}` };
  const mappedSite = hostOf(p.baseUrlMap.find(([from]) => hostOf(from + '/') === p.siteHost)?.[1] ?? '') ?? null;
  const allowed = p.allowHosts.some((h) => h.toLowerCase() === host || h.toLowerCase() === host.replace(/:\d+$/, ''));
  if (!allowed && host !== p.siteHost && host !== mappedSite) return { refused: `host ${host} is not allowed (neither the export's site nor given with --allow-host)` };
  return { url: target };
}

/** Fetches a file's bytes through the guarded client; a failure is a SkipError with the reason. */
export async function download(url: string, p: FetchPolicy): Promise<Buffer> {
  const target = fetchTarget(url, p);
  if ('refused' in target) throw new SkipError(target.refused);
  try {
    const res = await guardedFetch(target.url, { allowHosts: p.allowHosts, maxBytes: p.maxBytes, timeoutMs: p.timeoutMs, headers: { accept: '*/*' } });
    return res.bytes;
  } catch (err) {
    if (err instanceof GuardedFetchError) throw new SkipError(`download of ${target.url} failed (${err.reason}): ${err.message}`);
    throw err;
  }
}
