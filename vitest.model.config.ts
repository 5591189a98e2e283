// The content-model suite (test/model/): the service started with a site content model of the
// tests' own (test/fixtures/content-model/events.json). The model is read once per process when
// the schema and the route table are built, so these files run apart from the main suite, each
// in a fresh module graph, with CONTENT_MODEL set before anything loads.
import { defineConfig } from 'vitest/config';
import base from './vitest.config.js';

export default defineConfig({
  ...base,
  test: {
    ...base.test,
    include: ['test/model/**/*.test.ts'],
    exclude: ['**/node_modules/**'],
    isolate: true,
    env: { ...base.test?.env, CONTENT_MODEL: 'test/fixtures/content-model/events.json' },
  },
});
