// `_fields`: keep only the listed keys (dotted paths reach into objects), per item.
export function parseFieldsParam(value: unknown): string[] | null {
  if (value === undefined || value === null || value === '') return null;
  const list = Array.isArray(value) ? value.map(String) : String(value).split(',');
  const fields = list.map((f) => f.trim()).filter(Boolean);
  return fields.length ? fields : null;
}

export function pickFields(item: unknown, fields: string[]): unknown {
  if (!item || typeof item !== 'object' || Array.isArray(item)) return item;
  const out: Record<string, unknown> = {};
  for (const field of fields) copyPath(item as Record<string, unknown>, out, field.split('.'));
  // The empty-map rule: nothing left serialises as [].
  return Object.keys(out).length ? out : [];
}

function copyPath(from: Record<string, unknown>, to: Record<string, unknown>, path: string[]): void {
  const [head, ...rest] = path;
  if (!(head in from)) return;
  if (!rest.length) { to[head] = from[head]; return; }
  const next = from[head];
  if (!next || typeof next !== 'object' || Array.isArray(next)) return;
  const target = (to[head] && typeof to[head] === 'object' ? to[head] : (to[head] = {})) as Record<string, unknown>;
  copyPath(next as Record<string, unknown>, target, rest);
}

export function applyFields(body: unknown, fields: string[] | null): unknown {
  if (!fields) return body;
  return Array.isArray(body) ? body.map((item) => pickFields(item, fields)) : pickFields(body, fields);
}
