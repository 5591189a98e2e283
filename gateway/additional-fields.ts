// Fields other parts of the service add to the records of REST resources, as WordPress's
// register_rest_field() adds them to an object type (post types, terms, users): the SEO plugin's
// `seo_head` and `seo_head_json` are such fields. A route declares what its records are
// (`RouteEntry.records`); a field names the kinds of records it joins, gives its schema (OPTIONS
// and `context=help` show it) and its values for the records of one answer at once, so a list
// costs the field a fixed number of statements whatever its length. Nothing here is matched on
// route patterns.
import type { GatewayRequest, RouteEntry, RouteRecords } from './types.js';
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
 * Adds the fields to the routes whose records they join: to their item schema, and to the
 * records of their GET answers (a list's, or a single record's), after the route's own shaping.
 */
export function applyAdditionalFields(table: RouteEntry[], fields: AdditionalField[]): void {
  for (const route of table) {
    const records = route.records;
    if (!records) continue;
    const mine = fields.filter((f) => f.appliesTo(records));
    if (!mine.length) continue;
    const schema = route.schema;
    if (schema) {
      route.schema = () => {
        const s = schema();
        return { ...s, properties: { ...(s.properties as Record<string, unknown>), ...Object.fromEntries(mine.map((f) => [f.name, f.schema])) } };
      };
    }
    route.endpoints = route.endpoints.map((e) => (!e.methods.includes('GET') ? e : {
      ...e,
      async handler(req) {
        const result = await e.handler(req);
        const shown = wanted(req, mine.map((f) => f.name));
        if (result.status !== 200 || !shown.length || !result.body || typeof result.body !== 'object') return result;
        const list = Array.isArray(result.body);
        const items = (list ? result.body : [result.body]) as Record<string, unknown>[];
        const values = await Promise.all(mine.filter((f) => shown.includes(f.name)).map(async (f) => [f.name, await f.values(req, items, records.kind)] as const));
        const out = items.map((item, i) => ({ ...item, ...Object.fromEntries(values.map(([name, v]) => [name, v[i]])) }));
        return { ...result, body: list ? out : out[0] };
      },
    }));
  }
}
