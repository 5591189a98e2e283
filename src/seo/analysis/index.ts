// English content analysis for seo/v1: readability and keyphrase (SEO) assessments over a post's
// HTML. Pure functions, no database; the indexables builder and the score routes call them.
// Scale and rules: docs/plugin-routes.md, "Content analysis and score buckets (seo/v1)".
import { analyzeReadabilityText } from './readability.js';
import { analyzeSeoText, type SeoInput } from './seo.js';
import type { Analysis } from './score.js';

export { bucketOf } from './score.js';
export type { SeoInput } from './seo.js';

/** Readability of the HTML; `na` with no results when there is no text. */
export function analyzeReadability(input: { html: string; locale: string }): Analysis {
  return analyzeReadabilityText(input);
}

/** Keyphrase analysis; `na` with no results when there is no keyphrase or no text. */
export function analyzeSeo(input: SeoInput): Analysis {
  return analyzeSeoText(input);
}
