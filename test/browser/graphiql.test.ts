// GraphiQL at GET /graphql in a real browser (Debian's Chromium through playwright-core) with the
// network closed: every request for another host than the loopback server is aborted. The page
// must draw its editor, load the schema and run a query from what the service itself sends,
// under the service's Content-Security-Policy; first from the source (createApp over node:http),
// then from the compiled bundle (`npm start`'s dist/gateway/main.js).
import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import type { Server } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser } from 'playwright-core';
import { createTestSite, type TestSite } from '../helpers/app.js';
import { browserTestsRun, close, launchChromium, serveSite } from '../helpers/browser.js';
import { startCompiled, type Compiled } from '../helpers/processes.js';

const root = join(import.meta.dirname, '../..');

interface Seen {
  base: string;
  /** Requests for anything but the server under test, aborted. */
  elsewhere: string[];
  /** Uncaught errors, console errors and Content-Security-Policy violations, of the page and its workers. */
  problems: string[];
  /** The Content-Security-Policy the page came with. */
  policy: string | null;
  /** The GraphQL operations the page posted to /graphql. */
  posted: string[];
  /** The addresses of the workers the page started (the editor's language services). */
  workers: string[];
  /** What the response pane showed for `{ __typename }`. */
  result: string;
}

/** Opens GraphiQL at `base`/graphql offline, runs `{ __typename }` from its editor, and reports what happened. */
async function runGraphiQL(browser: Browser, base: string): Promise<Seen> {
  const context = await browser.newContext();
  try {
    const page = await context.newPage();
    const seen: Seen = { base, elsewhere: [], problems: [], policy: null, posted: [], workers: [], result: '' };
    await context.route('**/*', (route) => {
      const url = route.request().url();
      if (url.startsWith(`${base}/`)) return route.continue();
      seen.elsewhere.push(url);
      return route.abort('internetdisconnected');
    });
    // Chromium reports a refused script, style, worker or request as an event on the document.
    await context.addInitScript(() => {
      document.addEventListener('securitypolicyviolation', (e) => console.error(`CSP violation: ${e.violatedDirective} ${e.blockedURI}`));
    });
    const problem = (where: string) => (msg: { type(): string; text(): string }) => {
      if (msg.type() === 'error' || /content security policy|refused/i.test(msg.text())) seen.problems.push(`${where}: ${msg.text()}`);
    };
    page.on('console', problem('page'));
    page.on('pageerror', (err) => seen.problems.push(`page: ${err.message}`));
    page.on('worker', (worker) => {
      seen.workers.push(worker.url());
      worker.on('console', problem('worker'));
    });
    page.on('request', (req) => {
      if (req.method() !== 'POST' || req.url() !== `${base}/graphql`) return;
      const body = req.postData() ?? '';
      try { seen.posted.push(String(JSON.parse(body).query ?? '')); } catch { seen.posted.push(body); }
    });

    const response = await page.goto(`${base}/graphql`);
    expect(response?.status()).toBe(200);
    // yoga's default title, as its own page had (the config sets none).
    expect(await page.title()).toBe('Yoga GraphiQL');
    seen.policy = (await response!.allHeaders())['content-security-policy'] ?? null;

    // The page's own DOM: GraphiQL's container and its query editor (the Monaco editor in it).
    const editor = page.locator('.graphiql-container .graphiql-query-editor .monaco-editor');
    await editor.waitFor({ timeout: 30_000 }).catch((err: Error) => {
      throw new Error(`GraphiQL drew no editor (${err.message.split('\n')[0]}); aborted: ${JSON.stringify(seen.elsewhere)}; problems: ${JSON.stringify(seen.problems)}`);
    });
    // The schema, fetched from /graphql, opens the documentation explorer's root types.
    await page.locator('.graphiql-container [aria-label="Show Documentation Explorer"]').click();
    await page.locator('.graphiql-doc-explorer-root-type').first().waitFor({ timeout: 30_000 });

    // The editor's text replaced with a query of ours (insertText: no bracket auto-closing).
    await editor.click();
    await page.keyboard.press('ControlOrMeta+A');
    await page.keyboard.press('Delete');
    await page.keyboard.insertText('{ __typename }');
    await page.locator('.graphiql-container button.graphiql-execute-button').click();
    const pane = page.locator('.graphiql-container .graphiql-response');
    await expect.poll(() => pane.innerText(), { timeout: 30_000 }).toContain('"__typename"');
    seen.result = (await pane.innerText()).replace(/\s+/g, ' ');
    return seen;
  } finally {
    await context.close();
  }
}

/** What every run must have seen. */
function expectOffline(seen: Seen) {
  expect(seen.elsewhere).toEqual([]);
  expect(seen.problems).toEqual([]);
  expect(seen.posted.some((q) => q.includes('__schema'))).toBe(true);
  // GraphiQL sends the operation reprinted without its spaces.
  expect(seen.posted.map((q) => q.replace(/\s+/g, ''))).toContain('{__typename}');
  expect(seen.policy).toMatch(/script-src 'sha256-[A-Za-z0-9+/]+=*'/);
  expect(seen.policy).toMatch(/default-src 'none'/);
  // The editor's workers run from the page's own blob: URLs (refused, the editor would lose its language services).
  expect(seen.workers.length).toBeGreaterThan(0);
  for (const url of seen.workers) expect(url.startsWith(`blob:${seen.base}/`), url).toBe(true);
}

describe.runIf(browserTestsRun(import.meta.filename))('GraphiQL in Chromium, offline', () => {
  let browser: Browser;

  beforeAll(async () => {
    browser = await launchChromium();
  }, 120_000);

  afterAll(async () => {
    await browser?.close();
  });

  describe('from the source', () => {
    let site: TestSite;
    let server: Server;
    let base = '';

    beforeAll(async () => {
      site = await createTestSite();
      ({ server, base } = await serveSite(site));
    }, 120_000);

    afterAll(async () => {
      await close(server);
      await site?.close();
    });

    it('draws the editor, loads the schema and runs a query, asking nothing of any other host', async () => {
      const seen = await runGraphiQL(browser, base);
      expectOffline(seen);
      // The same answer a client gets posting the query itself.
      const direct = await site.gql('{ __typename }');
      expect(seen.result).toContain(`"__typename": "${direct.data.__typename}"`);
    }, 120_000);
  });

  describe('from the build', () => {
    let dir = '';
    let service: Compiled | undefined;

    beforeAll(async () => {
      dir = mkdtempSync(join(tmpdir(), 'site-graphiql-'));
      // What `npm start` runs first; the build takes turns with any other (a lock).
      await new Promise<void>((resolve, reject) => execFile(process.execPath, ['scripts/build.mjs', '--if-stale'], { cwd: root }, (err) => (err ? reject(err) : resolve())));
      service = await startCompiled({ DATABASE_URL: `file:${join(dir, 'site.db')}`, UPLOADS_DIR: join(dir, 'uploads') });
    }, 120_000);

    afterAll(async () => {
      await service?.stop();
      if (dir) rmSync(dir, { recursive: true, force: true });
    });

    it('works the same from the compiled bundle (dist/gateway/main.js)', async () => {
      const seen = await runGraphiQL(browser, service!.base);
      expectOffline(seen);
      expect(seen.result).toMatch(/"__typename": "\w+"/);
    }, 120_000);
  });
});
