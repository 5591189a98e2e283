// Every `npm …` command the README shows in a code block runs, as written, on a scratch SQLite
// database, in README order (the site `npm start` creates is the one the later commands use):
// exit code 0 and a line that says it did its work. Servers run until they print "listening",
// then their process group is stopped. A command the README gains fails here until it is given
// an expected line below, or a reason to skip it; so does a package.json script no command covers.
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { hasProc, servingProcesses, type ServingProcess } from '../helpers/processes.js';

const root = join(import.meta.dirname, '../..');
const dir = mkdtempSync(join(tmpdir(), 'site-readme-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** The `npm` commands of the README's code blocks: comments, env assignments and `[optional]` parts left out. */
export function readmeCommands(readme: string): string[] {
  const commands: string[] = [];
  let inBlock = false;
  for (const line of readme.split('\n')) {
    if (line.startsWith('```')) { inBlock = !inBlock; continue; }
    if (!inBlock) continue;
    const code = line.split(/\s+#\s/)[0].trim();
    for (const part of code.split('&&')) {
      const cmd = part.trim().replace(/^(?:[A-Z_]+=\S+\s+)+/, '').replace(/\s*\[[^\]]*\]/g, '').trim();
      if (/^npm (start|test|ci|run \S+)/.test(cmd) && !commands.includes(cmd)) commands.push(cmd);
    }
  }
  return commands;
}

interface Expectation {
  /** A line of the output (stdout and stderr) that shows the command did its work. */
  line: RegExp;
  /** A server: done once `line` shows, then stopped. */
  server?: boolean;
  /** Arguments added to keep the run short. */
  cheap?: string;
  /** A server that must serve compiled JavaScript: no serving process runs TypeScript or tsx. */
  compiled?: boolean;
}

// Keyed by the command as extracted (a prefix is enough).
const RUN: [string, Expectation][] = [
  ['npm start', { line: /^listening on http:\/\/127\.0\.0\.1:\d+ with \d+ workers? /m, server: true, compiled: true }],
  ['npm run build', { line: /^built \d+ modules into dist\/gateway\/main\.js and \d+ chunks in \d+ ms$/m }],
  ['npm run dev', { line: /^listening on http:\/\/127\.0\.0\.1:\d+ with \d+ workers? /m, server: true }],
  ['npm run db:migrate', { line: /^(applied \d+ migrations? to |.* is up to date$)/m }],
  ['npm run db:seed', { line: /^sample content added: /m }],
  ['npm run cli -- user create', { line: /^\{"id":\d+,/m }],
  ['npm run cli -- user application-password create', { line: /^[A-Za-z0-9]{4}( [A-Za-z0-9]{4}){5}$/m }],
  ['npm run cli -- site demo', { line: /^Demo content added: 3 posts /m, cheap: '--posts=3' }],
  ['npm run lint:boundaries', { line: /no dependency violations found \(\d+ modules, \d+ dependencies cruised\)$/m }],
];

const SKIP: [string, string][] = [
  ['npm ci', 'reinstalls node_modules from scratch; CI (.ci/run) runs it on every build'],
  ['npm test', 'the whole suite, this file included; CI runs it'],
  ['npm run bench', 'loads the machine for minutes (seeds 10,000 posts, autocannon runs); it has no quick mode'],
  ['npm run test:reliability', 'minutes of load and repeated SIGKILLs of a real server on both databases; CI runs it after the suite'],
  ['npm run test:cluster', 'three instances behind HAProxy under a minute of load with one of them killed; CI runs it after the reliability suite'],
  ['npm run cli -- site set-url', "moves the site's address; test/contract/cli.test.ts runs it, and its refusals, on a database of its own"],
  ['npm run cli -- import wordpress', 'needs an export file and a server for its uploads; test/contract/import-wordpress.test.ts runs it on the fixture export with a loopback server'],
  ['npm run typecheck', 'tsc over the project; CI runs the same `npx tsc --noEmit`'],
  ['npm run generate', 'rewrites the Prisma clients under src/generated; every install runs it (postinstall)'],
  ['npm run schema:print', 'rewrites schema.graphql; test/contract/schema.test.ts fails when the file drifts from the code'],
  ['npm run client:types', 'writes examples/client/schema.d.ts (not committed) over any the developer has; test/client/example.test.ts makes the same types with the script\'s typesOf and compiles the example against them'],
  ['npm run contract:proxy', 'serves until stopped, in front of a running instance; test/contract/validating-proxy.test.ts runs the same proxy (createContractProxy) against a test site, and the bundle lane sends the suites through it'],
  ['npm run lint:schema', 'lints schema.graphql; test/contract/schema-lint.test.ts runs the same lint through ESLint\'s API'],
];

const entryOf = <T>(list: [string, T][], cmd: string) => list.find(([prefix]) => cmd === prefix || cmd.startsWith(`${prefix} `));

function run(cmd: string, e: Expectation, databaseUrl: string): Promise<{ code: number | null; output: string; processes: ServingProcess[] }> {
  const env: NodeJS.ProcessEnv = { ...process.env, DATABASE_URL: databaseUrl, PORT: '0', UPLOADS_DIR: join(dir, 'uploads'), WORKERS: '1', ADMIN_PASSWORD: 'readme-admin-password' };
  for (const name of ['SITE_URL', 'HOST', 'TEST_PROVIDER', 'VITEST', 'VITEST_POOL_ID', 'VITEST_WORKER_ID', 'NODE_ENV']) delete env[name];
  return new Promise((resolve, reject) => {
    const child = spawn('sh', ['-c', e.cheap ? `${cmd} ${e.cheap}` : cmd], { cwd: root, env, stdio: ['ignore', 'pipe', 'pipe'], detached: true });
    let output = '';
    let stopping = false;
    let processes: ServingProcess[] = [];
    const timer = setTimeout(() => { stop(); reject(new Error(`${cmd}: no answer in time:\n${output}`)); }, 150_000);
    const stop = () => { stopping = true; try { process.kill(-child.pid!, 'SIGTERM'); } catch { /* gone */ } };
    const onData = (chunk: Buffer) => {
      output += chunk;
      if (e.server && !stopping && e.line.test(output)) {
        if (hasProc) processes = servingProcesses(child.pid!);
        stop();
      }
    };
    child.stdout.on('data', onData);
    child.stderr.on('data', onData);
    child.once('error', reject);
    child.once('exit', (code) => {
      clearTimeout(timer);
      // A server stopped after its line counts as a clean run.
      resolve({ code: e.server && stopping ? 0 : code, output, processes });
    });
  });
}

const readme = readFileSync(join(root, 'README.md'), 'utf8');
const commands = readmeCommands(readme);

describe('README commands', () => {
  it('finds the commands of the README, each either run here or skipped for a stated reason', () => {
    expect(commands).toContain('npm start');
    expect(commands).toContain('npm run db:migrate');
    const unknown = commands.filter((c) => !entryOf(RUN, c) && !entryOf(SKIP, c));
    expect(unknown, 'give these an expected line in RUN, or a reason in SKIP').toEqual([]);
  });

  it('covers every package.json script with a README command, a run here, or a reason', () => {
    const scripts = Object.keys(JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')).scripts as Record<string, string>)
      .filter((s) => !/^(pre|post)/.test(s));
    const commandOf = (s: string) => (s === 'start' || s === 'test' ? `npm ${s}` : `npm run ${s}`);
    const uncovered = scripts.filter((s) => !commands.some((c) => c === commandOf(s) || c.startsWith(`${commandOf(s)} `)) && !entryOf(RUN, commandOf(s)) && !entryOf(SKIP, commandOf(s)));
    expect(uncovered).toEqual([]);
  });

  it('runs each one on a scratch SQLite database: exit 0 and the line that shows its work', async () => {
    const databaseUrl = `file:${join(dir, 'site.db')}`;
    // The README's commands in its order, then the scripts it does not show that run here (npm run dev).
    const toRun = [...commands, ...RUN.map(([c]) => c).filter((c) => !commands.some((x) => x.startsWith(c)))].filter((c) => entryOf(RUN, c));
    expect(toRun.length).toBeGreaterThanOrEqual(6);
    for (const cmd of toRun) {
      const [, e] = entryOf(RUN, cmd)!;
      const { code, output, processes } = await run(cmd, e, databaseUrl);
      expect(code, `${cmd}\n${output}`).toBe(0);
      expect(output, cmd).toMatch(e.line);
      if (e.compiled && hasProc) {
        expect(processes.length, `${cmd}: serving processes`).toBeGreaterThan(0);
        for (const p of processes) {
          expect(p.argv.join(' '), cmd).toMatch(/^\S*node \S*dist\/gateway\/main\.js$/);
          expect(p.nodeOptions, cmd).not.toMatch(/tsx/);
        }
      }
    }
  }, 900_000);
});
