// The widget bundle's two operations: a class's settings form and its front-end preview, both
// from the sanitised settings. Checks run in the REST server's order: arguments first (the
// gateway's validator does the same before any of this runs), then the edit_posts right, then
// the class, then (previews) the data.
import type { Context } from '../context.js';
import { authStatus, invalidParam, restError } from '../errors.js';
import { renderForm, sanitizeSettings, widgetSlug, type RenderContext, type Settings, type WidgetDef } from './define.js';
import { widgetClass } from './registry.js';
import { el } from './html.js';

export interface WidgetRequest {
  widgetClass?: string | null;
  widgetData?: unknown;
}

/** The argument rules the REST route declares (a word character; an object), for GraphQL callers. */
function checkArgs(a: WidgetRequest): Record<string, unknown> | undefined {
  if (a.widgetClass != null && !/\w/.test(a.widgetClass)) {
    invalidParam('widgetClass', 'rest_invalid_pattern', 'widgetClass does not match pattern \\w.');
  }
  const data = a.widgetData;
  if (data === undefined || data === null) return undefined;
  // A PHP array is an object to WordPress's validator: a list's indexes become (unknown) keys.
  if (Array.isArray(data)) return Object.fromEntries(data.map((v, i) => [String(i), v]));
  if (typeof data === 'object') return data as Record<string, unknown>;
  if (data === '') return {};
  return invalidParam('widgetData', 'rest_invalid_type', 'widgetData is not of type object.');
}

function resolveClass(ctx: Context, a: WidgetRequest): { def: WidgetDef; data: Record<string, unknown> | undefined } {
  const data = checkArgs(a);
  if (!ctx.can('edit_posts')) throw restError('rest_forbidden', 'Insufficient permissions.', authStatus(!!ctx.viewer));
  const name = a.widgetClass ?? '';
  const def = widgetClass(name);
  if (!def) throw restError('rest_invalid_widget_class', `Invalid or missing widget class: ${name}`, 400);
  return { def, data };
}

const settingsOf = (ctx: Context, def: WidgetDef, data: Record<string, unknown> | undefined): Settings =>
  sanitizeSettings(def, data ?? {}, { unfiltered: ctx.can('unfiltered_html') });

/** The settings form of a class, filled with the sanitised data (missing data: the defaults). */
export function widgetForm(ctx: Context, a: WidgetRequest): Promise<string> {
  const { def, data } = resolveClass(ctx, a);
  return renderForm(def, settingsOf(ctx, def, data), ctx);
}

export interface WidgetPreview { html: string; widgetIcons: string[] }

/** The front-end HTML of a class with the sanitised data, in a wrapper that carries `anchor` as its id. */
export async function widgetPreview(ctx: Context, a: WidgetRequest & { anchor?: string | null }): Promise<WidgetPreview> {
  const { def, data } = resolveClass(ctx, a);
  if (!data || !Object.keys(data).length) throw restError('rest_invalid_widget_data', 'Unable to render preview. Invalid or missing widget data.', 400);
  const icons = new Set<string>();
  const r: RenderContext = { ctx, useIcons: (handle) => void icons.add(handle) };
  const body = await def.render(settingsOf(ctx, def, data), r);
  // An HTML id has no blanks; the rest is escaped as any attribute.
  const id = typeof a.anchor === 'string' && a.anchor.trim() ? a.anchor.trim().replace(/\s+/g, '-') : undefined;
  const html = el('div', { class: `widget widget-${widgetSlug(def.name)}`, id }, body);
  return { html, widgetIcons: [...icons] };
}
