// A contact form as a page embeds it: the plugin's markup (unit tag `wpcf7-f{form}-p{post}-o{n}`,
// the hidden `_wpcf7*` fields) posting to the form's feedback route as multipart, so it works with
// the plugin's script and, without it, as a plain browser form. Every value taken from the
// template's tags is escaped; the template's own text is the form's HTML (filtered on save for
// authors without unfiltered_html).
import type { Context } from '../context.js';
import { escHtml } from '../content/escape.js';
import { scanTemplate, option, optionAll, hasFlag, isRequired, type FormTag } from './parser.js';
import { loadForm, type ContactFormRecord } from './store.js';
import { pickQuestion } from './quiz.js';
import { fileAccept, lengthLimits } from './rules.js';

/** The plugin version the hidden `_wpcf7_version` field and the schema's `version` name. */
export const FORMS_VERSION = '6.0.3';

export interface RenderOptions {
  /** The post or page the form is embedded in (0: none). */
  containerPost?: number;
  /** The form's position among the forms on that page (1 for the first). */
  ordinal?: number;
}

/** The unit tag of one embedded form: `wpcf7-f12-p34-o1`. */
export const unitTag = (formId: number, containerPost: number, ordinal: number): string => `wpcf7-f${formId}-p${containerPost}-o${ordinal}`;

/** The markup of form `formId`, or null when there is no such form. */
export async function renderContactFormHtml(ctx: Context, formId: number, opts: RenderOptions = {}): Promise<string | null> {
  const form = await loadForm(ctx, formId);
  return form ? renderFormRecord(ctx, form, opts) : null;
}

const attrs = (pairs: Record<string, string | number | boolean | null | undefined>): string =>
  Object.entries(pairs)
    .filter(([, v]) => v !== null && v !== undefined && v !== false)
    .map(([k, v]) => (v === true ? ` ${k}` : ` ${k}="${escHtml(String(v))}"`))
    .join('');

/** Classes of a control: the plugin's plus the tag's `class:` options (sanitised to class characters). */
function classes(tag: FormTag, ...own: string[]): string {
  const extra = optionAll(tag, 'class').map((c) => c.replace(/[^A-Za-z0-9_-]/g, '')).filter(Boolean);
  return ['wpcf7-form-control', ...own, ...(isRequired(tag) ? ['wpcf7-validates-as-required'] : []), ...extra].join(' ');
}

const idOf = (tag: FormTag): string | null => {
  const id = option(tag, 'id');
  return id && /^[A-Za-z][-A-Za-z0-9_:.]*$/.test(id) ? id : null;
};

function wrap(tag: FormTag, inner: string): string {
  return `<span class="wpcf7-form-control-wrap"${attrs({ 'data-name': tag.name })}>${inner}</span>`;
}

const INPUT_TYPE: Record<string, string> = { text: 'text', email: 'email', url: 'url', tel: 'tel', number: 'number', range: 'range', date: 'date' };

function defaultValue(tag: FormTag): string {
  // A value marked as placeholder is shown as one, not filled in.
  if (hasFlag(tag, 'placeholder') || hasFlag(tag, 'watermark')) return '';
  return tag.values[0] ?? '';
}

function renderTag(tag: FormTag, q: { siteKey: string; formHash: string }): string {
  const required = isRequired(tag);
  const common = { id: idOf(tag), 'aria-required': required ? 'true' : null, 'aria-invalid': 'false' };
  const placeholder = hasFlag(tag, 'placeholder') || hasFlag(tag, 'watermark') ? tag.values[0] ?? null : null;
  switch (tag.basetype) {
    case 'text': case 'email': case 'url': case 'tel': case 'number': case 'range': case 'date': {
      const { min, max } = lengthLimits(tag);
      const numeric = tag.basetype === 'number' || tag.basetype === 'range' || tag.basetype === 'date';
      return wrap(tag, `<input${attrs({
        size: numeric ? null : option(tag, 'size') ?? 40,
        maxlength: numeric ? null : max, minlength: numeric ? null : min,
        min: numeric ? option(tag, 'min') : null, max: numeric ? option(tag, 'max') : null, step: numeric ? option(tag, 'step') : null,
        class: classes(tag, `wpcf7-${tag.basetype}`, ...(tag.basetype !== 'text' && !numeric ? [`wpcf7-validates-as-${tag.basetype}`] : [])),
        autocomplete: option(tag, 'autocomplete'), ...common,
        value: defaultValue(tag), type: INPUT_TYPE[tag.basetype], name: tag.name, placeholder,
      })} />`);
    }
    case 'textarea': {
      const { min, max } = lengthLimits(tag);
      const [cols, rows] = (option(tag, 'size') ?? '').split('x');
      const value = tag.content || defaultValue(tag);
      return wrap(tag, `<textarea${attrs({
        cols: Number(cols) || 40, rows: Number(rows) || 10, maxlength: max, minlength: min,
        class: classes(tag, 'wpcf7-textarea'), ...common, name: tag.name, placeholder,
      })}>${escHtml(value)}</textarea>`);
    }
    case 'select': {
      const multiple = hasFlag(tag, 'multiple');
      const blank = hasFlag(tag, 'include_blank') || (!multiple && hasFlag(tag, 'first_as_label'));
      const values = hasFlag(tag, 'first_as_label') ? tag.values.slice(1) : tag.values;
      const first = hasFlag(tag, 'first_as_label') ? tag.values[0] ?? '—' : '&#8212;Please choose an option&#8212;';
      const options = [
        ...(blank ? [`<option value="">${hasFlag(tag, 'first_as_label') ? escHtml(first) : first}</option>`] : []),
        ...values.map((v) => `<option${attrs({ value: v })}>${escHtml(v)}</option>`),
      ];
      return wrap(tag, `<select${attrs({ class: classes(tag, 'wpcf7-select'), ...common, multiple, name: multiple ? `${tag.name}[]` : tag.name })}>${options.join('')}</select>`);
    }
    case 'checkbox': case 'radio': {
      const type = tag.basetype;
      const exclusive = type === 'checkbox' && hasFlag(tag, 'exclusive');
      const labelFirst = hasFlag(tag, 'label_first');
      const useLabel = hasFlag(tag, 'use_label_element');
      const defaults = new Set((option(tag, 'default') ?? '').split('_').map(Number).filter((n) => n > 0));
      const items = tag.values.map((v, i) => {
        const input = `<input${attrs({ type, name: type === 'checkbox' && !exclusive ? `${tag.name}[]` : tag.name, value: v, checked: defaults.has(i + 1) })} />`;
        const label = `<span class="wpcf7-list-item-label">${escHtml(v)}</span>`;
        const inner = labelFirst ? `${label}${input}` : `${input}${label}`;
        const cls = ['wpcf7-list-item', i === 0 ? 'first' : '', i === tag.values.length - 1 ? 'last' : ''].filter(Boolean).join(' ');
        return `<span class="${cls}">${useLabel ? `<label>${inner}</label>` : inner}</span>`;
      });
      return wrap(tag, `<span${attrs({ class: classes(tag, `wpcf7-${type}`, ...(exclusive ? ['wpcf7-exclusive-checkbox'] : [])), ...common })}>${items.join('')}</span>`);
    }
    case 'acceptance': {
      const input = `<input${attrs({ type: 'checkbox', name: tag.name, value: '1', 'aria-invalid': 'false', checked: hasFlag(tag, 'default:on') })} />`;
      const label = tag.content ? `<span class="wpcf7-list-item-label">${escHtml(tag.content)}</span>` : '';
      return wrap(tag, `<span${attrs({ class: classes(tag, 'wpcf7-acceptance', ...(hasFlag(tag, 'optional') ? ['optional'] : [])), id: idOf(tag) })}><span class="wpcf7-list-item"><label>${input}${label}</label></span></span>`);
    }
    case 'file': {
      const accept = fileAccept(tag);
      return wrap(tag, `<input${attrs({ size: 40, class: classes(tag, 'wpcf7-file'), ...common, accept: accept.join(','), type: 'file', name: tag.name })} />`);
    }
    case 'quiz': {
      const picked = pickQuestion(tag, q.siteKey, q.formHash);
      if (!picked) return '';
      return wrap(tag, `<label><span class="wpcf7-quiz-label">${escHtml(picked.question)}</span> <input${attrs({
        size: 40, class: classes(tag, 'wpcf7-quiz'), autocomplete: 'off', 'aria-required': 'true', 'aria-invalid': 'false', id: idOf(tag), type: 'text', name: tag.name,
      })} /></label><input${attrs({ type: 'hidden', name: `_wpcf7_quiz_answer_${tag.name}`, value: picked.hash })} />`);
    }
    case 'hidden':
      return `<input${attrs({ type: 'hidden', name: tag.name, value: tag.values[0] ?? '', id: idOf(tag), class: classes(tag, 'wpcf7-hidden') })} />`;
    case 'submit':
      return `<input${attrs({ class: classes(tag, 'wpcf7-submit', 'has-spinner'), id: idOf(tag), type: 'submit', value: tag.values[0] ?? 'Send' })} />`;
  }
}

/** The markup of a loaded form. */
export async function renderFormRecord(ctx: Context, form: ContactFormRecord, opts: RenderOptions = {}): Promise<string> {
  const site = await ctx.site();
  const services = ctx.services.forms;
  const containerPost = Math.max(0, Math.trunc(opts.containerPost ?? 0));
  const ordinal = Math.max(1, Math.trunc(opts.ordinal ?? 1));
  const tag = unitTag(form.id, containerPost, ordinal);
  const root = services.restRoot ?? `${(site.url || site.home).replace(/\/+$/, '')}/wp-json/`;
  const action = `${root}forms/v1/contact-forms/${form.id}/feedback`;
  const locale = form.locale || 'en_US';
  const q = { siteKey: site.siteKey, formHash: form.hash };
  const body = scanTemplate(form.properties.form).map((p) => ('text' in p ? p.text : renderTag(p.tag, q))).join('');
  const hidden = {
    _wpcf7: form.id, _wpcf7_version: FORMS_VERSION, _wpcf7_locale: locale, _wpcf7_unit_tag: tag,
    _wpcf7_container_post: containerPost, _wpcf7_posted_data_hash: '',
  };
  const hiddenInputs = Object.entries(hidden).map(([name, value]) => `<input${attrs({ type: 'hidden', name, value })} />`).join('\n');
  // The honeypot: hidden from people (and from assistive technology), left empty by them.
  const honeypot = `<span class="wpcf7-form-control-wrap" aria-hidden="true" style="position:absolute;left:-9999px;width:1px;height:1px;overflow:hidden"><input${attrs({ type: 'text', name: services.honeypot, value: '', tabindex: '-1', autocomplete: 'off' })} /></span>`;
  return `<div${attrs({ class: 'wpcf7 no-js', id: tag, lang: locale.replace('_', '-'), dir: 'ltr', 'data-wpcf7-id': form.id })}>
<div class="screen-reader-response"><p role="status" aria-live="polite" aria-atomic="true"></p> <ul></ul></div>
<form${attrs({ action, method: 'post', class: 'wpcf7-form init', 'aria-label': 'Contact form', novalidate: 'novalidate', 'data-status': 'init', enctype: 'multipart/form-data' })}>
<fieldset class="hidden-fields-container">${hiddenInputs}
</fieldset>
${honeypot}
${body}<div class="wpcf7-response-output" aria-hidden="true"></div>
</form>
</div>`;
}
