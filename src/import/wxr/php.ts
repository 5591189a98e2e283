// PHP's serialize() format, as WordPress writes serialised meta values (maybe_serialize): arrays,
// strings, integers, floats, booleans and null. String lengths count UTF-8 bytes, so the text is
// read as bytes. Objects are refused (an export can name any class; nothing here instantiates
// anything, and WordPress itself refuses to unserialise them from a WXR since 6.x).

export class PhpSerialError extends Error {}

/** An unserialised value: arrays with keys 0…n-1 in order become lists, other arrays objects. */
export type PhpValue = string | number | boolean | null | PhpValue[] | { [key: string]: PhpValue };

/** Whether `value` looks like serialised data (is_serialized's shapes). */
export function isSerialized(value: string): boolean {
  const v = value.trim();
  if (v === 'N;') return true;
  return /^(a:\d+:\{[\s\S]*\}|s:\d+:"[\s\S]*";|i:-?\d+;|d:-?[\d.eE+-]+;|b:[01];)$/.test(v);
}

/** Unserialises `value`; throws PhpSerialError when it is not well-formed serialised data. */
export function unserialize(value: string): PhpValue {
  const bytes = Buffer.from(value.trim(), 'utf8');
  let at = 0;
  const fail = (why: string): never => { throw new PhpSerialError(`${why} at byte ${at}`); };
  const expect = (ch: string) => {
    if (bytes[at] !== ch.charCodeAt(0)) fail(`expected "${ch}"`);
    at++;
  };
  const until = (ch: string): string => {
    const end = bytes.indexOf(ch.charCodeAt(0), at);
    if (end < 0) fail(`missing "${ch}"`);
    const s = bytes.toString('latin1', at, end);
    at = end + 1;
    return s;
  };
  const read = (depth: number): PhpValue => {
    if (depth > 64) fail('nested too deep');
    const type = String.fromCharCode(bytes[at] ?? 0);
    at++;
    if (type === 'N') { expect(';'); return null; }
    expect(':');
    if (type === 'b') { const v = until(';'); if (v !== '0' && v !== '1') fail('bad boolean'); return v === '1'; }
    if (type === 'i') { const v = until(';'); if (!/^-?\d+$/.test(v)) fail('bad integer'); return Number(v); }
    if (type === 'd') {
      const v = until(';');
      const n = v === 'INF' ? Infinity : v === '-INF' ? -Infinity : v === 'NAN' ? NaN : Number(v);
      if (Number.isNaN(n) && v !== 'NAN') fail('bad float');
      return n;
    }
    if (type === 's') {
      const len = Number(until(':'));
      if (!Number.isInteger(len) || len < 0) fail('bad string length');
      expect('"');
      if (at + len > bytes.length) fail('string runs past the end');
      const s = bytes.toString('utf8', at, at + len);
      at += len;
      expect('"');
      expect(';');
      return s;
    }
    if (type === 'a') {
      const count = Number(until(':'));
      if (!Number.isInteger(count) || count < 0) fail('bad array length');
      expect('{');
      const entries: [string | number, PhpValue][] = [];
      for (let i = 0; i < count; i++) {
        const key = read(depth + 1);
        if (typeof key !== 'string' && typeof key !== 'number') fail('bad array key');
        entries.push([key as string | number, read(depth + 1)]);
      }
      expect('}');
      const isList = entries.every(([k], i) => k === i);
      if (isList) return entries.map(([, v]) => v);
      const out: { [key: string]: PhpValue } = Object.create(null);
      for (const [k, v] of entries) out[String(k)] = v;
      return { ...out };
    }
    return fail(`unsupported type "${type}"`);
  };
  const result = read(0);
  if (at !== bytes.length) fail('trailing data');
  return result;
}

/** A meta value as it is kept here: serialised data as JSON of its value, anything else as written. */
export function metaValueFromWxr(value: string): string {
  if (!isSerialized(value)) return value;
  try {
    const parsed = unserialize(value);
    return typeof parsed === 'string' ? parsed : JSON.stringify(parsed);
  } catch {
    return value;
  }
}
