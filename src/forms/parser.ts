// The one reader of a contact form's template: `[type name option… "value"…]` and the enclosing
// `[type name …]content[/type]` tags, as the contact-form plugin scans them. Every consumer (the
// record's `properties.form.fields`, the rules, the validator, the HTML, mail tags) starts here.

/** The tag types this service knows; other bracketed text (`[your-name]` in a mail body) is not a tag. */
export const TAG_TYPES = [
  'text', 'email', 'url', 'tel', 'number', 'range', 'date', 'textarea', 'select', 'checkbox', 'radio',
  'acceptance', 'file', 'quiz', 'hidden', 'submit',
] as const;
export type BaseType = (typeof TAG_TYPES)[number];

/** Types whose first word is the field's name (submit has none). */
const NAMELESS = new Set<BaseType>(['submit']);

export interface FormTag {
  /** As written: `text*` for a required text field. */
  type: string;
  basetype: BaseType;
  name: string;
  /** Unquoted words after the name, as written (`id:contact-email`, `min:3`). */
  options: string[];
  /** Quoted values as written (`Label|value` kept whole). */
  raw_values: string[];
  labels: string[];
  /** The part before a pipe (what the visitor sees and posts). */
  values: string[];
  /** `[[before, after], …]`: the visitor's choice and what the mail uses instead; [] without values. */
  pipes: [string, string][];
  /** Text between an enclosing pair (acceptance), trimmed; '' otherwise. */
  content: string;
}

/** One piece of a template: text, or a tag (with its position in the list of tags). */
export type Piece = { text: string } | { tag: FormTag; index: number };

const TYPE_ALT = TAG_TYPES.join('|');
// An opening tag: `[[…]]` stays text (the outer pair is dropped); `type*` marks required; quoted
// values may hold `]`.
const TAG_RE = new RegExp(`(\\[?)\\[(${TYPE_ALT})(\\*?)(?=[\\s\\]/])((?:[^\\]"']|"[^"]*"|'[^']*')*?)\\s*\\/?\\](\\]?)`, 'g');
/** Types that may enclose content up to `[/type]`. */
const ENCLOSING = new Set<BaseType>(['acceptance']);

const NAME_RE = /^[A-Za-z][-A-Za-z0-9_:.]*$/;

function words(attrs: string): { options: string[]; values: string[] } {
  const options: string[] = [];
  const values: string[] = [];
  const re = /"([^"]*)"|'([^']*)'|(\S+)/g;
  for (const m of attrs.matchAll(re)) {
    if (m[1] !== undefined) values.push(m[1]);
    else if (m[2] !== undefined) values.push(m[2]);
    else options.push(m[3]);
  }
  return { options, values };
}

function pipeOf(raw: string): [string, string] {
  const at = raw.indexOf('|');
  return at < 0 ? [raw, raw] : [raw.slice(0, at), raw.slice(at + 1)];
}

/** Splits a template into text and tags, in order. */
export function scanTemplate(template: string): Piece[] {
  const pieces: Piece[] = [];
  let last = 0;
  let index = 0;
  const re = new RegExp(TAG_RE.source, 'g');
  for (let m = re.exec(template); m; m = re.exec(template)) {
    const [whole, open, type, star, attrs, close] = m;
    const basetype = type as BaseType;
    if (m.index > last) pieces.push({ text: template.slice(last, m.index) });
    let end = m.index + whole.length;
    if (open === '[' && close === ']') {
      pieces.push({ text: whole.slice(1, -1) });
      last = end;
      continue;
    }
    // A `[` before the tag that is not part of an escape is plain text.
    if (open === '[') pieces.push({ text: '[' });
    if (close === ']') end -= 1;
    let content = '';
    if (ENCLOSING.has(basetype)) {
      const closing = template.indexOf(`[/${type}]`, end);
      const nextOpen = template.slice(end).search(new RegExp(`\\[${type}[\\s*\\]]`));
      if (closing >= 0 && (nextOpen < 0 || end + nextOpen > closing)) {
        content = template.slice(end, closing).trim();
        end = closing + type.length + 3;
      }
    }
    const { options, values } = words(attrs ?? '');
    let name = '';
    if (!NAMELESS.has(basetype) && options.length && NAME_RE.test(options[0])) name = options.shift()!;
    const pipes = values.map(pipeOf);
    const befores = pipes.map((p) => p[0]);
    pieces.push({
      tag: {
        type: basetype + star, basetype, name, options, raw_values: values, labels: befores, values: befores,
        pipes: values.length ? pipes : [], content,
      },
      index: index++,
    });
    last = end;
    re.lastIndex = end;
  }
  if (last < template.length) pieces.push({ text: template.slice(last) });
  return pieces;
}

/** The template's tags, in order. */
export function parseTemplate(template: string): FormTag[] {
  return scanTemplate(template).flatMap((p) => ('tag' in p ? [p.tag] : []));
}

export const isRequired = (tag: FormTag): boolean => tag.type.endsWith('*');

/** The value of `key:value` options (`id`, `min`, `maxlength` …), the first one given. */
export function option(tag: FormTag, key: string): string | undefined {
  const prefix = `${key}:`;
  return tag.options.find((o) => o.startsWith(prefix))?.slice(prefix.length);
}

/** Every value of a repeatable option (`class:a class:b`). */
export function optionAll(tag: FormTag, key: string): string[] {
  const prefix = `${key}:`;
  return tag.options.filter((o) => o.startsWith(prefix)).map((o) => o.slice(prefix.length));
}

export const hasFlag = (tag: FormTag, flag: string): boolean => tag.options.includes(flag);

/** A field's name on the wire of the feedback answer: dots become underscores. */
export const fieldKey = (name: string): string => name.replace(/\./g, '_');
