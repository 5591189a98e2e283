import { describe, expect, it } from 'vitest';
import { analyzeReadability, bucketOf } from '../../src/seo/analysis/index.js';
import { hasTransition, isPassive } from '../../src/seo/analysis/readability.js';

const STARTS = ['Birds', 'Cats', 'Dogs', 'Fish', 'Goats', 'Hens', 'Mice', 'Owls', 'Pigs', 'Rats'];
/** A sentence of exactly n words, no transition word, no passive; starts rotate unless given. */
const sentence = (n: number, i = 0, start = STARTS[i % STARTS.length]) => `${[start, ...Array(n - 1).fill('stone')].join(' ')}.`;
const para = (list: string[]) => `<p>${list.join(' ')}</p>`;
const many = (count: number, n: number, from = 0) => Array.from({ length: count }, (_, i) => sentence(n, from + i));
const rating = (html: string, id: string, locale = 'en_US') =>
  analyzeReadability({ html, locale }).results.find((r) => r.id === id)?.rating;

describe('readability: sentence length (share over 20 words: ≤ 25 good, ≤ 30 ok)', () => {
  it('good, ok and bad', () => {
    expect(rating(para(many(4, 10)), 'textSentenceLength')).toBe('good');
    // 2 of 7 = 28.6 %
    expect(rating(para([...many(5, 10), ...many(2, 21, 5)]), 'textSentenceLength')).toBe('ok');
    // 2 of 4 = 50 %
    expect(rating(para([...many(2, 10), ...many(2, 25, 2)]), 'textSentenceLength')).toBe('bad');
    // exactly 20 words is not over 20
    expect(rating(para(many(4, 20)), 'textSentenceLength')).toBe('good');
  });
});

describe('readability: paragraph length (≤ 150 good, ≤ 200 ok)', () => {
  it('good, ok and bad', () => {
    expect(rating(para(many(15, 10)), 'textParagraphTooLong')).toBe('good');
    expect(rating(para(many(17, 10)), 'textParagraphTooLong')).toBe('ok');
    expect(rating(para(many(22, 10)), 'textParagraphTooLong')).toBe('bad');
    // the same 220 words as two paragraphs
    expect(rating(para(many(11, 10)) + para(many(11, 10, 1)), 'textParagraphTooLong')).toBe('good');
  });
});

describe('readability: subheading distribution (sections of at most 300 words)', () => {
  const p100 = (k: number) => para(many(10, 10, k));
  it('a short text needs none; a long one without subheadings is bad', () => {
    expect(rating(p100(0) + p100(1) + p100(2), 'subheadingsTooLong')).toBe('good');
    expect(rating(p100(0) + p100(1) + p100(2) + p100(3), 'subheadingsTooLong')).toBe('bad');
  });
  it('with subheadings: ≤ 300 good, ≤ 350 ok, over bad', () => {
    expect(rating(`${p100(0) + p100(1)}<h2>Part two</h2>${p100(2) + p100(3)}`, 'subheadingsTooLong')).toBe('good');
    expect(rating(`${p100(0)}<h2>Part two</h2>${p100(1) + p100(2) + p100(3) + para(many(2, 10))}`, 'subheadingsTooLong')).toBe('ok');
    expect(rating(`${p100(0)}<h2>Part two</h2>${p100(1) + p100(2) + p100(3) + p100(4)}`, 'subheadingsTooLong')).toBe('bad');
    // the text before the first subheading is a section too
    expect(rating(`${p100(0) + p100(1) + p100(2) + p100(3)}<h2>Late</h2>${p100(4)}`, 'subheadingsTooLong')).toBe('bad');
  });
});

describe('readability: transition words (share of sentences: ≥ 30 good, ≥ 20 ok)', () => {
  it('detects words and phrases on word boundaries', () => {
    for (const s of ['However, it rained.', 'As a result we stayed in.', 'We left because of the rain.', 'It was, for example, cold.', 'Nevertheless they went.'])
      expect([s, hasTransition(s)]).toEqual([s, true]);
    for (const s of ['Butter is tasty.', 'The cat sat.', 'Forever young.', 'Soon we sat.'])
      expect([s, hasTransition(s)]).toEqual([s, false]);
  });
  it('good, ok and bad', () => {
    const withT = (k: number) => [...Array.from({ length: k }, (_, i) => `However ${sentence(6, i + 3).toLowerCase()}`), ...many(10 - k, 8)];
    expect(rating(para(withT(3)), 'textTransitionWords')).toBe('good');
    expect(rating(para(withT(2)), 'textTransitionWords')).toBe('ok');
    expect(rating(para(withT(1)), 'textTransitionWords')).toBe('bad');
  });
});

describe('readability: passive voice (share of sentences: ≤ 10 good, ≤ 15 ok)', () => {
  it('detects a be-form followed by a past participle', () => {
    for (const s of ['The cake was eaten by the dog.', 'The letter has been written.', 'The house is being built.',
      'The report was not finished.', 'The windows were carefully cleaned.', 'Mistakes were made.'])
      expect([s, isPassive(s)]).toEqual([s, true]);
    for (const s of ['She was happy.', 'He is reading a book.', 'There was a need for change.', 'They ate the cake.', 'We were in the red.'])
      expect([s, isPassive(s)]).toEqual([s, false]);
  });
  it('good, ok and bad', () => {
    const withP = (k: number, total: number) => [...Array.from({ length: k }, (_, i) => `${STARTS[(i + 5) % 10]} were seen near the lake.`), ...many(total - k, 8)];
    // 1 of 10, 3 of 20, 2 of 10 — passive sentences interleaved so no three start alike
    expect(rating(para(withP(1, 10)), 'passiveVoice')).toBe('good');
    expect(rating(para(withP(3, 20)), 'passiveVoice')).toBe('ok');
    expect(rating(para(withP(2, 10)), 'passiveVoice')).toBe('bad');
  });
});

describe('readability: sentence beginnings', () => {
  it('three consecutive sentences starting with the same word are bad, two are fine', () => {
    expect(rating(para([sentence(5, 0, 'The'), sentence(5, 0, 'The'), sentence(5, 1)]), 'sentenceBeginnings')).toBe('good');
    expect(rating(para([sentence(5, 0, 'The'), sentence(5, 0, 'The'), sentence(5, 0, 'The')]), 'sentenceBeginnings')).toBe('bad');
  });
});

describe('readability: overall score and locales', () => {
  it('is the share of the best possible score, in the score buckets', () => {
    const a = analyzeReadability({ html: '<p>The cat sat on the mat.</p>', locale: 'en_US' });
    // Seven checks; only the transition share (0 %) is bad.
    expect(a.results.map((r) => r.rating).sort()).toEqual(['bad', 'good', 'good', 'good', 'good', 'good', 'good']);
    expect(a.score).toBe(Math.round(((6 * 9 + 3) / (7 * 9)) * 100));
    expect(a.rating).toBe('good');
  });
  it('runs only the language-independent checks for other locales', () => {
    const a = analyzeReadability({ html: '<p>Der Hund lief schnell nach Hause.</p>', locale: 'de_DE' });
    expect(a.results.map((r) => r.id).sort()).toEqual(['sentenceBeginnings', 'subheadingsTooLong', 'textParagraphTooLong', 'textSentenceLength']);
    expect(a.score).toBe(100);
  });
  it('no text: not analysed', () => {
    expect(analyzeReadability({ html: '', locale: 'en_US' })).toEqual({ score: 0, rating: 'na', results: [] });
    expect(analyzeReadability({ html: '<h2>Only a heading</h2><img alt="x">', locale: 'en_US' }).rating).toBe('na');
  });
  it('buckets: bad 1–40, ok 41–70, good 71–100, 0 or none not analysed', () => {
    expect([0, 1, 40, 41, 70, 71, 100, null].map(bucketOf)).toEqual(['na', 'bad', 'bad', 'ok', 'ok', 'good', 'good', 'na']);
  });
});
