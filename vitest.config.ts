import { createRequire } from 'node:module';
import { defineConfig } from 'vitest/config';

const require = createRequire(import.meta.url);

export default defineConfig({
  resolve: {
    // graphql ships CommonJS and ESM copies; Node (and so Pothos and yoga) loads the CommonJS one,
    // so the tests must too, or types from the two copies meet and graphql refuses them.
    alias: [{ find: /^graphql$/, replacement: require.resolve('graphql') }],
  },
  test: {
    include: ['test/**/*.test.ts'],
    // The content-model suite runs with its own model, in its own run (vitest.model.config.ts).
    exclude: ['test/model/**', '**/node_modules/**'],
    // Once per run: the migrated, seeded site each test file copies (test/helpers/template.ts).
    globalSetup: ['test/setup/global.ts'],
    setupFiles: ['test/setup/matchers.ts'],
    // A cached answer's age bound (PostgreSQL) would turn a test's expected hit into a miss on a
    // slow run: off here; test/contract/read-your-writes.test.ts tests it with a clock of its own.
    env: { CACHE_STALE_BOUND_MS: '0' },
    testTimeout: 30_000,
    hookTimeout: 60_000,
    pool: 'forks',
    // Two cores: two files at a time keeps SQLite and PostgreSQL runs from starving each other.
    maxWorkers: 2,
    // Files share their worker's loaded modules (the schema is built once per worker, not per
    // file); each file still makes its own site and database, and caches are per database handle.
    isolate: false,
  },
});
