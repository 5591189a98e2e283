// npm run contract:proxy -- --target=<origin> [--port=<port>] [--host=<host>] [--prefix=/wp-json]
// Serves the validating proxy (scripts/contract/proxy.ts) in front of a running service and prints
// each violation as it is found; on Ctrl-C, how many answers it checked and how many broke the document.
import { createContractProxy } from './proxy.js';
import { describeViolation } from './checker.js';

const flags = Object.fromEntries(process.argv.slice(2).map((a) => /^--([^=]+)=(.*)$/.exec(a)).filter((m) => m).map((m) => [m![1], m![2]]));
if (!flags.target) {
  console.error('usage: npm run contract:proxy -- --target=http://127.0.0.1:8080 [--port=8081] [--host=127.0.0.1] [--prefix=/wp-json]');
  process.exit(2);
}
const proxy = createContractProxy({ target: flags.target, restPrefix: flags.prefix });
let shown = 0;
proxy.server.on('request', (_req, res) => res.on('finish', () => {
  for (; shown < proxy.report.violations.length; shown++) console.log(describeViolation(proxy.report.violations[shown]));
}));
const origin = await proxy.listen(Number(flags.port ?? 8081), flags.host ?? '127.0.0.1');
console.log(`checking answers of ${flags.target} against its OpenAPI document at ${origin}`);
process.on('SIGINT', () => {
  const { checked, passed, violations } = proxy.report;
  console.log(`\n${checked} answers checked: ${passed} kept the document, ${checked - passed} broke it (${violations.length} violations)`);
  void proxy.close().then(() => process.exit(violations.length ? 1 : 0));
});
