// The request the dispatcher is handed and the response it gives back: plain data, so the
// node:http front and app.fetch (gateway/router.ts) both speak it.
import type { Readable } from 'node:stream';

export interface CoreRequest {
  method: string;
  /** Path and query as received, e.g. /wp-json/core/v2/posts?page=2 */
  url: string;
  headers: Headers;
  body: Buffer | null;
  /** The body as a stream, for upload endpoints (see `wantsStream`); `body` is then null. */
  stream?: Readable;
  /** Client address, when known. */
  ip?: string;
  /** The request id (X-Request-Id) errors are logged with. */
  id?: string;
  /** `url` already parsed (against http://localhost) by the caller, so it is parsed once; not changed here. */
  parsed?: URL;
}

export interface CoreResponse {
  status: number;
  headers: Record<string, string>;
  body: string;
  /** A body sent as it is produced (a streamed `raw` result); `body` is then ''. */
  stream?: AsyncIterable<Uint8Array>;
  /** `body` as UTF-8 bytes, when already encoded (cacheable answers: encoded once, sent as is on every hit). */
  bytes?: Buffer;
}
