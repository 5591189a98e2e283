// widgets/v1: the page-builder widget bundle's settings forms and previews. POST only, not
// batchable (the plugin registers them without allow_batch), no item schema (it declares none).
// The bodies come as JSON or as the block editor's form data (`widgetData[title]=…`), which
// the dispatcher's PHP-style parser turns into the same object.
import type { ArgDef, Endpoint, RouteEntry } from '../types.js';

const args: Record<string, ArgDef> = {
  widgetClass: { description: 'Class name of the widget.', type: 'string', pattern: '\\w', required: false },
  widgetData: { description: 'Settings of the widget.', type: 'object', required: false },
};

/** The data as sent: the validator gives {} for an empty form value, and leaves a missing one out. */
const variables = (p: Record<string, unknown>) => ({ widgetClass: p.widgetClass ?? null, widgetData: p.widgetData ?? null });

const forms: Endpoint = {
  methods: ['POST'], permission: 'edit_posts', operation: 'WidgetForm', args,
  async handler(req) {
    const data = await req.run(undefined, variables(req.params));
    return { status: 200, body: data.widgetForm };
  },
};

const previews: Endpoint = {
  methods: ['POST'], permission: 'edit_posts', operation: 'WidgetPreview', args,
  async handler(req) {
    // `anchor` is read as the plugin reads it, from the body, without being a declared argument.
    const anchor = typeof req.params.anchor === 'string' ? req.params.anchor : null;
    const data = await req.run(undefined, { ...variables(req.params), anchor });
    return { status: 200, body: data.widgetPreview };
  },
};

export function widgetRoutes(): RouteEntry[] {
  return [
    { namespace: 'widgets/v1', pattern: '/widgets/v1/widgets/forms', endpoints: [forms] },
    { namespace: 'widgets/v1', pattern: '/widgets/v1/widgets/previews', endpoints: [previews] },
  ];
}
