// Every answer a test receives from the REST interface is held to the OpenAPI document the same
// site serves (the check is scripts/contract/checker.ts). A test that reads an answer the document
// does not describe fails there, so the document cannot drift from what the service sends.
//
// On by default (the whole suite keeps the document, on SQLite and PostgreSQL); CONTRACT=0 turns
// it off. CONTRACT_LOG=<file> records violations as JSON lines instead of failing, to survey a
// whole run at once after the document or a handler changed. CONTRACT_PROXY=1 checks the answers
// in the validating proxy instead (scripts/contract/proxy.ts, in front of each test site's server):
// the helper then fails a request on the violations the proxy reports with its answer.
import { appendFileSync } from 'node:fs';
import { expect } from 'vitest';
import { Contract, ContractViolation, type Answer, type Violation } from '../../scripts/contract/checker.js';

export { Contract, ContractViolation, describeViolation, type Answer, type Violation } from '../../scripts/contract/checker.js';

type Doc = Record<string, any>;

/** Whether runs check answers when CONTRACT is not set. */
const ON_BY_DEFAULT = true;
export const contractEnabled = process.env.CONTRACT ? process.env.CONTRACT !== '0' : ON_BY_DEFAULT;
/** Whether the answers are checked by a validating proxy in front of each test site (CONTRACT_PROXY=1). */
export const contractByProxy = contractEnabled && process.env.CONTRACT_PROXY === '1';
const LOG = process.env.CONTRACT_LOG || '';

/** Fails (or with CONTRACT_LOG records) the violations found for one answer. */
export function reportViolations(violations: Violation[]): void {
  if (!violations.length) return;
  if (LOG) {
    appendFileSync(LOG, violations.map((v) => JSON.stringify({ ...v, test: expectState() }) + '\n').join(''));
    return;
  }
  throw new ContractViolation(violations);
}

/**
 * The check a test site runs on every answer: its document is fetched once, on the first request,
 * with `load` (which must not itself be checked). Throws ContractViolation, or with CONTRACT_LOG
 * appends the violations to that file.
 */
export function contractFor(load: () => Promise<Doc | null>, restPrefix: string) {
  let contract: Promise<Contract | null> | undefined;
  return async (method: string, url: string, headers: Headers, answer: Answer): Promise<void> => {
    if (!contractEnabled) return;
    contract ??= load().then((doc) => (doc ? new Contract(doc, restPrefix) : null));
    const c = await contract;
    if (!c) return;
    reportViolations(c.check(method, url, headers, answer));
  };
}

/** The running test's name, for the survey log. */
function expectState(): string | undefined {
  const state = expect.getState();
  return state?.currentTestName ? `${state.testPath?.split('/test/').pop() ?? ''} > ${state.currentTestName}` : undefined;
}
