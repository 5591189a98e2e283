// Readability assessments. Sentence-based checks read the body text (headings excluded); the
// subheading check reads both. Language-bound checks (Flesch, transition words, passive voice)
// run for English only.
import { BAD, GOOD, OK, overall, result, type Analysis, type AssessmentResult } from './score.js';
import { parseHtml, sentences, syllables, words, type Block } from './text.js';
import { escapeRegExp } from '../../content/escape.js';
import { BE_FORMS, IRREGULAR_PARTICIPLES, NOT_PARTICIPLES, PASSIVE_GAP_WORDS, TRANSITION_WORDS } from './english.js';

/** Flesch reading ease: 206.835 − 1.015 · words/sentences − 84.6 · syllables/words. */
export function fleschReadingEase(text: { words: number; sentences: number; syllables: number }): number {
  return 206.835 - 1.015 * (text.words / text.sentences) - 84.6 * (text.syllables / text.words);
}

const TRANSITION = new RegExp(
  `(?<![\\p{L}\\p{N}])(?:${[...TRANSITION_WORDS].sort((a, b) => b.length - a.length).map(escapeRegExp).join('|')})(?![\\p{L}\\p{N}])`,
  'iu',
);

export function hasTransition(sentence: string): boolean {
  return TRANSITION.test(sentence.replace(/’/g, "'"));
}

function isParticiple(word: string): boolean {
  if (IRREGULAR_PARTICIPLES.has(word)) return true;
  return word.length > 3 && word.endsWith('ed') && !NOT_PARTICIPLES.has(word);
}

/**
 * Passive voice: a form of "to be" followed by a past participle (a word ending in -ed, or one of
 * the irregular participles), with at most two gap words between them ("was not seen", "has been
 * written", "is being built").
 */
export function isPassive(sentence: string): boolean {
  const ws = words(sentence.replace(/’/g, "'")).map((w) => w.toLowerCase());
  for (let i = 0; i < ws.length; i++) {
    if (!BE_FORMS.has(ws[i])) continue;
    for (let j = i + 1; j < ws.length && j <= i + 3; j++) {
      if (isParticiple(ws[j])) return true;
      if (!PASSIVE_GAP_WORDS.has(ws[j]) && !ws[j].endsWith('ly')) break;
    }
  }
  return false;
}

function firstWord(sentence: string): string {
  return (words(sentence)[0] ?? '').toLowerCase();
}

function pct(n: number, of: number): number {
  return of === 0 ? 0 : (n / of) * 100;
}

function round1(n: number): number {
  return Math.round(n * 10) / 10;
}

/** Text of each section between subheadings (the text before the first one is a section too). */
function sectionWordCounts(blocks: Block[]): { counts: number[]; headings: number } {
  const counts: number[] = [0];
  let headings = 0;
  for (const b of blocks) {
    if (b.kind === 'heading') { headings++; counts.push(0); continue; }
    counts[counts.length - 1] += words(b.text).length;
  }
  return { counts: counts.filter((c, i) => c > 0 || i === 0), headings };
}

/** Counts of the body text (headings excluded) behind the Flesch score. */
export function textStatistics(html: string) {
  const paragraphs = parseHtml(html ?? '').blocks.filter((b) => b.kind === 'text');
  const sents = paragraphs.flatMap((p) => sentences(p.text));
  const allWords = paragraphs.flatMap((p) => words(p.text));
  const syl = allWords.reduce((s, w) => s + syllables(w), 0);
  return { words: allWords.length, sentences: sents.length, syllables: syl };
}

export function analyzeReadabilityText(input: { html: string; locale: string }): Analysis {
  const { blocks } = parseHtml(input.html ?? '');
  const paragraphs = blocks.filter((b) => b.kind === 'text');
  const sents = paragraphs.flatMap((p) => sentences(p.text));
  const allWords = paragraphs.flatMap((p) => words(p.text));
  if (allWords.length === 0 || sents.length === 0) return { score: 0, rating: 'na', results: [] };
  const english = /^en(?:[_-]|$)/i.test(input.locale ?? '');
  const results: AssessmentResult[] = [];

  if (english) {
    const syl = allWords.reduce((s, w) => s + syllables(w), 0);
    const fre = round1(fleschReadingEase({ words: allWords.length, sentences: sents.length, syllables: syl }));
    results.push(fre >= 60
      ? result('fleschReadingEase', GOOD, `Flesch reading ease ${fre}: easy enough to read.`)
      : fre >= 50
        ? result('fleschReadingEase', OK, `Flesch reading ease ${fre}: fairly difficult to read; try shorter sentences and words.`)
        : result('fleschReadingEase', BAD, `Flesch reading ease ${fre}: difficult to read; use shorter sentences and simpler words.`));
  }

  const long = sents.filter((s) => words(s).length > 20).length;
  const longShare = round1(pct(long, sents.length));
  results.push(longShare <= 25
    ? result('textSentenceLength', GOOD, `${longShare}% of the sentences have more than 20 words (at most 25% recommended).`)
    : longShare <= 30
      ? result('textSentenceLength', OK, `${longShare}% of the sentences have more than 20 words; a little above the recommended 25%.`)
      : result('textSentenceLength', BAD, `${longShare}% of the sentences have more than 20 words; more than 30% is too many.`));

  const longest = Math.max(...paragraphs.map((p) => words(p.text).length));
  const tooLong = paragraphs.filter((p) => words(p.text).length > 150).length;
  results.push(longest <= 150
    ? result('textParagraphTooLong', GOOD, 'No paragraph is longer than 150 words.')
    : longest <= 200
      ? result('textParagraphTooLong', OK, `${tooLong} paragraph(s) have more than 150 words; consider splitting them.`)
      : result('textParagraphTooLong', BAD, `${tooLong} paragraph(s) have more than 150 words, one of them over 200; split them.`));

  const { counts, headings } = sectionWordCounts(blocks);
  if (headings === 0) {
    results.push(allWords.length <= 300
      ? result('subheadingsTooLong', GOOD, 'The text is short enough not to need subheadings.')
      : result('subheadingsTooLong', BAD, `The text has ${allWords.length} words and no subheading; add subheadings every 300 words or so.`));
  } else {
    const over = counts.filter((c) => c > 300);
    const worst = Math.max(...counts);
    results.push(over.length === 0
      ? result('subheadingsTooLong', GOOD, 'No section runs longer than 300 words without a subheading.')
      : worst <= 350
        ? result('subheadingsTooLong', OK, `${over.length} section(s) run a little over 300 words without a subheading.`)
        : result('subheadingsTooLong', BAD, `${over.length} section(s) run over 300 words without a subheading (the longest ${worst}).`));
  }

  if (english) {
    const share = round1(pct(sents.filter(hasTransition).length, sents.length));
    results.push(share >= 30
      ? result('textTransitionWords', GOOD, `${share}% of the sentences contain a transition word or phrase.`)
      : share >= 20
        ? result('textTransitionWords', OK, `${share}% of the sentences contain a transition word; 30% or more reads more smoothly.`)
        : result('textTransitionWords', BAD, `Only ${share}% of the sentences contain a transition word; aim for 30% or more.`));

    const passive = round1(pct(sents.filter(isPassive).length, sents.length));
    results.push(passive <= 10
      ? result('passiveVoice', GOOD, `${passive}% of the sentences are in the passive voice (at most 10% recommended).`)
      : passive <= 15
        ? result('passiveVoice', OK, `${passive}% of the sentences are in the passive voice; a little above the recommended 10%.`)
        : result('passiveVoice', BAD, `${passive}% of the sentences are in the passive voice; more than 15% is too many.`));
  }

  let run = 1;
  let maxRun = sents.length ? 1 : 0;
  for (let i = 1; i < sents.length; i++) {
    const same = firstWord(sents[i]) !== '' && firstWord(sents[i]) === firstWord(sents[i - 1]);
    run = same ? run + 1 : 1;
    maxRun = Math.max(maxRun, run);
  }
  results.push(maxRun >= 3
    ? result('sentenceBeginnings', BAD, `${maxRun} consecutive sentences begin with the same word; vary them.`)
    : result('sentenceBeginnings', GOOD, 'No three consecutive sentences begin with the same word.'));

  return overall(results);
}
