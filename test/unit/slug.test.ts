import { describe, expect, it } from 'vitest';
import { removeAccents, sanitizeTitle, uniqueSlug } from '../../src/content/slug.js';

const HIRAGANA_RI = '%e3%82%8a'; // 'り', 9 characters once encoded

describe('sanitizeTitle', () => {
  it.each([
    ['punctuation dropped', 'Hello World x!', 'hello-world-x'],
    ['accents folded', 'Crème Brûlée', 'creme-brulee'],
    ['ligatures and strokes', 'æøœđłþ ÆØŒĐŁÞ', 'aeooedlth-aeooedlth'],
    ['ß is s outside German', 'Straße', 'strase'],
    ['decomposed input is normalised first', 'Cre\u0300me', 'creme'],
    ['Vietnamese', 'Tiếng Việt', 'tieng-viet'],
    ['CJK percent-encoded in lower case', '日本', '%e6%97%a5%e6%9c%ac'],
    ['Cyrillic is not folded', 'Привет', '%d0%bf%d1%80%d0%b8%d0%b2%d0%b5%d1%82'],
    ['curly quotes, em dash and ellipsis', 'It’s “quoted” — yes…', 'its-quoted-yes'],
    ['multiple spaces and dashes', '  a   b--c -- d  ', 'a-b-c-d'],
    ['periods and slashes', 'Version 1.2/3', 'version-1-2-3'],
    ['tags stripped', '<b>Bold</b> move', 'bold-move'],
    ['stray percent dropped', '100% sure', '100-sure'],
    ['existing octets kept, lower-cased', 'A%C3%A9b', 'a%c3%a9b'],
    ['entities dropped', 'Tom &amp; Jerry', 'tom-jerry'],
    ['underscore kept', 'snake_case Title', 'snake_case-title'],
    ['times sign', '2×3', '2x3'],
    ['NBSP becomes a dash', 'a\u00a0b', 'a-b'],
    ['zero-width space removed', 'a\u200bb', 'ab'],
    ['empty', '', ''],
    ['punctuation only', '!!!', ''],
    ['250 ASCII characters → 200', 'a'.repeat(250), 'a'.repeat(200)],
    ['multi-byte never split: 30 × り → 22 × 9 = 198', 'り'.repeat(30), HIRAGANA_RI.repeat(22)],
  ])('%s', (_name, input, expected) => {
    expect(sanitizeTitle(input)).toBe(expected);
  });

  it.each([
    ['de_DE', 'Straße Ärger Öl Über', 'strasse-aerger-oel-ueber'],
    ['da_DK', 'Æble Øl Å', 'aeble-oel-aa'],
    ['ca', 'Paral·lel', 'parallel'],
    ['sr_RS', 'Đorđe', 'djordje'],
  ])('locale %s', (locale, input, expected) => {
    expect(sanitizeTitle(input, locale)).toBe(expected);
  });

  it('folds the whole Latin-1 table like WordPress', () => {
    expect(removeAccents('ªºÀÁÂÃÄÅÆÇÈÉÊËÌÍÎÏÐÑÒÓÔÕÖØÙÚÛÜÝÞßàáâãäåæçèéêëìíîïðñòóôõöøùúûüýþÿ')).toBe(
      'aoAAAAAAAECEEEEIIIIDNOOOOOOUUUUYTHsaaaaaaaeceeeeiiiidnoooooouuuuythy',
    );
  });
});

describe('uniqueSlug', () => {
  const takenSet = (...slugs: string[]) => {
    const set = new Set(slugs);
    const asked: string[] = [];
    const isTaken = async (slug: string) => {
      asked.push(slug);
      return set.has(slug);
    };
    return { isTaken, asked };
  };

  it.each([
    ['free', 'hello', 'post', [], 'hello'],
    ['taken once', 'hello', 'post', ['hello'], 'hello-2'],
    ['taken twice', 'hello', 'post', ['hello', 'hello-2'], 'hello-3'],
    ['gap in numbering is not filled backwards', 'hello', 'post', ['hello', 'hello-2', 'hello-3'], 'hello-4'],
    ['embed is reserved', 'embed', 'post', [], 'embed-2'],
    ['feed names are reserved', 'rss2', 'page', [], 'rss2-2'],
    ['attachment: feed reserved', 'atom', 'attachment', [], 'atom-2'],
    ['page: all digits reserved', '123', 'page', [], '123-2'],
    ['page: pageN reserved', 'page2', 'page', [], 'page2-2'],
    ['page: digits with text fine', '123abc', 'page', [], '123abc'],
    ['post: all digits fine', '123', 'post', [], '123'],
    ['attachment: all digits fine', '123', 'attachment', [], '123'],
    ['reserved and -2 taken', 'embed', 'post', ['embed-2'], 'embed-3'],
  ] as const)('%s', async (_name, wanted, kind, taken, expected) => {
    const { isTaken } = takenSet(...taken);
    expect(await uniqueSlug(wanted, kind, isTaken)).toBe(expected);
  });

  it('keeps the whole within 200 characters', async () => {
    const wanted = 'a'.repeat(200);
    const { isTaken } = takenSet(wanted, `${'a'.repeat(198)}-2`);
    expect(await uniqueSlug(wanted, 'post', isTaken)).toBe(`${'a'.repeat(198)}-3`);
    const upToTen = takenSet(wanted, ...Array.from({ length: 8 }, (_, i) => `${'a'.repeat(198)}-${i + 2}`));
    expect(await uniqueSlug(wanted, 'post', upToTen.isTaken)).toBe(`${'a'.repeat(197)}-10`);
  });

  it('truncates before a trailing dash', async () => {
    const wanted = `${'a'.repeat(197)}-bc`;
    const { isTaken } = takenSet(wanted);
    expect(await uniqueSlug(wanted, 'post', isTaken)).toBe(`${'a'.repeat(197)}-2`);
  });

  it('does not split an encoded character when truncating', async () => {
    const wanted = `a${HIRAGANA_RI.repeat(22)}`; // 199 characters
    const { isTaken } = takenSet(wanted);
    expect(await uniqueSlug(wanted, 'post', isTaken)).toBe(`a${HIRAGANA_RI.repeat(21)}-2`);
  });

  it('asks the database in order and only as needed', async () => {
    const { isTaken, asked } = takenSet('x', 'x-2');
    await uniqueSlug('x', 'post', isTaken);
    expect(asked).toEqual(['x', 'x-2', 'x-3']);
  });
});
