// English content analysis for seo/v1: readability and keyphrase (SEO) assessments over a post's
// HTML. Pure functions, no database; the indexables builder and the score routes call them.
// Internals are being filled in; the signatures below are the contract.

export interface AssessmentResult {
  id: string;
  score: number;
  rating: 'good' | 'ok' | 'bad';
  text: string;
}

export interface Analysis {
  score: number;
  rating: 'good' | 'ok' | 'bad' | 'na';
  results: AssessmentResult[];
}

export function analyzeReadability(_input: { html: string; locale: string }): Analysis {
  return { score: 0, rating: 'na', results: [] };
}

export function analyzeSeo(_input: {
  keyphrase: string;
  title: string;
  metaDescription: string;
  slug: string;
  html: string;
  siteUrl: string;
}): Analysis {
  return { score: 0, rating: 'na', results: [] };
}
