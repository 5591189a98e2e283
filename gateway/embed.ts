// A second entry of the build (dist/gateway/embed.js): the service as a library, for a program
// that serves it on a server of its own, and for the test suite's bundle lane (TEST_BUNDLE=1, see
// test/helpers/app.ts), which runs the REST and GraphQL suites against what `npm start` runs. The
// build splits what this entry and gateway/main.ts share into the same chunks, so the lane
// loads the very files a started server loads.
export { createApp, type App } from './app.js';
export { createHttpServer } from './server.js';
export { openDb, type Db } from '../src/db/client.js';
export { loadConfig, type Config } from '../src/config.js';
export { createLogger, useLogger } from '../src/log.js';
