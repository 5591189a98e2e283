// The item schema WordPress publishes for a resource (get_item_schema()): JSON Schema draft 4 with
// `context` and `readonly` on every property. OPTIONS and `?context=help` answer it; the REST
// arguments of writes are cut from it.
import type { FieldDef, FieldKind, PropertyDef, ResourceDef } from './define.js';
import { restKey } from './define.js';

export type JsonSchema = Record<string, unknown>;

/**
 * On a property whose field is sent only in some answers (`FieldDef.sentOnly`): why. A symbol, so
 * the item schema OPTIONS prints (JSON) does not show it; the OpenAPI document reads it.
 */
export const SENT_ONLY = Symbol.for('content-service.sentOnly');

const FORMATS: Partial<Record<FieldKind, string>> = { 'date-time': 'date-time', uri: 'uri', email: 'email', uuid: 'uuid' };

/** The type keywords of a kind: type, format, enum, items. */
export function typeSchema(f: Pick<FieldDef, 'kind' | 'enum' | 'items' | 'acceptsNull'> & { properties?: Record<string, PropertyDef> }): JsonSchema {
  const withNull = (type: string) => (f.acceptsNull ? [type, 'null'] : type);
  switch (f.kind) {
    case 'integer': return { type: withNull('integer') };
    case 'number': return { type: withNull('number') };
    case 'boolean': return { type: withNull('boolean') };
    case 'string': return { type: withNull('string') };
    case 'date-time': case 'uri': case 'email': case 'uuid': return { type: withNull('string'), format: FORMATS[f.kind] };
    case 'integer[]': return { type: 'array', items: f.items ?? { type: 'integer' } };
    case 'string[]': return { type: 'array', items: f.items ?? { type: 'string' } };
    case 'enum': return { type: withNull('string'), enum: [...f.enum!.values] };
    case 'enum[]': return { type: 'array', items: { type: 'string', enum: [...f.enum!.values] } };
    case 'object': case 'json': return { type: 'object', ...(f.properties ? { properties: propertiesSchema(f.properties) } : {}) };
    default: return { type: 'string' };
  }
}

function propertiesSchema(properties: Record<string, PropertyDef>): Record<string, JsonSchema> {
  return Object.fromEntries(Object.entries(properties).map(([key, p]) => [key, fieldSchema(p)]));
}

/** One property of the item schema (a field, or a sub-property of an object field). */
export function fieldSchema(f: FieldDef | PropertyDef): JsonSchema {
  return {
    description: f.description,
    ...typeSchema(f),
    ...(f.schema ?? {}),
    ...(f.default !== undefined ? { default: f.default } : {}),
    ...('required' in f && f.required ? { required: true } : {}),
    context: f.contexts ?? [],
    ...(f.readonly ? { readonly: true } : {}),
    ...('sentOnly' in f && f.sentOnly ? { [SENT_ONLY]: f.sentOnly } : {}),
  };
}

/** The whole item schema of a resource, as WordPress's get_public_item_schema() prints it. */
export function itemSchema(r: ResourceDef): JsonSchema {
  const properties: Record<string, JsonSchema> = {};
  for (const [name, f] of Object.entries(r.fields)) {
    if (f.rest === false) continue;
    properties[restKey(name, f)] = fieldSchema(f);
  }
  return { $schema: 'http://json-schema.org/draft-04/schema#', title: r.title, type: 'object', properties };
}
