// Once per `vitest run`: builds the migrated, seeded site that every test file copies
// (test/helpers/template.ts) for the provider of this run, and removes it at the end. First it
// removes what runs that were killed left (they never reach the end).
import type { TestProject } from 'vitest/node';
import { buildTemplate, removeTemplate, sweepLeftovers } from '../helpers/template.js';

declare module 'vitest' {
  export interface ProvidedContext {
    /** The template's JSON (test/helpers/template.ts); empty when none could be built. */
    siteTemplate: string;
  }
}

export default async function setup(project: TestProject) {
  const provider = process.env.TEST_PROVIDER === 'postgres' ? 'postgres' : 'sqlite';
  try {
    const removed = await sweepLeftovers(provider);
    if (removed.length) console.log(`removed what ended test runs left: ${removed.join(', ')}`);
  } catch (err) {
    // A leftover that cannot be removed now is tried again next run; this run does not need it gone.
    console.error('what ended test runs left could not be removed:', err);
  }
  const started = performance.now();
  let json = '';
  try {
    json = await buildTemplate(provider);
  } catch (err) {
    // Each file then builds its own site, as without global setup (slower, same results).
    console.error(`test site template (${provider}) could not be built; each test file builds its own site:`, err);
  }
  project.provide('siteTemplate', json);
  if (json && process.env.TEST_TIMINGS === '1') console.log(`test site template (${provider}) built in ${Math.round(performance.now() - started)} ms`);
  return async () => { if (json) await removeTemplate(json); };
}
