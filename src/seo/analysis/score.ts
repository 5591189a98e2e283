// The scoring scale shared by every assessment and the overall score, and the shapes of both.
// The shapes live here, not in index.ts: the assessments need them and index.ts imports the
// assessments, so taking them from index.ts made an import cycle.

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

/** Assessment scores, the plugin's style: 9 good, 6 ok, 3 bad. */
export const GOOD = 9;
export const OK = 6;
export const BAD = 3;

export function ratingOf(score: number): 'good' | 'ok' | 'bad' {
  return score >= 8 ? 'good' : score >= 5 ? 'ok' : 'bad';
}

export function result(id: string, score: number, text: string): AssessmentResult {
  return { id, score, rating: ratingOf(score), text };
}

/** Score bucket of an overall 0–100 score: bad 1–40, ok 41–70, good 71–100 (0 = not analysed). */
export function bucketOf(score: number | null | undefined): 'good' | 'ok' | 'bad' | 'na' {
  if (score === null || score === undefined || score <= 0) return 'na';
  return score > 70 ? 'good' : score > 40 ? 'ok' : 'bad';
}

/**
 * The overall score: the assessments' scores as a share of the best possible (9 each), 0–100,
 * rounded. All good → 100, all ok → 67, all bad → 33. No assessment → not analysed.
 */
export function overall(results: AssessmentResult[]): Analysis {
  if (results.length === 0) return { score: 0, rating: 'na', results };
  const sum = results.reduce((s, r) => s + r.score, 0);
  const score = Math.max(1, Math.min(100, Math.round((sum / (GOOD * results.length)) * 100)));
  return { score, rating: bucketOf(score), results };
}
