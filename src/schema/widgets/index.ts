// GraphQL of the widget bundle: the registry with each class's field definitions, and a class's
// settings form and preview, from the same definitions the REST routes use.
import { builder } from '../builder.js';
import { authStatus, restError } from '../../errors.js';
import { KINDS, defaultOf, type FieldType, type SelectOption, type WidgetDef, type WidgetFieldDef } from '../../widgets/define.js';
import { WIDGETS } from '../../widgets/registry.js';
import { widgetForm, widgetPreview, type WidgetPreview as Preview } from '../../widgets/service.js';

const constantCase = (s: string) => s.replace(/[A-Z]/g, (c) => `_${c}`).toUpperCase();

const FIELD_TYPE_DESCRIPTIONS: Record<FieldType, string> = {
  text: 'Plain text on one line, stored as written and escaped wherever it is shown.',
  richText: 'HTML, filtered as post content for callers without unfiltered_html.',
  number: 'A number, clamped to the setting\'s bounds; an integer unless its step has decimals.',
  select: 'One of the setting\'s options; any other value is replaced by the default.',
  checkbox: 'On or off.',
  media: 'The id of an attachment of the media library.',
  url: 'A URL, cleaned as WordPress\'s esc_url_raw does (a disallowed scheme such as javascript: empties it).',
  color: 'A hex colour, #rgb or #rrggbb; empty for none.',
  form: 'The id of a contact form of the site.',
};

const FieldTypeEnum = builder.enumType('WidgetFieldType', {
  description: 'What a widget setting holds, and so how it is sanitised and which form control edits it.',
  values: Object.fromEntries((Object.keys(KINDS) as FieldType[]).map((t) => [constantCase(t), { value: t, description: FIELD_TYPE_DESCRIPTIONS[t] }])) as Record<string, { value: FieldType }>,
});

const OptionRef = builder.objectRef<SelectOption>('WidgetFieldOption').implement({
  description: 'One allowed value of a select setting.',
  fields: (t) => ({
    value: t.exposeString('value', { description: 'The value stored.' }),
    label: t.exposeString('label', { description: 'What the form shows.' }),
  }),
});

type NamedField = WidgetFieldDef & { name: string };

const FieldRef = builder.objectRef<NamedField>('WidgetField').implement({
  description: 'A setting of a widget class.',
  fields: (t) => ({
    name: t.exposeString('name', { description: 'Key of the setting in widgetData.' }),
    type: t.field({ type: FieldTypeEnum, description: 'Kind of value.', resolve: (f) => f.type }),
    label: t.exposeString('label', { description: 'Label in the settings form.' }),
    description: t.string({ nullable: true, description: 'Help text in the settings form.', resolve: (f) => f.description ?? null }),
    default: t.field({ type: 'JSON', description: 'The value used when the setting is missing or unusable.', resolve: (f) => defaultOf(f) }),
    options: t.field({ type: [OptionRef], nullable: true, description: 'The allowed values of a select setting; null for other kinds.', resolve: (f) => f.options ?? null }),
    minimum: t.float({ nullable: true, description: 'Smallest value of a number setting.', resolve: (f) => f.minimum ?? null }),
    maximum: t.float({ nullable: true, description: 'Largest value of a number setting.', resolve: (f) => f.maximum ?? null }),
  }),
});

const ClassRef = builder.objectRef<WidgetDef>('WidgetClass').implement({
  description: 'A widget class of the page builder: its settings, from which its form, sanitiser and preview are made.',
  fields: (t) => ({
    name: t.exposeString('name', { description: 'The class name, sent as widgetClass.' }),
    label: t.exposeString('label', { description: 'Human-readable name.' }),
    description: t.exposeString('description', { description: 'What the widget shows.' }),
    fields: t.field({
      type: [FieldRef], description: 'Its settings, in form order.',
      resolve: (w) => Object.entries(w.fields).map(([name, f]) => ({ ...f, name })),
    }),
  }),
});

const PreviewRef = builder.objectRef<Preview>('WidgetPreview').implement({
  description: 'A widget rendered for the front end.',
  fields: (t) => ({
    html: t.exposeString('html', { description: 'Front-end HTML (styles inline) in a wrapper element.' }),
    widgetIcons: t.exposeStringList('widgetIcons', { description: 'Icon-font style handles the HTML needs.' }),
  }),
});


builder.queryFields((t) => ({
  widgetClasses: t.field({
    type: [ClassRef],
    description: 'The widget classes (needs edit_posts, as the form and preview do).',
    resolve: (_root, _args, ctx) => {
      if (!ctx.can('edit_posts')) throw restError('rest_forbidden', 'Insufficient permissions.', authStatus(!!ctx.viewer));
      return [...WIDGETS];
    },
  }),
  widgetForm: t.string({
    description: 'The settings form (HTML) of a widget class, filled with the sanitised widgetData; needs edit_posts.',
    args: {
      widgetClass: t.arg.string({ required: false, description: 'Class name (see widgetClasses).' }),
      widgetData: t.arg({ type: 'JSON', required: false, description: 'Settings: an object; missing means the defaults.' }),
    },
    resolve: (_root, args, ctx) => widgetForm(ctx, args),
  }),
  widgetPreview: t.field({
    type: PreviewRef,
    description: 'The front-end HTML of a widget class with the sanitised widgetData (which must not be empty); needs edit_posts.',
    args: {
      widgetClass: t.arg.string({ required: false, description: 'Class name (see widgetClasses).' }),
      widgetData: t.arg({ type: 'JSON', required: false, description: 'Settings: a non-empty object.' }),
      anchor: t.arg.string({ required: false, description: 'Id of the wrapper element.' }),
    },
    resolve: (_root, args, ctx) => widgetPreview(ctx, args),
  }),
}));
