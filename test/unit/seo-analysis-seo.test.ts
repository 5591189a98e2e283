import { describe, expect, it } from 'vitest';
import { analyzeSeo } from '../../src/seo/analysis/index.js';

const FILLER = [
  'Soil needs steady care and water during the dry months.',
  'Plants grow best when their roots reach deep into earth.',
  'Every bed benefits from compost mixed in early in spring.',
  'Weeds compete with flowers for light, food and fresh moisture.',
  'Mulch keeps the ground cool on long and sunny afternoons.',
];
/** n ten-word sentences without the keyphrase's words. */
const filler = (n: number) => Array.from({ length: n }, (_, i) => FILLER[i % FILLER.length]).join(' ');

const SITE = 'https://example.test';
const META = 'Garden tools last for years when you choose them well. This guide explains what to buy, how to clean each tool and where to keep it dry.';
const TITLE = 'Garden tools: a practical guide for every season';

function html(o: { intro?: string; headings?: string[]; images?: string; links?: string; extra?: string } = {}) {
  const h = o.headings ?? ['How to store garden tools', 'Cleaning garden tools after use', 'Seasonal planting advice'];
  return `<p>${o.intro ?? 'Choosing garden tools is easier with a plan.'} ${filler(2)}</p>`
    + `<h2>${h[0]}</h2><p>${filler(10)} ${o.links ?? `<a href="/care">Care</a> <a href="https://other.example/guide">Guide</a>`}</p>`
    + `<h2>${h[1]}</h2>${o.images ?? '<img src="t.jpg" alt="Garden tools on a bench">'}<p>${filler(10)}</p>`
    + h.slice(2).map((x) => `<h2>${x}</h2>`).join('') + `<p>${filler(8)} Sharp garden tools last longer.${o.extra ?? ''}</p>`;
}
/** Body words counted independently: paragraphs' text split on white space. */
const bodyWords = (s: string) => [...s.matchAll(/<p>(.*?)<\/p>/g)].map((m) => m[1].replace(/<[^>]+>/g, ' ')).join(' ').split(/\s+/).filter(Boolean).length;

const base = { keyphrase: 'garden tools', title: TITLE, metaDescription: META, slug: 'garden-tools-guide', html: html(), siteUrl: SITE };
const rating = (over: Partial<typeof base>, id: string) => analyzeSeo({ ...base, ...over }).results.find((r) => r.id === id)?.rating;

describe('seo analysis: a well-optimised text', () => {
  it('rates every assessment good and scores 100', () => {
    expect(TITLE.length).toBeGreaterThanOrEqual(40);
    expect(TITLE.length).toBeLessThanOrEqual(60);
    expect(META.length).toBeGreaterThanOrEqual(120);
    expect(META.length).toBeLessThanOrEqual(156);
    const words = bodyWords(base.html);
    const density = (2 / words) * 100;
    expect(words).toBeGreaterThanOrEqual(300);
    expect(density).toBeGreaterThanOrEqual(0.5);
    const a = analyzeSeo(base);
    expect(a.results.filter((r) => r.rating !== 'good')).toEqual([]);
    expect(a.results.map((r) => r.id).sort()).toEqual([
      'externalLinks', 'imageKeyphrase', 'internalLinks', 'introductionKeyword', 'keyphraseDensity', 'keyphraseInSEOTitle',
      'keyphraseLength', 'metaDescriptionKeyword', 'metaDescriptionLength', 'slugKeyword', 'subheadingsKeyword', 'textLength', 'titleWidth',
    ]);
    expect(a).toMatchObject({ score: 100, rating: 'good' });
    expect(a.results.find((r) => r.id === 'textLength')!.text).toContain(String(words));
  });

  it('no keyphrase or no text: not analysed', () => {
    expect(analyzeSeo({ ...base, keyphrase: '  ' })).toEqual({ score: 0, rating: 'na', results: [] });
    expect(analyzeSeo({ ...base, html: '<h2>garden tools</h2>' })).toEqual({ score: 0, rating: 'na', results: [] });
  });

  it('a poorly optimised text lands in the bad bucket', () => {
    const a = analyzeSeo({ keyphrase: 'garden tools', title: '', metaDescription: '', slug: 'p-12', html: `<p>${filler(3)}</p>`, siteUrl: SITE });
    expect(a.rating).toBe('bad');
    expect(a.score).toBeLessThanOrEqual(40);
  });
});

describe('seo analysis: each assessment', () => {
  it('keyphrase length: 1–4 good, 5–8 ok, more bad', () => {
    expect(rating({ keyphrase: 'best cheap garden tools for beginners' }, 'keyphraseLength')).toBe('ok');
    expect(rating({ keyphrase: 'the very best cheap garden tools for complete beginners in spring' }, 'keyphraseLength')).toBe('bad');
  });
  it('title: exact keyphrase at the start good, elsewhere ok, absent bad', () => {
    expect(rating({ title: 'A practical guide to garden tools' }, 'keyphraseInSEOTitle')).toBe('ok');
    expect(rating({ title: 'Tools for the garden' }, 'keyphraseInSEOTitle')).toBe('bad');
    expect(rating({ title: 'GARDEN TOOL basics' }, 'keyphraseInSEOTitle')).toBe('good');
  });
  it('introduction: in one sentence good, spread over sentences ok, absent bad', () => {
    expect(rating({ html: html({ intro: 'Every garden needs care. The right tools help.' }) }, 'introductionKeyword')).toBe('ok');
    expect(rating({ html: html({ intro: 'Every bed needs care.' }) }, 'introductionKeyword')).toBe('bad');
  });
  it('slug: all words good, some ok, none bad', () => {
    expect(rating({ slug: 'garden-guide' }, 'slugKeyword')).toBe('ok');
    expect(rating({ slug: 'guide' }, 'slugKeyword')).toBe('bad');
  });
  it('meta description: once or twice good, more ok, absent bad', () => {
    expect(rating({ metaDescription: 'Garden tools. Garden tools again. More garden tools.' }, 'metaDescriptionKeyword')).toBe('ok');
    expect(rating({ metaDescription: 'A guide for the weekend.' }, 'metaDescriptionKeyword')).toBe('bad');
  });
  it('subheadings: 30–75 % good, fewer or more ok, none bad, no subheadings not assessed', () => {
    expect(rating({ html: html({ headings: ['Garden tools', 'Garden tools', 'Garden tools'] }) }, 'subheadingsKeyword')).toBe('ok');
    expect(rating({ html: html({ headings: ['Garden tools', 'B', 'C', 'D', 'E'] }) }, 'subheadingsKeyword')).toBe('ok');
    expect(rating({ html: html({ headings: ['A', 'B', 'C'] }) }, 'subheadingsKeyword')).toBe('bad');
    expect(rating({ html: `<p>${filler(31)} garden tools</p>` }, 'subheadingsKeyword')).toBeUndefined();
  });
  it('image alt: keyphrase good, images without it ok, no images bad', () => {
    expect(rating({ html: html({ images: '<img src="a.jpg" alt="A bench">' }) }, 'imageKeyphrase')).toBe('ok');
    expect(rating({ html: html({ images: '' }) }, 'imageKeyphrase')).toBe('bad');
  });
  it('density: 0.5–3 % good, to 4 % ok, below or above bad', () => {
    const body = (times: number, sentences: number) => `<p>${Array(times).fill('Garden tools.').join(' ')} ${filler(sentences)}</p>`;
    // 10 of 320 words = 3.1 %; 20 of 340 = 5.9 %; 2 of 604 = 0.33 %
    for (const [times, sentences, expected] of [[10, 30, 'ok'], [20, 30, 'bad'], [2, 60, 'bad'], [3, 30, 'good']] as const) {
      const h = body(times, sentences);
      const d = (times / bodyWords(h)) * 100;
      expect(expected).toBe(d >= 0.5 && d <= 3 ? 'good' : d > 3 && d <= 4 ? 'ok' : 'bad');
      expect([times, rating({ html: h }, 'keyphraseDensity')]).toEqual([times, expected]);
    }
  });
  it('text length: ≥ 300 good, ≥ 200 ok, less bad', () => {
    expect(rating({ html: `<p>garden tools ${filler(25)}</p>` }, 'textLength')).toBe('ok');
    expect(rating({ html: `<p>garden tools ${filler(10)}</p>` }, 'textLength')).toBe('bad');
  });
  it('internal and outbound links: followed good, only nofollow ok, none bad', () => {
    const nofollow = '<a href="https://www.example.test/a" rel="nofollow">a</a> <a href="http://elsewhere.example/" rel="noopener nofollow">b</a>';
    expect(rating({ html: html({ links: nofollow }) }, 'internalLinks')).toBe('ok');
    expect(rating({ html: html({ links: nofollow }) }, 'externalLinks')).toBe('ok');
    const none = '<a href="#top">top</a> <a href="mailto:a@example.test">mail</a>';
    expect(rating({ html: html({ links: none }) }, 'internalLinks')).toBe('bad');
    expect(rating({ html: html({ links: none }) }, 'externalLinks')).toBe('bad');
  });
  it('meta description length: 120–156 good, shorter or longer ok, empty bad', () => {
    expect(rating({ metaDescription: 'Garden tools, briefly.' }, 'metaDescriptionLength')).toBe('ok');
    expect(rating({ metaDescription: `${META} ${META}` }, 'metaDescriptionLength')).toBe('ok');
    expect(rating({ metaDescription: '' }, 'metaDescriptionLength')).toBe('bad');
  });
  it('title width by characters: 40–60 good, shorter ok, longer or empty bad', () => {
    expect(rating({ title: 'Garden tools' }, 'titleWidth')).toBe('ok');
    expect(rating({ title: `${TITLE} and for every other occasion too` }, 'titleWidth')).toBe('bad');
    expect(rating({ title: '' }, 'titleWidth')).toBe('bad');
  });
});
