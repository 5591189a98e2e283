// Widget classes without a database: the sanitiser, the settings form and the preview body each
// derives from a class's field definitions, per field type and per class.
import { describe, expect, it } from 'vitest';
import type { Context } from '../../src/context.js';
import { KINDS, defineWidget, defaultOf, renderForm, sanitizeSettings, type RenderContext, type WidgetDef } from '../../src/widgets/define.js';
import { WIDGETS, widgetClass } from '../../src/widgets/registry.js';
import { attrs, esc, style } from '../../src/widgets/html.js';

const filtered = { unfiltered: false };
const unfiltered = { unfiltered: true };
const cls = (name: string): WidgetDef => widgetClass(name)!;

/** A render context whose database is never reached (none of these settings name a record). */
function renderContext(): RenderContext & { icons: string[] } {
  const icons: string[] = [];
  return { ctx: { can: () => false } as unknown as Context, useIcons: (h) => void icons.push(h), icons };
}
const render = async (name: string, data: Record<string, unknown>, o = filtered) => {
  const r = renderContext();
  const html = await cls(name).render(sanitizeSettings(cls(name), data, o), r);
  return { html, icons: r.icons };
};

describe('registry', () => {
  it('offers the five classes, each field with a label and a type the kinds know', () => {
    expect(WIDGETS.map((w) => w.name)).toEqual(['Heading_Widget', 'Editor_Widget', 'Image_Widget', 'Button_Widget', 'Contact_Form_Widget']);
    for (const w of WIDGETS) {
      for (const [name, f] of Object.entries(w.fields)) {
        expect(f.label, `${w.name}.${name}`).toBeTruthy();
        expect(KINDS[f.type], `${w.name}.${name}`).toBeDefined();
      }
    }
    expect(widgetClass('heading_widget')).toBeUndefined(); // exact names, as the plugin's registry keys
  });

  it('refuses a select without options or with a default outside them', () => {
    const base = { name: 'X', label: 'X', description: '', render: () => '' };
    expect(() => defineWidget({ ...base, fields: { a: { type: 'select', label: 'A' } } })).toThrow(/no options/);
    expect(() => defineWidget({ ...base, fields: { a: { type: 'select', label: 'A', default: 'z', options: [{ value: 'y', label: 'Y' }] } } })).toThrow(/not one of its options/);
  });
});

describe('sanitising', () => {
  const heading = cls('Heading_Widget');

  it('drops unknown keys and fills missing ones with their defaults', () => {
    expect(sanitizeSettings(heading, { text: 'Hi', junk: 'x', __proto__: { polluted: 1 } }, filtered))
      .toEqual({ text: 'Hi', level: 'h2', align: 'left', color: '', font_size: 0 });
  });

  it('coerces numbers (rounded to the step, clamped to the bounds) and takes the default for non-numbers', () => {
    const size = (v: unknown) => sanitizeSettings(heading, { font_size: v }, filtered).font_size;
    expect(size('24')).toBe(24);
    expect(size(' 12.6 ')).toBe(13);
    expect(size(500)).toBe(200);
    expect(size('-3')).toBe(0);
    expect(size('abc')).toBe(0);
    expect(size('')).toBe(0);
    expect(size({ a: 1 })).toBe(0);
    expect(size(['1'])).toBe(0);
  });

  it('replaces select values outside the options by the default', () => {
    expect(sanitizeSettings(heading, { level: 'h9', align: 'middle' }, filtered)).toMatchObject({ level: 'h2', align: 'left' });
    expect(sanitizeSettings(heading, { level: 'h4', align: 'center' }, filtered)).toMatchObject({ level: 'h4', align: 'center' });
    expect(sanitizeSettings(heading, { level: 'H4' }, filtered).level).toBe('h2');
  });

  it('reads checkboxes as HTML forms and PHP send them', () => {
    const editor = cls('Editor_Widget');
    const autop = (v: unknown) => sanitizeSettings(editor, { autop: v }, filtered).autop;
    for (const on of [true, 1, '1', 'on', 'true', 'yes']) expect(autop(on), String(on)).toBe(true);
    for (const off of [false, 0, '0', '', 'off', 'false', 'no']) expect(autop(off), String(off)).toBe(false);
    expect(autop('maybe')).toBe(true); // unusable: the default
  });

  it('keeps text as written (it is escaped where shown), on one line, without control characters', () => {
    expect(sanitizeSettings(heading, { text: 'a <b>bold</b>\r\nline\u0007' }, filtered).text).toBe('a <b>bold</b> line');
    expect(sanitizeSettings(heading, { text: 42 }, filtered).text).toBe('42');
    expect(sanitizeSettings(heading, { text: { a: 1 } }, filtered).text).toBe('');
  });

  it('accepts hex colours only', () => {
    const color = (v: unknown) => sanitizeSettings(heading, { color: v }, filtered).color;
    expect(color('#ABC')).toBe('#abc');
    expect(color('#a1b2c3')).toBe('#a1b2c3');
    expect(color('red')).toBe('');
    expect(color('#12345')).toBe('');
    expect(color('#fff;background:url(x)')).toBe('');
  });

  it('empties URLs with a scheme kses refuses, however it is spelled, and keeps the others', () => {
    const button = cls('Button_Widget');
    const url = (v: string) => sanitizeSettings(button, { url: v }, filtered).url;
    for (const bad of ['javascript:alert(1)', 'JaVaScRiPt:alert(1)', ' java\tscript:alert(1)', '&#106;avascript:alert(1)', 'data:text/html,<script>x</script>', 'vbscript:x']) {
      expect(url(bad), bad).toBe('');
    }
    expect(url(' https://example.com/a b ')).toBe('https://example.com/a%20b');
    expect(url('/relative?x=1#y')).toBe('/relative?x=1#y');
    expect(url('mailto:me@example.com')).toBe('mailto:me@example.com');
  });

  it('reads ids as non-negative integers', () => {
    const image = cls('Image_Widget');
    const id = (v: unknown) => sanitizeSettings(image, { image: v }, filtered).image;
    expect(id('12')).toBe(12);
    expect(id(7)).toBe(7);
    expect(id('-1')).toBe(0);
    expect(id('1.5')).toBe(0);
    expect(id('x')).toBe(0);
  });

  it('filters rich text as post content for callers without unfiltered_html, and keeps it for the others', () => {
    const editor = cls('Editor_Widget');
    const html = '<p onclick="x()">Hi <strong>there</strong></p><script>alert(1)</script><img src="a.png" onerror="alert(2)"><a href="javascript:alert(3)">l</a>';
    const text = sanitizeSettings(editor, { text: html }, filtered).text as string;
    expect(text).not.toMatch(/<script|onclick|onerror|javascript:/i);
    expect(text).toContain('<strong>there</strong>');
    // As wp_kses_post(): the handler is removed, the tag not re-serialised (no slash added).
    expect(text).toContain('<img src="a.png"><a href="alert(3)">l</a>');
    expect(sanitizeSettings(editor, { text: html }, unfiltered).text).toBe(html);
  });

  it('gives each field its default, or the first option, or its type\'s empty value', () => {
    expect(defaultOf({ type: 'select', label: 'x', options: [{ value: 'a', label: 'A' }, { value: 'b', label: 'B' }] })).toBe('a');
    expect(defaultOf({ type: 'number', label: 'x' })).toBe(0);
    expect(defaultOf({ type: 'checkbox', label: 'x' })).toBe(false);
    expect(defaultOf({ type: 'text', label: 'x', default: 'd' })).toBe('d');
  });
});

describe('settings forms', () => {
  const form = (name: string, data: Record<string, unknown> = {}) => renderForm(cls(name), sanitizeSettings(cls(name), data, filtered));

  it('heading: a text input, selects with the chosen option, a colour and a number', async () => {
    const html = await form('Heading_Widget', { text: 'Say "hi" & <bye>', level: 'h3', font_size: '18', color: '#333' });
    expect(html.startsWith('<div class="widget-form widget-form-heading-widget" data-widget-class="Heading_Widget">')).toBe(true);
    expect(html).toContain('<label for="widget-heading-widget-text">Text</label><input type="text" id="widget-heading-widget-text" name="widgetData[text]" value="Say &quot;hi&quot; &amp; &lt;bye&gt;" class="widefat" />');
    expect(html).toContain('<option value="h3" selected="selected">H3</option>');
    expect(html.match(/selected="selected"/g)).toHaveLength(2); // level and alignment
    expect(html).toContain('<input type="number" id="widget-heading-widget-font-size" name="widgetData[font_size]" value="18" min="0" max="200" step="1" class="small-text" />');
    expect(html).toContain('name="widgetData[color]" value="#333" class="widget-color"');
  });

  it('editor: the rich text in a textarea, escaped once more (entities too), and a checkbox with its hidden 0', async () => {
    const html = await form('Editor_Widget', { title: 'T', text: '<p>a &amp; b</p>', autop: '0' });
    expect(html).toContain('<textarea id="widget-editor-widget-text" name="widgetData[text]" rows="8" class="widefat widget-rich-text">&lt;p&gt;a &amp;amp; b&lt;/p&gt;</textarea>');
    expect(html).toContain('<input type="hidden" name="widgetData[autop]" value="0" /><input type="checkbox" id="widget-editor-widget-autop" name="widgetData[autop]" value="1" />');
    expect(await form('Editor_Widget')).toContain('value="1" checked="checked" />'); // default on
  });

  it('image: a media id, URLs, size select and texts', async () => {
    const html = await form('Image_Widget', { image: '5', link: 'https://example.com/', caption: 'A <caption>' });
    expect(html).toContain('<input type="number" id="widget-image-widget-image" name="widgetData[image]" value="5" min="0" step="1" class="widget-media-id" />');
    expect(html).toContain('<input type="url" id="widget-image-widget-link" name="widgetData[link]" value="https://example.com/" class="widefat" />');
    expect(html).toContain('<option value="full" selected="selected">Full size</option>');
    expect(html).toContain('value="A &lt;caption&gt;"');
  });

  it('button and contact form (without a database: a plain id input): every field has its labelled control', async () => {
    const button = await form('Button_Widget', { url: 'javascript:alert(1)', style: 'outline' });
    expect(button).toContain('name="widgetData[url]" value=""');
    expect(button).toContain('<option value="outline" selected="selected">Outline</option>');
    for (const f of Object.keys(cls('Button_Widget').fields)) expect(button).toContain(`name="widgetData[${f}]"`);
    const contact = await form('Contact_Form_Widget', { form: 9 });
    expect(contact).toContain('<input type="number" id="widget-contact-form-widget-form" name="widgetData[form]" value="9" min="0" step="1" class="widget-form-id" />');
    expect(contact).toContain('<span class="description">Id of the contact form.</span>');
  });
});

describe('previews', () => {
  it('heading: the chosen level, inline alignment, colour and size, the text escaped', async () => {
    const { html } = await render('Heading_Widget', { text: '<script>alert(1)</script> Hello', level: 'h1', align: 'center', color: '#FF0000', font_size: 32 });
    expect(html).toBe('<h1 class="widget-heading-text" style="text-align:center;color:#ff0000;font-size:32px;margin:0">&lt;script&gt;alert(1)&lt;/script&gt; Hello</h1>');
  });

  it('editor: the title and the text, with paragraphs unless turned off', async () => {
    expect((await render('Editor_Widget', { title: 'Title', text: 'One\n\nTwo' })).html)
      .toBe('<h3 class="widget-title" style="margin:0 0 .5em">Title</h3><div class="widget-text"><p>One</p>\n<p>Two</p>\n</div>');
    expect((await render('Editor_Widget', { text: '<em>raw</em>', autop: false })).html).toBe('<div class="widget-text"><em>raw</em></div>');
  });

  it('button: link, new window, style and an icon that asks for its font', async () => {
    const { html, icons } = await render('Button_Widget', { text: 'Go', url: 'https://example.com/?a=1&b=2', new_window: '1', style: 'secondary', align: 'right', icon: 'download' });
    expect(html).toContain('<div class="widget-button-wrapper" style="text-align:right"><a class="widget-button widget-button-secondary" href="https://example.com/?a=1&amp;b=2" target="_blank" rel="noopener noreferrer" style="');
    expect(html).toContain('background:#f6f7f7;color:#2271b1');
    expect(html).toContain('<span class="dashicons dashicons-download" aria-hidden="true"');
    expect(html).toMatch(/<\/span>Go<\/a><\/div>$/);
    expect(icons).toEqual(['dashicons']);
    const plain = await render('Button_Widget', { url: 'javascript:alert(1)' });
    expect(plain.html).not.toContain('href');
    expect(plain.html).toContain('>Click me</a>');
    expect(plain.icons).toEqual([]);
  });

  it('image by URL: figure, caption, alt, link; nothing chosen says so', async () => {
    const { html } = await render('Image_Widget', { image_url: 'https://cdn.example/a.png', alt: 'An "a"', caption: 'Cap', link: 'https://example.com/', align: 'left' });
    expect(html).toBe('<figure class="widget-image" style="margin:0;text-align:left"><a href="https://example.com/">'
      + '<img src="https://cdn.example/a.png" alt="An &quot;a&quot;" loading="lazy" decoding="async" style="max-width:100%;height:auto;display:inline-block" /></a>'
      + '<figcaption style="font-size:.875em;color:#555555;margin-top:.5em">Cap</figcaption></figure>');
    expect((await render('Image_Widget', { image_url: 'javascript:alert(1)' })).html).toContain('No image selected.');
  });

  it('contact form without a form says so', async () => {
    expect((await render('Contact_Form_Widget', { title: 'Write' })).html).toContain('No contact form selected.');
  });
});

describe('html helpers', () => {
  it('escape everything, entities included', () => {
    expect(esc(`<a href="x">&amp;'</a>`)).toBe('&lt;a href=&quot;x&quot;&gt;&amp;amp;&#039;&lt;/a&gt;');
    expect(attrs({ a: 'x"y', b: true, c: false, d: undefined, e: 0 })).toBe(' a="x&quot;y" b="b" e="0"');
    expect(style({ color: '#fff', margin: '', padding: undefined })).toBe('color:#fff');
  });
});
