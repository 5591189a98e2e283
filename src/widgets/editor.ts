// Rich text with an optional title: the page builder's text/editor widget.
import { autop } from '../content/render.js';
import { defineWidget } from './define.js';
import { el, esc, style } from './html.js';

export const EditorWidget = defineWidget({
  name: 'Editor_Widget',
  label: 'Editor',
  description: 'A title and rich text.',
  fields: {
    title: { type: 'text', label: 'Title', default: '' },
    text: { type: 'richText', label: 'Text', description: 'HTML; filtered as post content for users who may not post unfiltered HTML.', default: '' },
    autop: { type: 'checkbox', label: 'Automatically add paragraphs', default: true },
  },
  render: (s) =>
    (s.title ? el('h3', { class: 'widget-title', style: style({ margin: '0 0 .5em' }) }, esc(s.title)) : '') +
    el('div', { class: 'widget-text' }, s.autop ? autop(s.text) : s.text),
});
