// Small HTML writers for widget forms and previews. Widget settings are data, never markup (rich
// text is filtered before it gets here): every value is fully escaped, entities included, so
// that what a browser shows is exactly the stored text.

const ENTITIES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#039;' };

/** htmlspecialchars() with double encoding: for text content, attribute values and textareas alike. */
export function esc(value: unknown): string {
  return String(value ?? '').replace(/[&<>"']/g, (c) => ENTITIES[c]);
}

type AttrValue = string | number | boolean | null | undefined;

/** ` name="value"` pairs; false, null and undefined leave an attribute out, true writes `name="name"`. */
export function attrs(list: Record<string, AttrValue>): string {
  let out = '';
  for (const [name, value] of Object.entries(list)) {
    if (value === false || value === null || value === undefined) continue;
    out += ` ${name}="${esc(value === true ? name : value)}"`;
  }
  return out;
}

/** An element with escaped attributes; `inner` is HTML the caller has made safe. */
export function el(tag: string, attributes: Record<string, AttrValue>, inner = ''): string {
  return `<${tag}${attrs(attributes)}>${inner}</${tag}>`;
}

export function voidEl(tag: string, attributes: Record<string, AttrValue>): string {
  return `<${tag}${attrs(attributes)} />`;
}

/** An inline `style` value from declarations; empty values are left out. Values come from sanitised settings. */
export function style(declarations: Record<string, string | number | null | undefined | false>): string | undefined {
  const parts = Object.entries(declarations)
    .filter(([, v]) => v !== '' && v !== null && v !== undefined && v !== false)
    .map(([k, v]) => `${k}:${v}`);
  return parts.length ? parts.join(';') : undefined;
}
