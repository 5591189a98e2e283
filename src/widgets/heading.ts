// A heading: one line of text at a chosen level, aligned and optionally coloured.
import { defineWidget } from './define.js';
import { el, esc, style } from './html.js';

export const ALIGN_OPTIONS = [
  { value: 'left', label: 'Left' },
  { value: 'center', label: 'Center' },
  { value: 'right', label: 'Right' },
];

export const HeadingWidget = defineWidget({
  name: 'Heading_Widget',
  label: 'Heading',
  description: 'A heading of level 1 to 6.',
  fields: {
    text: { type: 'text', label: 'Text', default: '' },
    level: { type: 'select', label: 'Level', default: 'h2', options: [1, 2, 3, 4, 5, 6].map((n) => ({ value: `h${n}`, label: `H${n}` })) },
    align: { type: 'select', label: 'Alignment', default: 'left', options: [...ALIGN_OPTIONS, { value: 'justify', label: 'Justify' }] },
    color: { type: 'color', label: 'Color', description: 'Leave empty for the theme\'s heading color.', default: '' },
    font_size: { type: 'number', label: 'Font size (px)', description: '0 for the theme\'s size.', default: 0, minimum: 0, maximum: 200 },
  },
  render: (s) => el(s.level, {
    class: 'widget-heading-text',
    style: style({ 'text-align': s.align, color: s.color, 'font-size': s.font_size ? `${s.font_size}px` : '', margin: '0' }),
  }, esc(s.text)),
});
