import { describe, expect, it } from 'vitest';
import { filterPostHtml, filterTitleHtml } from '../../src/content/kses.js';

describe('filterPostHtml keeps allowed markup as written', () => {
  it.each([
    '<img src="x">',
    '<br>',
    '<p class=a>',
    '<P CLASS=A>x</P>',
    "<a href='https://example.com/' target=_blank rel=noopener>x</a>",
    '<img alt>',
    '<p>a<br>b<br/>c</p><hr>',
    '<table><tr><td>1</td></tr></table>',
    '<!-- wp:paragraph -->\n<p class=a>x</p>\n<!-- /wp:paragraph -->',
    'Tom & Jerry',
    'a < b',
    // WordPress's safecss_filter_attr() keeps a declaration without a colon; nothing in it can run.
    '<p style="{{{">x</p>',
    '<p title="">x</p>',
  ])('%s', (html) => {
    expect(filterPostHtml(html)).toBe(html);
  });
});

describe('filterPostHtml removes what it always removed, the same way', () => {
  it.each([
    ['disallowed element, text kept', '<script>x</script>', 'x'],
    // The tags around it are kept as written (WordPress would also requote `class=a`).
    ['with allowed markup around it', '<p class=a>Hi<br><script>x</script></p>', '<p class=a>Hi<br>x</p>'],
    ['event handler', '<img src=x onerror=alert(1)>', '<img src="x">'],
    ['disallowed scheme cut off', '<a href="javascript:alert(1)">x</a>', '<a href="alert(1)">x</a>'],
    ['stray end tag of a disallowed element', '</script>', ''],
    ['stray end tag', '<em></b>', '<em></em>'],
    ['comment', '<!-- note --><p>x</p>', '<p>x</p>'],
    ['bogus comment', 'a </ b> c', 'a  c'],
    ['attribute with an invalid name', '<img src=x "onerror=alert(1)>', '<img src="x">'],
    ['foreign content', '<svg><a href="javascript:1">x</a></svg>', '<a href="1">x</a>'],
    ['misnested tags', '<b><i>x</b></i>', '<b><i>x</i></b>'],
  ])('%s', (_label, html, expected) => {
    expect(filterPostHtml(html)).toBe(expected);
  });
});

// wp_kses_attr() rebuilds a tag from its name and its allowed attributes, and writes ` /` before
// the `>` only where the tag had a closing slash: removing an attribute does not re-serialise it.
describe('a tag an attribute is removed from, as kses rebuilds it', () => {
  it.each([
    ['<img src="x" onerror="alert(1)">', '<img src="x">'],
    ['<img src="x" onerror="y" />', '<img src="x" />'],
    ['<img src="x" onerror="y"/>', '<img src="x" />'],
    ['<p class="a" onclick="b">t</p>', '<p class="a">t</p>'],
    // Quotes as wp_kses_hair() writes them: a single-quoted value keeps its quotes, an unquoted one gets double quotes.
    [`<b title='say "hi"' onclick=x data-n=1>t</b>`, `<b title='say "hi"' data-n="1">t</b>`],
    // The names as written; a changed value (a cut scheme) in double quotes.
    ['<A HREF="javascript:alert(1)" Title=t>x</A>', '<A HREF="alert(1)" Title="t">x</a>'],
    ['<img alt="" src=x onerror=y>', '<img alt="" src="x">'],
    // A kept value holding `<` or `>` is escaped, never written back raw (kses removes them).
    ['<p title="a<b>c" onclick=x>t</p>', '<p title="a&lt;b&gt;c">t</p>'],
  ])('%s', (html, expected) => {
    expect(filterPostHtml(html)).toBe(expected);
  });

  it.each([
    ['<br>', '<br><img src="x" onerror="y">', '<br><img src="x">'],
    ['<br />', '<br /><img src="x" onerror="y">', '<br /><img src="x">'],
    ['<br/>', '<br/><img src="x" onerror="y">', '<br/><img src="x">'],
    ['an allowed tag with nothing removed', '<p class=a title=\'t\'>x<img src=x alt></p><b onclick=y>z</b>', '<p class=a title=\'t\'>x<img src=x alt></p><b>z</b>'],
    ['a tag with a duplicate attribute (the first counts)', '<p class=a class=b>x</p><b onclick=y>z</b>', '<p class=a class=b>x</p><b>z</b>'],
  ])('%s beside a removed attribute is untouched', (_label, html, expected) => {
    expect(filterPostHtml(html)).toBe(expected);
  });

  it('keeps titles the same way', () => {
    expect(filterTitleHtml('<b onclick="x">t</b> <em>u</em><br>')).toBe('<b>t</b> <em>u</em>');
  });
});

describe('filterTitleHtml', () => {
  it('keeps allowed inline markup as written and removes the rest', () => {
    expect(filterTitleHtml('<b>Bold</b> & <em>it</em>')).toBe('<b>Bold</b> & <em>it</em>');
    expect(filterTitleHtml('<img src="x"><b>t</b>')).toBe('<b>t</b>');
  });
});

describe('schemes and comments as a browser reads them', () => {
  it('cuts a disallowed scheme hidden behind character references or blanks', () => {
    expect(filterPostHtml('<a href="&#106;avascript:alert(1)">x</a>')).toBe('<a href="alert(1)">x</a>');
    expect(filterPostHtml('<a href="&#x6A;avascript&#58;alert(1)">x</a>')).toBe('<a href="alert(1)">x</a>');
    expect(filterPostHtml('<a href="java&#x09;script:alert(1)">x</a>')).toBe('<a href="alert(1)">x</a>');
    expect(filterPostHtml('<a href="java\tscript:alert(1)">x</a>')).toBe('<a href="alert(1)">x</a>');
    expect(filterPostHtml('<a href="javascript&colon;alert(1)">x</a>')).toBe('<a href="alert(1)">x</a>');
  });

  it('leaves allowed and relative URLs as the author wrote them', () => {
    expect(filterPostHtml('<a href="https://example.test/?a=1&amp;b=2">x</a>')).toBe('<a href="https://example.test/?a=1&amp;b=2">x</a>');
    expect(filterPostHtml('<a href="/relative/path">x</a>')).toBe('<a href="/relative/path">x</a>');
    expect(filterPostHtml('<a href="mailto:a@example.test">x</a>')).toBe('<a href="mailto:a@example.test">x</a>');
  });

  it('does not keep a block comment that a browser would end early at --!>', () => {
    const out = filterPostHtml('<!-- wp:x --!><img src=x onerror=alert(1)> -->');
    expect(out).not.toContain('onerror');
    expect(filterPostHtml('<!-- wp:paragraph --><p>ok</p><!-- /wp:paragraph -->')).toBe('<!-- wp:paragraph --><p>ok</p><!-- /wp:paragraph -->');
  });
});
