// Fields other parts of the service add to the records of REST resources, as WordPress's
// register_rest_field() adds them to an object type (post types, terms, users): the SEO plugin's
// `seo_head` and `seo_head_json` are such fields. A route declares what its records are
// (`RouteEntry.records`); a field names the kinds of records it joins, gives its schema (OPTIONS
// and `context=help` show it) and its values for the records of one answer at once, so a list
// costs the field a fixed number of statements whatever its length. Nothing here is matched on
// route patterns.
import type { GatewayRequest, RouteEntry, RouteRecords, RouteResult } from './types.js';
import { parseFieldsParam } from './shape/fields.js';

export interface AdditionalField {
  /** The REST key. */
  name: string;
  /** Its item schema property. */
  schema: Record<string, unknown>;
  /** Whether records of this kind carry it. */
  appliesTo(records: RouteRecords): boolean;
  /** Its values for the records of one answer, in their order. */
  values(req: GatewayRequest, records: Record<string, unknown>[], kind: RouteRecords['kind']): Promise<unknown[]>;
}

/** Whether the answer will show the field (`_fields` may leave it out: then it is not worked out). */
function wanted(req: GatewayRequest, names: string[]): string[] {
  const fields = parseFieldsParam(req.query.get('_fields') ?? undefined);
  return fields ? names.filter((n) => fields.includes(n)) : names;
}

/**
 * Adds the fields to the routes whose records they join: to their item schema, and to the records
 * of every answer that holds them, after the route's own shaping — a list's, a single record's
 * (reads and writes alike, as WordPress adds a registered field wherever it prepares the record),
 * and the `previous` of a deletion. An endpoint answering another kind of record says so
 * (`Endpoint.answers`).
 */
export function applyAdditionalFields(table: RouteEntry[], fields: AdditionalField[]): void {
  const joining = (records: RouteRecords | undefined) => (records ? fields.filter((f) => f.appliesTo(records)) : []);
  for (const route of table) {
    const mine = joining(route.records);
    const schema = route.schema;
    if (schema && mine.length) {
      route.schema = () => {
        const s = schema();
        return { ...s, properties: { ...(s.properties as Record<string, unknown>), ...Object.fromEntries(mine.map((f) => [f.name, f.schema])) } };
      };
    }
    route.endpoints = route.endpoints.map((e) => {
      const records = e.answers ?? route.records;
      const added = e.answers ? joining(e.answers) : mine;
      if (!records || !added.length) return e;
      return { ...e, handler: async (req) => withFields(req, await e.handler(req), added, records) };
    });
  }
}

/** The answer with the fields' values on each record it holds. */
async function withFields(req: GatewayRequest, result: RouteResult, fields: AdditionalField[], records: RouteRecords): Promise<RouteResult> {
  const shown = wanted(req, fields.map((f) => f.name));
  if ((result.status !== 200 && result.status !== 201) || !shown.length || !result.body || typeof result.body !== 'object') return result;
  const body = result.body as Record<string, unknown> | Record<string, unknown>[];
  // A deletion with `force` answers `{deleted, previous}`: the record is its last state.
  const deletion = !Array.isArray(body) && typeof body.deleted === 'boolean' && body.previous && typeof body.previous === 'object';
  const holder = deletion ? (body as Record<string, unknown>).previous as Record<string, unknown> : body;
  const list = Array.isArray(holder);
  const items = (list ? holder : [holder]) as Record<string, unknown>[];
  const values = await Promise.all(fields.filter((f) => shown.includes(f.name)).map(async (f) => [f.name, await f.values(req, items, records.kind)] as const));
  const out = items.map((item, i) => ({ ...item, ...Object.fromEntries(values.map(([name, v]) => [name, v[i]])) }));
  const shaped = list ? out : out[0];
  return { ...result, body: deletion ? { ...(body as Record<string, unknown>), previous: shaped } : shaped };
}
