// widgets/v1: settings forms and previews of the widget classes, as JSON and as the block
// editor's form data; sanitising by caller (contributors' HTML filtered, administrators' kept);
// media and contact-form lookups; every error with its status and code; the index, methods and
// batch; and the same answers over GraphQL.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createHash } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createTestSite, type As, type TestResponse, type TestSite } from '../helpers/app.js';

const FORMS = '/widgets/v1/widgets/forms';
const PREVIEWS = '/widgets/v1/widgets/previews';

let site: TestSite;
let uploads = '';
/** An administrator's image with alternative text, and one attached to a draft (hidden from a contributor). */
const fx = { image: 0, imageUrl: '', hiddenImage: 0, form: 0 };

/** As a contributor unless `as` says otherwise (null: anonymous). */
const post = (path: string, json: unknown, as: As | null = 'contributor') => site.req('POST', path, { as: as ?? undefined, json });
/** The form-encoded body the block editor sends (brackets for the settings). */
const postForm = (path: string, body: string, as: As = 'contributor') =>
  site.req('POST', path, { as, body, headers: { 'content-type': 'application/x-www-form-urlencoded' } });
const preview = async (widgetClass: string, widgetData: Record<string, unknown>, as: As = 'contributor', extra: Record<string, unknown> = {}) => {
  const res = await post(PREVIEWS, { widgetClass, widgetData, ...extra }, as);
  expect(res.status, res.text).toBe(200);
  return res.body as { html: string; widgetIcons: string[] };
};
const form = async (widgetClass: string, widgetData: Record<string, unknown> | undefined, as: As = 'contributor') => {
  const res = await post(FORMS, { widgetClass, ...(widgetData === undefined ? {} : { widgetData }) }, as);
  expect(res.status, res.text).toBe(200);
  expect(typeof res.body).toBe('string');
  return res.body as string;
};
function expectError(res: TestResponse, status: number, code: string, message?: string) {
  expect({ status: res.status, code: res.body?.code }, res.text).toEqual({ status, code });
  expect(res.body.data.status).toBe(status);
  if (message !== undefined) expect(res.body.message).toBe(message);
}

const PNG = Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAQAAAACCAIAAADwyuo0AAAACXBIWXMAAAPoAAAD6AG1e1JrAAAAEklEQVQImWP4z8AARwjWfwYGAG+qB/l/O6VpAAAAAElFTkSuQmCC', 'base64');
async function upload(name: string): Promise<any> {
  const res = await site.req('POST', '/core/v2/media', {
    as: 'administrator', body: PNG, headers: { 'content-type': 'image/png', 'content-disposition': `attachment; filename="${name}"` },
  });
  if (res.status !== 201) throw new Error(`upload: ${res.status} ${res.text}`);
  return res.body;
}

beforeAll(async () => {
  uploads = mkdtempSync(join(tmpdir(), 'widgets-uploads-'));
  site = await createTestSite({ uploadsDir: uploads });
  const image = await upload('widget-photo.png');
  await site.req('POST', `/core/v2/media/${image.id}`, { as: 'administrator', json: { alt_text: 'A tiny "photo"' } });
  fx.image = image.id;
  fx.imageUrl = image.source_url;
  const draft = await site.createPost({ title: 'Draft with an image', status: 'draft' });
  const hidden = await upload('hidden-photo.png');
  await site.req('POST', `/core/v2/media/${hidden.id}`, { as: 'administrator', json: { post: draft.id } });
  fx.hiddenImage = hidden.id;
  const created = await site.db.prisma.contactForm.create({
    data: {
      title: 'Widget form', slug: 'widget-form', locale: 'en_US', hash: createHash('sha1').update('widget-form').digest('hex'),
      form: '<label>Your name [text* your-name]</label>\n[submit "Send"]', properties: '{}',
    },
  });
  fx.form = created.id;
});
afterAll(async () => { await site?.close(); if (uploads) rmSync(uploads, { recursive: true, force: true }); });

describe('routes', () => {
  it('are listed in the namespace index: POST only, both args not required, not batchable, no schema', async () => {
    const res = await site.req('GET', '/widgets/v1');
    expect(res.status).toBe(200);
    for (const path of [FORMS, PREVIEWS]) {
      const route = res.body.routes[path];
      expect(route.methods).toEqual(['POST']);
      expect(route.endpoints).toHaveLength(1);
      expect(route.endpoints[0].allow_batch).toBeUndefined();
      expect(route.endpoints[0].args.widgetClass).toMatchObject({ type: 'string', required: false });
      expect(route.endpoints[0].args.widgetData).toMatchObject({ type: 'object', required: false });
      const options = await site.req('OPTIONS', path, { as: 'contributor' });
      expect(options.status).toBe(200);
      expect(options.body.schema).toBeUndefined();
      expect(options.headers.get('allow')).toBe('POST');
    }
  });

  it('answer other methods with 404 rest_no_route', async () => {
    for (const path of [FORMS, PREVIEWS]) {
      for (const method of ['GET', 'PUT', 'PATCH', 'DELETE']) {
        expectError(await site.req(method, path, { as: 'administrator', json: method === 'GET' ? undefined : { widgetClass: 'Heading_Widget', widgetData: { text: 'x' } } }), 404, 'rest_no_route');
      }
    }
  });

  it('need edit_posts: 401 anonymous, 403 subscriber, rest_forbidden "Insufficient permissions."', async () => {
    for (const path of [FORMS, PREVIEWS]) {
      const body = { widgetClass: 'Heading_Widget', widgetData: { text: 'x' } };
      expectError(await post(path, body, null), 401, 'rest_forbidden', 'Insufficient permissions.');
      expectError(await post(path, body, 'subscriber'), 403, 'rest_forbidden', 'Insufficient permissions.');
      // The permission comes before the class: an unknown one is still refused as such.
      expectError(await post(path, { widgetClass: 'Nope' }, 'subscriber'), 403, 'rest_forbidden');
    }
  });

  it('may not run in a batch (registered without allow_batch)', async () => {
    const res = await post('/batch/v1', { requests: [{ path: PREVIEWS, body: { widgetClass: 'Heading_Widget', widgetData: { text: 'x' } } }, { path: FORMS, body: { widgetClass: 'Heading_Widget' } }] }, 'administrator');
    expect(res.status).toBe(207);
    for (const item of res.body.responses) {
      expect({ status: item.status, code: item.body.code }).toEqual({ status: 400, code: 'rest_batch_not_allowed' });
    }
  });
});

describe('errors', () => {
  it('unknown or missing class: 400 rest_invalid_widget_class naming it', async () => {
    for (const path of [FORMS, PREVIEWS]) {
      expectError(await post(path, { widgetClass: 'No_Such_Widget', widgetData: { a: 1 } }), 400, 'rest_invalid_widget_class', 'Invalid or missing widget class: No_Such_Widget');
      expectError(await post(path, { widgetClass: 'heading_widget', widgetData: { a: 1 } }), 400, 'rest_invalid_widget_class', 'Invalid or missing widget class: heading_widget');
      expectError(await post(path, { widgetData: { a: 1 } }), 400, 'rest_invalid_widget_class', 'Invalid or missing widget class: ');
      expectError(await post(path, {}), 400, 'rest_invalid_widget_class', 'Invalid or missing widget class: ');
    }
  });

  it('a class without a word character: 400 rest_invalid_param (before the permission check)', async () => {
    for (const path of [FORMS, PREVIEWS]) {
      for (const bad of ['', '---', '<>']) {
        const res = await post(path, { widgetClass: bad, widgetData: { a: 1 } });
        expectError(res, 400, 'rest_invalid_param');
        expect(Object.keys(res.body.data.params)).toEqual(['widgetClass']);
      }
      expectError(await post(path, { widgetClass: '-' }, null), 400, 'rest_invalid_param');
    }
  });

  it('widgetData that is not an object: 400 rest_invalid_param naming widgetData', async () => {
    for (const path of [FORMS, PREVIEWS]) {
      for (const bad of ['text', 5, true]) {
        const res = await post(path, { widgetClass: 'Heading_Widget', widgetData: bad });
        expectError(res, 400, 'rest_invalid_param', 'Invalid parameter(s): widgetData');
        expect(res.body.data.params.widgetData).toBe('widgetData is not of type object.');
      }
      const encoded = await postForm(path, 'widgetClass=Heading_Widget&widgetData=text');
      expectError(encoded, 400, 'rest_invalid_param', 'Invalid parameter(s): widgetData');
    }
  });

  it('previews of empty data: 400 rest_invalid_widget_data; a form of no data shows the defaults', async () => {
    const message = 'Unable to render preview. Invalid or missing widget data.';
    expectError(await post(PREVIEWS, { widgetClass: 'Heading_Widget' }), 400, 'rest_invalid_widget_data', message);
    expectError(await post(PREVIEWS, { widgetClass: 'Heading_Widget', widgetData: {} }), 400, 'rest_invalid_widget_data', message);
    expectError(await post(PREVIEWS, { widgetClass: 'Heading_Widget', widgetData: [] }), 400, 'rest_invalid_widget_data', message);
    expectError(await post(PREVIEWS, { widgetClass: 'Heading_Widget', widgetData: null }), 400, 'rest_invalid_widget_data', message);
    expectError(await postForm(PREVIEWS, 'widgetClass=Heading_Widget&widgetData='), 400, 'rest_invalid_widget_data', message);
    // The class is checked before the data.
    expectError(await post(PREVIEWS, { widgetClass: 'Nope', widgetData: {} }), 400, 'rest_invalid_widget_class');
    const html = await form('Heading_Widget', undefined);
    expect(html).toContain('<option value="h2" selected="selected">H2</option>');
    expect(html).toContain('name="widgetData[text]" value=""');
  });

  it('a JSON body that does not parse: 400 rest_invalid_json', async () => {
    const res = await site.req('POST', PREVIEWS, { as: 'contributor', body: '{"widgetClass":', headers: { 'content-type': 'application/json' } });
    expectError(res, 400, 'rest_invalid_json');
  });
});

describe('forms', () => {
  it('Heading_Widget: the sanitised data in its controls; unknown keys nowhere', async () => {
    const html = await form('Heading_Widget', { text: 'Welcome <b>home</b>', level: 'h4', align: 'sideways', font_size: '28.4', color: '#0A0', secret: 'leak' });
    expect(html).toMatch(/^<div class="widget-form widget-form-heading-widget" data-widget-class="Heading_Widget">/);
    expect(html).toContain('<input type="text" id="widget-heading-widget-text" name="widgetData[text]" value="Welcome &lt;b&gt;home&lt;/b&gt;" class="widefat" />');
    expect(html).toContain('<option value="h4" selected="selected">H4</option>');
    expect(html).toContain('<option value="left" selected="selected">Left</option>'); // "sideways" is no option
    expect(html).toContain('name="widgetData[font_size]" value="28"');
    expect(html).toContain('name="widgetData[color]" value="#0a0"');
    expect(html).not.toMatch(/secret|leak/);
  });

  it('Editor_Widget: title input, rich text textarea (filtered for a contributor), paragraphs checkbox', async () => {
    const html = await form('Editor_Widget', { title: 'About', text: '<p>Hi</p><script>alert(1)</script>', autop: '0' });
    expect(html).toContain('name="widgetData[title]" value="About"');
    expect(html).toContain('<textarea id="widget-editor-widget-text" name="widgetData[text]" rows="8" class="widefat widget-rich-text">&lt;p&gt;Hi&lt;/p&gt;alert(1)</textarea>');
    expect(html).toContain('<input type="checkbox" id="widget-editor-widget-autop" name="widgetData[autop]" value="1" />');
    const admin = await form('Editor_Widget', { text: '<p>Hi</p><script>alert(1)</script>' }, 'administrator');
    expect(admin).toContain('&lt;p&gt;Hi&lt;/p&gt;&lt;script&gt;alert(1)&lt;/script&gt;</textarea>');
  });

  it('Image_Widget, Button_Widget and Contact_Form_Widget: a control per field, bad URLs emptied', async () => {
    const image = await form('Image_Widget', { image: String(fx.image), link: 'javascript:alert(1)', size: 'large' });
    expect(image).toContain(`name="widgetData[image]" value="${fx.image}" min="0" step="1" class="widget-media-id"`);
    expect(image).toContain('<input type="url" id="widget-image-widget-link" name="widgetData[link]" value="" class="widefat" />');
    expect(image).toContain('<option value="large" selected="selected">Large</option>');
    const button = await form('Button_Widget', { text: 'Buy', url: 'https://shop.example/', new_window: true, icon: 'bogus' });
    expect(button).toContain('name="widgetData[text]" value="Buy"');
    expect(button).toContain('name="widgetData[url]" value="https://shop.example/"');
    expect(button).toContain('name="widgetData[new_window]" value="1" checked="checked"');
    expect(button).toContain('<option value="" selected="selected">None</option>');
    const contact = await form('Contact_Form_Widget', { form: fx.form, title: 'Write to us' });
    expect(contact).toContain('name="widgetData[title]" value="Write to us"');
    // The site's forms to choose from, the chosen one selected.
    expect(contact).toContain('<select id="widget-contact-form-widget-form" name="widgetData[form]" class="widget-form-id"><option value="0">— Select a form —</option>');
    expect(contact).toContain(`<option value="${fx.form}" selected="selected">Widget form</option>`);
    const gone = await form('Contact_Form_Widget', { form: 424242 });
    expect(gone).toContain('<option value="424242" selected="selected">#424242</option>');
    expect(gone).toContain(`<option value="${fx.form}">Widget form</option>`);
  });

  it('take the block editor\'s form data (brackets), the later of a repeated name winning', async () => {
    const res = await postForm(FORMS, 'widgetClass=Editor_Widget&widgetData[title]=From+a+form&widgetData[text]=%3Cem%3Ehi%3C%2Fem%3E&widgetData[autop]=0&widgetData[autop]=1');
    expect(res.status, res.text).toBe(200);
    expect(res.body).toContain('name="widgetData[title]" value="From a form"');
    expect(res.body).toContain('&lt;em&gt;hi&lt;/em&gt;</textarea>');
    expect(res.body).toContain('value="1" checked="checked"');
  });
});

describe('previews', () => {
  it('Heading_Widget: the level, inline styles, the text escaped; a wrapper with the anchor as id', async () => {
    const res = await preview('Heading_Widget', { text: 'Hello & welcome', level: 'h1', align: 'center', color: '#333333', font_size: 40 }, 'contributor', { anchor: 'intro' });
    expect(res).toEqual({
      html: '<div class="widget widget-heading-widget" id="intro"><h1 class="widget-heading-text" style="text-align:center;color:#333333;font-size:40px;margin:0">Hello &amp; welcome</h1></div>',
      widgetIcons: [],
    });
    const odd = await preview('Heading_Widget', { text: 'x' }, 'contributor', { anchor: ' my "anchor" ' });
    expect(odd.html).toMatch(/^<div class="widget widget-heading-widget" id="my-&quot;anchor&quot;">/);
    expect((await preview('Heading_Widget', { text: 'x' })).html).toMatch(/^<div class="widget widget-heading-widget"><h2 /);
  });

  it('Editor_Widget: title and text both in the preview, with paragraphs', async () => {
    const res = await preview('Editor_Widget', { title: 'Widget title', text: 'First paragraph.\n\nSecond <strong>one</strong>.' });
    expect(res.html).toBe('<div class="widget widget-editor-widget"><h3 class="widget-title" style="margin:0 0 .5em">Widget title</h3>'
      + '<div class="widget-text"><p>First paragraph.</p>\n<p>Second <strong>one</strong>.</p>\n</div></div>');
  });

  it('Image_Widget: a media id gives the attachment\'s URL, size and alternative text; alt and caption override', async () => {
    const res = await preview('Image_Widget', { image: fx.image, caption: 'Tiny', link: 'https://example.com/', new_window: '1' });
    expect(res.html).toBe(`<div class="widget widget-image-widget"><figure class="widget-image" style="margin:0;text-align:center">`
      + `<a href="https://example.com/" target="_blank" rel="noopener noreferrer"><img src="${fx.imageUrl}" alt="A tiny &quot;photo&quot;" width="4" height="2" loading="lazy" decoding="async" style="max-width:100%;height:auto;display:inline-block" /></a>`
      + `<figcaption style="font-size:.875em;color:#555555;margin-top:.5em">Tiny</figcaption></figure></div>`);
    const own = await preview('Image_Widget', { image: fx.image, alt: 'Mine', size: 'thumbnail' });
    expect(own.html).toContain(`<img src="${fx.imageUrl}" alt="Mine" width="4" height="2"`); // no thumbnail of a 4×2 image: the full file
  });

  it('Image_Widget: an image the caller may not read, or no attachment, falls back to the URL, else says so', async () => {
    const hidden = await preview('Image_Widget', { image: fx.hiddenImage, image_url: 'https://cdn.example/fallback.png' });
    expect(hidden.html).toContain('<img src="https://cdn.example/fallback.png" alt=""');
    const admin = await preview('Image_Widget', { image: fx.hiddenImage }, 'administrator');
    expect(admin.html).toContain('hidden-photo');
    const none = await preview('Image_Widget', { image: 999999 });
    expect(none.html).toContain('<p class="widget-image-empty" style="color:#757575;font-style:italic">No image selected.</p>');
    const notImage = await preview('Image_Widget', { image: (await site.createPost({ title: 'A post', status: 'publish' })).id });
    expect(notImage.html).toContain('No image selected.');
  });

  it('Button_Widget: link, style, new window; an icon lists its font in widgetIcons', async () => {
    const res = await preview('Button_Widget', { text: 'Read more', url: '/about/', style: 'outline', new_window: 'off', icon: 'arrow-right-alt' });
    expect(res.widgetIcons).toEqual(['dashicons']);
    expect(res.html).toContain('<a class="widget-button widget-button-outline" href="/about/" style="display:inline-block;');
    expect(res.html).toContain('<span class="dashicons dashicons-arrow-right-alt" aria-hidden="true"');
    expect(res.html).not.toContain('target=');
    expect(res.html).toMatch(/>Read more<\/a><\/div><\/div>$/);
  });

  it('Contact_Form_Widget: the form\'s own markup; a missing form or none is said so', async () => {
    const res = await preview('Contact_Form_Widget', { title: 'Contact', form: fx.form });
    expect(res.html).toMatch(/^<div class="widget widget-contact-form-widget"><h3 class="widget-title" style="margin:0 0 .5em">Contact<\/h3><div class="wpcf7 no-js" id="wpcf7-f\d+-p0-o1"/);
    expect(res.html).toContain(`<input type="hidden" name="_wpcf7" value="${fx.form}" />`);
    expect(res.html).toContain(`action="http://site.test/wp-json/forms/v1/contact-forms/${fx.form}/feedback"`);
    expect(res.html).toMatch(/name="your-name"/);
    expect((await preview('Contact_Form_Widget', { form: 987654 })).html).toContain('Contact form 987654 was not found.');
    expect((await preview('Contact_Form_Widget', { title: 'Only a title' })).html).toContain('No contact form selected.');
  });

  it('take the block editor\'s form data with an anchor', async () => {
    const res = await postForm(PREVIEWS, 'widgetClass=Editor_Widget&widgetData[title]=Encoded&widgetData[text]=Line+one&widgetData[autop]=0&anchor=enc');
    expect(res.status, res.text).toBe(200);
    expect(res.body).toEqual({ html: '<div class="widget widget-editor-widget" id="enc"><h3 class="widget-title" style="margin:0 0 .5em">Encoded</h3><div class="widget-text">Line one</div></div>', widgetIcons: [] });
  });
});

describe('script injection', () => {
  const ATTACK = '<p>Kept <em>text</em></p><script>alert("x")</script><img src="x.png" onerror="alert(1)"><a href="javascript:alert(2)" onclick="alert(3)">link</a><iframe src="https://evil.example/"></iframe>';

  it('is neutralised for a contributor in every kind of field', async () => {
    const editor = await preview('Editor_Widget', { title: '<script>alert(0)</script>', text: ATTACK, autop: false });
    expect(editor.html).not.toMatch(/<script|onerror|onclick|javascript:|<iframe/i);
    expect(editor.html).toContain('<h3 class="widget-title" style="margin:0 0 .5em">&lt;script&gt;alert(0)&lt;/script&gt;</h3>');
    expect(editor.html).toContain('<p>Kept <em>text</em></p>');
    // As wp_kses_post(): the handler is removed, the tag not re-serialised (no slash added).
    expect(editor.html).toContain('<img src="x.png"><a href="alert(2)">link</a>');

    const heading = await preview('Heading_Widget', { text: '<img src=x onerror=alert(1)>', color: '#fff" onmouseover="alert(1)' });
    expect(heading.html).toContain('&lt;img src=x onerror=alert(1)&gt;');
    expect(heading.html).not.toMatch(/<img|onmouseover/);

    for (const url of ['javascript:alert(1)', 'JAVASCRIPT:alert(1)', 'java\nscript:alert(1)', '&#x6A;avascript:alert(1)', 'data:text/html;base64,PHNjcmlwdD4=']) {
      const button = await preview('Button_Widget', { url, text: 'Go' });
      expect(button.html, url).not.toMatch(/href|javascript|data:/i);
      const image = await preview('Image_Widget', { image_url: url, link: url });
      expect(image.html, url).not.toMatch(/<img|<a |javascript|data:/i);
    }
    const quoted = await preview('Button_Widget', { url: 'https://example.com/"onmouseover="alert(1)', text: 'Go' });
    expect(quoted.html).toContain('href="https://example.com/&quot;onmouseover=&quot;alert(1)"');
  });

  it('rich text stays as written for an administrator and an editor (unfiltered_html), text fields stay escaped', async () => {
    for (const who of ['administrator', 'editor'] as const) {
      const res = await preview('Editor_Widget', { title: '<b>T</b>', text: ATTACK, autop: false }, who);
      expect(res.html).toContain(`<div class="widget-text">${ATTACK}</div>`);
      expect(res.html).toContain('&lt;b&gt;T&lt;/b&gt;');
      const button = await preview('Button_Widget', { url: 'javascript:alert(1)' }, who);
      expect(button.html).not.toContain('href');
    }
    const author = await preview('Editor_Widget', { text: ATTACK, autop: false }, 'author');
    expect(author.html).not.toMatch(/<script|onerror/);
  });
});

describe('GraphQL', () => {
  const CLASSES = '{ widgetClasses { name label fields { name type label default options { value label } minimum maximum } } }';

  it('lists the registry with each field\'s definition', async () => {
    const res = await site.gql(CLASSES, {}, { as: 'contributor' });
    expect(res.errors).toBeUndefined();
    expect(res.data.widgetClasses.map((c: any) => c.name)).toEqual(['Heading_Widget', 'Editor_Widget', 'Image_Widget', 'Button_Widget', 'Contact_Form_Widget']);
    const heading = res.data.widgetClasses[0];
    expect(heading.fields.find((f: any) => f.name === 'level')).toEqual({
      name: 'level', type: 'SELECT', label: 'Level', default: 'h2', minimum: null, maximum: null,
      options: [1, 2, 3, 4, 5, 6].map((n) => ({ value: `h${n}`, label: `H${n}` })),
    });
    expect(heading.fields.find((f: any) => f.name === 'font_size')).toMatchObject({ type: 'NUMBER', default: 0, minimum: 0, maximum: 200, options: null });
    const editor = res.data.widgetClasses[1];
    expect(editor.fields.map((f: any) => [f.name, f.type])).toEqual([['title', 'TEXT'], ['text', 'RICH_TEXT'], ['autop', 'CHECKBOX']]);
    const anonymous = await site.gql(CLASSES);
    expect(anonymous.errors?.[0].extensions).toMatchObject({ code: 'rest_forbidden', status: 401 });
  });

  it('answers forms and previews as REST does', async () => {
    const data = { title: 'Same', text: '<p>x</p><script>y</script>', junk: 1 };
    const gql = await site.gql(`query ($d: JSON) {
      widgetForm(widgetClass: "Editor_Widget", widgetData: $d)
      widgetPreview(widgetClass: "Editor_Widget", widgetData: $d, anchor: "a1") { html widgetIcons }
    }`, { d: data }, { as: 'contributor' });
    expect(gql.errors).toBeUndefined();
    expect(gql.data.widgetForm).toBe(await form('Editor_Widget', data));
    expect(gql.data.widgetPreview).toEqual(await preview('Editor_Widget', data, 'contributor', { anchor: 'a1' }));
  });

  it('refuses as REST does, with the same codes and statuses', async () => {
    const cases: [string, As | undefined, string, number][] = [
      ['widgetForm(widgetClass: "Heading_Widget")', undefined, 'rest_forbidden', 401],
      ['widgetForm(widgetClass: "Heading_Widget")', 'subscriber', 'rest_forbidden', 403],
      ['widgetForm(widgetClass: "Nope")', 'contributor', 'rest_invalid_widget_class', 400],
      ['widgetForm', 'contributor', 'rest_invalid_widget_class', 400],
      ['widgetForm(widgetClass: "--")', 'contributor', 'rest_invalid_param', 400],
      ['widgetForm(widgetClass: "Heading_Widget", widgetData: "text")', 'contributor', 'rest_invalid_param', 400],
      ['widgetPreview(widgetClass: "Heading_Widget", widgetData: {}) { html }', 'contributor', 'rest_invalid_widget_data', 400],
      ['widgetPreview(widgetClass: "Heading_Widget") { html }', 'contributor', 'rest_invalid_widget_data', 400],
    ];
    for (const [field, as, code, status] of cases) {
      const res = await site.gql(`{ ${field} }`, {}, { as });
      expect(res.errors?.[0].extensions, field).toMatchObject({ code, status });
    }
    const named = await site.gql('{ widgetForm(widgetClass: "Heading_Widget", widgetData: 5) }', {}, { as: 'contributor' });
    expect(named.errors?.[0].extensions?.data).toMatchObject({ params: { widgetData: 'widgetData is not of type object.' } });
  });
});
