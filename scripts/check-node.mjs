// Run before `npm start` and `npm test` (and by `npm ci`, through .npmrc's engine-strict, before
// anything is installed): on a Node.js older than package.json's `engines` one line says which
// version is needed, instead of a native module's load error or a failing suite further on.
// Written for old runtimes too: plain syntax, nothing imported but node's own modules.
import { readFileSync } from 'node:fs';

const { engines } = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8'));
const wanted = /^>=\s*(\d+)\.(\d+)\.(\d+)$/.exec(engines.node);
const have = process.versions.node.split('.').map(Number);
if (wanted) {
  const need = wanted.slice(1).map(Number);
  const older = have[0] !== need[0] ? have[0] < need[0] : have[1] !== need[1] ? have[1] < need[1] : have[2] < need[2];
  if (older) {
    console.error(`This service needs Node.js ${need.join('.')} or newer (24, the current LTS, is what it is tested on); this is Node.js ${process.versions.node}: see "Node versions" in the README.`);
    process.exit(1);
  }
}
