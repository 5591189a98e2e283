// A link styled as a button, with an optional icon from the Dashicons font.
import { defineWidget } from './define.js';
import { el, esc, style } from './html.js';
import { ALIGN_OPTIONS } from './heading.js';

const STYLES: Record<string, Record<string, string>> = {
  primary: { background: '#2271b1', color: '#ffffff', border: '2px solid #2271b1' },
  secondary: { background: '#f6f7f7', color: '#2271b1', border: '2px solid #2271b1' },
  outline: { background: 'transparent', color: '#2271b1', border: '2px solid currentColor' },
};

export const ButtonWidget = defineWidget({
  name: 'Button_Widget',
  label: 'Button',
  description: 'A link shown as a button.',
  fields: {
    text: { type: 'text', label: 'Button text', default: 'Click me' },
    url: { type: 'url', label: 'Destination URL', default: '' },
    new_window: { type: 'checkbox', label: 'Open in a new window', default: false },
    style: { type: 'select', label: 'Style', default: 'primary', options: [{ value: 'primary', label: 'Primary' }, { value: 'secondary', label: 'Secondary' }, { value: 'outline', label: 'Outline' }] },
    align: { type: 'select', label: 'Alignment', default: 'left', options: ALIGN_OPTIONS },
    icon: {
      type: 'select', label: 'Icon', default: '',
      options: [{ value: '', label: 'None' }, { value: 'arrow-right-alt', label: 'Arrow' }, { value: 'download', label: 'Download' }, { value: 'external', label: 'External link' }, { value: 'email', label: 'Email' }],
    },
  },
  render: (s, r) => {
    let icon = '';
    if (s.icon) {
      r.useIcons('dashicons');
      icon = el('span', { class: `dashicons dashicons-${s.icon}`, 'aria-hidden': 'true', style: style({ 'margin-right': '.4em', 'vertical-align': 'middle' }) });
    }
    const look = style({
      display: 'inline-block', padding: '.6em 1.2em', 'border-radius': '4px', 'text-decoration': 'none', 'font-weight': '600', 'line-height': '1.4',
      ...STYLES[s.style],
    });
    const link = el('a', {
      class: `widget-button widget-button-${s.style}`,
      href: s.url || undefined,
      target: s.new_window ? '_blank' : undefined,
      rel: s.new_window ? 'noopener noreferrer' : undefined,
      style: look,
    }, icon + esc(s.text));
    return el('div', { class: 'widget-button-wrapper', style: style({ 'text-align': s.align }) }, link);
  },
});
