// Arguments of single-item routes that belong to no resource definition. Write and collection
// arguments come from the definitions (src/resources/, gateway/resources.ts).
import type { ArgDef } from '../types.js';

export function contextArg(defaultValue = 'view'): ArgDef {
  return { description: 'Scope under which the request is made; determines fields present in response.', type: 'string', enum: ['view', 'embed', 'edit'], default: defaultValue };
}

export const idArg: ArgDef = { description: 'Unique identifier for the post.', type: 'integer' };
