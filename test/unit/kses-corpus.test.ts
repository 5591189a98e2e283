// The HTML filter of callers without unfiltered_html (src/content/kses.ts), against the stored-XSS
// corpus and random allowed markup: what it allows it keeps byte for byte (as kses does), what it
// outputs runs no script, and filtering its output again changes nothing.
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { filterPostHtml, filterStyle, filterTitleHtml } from '../../src/content/kses.js';
import { executables, XSS_VECTORS } from '../helpers/xss.js';

describe('the stored-XSS corpus through the filters', () => {
  it.each(XSS_VECTORS.map((v, i) => [i, v]))('vector %i runs nothing once filtered, and filtering again changes nothing', (_i, vector) => {
    for (const filter of [filterPostHtml, filterTitleHtml]) {
      const out = filter(vector);
      expect(executables(out), out).toEqual([]);
      expect(filter(out)).toBe(out);
    }
  });
});

// Random markup made only of what WordPress's post filter allows, nested and quoted in the ways
// editors and people write it.
const text = fc.string({ unit: fc.constantFrom(...'abc XYZ 123 .,:;!?-_()[]{}\'">é\u05d0\u202e\u{1F600}\n\t'), maxLength: 12 });
const word = fc.stringMatching(/^[a-z][a-z0-9-]{0,8}$/);
const attrValue = fc.oneof(word, fc.string({ unit: fc.constantFrom(...'ab c-_.,:/?=#%é'), maxLength: 10 }), fc.constantFrom('https://example.test/a?b=1&amp;c=2', '/relative', 'mailto:a@example.test', '#top'));
const style = fc.constantFrom('color: red', 'color:red;', 'font-family:&quot;Arial&quot;, serif', 'margin: 0 auto; padding:1px', 'background:url(https://example.test/a.png)', '--gap: 4px', 'text-align:center;font-size:1.2em', '{{{');
const quoted = (name: string, value: fc.Arbitrary<string>) => fc.tuple(value, fc.constantFrom('"', "'", '')).map(([v, q]) => {
  const quote = q === '' && !/^[\w-]+$/.test(v) ? '"' : q;
  return ` ${name}=${quote}${quote === "'" ? v.replace(/'/g, '') : quote === '"' ? v.replace(/"/g, '') : v}${quote}`;
});
const ATTRS: Record<string, fc.Arbitrary<string>> = {
  class: quoted('class', word), id: quoted('id', word), title: quoted('title', attrValue), style: quoted('style', style), lang: quoted('lang', fc.constantFrom('en', 'de-CH')),
  'data-x': quoted('data-x', attrValue), 'aria-label': quoted('aria-label', attrValue), dir: quoted('dir', fc.constantFrom('rtl', 'ltr')),
};
/** URLs with an allowed scheme or none (a value like `a:` has a scheme kses cuts off). */
const url = fc.constantFrom('https://example.test/a?b=1&amp;c=2', '/relative', 'mailto:a@example.test', '#top', 'page.html', '//example.test/x');
const own: Record<string, fc.Arbitrary<string>> = {
  href: quoted('href', url), target: quoted('target', fc.constantFrom('_blank', '_self')), rel: quoted('rel', fc.constantFrom('noopener', 'nofollow noopener')),
  cite: quoted('cite', url), datetime: quoted('datetime', fc.constantFrom('2024-01-01')), align: quoted('align', fc.constantFrom('left', 'center')),
};
const attrs = (extra: string[]) => fc.uniqueArray(fc.constantFrom(...Object.keys(ATTRS), ...extra), { maxLength: 3 })
  .chain((names) => (names.length ? fc.tuple(...names.map((n) => ATTRS[n] ?? own[n])) : fc.constant([] as string[])).map((parts) => parts.join('')));
const voids = fc.oneof(
  fc.constantFrom('<br>', '<br />'),
  fc.tuple(quoted('src', fc.constantFrom('https://example.test/a.png', '/wp-content/uploads/a.png', 'a.png')), quoted('alt', attrValue), attrs([])).map(([s, a, rest]) => `<img${s}${a}${rest}>`),
);
const plain = text.map((t) => t.replace(/[<&]/g, ' '));
// Content models as HTML has them, so the parser never has to repair the nesting (a repair is a
// change WordPress's kses, which does not build a tree, would not make).
const PHRASING: [string, string[]][] = [['strong', []], ['em', []], ['span', []], ['code', []], ['del', ['datetime']], ['abbr', []], ['mark', []], ['sup', []]];
const FLOW: [string, string[]][] = [['div', []], ['blockquote', ['cite']], ['figure', []], ['section', []]];
const model = fc.letrec<{ phrasing: string; flow: string }>((tie) => ({
  phrasing: fc.oneof(
    { depthSize: 'small', withCrossShrink: true },
    plain, voids,
    fc.tuple(fc.constantFrom(...PHRASING), fc.array(tie('phrasing'), { maxLength: 3 })).chain(([[tag, extra], children]) => attrs(extra).map((a) => `<${tag}${a}>${children.join('')}</${tag}>`)),
    fc.array(tie('phrasing'), { maxLength: 2 }).chain((children) => attrs(['href', 'target', 'rel']).map((a) => `<a${a}>${children.join('').replace(/<\/?a(?=[\s>])[^>]*>/g, '')}</a>`)),
  ),
  flow: fc.oneof(
    { depthSize: 'small', withCrossShrink: true },
    tie('phrasing'),
    fc.tuple(fc.constantFrom('p', 'h2'), fc.array(tie('phrasing'), { maxLength: 3 }), attrs(['align'])).map(([tag, children, a]) => `<${tag}${a}>${children.join('')}</${tag}>`),
    fc.tuple(fc.constantFrom(...FLOW), fc.array(tie('flow'), { maxLength: 3 })).chain(([[tag, extra], children]) => attrs(extra).map((a) => `<${tag}${a}>${children.join('')}</${tag}>`)),
    fc.array(fc.array(tie('flow'), { maxLength: 2 }), { minLength: 1, maxLength: 3 }).map((items) => `<ul>${items.map((c) => `<li>${c.join('')}</li>`).join('')}</ul>`),
    fc.array(tie('flow'), { maxLength: 2 }).map((children) => `<!-- wp:group -->${children.join('')}<!-- /wp:group -->`),
    fc.constant('<hr>'),
  ),
}));
const markup = fc.array(model.flow, { maxLength: 4 }).map((nodes) => nodes.join('\n'));

describe('allowed markup is kept byte for byte', () => {
  it('for random compositions of allowed elements, attributes, quoting and text (fixed seed)', () => {
    fc.assert(fc.property(markup, (html) => filterPostHtml(html) === html), { seed: Number(process.env.KSES_SEED ?? 4242), numRuns: Number(process.env.KSES_RUNS ?? 600) });
  });

  it('style values pass as written, whatever their spacing and quoting', () => {
    for (const value of ['color: red', 'font-family:&quot;Arial&quot;;color:red', 'margin:0 auto;', '{{{', "background: url( 'https://example.test/a.png' )"]) {
      expect(filterStyle(value)).toBe(value);
      const html = `<p style="${value}">x</p>`;
      expect(filterPostHtml(html)).toBe(html);
    }
    expect(filterPostHtml('<p style=\'font-family:"Arial"\'>x</p>')).toBe('<p style=\'font-family:"Arial"\'>x</p>');
  });
});

describe('style values as safecss_filter_attr() refuses them', () => {
  it.each([
    ['expression()', 'color:red;width:expression(alert(1))', 'color:red'],
    ['expression() behind a character reference', 'color:red;width:exp&#114;ession(alert(1))', 'color:red'],
    ['a CSS escape', 'color:red;x:\\65 xpression(alert(1))', 'color:red'],
    ['a comment inside the word', 'color:red;width:expr/**/ession(1)', 'color:red'],
    ['url() with a script scheme', 'color:red;background:url(javascript:alert(1))', 'color:red'],
    ['url() with a data: URL', 'background:url(data:text/html,x);color:red', 'color:red'],
    ['a binding', '-moz-binding:url(http://example.test/x.xml);color:red', 'color:red'],
    ['a behaviour', 'behavior:url(x.htc);color:red', 'color:red'],
  ])('drops %s and keeps the rest', (_label, value, kept) => {
    expect(filterStyle(value)).toBe(kept);
  });

  it('drops the attribute when nothing is left', () => {
    expect(filterPostHtml('<p style="width:expression(alert(1))">x</p>')).toBe('<p>x</p>');
  });
});
