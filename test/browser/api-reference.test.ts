// The API reference page in a real browser (Debian's Chromium through playwright-core) against
// the real node:http server: the renderer served by the service draws the generated document,
// and the page asks nothing of any other host.
import type { Server } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser } from 'playwright-core';
import { createTestSite, type TestSite } from '../helpers/app.js';
import { browserTestsRun, close, launchChromium, serveSite } from '../helpers/browser.js';

describe.runIf(browserTestsRun(import.meta.filename))('API reference page in Chromium', () => {
  let site: TestSite;
  let server: Server;
  let browser: Browser;
  let base = '';

  beforeAll(async () => {
    site = await createTestSite();
    ({ server, base } = await serveSite(site));
    browser = await launchChromium();
  }, 120_000);

  afterAll(async () => {
    await browser?.close();
    await close(server);
    await site?.close();
  });

  it('renders the routes of the generated document, loading nothing from elsewhere', async () => {
    const context = await browser.newContext();
    const page = await context.newPage();
    const elsewhere: string[] = [];
    const errors: string[] = [];
    await page.route('**/*', (route) => {
      const url = route.request().url();
      if (url.startsWith(base) || url.startsWith('data:')) return route.continue();
      elsewhere.push(url);
      return route.abort();
    });
    page.on('pageerror', (err) => errors.push(err.message));
    await page.goto(`${base}/wp-json/reference`);
    const route = site.app.table.find((r) => r.pattern === '/core/v2/posts')!;
    const title = String((route.schema!() as { title: string }).title);
    // The collection's list operation: its path and its summary, as the document names them.
    const operation = page.locator('.opblock-get', { hasText: `List ${title} items` }).first();
    // The page draws only the operations in view (a virtual list): scroll down to the namespace's
    // heading, then to the operation.
    await page.locator('.opblock-tag').first().waitFor({ timeout: 30_000 });
    const scrollTo = async (target: typeof operation) => {
      for (let i = 0; i < 400 && !(await target.isVisible()); i++) await page.mouse.wheel(0, 600);
      await target.waitFor({ timeout: 30_000 });
    };
    await scrollTo(page.locator('.opblock-tag').filter({ hasText: 'core/v2' }).first());
    await scrollTo(operation);
    expect(await operation.locator('[data-path]').first().getAttribute('data-path')).toBe('/core/v2/posts');
    expect(elsewhere).toEqual([]);
    expect(errors).toEqual([]);
    await context.close();
  }, 120_000);
});
