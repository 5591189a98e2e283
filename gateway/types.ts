// The shapes shared by the route table, dispatch and discovery.
import type { ArgSchema } from './validate.js';
import type { Context } from '../src/context.js';
import type { RestContext } from '../src/resources/define.js';
import type { ReceivedUpload } from './upload.js';

export type Method = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

/** A route argument: WordPress's JSON-schema subset, plus flags that stay on this side. */
export interface ArgDef extends ArgSchema {
  /** Skip schema validation (WordPress sets validate_callback null for title/content/excerpt). */
  skipValidation?: boolean;
}

export type Params = Record<string, unknown>;

export interface GatewayRequest {
  method: Method;
  /** Route path, e.g. /core/v2/posts/5 */
  path: string;
  params: Params;
  /** Placeholders captured from the route pattern. */
  pathParams: Record<string, string>;
  headers: Headers;
  ctx: Context;
  /** API root URL with a trailing slash. */
  root: string;
  /** The original query, for paging links. */
  query: URLSearchParams;
  /** Set on the sub-requests of `_embed`: no totals are needed. */
  embedded?: boolean;
  /** The received file and form fields of an `upload` endpoint. */
  upload?: ReceivedUpload;
  /** Client address, when known (`upload: 'form'` endpoints). */
  ip?: string;
  /**
   * Runs the endpoint's operation (or another it declares in `alsoRuns`) with the request's
   * caller; `context` picks the View/Edit/Embed fragment.
   */
  run(context: RestContext | undefined, variables: Record<string, unknown>, operation?: string): Promise<Record<string, any>>;
  /** Batch: resolves one item to its endpoint and params (or the error WordPress gives for it). */
  batchItem?(item: BatchItem): PreparedItem;
  /**
   * Batch: runs prepared items in order with the request's caller, each as a single request
   * would run; `atomic` runs them in one database transaction, rolled back unless all succeed.
   */
  runBatch?(items: PreparedItem[], o: { atomic: boolean }): Promise<{ results: ItemResult[]; rolledBack: boolean }>;
}

export interface BatchItem { method?: string; path: string; body?: Record<string, unknown>; headers?: Record<string, string | string[]> }
/** An item ready to run, or the answer it already has (no route, not batchable, invalid params). */
export interface PreparedItem { error?: ItemResult; run?: () => Promise<ItemResult>; validate?: () => ItemResult | null }
export interface ItemResult { status: number; body: unknown; headers: Record<string, string> }

export interface RouteResult {
  status: number;
  body: unknown;
  headers?: Record<string, string | number>;
  /** Methods this caller may use on the matched item, when the handler knows better than the table. */
  allow?: Method[];
  /**
   * A body that is not JSON, sent as it is with its own Content-Type: whole (`text`, oEmbed's
   * XML), or `stream`ed as it is produced (the content export), without a Content-Length.
   */
  raw?: { contentType: string } & ({ text: string; stream?: never } | { stream: AsyncIterable<string>; text?: never });
}

export interface Endpoint {
  methods: Method[];
  args: Record<string, ArgDef>;
  allowBatch?: boolean;
  /** Summary of who may call it (for Allow and the index): a capability, or 'public'. */
  permission: string;
  /** Name of the GraphQL operation it runs (operations/*.graphql); a contract test checks it exists. */
  operation?: string;
  /** Other operations its handler may run (trash beside delete). */
  alsoRuns?: string[];
  /**
   * The body is a file, streamed to disk rather than read into memory; callers without
   * `permission` are refused before any of it is read. Multipart fields join the params.
   */
  upload?: true;
  /** The error an `upload` endpoint's refused caller gets (default: the media library's `rest_cannot_create`). */
  uploadRefusal?: { code: string; message: string };
  /**
   * `form`: a public form post. A multipart body is streamed with every file part (any field name)
   * and its fields join the params; any other body is read as usual (JSON, urlencoded). The handler
   * checks rights itself.
   */
  formUpload?: true;
  /**
   * The records its answer holds when they are not the route's (a revision's restore answers the
   * post): the fields other parts add to those records (gateway/additional-fields.ts) join it.
   */
  answers?: RouteRecords;
  /** Runs the endpoint once its params are merged, validated and sanitised. */
  handler: (req: GatewayRequest) => Promise<RouteResult>;
}

export interface RouteEntry {
  namespace: string;
  /** WordPress regex notation, e.g. /core/v2/posts/(?P<id>[\d]+) */
  pattern: string;
  endpoints: Endpoint[];
  /** The item schema of the resource the route serves (OPTIONS and `context=help` print it). */
  schema?: () => Record<string, unknown>;
  /** What its records are, for the fields other parts add to them (gateway/additional-fields.ts). */
  records?: RouteRecords;
}

/** The records a route answers with: items of a content type, terms of a taxonomy, or users. */
export interface RouteRecords {
  kind: 'post' | 'term' | 'user';
  /** The content type or taxonomy (post, page, event, category …); 'user' for users. */
  subtype: string;
}
