// A contact form of forms/v1, embedded by its id; the form's markup is the forms code's own
// (the same a page embedding the form shows).
import { renderContactFormHtml } from '../forms/html.js';
import { defineWidget } from './define.js';
import { el, esc, style } from './html.js';

const notice = (text: string) => el('p', { class: 'widget-contact-form-notice', style: style({ color: '#757575', 'font-style': 'italic' }) }, esc(text));

export const ContactFormWidget = defineWidget({
  name: 'Contact_Form_Widget',
  label: 'Contact form',
  description: 'A contact form of the site, chosen by its id.',
  fields: {
    title: { type: 'text', label: 'Title', default: '' },
    form: { type: 'form', label: 'Contact form', description: 'Id of the contact form.', default: 0 },
  },
  render: async (s, r) => {
    const title = s.title ? el('h3', { class: 'widget-title', style: style({ margin: '0 0 .5em' }) }, esc(s.title)) : '';
    if (!s.form) return title + notice('No contact form selected.');
    const form = await renderContactFormHtml(r.ctx, s.form);
    return title + (form ?? notice(`Contact form ${s.form} was not found.`));
  },
});
