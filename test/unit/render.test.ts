import { describe, expect, it } from 'vitest';
import { autop as packageAutop } from '@wordpress/autop';
import { autop, renderContent, renderExcerpt, renderTitle, texturize, trimWords } from '../../src/content/render.js';

const words = (n: number) => Array.from({ length: n }, (_, i) => `w${i}`).join(' ');

describe('texturize', () => {
  it.each([
    ['apostrophe, double quotes, spaced double dash, ellipsis', `It's "quoted" -- yes...`, 'It&#8217;s &#8220;quoted&#8221; &#8212; yes&#8230;'],
    ['bare ampersand', 'a & b', 'a &#038; b'],
    ['existing entities kept', 'a &amp; b &#8217; &#x27; &hellip;', 'a &amp; b &#8217; &#x27; &hellip;'],
    ['attribute untouched, text converted', `<a href="x'y">it's</a>`, '<a href="x\'y">it&#8217;s</a>'],
    ['ampersand in a tag is encoded', '<a href="?a=1&b=2">x</a>', '<a href="?a=1&#038;b=2">x</a>'],
    ['code element skipped', `<code>it's "x"</code> it's`, '<code>it\'s "x"</code> it&#8217;s'],
    ['pre element skipped', '<pre>a -- b...</pre>a -- b', '<pre>a -- b...</pre>a &#8212; b'],
    ['comment skipped', `<!-- it's -->it's`, '<!-- it\'s -->it&#8217;s'],
    ['single quotes', `'quoted'`, '&#8216;quoted&#8217;'],
    ['double quote closing before comma', `"Hello," she said.`, '&#8220;Hello,&#8221; she said.'],
    ['primes', `9' 6"`, '9&#8242; 6&#8243;'],
    ['double dash between words is an en dash', 'a--b', 'a&#8211;b'],
    ['triple dash is an em dash', 'a---b', 'a&#8212;b'],
    ['punycode dashes kept', 'xn--abc', 'xn--abc'],
    ['spaced single dash is an en dash', 'a - b', 'a &#8211; b'],
    ['only " (tm)" is converted', '(c) (r) (tm)', '(c) (r) &#8482;'],
    ['dimensions', '10x20 but not 0x1F', '10&#215;20 but not 0x1F'],
    ['cockney and abbreviated year', `'tis the '90s`, '&#8217;tis the &#8217;90s'],
    ['non-ASCII passes through', `Crème brûlée — l'été`, 'Crème brûlée — l&#8217;été'],
    ['backticks and double apostrophes', "``quote''", '&#8220;quote&#8221;'],
    ['empty', '', ''],
  ])('%s', (_name, input, expected) => {
    expect(texturize(input)).toBe(expected);
  });
});

describe('autop', () => {
  it.each([
    ['one paragraph', 'Body', '<p>Body</p>\n'],
    ['empty', '', ''],
    ['blank', ' \n\t ', ''],
    ['two paragraphs', 'First.\n\nSecond.', '<p>First.</p>\n<p>Second.</p>\n'],
    ['line break', 'a\nb', '<p>a<br />\nb</p>\n'],
    ['CRLF', 'a\r\n\r\nb', '<p>a</p>\n<p>b</p>\n'],
    ['existing paragraph', '<p>Already</p>', '<p>Already</p>\n'],
    ['hr between lines', 'a\n<hr>\nb', '<p>a</p>\n<hr>\n<p>b</p>\n'],
    ['pre kept as is', '<pre>a\n\nb</pre>', '<pre>a\n\nb</pre>\n'],
    ['list', '<ul>\n<li>a</li>\n<li>b</li>\n</ul>', '<ul>\n<li>a</li>\n<li>b</li>\n</ul>\n'],
    ['heading and text', '<h2>T</h2>\nText', '<h2>T</h2>\n<p>Text</p>\n'],
    ['blockquote', '<blockquote>Q</blockquote>', '<blockquote><p>Q</p></blockquote>\n'],
    ['newline inside a tag', '<a\nhref="x">y</a>', '<p><a\nhref="x">y</a></p>\n'],
    ['NBSP is not whitespace for WordPress', 'a\u00a0\nb', '<p>a\u00a0<br />\nb</p>\n'],
  ])('%s', (_name, input, expected) => {
    expect(autop(input)).toBe(expected);
  });

  it.each([
    'Body',
    'First.\n\nSecond.\nThird line.',
    '<p>Already</p>',
    '<ul>\n<li>a</li>\n<li>b</li>\n</ul>',
    '<h2>T</h2>\nText\n\n<blockquote>Q</blockquote>',
    '<pre>a\n\nb</pre>\n\nafter',
    '<div>x</div>\n\ny<br>z',
    '<script>var a = 1;\nvar b = 2;</script>',
  ])('agrees with @wordpress/autop on ordinary input %#', (input) => {
    expect(autop(input)).toBe(packageAutop(input));
  });
});

describe('renderContent', () => {
  it.each([
    ['plain text', 'Body', '<p>Body</p>\n'],
    ['two paragraphs', 'First paragraph.\n\nSecond paragraph.', '<p>First paragraph.</p>\n<p>Second paragraph.</p>\n'],
    ['texturize then autop', `It's "here"...\n\nNext -- one`, '<p>It&#8217;s &#8220;here&#8221;&#8230;</p>\n<p>Next &#8212; one</p>\n'],
    ['capital P', 'I like Wordpress.', '<p>I like WordPress.</p>\n'],
    [
      'blocks: delimiters stripped, no autop',
      '<!-- wp:paragraph -->\n<p>Hello "world"</p>\n<!-- /wp:paragraph -->\n\n<!-- wp:paragraph {"align":"center"} -->\n<p class="has-text-align-center">Second</p>\n<!-- /wp:paragraph -->',
      '\n<p>Hello &#8220;world&#8221;</p>\n\n\n\n<p class="has-text-align-center">Second</p>\n',
    ],
    ['void block', 'a<!-- wp:spacer /-->b<!-- wp:separator {"x":1} /-->', 'ab'],
    ['empty', '', ''],
  ])('%s', (_name, raw, expected) => {
    expect(renderContent(raw)).toBe(expected);
  });
});

describe('renderTitle', () => {
  it.each([
    ['plain', 'Hello world', 'Hello world'],
    ['texturized and trimmed, no <p>', `  It's "a" title  `, 'It&#8217;s &#8220;a&#8221; title'],
    ['ampersand', 'Tom & Jerry', 'Tom &#038; Jerry'],
    ['capital P', 'Wordpress tips', 'WordPress tips'],
    ['empty', '', ''],
  ])('%s', (_name, raw, expected) => {
    expect(renderTitle(raw)).toBe(expected);
  });
});

describe('renderExcerpt', () => {
  it.each([
    ['60-word content → 55 words + more', '', words(60), undefined, `<p>${words(55)} [&hellip;]</p>\n`],
    ['10-word content → no more', '', words(10), undefined, `<p>${words(10)}</p>\n`],
    ['exactly 55 words → no more', '', words(55), undefined, `<p>${words(55)}</p>\n`],
    ['custom length 5', '', words(60), 5, '<p>w0 w1 w2 w3 w4 [&hellip;]</p>\n'],
    ['raw excerpt wins', 'Hand written', words(60), undefined, '<p>Hand written</p>\n'],
    ['raw excerpt texturized, never trimmed', `It's ${words(60)}`, '', 5, `<p>It&#8217;s ${words(60)}</p>\n`],
    ['blank raw excerpt falls back to content', ' \n ', 'From content', undefined, '<p>From content</p>\n'],
    ['tags stripped, paragraphs separate words', '', '<p>One <b>two</b></p><p>three four</p>', 3, '<p>One two three [&hellip;]</p>\n'],
    ['quotes texturized once', '', `It's "fine"`, undefined, '<p>It&#8217;s &#8220;fine&#8221;</p>\n'],
    ['block content', '', '<!-- wp:paragraph -->\n<p>Alpha beta</p>\n<!-- /wp:paragraph -->', 1, '<p>Alpha [&hellip;]</p>\n'],
    ['empty everything', '', '', undefined, ''],
  ])('%s', (_name, rawExcerpt, rawContent, n, expected) => {
    expect(renderExcerpt(rawExcerpt, rawContent, n)).toBe(expected);
  });
});

describe('trimWords', () => {
  it.each([
    ['splits on any ASCII whitespace', 'a\tb\nc  d', 3, '…', 'a b c…'],
    ['no cut keeps the words', 'a b', 3, '…', 'a b'],
    ['zero words', 'a b', 0, '…', '…'],
    ['NBSP does not split', 'a\u00a0b c', 1, '…', 'a\u00a0b…'],
  ])('%s', (_name, text, n, more, expected) => {
    expect(trimWords(text, n, more)).toBe(expected);
  });
});
