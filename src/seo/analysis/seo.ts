// Keyphrase (SEO) assessments. Matching is case-insensitive on whole words, ignores accents, and
// takes a word with or without a plural -s/-es as the same word. "Contains the keyphrase" means
// contains all its content words (function words such as "the", "how" are ignored) in any order;
// the title and density checks want the exact word sequence.
import { BAD, GOOD, OK, overall, result, type Analysis, type AssessmentResult } from './score.js';
import { parseHtml, sentences, words } from './text.js';
import { FUNCTION_WORDS } from './english.js';

export interface SeoInput {
  keyphrase: string;
  title: string;
  metaDescription: string;
  slug: string;
  html: string;
  siteUrl: string;
}

function norm(w: string): string {
  return w.normalize('NFKD').replace(/\p{M}/gu, '').replace(/’/g, "'").toLowerCase();
}

function tokens(text: string): string[] {
  return words(text).map(norm);
}

function sameWord(a: string, b: string): boolean {
  if (a === b) return true;
  const [short, long] = a.length <= b.length ? [a, b] : [b, a];
  return long === `${short}s` || long === `${short}es`;
}

class Keyphrase {
  readonly words: string[];
  readonly content: string[];
  constructor(keyphrase: string) {
    this.words = tokens(keyphrase);
    const content = this.words.filter((w) => !FUNCTION_WORDS.has(w));
    this.content = content.length ? content : this.words;
  }
  /** All content words occur in the text. */
  allIn(text: string): boolean {
    const ws = tokens(text);
    return this.content.every((k) => ws.some((w) => sameWord(w, k)));
  }
  /** Content words that occur in the word list. */
  found(ws: string[]): number {
    return this.content.filter((k) => ws.some((w) => sameWord(w, k))).length;
  }
  /** Start indexes of the exact word sequence in the text. */
  positions(text: string): number[] {
    const ws = tokens(text);
    const out: number[] = [];
    for (let i = 0; i + this.words.length <= ws.length; i++) {
      if (this.words.every((k, j) => sameWord(ws[i + j], k))) out.push(i);
    }
    return out;
  }
}

function plain(text: string): string {
  return parseHtml(text ?? '').blocks.map((b) => b.text).join(' ');
}

function hostOf(url: string): string | null {
  try {
    return new URL(url).host.toLowerCase().replace(/^www\./, '');
  } catch {
    return null;
  }
}

/** Links by kind: same host as the site (or relative) is internal; fragments, mailto: and the like are ignored. */
export function classifyLinks(links: { href: string; rel: string }[], siteUrl: string) {
  const siteHost = hostOf(siteUrl);
  const base = siteUrl ? siteUrl.replace(/\/?$/, '/') : 'http://localhost/';
  const out = { internal: 0, internalFollowed: 0, outbound: 0, outboundFollowed: 0 };
  for (const l of links) {
    if (!l.href || l.href.startsWith('#')) continue;
    let url: URL;
    try { url = new URL(l.href, base); } catch { continue; }
    if (url.protocol !== 'http:' && url.protocol !== 'https:') continue;
    const followed = !/(^|\s)nofollow(\s|$)/.test(l.rel);
    if (url.host.toLowerCase().replace(/^www\./, '') === siteHost) {
      out.internal++;
      if (followed) out.internalFollowed++;
    } else {
      out.outbound++;
      if (followed) out.outboundFollowed++;
    }
  }
  return out;
}

function round2(n: number): number {
  return Math.round(n * 100) / 100;
}

export function analyzeSeoText(input: SeoInput): Analysis {
  const kp = new Keyphrase(input.keyphrase ?? '');
  const doc = parseHtml(input.html ?? '');
  const paragraphs = doc.blocks.filter((b) => b.kind === 'text');
  const headings = doc.blocks.filter((b) => b.kind === 'heading');
  const bodyText = paragraphs.map((p) => p.text).join('\n');
  const bodyWords = words(bodyText).length;
  if (kp.words.length === 0 || bodyWords === 0) return { score: 0, rating: 'na', results: [] };
  const results: AssessmentResult[] = [];
  const title = plain(input.title);
  const meta = plain(input.metaDescription);

  const n = kp.words.length;
  results.push(n <= 4
    ? result('keyphraseLength', GOOD, `The keyphrase has ${n} word(s).`)
    : n <= 8
      ? result('keyphraseLength', OK, `The keyphrase has ${n} words; a shorter one is easier to rank for.`)
      : result('keyphraseLength', BAD, `The keyphrase has ${n} words; keep it to four or fewer.`));

  const titleAt = kp.positions(title);
  results.push(titleAt[0] === 0
    ? result('keyphraseInSEOTitle', GOOD, 'The title begins with the exact keyphrase.')
    : titleAt.length > 0
      ? result('keyphraseInSEOTitle', OK, 'The title contains the exact keyphrase, but not at its start.')
      : result('keyphraseInSEOTitle', BAD, 'The title does not contain the exact keyphrase.'));

  const intro = paragraphs[0]?.text ?? '';
  results.push(sentences(intro).some((s) => kp.allIn(s))
    ? result('introductionKeyword', GOOD, 'The keyphrase appears in the first paragraph.')
    : kp.allIn(intro)
      ? result('introductionKeyword', OK, 'The keyphrase words appear in the first paragraph, but not within one sentence.')
      : result('introductionKeyword', BAD, 'The keyphrase does not appear in the first paragraph.'));

  let slug = input.slug ?? '';
  try { slug = decodeURIComponent(slug); } catch { /* keep it as it is */ }
  const slugFound = kp.found(tokens(slug.replace(/[-_]+/g, ' ')));
  results.push(slugFound === kp.content.length
    ? result('slugKeyword', GOOD, 'The slug contains the keyphrase.')
    : slugFound > 0
      ? result('slugKeyword', OK, 'The slug contains only part of the keyphrase.')
      : result('slugKeyword', BAD, 'The slug does not contain the keyphrase.'));

  const metaHits = sentences(meta).filter((s) => kp.allIn(s)).length;
  results.push(metaHits >= 1 && metaHits <= 2
    ? result('metaDescriptionKeyword', GOOD, 'The meta description contains the keyphrase.')
    : metaHits > 2
      ? result('metaDescriptionKeyword', OK, `The meta description contains the keyphrase ${metaHits} times; once or twice is enough.`)
      : result('metaDescriptionKeyword', BAD, 'The meta description does not contain the keyphrase.'));

  if (headings.length > 0) {
    const withKp = headings.filter((h) => kp.allIn(h.text)).length;
    const share = (withKp / headings.length) * 100;
    results.push(withKp === 0
      ? result('subheadingsKeyword', BAD, 'No subheading contains the keyphrase.')
      : (share >= 30 && share <= 75) || headings.length === 1
        ? result('subheadingsKeyword', GOOD, `${withKp} of ${headings.length} subheadings contain the keyphrase.`)
        : result('subheadingsKeyword', OK, share < 30
          ? `Only ${withKp} of ${headings.length} subheadings contain the keyphrase; aim for 30–75%.`
          : `${withKp} of ${headings.length} subheadings contain the keyphrase; more than 75% reads as overdone.`));
  }

  const altHits = doc.images.filter((i) => i.alt && kp.allIn(i.alt)).length;
  results.push(doc.images.length === 0
    ? result('imageKeyphrase', BAD, 'The text has no images; add one with the keyphrase in its alt text.')
    : altHits > 0
      ? result('imageKeyphrase', GOOD, `${altHits} image(s) have the keyphrase in their alt text.`)
      : result('imageKeyphrase', OK, 'No image has the keyphrase in its alt text.'));

  const occurrences = kp.positions(bodyText).length;
  const density = round2((occurrences / bodyWords) * 100);
  results.push(density >= 0.5 && density <= 3
    ? result('keyphraseDensity', GOOD, `Keyphrase density ${density}% (${occurrences} times in ${bodyWords} words).`)
    : density > 3 && density <= 4
      ? result('keyphraseDensity', OK, `Keyphrase density ${density}%: a little high; 0.5–3% is recommended.`)
      : result('keyphraseDensity', BAD, density < 0.5
        ? `Keyphrase density ${density}% (${occurrences} times in ${bodyWords} words): too low; 0.5–3% is recommended.`
        : `Keyphrase density ${density}%: far too high; 0.5–3% is recommended.`));

  results.push(bodyWords >= 300
    ? result('textLength', GOOD, `The text has ${bodyWords} words.`)
    : bodyWords >= 200
      ? result('textLength', OK, `The text has ${bodyWords} words; 300 or more is recommended.`)
      : result('textLength', BAD, `The text has ${bodyWords} words; that is too short, 300 or more is recommended.`));

  const links = classifyLinks(doc.links, input.siteUrl ?? '');
  results.push(links.internalFollowed > 0
    ? result('internalLinks', GOOD, `The text has ${links.internal} internal link(s).`)
    : links.internal > 0
      ? result('internalLinks', OK, 'The text has internal links, but all are nofollow.')
      : result('internalLinks', BAD, 'The text has no internal links.'));
  results.push(links.outboundFollowed > 0
    ? result('externalLinks', GOOD, `The text has ${links.outbound} outbound link(s).`)
    : links.outbound > 0
      ? result('externalLinks', OK, 'The text has outbound links, but all are nofollow.')
      : result('externalLinks', BAD, 'The text has no outbound links.'));

  const metaLength = [...meta].length;
  results.push(metaLength === 0
    ? result('metaDescriptionLength', BAD, 'No meta description has been set.')
    : metaLength < 120
      ? result('metaDescriptionLength', OK, `The meta description has ${metaLength} characters; up to 156 are shown.`)
      : metaLength <= 156
        ? result('metaDescriptionLength', GOOD, `The meta description has ${metaLength} characters.`)
        : result('metaDescriptionLength', OK, `The meta description has ${metaLength} characters; over 156 are cut off.`));

  const titleLength = [...title].length;
  results.push(titleLength === 0
    ? result('titleWidth', BAD, 'The title is empty.')
    : titleLength < 40
      ? result('titleWidth', OK, `The title has ${titleLength} characters; there is room for more.`)
      : titleLength <= 60
        ? result('titleWidth', GOOD, `The title has ${titleLength} characters.`)
        : result('titleWidth', BAD, `The title has ${titleLength} characters; over 60 are likely cut off.`));

  return overall(results);
}
