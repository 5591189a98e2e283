// A widget class is defined once, by its fields; its settings sanitiser, its settings form and
// the GraphQL description of its fields are all derived from that definition here. Its preview
// renderer receives the sanitised settings only. Each field type is described once, in KINDS.
import type { Context } from '../context.js';
import { filterPostHtml, hasAllowedScheme } from '../content/kses.js';
import { el, esc, voidEl } from './html.js';

export type FieldType = 'text' | 'richText' | 'number' | 'select' | 'checkbox' | 'media' | 'url' | 'color' | 'form';
export type SettingValue = string | number | boolean;
export type Settings = Record<string, SettingValue>;

export interface SelectOption { value: string; label: string }

export interface WidgetFieldDef {
  type: FieldType;
  label: string;
  description?: string;
  /** The value when the setting is missing or unusable; the type's own empty value when not given. */
  default?: SettingValue;
  /** select: the allowed values, in display order. */
  options?: SelectOption[];
  /** number: bounds (values outside are clamped) and step (integers unless it has decimals). */
  minimum?: number;
  maximum?: number;
  step?: number;
}

/** The TypeScript type of a field's sanitised value. */
type ValueOf<F extends WidgetFieldDef> = F['type'] extends 'number' | 'media' | 'form' ? number : F['type'] extends 'checkbox' ? boolean : string;
export type SettingsOf<F extends Record<string, WidgetFieldDef>> = { [K in keyof F]: ValueOf<F[K]> };

export interface RenderContext {
  ctx: Context;
  /** Icon-font style handles the rendered HTML needs (the preview's `widgetIcons`). */
  useIcons(handle: string): void;
}

/** A widget class as written: its render sees its own settings' types. */
export interface WidgetSpec<F extends Record<string, WidgetFieldDef>> {
  /** The class name clients send as `widgetClass`. */
  name: string;
  label: string;
  description: string;
  fields: F;
  /** Front-end HTML of the widget body (styles inline) from its sanitised settings. */
  render(settings: SettingsOf<F>, r: RenderContext): string | Promise<string>;
}

/** A widget class in the registry. */
export interface WidgetDef extends Omit<WidgetSpec<Record<string, WidgetFieldDef>>, 'render'> {
  render(settings: Settings, r: RenderContext): string | Promise<string>;
}

export interface SanitizeOptions {
  /** The caller may post unfiltered HTML (unfiltered_html): rich text is kept as sent. */
  unfiltered: boolean;
}

interface FieldKind {
  /** The value of a field of this type with no default. */
  empty: SettingValue;
  /** The sanitised value, or undefined when the input is unusable (the default is taken). */
  sanitize(value: unknown, field: WidgetFieldDef, o: SanitizeOptions): SettingValue | undefined;
  /** The form control, named `widgetData[<field>]` so that the form posts back as the routes read it. */
  control(c: { id: string; name: string; value: SettingValue; field: WidgetFieldDef; choices?: SelectOption[] }): string;
  /** Values to choose from that live in the database (the contact forms), read once per form. */
  choices?(ctx: Context): Promise<SelectOption[]>;
}

/** A scalar as PHP's strval() gives it; arrays and objects are unusable. */
function scalarText(value: unknown): string | undefined {
  if (typeof value === 'string') return value;
  if (typeof value === 'number' && Number.isFinite(value)) return String(value);
  if (typeof value === 'boolean') return value ? '1' : '';
  return undefined;
}

/** A non-negative integer id (media, form); anything else is unusable. */
function idOf(value: unknown): number | undefined {
  const text = scalarText(value)?.trim();
  if (text === undefined) return undefined;
  if (text === '') return 0;
  return /^\d{1,9}$/.test(text) ? Number(text) : undefined;
}

const CONTROL_CHARS = /[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f]/g; // eslint-disable-line no-control-regex

const input = (type: string): FieldKind['control'] =>
  ({ id, name, value }) => voidEl('input', { type, id, name, value: String(value), class: 'widefat' });

const idKind = (cls: string): FieldKind => ({
  empty: 0,
  sanitize: (v) => idOf(v),
  control: ({ id, name, value }) => voidEl('input', { type: 'number', id, name, value: String(value), min: 0, step: 1, class: cls }),
});

const formIdInput = idKind('widget-form-id');

export const KINDS: Record<FieldType, FieldKind> = {
  // Plain text on one line: stored as written (tags and all), escaped wherever it is shown.
  text: {
    empty: '',
    sanitize: (v) => scalarText(v)?.replace(CONTROL_CHARS, '').replace(/[\r\n\t]+/g, ' '),
    control: input('text'),
  },
  // HTML filtered as post content for callers without unfiltered_html, as WordPress's kses does on save.
  richText: {
    empty: '',
    sanitize: (v, _f, o) => {
      const text = scalarText(v);
      if (text === undefined) return undefined;
      return o.unfiltered ? text : filterPostHtml(text.replace(/\u0000/g, ''));
    },
    control: ({ id, name, value }) => el('textarea', { id, name, rows: 8, class: 'widefat widget-rich-text' }, esc(value)),
  },
  number: {
    empty: 0,
    sanitize: (v, f) => {
      const text = scalarText(v)?.trim();
      if (!text) return undefined;
      let n = Number(text);
      if (!Number.isFinite(n)) return undefined;
      if (Number.isInteger(f.step ?? 1)) n = Math.round(n);
      if (f.minimum !== undefined) n = Math.max(f.minimum, n);
      if (f.maximum !== undefined) n = Math.min(f.maximum, n);
      return n;
    },
    control: ({ id, name, value, field }) =>
      voidEl('input', { type: 'number', id, name, value: String(value), min: field.minimum, max: field.maximum, step: field.step ?? 1, class: 'small-text' }),
  },
  // A value outside the options is replaced by the default.
  select: {
    empty: '',
    sanitize: (v, f) => {
      const text = scalarText(v);
      return text !== undefined && f.options?.some((o) => o.value === text) ? text : undefined;
    },
    control: ({ id, name, value, field }) => el('select', { id, name }, (field.options ?? [])
      .map((o) => el('option', { value: o.value, selected: o.value === value }, esc(o.label))).join('')),
  },
  // The form sends a hidden 0 before the box, so that an unticked box posts a value too (the later one wins).
  checkbox: {
    empty: false,
    sanitize: (v) => {
      const text = scalarText(v)?.trim().toLowerCase();
      if (text === undefined) return undefined;
      if (['1', 'true', 'on', 'yes'].includes(text)) return true;
      if (['', '0', 'false', 'off', 'no'].includes(text)) return false;
      return undefined;
    },
    control: ({ id, name, value }) =>
      voidEl('input', { type: 'hidden', name, value: '0' }) + voidEl('input', { type: 'checkbox', id, name, value: '1', checked: value === true }),
  },
  media: idKind('widget-media-id'),
  // esc_url_raw's rule: blanks encoded, control characters dropped, a disallowed scheme (javascript:, data:) empties it.
  url: {
    empty: '',
    sanitize: (v) => {
      const text = scalarText(v);
      if (text === undefined) return undefined;
      const url = text.trim().replace(CONTROL_CHARS, '').replace(/[\r\n\t]/g, '').replace(/ /g, '%20');
      return hasAllowedScheme(url) ? url : '';
    },
    control: input('url'),
  },
  // sanitize_hex_color: #rgb or #rrggbb, or empty for none.
  color: {
    empty: '',
    sanitize: (v) => {
      const text = scalarText(v)?.trim();
      if (text === undefined) return undefined;
      if (text === '') return '';
      return /^#(?:[0-9a-f]{3}){1,2}$/i.test(text) ? text.toLowerCase() : undefined;
    },
    control: ({ id, name, value, field }) =>
      voidEl('input', { type: 'text', id, name, value: String(value), class: 'widget-color', pattern: '#([0-9a-fA-F]{3}){1,2}', 'data-default-color': field.default === undefined ? undefined : String(field.default) }),
  },
  // A forms/v1 contact form id, chosen among the site's forms (a form since deleted stays listed by its id).
  form: {
    ...formIdInput,
    choices: async (ctx) => (await ctx.prisma.contactForm.findMany({ select: { id: true, title: true }, orderBy: { id: 'asc' }, take: 500 }))
      .map((f) => ({ value: String(f.id), label: f.title || `#${f.id}` })),
    control: (c) => {
      if (!c.choices) return formIdInput.control(c);
      const { id, name, value, choices } = c;
      const current = String(value);
      const list = [{ value: '0', label: '— Select a form —' }, ...choices];
      if (!list.some((o) => o.value === current)) list.push({ value: current, label: `#${current}` });
      return el('select', { id, name, class: 'widget-form-id' }, list.map((o) => el('option', { value: o.value, selected: o.value === current }, esc(o.label))).join(''));
    },
  },
};

export function defineWidget<const F extends Record<string, WidgetFieldDef>>(def: WidgetSpec<F>): WidgetDef {
  for (const [name, field] of Object.entries(def.fields)) {
    if (field.type === 'select' && !field.options?.length) throw new Error(`widget ${def.name}: select field ${name} has no options`);
    if (field.type === 'select' && field.default !== undefined && !field.options!.some((o) => o.value === field.default)) {
      throw new Error(`widget ${def.name}: the default of ${name} is not one of its options`);
    }
  }
  return def as unknown as WidgetDef;
}

/** A field's default: its own, else the first option of a select, else its type's empty value. */
export function defaultOf(field: WidgetFieldDef): SettingValue {
  if (field.default !== undefined) return field.default;
  if (field.type === 'select') return field.options![0].value;
  return KINDS[field.type].empty;
}

/**
 * The widget's update step: every defined field from the data (coerced, filtered), its default
 * when missing or unusable; keys the widget does not define are dropped.
 */
export function sanitizeSettings(def: WidgetDef, data: Record<string, unknown>, o: SanitizeOptions): Settings {
  const out: Settings = {};
  for (const [name, field] of Object.entries(def.fields)) {
    const raw = Object.hasOwn(data, name) ? data[name] : undefined;
    const value = raw === undefined || raw === null ? undefined : KINDS[field.type].sanitize(raw, field, o);
    out[name] = value === undefined ? defaultOf(field) : value;
  }
  return out;
}

/** `Heading_Widget` → `heading-widget`, for ids and class names. */
export const widgetSlug = (name: string) => name.toLowerCase().replace(/[^a-z0-9]+/g, '-').replace(/^-|-$/g, '');

/**
 * The settings form: one labelled control per field, filled with the given (sanitised) settings.
 * Without a context, fields whose choices live in the database get a plain input.
 */
export async function renderForm(def: WidgetDef, settings: Settings, ctx?: Context): Promise<string> {
  const slug = widgetSlug(def.name);
  const choices = new Map<FieldType, SelectOption[]>();
  if (ctx) {
    for (const type of new Set(Object.values(def.fields).map((f) => f.type))) {
      const kind = KINDS[type];
      if (kind.choices) choices.set(type, await kind.choices(ctx));
    }
  }
  const rows = Object.entries(def.fields).map(([name, field]) => {
    const id = `widget-${slug}-${widgetSlug(name)}`;
    const control = KINDS[field.type].control({ id, name: `widgetData[${name}]`, value: settings[name], field, choices: choices.get(field.type) });
    const label = el('label', { for: id }, esc(field.label));
    const help = field.description ? el('span', { class: 'description' }, esc(field.description)) : '';
    return el('div', { class: `widget-field widget-field-${field.type.replace(/[A-Z]/g, (c) => `-${c.toLowerCase()}`)}`, 'data-field': name }, label + control + help);
  });
  return el('div', { class: `widget-form widget-form-${slug}`, 'data-widget-class': def.name }, rows.join(''));
}
