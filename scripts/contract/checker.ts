// The contract check: an answer of the REST interface held to the OpenAPI document the same site
// serves. The operation is found the way the dispatcher finds a route (first path that matches,
// then the method), and the status, content type, body and required headers must be ones it
// declares. The test helpers run it on every answer a test receives (test/helpers/contract.ts);
// the validating proxy (scripts/contract/proxy.ts) runs it on what passes through it.
import { Ajv2020, type ErrorObject, type ValidateFunction } from 'ajv/dist/2020.js';
import addFormatsModule from 'ajv-formats';

// The package is CommonJS: under ESM its function is the default export's default.
const addFormats = ((addFormatsModule as any).default ?? addFormatsModule) as (ajv: Ajv2020) => Ajv2020;

type Doc = Record<string, any>;
export interface Answer { status: number; headers: Headers; body: unknown; text: string }
export interface Violation { method: string; path: string; operation: string; status: number; kind: string; instancePath: string; message: string }

export class ContractViolation extends Error {
  constructor(readonly violations: Violation[]) {
    super(violations.map(describeViolation).join('\n'));
    this.name = 'ContractViolation';
  }
}

export function describeViolation(v: Violation): string {
  return `contract: ${v.method} ${v.path} (${v.operation}) answered ${v.status}: ${v.kind}${v.instancePath ? ` at ${v.instancePath}` : ''}: ${v.message}`;
}

interface Operation { id: string; op: Doc }
interface PathEntry { regex: RegExp; item: Doc }

const DOC_ID = 'https://contract.invalid/openapi.json';
/** Query parameters that reshape any answer (WordPress's globals): the body is no longer the operation's (`_embed` only adds `_embedded`, which the views describe). */
const RESHAPING = ['_jsonp', '_fields'];

/** `#/components/…` pointers made absolute, so a response schema compiled alone finds the shared components. */
function absolute(node: unknown): unknown {
  if (Array.isArray(node)) return node.map(absolute);
  if (!node || typeof node !== 'object') return node;
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(node)) out[k] = k === '$ref' && typeof v === 'string' && v.startsWith('#/') ? DOC_ID + v : absolute(v);
  return out;
}

const escapeRegex = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
const stripAnchors = (p: string) => p.replace(/^\^/, '').replace(/\$$/, '');

/** A checker for one document: paths compiled once, components once, validators per operation and status. */
export class Contract {
  private readonly ajv: Ajv2020;
  private readonly paths: PathEntry[] = [];
  private readonly validators = new Map<string, ValidateFunction>();

  constructor(private readonly doc: Doc, private readonly restPrefix: string) {
    this.ajv = new Ajv2020({ strict: false, allErrors: true, logger: false, validateFormats: true });
    addFormats(this.ajv);
    this.ajv.addSchema({ $id: DOC_ID, components: absolute(doc.components ?? {}) });
    for (const [path, item] of Object.entries<Doc>(doc.paths ?? {})) {
      const params = new Map<string, string>();
      for (const op of Object.values<Doc>(item)) {
        for (const p of (op?.parameters ?? []) as Doc[]) {
          if (p.in === 'path' && typeof p.schema?.pattern === 'string' && !params.has(p.name)) params.set(p.name, stripAnchors(p.schema.pattern));
        }
      }
      const source = path.split(/(\{[^}]+\})/).map((piece) => {
        const name = /^\{([^}]+)\}$/.exec(piece)?.[1];
        return name ? `(?:${params.get(name) ?? '[^/]+'})` : escapeRegex(piece);
      }).join('');
      // As the dispatcher: case-insensitive, the whole route path.
      this.paths.push({ regex: new RegExp(`^${source}$`, 'i'), item });
    }
  }

  /** The route path a URL asks for, or null when it is not a REST request. */
  routePath(url: URL): string | null {
    let path: string;
    if (url.pathname === this.restPrefix || url.pathname.startsWith(this.restPrefix + '/')) path = url.pathname.slice(this.restPrefix.length);
    else if ((url.pathname === '/' || url.pathname === '/index.php') && url.searchParams.has('rest_route')) path = url.searchParams.get('rest_route')!;
    else return null;
    try { path = decodeURIComponent(path); } catch { /* left as sent */ }
    path = '/' + path.replace(/^\/+/, '');
    return path.length > 1 ? path.replace(/\/+$/, '') : path;
  }

  operation(method: string, path: string): Operation | null | undefined {
    const entry = this.paths.find((p) => p.regex.test(path));
    if (!entry) return undefined;
    const op = entry.item[method.toLowerCase()];
    return op ? { id: op.operationId ?? `${method} ${path}`, op } : null;
  }

  private deref(node: Doc | undefined): Doc | undefined {
    let n = node;
    for (let i = 0; n?.$ref && i < 10; i++) n = (n.$ref as string).replace(/^#\//, '').split('/').reduce((o: any, k) => o?.[k.replace(/~1/g, '/').replace(/~0/g, '~')], this.doc);
    return n;
  }

  /** The violations of one answer (empty when it keeps the contract or is not a REST answer). */
  check(requestMethod: string, requestUrl: string, requestHeaders: Headers, answer: Answer): Violation[] {
    const url = new URL(requestUrl);
    const path = this.routePath(url);
    if (path === null) return [];
    // The document describes the routes, not itself or the reference page beside them.
    if (path === '/openapi.json' || path === '/reference' || path.startsWith('/reference/')) return [];
    const method = (url.searchParams.get('_method') || requestHeaders.get('x-http-method-override') || requestMethod).toUpperCase();
    const head = method === 'HEAD';
    // HEAD and OPTIONS have operations of their own: a HEAD's statuses and headers, the route's description.
    const found = this.operation(method, path);
    // No route for the path or the method: the dispatcher's rest_no_route, which no operation owns.
    if (!found) return [];
    const display = `${url.pathname}${url.search}`;
    const out: Violation[] = [];
    const fail = (kind: string, message: string, instancePath = '') =>
      out.push({ method: requestMethod, path: display, operation: found.id, status: answer.status, kind, instancePath, message });

    // `_envelope`: a 200 holding the answer the request would have had; the operation must list the
    // parameter, the body must be the envelope it names, and what it holds is checked as that answer.
    if (url.searchParams.has('_envelope') && !url.searchParams.has('_jsonp') && !head) {
      const param = ((found.op.parameters ?? []) as Doc[]).map((p) => this.deref(p)).find((p) => p?.name === '_envelope' && p.in === 'query');
      if (!param) { fail('undeclared parameter', 'the operation does not list _envelope'); return out; }
      if (answer.status !== 200) fail('envelope status', `an enveloped answer is 200, not ${answer.status}`);
      const envelope = param['x-answer'];
      if (!envelope) { fail('envelope undescribed', 'the _envelope parameter names no x-answer schema'); return out; }
      const validate = this.validator(`envelope ${JSON.stringify(envelope)}`, envelope, fail);
      if (!validate) return out;
      if (!validate(answer.body)) { this.report(validate.errors ?? [], fail); return out; }
      const inner = answer.body as { body: unknown; status: number; headers: Record<string, unknown> };
      const bare = new URL(url);
      bare.searchParams.delete('_envelope');
      const headers = new Headers(Object.entries(inner.headers).map(([k, v]) => [k, String(v)] as [string, string]));
      if (!headers.has('content-type')) headers.set('content-type', 'application/json');
      const held: Answer = { status: inner.status, headers, body: inner.body, text: JSON.stringify(inner.body) ?? '' };
      return this.check(requestMethod, bare.href, requestHeaders, held).map((v) => ({ ...v, path: display, kind: `enveloped ${v.kind}` }));
    }

    const responses = (found.op.responses ?? {}) as Doc;
    const key = String(answer.status);
    const range = `${key[0]}XX`;
    const chosen = key in responses ? key : range in responses ? range : 'default' in responses ? 'default' : null;
    if (!chosen) {
      const code = (answer.body as Doc | null)?.code;
      fail('undocumented status', `declares ${Object.keys(responses).join(', ')}${code ? `; the answer's code is ${code}` : ''}`);
      return out;
    }
    const response = this.deref(responses[chosen]) ?? {};

    for (const [name, h] of Object.entries<Doc>(response.headers ?? {})) {
      const header = this.deref(h);
      if (header?.required && !answer.headers.has(name)) fail('missing header', `the required header ${name} is not sent`);
    }

    const content = (response.content ?? {}) as Doc;
    const type = (answer.headers.get('content-type') ?? '').split(';')[0].trim().toLowerCase();
    if (head || answer.status === 204 || answer.status === 304 || answer.text === '') return out;
    const declared = Object.keys(content);
    const media = declared.find((t) => t.toLowerCase() === type) ?? declared.find((t) => t === '*/*' || (t.endsWith('/*') && type.startsWith(t.slice(0, -1))));
    if (!media) {
      fail('undocumented content type', `sent ${type || 'no content type'}; declares ${declared.join(', ') || 'no content'}`);
      return out;
    }
    if (!/json/.test(media) || RESHAPING.some((g) => url.searchParams.has(g) || url.searchParams.has(`${g}[]`))) return out;
    const schema = content[media]?.schema;
    if (!schema) return out;
    const validate = this.validator(`${found.id} ${chosen} ${media}`, schema, fail);
    if (validate && !validate(answer.body)) this.report(this.closest(schema, answer.body, ''), fail);
    return out;
  }

  /** The compiled validator of a schema of the document, compiled once per key. */
  private validator(key: string, schema: Doc, fail: (kind: string, message: string) => void): ValidateFunction | undefined {
    let validate = this.validators.get(key);
    if (!validate) {
      try {
        validate = this.ajv.compile(absolute(schema) as Doc);
      } catch (e) {
        fail('schema does not compile', (e as Error).message);
        return undefined;
      }
      this.validators.set(key, validate);
    }
    return validate;
  }

  /**
   * Why a body breaks its schema, from the branch that comes closest: where the schema is a choice
   * (`anyOf` the views), the errors of the branch with the fewest, not of every branch; a list's
   * or a map's items each on their own, so one item's view does not decide another's.
   */
  private closest(schema: Doc, data: unknown, at: string): ErrorObject[] {
    const validate = this.validator(`sub ${JSON.stringify(schema)}`, schema, () => {});
    // Called as a plain predicate: ajv's type guard would narrow `data` to nothing past it.
    if (!validate || (validate as (d: unknown) => boolean)(data)) return [];
    const errors = (validate.errors ?? []).map((e) => ({ ...e, instancePath: at + e.instancePath }));
    const s = this.deref(schema) ?? schema;
    const only = (...keys: string[]) => Object.keys(s).every((k) => [...keys, 'description', 'title'].includes(k));
    const branches = (s.anyOf ?? s.oneOf) as Doc[] | undefined;
    if (Array.isArray(branches) && only('anyOf', 'oneOf')) {
      let best: ErrorObject[] | undefined;
      for (const branch of branches) {
        const found = this.closest(branch, data, at);
        if (found.length && (!best || found.length < best.length)) best = found;
      }
      return best ?? errors;
    }
    if (Array.isArray(data) && s.items && typeof s.items === 'object' && only('type', 'items')) {
      return data.flatMap((item, i) => this.closest(s.items, item, `${at}/${i}`));
    }
    if (data && typeof data === 'object' && !Array.isArray(data) && s.additionalProperties && typeof s.additionalProperties === 'object' && only('type', 'additionalProperties')) {
      return Object.entries(data).flatMap(([k, v]) => this.closest(s.additionalProperties, v, `${at}/${k.replace(/~/g, '~0').replace(/\//g, '~1')}`));
    }
    return errors;
  }

  /** A failed validation's errors, each once. */
  private report(errors: ErrorObject[], fail: (kind: string, message: string, instancePath?: string) => void): void {
    // Each branch of an `anyOf` reports the same fault: say it once, and say that no branch
    // matched only when nothing more precise was found.
    const precise = errors.filter((e) => e.keyword !== 'anyOf' && e.keyword !== 'oneOf');
    const seen = new Set<string>();
    for (const e of precise.length ? precise : errors) {
      const text = `${e.message}${e.params && Object.keys(e.params).length ? ` ${JSON.stringify(e.params)}` : ''}`;
      const key = `${e.instancePath} ${text}`;
      if (seen.has(key)) continue;
      seen.add(key);
      fail('body breaks its schema', `${text} (schema ${e.schemaPath})`, e.instancePath || '/');
    }
  }
}

