// Quiz fields: the page shows one of the tag's questions and carries a keyed hash of its answer
// in `_wpcf7_quiz_answer_{name}`; a submission passes when its answer hashes to that value and
// the value is one of the tag's answers (so a visitor cannot bring a hash of their own).
import { createHmac, randomInt } from 'node:crypto';
import type { FormTag } from './parser.js';

/** Answers compare case-, width- and space-insensitively. */
export const normalizeAnswer = (s: string): string => s.normalize('NFKC').toLowerCase().replace(/\s+/g, ' ').trim();

export function quizAnswerHash(siteKey: string, formHash: string, answer: string): string {
  return createHmac('sha256', `${siteKey}:quiz`).update(`${formHash}\u0000${normalizeAnswer(answer)}`).digest('hex').slice(0, 32);
}

/** A random question of the tag with the hash of its answer; null when the tag has none. */
export function pickQuestion(tag: FormTag, siteKey: string, formHash: string): { question: string; hash: string } | null {
  if (!tag.pipes.length) return null;
  const [question, answer] = tag.pipes[randomInt(tag.pipes.length)];
  return { question, hash: quizAnswerHash(siteKey, formHash, answer) };
}

/** Whether `given` answers the question whose answer hash the form carried. */
export function quizPasses(tag: FormTag, siteKey: string, formHash: string, given: string, carried: string): boolean {
  if (!carried || quizAnswerHash(siteKey, formHash, given) !== carried) return false;
  return tag.pipes.some(([, answer]) => quizAnswerHash(siteKey, formHash, answer) === carried);
}
